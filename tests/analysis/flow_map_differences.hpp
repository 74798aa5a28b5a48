// Central differences of the whole hybrid flow map x0 -> x(t_end): every column re-runs the
// simulation from x0 +- h e_k (events located again, resets applied again). The reference the
// analysis layer's Jacobians are checked against.
//
// Error: ~ tol / h from the runs (each final state carries the solver's error, which differs
// between the two runs by about rtol) plus h^2 |d^3 phi| / 6 from the formula. With rtol = 1e-12
// and h = 1e-4 both are ~1e-8, so 1e-7 (relative to max(1, |J|)) has a margin of ~5.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "saltus/sim/simulator.hpp"

namespace saltus::testing {

inline constexpr double kDifferenceStep = 1e-4;
inline constexpr double kDifferenceTolerance = 1e-7;

// Options of every run that is differentiated: Dop853 (or the caller's integrator) at 1e-12.
inline SimulationOptions differentiation_options(Integrator integrator = Integrator::Dop853) {
  SimulationOptions o;
  o.integrator = integrator;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  return o;
}

// d x(t_end) / d x0 by central differences; fails the test if a perturbed run ends otherwise or
// with another number of events (the perturbation must not change the event sequence).
inline Matrix flow_map_by_differences(const HybridSystem& system, ModeId mode, double t0,
                                      const Vector& x0, double t_end,
                                      const SimulationOptions& options, const Vector& z0 = {},
                                      double h = kDifferenceStep) {
  const SimulationResult nominal = simulate(system, mode, t0, x0, t_end, options, z0);
  Matrix jacobian(nominal.x_final.size(), x0.size());
  for (Eigen::Index k = 0; k < x0.size(); ++k) {
    const double step = h * std::max(1.0, std::abs(x0[k]));
    Vector up = x0, down = x0;
    up[k] += step;
    down[k] -= step;
    const SimulationResult a = simulate(system, mode, t0, up, t_end, options, z0);
    const SimulationResult b = simulate(system, mode, t0, down, t_end, options, z0);
    EXPECT_EQ(a.termination(), nominal.termination()) << a.summary.message;
    EXPECT_EQ(b.termination(), nominal.termination()) << b.summary.message;
    EXPECT_EQ(a.events.size(), nominal.events.size()) << "column " << k;
    EXPECT_EQ(b.events.size(), nominal.events.size()) << "column " << k;
    EXPECT_EQ(a.final_mode, nominal.final_mode);
    jacobian.col(k) = (a.x_final - b.x_final) / (2.0 * step);
  }
  return jacobian;
}

// |a - b|_max / max(1, |b|_max): the measure every Jacobian check uses.
inline double relative_difference(const Matrix& a, const Matrix& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(1.0, b.lpNorm<Eigen::Infinity>());
}

// A measured number for RecordProperty (read back with --gtest_output=json).
inline std::string measured(double v) {
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

}  // namespace saltus::testing
