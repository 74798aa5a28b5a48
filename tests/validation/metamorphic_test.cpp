// Metamorphic tests (issue 34; docs/VALIDATION.md "Metamorphic suite"): the same model in other
// units, translated, started later, mirrored or with its contacts renumbered must give the same
// events. Each test derives its tolerances from the solver's and states what it compares:
//   - started later (t0 = 1e5, 1e9), every autonomous model of models/: the same run, bit for
//     bit in the states (the engine counts time from t0), times to half an ulp of the output;
//   - other units of length and time (random factors), seeded random rocking blocks: the same
//     events up to events closer than the simultaneity of round-off (grouped, below), the same
//     Zeno time to 1e-8 relative;
//   - a free coordinate translated by up to 1e8, a mirrored block, renumbered contacts: the same
//     event names in the same order and times to 1e-9 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/operations.hpp"
#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

using saltus::testing::named_events;
using saltus::testing::NamedEvent;
using saltus::testing::reads_time;
using saltus::testing::run_file;
using saltus::testing::run_text;
using saltus::testing::sorted_parts;
using saltus::testing::unread_states;

// Events closer than `window` after the first of a group form one group (an impact and a second
// one 3e-9 s later, or the two as one simultaneous impact: which one a run takes depends on
// round-off at the 1e-11 level); a group is compared by its first time and the mode it leaves.
struct EventGroup {
  double t;
  std::string mode_after;
};
std::vector<EventGroup> groups(const std::vector<NamedEvent>& events, double window) {
  std::vector<EventGroup> out;
  for (const NamedEvent& e : events) {
    if (!out.empty() && e.t - out.back().t <= window) {
      out.back().mode_after = e.mode_after;
    } else {
      out.push_back({e.t, e.mode_after});
    }
  }
  return out;
}

// Runs in the metamorphic suite report the worst difference they met (docs/VALIDATION.md).
void report(const char* what, double worst, int cases) {
  std::printf("metamorphic: %s: %d cases, worst difference %.2g\n", what, cases, worst);
}

TEST(Metamorphic, AutonomousModelsStartedLaterGiveTheSameRun) {
  int autonomous = 0;
  double worst = 0.0;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    const Model model = load_model_file(entry.path());
    if (reads_time(model)) {  // its physics moves with t0: not the same run
      std::printf("metamorphic: %s reads t\n", entry.path().filename().c_str());
      continue;
    }
    ++autonomous;
    const double t_start = model.t_start, horizon = model.t_end - model.t_start;
    for (const double t0 : {1e5, 1e9}) {
      SCOPED_TRACE(entry.path().filename().string() + " from t0 = " + num(t0));
      // t0 + horizon rounds: both runs take the horizon the later one can represent.
      const double t_end = t0 + horizon, represented = t_end - t0;
      const ModelRun at_start =
          run_file(entry.path(), {"solver.t_end=" + num(t_start + represented)});
      const std::vector<NamedEvent> reference = named_events(at_start);
      const ModelRun later =
          run_file(entry.path(), {"initial.t=" + num(t0), "solver.t_end=" + num(t_end)});
      EXPECT_EQ(later.result.termination(), at_start.result.termination()) << later.message();
      const std::vector<NamedEvent> events = named_events(later);
      ASSERT_EQ(events.size(), reference.size());
      for (size_t i = 0; i < events.size(); ++i) {
        EXPECT_EQ(events[i].guard, reference[i].guard) << i;
        EXPECT_EQ(events[i].mode_after, reference[i].mode_after) << i;
        // t0 + tau rounded once where the run from t_start wrote t_start + tau.
        const double shifted = t0 + (reference[i].t - t_start);
        const double ulp =
            std::nextafter(std::abs(shifted), 2.0 * std::abs(shifted) + 1.0) - std::abs(shifted);
        EXPECT_LE(std::abs(events[i].t - shifted), ulp) << i;
        worst = std::max(worst, std::abs(events[i].t - shifted) / ulp);
        EXPECT_EQ(later.result.events.x_after(static_cast<long>(i)),
                  at_start.result.events.x_after(static_cast<long>(i)))
            << i;
      }
      EXPECT_EQ(later.result.x_final, at_start.result.x_final);
    }
  }
  EXPECT_GE(autonomous, 10) << "the suite must cover most of models/";
  report("started at t0 = 1e5 and 1e9 (event times, in ulps of the output)", worst, autonomous);
}

