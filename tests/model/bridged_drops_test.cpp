// The random drops of tests/mech/random_drops_test.cpp (the same seeds, bodies and starts) run
// through the Moreau-Jean bridge (bridge/bridged_run.hpp; issue 32 item 3). Each drop runs event-
// driven first; those that stop with a status the bridge takes (event-cap, step-size-underflow,
// a Painleve or impact reset-failed) run again bridged, and the status counts before and after
// are printed (bench/run_random_drops.sh runs 10^4 of each body).
//
// Invariants of every bridged run: it ends with a status (end-time-reached, or a stop with its
// message); after every hand-back no contact penetrates beyond the projection's round-off (1e-12
// of the gap's scale) and the event-driven pieces keep random_drops_test's 1e-9 (but for a Zeno
// limit state that the engine refused as penetrating, where a stretch starts); a stretch of a
// drop without restitution (e = 0) never gains energy: T + V at the hand-back (projected) is at
// most T + V where the stretch started, beyond 1e-9 of the drop's energy scale (the stepped
// state is projected onto the contacts, moving its penetration of O(h^2 g) back up).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mech/drop_models.hpp"
#include "saltus/bridge/bridged_run.hpp"
#include "saltus/core/error.hpp"

namespace saltus::model {
namespace {

using namespace saltus::bridge;

using mech::testing::kDropG;

constexpr double kEnd = 1.5;

int drops_per_body() {
  const char* n = std::getenv("SALTUS_RANDOM_DROPS");
  return n ? std::atoi(n) : 500;
}

void bridged_drops(bool box, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  const int runs = drops_per_body();
  std::map<std::string, int> before, after;
  int bridged = 0, stretches = 0, energy_checked = 0, run_wide_caps = 0;
  long steps = 0, lift_offs = 0;
  for (int run = 0; run < runs; ++run) {
    // Exactly random_drops_test.cpp's draws, in its order.
    const double m = 1.0, a = in(0.1, 0.5), b = box ? in(0.1, 0.5) : 0.0;
    const double mu = unit(rng) < 0.1 ? 0.0 : in(0.05, 1.0);
    const double e = unit(rng) < 0.2 ? 0.0 : in(0.0, 0.8);
    const auto corners = mech::testing::drop_corners(box, a, b);
    const double J = m * mech::testing::drop_inertia(box, a, b);
    const auto model =
        mech::testing::drop_body(m, J, corners, {mech::ImpactLawKind::RouthStronge, e, 0.0, mu});
    const auto c = model.compile();
    const bool flat = run % 10 == 0;
    const double th = flat ? 0.0 : in(-M_PI, M_PI), w = flat ? 0.0 : in(-5.0, 5.0);
    const double lowest = mech::testing::drop_lowest(corners, th);
    Vector x0(6);
    x0 << 0.0, -lowest + in(0.02, 1.0), th, in(-2.0, 2.0), 0.0, w;
    const SimulationOptions o = mech::testing::drop_options();
    const SimulationResult plain = simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, kEnd, o);
    ++before[to_string(plain.termination())];
    if (bridge_reason(plain).empty()) {
      ++after[to_string(plain.termination())];
      continue;
    }
    ++bridged;
    SimulationResult r;
    BridgeLog st;
    const auto mode_at = [&c](double t, const Vector& x) { return c.initial_mode(t, x); };
    BridgeOptions with_lift_off;  // as `saltus run` runs a model (model_run.cpp)
    with_lift_off.open_mode = [&c](double t, const Vector& x) { return c.open_mode(t, x); };
    run_bridged(c.system, model, mode_at, o, with_lift_off, c.initial_mode(0.0, x0), 0.0, x0, kEnd,
                r, st);
    lift_offs += st.lift_offs;
    ++after[to_string(r.termination())];
    stretches += static_cast<int>(st.stretches.size());
    SCOPED_TRACE(std::string(box ? "box" : "rod") + " run " + std::to_string(run));
    ASSERT_NE(r.termination(), Termination::NotRun);
    run_wide_caps += r.termination() == Termination::EventCap &&
                     r.summary.message.find("reached over the run") != std::string::npos;
    if (r.termination() != Termination::EndTimeReached) {
      EXPECT_FALSE(r.summary.message.empty());
      std::printf("%s run %d bridged: %s: %s\n", box ? "box" : "rod", run,
                  to_string(r.termination()), r.summary.message.substr(0, 300).c_str());
    }
    const auto energy = [&](ConstVectorRef x) {
      return model.kinetic_energy(x.head(3), x.tail(3)) + m * kDropG * x[1];
    };
    const double scale =
        m * kDropG * (x0[1] + a + b) + model.kinetic_energy(x0.head(3), x0.tail(3));
    double started = kNaN;
    for (long i = 0; i < r.events.size(); ++i) {
      const EventRecord& rec = r.events[i];
      const auto xa = r.events.x_after(i);
      if (rec.guard == kBridgeStartGuard) {
        started = energy(r.events.x_before(i));
        EXPECT_FALSE(r.events.note(i).empty());
        continue;
      }
      // The engine's extrapolated Zeno limit state may penetrate: the index-sets guard then
      // stops the piece (reset-failed, zeno-limit) and a stretch starts there; as in
      // random_drops_test.cpp that limit state is not checked.
      const bool bad_limit = rec.guard == kZenoHandoverGuard && i + 1 < r.events.size() &&
                             r.events[i + 1].guard == kBridgeStartGuard;
      for (int k = 0; k < model.contact_count() && !bad_limit; ++k) {
        const Vector wN = model.gap_gradient(k, xa.head(3));
        const double tol = rec.guard == kBridgeEndGuard
                               ? 1e-12 * wN.cwiseAbs().dot(xa.head(3).cwiseAbs()) + 1e-15
                               : 1e-9;
        EXPECT_GE(model.gap(k, xa.head(3)), -tol) << "event " << i << " at t = " << rec.t;
      }
      if (rec.guard == kBridgeEndGuard) {
        EXPECT_FALSE(r.events.note(i).empty());
        if (e == 0.0 && !std::isnan(started)) {
          ++energy_checked;
          EXPECT_LE(energy(xa), started + 1e-9 * scale) << "stretch ending at t = " << rec.t;
        }
      }
    }
    for (const BridgeStretch& s : st.stretches) steps += s.steps;
  }
  const auto print = [](const char* what, const std::map<std::string, int>& counts) {
    std::printf(" %s:", what);
    for (const auto& [status, count] : counts) std::printf(" %s %d,", status.c_str(), count);
  };
  std::printf(
      "random %s drops (%d), %d bridged (%ld lift-offs, %d stretches, %ld Moreau-Jean steps, %d "
      "without restitution checked for energy);",
      box ? "box" : "rod", runs, bridged, lift_offs, stretches, steps, energy_checked);
  print("before", before);
  print("after", after);
  std::printf("\n");
  // The bridge takes every event cap but the run's own: events.max_events (3000 here) counts the
  // whole run since issue 44, and a run that spends it ends there, named (2 of 500 boxes: corner
  // impacts chattering beside a sticking corner, which stretches used to step through). Every
  // cap left is that one, and at most 1 % of the runs.
  EXPECT_EQ(after[to_string(Termination::EventCap)], run_wide_caps);
  EXPECT_LE(run_wide_caps, runs / 100);
  EXPECT_GE(after[to_string(Termination::EndTimeReached)],
            before[to_string(Termination::EndTimeReached)]);
}

// Stretches forced by a cap of 3 events per event-driven piece
// (BridgeOptions::stretch_every_events) on drops without restitution (e = 0, mu in [0.05, 1]): each
// landing and rocking phase is cut into pieces, and the stretches in between step through impacts,
// sliding and sticking. Every run ends with a status; every stretch (from its start state to the
// projected hand-back state) keeps T + V within 1e-9 of the drop's energy scale of where it started
// or below, and every hand-back touches or clears the floor to round-off. A drop of mass 1 without
// restitution (e = 0, mu in [0.05, 1]) whose pieces an event cap of 3 per piece cuts into forced
// stretches; drawn in the order a, b, mu, th, clearance, xdot, spin.
struct ForcedDrop {
  double a = 0.0, b = 0.0;
  mech::LagrangianModel model;
  Vector x0;
};
ForcedDrop forced_drop(std::mt19937& rng, bool box) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  const double a = in(0.1, 0.5), b = box ? in(0.1, 0.5) : 0.0, mu = in(0.05, 1.0);
  const auto corners = mech::testing::drop_corners(box, a, b);
  ForcedDrop d{a, b,
               mech::testing::drop_body(1.0, mech::testing::drop_inertia(box, a, b), corners,
                                        {mech::ImpactLawKind::RouthStronge, 0.0, 0.0, mu}),
               Vector(6)};
  const double th = in(-M_PI, M_PI);
  const double lowest = mech::testing::drop_lowest(corners, th);
  d.x0 << 0.0, -lowest + in(0.02, 0.5), th, in(-2.0, 2.0), 0.0, in(-5.0, 5.0);
  return d;
}
SimulationOptions forced_stretch_options() {
  return mech::testing::drop_options();
}
// Each event-driven piece capped at 3 events and bridged there (events.max_events did this per
// piece until it became run-wide, issue 44).
BridgeOptions forced_stretches() {
  BridgeOptions b;
  b.stretch_every_events = 3;
  return b;
}

