#include "saltus/mech/impact_law.hpp"

#include <Eigen/Cholesky>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/mech/chatterjee_ruina_law.hpp"
#include "saltus/mech/naive_impact_law.hpp"
#include "saltus/mech/newton_coulomb_law.hpp"
#include "saltus/mech/newton_impact_map.hpp"
#include "saltus/mech/routh_impact_process.hpp"

namespace saltus::mech {

const char* to_string(ImpactLawKind kind) {
  switch (kind) {
    case ImpactLawKind::NewtonFrictionless:
      return "newton_frictionless";
    case ImpactLawKind::Naive:
      return "naive";
    case ImpactLawKind::ChatterjeeRuina:
      return "chatterjee_ruina";
    case ImpactLawKind::RouthNewton:
      return "routh_newton";
    case ImpactLawKind::RouthPoisson:
      return "routh_poisson";
    case ImpactLawKind::RouthStronge:
      return "routh_stronge";
    case ImpactLawKind::NewtonCoulomb:
      return "newton_coulomb";
  }
  return "?";
}

const std::vector<ImpactLawKind>& all_impact_laws() {
  static const std::vector<ImpactLawKind> kinds = {
      ImpactLawKind::NewtonFrictionless, ImpactLawKind::Naive,
      ImpactLawKind::ChatterjeeRuina,    ImpactLawKind::RouthNewton,
      ImpactLawKind::RouthPoisson,       ImpactLawKind::RouthStronge,
      ImpactLawKind::NewtonCoulomb};
  return kinds;
}

const std::vector<ImpactLawKind>& frictional_impact_laws() {
  static const std::vector<ImpactLawKind> kinds = {
      ImpactLawKind::Naive,        ImpactLawKind::ChatterjeeRuina, ImpactLawKind::RouthNewton,
      ImpactLawKind::RouthPoisson, ImpactLawKind::RouthStronge,    ImpactLawKind::NewtonCoulomb};
  return kinds;
}

const char* to_string(ImpactStatus status) {
  return status == ImpactStatus::Resolved ? "resolved" : "jam";
}

const char* to_string(SlipMode mode) {
  switch (mode) {
    case SlipMode::SlipPositive:
      return "slip+";
    case SlipMode::SlipNegative:
      return "slip-";
    case SlipMode::Stick:
      return "stick";
  }
  return "?";
}

const char* to_string(PhaseEnd end) {
  switch (end) {
    case PhaseEnd::MaxCompression:
      return "max_compression";
    case PhaseEnd::StickOrReverse:
      return "stick_or_reverse";
    case PhaseEnd::Terminate:
      return "terminate";
  }
  return "?";
}

bool allows_superelastic(ImpactLawKind kind) {
  return kind == ImpactLawKind::NewtonFrictionless || kind == ImpactLawKind::NewtonCoulomb;
}

namespace {

// Chatterjee and Ruina's e_t may reverse the tangential impulse's sense; Glocker's (Newton-
// Coulomb) is a restitution of the tangential rate like e of the normal one.
double e_t_min(ImpactLawKind kind) {
  return kind == ImpactLawKind::NewtonCoulomb ? 0.0 : -1.0;
}

// Why a law cannot be super-elastic (allows_superelastic).
const char* why_not_superelastic(ImpactLawKind kind) {
  switch (kind) {
    case ImpactLawKind::Naive:
      return "the naive law is kept to show the energy it creates with e <= 1";
    case ImpactLawKind::ChatterjeeRuina:
      return "Chatterjee and Ruina's e and e_t are defined with the projection onto the cone "
             "that keeps the impact dissipative for e <= 1";
    case ImpactLawKind::RouthNewton:
    case ImpactLawKind::RouthPoisson:
    case ImpactLawKind::RouthStronge:
      return "Routh's process follows a passive deformable contact through compression and "
             "restitution, whose restitution never exceeds its compression";
    default:
      return "";
  }
}

}  // namespace

const char* ContactImpactLaw::invalid_key() const {
  if (superelastic && !allows_superelastic(kind)) return "superelastic";
  if (!std::isfinite(e) || e < 0.0 || (e > 1.0 && !superelastic)) return "e";
  if (!std::isfinite(e_t) || e_t < e_t_min(kind) || e_t > 1.0) return "e_t";
  if (!std::isfinite(mu) || mu < 0.0) return "mu";
  if (!std::isnan(mu_s) && !(std::isfinite(mu_s) && mu_s >= mu)) return "mu_s";
  return nullptr;
}

void ContactImpactLaw::validate(const std::string& who) const {
  const char* key = invalid_key();
  if (key == nullptr) return;
  const std::string law = std::string(" (law ") + to_string(kind) + ")";
  const std::string k = key;
  if (k == "superelastic") {
    saltus::detail::throw_error(who, law, ": superelastic = true, but law ", to_string(kind),
                                " cannot be super-elastic (", why_not_superelastic(kind),
                                "); expected law newton or newton_coulomb, or no superelastic");
  }
  if (k == "e" && std::isfinite(e) && e > 1.0) {
    saltus::detail::throw_error(
        who, law, ": restitution e = ", e,
        " is outside [0, 1]: the contact would gain energy at every impact; expected e in [0, "
        "1], or superelastic = true for a super-elastic contact (laws newton and newton_coulomb)");
  }
  if (k == "e") {
    saltus::detail::throw_error(who, law, ": restitution e = ", e, " is outside [0, ",
                                superelastic ? "inf) (super-elastic)" : "1]");
  }
  if (k == "e_t") {
    saltus::detail::throw_error(who, law, ": tangential restitution e_t = ", e_t, " is outside [",
                                e_t_min(kind), ", 1]");
  }
  if (k == "mu_s") {
    saltus::detail::throw_error(
        who, law, ": static friction coefficient mu_s = ", mu_s, " is below the kinetic mu = ", mu,
        " or not finite; expected mu_s >= mu (a contact that starts to slide "
        "under mu_s slides on under mu)");
  }
  saltus::detail::throw_error(who, law, ": friction coefficient mu = ", mu,
                              " must be finite and >= 0");
}

void validate(const PlanarImpactInput& input, const std::string& who) {
  const Eigen::Matrix2d& A = input.A;
  if (!A.allFinite() || !input.v_minus.allFinite()) {
    saltus::detail::throw_error(who,
                                ": collision matrix or pre-impact velocity has a non-finite entry");
  }
  // Relative to A's own entries (all in one unit, 1 / mass), so any unit of mass reads alike.
  if (std::abs(A(0, 1) - A(1, 0)) > 1e-12 * A.cwiseAbs().maxCoeff()) {
    saltus::detail::throw_error(who, ": collision matrix is not symmetric: A_tn = ", A(0, 1),
                                ", A_nt = ", A(1, 0));
  }
  const double det = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
  if (!(A(0, 0) > 0.0) || !(A(1, 1) > 0.0) || !(det > 0.0)) {
    saltus::detail::throw_error(
        who, ": collision matrix is not positive definite: A_tt = ", A(0, 0), ", A_nn = ", A(1, 1),
        ", det = ", det, " (the contact's normal and tangential directions must be independent)");
  }
}

PlanarImpactResult solve_planar_impact(const PlanarImpactInput& input, const ContactImpactLaw& law,
                                       const std::string& who) {
  law.validate(who);
  validate(input, who);
  switch (law.kind) {
    case ImpactLawKind::NewtonFrictionless: {
      PlanarImpactResult r;
      r.impulse = {0.0, newton_impulse(input.v_minus[1], input.A(1, 1), law.e)};
      r.v_plus = input.v_minus + input.A * r.impulse;
      r.dT = impact_energy_change(input.A, input.v_minus, r.impulse);
      return r;
    }
    case ImpactLawKind::Naive:
      return naive_impact(input, law.e, law.mu);
    case ImpactLawKind::ChatterjeeRuina:
      return chatterjee_ruina_impact(input, law.e, law.e_t, law.mu);
    case ImpactLawKind::RouthNewton:
      return routh_impact(input, law.e, law.mu, RouthTermination::Newton);
    case ImpactLawKind::RouthPoisson:
      return routh_impact(input, law.e, law.mu, RouthTermination::Poisson);
    case ImpactLawKind::RouthStronge:
      return routh_impact(input, law.e, law.mu, RouthTermination::Stronge);
    case ImpactLawKind::NewtonCoulomb:
      return newton_coulomb_impact(input, law.e, law.e_t, law.mu, law.superelastic);
  }
  saltus::detail::throw_error(who, ": unknown impact law");
}

}  // namespace saltus::mech