// Every model of models/ with each state that nothing of its dynamics reads (unread_states: a
// block's x on a flat floor, a sleigh's position in open space) started 1e6 of its unit and a
// seeded random distance further: the same events in the same order, times to 1e4 rtol
// (relative), the other states after every event to 1e4 of the error test's scale, the moved one
// to 1e4 of its own scale there (its error test now reads 1e6). Steps differ (the error test
// weighs the moved state by its size), so the answer may move within the tolerance, not beyond.
TEST(Metamorphic, ModelsTranslatedAlongUnreadCoordinatesGiveTheSameEvents) {
  std::mt19937 rng(3406);
  std::uniform_real_distribution<double> decades(0.0, 6.0);
  int translated = 0;
  double worst_time = 0.0, worst_state = 0.0;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    const Model model = load_model_file(entry.path());
    const ModelRun reference = run_file(entry.path(), {});
    for (const int k : unread_states(model)) {
      std::printf("metamorphic: %s: %s is read by nothing of its dynamics\n",
                  entry.path().filename().c_str(),
                  model.states[static_cast<size_t>(k)].name.c_str());
      for (const double shift : {1e6, std::pow(10.0, decades(rng))}) {
        const Quantity& state = model.states[static_cast<size_t>(k)];
        SCOPED_TRACE(entry.path().filename().string() + ": " + state.name + " moved by " +
                     num(shift));
        const ModelRun moved =
            run_file(entry.path(), {state.name + "=" + num(state.value + shift)});
        const auto c = saltus::testing::compare_runs(
            reference, moved, [](double t) { return t; }, [&](Eigen::Index, double x) { return x; },
            false, k);
        const ode::StepperOptions& o = model.options.stepper;
        EXPECT_EQ(c.first_difference, "");
        EXPECT_LE(c.worst_time, 1e4 * o.rtol);
        EXPECT_LE(c.worst_state, 1e4);
        const double atol = o.atol_per_component.size() > k
                                ? o.atol_per_component[static_cast<Eigen::Index>(k)]
                                : o.atol;
        for (long i = 0; i < std::min(reference.result.events.size(), moved.result.events.size());
             ++i) {
          const double xa = reference.result.events.x_after(i)[k],
                       xb = moved.result.events.x_after(i)[k];
          EXPECT_LE(std::abs((xb - shift) - xa), 1e4 * (atol + o.rtol * std::abs(xb))) << i;
        }
        worst_time = std::max(worst_time, c.worst_time);
        worst_state = std::max(worst_state, c.worst_state);
        ++translated;
      }
    }
  }
  EXPECT_GE(translated, 8) << "the suite must translate the models' free coordinates";
  report("models translated along unread coordinates (event times, relative)", worst_time,
         translated);
  report("models translated along unread coordinates (other states, in error-test scales)",
         worst_state, translated);
}

