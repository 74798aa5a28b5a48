// Mode::projection (core/invariant_projection.hpp) in the simulator loop: an oscillator x'' = -x
// whose energy E = (x^2 + v^2) / 2 is kept by projection (x, v scaled radially onto the circle
// of the target energy) and a wall at x = a with restitution e (v -> -e v): the target must be
// E0 at the start, stay there along the flow, and become e^2-scaled exactly at each impact
// (E after = E before - (1 - e^2) v^2 / 2, v^2 = 2 E - a^2 at the wall). Seeded random
// amplitudes, walls and restitutions; DOPRI5 at a loose rtol 1e-5, where the unprojected energy
// visibly drifts (asserted: by more than 1e-7 relative), so the projection is what keeps it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus {
namespace {

struct Oscillator {
  HybridSystem system;
  ModeId mode = kNoMode;
};

// A projection that refuses states with x > `refuse_above` (a model whose projection fails).
Oscillator oscillator(double wall, double e, bool project, double refuse_above = kInfinity) {
  Oscillator o;
  o.mode = o.system.add_mode("swing", ode_flow(2, [](const auto&, const auto& x, auto& xdot) {
                               xdot[0] = x[1];
                               xdot[1] = -x[0];
                             }));
  o.system.add_guard(
      o.mode, make_guard(
                  "wall", Direction::Rising,
                  [wall](const auto&, const auto& x, const auto&) { return x[0] - wall; },
                  Reset::to(o.mode, [e](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                    xp[0] = x[0];
                    xp[1] = -e * x[1];
                  })));
  if (project) {
    InvariantProjection p;
    p.count = 1;
    p.values = [](ConstVectorRef x, VectorRef c) { c[0] = 0.5 * x.squaredNorm(); };
    p.project = [refuse_above](ConstVectorRef target, VectorRef x) {
      const double E = 0.5 * x.squaredNorm();
      if (!(E > 0.0) || x[0] > refuse_above) return false;
      x *= std::sqrt(target[0] / E);
      return true;
    };
    o.system.set_projection(o.mode, p);
  }
  return o;
}

double energy(ConstVectorRef x) {
  return 0.5 * x.squaredNorm();
}

TEST(InvariantProjection, KeepsTheEnergyAndTakesEachImpactsChange) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SimulationOptions o;
  o.stepper.rtol = 1e-5;
  o.stepper.atol = 1e-8;
  for (int trial = 0; trial < 30; ++trial) {
    // Each integrator: DOP853 projects inside its step (before the FSAL stage), the others
    // after it.
    o.integrator = trial % 3 == 0   ? Integrator::Dopri5
                   : trial % 3 == 1 ? Integrator::Dop853
                                    : Integrator::Radau5;
    SCOPED_TRACE(to_string(o.integrator));
    const double amplitude = 0.5 + 1.5 * unit(rng), wall = amplitude * (0.3 + 0.6 * unit(rng));
    const double e = 0.9 + 0.1 * unit(rng);
    const Vector x0 = Eigen::Vector2d(0.0, -amplitude);  // moving away from the wall first
    const Oscillator with = oscillator(wall, e, true);
    const double t_end = 40.0;
    const SimulationResult r = simulate(with.system, with.mode, 0.0, x0, t_end, o);
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    ASSERT_GT(r.events.size(), 0);
    // Every impact: the energy before equals the previous target; after it, e^2-scaled kinetic.
    double target = energy(x0);
    for (long k = 0; k < r.events.size(); ++k) {
      const Eigen::Vector2d before = r.events.x_before(k), after = r.events.x_after(k);
      EXPECT_NEAR(energy(before), target, 1e-13 * target) << "trial " << trial << ", impact " << k;
      const double expected = target - 0.5 * (1.0 - e * e) * before[1] * before[1];
      EXPECT_NEAR(energy(after), expected, 1e-13 * target);
      target = energy(after);
    }
    EXPECT_NEAR(energy(r.x_final), target, 1e-13 * target);
    if (trial > 0) continue;
    o.integrator = Integrator::Dopri5;
    // Without the projection an elastic run drifts at this rtol (what the projection is for).
    const Oscillator elastic = oscillator(wall, 1.0, false);
    const SimulationResult free = simulate(elastic.system, elastic.mode, 0.0, x0, 400.0, o);
    EXPECT_GT(std::abs(energy(free.x_final) - energy(x0)), 1e-7 * energy(x0));
  }
}

