#include "saltus/mech/compliant_contact_law.hpp"

#include "saltus/core/error.hpp"

namespace saltus::mech {

const char* to_string(CompliantLawKind kind) {
  switch (kind) {
    case CompliantLawKind::LinearSpring:
      return "linear_spring";
    case CompliantLawKind::KelvinVoigt:
      return "kelvin_voigt";
    case CompliantLawKind::HuntCrossley:
      return "hunt_crossley";
  }
  return "?";
}

const char* to_string(ReleaseCondition release) {
  return release == ReleaseCondition::GapReturnsToZero ? "gap_returns_to_zero"
                                                       : "force_returns_to_zero";
}

void CompliantContactLaw::validate(const std::string& who) const {
  if (!std::isfinite(k) || k <= 0.0) {
    saltus::detail::throw_error(who, " (", to_string(kind), "): stiffness k = ", k, " must be > 0");
  }
  if (!std::isfinite(c) || c < 0.0) {
    saltus::detail::throw_error(who, " (", to_string(kind), "): damping c = ", c, " must be >= 0");
  }
  if (kind == CompliantLawKind::HuntCrossley && (!std::isfinite(n) || n <= 0.0)) {
    saltus::detail::throw_error(who, " (hunt_crossley): exponent n = ", n, " must be > 0");
  }
  if (!std::isfinite(mu) || mu < 0.0) {
    saltus::detail::throw_error(who, " (", to_string(kind), "): friction coefficient mu = ", mu,
                                " must be >= 0");
  }
}

}  // namespace saltus::mech