// The file's [[contacts]] tables in reverse order (each table runs to the next header line).
std::string contacts_reversed(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> tables;  // [begin, end) of each [[contacts]] table
  for (size_t at = text.find("[[contacts]]"); at != std::string::npos;
       at = text.find("[[contacts]]", at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const size_t next = text.find("\n[", at + 1);
    tables.emplace_back(at, next == std::string::npos ? text.size() : next + 1);
  }
  std::string out;
  size_t copied = 0;
  for (size_t k = 0; k < tables.size(); ++k) {
    const auto& slot = tables[k];
    const auto& moved = tables[tables.size() - 1 - k];
    std::string table = text.substr(moved.first, moved.second - moved.first);
    if (table.back() != '\n') table += '\n';
    out += text.substr(copied, slot.first - copied) + table;
    copied = slot.second;
  }
  return out + text.substr(copied);
}

// Every model of models/ with two or more contacts, its [[contacts]] declared in reverse order:
// the same run bit for bit. Before the loader numbered contacts by name, two corners stopping
// or landing at one instant were logged under whichever contact the file declared first
// (box_sliding_two_corners: stick:leading instead of stick:trailing).
TEST(Metamorphic, ModelsWithTheirContactsRenumberedGiveTheSameEvents) {
  int renumbered = 0;
  double worst_time = 0.0, worst_state = 0.0;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    const Model model = load_model_file(entry.path());
    if (!model.mechanics || model.mechanics->contacts.size() < 2) continue;
    SCOPED_TRACE(entry.path().filename().string());
    std::vector<Diagnostic> unreadable;
    const std::string text = read_model_file_text(entry.path(), unreadable);
    ASSERT_TRUE(unreadable.empty());
    const std::string reversed = contacts_reversed(text);
    ASSERT_NE(reversed, text);
    ASSERT_EQ(load_model_text(reversed, "reversed.toml").mechanics->contacts.size(),
              model.mechanics->contacts.size());
    const auto c = saltus::testing::compare_runs(
        run_file(entry.path(), {}), run_text(reversed, {}), [](double t) { return t; },
        [](Eigen::Index, double x) { return x; }, false);
    EXPECT_EQ(c.first_difference, "");
    // Contacts are numbered by their names (the loader sorts them), so the file's order leaves
    // nothing to round differently.
    EXPECT_TRUE(c.bit_identical);
    worst_time = std::max(worst_time, c.worst_time);
    worst_state = std::max(worst_state, c.worst_state);
    ++renumbered;
  }
  EXPECT_GE(renumbered, 6) << "every model of models/ with two or more contacts";
  report("models with their contacts renumbered (event times, relative)", worst_time, renumbered);
  report("models with their contacts renumbered (states, in error-test scales)", worst_state,
         renumbered);
}

// A rocking block of random proportions, friction and tilt (models/rocking_block.toml), written
// with lengths in units of `L` metres and times in units of `T` seconds.
struct Block {
  double a, h, mu, theta0;
};
std::vector<std::string> block_in_units(const Block& b, double L, double T, const Model& base) {
  const double atol = base.options.stepper.atol;
  return {"a=" + num(b.a / L),
          "h=" + num(b.h / L),
          "mu=" + num(b.mu),
          "theta0=" + num(b.theta0),
          "g=" + num(9.81 * T * T / L),
          "solver.t_end=" + num(base.t_end / T),
          "solver.atol=" + num(atol / L)};
}

TEST(Metamorphic, RandomRockingBlocksInOtherUnitsGiveTheSameEvents) {
  const auto file = models_dir() / "rocking_block.toml";
  const Model base = load_model_file(file);
  const double rtol = base.options.stepper.rtol;
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> a(0.1, 0.5), h(0.2, 1.0), mu(0.3, 2.0), tilt(0.02, 0.3),
      log_factor(-3.0, 3.0);
  int cases = 0, exact = 0;
  double worst_zeno = 0.0;
  for (int k = 0; k < 24; ++k) {
    const Block b{a(rng), h(rng), mu(rng), tilt(rng)};
    const double L = std::pow(10.0, log_factor(rng)), T = std::pow(10.0, log_factor(rng) / 3.0);
    SCOPED_TRACE("block " + std::to_string(k) + " in units of " + num(L) + " m and " + num(T) +
                 " s");
    const ModelRun si = run_file(file, block_in_units(b, 1.0, 1.0, base));
    const ModelRun other = run_file(file, block_in_units(b, L, T, base));
    ASSERT_TRUE(si.succeeded()) << si.message();
    ASSERT_TRUE(other.succeeded()) << other.message();
    ++cases;
    const std::vector<NamedEvent> e_si = named_events(si), e_other = named_events(other);
    bool same = e_si.size() == e_other.size();
    for (size_t i = 0; same && i < e_si.size(); ++i) same = e_si[i].guard == e_other[i].guard;
    exact += same;
    // Groups: events within 1e-8 of the run's time scale (1e4 x rtol x t_end, far above the
    // solver's error and far below the block's rocking periods).
    const double window = 1e-8 * base.t_end;
    std::vector<NamedEvent> scaled = e_other;
    for (NamedEvent& e : scaled) e.t *= T;
    const std::vector<EventGroup> g_si = groups(e_si, window), g_other = groups(scaled, window);
    ASSERT_EQ(g_si.size(), g_other.size());
    for (size_t i = 0; i < g_si.size(); ++i) {
      EXPECT_EQ(g_si[i].mode_after, g_other[i].mode_after) << "group " << i;
      EXPECT_NEAR(g_si[i].t, g_other[i].t, window) << "group " << i;
    }
    const double z_si = si.result.summary.zeno_time, z_other = other.result.summary.zeno_time * T;
    EXPECT_EQ(std::isnan(z_si), std::isnan(z_other));
    if (!std::isnan(z_si)) {
      // The hand-over's extrapolation to 1e4 x rtol of the Zeno time.
      EXPECT_NEAR(z_other, z_si, 1e4 * rtol * z_si);
      worst_zeno = std::max(worst_zeno, std::abs(z_other - z_si) / z_si);
    }
  }
  std::printf(
      "metamorphic: rocking blocks in other units: %d of %d with the same events "
      "one by one\n",
      exact, cases);
  report("rocking blocks in other units (Zeno time, relative)", worst_zeno, cases);
}

