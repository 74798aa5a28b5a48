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

namespace {

Eigen::VectorXcd sorted_eigenvalues(const Matrix& m) {
  Eigen::VectorXcd values = Eigen::EigenSolver<Matrix>(m, false).eigenvalues();
  std::sort(values.data(), values.data() + values.size(),
            [](const auto& a, const auto& b) { return std::abs(a) > std::abs(b); });
  return values;
}

}  // namespace

PeriodicOrbit shoot_stroboscopic(const HybridSystem& system, ModeId mode, double t0, double period,
                                 const Vector& guess, const SimulationOptions& options,
                                 const ShootingOptions& shooting) {
  PeriodicOrbit out;
  out.x = guess;
  std::ostringstream os;
  os.precision(6);
  for (out.iterations = 0;; ++out.iterations) {
    const FlowMapSensitivity s =
        flow_map_sensitivity(system, mode, t0, out.x, t0 + period, options);
    if (!s.ok()) {
      os << "the time-T map at iteration " << out.iterations << " is undefined: " << s.message;
      out.status = ShootingStatus::MapFailed;
      out.message = os.str();
      return out;
    }
    if (s.run.final_mode != mode || s.flow_map_jacobian.rows() != out.x.size()) {
      os << "the run from iteration " << out.iterations << " ends in mode '"
         << system.mode(s.run.final_mode).name << "', not in '" << system.mode(mode).name << "'";
      out.status = ShootingStatus::MapFailed;
      out.message = os.str();
      return out;
    }
    const Vector r = s.run.x_final - out.x;
    out.residual = r.lpNorm<Eigen::Infinity>();
    out.monodromy = s.flow_map_jacobian;
    out.events_per_period = static_cast<long>(s.events.size());
    if (out.residual <= shooting.tolerance * (1.0 + out.x.lpNorm<Eigen::Infinity>())) {
      out.status = ShootingStatus::Converged;
      out.multipliers = sorted_eigenvalues(out.monodromy);
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
    const Matrix newton = out.monodromy - Matrix::Identity(out.x.size(), out.x.size());
    const Eigen::FullPivLU<Matrix> lu(newton);
    if (!lu.isInvertible()) {
      os << "DP - I is singular at iteration " << out.iterations << " (a Floquet multiplier at 1)";
      out.status = ShootingStatus::SingularNewton;
      out.message = os.str();
      return out;
    }
    Vector step = -lu.solve(r);
    const double largest = step.lpNorm<Eigen::Infinity>();
    if (largest > shooting.max_step) step *= shooting.max_step / largest;
    out.x += step;
  }
}

}  // namespace saltus::analysis
