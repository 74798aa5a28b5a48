#include "saltus/analysis/periodic_orbit.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <sstream>

namespace saltus::analysis {

const char* to_string(ShootingStatus status) {
  switch (status) {
    case ShootingStatus::Converged:
      return "converged";
    case ShootingStatus::NotConverged:
      return "not converged";
    case ShootingStatus::SingularNewton:
      return "singular Newton matrix";
    case ShootingStatus::MapFailed:
      return "map failed";
  }
  return "unknown";
}

Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy) {
  Eigen::VectorXcd values = Eigen::EigenSolver<Matrix>(monodromy, false).eigenvalues();
  std::sort(values.data(), values.data() + values.size(),
            [](const auto& a, const auto& b) { return std::abs(a) > std::abs(b); });
  return values;
}

namespace {

// States the map leaves unchanged whatever the start: row k of DP is e_k (a state of rate 0 that
// no reset changes, e.g. a parameter kept as a state).
std::vector<int> constant_states(const Matrix& dp) {
  std::vector<int> out;
  for (Eigen::Index k = 0; k < dp.rows(); ++k) {
    bool unit = true;
    for (Eigen::Index i = 0; i < dp.cols() && unit; ++i) unit = dp(k, i) == (i == k ? 1.0 : 0.0);
    if (unit) out.push_back(static_cast<int>(k));
  }
  return out;
}

std::vector<Eigen::Index> other_states(Eigen::Index n, const std::vector<int>& constant) {
  std::vector<Eigen::Index> out;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (std::find(constant.begin(), constant.end(), static_cast<int>(k)) == constant.end()) {
      out.push_back(k);
    }
  }
  return out;
}

Matrix block(const Matrix& m, const std::vector<Eigen::Index>& keep) {
  Matrix out(keep.size(), keep.size());
  for (size_t i = 0; i < keep.size(); ++i) {
    for (size_t k = 0; k < keep.size(); ++k) {
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = m(keep[i], keep[k]);
    }
  }
  return out;
}

}  // namespace

PeriodicOrbit find_fixed_point(const ReturnMap& map, const Vector& guess,
                               const ShootingOptions& shooting) {
  PeriodicOrbit out;
  out.x = guess;
  std::ostringstream os;
  os.precision(6);
  for (out.iterations = 0;; ++out.iterations) {
    const MapValue p = map(out.x);
    if (!p.ok()) {
      os << "the return map at iteration " << out.iterations << " is undefined ("
         << to_string(p.status) << "): " << p.message;
      if (out.residual == out.residual) os << "; last residual " << out.residual;
      out.status = ShootingStatus::MapFailed;
      out.message = os.str();
      return out;
    }
    const Vector r = p.x - out.x;
    out.residual = r.lpNorm<Eigen::Infinity>();
    out.monodromy = p.jacobian;
    out.events_per_period = p.resets;
    out.period = p.return_time;
    out.min_crossing_rate = p.min_crossing_rate;
    out.closest_approach = p.closest_approach;
    out.constant_states = constant_states(out.monodromy);
    const std::vector<Eigen::Index> free = other_states(out.x.size(), out.constant_states);
    if (out.residual <= shooting.tolerance * (1.0 + out.x.lpNorm<Eigen::Infinity>())) {
      out.status = ShootingStatus::Converged;
      out.multipliers = floquet_multipliers(block(out.monodromy, free));
      os << "converged in " << out.iterations << " Newton steps, residual " << out.residual;
      out.message = os.str();
      return out;
    }
    if (out.iterations == shooting.max_iterations) {
      os << "no convergence in " << shooting.max_iterations << " Newton steps: residual "
         << out.residual << " > tolerance " << shooting.tolerance;
      out.status = ShootingStatus::NotConverged;
      out.message = os.str();
      return out;
    }
    // Newton on the other states (a constant state's row of DP - I is zero).
    const auto n_free = static_cast<Eigen::Index>(free.size());
    const Matrix newton = block(out.monodromy, free) - Matrix::Identity(n_free, n_free);
    Vector r_free(n_free);
    for (Eigen::Index i = 0; i < n_free; ++i) r_free[i] = r[free[static_cast<size_t>(i)]];
    const Eigen::FullPivLU<Matrix> lu(newton);
    if (!lu.isInvertible()) {
      os << "DP - I is singular at iteration " << out.iterations
         << " (a Floquet multiplier at 1), residual " << out.residual;
      out.status = ShootingStatus::SingularNewton;
      out.message = os.str();
      return out;
    }
    const Vector solved = -lu.solve(r_free);
    Vector step = Vector::Zero(out.x.size());
    for (Eigen::Index i = 0; i < n_free; ++i) step[free[static_cast<size_t>(i)]] = solved[i];
    const double largest = step.lpNorm<Eigen::Infinity>();
    if (largest > shooting.max_step) step *= shooting.max_step / largest;
    out.x += step;
  }
}

PeriodicOrbit shoot_stroboscopic(const HybridSystem& system, ModeId mode, double t0, double period,
                                 const Vector& guess, const SimulationOptions& options,
                                 const ShootingOptions& shooting) {
  return find_fixed_point(stroboscopic_map(system, mode, t0, period, options), guess, shooting);
}

PeriodicOrbit shoot_on_section(const HybridSystem& system, ModeId mode, double t0,
                               const Guard& section, double min_time, double horizon,
                               const Vector& guess, const SimulationOptions& options,
                               const ShootingOptions& shooting) {
  return find_fixed_point(section_map(system, mode, t0, section, min_time, horizon, options), guess,
                          shooting);
}

}  // namespace saltus::analysis
