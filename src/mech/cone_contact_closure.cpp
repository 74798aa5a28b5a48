// The rigid limit of equal compliance (cone_contact_closure.hpp).
#include "saltus/mech/cone_contact_closure.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>

#include "saltus/core/error.hpp"

namespace saltus::mech {

namespace {

// b's component along G's null space moves u whatever r is. For b = W^T qdot- it is zero but for
// round-off, and that round-off is relative to qdot-'s terms, not to b: a spinning body landing
// gently (a random cube drop whose b was 1e-7 from terms near 1) has a part of 1.6e-10 of b there,
// and no r meets the tolerance beyond it: the rigid problem has no answer at that resolution.
// Where the part is below kUnreachable of b the polish leaves it out; a larger one is kept (a
// problem that is inconsistent beyond round-off stays so).
constexpr double kNullEigenvalue = 1e-12;  // of G's largest eigenvalue
constexpr double kUnreachable = 1e-8;

ConeContactProblem without_unreachable_part(const ConeContactProblem& problem) {
  ConeContactProblem reachable = problem;
  const Eigen::SelfAdjointEigenSolver<Matrix> eig(0.5 * (problem.G + problem.G.transpose()));
  const double top = eig.eigenvalues().cwiseAbs().maxCoeff();
  Vector along = Vector::Zero(problem.b.size());
  for (Eigen::Index k = 0; k < problem.b.size(); ++k) {
    if (!(std::abs(eig.eigenvalues()[k]) <= kNullEigenvalue * top)) continue;
    along += eig.eigenvectors().col(k) * eig.eigenvectors().col(k).dot(problem.b);
  }
  if (along.cwiseAbs().maxCoeff() <= kUnreachable * problem.b.cwiseAbs().maxCoeff()) {
    reachable.b -= along;
  }
  return reachable;
}

}  // namespace

ConeContactResult solve_in_the_compliant_limit(const ConeContactProblem& problem,
                                               const ConeContactOptions& options) {
  const Eigen::Index m = problem.b.size();
  const double size = m > 0 ? problem.G.diagonal().cwiseAbs().maxCoeff() : 0.0;
  if (!(size > 0.0)) return solve_cone_contact_problem(problem, options);
  // Followed down from a compliance at which the problem is well conditioned (1e-2 of G's scale,
  // where its answer is checked for being the only one) to kClosureCompliance, each problem
  // started from the answer of the one before: the branch the compliant answers trace as the
  // contacts stiffen.
  ConeContactProblem compliant = problem;
  ConeContactResult soft;
  ConeContactOptions step = options;
  for (double c = 1e-2; c >= 0.99 * kClosureCompliance; c *= 0.1) {
    compliant.G = problem.G;
    compliant.G.diagonal().array() += c * size;
    soft = solve_cone_contact_problem(compliant, step);
    // Past the first, a step only starts the next: its least residual will do (the ill
    // conditioned ones creep along the nearly singular directions); the polish decides.
    const bool first = step.start.size() == 0;
    if (!soft.solved() && (first || soft.status == ConeContactStatus::Several)) {
      soft.message = "with equal compliance " + saltus::detail::text(c * size) +
                     " at every row: " + soft.message;
      return soft;
    }
    step.start = soft.r;
  }
  ConeContactOptions polish = options;
  polish.start = soft.r;
  const ConeContactProblem reachable = without_unreachable_part(problem);
  ConeContactResult rigid = solve_cone_contact_problem(reachable, polish);
  const double left_out = (reachable.b - problem.b).cwiseAbs().maxCoeff();
  const std::string left_out_text =
      left_out > 0.0 ? saltus::detail::text(" (b's part along G's null space, ", left_out,
                                            ", left out: no impulse reaches it)")
                     : std::string();
  if (!rigid.solved()) {
    rigid.message = "polishing the answer of equal compliance on the rigid problem" +
                    left_out_text + ": " + rigid.message;
    return rigid;
  }
  // The polished answer must move the system as the compliant one does.
  const Vector u_soft = problem.G * soft.r + problem.b;
  const double scale = std::max(problem.b.cwiseAbs().maxCoeff(), u_soft.cwiseAbs().maxCoeff());
  const double moved = (rigid.u - u_soft).cwiseAbs().maxCoeff();
  if (!(moved <= options.distinct_tolerance * scale)) {
    rigid.status = ConeContactStatus::Several;
    rigid.other_r = soft.r;
    rigid.other_u = u_soft;
    rigid.message = saltus::detail::text(
        "the rigid answer polished from that of equal compliance moves the system differently ",
        "(u differ by ", moved, ", beyond ", options.distinct_tolerance, " times the scale ", scale,
        ")");
    return rigid;
  }
  rigid.message = saltus::detail::text(
      "the rigid limit of equal compliance at every contact (", kClosureCompliance,
      " of G's largest diagonal entry), polished on the rigid problem", left_out_text, ": ",
      rigid.message);
  return rigid;
}

}  // namespace saltus::mech
