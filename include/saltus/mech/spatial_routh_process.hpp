// Routh's impulse process for one contact in space with Coulomb's cone, ended by Newton's,
// Poisson's or Stronge's restitution: the planar process of routh_impact_process.hpp with the
// tangential impulse a vector of the tangent plane, whose slip direction turns during the impact
// (Stronge, "Impact Mechanics", 2000, ch. 5; Batlle, "The sliding velocity flow of rough
// collisions in multibody systems", J. Appl. Mech. 63 (1996) 804).
//
// Contact velocities v = (v_N, v_T) = W^T qdot as in spatial_impact_law.hpp, v = v- + A P,
// A = [[A_NN, c^T], [a, B]] (a = A_TN, B = A_TT). The normal impulse p = P_N is the clock.
//   slip (|v_T| > 0):  dP_T/dp = -mu v_T / |v_T|. The slip velocity obeys the autonomous flow
//                      dv_T/dp = a - mu B v_T / |v_T| (its hodograph turns: "swerve"), which has
//                      no closed form; it is integrated by DOP853 (rtol 1e-13) with the normal
//                      and friction work W_N = int v_N dp, W_T = int v_T . dP_T = -mu int |v_T|
//                      dp, and its events located on the dense output (Brent).
//   stick (v_T = 0):   if |B^-1 a| <= mu the contact stays at rest, dP_T/dp = -B^-1 a;
//                      otherwise slip restarts along the direction s* with a - mu B s* = k s*,
//                      k > 0 (a ray of the slip flow, on which it grows and never stops again).
//                      Both phases are affine in p and solved exactly.
//   events:            the slip stops (|v_T| falls to 1e-10 |v-|, then the last stretch is
//                      taken along its direction, an error of that size times its turn);
//                      compression ends (v_N = 0: P_c and W_c recorded); termination:
//                        Newton  v_N = -e v_N-    Poisson  p = (1 + e) P_c
//                        Stronge W_N = (1 - e^2) W_c (restitution work -e^2 W_c)
//                      e = 0 ends at the compression's end with all three.
// Statuses (ImpactStatus::Jam, with a message naming the process's state): the compression
// does not end (a slip that never stops while v_N cannot grow), v_N returns to 0 during
// restitution, the slip restarts in no or several directions, the integration fails, or its
// work W_N + W_T differs from the kinetic energy change P . v- + 1/2 P^T A P by more than 1e-9 of
// the contact's kinetic energy (the process's own check of its integration).
// Properties (tested): with the motion in one tangent direction it is the planar process; with
// A_NT = 0 and B isotropic (a sphere) every termination is Newton's law with the cone (e_t = 0);
// Stronge's ending never gains energy (W_N = (1 - e^2) W_c <= 0, W_T <= 0).
#pragma once

#include <vector>

#include "saltus/mech/routh_impact_process.hpp"
#include "saltus/mech/spatial_impact_law.hpp"

namespace saltus::mech {

enum class SpatialSlipPhase {
  Slip,     // sliding, the direction turning (integrated)
  Stick,    // at rest, |B^-1 a| <= mu
  RaySlip,  // slip restarted from rest along its invariant direction s*
};
const char* to_string(SpatialSlipPhase phase);

struct SpatialRouthPhase {
  SpatialSlipPhase kind = SpatialSlipPhase::Slip;
  double P_N_end = kNaN;
  PhaseEnd end = PhaseEnd::Terminate;  // StickOrReverse: the slip stopped
};

// What the process went through, for tests and event notes.
struct SpatialRouthTrace {
  std::vector<SpatialRouthPhase> phases;
  double P_N_compression = kNaN;
  double W_compression = kNaN;  // int v_N dP_N over the compression (<= 0)
  double W_restitution = kNaN;  // over the restitution (>= 0)
  double normal_work = 0.0;     // W_N over the whole process
  double friction_work = 0.0;   // W_T = -mu int |v_T| dP_N (<= 0)
};

// The process above (no impulse when v_N- >= 0). result.sticks: it ended at rest.
SpatialImpactResult spatial_routh_impact(const SpatialImpactInput& input, double e, double mu,
                                         RouthTermination termination,
                                         SpatialRouthTrace* trace = nullptr);

// Lecornu's impact without collision in space (the planar impact_without_collision of
// routh_impact_process.hpp): a contact sliding at v_N = 0 (v_minus[0] is taken as 0) whose slip
// is a Painleve slip, dv_N/dP_N = A_NN - mu A_NT d <= jam_slope (d its direction). The process
// from there with e = 0: the slip drives v_N negative (or holds it within jam_slope P_N of 0),
// turns, decelerates and stops, and the stick (or the restarted slip) ends the compression: the
// impulse that brings the slip to rest. Any other slip: no impulse.
SpatialImpactResult spatial_impact_without_collision(const SpatialImpactInput& input, double mu,
                                                     double jam_slope,
                                                     SpatialRouthTrace* trace = nullptr);

}  // namespace saltus::mech
