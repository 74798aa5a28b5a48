// The choice of a rigid impact law per contact, its coefficients, and what every law returns.
//
// Sources: FORMULAS.md sections 0 (ranges of e, e_t, mu), 4 (frictionless Newton), 6.3 (naive
// law), 7 (collision matrix), 8 (Chatterjee-Ruina), 9 (Routh with Newton/Poisson/Stronge);
// seed 002 (impact with friction and slippage).
//
// Planar single-contact impact in collision-matrix form (FORMULAS.md 7.1): contact velocity
// v = (v_t, v_n), impulse P = (P_t, P_n) on the body, Delta v = A P with the collision matrix
// A = W^T M^-1 W, where W = [w_T w_N] is n x 2 (COLUMN convention of planar_contact.hpp: column
// w_N is the generalised direction of the normal impulse, v_n = w_N^T qdot).
//
// Symbol table (FORMULAS.md -> code):
//   e, e_t, mu               -> ContactImpactLaw::e, e_t, mu
//   A (2x2, index 0 = t, 1 = n) -> PlanarImpactInput::A
//   v- = (v_t-, v_n-)        -> PlanarImpactInput::v_minus
//   P = (P_t, P_n)           -> PlanarImpactResult::impulse
//   v+                       -> PlanarImpactResult::v_plus
//   Delta T = T+ - T-        -> PlanarImpactResult::dT (7.3: P^T v- + 1/2 P^T A P)
#pragma once

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::mech {

// Which rigid impact law resolves a contact's impacts.
enum class ImpactLawKind {
  NewtonFrictionless,  // P(q, e) of FORMULAS.md 4.1 / seed 000 (5.17)-(5.19); ignores mu, e_t
  Naive,               // FORMULAS.md 6.3: Newton in the normal direction, P_t = -mu s P_n with
                       // s = sign(v_t-) frozen; can CREATE energy (kept to show it)
  ChatterjeeRuina,     // FORMULAS.md 8: algebraic law with e and e_t, projected on the cone
  RouthNewton,         // FORMULAS.md 9: impulse-plane process ended by v_n = -e v_n-
  RouthPoisson,        // ... ended by P_n = (1 + e) P_nc
  RouthStronge,        // ... ended by restitution work = -e^2 compression work
  NewtonCoulomb,       // seed 001 (2.14)-(2.18): Newton (e) and Coulomb with Glocker's e_t, the
                       // impact LCP over every contact taking part (newton_coulomb_law.hpp)
};

const char* to_string(ImpactLawKind kind);
// All kinds in declaration order (for sweeps that run one scene under every law).
const std::vector<ImpactLawKind>& all_impact_laws();
// Only the frictional planar laws (every kind except NewtonFrictionless).
const std::vector<ImpactLawKind>& frictional_impact_laws();

// Whether a law's e may exceed 1 (a super-elastic contact): only the kinematic Newton laws,
// NewtonFrictionless and NewtonCoulomb, whose e is the ratio of normal rates gdot_N+ = -e gdot_N-
// that an active surface (a vibrating table, Clark and Bloch's Example 4) can raise above 1, and
// whose impulse exists and is unique for every e >= 0 (NewtonCoulomb: the impact LCP's matrix
// does not depend on e). Not the others: Naive is kept to show the energy it creates with
// e <= 1; ChatterjeeRuina's e and e_t are defined with the projection onto the cone that keeps
// its impact dissipative for e <= 1 (FORMULAS.md 8); Routh's processes (RouthNewton, RouthPoisson,
// RouthStronge) describe a passive deformable contact through compression and restitution, whose
// ratios of restitution to compression (rate, impulse, work) such a contact keeps <= 1.
bool allows_superelastic(ImpactLawKind kind);

// The law of one contact and its coefficients.
struct ContactImpactLaw {
  ImpactLawKind kind = ImpactLawKind::NewtonFrictionless;
  double e = 0.5;    // normal coefficient of restitution, [0, 1] (kinematic, kinetic or
                     // energetic according to kind); > 1 only when superelastic
  double e_t = 0.0;  // tangential restitution: ChatterjeeRuina [-1, 1], NewtonCoulomb [0, 1]
  double mu = 0.0;   // Coulomb friction coefficient, >= 0; unused by NewtonFrictionless
  // Static coefficient of a closed contact (>= mu): it sticks while |lambda_T| <= mu_s lambda_N
  // and slides against mu (or its Stribeck curve) once it moves; impacts use mu. NaN: mu_s = mu.
  double mu_s = kNaN;
  // The model says the contact is super-elastic: e > 1 is allowed (allows_superelastic(kind)
  // only), and an impact involving this contact is not refused for the kinetic energy it gains
  // (NewtonCoulomb's energy-gain status, the simultaneous-impact LCP's; multi_contact_impact.hpp).
  bool superelastic = false;

  // Throws saltus::Error when a coefficient is not finite or outside its range, or superelastic
  // is set for a law that does not allow it; the message starts with `who` (e.g. "model 'rod',
  // body 'rod', contact 'tip'") and names the law and the value.
  void validate(const std::string& who) const;
  // The first key validate() refuses ("e", "e_t", "mu", "mu_s" or "superelastic"), nullptr
  // when valid.
  const char* invalid_key() const;
  double static_mu() const { return std::isnan(mu_s) ? mu : mu_s; }
};

// A planar single-contact impact in collision-matrix form.
struct PlanarImpactInput {
  Eigen::Matrix2d A = Eigen::Matrix2d::Identity();    // collision matrix, SPD (index 0 = t, 1 = n)
  Eigen::Vector2d v_minus = Eigen::Vector2d::Zero();  // (v_t-, v_n-), v_n- < 0 (approaching)
};

// Throws saltus::Error naming `who` when A is not symmetric positive definite or not finite, or
// v_minus is not finite.
void validate(const PlanarImpactInput& input, const std::string& who);

enum class ImpactStatus {
  Resolved,  // impulse, v_plus, dT hold the impact's outcome
  Jam,       // dv_n/dP_n <= 0 while the contact is still approaching (or, for the naive law,
             // its normal equation has no positive solution): the normal velocity cannot be
             // stopped by a finite impulse along the chosen path (Painleve-type impact without
             // collision, FORMULAS.md 9 and 11). impulse/v_plus hold the state where it stopped.
};

const char* to_string(ImpactStatus status);

// Slip state of the contact point in a phase of Routh's process.
enum class SlipMode { SlipPositive, SlipNegative, Stick };
// "slip+", "slip-", "stick" (as in oracles.json).
const char* to_string(SlipMode mode);

// What ended a phase of Routh's process.
enum class PhaseEnd { MaxCompression, StickOrReverse, Terminate };
// "max_compression", "stick_or_reverse", "terminate" (as in oracles.json).
const char* to_string(PhaseEnd end);

struct ImpactPhase {
  SlipMode mode = SlipMode::Stick;
  double P_n_end = kNaN;  // normal impulse at the end of the phase
  PhaseEnd end = PhaseEnd::Terminate;
};

// The phases of one Routh process, kept in place (fixed capacity: resolving an impact inside a
// simulation never allocates). A planar process has at most a handful of phases (stick or
// reversal twice, compression, termination); routh_impact stops with a jam at kMaxImpactPhases.
class ImpactPhaseList {
 public:
  static constexpr int kMaxImpactPhases = 32;
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const ImpactPhase& operator[](size_t i) const { return phases_[i]; }
  const ImpactPhase& back() const { return phases_[size_ - 1]; }
  const ImpactPhase* begin() const { return phases_.data(); }
  const ImpactPhase* end() const { return phases_.data() + size_; }
  // Appends; beyond kMaxImpactPhases the phase is dropped and full() stays true.
  void push_back(const ImpactPhase& phase) {
    if (size_ < phases_.size()) phases_[size_++] = phase;
  }
  bool full() const { return size_ == phases_.size(); }

 private:
  std::array<ImpactPhase, kMaxImpactPhases> phases_{};
  size_t size_ = 0;
};

struct PlanarImpactResult {
  ImpactStatus status = ImpactStatus::Resolved;
  std::string message;  // set when status != Resolved: what happened and the values involved
  Eigen::Vector2d impulse = Eigen::Vector2d::Zero();  // (P_t, P_n) applied to the body
  Eigen::Vector2d v_plus = Eigen::Vector2d::Zero();   // (v_t+, v_n+)
  double dT = 0.0;                                    // T+ - T- (> 0: energy created)

  // Chatterjee-Ruina only (FORMULAS.md 8).
  bool projected_onto_cone = false;
  double kappa = kNaN;
  Eigen::Vector2d P_stick = Eigen::Vector2d::Constant(kNaN);
  Eigen::Vector2d P_frictionless = Eigen::Vector2d::Constant(kNaN);
  Eigen::Vector2d P_candidate = Eigen::Vector2d::Constant(kNaN);

  // Routh's process only (FORMULAS.md 9).
  double P_n_compression = kNaN;  // P_nc: normal impulse at maximum compression (v_n = 0)
  double W_compression = kNaN;    // W_c = int_0^{P_nc} v_n dP_n (< 0)
  double W_restitution = kNaN;    // W_r = int_{P_nc}^{P_n} v_n dP_n (>= 0)
  ImpactPhaseList phases;

  bool resolved() const { return status == ImpactStatus::Resolved; }
};

// Kinetic-energy change of an impulse P: Delta T = P^T v- + 1/2 P^T A P (FORMULAS.md 7.3).
inline double impact_energy_change(const Eigen::Matrix2d& A, const Eigen::Vector2d& v_minus,
                                   const Eigen::Vector2d& P) {
  return P.dot(v_minus) + 0.5 * P.dot(A * P);
}

// Resolves one planar impact with the law's kind and coefficients. NewtonFrictionless uses the
// normal row only (P_t = 0, v_n+ = -e v_n-). Throws saltus::Error (naming `who`) on bad input;
// a jam is a status, not an exception.
PlanarImpactResult solve_planar_impact(const PlanarImpactInput& input, const ContactImpactLaw& law,
                                       const std::string& who = "planar impact");

}  // namespace saltus::mech
