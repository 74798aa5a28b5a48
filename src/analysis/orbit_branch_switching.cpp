#include "saltus/analysis/orbit_branch_switching.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <utility>

namespace saltus::analysis {

ReturnMap doubled_map(ReturnMap map) {
  return [map = std::move(map)](const Vector& x) {
    MapValue first = map(x);
    if (!first.ok()) {
      first.message = "first return: " + first.message;
      return first;
    }
    MapValue second = map(first.x);
    if (!second.ok()) {
      second.message = "second return: " + second.message;
      return second;
    }
    second.jacobian = second.jacobian * first.jacobian;
    second.return_time += first.return_time;
    second.resets += first.resets;  // reset_times: the second return's (both start at t0)
    second.min_crossing_rate = std::min(first.min_crossing_rate, second.min_crossing_rate);
    second.closest_approach = std::min(first.closest_approach, second.closest_approach);
    return second;
  };
}

Vector period_doubling_direction(const ReturnMap& map, const Vector& x, int parameter,
                                 std::string& message) {
  const MapValue value = map(x);
  if (!value.ok()) {
    message = std::string(to_string(value.status)) + ": " + value.message;
    return Vector();
  }
  const Eigen::Index n = x.size();
  // M = DP with the parameter's row and column left out.
  std::vector<Eigen::Index> keep;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (k != parameter) keep.push_back(k);
  }
  const Eigen::Index m = static_cast<Eigen::Index>(keep.size());
  Matrix M(m, m);
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index j = 0; j < m; ++j) M(i, j) = value.jacobian(keep[i], keep[j]);
  }
  const Eigen::EigenSolver<Matrix> solver(M);
  if (solver.info() != Eigen::Success) {
    message = "the eigenvalues of the map's Jacobian were not found";
    return Vector();
  }
  Eigen::Index best = -1;
  for (Eigen::Index k = 0; k < m; ++k) {
    const std::complex<double> lambda = solver.eigenvalues()[k];
    if (std::abs(lambda.imag()) > 1e-7 * std::abs(lambda)) continue;
    if (best < 0 || std::abs(lambda + 1.0) < std::abs(solver.eigenvalues()[best] + 1.0)) best = k;
  }
  if (best < 0) {
    message = "the map's Jacobian has no real multiplier";
    return Vector();
  }
  const Vector v = solver.eigenvectors().col(best).real();
  Vector direction = Vector::Zero(n);
  for (Eigen::Index i = 0; i < m; ++i) direction[keep[i]] = v[i];
  return direction / direction.norm();
}

Branch switch_at_period_doubling(const ReturnMap& map, const BifurcationPoint& pd,
                                 const ContinuationOptions& options, double side) {
  Branch branch;
  if (pd.kind != BifurcationKind::PeriodDoubling || pd.x.size() == 0) {
    branch.stop_reason = "branch switching needs a located period-doubling point";
    return branch;
  }
  std::string message;
  const Vector v = period_doubling_direction(map, pd.x, options.parameter, message);
  if (v.size() == 0) {
    branch.stop_reason = "no period-doubling direction at the start: " + message;
    return branch;
  }
  return continue_orbit_along(doubled_map(map), pd.x, (side >= 0.0 ? 1.0 : -1.0) * v, options);
}

}  // namespace saltus::analysis
