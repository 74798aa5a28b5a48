// Compliant (force-based) contact laws for a unilateral contact, written in the penetration
// delta = -g_N >= 0 and its rate deltadot (FORMULAS.md 3; seed 000 eqs. (5.1), (5.7), (5.12)).
//
//   LinearSpring   f = k delta                                   (5.1)
//   KelvinVoigt    f = k delta + c deltadot                      (5.7)
//   HuntCrossley   f = delta^n (k + c deltadot), Hertz n = 3/2   (5.12, sign-corrected:
//                  FORMULAS.md 3.3 and 14; the seed's form is not real for n = 3/2)
// f is the push-out force on the body (> 0 pushes it out of the obstacle), valid while
// delta >= 0. Kelvin-Voigt has two release definitions (seed 000, "a subtle issue"):
//   GapReturnsToZero   contact ends when delta = 0 (kinematic; the force there is tensile,
//                      -c xdot < 0)
//   ForceReturnsToZero contact ends when k delta + c deltadot = 0 (dynamic; delta > 0 remains)
// For LinearSpring and HuntCrossley both definitions give the same instant.
//
// mu >= 0 is the Coulomb coefficient of the contact's tangential force (used by a
// LagrangianModel contact that also has a tangential coordinate): while the contact is active its
// friction force has magnitude <= mu f+, f+ = max(f, 0) (the normal load; a pulling f, possible
// for Kelvin-Voigt and Hunt-Crossley, carries no friction).
//
// force() is generic in its scalar (double, saltus::Dual, saltus::ChunkDual) so flows built from
// it get their Jacobians by automatic differentiation.
//
// Symbol table (FORMULAS.md -> code): k -> k, c -> c, n -> n, delta -> delta,
// deltadot -> delta_dot, release definition -> release.
#pragma once

#include <cmath>
#include <string>

#include "saltus/core/autodiff.hpp"

namespace saltus::mech {

enum class CompliantLawKind { LinearSpring, KelvinVoigt, HuntCrossley };
enum class ReleaseCondition { GapReturnsToZero, ForceReturnsToZero };

const char* to_string(CompliantLawKind kind);
const char* to_string(ReleaseCondition release);

struct CompliantContactLaw {
  CompliantLawKind kind = CompliantLawKind::LinearSpring;
  double k = 1e4;  // stiffness: N/m (LinearSpring, KelvinVoigt), N/m^n (HuntCrossley); > 0
  double c = 0.0;  // damping: N s/m (KelvinVoigt), s/m (HuntCrossley, c/k has units s/m); >= 0
  double n = 1.5;  // Hunt-Crossley exponent (> 0; Hertz 3/2)
  ReleaseCondition release = ReleaseCondition::GapReturnsToZero;
  double mu = 0.0;  // Coulomb friction coefficient on the contact's tangent; >= 0 (0: none)

  static CompliantContactLaw linear_spring(double k) {
    return {CompliantLawKind::LinearSpring, k, 0.0, 1.0, ReleaseCondition::GapReturnsToZero};
  }
  static CompliantContactLaw kelvin_voigt(double k, double c, ReleaseCondition release) {
    return {CompliantLawKind::KelvinVoigt, k, c, 1.0, release};
  }
  static CompliantContactLaw hunt_crossley(double k, double c, double n = 1.5) {
    return {CompliantLawKind::HuntCrossley, k, c, n, ReleaseCondition::GapReturnsToZero};
  }

  // Push-out force for penetration delta and its rate (delta <= 0 gives 0 for Hunt-Crossley;
  // the linear laws are evaluated as written, the caller's release guard ends the contact).
  template <class T>
  T force(const T& delta, const T& delta_dot) const {
    switch (kind) {
      case CompliantLawKind::LinearSpring:
        return k * delta;
      case CompliantLawKind::KelvinVoigt:
        return k * delta + c * delta_dot;
      case CompliantLawKind::HuntCrossley: {
        if (value_of(delta) <= 0.0) return T(0.0);
        using std::pow;
        return T(pow(delta, n) * (k + c * delta_dot));
      }
    }
    return T(0.0);
  }

  // True when the contact ends on the force (k delta + c deltadot = 0) rather than on the gap.
  bool releases_on_force() const {
    return kind == CompliantLawKind::KelvinVoigt && release == ReleaseCondition::ForceReturnsToZero;
  }

  // Returns a copy with Coulomb coefficient mu.
  CompliantContactLaw with_friction(double mu_coefficient) const {
    CompliantContactLaw out = *this;
    out.mu = mu_coefficient;
    return out;
  }

  // Throws saltus::Error naming `who` when k <= 0, c < 0, n <= 0, mu < 0 or a value is not
  // finite.
  void validate(const std::string& who) const;
};

}  // namespace saltus::mech