TEST(Metamorphic, TranslatedMirroredAndRenumberedBlocksGiveTheSameEvents) {
  const auto file = models_dir() / "rocking_block.toml";
  std::vector<Diagnostic> unreadable;
  const std::string text = read_model_file_text(file, unreadable);
  ASSERT_TRUE(unreadable.empty());
  const ModelRun reference = run_file(file, {});
  ASSERT_TRUE(reference.succeeded()) << reference.message();
  const std::vector<NamedEvent> ref = named_events(reference);
  ASSERT_GE(ref.size(), 10u);
  double worst = 0.0;
  const auto expect_same = [&](const ModelRun& r, const char* what, bool mirrored) {
    SCOPED_TRACE(what);
    ASSERT_TRUE(r.succeeded()) << r.message();
    const std::vector<NamedEvent> e = named_events(r);
    ASSERT_EQ(e.size(), ref.size());
    for (size_t i = 0; i < e.size(); ++i) {
      std::string guard = ref[i].guard, mode = ref[i].mode_after;
      if (mirrored) {  // left <-> right
        for (std::string* s : {&guard, &mode}) {
          std::string out;
          for (size_t at = 0; at < s->size();) {
            if (s->compare(at, 4, "left") == 0) {
              out += "right";
              at += 4;
            } else if (s->compare(at, 5, "right") == 0) {
              out += "left";
              at += 5;
            } else {
              out += (*s)[at++];
            }
          }
          *s = sorted_parts(out);
        }
      }
      EXPECT_EQ(e[i].guard, guard) << i;
      EXPECT_EQ(e[i].mode_after, mode) << i;
      // 1e3 x rtol of the time: the solver's error, which a translation or mirror reshuffles.
      EXPECT_NEAR(e[i].t, ref[i].t, 1e3 * 1e-12 * ref[i].t) << i;
      worst = std::max(worst, std::abs(e[i].t - ref[i].t) / ref[i].t);
    }
  };
  for (const double x : {1e6, 1e8}) {
    expect_same(run_file(file, {"x=" + num(x)}), ("x = " + num(x)).c_str(), false);
  }
  // Mirrored: tilted the other way, the right corner on the floor (the file's y0 is written for
  // theta0 >= 0).
  const double a = 0.25, h = 0.5;  // the file's
  expect_same(run_file(file, {"theta0=-0.1", "y=" + num(a * std::sin(0.1) + h * std::cos(0.1))}),
              "mirrored (theta0 = -0.1)", true);
  // The two [[contacts]] tables in the other order.
  const size_t left = text.find("[[contacts]]"), right = text.find("[[contacts]]", left + 1);
  const size_t after = text.find("\n[", right + 1);
  ASSERT_NE(right, std::string::npos);
  ASSERT_NE(after, std::string::npos);
  const std::string renumbered = text.substr(0, left) + text.substr(right, after + 1 - right) +
                                 text.substr(left, right - left) + text.substr(after + 1);
  expect_same(run_text(renumbered, {}), "contacts renumbered", false);
  report("rocking block translated to x = 1e8, mirrored, renumbered (event times, relative)", worst,
         4);
}

}  // namespace
}  // namespace saltus::model