TEST(BridgedDrops, ForcedStretchesWithoutRestitutionNeverGainEnergy) {
  std::mt19937 rng(20261203u);
  int reached = 0, stretches = 0, checked = 0;
  double worst = -kInfinity;  // largest energy change over a stretch, in units of the scale
  const int runs = 32;
  for (int run = 0; run < runs; ++run) {
    const bool box = run % 2 == 0;
    const ForcedDrop drop = forced_drop(rng, box);
    const double m = 1.0, a = drop.a, b = drop.b;
    const mech::LagrangianModel& model = drop.model;
    const auto c = model.compile();
    const Vector& x0 = drop.x0;
    const SimulationOptions o = forced_stretch_options();
    SimulationResult r;
    BridgeLog st;
    const auto mode_at = [&c](double t, const Vector& x) { return c.initial_mode(t, x); };
    run_bridged(c.system, model, mode_at, o, forced_stretches(), c.initial_mode(0.0, x0), 0.0, x0,
                1.0, r, st);
    SCOPED_TRACE(std::string(box ? "box" : "rod") + " run " + std::to_string(run));
    ASSERT_NE(r.termination(), Termination::NotRun);
    reached += r.termination() == Termination::EndTimeReached;
    if (r.termination() != Termination::EndTimeReached) {
      EXPECT_FALSE(r.summary.message.empty());
      std::printf("forced stretches, %s run %d: %s: %s\n", box ? "box" : "rod", run,
                  to_string(r.termination()), r.summary.message.substr(0, 300).c_str());
    }
    stretches += static_cast<int>(st.stretches.size());
    const auto energy = [&](ConstVectorRef x) {
      return model.kinetic_energy(x.head(3), x.tail(3)) + m * kDropG * x[1];
    };
    const double scale =
        m * kDropG * (x0[1] + a + b) + model.kinetic_energy(x0.head(3), x0.tail(3));
    double started = kNaN;
    for (long i = 0; i < r.events.size(); ++i) {
      const EventRecord& rec = r.events[i];
      if (rec.guard == kBridgeStartGuard) started = energy(r.events.x_before(i));
      if (rec.guard != kBridgeEndGuard || std::isnan(started)) continue;
      const auto xa = r.events.x_after(i);
      ++checked;
      worst = std::max(worst, (energy(xa) - started) / scale);
      EXPECT_LE(energy(xa), started + 1e-9 * scale) << "stretch ending at t = " << rec.t;
      for (int k = 0; k < model.contact_count(); ++k) {
        const Vector wN = model.gap_gradient(k, xa.head(3));
        EXPECT_GE(model.gap(k, xa.head(3)),
                  -(1e-12 * wN.cwiseAbs().dot(xa.head(3).cwiseAbs()) + 1e-15))
            << "hand-back at t = " << rec.t;
      }
      started = kNaN;
    }
  }
  std::printf(
      "forced stretches without restitution: %d of %d drops reached t_end, %d stretches, %d "
      "checked; largest energy change over a stretch %.3g of the drop's energy scale\n",
      reached, runs, stretches, checked, worst);
  // 22 stretches in these 32 drops. (A drop whose resting phase takes an event every few ms
  // cycles cap, stretch, hand-back all the way: run 15 of these took 576 stretches with the
  // touching band of 1e-10 of the coordinates before issue 44, 2 with the round-off band; among
  // 128 drops one still takes 733. The count is not what this test is about.)
  EXPECT_GE(checked, 16);
}

