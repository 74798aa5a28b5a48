// Seeded random drops of a box (four corners) and of a rod (two ends) with Coulomb friction
// (issue 11): random size, orientation, spin, sliding speed, mu and e. Invariants of every run:
// it ends with a status (a failure carries a message naming its time), no contact penetrates
// below -1e-9 after any event nor at the end, and no impact increases the energy beyond round-off
// (1e-12 of the energy scale; 1e-9 at a Zeno hand-over, which projects the extrapolated limit
// state onto the surface). Along the flow too, on the run's samples every 1 ms: no corner below
// the floor and no energy above the initial energy, each beyond 1e3 of the solver's tolerance on
// its scale (kFlowTolerance). 500 drops of each body here; SALTUS_RANDOM_DROPS=N runs N of each
// (bench/run_random_drops.sh runs 10^4).
//
// Early ends (any status but end-time-reached: a step-size underflow or an event cap where
// events chatter, a reset without an answer) are allowed, each with its message, but bounded:
// at most 1 % of each from 100 drops on (measured in session 8: 0.4 % and 0 of 500, 0.1 % and 0
// of 2000; after session 7: 4.8 % and 0.4 % of 500; before issue 11: 38 % and 17 % of 300), so
// that a regression in the event-driven scheme fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "drop_models.hpp"

