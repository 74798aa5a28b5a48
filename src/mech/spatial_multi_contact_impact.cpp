// Simultaneous impacts among which contacts have friction in space (multi_contact_impact.hpp,
// resolve_in_space): Newton's law with Coulomb's cone per contact, posed as the cone contact
// problem of cone_contact_problem.hpp at the impulse level.
//
// Rows per contact: w_N and, for a contact with friction in space, its slip rows eta_1, eta_2
// (LagrangianModel contact slip). Impulses P on those rows, v+ = v- + G P, G = W^T M^-1 W. With
// xi = v+ + E v- (E = e on an approaching normal rate, e_t on the tangential rates of such a
// contact; a separating or touching contact enters with its rates as they are, as in the planar
// impact LCP), Coulomb's law with the cone on (xi, P) is the problem u = G P + b, b = v- + E v-:
// stick xi_T = 0, slip P_T = -mu P_N xi_T / |xi_T|. One contact alone is
// spatial_impact_law.hpp's law. Dependent contacts (G singular: a face landing flat while its
// edge slides) leave the split of the impulse free, and the friction follows it: where the
// solver finds answers that move the system differently there, the one taken is the rigid limit
// of equal compliance at every contact (cone_contact_closure.hpp), the rule by which the flow
// splits a face's weight. No answer, or several answers with independent contacts or in that
// limit, is a status naming the contacts, never a choice.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>
#include <vector>

#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "multi_contact_impact.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/cone_contact_closure.hpp"
#include "saltus/mech/cone_contact_problem.hpp"
#include "saltus/mech/newton_coulomb_law.hpp"

namespace saltus::mech::detail {

SimultaneousImpact resolve_in_space(const LagrangianModel& m, const std::vector<int>& contacts,
                                    const std::string& where, ConstVectorRef q,
                                    ConstVectorRef qdot_minus, const ContactScales& s) {
  SimultaneousImpact out;
  out.contacts = contacts;
  const int n = m.dof(), k = static_cast<int>(contacts.size());
  ConeContactProblem problem;
  std::vector<Vector> rows;
  Matrix W_N(n, k);
  const DofVector<double> qv = load<double>(q, 0, n);
  for (int j = 0; j < k; ++j) {
    const LagrangianContact& c = m.contact(contacts[static_cast<size_t>(j)]);
    W_N.col(j) = m.gap_gradient(contacts[static_cast<size_t>(j)], q);
    rows.push_back(W_N.col(j));
    if (!c.spatial_frictional()) {
      problem.contacts.push_back({ConeContactKind::Normal, 0.0});
      continue;
    }
    problem.contacts.push_back({ConeContactKind::Cone, c.law.mu});
    for (size_t r = 0; r < 2; ++r) {
      DofVector<double> eta;
      c.slip[r](qv, eta);
      rows.push_back(eta);
    }
  }
  const int total = static_cast<int>(rows.size());
  Matrix W(n, total);
  for (int r = 0; r < total; ++r) W.col(r) = rows[static_cast<size_t>(r)];
  const Matrix M = m.mass_matrix(q);
  const Matrix motion_map = M.llt().solve(W);  // M^-1 W: qdot+ - qdot- per unit impulse
  problem.G = W.transpose() * motion_map;
  problem.b.resize(total);
  for (int j = 0, r = 0; j < k; ++j) {
    const LagrangianContact& c = m.contact(contacts[static_cast<size_t>(j)]);
    const double v_N = W.col(r).dot(qdot_minus);
    problem.b[r] = newton_restitution_rate(v_N, c.law.e);
    ++r;
    if (problem.contacts[static_cast<size_t>(j)].kind != ConeContactKind::Cone) continue;
    for (int t = 0; t < 2; ++t, ++r) {
      const double v_T = W.col(r).dot(qdot_minus);
      problem.b[r] = v_N < 0.0 ? tangential_restitution_rate(v_T, c.law.e_t) : v_T;
    }
  }
  ConeContactResult result = solve_cone_contact_problem(problem);
  // Several answers, or none reached, with dependent rows (whose null space the sweeps creep
  // along): the rigid limit of equal compliance decides.
  const auto dependent = [&] {
    const Eigen::VectorXd e =
        Eigen::SelfAdjointEigenSolver<Matrix>(problem.G, Eigen::EigenvaluesOnly).eigenvalues();
    return e.minCoeff() <= 1e-10 * e.cwiseAbs().maxCoeff();
  };
  if (!result.solved() && dependent()) {
    const std::string first = result.message;
    result = solve_in_the_compliant_limit(problem);
    if (!result.solved()) result.message = first + "; " + result.message;
    out.equal_compliance = result.solved();
  }
  if (!result.solved()) {
    out.verdict = result.status == ConeContactStatus::Several ? Verdict::Several : Verdict::None;
    out.message = saltus::detail::text(
        where, " (Newton's law with Coulomb's cone in space): ", to_string(result.status), ": ",
        result.message, "; no impulse distribution is chosen");
    return out;
  }
  out.verdict = Verdict::Unique;
  out.impulse_N = Vector::Zero(k);
  out.impulse_T = Vector::Zero(k);
  out.impulse_slip.assign(static_cast<size_t>(k), {0.0, 0.0});
  for (int j = 0, r = 0; j < k; ++j) {
    out.impulse_N[j] = result.r[r++];
    if (problem.contacts[static_cast<size_t>(j)].kind != ConeContactKind::Cone) continue;
    out.impulse_T[j] = std::hypot(result.r[r], result.r[r + 1]);  // |P_T|, as one contact's
    out.impulse_slip[static_cast<size_t>(j)] = {result.r[r], result.r[r + 1]};
    r += 2;
  }
  out.qdot_plus = Vector(qdot_minus) + motion_map * result.r;
  finish(M, W_N, qdot_minus, s, out);
  return out;
}

}  // namespace saltus::mech::detail