// The bridge keeps its answer when the run starts at t0 = 1e9 (the drops are autonomous):
// forced-stretch drops take the same events, bridge rows included, every state the same bits and
// every time the run from 0 shifted, to the rounding of each piece's and step's start (one ulp of
// t each). A stretch's step times are its start plus k h, rounded once; summed step by step they
// lost 8 ulp(1e9) over one stretch. (A body moved to x = 1e6 is not compared here: with an event
// cap of a few events per piece, the error test's other weighting of x changes where the pieces
// are cut.)
TEST(BridgedDrops, TheSameStretchesFromALaterStart) {
  std::mt19937 rng(20261204u);
  int compared = 0, bridge_rows = 0;
  for (int run = 0; run < 6; ++run) {
    const bool box = run % 2 == 0;
    const ForcedDrop drop = forced_drop(rng, box);
    const mech::LagrangianModel& model = drop.model;
    const auto c = model.compile();
    const Vector& x0 = drop.x0;
    const SimulationOptions o = forced_stretch_options();
    const auto mode_at = [&c](double t, const Vector& x) { return c.initial_mode(t, x); };
    const auto bridged = [&](double t0, const Vector& x) {
      SimulationResult r;
      BridgeLog st;
      run_bridged(c.system, model, mode_at, o, forced_stretches(), c.initial_mode(t0, x), t0, x,
                  t0 + 1.0, r, st);
      return r;
    };
    SCOPED_TRACE(std::string(box ? "box" : "rod") + " run " + std::to_string(run));
    const SimulationResult ref = bridged(0.0, x0);
    const SimulationResult late = bridged(1e9, x0);
    EXPECT_EQ(late.termination(), ref.termination()) << late.summary.message;
    ASSERT_EQ(late.events.size(), ref.events.size());
    const double ulp = std::nextafter(1e9, 2e9) - 1e9;
    for (long i = 0; i < ref.events.size(); ++i) {
      EXPECT_EQ(late.events[i].guard, ref.events[i].guard) << i;
      EXPECT_EQ(late.events[i].mode_after, ref.events[i].mode_after) << i;
      bridge_rows += ref.events[i].guard == kBridgeStartGuard;
      EXPECT_EQ(late.events.x_after(i), ref.events.x_after(i)) << i;
      EXPECT_LE(std::abs(late.events[i].t - (1e9 + ref.events[i].t)), (i + 1) * ulp) << i;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 6);
  EXPECT_GE(bridge_rows, 2) << "the runs must go through stretches";
}

TEST(BridgedDrops, Box) {
  bridged_drops(true, 20261124u);
}

TEST(BridgedDrops, Rod) {
  bridged_drops(false, 20261125u);
}

// A bridge option out of its range is refused before anything runs, naming the option.
TEST(BridgedDrops, BridgeOptionsOutOfRangeAreRefusedByName) {
  std::mt19937 rng(20261205u);
  const ForcedDrop drop = forced_drop(rng, true);
  const auto c = drop.model.compile();
  const auto mode_at = [&c](double t, const Vector& x) { return c.initial_mode(t, x); };
  const std::vector<std::pair<std::string, std::function<void(BridgeOptions&)>>> bad = {
      {"step", [](BridgeOptions& b) { b.step = -1e-6; }},
      {"step", [](BridgeOptions& b) { b.step = kInfinity; }},
      {"hold_steps", [](BridgeOptions& b) { b.hold_steps = 0; }},
      {"max_stretch", [](BridgeOptions& b) { b.max_stretch = 0.0; }},
      {"max_stretch_steps", [](BridgeOptions& b) { b.max_stretch_steps = 0; }},
      {"max_stretches", [](BridgeOptions& b) { b.max_stretches = -1; }},
      {"stretch_every_events", [](BridgeOptions& b) { b.stretch_every_events = -3; }},
      {"stepper.theta", [](BridgeOptions& b) { b.stepper.theta = 0.4; }}};
  for (const auto& [name, set] : bad) {
    SCOPED_TRACE(name);
    BridgeOptions b;
    set(b);
    SimulationResult r;
    BridgeLog st;
    try {
      run_bridged(c.system, drop.model, mode_at, forced_stretch_options(), b,
                  c.initial_mode(0.0, drop.x0), 0.0, drop.x0, 1.0, r, st);
      ADD_FAILURE() << "not refused";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bridge option " + name + " = "), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(r.termination(), Termination::NotRun);
  }
}

}  // namespace
}  // namespace saltus::model
