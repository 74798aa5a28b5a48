// analysis::parameter_augmented_system on hand-built families: x' = -a x with a reset at a guard
// whose level and restitution depend on the parameter, against the closed form; the refusals
// (a DAE mode, systems of different shape, a parameter value it was not built for).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <type_traits>

#include "saltus/analysis/hybrid_sensitivity.hpp"
#include "saltus/analysis/parameter_augmented_system.hpp"
#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {
namespace {

// x' = -a x from x0 > c a; at x = c a (falling) x+ = k x- + 1 with k = 1.5 + a, once (the mode
// after has no guard).
HybridSystem decay(double a) {
  const double c = 0.5, k = 1.5 + a;
  HybridSystem sys;
  const auto flow = [a](const auto&, const auto& x, auto& xd) { xd[0] = -a * x[0]; };
  const ModeId before = sys.add_mode("before", ode_flow(1, flow));
  const ModeId after = sys.add_mode("after", ode_flow(1, flow));
  sys.add_guard(before,
                make_guard(
                    "level", Direction::Falling,
                    [c, a](const auto&, const auto& x, const auto&) { return x[0] - c * a; },
                    Reset::to_ad(after, [k](const auto&, const auto& x, const auto&, auto& xp) {
                      xp[0] = k * x[0] + 1.0;
                    })));
  return sys;
}

std::shared_ptr<ParameterFamily> family_of(double a, HybridSystem (*build)(double)) {
  auto f = std::make_shared<ParameterFamily>();
  f->nominal = build(a);
  f->names = {"a"};
  f->values = Vector::Constant(1, a);
  f->steps = Vector::Constant(1, parameter_step(a));
  f->plus.push_back(build(a + f->steps[0]));
  f->minus.push_back(build(a - f->steps[0]));
  return f;
}

TEST(ParameterAugmentedSystem, DecayWithParameterGuardAndResetAgainstClosedForm) {
  // Crossing x = c a at t* = ln(x0 / (c a)) / a, then x(T) = (k c a + 1) e^{-a (T - t*)}
  // = x0 e^{-a T} (k + 1 / (c a)): the guard's level, the reset's k and the flow all move with
  // a; d x(T) / d a = x0 e^{-a T} (1 - 1 / (c a^2) - T (k + 1 / (c a))).
  const double a = 0.7, x0 = 2.0, T = 3.0;
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = 1e-12;
  o.stepper.atol = 1e-14;
  const HybridSystem augmented = parameter_augmented_system(family_of(a, decay));
  const Vector start = (Vector(2) << x0, a).finished();
  const FlowMapSensitivity s = flow_map_sensitivity(augmented, 0, 0.0, start, T, o);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.events.size(), 1u);
  const double c = 0.5, k = 1.5 + a, e = std::exp(-a * T);
  const double expected = x0 * e * (1 - 1 / (c * a * a) - T * (k + 1 / (c * a)));
  EXPECT_NEAR(s.run.x_final[0], x0 * e * (k + 1 / (c * a)), 1e-10);
  EXPECT_NEAR(s.flow_map_jacobian(0, 1), expected, 1e-8 * std::abs(expected));
  EXPECT_NEAR(s.flow_map_jacobian(0, 0), e * (k + 1 / (c * a)), 1e-9);
  EXPECT_EQ(s.flow_map_jacobian(1, 1), 1.0);  // p+ = p, p' = 0
  EXPECT_EQ(s.flow_map_jacobian(1, 0), 0.0);
}

HybridSystem algebraic(double a) {
  HybridSystem sys;
  sys.add_mode(
      "constrained",
      semi_explicit_flow(
          1, 1, [](const auto&, const auto&, const auto& z, auto& xd) { xd[0] = z[0]; },
          [a](const auto&, const auto& x, const auto& z, auto& g) { g[0] = z[0] + a * x[0]; }));
  return sys;
}