namespace saltus::mech {
namespace {

using testing::kDropG;

constexpr double kEnd = 1.5;
constexpr double kInf = std::numeric_limits<double>::infinity();
// Samples along the flow every 1 ms (half of drop_options' h_max: every step is sampled inside;
// ~0.5 s for the 1000 drops).
constexpr int kSamples = 1500;
// Flow tolerances: 1e3 of the solver's local tolerance (Dop853, rtol 1e-12, atol 1e-14) on the
// quantity's scale, the event tests' 1e3 rtol: room for the global error of ~10^3 steps and for
// the Zeno hand-over's projection (1e-9 of the energy scale). Measured worst (session of issue
// 34): penetration 0.008, energy gain 6e-6 of these.
constexpr double kFlowTolerance = 1e3;

int drops_per_body() {
  const char* n = std::getenv("SALTUS_RANDOM_DROPS");
  return n ? std::atoi(n) : 500;
}

void random_drops(bool box, unsigned seed, double max_early_fraction) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  const int runs = drops_per_body();
  ASSERT_GT(runs, 0);
  std::map<std::string, int> outcomes;
  std::vector<double> sample_times;
  for (int i = 0; i <= kSamples; ++i) sample_times.push_back(kEnd * i / kSamples);
  double worst_gap = 0.0, worst_energy = 0.0;  // along the flow, in units of their tolerances
  for (int run = 0; run < runs; ++run) {
    const double m = 1.0, a = in(0.1, 0.5), b = box ? in(0.1, 0.5) : 0.0;
    const double mu = unit(rng) < 0.1 ? 0.0 : in(0.05, 1.0);
    const double e = unit(rng) < 0.2 ? 0.0 : in(0.0, 0.8);
    const auto corners = testing::drop_corners(box, a, b);
    const double J = m * testing::drop_inertia(box, a, b);
    const auto model = testing::drop_body(m, J, corners, {ImpactLawKind::RouthStronge, e, 0.0, mu});
    const auto c = model.compile();
    // Every tenth drop flat without spin (simultaneous landing); the rest random.
    const bool flat = run % 10 == 0;
    const double th = flat ? 0.0 : in(-M_PI, M_PI), w = flat ? 0.0 : in(-5.0, 5.0);
    const double lowest = testing::drop_lowest(corners, th);
    Vector x0(6);
    x0 << 0.0, -lowest + in(0.02, 1.0), th, in(-2.0, 2.0), 0.0, w;
    SimulationOptions o = testing::drop_options();
    o.output.sample_times = sample_times;
    o.output.reserve_samples = static_cast<long>(sample_times.size()) + 16;
    const SimulationResult r = simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, kEnd, o);
    if (const char* one = std::getenv("SALTUS_SHOW_RUN"); one && std::atoi(one) == run) {
      std::printf(
          "run %d: a = %.17g, b = %.17g, mu = %.17g, e = %.17g\nx0 = %.17g, %.17g, %.17g, "
          "%.17g, %.17g, %.17g\nx_final = %.17g, %.17g, %.17g, %.17g, %.17g, %.17g\n%s\n",
          run, a, b, mu, e, x0[0], x0[1], x0[2], x0[3], x0[4], x0[5], r.x_final[0], r.x_final[1],
          r.x_final[2], r.x_final[3], r.x_final[4], r.x_final[5], r.summary.message.c_str());
    }
    ASSERT_NE(r.termination(), Termination::NotRun);
    ++outcomes[to_string(r.termination())];
    if (r.termination() != Termination::EndTimeReached) {
      EXPECT_NE(r.summary.message.find("t = "), std::string::npos)
          << "run " << run << ": " << r.summary.message;
      if (std::getenv("SALTUS_SHOW_RUNS")) {
        std::printf("%s run %d: %s\n", box ? "box" : "rod", run, r.summary.message.c_str());
      }
    }
    const double scale =
        m * kDropG * (x0[1] + a + b) + model.kinetic_energy(x0.head(3), x0.tail(3));
    const auto energy = [&](ConstVectorRef x) {
      return model.kinetic_energy(x.head(3), x.tail(3)) + m * kDropG * x[1];
    };
    // The engine's extrapolated Zeno limit state can penetrate (a "pattern" of events at one
    // instant); the index-sets guard then stops the run naming it, and that limit state is not
    // checked.
    const bool bad_limit = r.summary.message.find("Zeno limit state") != std::string::npos;
    const char* show = std::getenv("SALTUS_SHOW_RUN");
    for (long i = 0; i < r.events.size(); ++i) {
      const auto xb = r.events.x_before(i), xa = r.events.x_after(i);
      if (bad_limit && r.events[i].guard == kZenoHandoverGuard && i + 1 == r.events.size()) break;
      if (show && std::atoi(show) == run) {
        const auto& rec = r.events[i];
        std::printf(
            "event %ld t=%.17g %s -> %s x-=(%.17g %.17g %.17g %.17g %.17g %.17g) x+=(%.17g %.17g "
            "%.17g %.17g %.17g %.17g)\n",
            i, rec.t,
            rec.guard < 0 ? "zeno"
                          : c.system.modes()[static_cast<size_t>(rec.mode_before)]
                                .guards[static_cast<size_t>(rec.guard)]
                                .name.c_str(),
            c.system.modes()[static_cast<size_t>(rec.mode_after)].name.c_str(), xb[0], xb[1], xb[2],
            xb[3], xb[4], xb[5], xa[0], xa[1], xa[2], xa[3], xa[4], xa[5]);
      }
      for (int k = 0; k < model.contact_count(); ++k) {
        EXPECT_GE(model.gap(k, xa.head(3)), -1e-9) << "run " << run << " event " << i;
      }
      const double slack = r.events[i].guard == kZenoHandoverGuard ? 1e-9 : 1e-12;
      EXPECT_LE(energy(xa), energy(xb) + slack * scale) << "run " << run << " event " << i;
    }
    for (int k = 0; k < model.contact_count() && !bad_limit; ++k) {
      EXPECT_GE(model.gap(k, r.x_final.head(3)), -1e-9) << "run " << run << " at the end";
    }
    // Along the flow, at every sample up to t_final (up to the unchecked limit state above): no
    // corner below the floor by more than kFlowTolerance (rtol L + atol), L the drop's length
    // scale (its height or its size), and the energy never above the initial one by more than
    // kFlowTolerance (rtol E + atol), E the energy scale: gravity keeps it, impacts, friction
    // and the hand-over's projection never add to it.
    const double t_bad = bad_limit ? r.events[r.events.size() - 1].t : kInf;
    const double length = std::max(x0[1], a + b);
    const double gap_tol = kFlowTolerance * (o.stepper.rtol * length + o.stepper.atol);
    const double energy_tol = kFlowTolerance * (o.stepper.rtol * scale + o.stepper.atol);
    const auto sampled = std::count_if(sample_times.begin(), sample_times.end(),
                                       [&](double t) { return t <= r.t_final; });
    EXPECT_GE(r.trajectory.size(), sampled) << "run " << run;  // the checks below see the run
    const double e0 = energy(x0);
    for (long i = 0; i < r.trajectory.size() && r.trajectory.t(i) < t_bad; ++i) {
      const auto x = r.trajectory.x(i);
      double lowest = kInf;
      for (int k = 0; k < model.contact_count(); ++k) {
        lowest = std::min(lowest, model.gap(k, x.head(3)));
      }
      worst_gap = std::max(worst_gap, -lowest / gap_tol);
      worst_energy = std::max(worst_energy, (energy(x) - e0) / energy_tol);
      EXPECT_GE(lowest, -gap_tol) << "run " << run << " at t = " << r.trajectory.t(i);
      EXPECT_LE(energy(x), e0 + energy_tol) << "run " << run << " at t = " << r.trajectory.t(i);
    }
  }
  std::printf(
      "random %s drops along the flow: worst penetration %.2g, energy gain %.2g of their "
      "tolerances\n",
      box ? "box" : "rod", worst_gap, worst_energy);
  std::printf("random %s drops (%d):", box ? "box" : "rod", runs);
  for (const auto& [what, count] : outcomes) std::printf(" %s %d,", what.c_str(), count);
  std::printf("\n");
  const int early = runs - outcomes[to_string(Termination::EndTimeReached)];
  if (runs >= 100) {
    EXPECT_LE(early, max_early_fraction * runs) << "early ends of " << runs;
  }
}

TEST(RandomDrops, BoxWithFriction) {
  random_drops(true, 20261124u, 0.01);
}

TEST(RandomDrops, RodWithFriction) {
  random_drops(false, 20261125u, 0.01);
}

}  // namespace
}  // namespace saltus::mech
