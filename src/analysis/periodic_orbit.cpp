#include "saltus/analysis/periodic_orbit.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"

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
    case ShootingStatus::TerminalEvent:
      return "terminal event";
    case ShootingStatus::LineSearchFailed:
      return "line search failed";
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

namespace {

bool contains(const std::vector<int>& v, Eigen::Index k) {
  return std::find(v.begin(), v.end(), static_cast<int>(k)) != v.end();
}

// The components Newton moves: neither constant (row of DP = e_k) nor cyclic.
std::vector<Eigen::Index> newton_states(Eigen::Index n, const std::vector<int>& constant,
                                        const std::vector<int>& cyclic) {
  std::vector<Eigen::Index> out;
  for (const Eigen::Index k : other_states(n, constant)) {
    if (!contains(cyclic, k)) out.push_back(k);
  }
  return out;
}

// max_k |P(x)_k - x_k| over the components that must close (all but the cyclic ones).
double closing_residual(const Vector& r, const std::vector<int>& cyclic) {
  double out = 0.0;
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    if (!contains(cyclic, k)) out = std::max(out, std::abs(r[k]));
  }
  return r.allFinite() ? out : kNaN;
}

Vector gather(const Vector& v, const std::vector<Eigen::Index>& keep) {
  Vector out(static_cast<Eigen::Index>(keep.size()));
  for (size_t i = 0; i < keep.size(); ++i) out[static_cast<Eigen::Index>(i)] = v[keep[i]];
  return out;
}

// The orbit's data from the map's value at out.x.
void take(PeriodicOrbit& out, const MapValue& p, const std::vector<int>& cyclic) {
  const Vector r = p.x - out.x;
  out.residual = closing_residual(r, cyclic);
  out.monodromy = p.ok() ? p.jacobian : p.corner_sides.front().jacobian;
  out.corner = p.ok() ? std::string() : p.message;
  out.corner_sides.clear();
  out.events_per_period = p.resets;
  out.section_crossings = p.section_crossings;
  out.period = p.return_time;
  out.mode = p.mode;
  out.min_crossing_rate = p.min_crossing_rate;
  out.closest_approach = p.closest_approach;
  out.constant_states = constant_states(out.monodromy);
  out.drift.resize(static_cast<Eigen::Index>(cyclic.size()));
  out.cyclic_column_error.resize(static_cast<Eigen::Index>(cyclic.size()));
  for (size_t i = 0; i < cyclic.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(cyclic[i]);
    out.drift[static_cast<Eigen::Index>(i)] = r[k];
    Vector unit = Vector::Zero(out.x.size());
    unit[k] = 1.0;
    out.cyclic_column_error[static_cast<Eigen::Index>(i)] =
        (out.monodromy.col(k) - unit).lpNorm<Eigen::Infinity>();
  }
}

// The map and a derivative are defined at the iterate: smooth there, or on a corner with its
// sides' derivatives.
bool usable(const MapValue& p) {
  return p.ok() || p.at_corner();
}

PeriodicOrbit undefined(PeriodicOrbit out, const MapValue& p, int iteration, double residual) {
  std::ostringstream os;
  os.precision(6);
  os << "the return map at iteration " << iteration << " is undefined (" << to_string(p.status)
     << "): " << p.message;
  if (residual == residual) os << "; last residual " << residual;
  out.status = p.terminal_guard.empty() ? ShootingStatus::MapFailed : ShootingStatus::TerminalEvent;
  out.message = os.str();
  return out;
}

}  // namespace

PeriodicOrbit find_fixed_point(const ReturnMap& map, const Vector& guess,
                               const ShootingOptions& shooting) {
  PeriodicOrbit out;
  out.x = guess;
  const std::vector<int>& cyclic = shooting.cyclic;
  for (const int k : cyclic) {
    if (k < 0 || k >= guess.size()) {
      throw Error("find_fixed_point: cyclic state index " + std::to_string(k) +
                  " is not a state component");
    }
  }
  std::ostringstream os;
  os.precision(6);
  MapValue p = map(out.x);
  out.iterations = 0;
  if (!usable(p)) return undefined(out, p, 0, kNaN);
  for (;; ++out.iterations) {
    take(out, p, cyclic);
    const std::vector<Eigen::Index> free = newton_states(out.x.size(), out.constant_states, cyclic);
    const double tolerance = shooting.tolerance * (1.0 + out.x.lpNorm<Eigen::Infinity>());
    if (out.residual <= tolerance) {
      out.status = ShootingStatus::Converged;
      out.multipliers = floquet_multipliers(block(out.monodromy, free));
      for (const CornerSide& side : p.corner_sides) {
        out.corner_sides.push_back(
            {side.sequence, side.jacobian, floquet_multipliers(block(side.jacobian, free))});
      }
      os << "converged in " << out.iterations << " Newton steps, residual " << out.residual;
      if (!out.corner.empty()) os << ", on a corner of the map (" << out.corner << ")";
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
    // Newton on the free states (a constant state's row of DP - I is zero; a cyclic one is held).
    const auto n_free = static_cast<Eigen::Index>(free.size());
    const Matrix newton = block(out.monodromy, free) - Matrix::Identity(n_free, n_free);
    const Vector r_free = gather(p.x - out.x, free);
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
    // Backtracking on |r|: the full step first (undamped Newton where it lowers the residual).
    const double norm0 = r_free.norm();
    MapValue full;
    bool defined = false;
    double lambda = 1.0;
    for (;; lambda *= 0.5) {
      if (lambda < shooting.min_damping) break;
      const Vector trial_x = out.x + lambda * step;
      MapValue trial = map(trial_x);
      const bool first = lambda == 1.0;
      if (usable(trial)) {
        defined = true;
        const Vector r_trial = gather(trial.x - trial_x, free);
        const double closing = closing_residual(trial.x - trial_x, cyclic);
        if (closing <= tolerance || r_trial.norm() <= (1.0 - 1e-4 * lambda) * norm0) {
          out.x = trial_x;
          p = std::move(trial);
          break;
        }
      }
      if (first) full = std::move(trial);
    }
    if (lambda >= shooting.min_damping) {
      out.line_search_halvings += static_cast<int>(std::lround(-std::log2(lambda)));
      continue;
    }
    if (!defined) {
      // Undefined all along the step: reported at the full step's iterate, as undamped Newton.
      out.x += step;
      ++out.iterations;
      return undefined(out, full, out.iterations, out.residual);
    }
    os << "no step along the Newton direction at iteration " << out.iterations
       << " lowers the residual " << out.residual << " (step halved down to "
       << shooting.min_damping << ")";
    out.status = ShootingStatus::LineSearchFailed;
    out.message = os.str();
    return out;
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