// DOP853 moves each step's end state onto the invariants before it evaluates f there (its FSAL
// stage), so the next step needs no restart: 15 evaluations of f per accepted step (11 stages, the
// FSAL stage and 3 dense-output stages) and 11 per rejected one, one per restart (at the start and
// after each impact) and one for the starting step size; the projection after the step that the
// other steppers need would add one per step. Every step ends on the target energy to round-off.
TEST(InvariantProjection, Dop853ProjectsBeforeItsLastStageWithoutRestarts) {
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = 1e-7;
  o.stepper.atol = 1e-10;
  o.output.record_steps = true;
  const Oscillator with = oscillator(0.9, 0.95, true);
  const Vector x0 = Eigen::Vector2d(0.0, -1.3);
  const SimulationResult r = simulate(with.system, with.mode, 0.0, x0, 30.0, o);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  const ode::StepperStats& st = r.summary.stepper;
  ASSERT_GT(r.events.size(), 3);
  EXPECT_EQ(st.restarts, 1 + r.events.size());
  EXPECT_GT(st.accepted_steps, 3 * st.restarts);
  EXPECT_EQ(st.rhs_evaluations, 15 * st.accepted_steps + 11 * st.rejected_steps + st.restarts + 1)
      << st.accepted_steps << " accepted, " << st.rejected_steps << " rejected, " << st.restarts
      << " restarts";
  // The target changes at each impact; records at an impact's time are left out (before or after
  // it).
  long k = 0, checked = 0;
  double target = energy(x0);
  for (long i = 0; i < r.trajectory.size(); ++i) {
    const double t = r.trajectory.t(i);
    bool at_event = false;
    while (k < r.events.size() && r.events[k].t <= t) {
      at_event = at_event || r.events[k].t == t;
      target = energy(r.events.x_after(k));
      ++k;
    }
    if (at_event || (k < r.events.size() && r.events[k].t == t)) continue;
    EXPECT_NEAR(energy(r.trajectory.x(i)), target, 1e-13 * target) << "step end " << i;
    ++checked;
  }
  EXPECT_GT(checked, st.accepted_steps / 2);
}

// A projection that finds no state stops the run with a message naming the mode, the target and
// the time, whichever integrator projects.
TEST(InvariantProjection, FailureNamesTheModeAndTheTarget) {
  for (const Integrator integrator : {Integrator::Dopri5, Integrator::Dop853}) {
    SCOPED_TRACE(to_string(integrator));
    SimulationOptions o;
    o.integrator = integrator;
    const Oscillator refusing = oscillator(5.0, 1.0, true, 0.5);  // refused once x > 0.5
    const SimulationResult r =
        simulate(refusing.system, refusing.mode, 0.0, Eigen::Vector2d(0.0, 1.0), 10.0, o);
    EXPECT_EQ(r.termination(), Termination::ModelError);
    const std::string& m = r.summary.message;
    EXPECT_NE(m.find("mode 'swing'"), std::string::npos) << m;
    EXPECT_NE(m.find("invariant projection found no state with c(x) = [0.5]"), std::string::npos)
        << m;
    // It stopped near where x passes 0.5 (t = asin(0.5) = 0.52), within a step.
    EXPECT_LT(r.summary.t_final, 1.0) << m;
  }
}

TEST(InvariantProjection, IsRefusedOnModesWithAlgebraicStates) {
  HybridSystem s;
  const ModeId m = s.add_mode(
      "dae",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto& x, const auto& z, auto& xd) { xd[0] = z[0] - x[0]; },
          [](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] - 2.0 * x[0]; }));
  InvariantProjection p;
  p.count = 1;
  p.values = [](ConstVectorRef x, VectorRef c) { c[0] = x[0]; };
  p.project = [](ConstVectorRef, VectorRef) { return true; };
  s.set_projection(m, p);
  try {
    s.validate();
    FAIL() << "a projection on a DAE mode was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("invariant projection is for ODE modes"),
              std::string::npos)
        << err.what();
  }
}

}  // namespace
}  // namespace saltus
