// Routh's impulse-plane process for a planar single-contact impact with Coulomb friction,
// terminated by Newton's, Poisson's or Stronge's restitution (FORMULAS.md 9 and 6.4; seed 002
// "Routh's graphical method"; Stronge 1991, J. Appl. Mech. 58:1049).
//
// The normal impulse P_n is the clock; v(P) = v- + A P is affine in P, so each phase is solved
// exactly (no time stepping). Phase slopes k = dP_t/dP_n:
//   slip, s = sign(v_t) = +-1:   k = -mu s                 (along a cone edge)
//   stick (v_t = 0):             k = -A_tn / A_tt          if |A_tn| <= mu A_tt (on the s-line)
//                                otherwise slip with s = sign(A_tn) (slip reversal when the
//                                contact arrived slipping the other way)
// In a phase dv_t/dP_n = A_tt k + A_tn (0 in stick) and dv_n/dP_n = A_tn k + A_nn.
// Events, smallest positive increment first: (a) v_t reaches 0 while slipping (stick or reversal),
// (b) v_n reaches 0 while compressing (c-line: P_nc and W_c = int v_n dP_n recorded),
// (c) termination:
//   Newton   v_n = -e v_n-                   (kinematic)
//   Poisson  P_n = (1 + e) P_nc              (kinetic)
//   Stronge  int_0^{P_n} v_n dP_n = (1 - e^2) W_c, i.e. W_r = -e^2 W_c   (energetic; one
//            quadratic per phase since v_n is affine in P_n)
// e = 0: all three stop at the c-line. A slip phase with dv_n/dP_n <= 0 (a Painleve slip,
// mu s A_tn >= A_nn) cannot end the compression, but it decelerates and stops, and the process
// goes on in stick, which ends it: for a positive definite A a Painleve slip that did not
// decelerate (|A_tn| > mu A_tt) would need A_tn^2 > A_tt A_nn, so the process always ends. The
// status Jam (result = state reached, the message names the proof) remains only for a slip that
// never stops while v_n cannot grow, or v_n returning to 0 in restitution, which an indefinite
// A (round-off, a model's degenerate contact) can produce.
//
// Known properties (FORMULAS.md 9, re-checked in tests): the three terminations coincide for
// diagonal A and whenever the slip never stops; Newton can create energy with slip reversal or
// stick (oracle body_newton_energy_gain_visible, Delta T = +0.3676).
//
// Symbol table: P_nc -> P_n_compression, W_c -> W_compression, W_r -> W_restitution,
// s-line/c-line/t-line as in FORMULAS.md 9; others as in impact_law.hpp.
#pragma once

#include "saltus/mech/impact_law.hpp"

namespace saltus::mech {

enum class RouthTermination { Newton, Poisson, Stronge };

const char* to_string(RouthTermination termination);

// Whether a law is one of Routh's processes (RouthNewton, RouthPoisson, RouthStronge), and which
// ending it takes (another law throws).
bool is_routh(ImpactLawKind kind);
RouthTermination routh_termination(ImpactLawKind kind);

// Where an ending is reached along a restitution phase in which v_n is affine in P_n: the
// increment of P_n from the phase's start (P_n, v_n, W = int v_n dP_n) at slope a_n = dv_n/dP_n
// (kInfinity: not in this phase). Newton: v_n = -e v_n-; Poisson: P_n = (1 + e) P_nc; Stronge:
// W = (1 - e^2) W_c. Shared by the planar process and the one in space (spatial_routh_process.hpp).
double routh_ending_increment(RouthTermination termination, double e, double v_n_minus, double P_n,
                              double v_n, double W, double a_n, double P_n_compression,
                              double W_compression);

PlanarImpactResult routh_impact(const PlanarImpactInput& input, double e, double mu,
                                RouthTermination termination);

// Lecornu's impact without collision (Genot and Brogliato's dynamic jam): a contact sliding at
// v_n = 0 (v_minus[1] is taken as 0) whose slip is in the Painleve regime, B = A_nn - mu s A_tn <=
// 0. Routh's process from there: the slip drives v_n negative, decelerates and stops, and the
// stick phase ends the compression (e = 0: the contact stays closed, v+ = 0): the impulse that
// brings the slip to rest. With B > jam_slope no impulse; a slip with 0 < B <= jam_slope (the
// dynamic jam located a little before B = 0) is taken as a Painleve slip along which v_n stays 0.
PlanarImpactResult impact_without_collision(const PlanarImpactInput& input, double mu,
                                            double jam_slope = 0.0);

}  // namespace saltus::mech
