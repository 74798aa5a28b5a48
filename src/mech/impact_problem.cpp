// Inelastic impact LCP (2.17)-(2.18); see include/saltus/mech/impact_problem.hpp.
#include "saltus/mech/impact_problem.hpp"

#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/mech/planar_coulomb_lcp.hpp"

namespace saltus::mech {

ContactOutcome solve_impact(const ImpactProblem& p, const ContactSolveOptions& options) {
  constexpr const char* who = "inelastic impact";
  validate(options);
  const auto n = p.mass.rows();
  const Matrix m_inv = detail::inverse_mass_matrix(p.mass, n, who);
  if (p.qdot_minus.size() != n) {
    saltus::detail::throw_error(who, ": qdot_minus has size ", p.qdot_minus.size(),
                                " but the system has n = ", n);
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(p.qdot_minus(i))) {
      saltus::detail::throw_error(who, ": qdot_minus(", i, ") = ", p.qdot_minus(i),
                                  " is not finite");
    }
  }
  const PlanarContacts& c = p.contacts;
  validate(c, static_cast<int>(n), who);
  validate(p.sets, c.size(), who);
  // All of I_S enter with the full tangential law (2.15): every one is a "sticking candidate"
  // of the Glocker-Pfeiffer form; q = gdot(t-) ([LB] (2.17)).
  const Vector none = Vector::Zero(c.size());
  const PlanarCoulombLcp lcp =
      build_planar_coulomb_lcp(m_inv, c, p.sets.I_S, p.sets.I_S, none, c.gdot_N, c.gdot_T);
  return detail::decide_planar_coulomb(ContactProblemKind::Impact, p.mass, c, lcp, none,
                                       p.qdot_minus, c.gdot_N, c.gdot_T, p.sets, p.time, options);
}

}  // namespace saltus::mech
