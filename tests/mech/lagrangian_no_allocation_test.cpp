// No heap allocation per step or per impact in a compiled LagrangianModel: flows, guards,
// impact resets (Routh's process keeps its phases in a fixed-capacity record, ImpactPhaseList),
// choosers, reset outputs, the Zeno hand-over map and the compliant-contact flows all work on
// fixed-capacity DofVector/DofMatrix, and so do the compliant contacts' friction flows, guards
// and resets. A reused Simulator makes zero mallocs per run after the first. This is the only
// file of saltus_mech_tests that includes malloc_counter.hpp.
#include <gtest/gtest.h>

#include "lagrangian_test_models.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/malloc_counter.hpp"

namespace saltus::mech {
namespace {

long allocations_for_run(Simulator& sim, ModeId mode, const Vector& x0, double t_end,
                         SimulationResult& r) {
  const Vector z0;
  const long before = saltus::testing::malloc_calls();
  sim.run(mode, 0.0, x0, z0, t_end, r);
  return saltus::testing::malloc_calls() - before;
}

// The frictional bouncing rod of lagrangian_jacobian_test.cpp: 16 Routh-Poisson impacts, Zeno
// hand-over, stick, slip; under Dop853 and Radau5.
TEST(LagrangianNoAllocation, FrictionalRodRunsWithoutMallocAfterTheFirst) {
  if (!saltus::testing::kCountsMalloc) {
    GTEST_SKIP() << "malloc counting needs glibc without sanitizers";
  }
  BouncingRodParameters p;
  p.law = {ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.4};
  const auto c = bouncing_rod_model(p).compile();
  Vector x0(6);
  x0 << 0.0, 0.1, 1.5, 0.6, 0.0, 0.0;
  for (Integrator integrator : {Integrator::Dop853, Integrator::Radau5}) {
    SimulationOptions o = testing::tight_options();
    o.integrator = integrator;
    o.output.reserve_events = 100;
    Simulator sim(c.system, o);
    SimulationResult r;
    allocations_for_run(sim, c.free, x0, 0.68, r);  // warm-up: sizes the result's buffers
    const long again = allocations_for_run(sim, c.free, x0, 0.68, r);
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    ASSERT_GE(r.events.size(), 20);
    EXPECT_EQ(r.summary.zeno_handovers, 1);
    EXPECT_EQ(r.final_mode, c.slip_positive[0]);
    EXPECT_EQ(again, 0) << r.events.size() << " events, integrator "
                        << (integrator == Integrator::Radau5 ? "radau5" : "dop853");
    // A shorter run with fewer events on the same simulator: still none.
    EXPECT_EQ(allocations_for_run(sim, c.free, x0, 0.3, r), 0);
  }
}

// The frictionless rod of seed 000 (Newton restitution through Zeno to the closed mode) and a
// rod with a Hunt-Crossley tip (compliant flows, touch and release guards).
TEST(LagrangianNoAllocation, FrictionlessAndCompliantRodsRunWithoutMalloc) {
  if (!saltus::testing::kCountsMalloc) {
    GTEST_SKIP() << "malloc counting needs glibc without sanitizers";
  }
  BouncingRodParameters p;
  p.law.e = 0.6;
  LagrangianModel rigid = bouncing_rod_model(p);
  LagrangianModel soft("hunt_crossley_rod", 3);
  set_bouncing_rod_dynamics(soft, p);
  soft.add_compliant_contact(
      "tip", "rod", [](const auto& q) { return q[1]; },
      CompliantContactLaw::hunt_crossley(1e6, 2e4));
  Vector x0(6);
  x0 << 0.0, 0.3, 0.9, 0.4, 0.0, 0.0;
  for (const LagrangianModel* model : {&rigid, &soft}) {
    const auto c = model->compile();
    SimulationOptions o = testing::tight_options();
    o.output.reserve_events = 200;
    Simulator sim(c.system, o);
    SimulationResult r;
    allocations_for_run(sim, c.free, x0, 1.5, r);
    const long again = allocations_for_run(sim, c.free, x0, 1.5, r);
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    ASSERT_GE(r.events.size(), 4) << model->name();
    EXPECT_EQ(again, 0) << model->name() << ": " << r.events.size() << " events";
  }
}

// The Hunt-Crossley rod with Coulomb friction on its tip (compliant friction: sliding and
// sticking flows, stick / slip guards, the friction-state resets), under Dop853 and Radau5.
TEST(LagrangianNoAllocation, CompliantFrictionRodRunsWithoutMalloc) {
  if (!saltus::testing::kCountsMalloc) {
    GTEST_SKIP() << "malloc counting needs glibc without sanitizers";
  }
  BouncingRodParameters p;
  LagrangianModel soft("rough_hunt_crossley_rod", 3);
  set_bouncing_rod_dynamics(soft, p);
  soft.add_compliant_contact(
      "tip", "rod", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      CompliantContactLaw::hunt_crossley(1e6, 2e4).with_friction(0.5));
  const auto c = soft.compile();
  Vector x0(6);
  x0 << 0.0, 0.3, 0.9, 0.4, 0.0, 0.0;
  for (Integrator integrator : {Integrator::Dop853, Integrator::Radau5}) {
    SimulationOptions o = testing::tight_options();
    o.integrator = integrator;
    o.output.reserve_events = 200;
    Simulator sim(c.system, o);
    SimulationResult r;
    allocations_for_run(sim, c.free, x0, 1.5, r);
    const long again = allocations_for_run(sim, c.free, x0, 1.5, r);
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    int friction_events = 0;
    for (long i = 0; i < r.events.size(); ++i) {
      const std::string& g = c.system.mode(r.events[i].mode_before).guards[r.events[i].guard].name;
      friction_events += g == "stick:tip" || g == "slip+:tip" || g == "slip-:tip";
    }
    EXPECT_GE(friction_events, 2) << r.events.size() << " events";
    EXPECT_EQ(again, 0) << r.events.size() << " events, integrator "
                        << (integrator == Integrator::Radau5 ? "radau5" : "dop853");
  }
}

}  // namespace
}  // namespace saltus::mech
