// Contact-force LCP (2.9)-(2.10); see include/saltus/mech/contact_force_problem.hpp.
#include "saltus/mech/contact_force_problem.hpp"

#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/mech/planar_coulomb_lcp.hpp"

namespace saltus::mech {

ContactOutcome solve_contact_forces(const ContactForceProblem& p,
                                    const ContactSolveOptions& options) {
  constexpr const char* who = "contact forces";
  validate(options);
  const auto n = p.mass.rows();
  const Matrix m_inv = detail::inverse_mass_matrix(p.mass, n, who);
  if (p.h.size() != n) {
    saltus::detail::throw_error(who, ": h has size ", p.h.size(), " but the system has n = ", n);
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(p.h(i))) {
      saltus::detail::throw_error(who, ": h(", i, ") = ", p.h(i), " is not finite");
    }
  }
  const PlanarContacts& c = p.contacts;
  validate(c, static_cast<int>(n), who);
  validate(p.sets, c.size(), who);

  Vector slide_sign = Vector::Zero(c.size());
  for (int i : p.sets.I_N) {
    if (std::binary_search(p.sets.I_H.begin(), p.sets.I_H.end(), i)) continue;
    if (c.gdot_T(i) == 0.0) {
      saltus::detail::throw_error(
          who, ": contact ", i,
          " is in I_N but not in I_H (sliding) yet gdot_T = 0, so the "
          "friction direction is undefined; put it in I_H (sticking candidate)");
    }
    slide_sign(i) = c.gdot_T(i) > 0.0 ? 1.0 : -1.0;
  }
  // b = W^T M^-1 h + what on every contact ([LB] (2.9) right-hand side).
  const Vector minv_h = m_inv * p.h;
  const Vector b_N = c.W_N.transpose() * minv_h + c.w_hat_N;
  const Vector b_T = c.W_T.transpose() * minv_h + c.w_hat_T;
  const PlanarCoulombLcp lcp =
      build_planar_coulomb_lcp(m_inv, c, p.sets.I_N, p.sets.I_H, slide_sign, b_N, b_T);
  return detail::decide_planar_coulomb(ContactProblemKind::Forces, p.mass, c, lcp, slide_sign,
                                       minv_h, b_N, b_T, p.sets, p.time, options);
}

}  // namespace saltus::mech