HybridSystem two_modes(double a) {
  HybridSystem sys = decay(a);
  if (a > 0.7)
    sys.add_mode("extra",
                 ode_flow(1, [](const auto&, const auto& x, auto& xd) { xd[0] = 0.0 * x[0]; }));
  return sys;
}

void expect_refused(const std::shared_ptr<ParameterFamily>& f, const std::string& cause) {
  try {
    (void)parameter_augmented_system(f);
    ADD_FAILURE() << "accepted: " << cause;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(cause), std::string::npos) << e.what();
  }
}

TEST(ParameterAugmentedSystem, Refusals) {
  expect_refused(family_of(0.7, algebraic), "mode 'constrained' has algebraic states");
  expect_refused(family_of(0.7, two_modes), "parameter 'a' changes the number of modes");
  // Evaluated at a parameter value other than p0 and p0 +- h: an error, never a wrong value.
  const HybridSystem augmented = parameter_augmented_system(family_of(0.7, decay));
  Vector x = (Vector(2) << 1.0, 0.71).finished(), xdot(2);
  EXPECT_THROW(augmented.mode(0).flow.rhs(0.0, x, Vector(), xdot), Error);
  x[1] = 0.7;
  augmented.mode(0).flow.rhs(0.0, x, Vector(), xdot);
  EXPECT_DOUBLE_EQ(xdot[0], -0.7);
  EXPECT_EQ(xdot[1], 0.0);
}

// y' = v, v' = -1 from (0, v0), v0^2 = 2 (a + d): y peaks d above the level a at t = v0 and
// crosses it twice, 2 sqrt(2 d) apart, first at t* = v0 - sqrt(2 d). The flight is a parabola,
// which the integrator follows exactly, so its steps are ~1 long. The guard has an enclosure
// (make_enclosed_guard); the augmented system's guard keeps it.
HybridSystem hop(double a) {
  HybridSystem sys;
  const auto flow = [](const auto&, const auto& x, auto& xd) {
    xd[0] = x[1];
    xd[1] = -1.0 + 0.0 * x[0];
  };
  const ModeId flight = sys.add_mode("flight", ode_flow(2, flow));
  const ModeId above = sys.add_mode("above", ode_flow(2, flow));
  sys.add_guard(flight, make_enclosed_guard(
                            "level", Direction::Rising,
                            [a](const auto&, const auto& x, const auto&) {
                              using Scalar = std::decay_t<decltype(x[0])>;
                              return x[0] - Scalar(a);
                            },
                            Reset::to(above)));
  return sys;
}

// The parameter-augmented system (orbits' and sweeps' derivatives in a parameter) searches its
// guards with the certificate (no guard left to samples): of the two crossings 1.3e-4 apart
// inside one step of ~1, the first is the event, with every integrator.
TEST(ParameterAugmentedSystem, GuardsKeepTheirEnclosures) {
  const double a = 0.3, d = 2e-9, v0 = std::sqrt(2.0 * (a + d));
  const HybridSystem augmented = parameter_augmented_system(family_of(a, hop));
  ASSERT_TRUE(static_cast<bool>(augmented.mode(0).guards[0].enclosure));
  SimulationOptions o;
  o.stepper.rtol = 1e-10;
  o.stepper.atol = 1e-12;
  o.output.record_events = true;
  for (const Integrator integrator : {Integrator::Dopri5, Integrator::Dop853, Integrator::Radau5}) {
    o.integrator = integrator;
    const SimulationResult r =
        simulate(augmented, 0, 0.0, (Vector(3) << 0.0, v0, a).finished(), 3.0, o);
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    EXPECT_TRUE(r.summary.sampled_guards.empty());
    ASSERT_EQ(r.events.size(), 1) << "integrator " << static_cast<int>(integrator);
    EXPECT_NEAR(r.events[0].t, v0 - std::sqrt(2.0 * d), 1e-9);
    EXPECT_EQ(r.events.x_after(0)[2], a);  // the parameter state is kept
  }
}

}  // namespace
}  // namespace saltus::analysis
