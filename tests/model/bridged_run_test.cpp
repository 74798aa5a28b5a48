// The Moreau-Jean bridge of a model's run (bridge/bridged_run.hpp; issue 32 items 2 and 3) on
// models/frictional_bounce.toml: where the event-driven run stops with no answer (the sliding
// tip's Painleve situation at mu = 0.55 > mu_P(theta0) = 0.511, several motions), the run goes on
// with the free motion (the lift-off choice), or, without that choice, through a stretch of
// Moreau-Jean steps that hands back; painleve = "stop" (the model's or the contact's) keeps the
// stop.
//
// Tolerances: the gap (y - L sin theta, closed form) after a hand-back is the projection's
// round-off (1e-12 of its scale |y| + L |cos theta| |theta|); on the event-driven samples it keeps
// the engine's penetration limit (1e-9); inside a stretch Moreau-Jean's own penetration is of the
// order of its step times the landing speed, bounded here by 1e-6 m (steps of ~2e-6 s).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/bridge/bridged_run.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using namespace saltus::bridge;

using saltus::testing::models_dir;
using saltus::testing::num;

ModelRun fbm(const std::vector<std::string>& sets) {
  return run_model(std::make_shared<const Model>(
      load_model_file(models_dir() / "frictional_bounce.toml", sets)));
}

// The same run without the lift-off choice (BridgeOptions::open_mode null): every Painleve stop is
// stepped by Moreau-Jean.
ModelRun stepped_fbm(const std::vector<std::string>& sets) {
  ModelRun r;
  const ModelStart start = prepare_model_run(
      std::make_shared<const Model>(load_model_file(models_dir() / "frictional_bounce.toml", sets)),
      r);
  const Model& m = *r.model;
  run_bridged(r.system, r.lagrangian->model(), start.mode_at, m.options, bridge_options(m),
              start.mode_now(m.t_start), m.t_start, start.x0, m.t_end, r.result, r.bridge_log);
  return r;
}

// The events of `guard` (a special record's name, e.g. painleve-lift-off).
std::vector<long> records(const ModelRun& r, GuardId guard) {
  std::vector<long> out;
  for (long i = 0; i < r.result.events.size(); ++i) {
    if (r.result.events[i].guard == guard) out.push_back(i);
  }
  return out;
}

double tip_gap(const ModelRun& r, ConstVectorRef x) {
  double L = kNaN;
  for (const Quantity& p : r.model->parameters) {
    if (p.name == "L") L = p.value;
  }
  return x[1] - L * std::sin(x[2]);
}

TEST(BridgedRun, FrictionalBouncePainleveStopGoesOnWithTheFreeMotion) {
  // At the stick-to-slip point the contact forces allow two motions, the tip sticking at the
  // cone's edge with lambda_N = 17.63 and the tip leaving the belt: the run takes the free motion
  // at once (a painleve-lift-off record naming both) and reaches t_end without a stretch.
  for (const std::vector<std::string>& sets : std::vector<std::vector<std::string>>{
           {"mu=0.55"}, {"mu=0.55", "mechanics.painleve=stop", "contacts.tip.painleve=bridge"}}) {
    const ModelRun r = fbm(sets);
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    EXPECT_TRUE(r.bridge_log.stretches.empty());
    const std::vector<long> choices = records(r, kPainleveChoiceGuard);
    ASSERT_GT(choices.size(), 10u);
    const EventLog& ev = r.result.events;
    const long first = choices.front();
    EXPECT_NEAR(ev[first].t, 0.068002451730329261, 1e-9);
    EXPECT_EQ(r.system.mode(ev[first].mode_after).name, "free");
    EXPECT_NE(ev.note(first).find("several motions: ['tip' stick lambda_N = 17.6"),
              std::string::npos)
        << ev.note(first);
    EXPECT_NE(ev.note(first).find("['tip' lift-off]; taken: the free motion"), std::string::npos)
        << ev.note(first);
    // The state is the stop's, and the next event-driven piece leaves the belt from it.
    EXPECT_EQ(ev.x_before(first), ev.x_after(first));
    for (long i : choices) {
      ASSERT_LT(i + 1, ev.size());
      EXPECT_GT(ev[i + 1].t, ev[i].t);
    }
    EXPECT_NE(run::model_events_csv(r).find(",painleve-lift-off,"), std::string::npos);
    const std::string summary = run::summary_json(r);
    const size_t list = summary.find("\"painleve_lift_offs\": [");
    ASSERT_NE(list, std::string::npos);
    EXPECT_NE(summary.find("\"t\": 0.068002451730", list), std::string::npos) << summary;
    EXPECT_NE(run::run_report(r).find("painleve   at t = 0.068"), std::string::npos);
  }
}

TEST(BridgedRun, FrictionalBouncePainleveStopGoesOnThroughMoreauJean) {
  // Today's behaviour, kept by painleve = "stop" in [mechanics] or on the contact.
  for (const char* stop : {"mechanics.painleve=stop", "contacts.tip.painleve=stop"}) {
    const ModelRun stopped = fbm({"mu=0.55", stop});
    EXPECT_EQ(stopped.result.termination(), Termination::ResetFailed) << stop;
    EXPECT_NE(stopped.message().find("Painleve"), std::string::npos) << stopped.message();
    EXPECT_NEAR(stopped.result.t_final, 0.068002451730329261, 1e-9);
    EXPECT_TRUE(stopped.bridge_log.stretches.empty());
  }
  // Without the lift-off choice, the default and a contact's "bridge" over the model's "stop"
  // step through each stop and reach t_end.
  for (const std::vector<std::string>& sets : std::vector<std::vector<std::string>>{
           {"mu=0.55"}, {"mu=0.55", "mechanics.painleve=stop", "contacts.tip.painleve=bridge"}}) {
    const ModelRun r = stepped_fbm(sets);
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    ASSERT_FALSE(r.bridge_log.stretches.empty());
    const BridgeStretch& first = r.bridge_log.stretches.front();
    EXPECT_EQ(first.reason, "painleve");
    EXPECT_NEAR(first.t_start, 0.068002451730329261, 1e-9);
    EXPECT_EQ(first.stop_status, "reset-failed");
    ASSERT_EQ(first.contacts.size(), 1u);
    EXPECT_GT(first.steps, 0);
    // Every stretch settled and handed back within a millisecond (hold: 20 steps of ~2e-6 s).
    for (const BridgeStretch& s : r.bridge_log.stretches) {
      EXPECT_TRUE(s.settled);
      EXPECT_LT(s.t_end - s.t_start, 1e-3);
      EXPECT_FALSE(s.handed_back_to.empty());
    }
    // One row where each stretch starts and one where it ends, each with its note.
    const std::string events = run::model_events_csv(r);
    EXPECT_EQ(events.substr(events.find('\n') - 5, 5), ",note");
    size_t starts = 0, ends = 0;
    for (size_t at = events.find(",bridge-start,"); at != std::string::npos;
         at = events.find(",bridge-start,", at + 1)) {
      ++starts;
    }
    for (size_t at = events.find(",bridge-end,"); at != std::string::npos;
         at = events.find(",bridge-end,", at + 1)) {
      ++ends;
    }
    EXPECT_EQ(starts, r.bridge_log.stretches.size());
    EXPECT_EQ(ends, r.bridge_log.stretches.size());
    EXPECT_NE(
        events.find("moreau-jean stretch starts (painleve: reset-failed at t = 0.06800245173"),
        std::string::npos);
    EXPECT_NE(events.find("handed back in mode '"), std::string::npos);
    const std::string summary = run::summary_json(r);
    EXPECT_NE(summary.find("\"bridge_stretches\": ["), std::string::npos);
    EXPECT_NE(summary.find("\"reason\": \"painleve\""), std::string::npos);
    EXPECT_NE(run::run_report(r).find("bridge     painleve at t = 0.068"), std::string::npos);
    // j counts on across the pieces; the hand-back state touches or clears the belt.
    const EventLog& ev = r.result.events;
    for (long i = 1; i < ev.size(); ++i) {
      EXPECT_GE(ev[i].j, ev[i - 1].j);
      if (ev[i].guard == kBridgeEndGuard) {
        const auto x = ev.x_after(i);
        EXPECT_GE(tip_gap(r, x), -1e-12 * (std::abs(x[1]) + 0.5 * std::abs(x[2])));
      }
    }
  }
}

// The motion taken at the FBM's stick-to-slip Painleve point (mu = 0.55, t = 0.068: among the
// several motions, the free one, the tip leaving the belt) is the one the compliant limit
// selects: the same tip on a Kelvin-Voigt contact of stiffness k (c = 1e-3 k, so the restitution
// goes to 0 with 1/k, and the contact released where its force returns to 0) slips for a time
// that shrinks about tenfold per decade of k, then leaves the belt, and its next apex approaches
// the rigid run's (issue 32 item 2's policy, measured on this case: apexes 0.076067, 0.075704,
// 0.075640 s at k = 1e7, 1e8, 1e9 against 0.0756298 s with the lift-off choice; a Moreau-Jean
// stretch, which also leaves the belt there, gives 0.0756323 s).
TEST(BridgedRun, TheLiftOffChoiceAtThePainlevePointIsTheCompliantLimits) {
  const auto first_after = [](const ModelRun& r, const std::string& guard, double t) {
    const EventLog& ev = r.result.events;
    for (long i = 0; i < ev.size(); ++i) {
      if (ev[i].t <= t || ev[i].guard < 0) continue;
      if (r.system.mode(ev[i].mode_before).guards[static_cast<size_t>(ev[i].guard)].name == guard) {
        return ev[i].t;
      }
    }
    return kNaN;
  };
  const ModelRun bridged = fbm({"mu=0.55", "t_end=0.09"});
  ASSERT_EQ(bridged.result.termination(), Termination::EndTimeReached) << bridged.message();
  const std::vector<long> choices = records(bridged, kPainleveChoiceGuard);
  ASSERT_FALSE(choices.empty());
  const double stop = bridged.result.events[choices.front()].t;
  const double apex = first_after(bridged, "apex", stop);
  ASSERT_TRUE(std::isfinite(apex));
  double previous_apex_error = kInfinity, previous_slip = kInfinity;
  for (const double k : {1e7, 1e8, 1e9}) {
    SCOPED_TRACE("k = " + num(k));
    const ModelRun soft =
        fbm({"mu=0.55", "t_end=0.09", "contacts.tip.law=kelvin_voigt", "contacts.tip.k=" + num(k),
             "contacts.tip.c=" + num(1e-3 * k), "contacts.tip.release=force"});
    ASSERT_EQ(soft.result.termination(), Termination::EndTimeReached) << soft.message();
    const double slip = first_after(soft, "slip-:tip", 0.06);
    const double release = first_after(soft, "release:tip", slip);
    const double soft_apex = first_after(soft, "apex", release);
    ASSERT_TRUE(std::isfinite(soft_apex));
    EXPECT_NEAR(slip, stop, 1e-5);  // the stick turns into the Painleve slip at the same time
    EXPECT_LT(release - slip, 0.3 * previous_slip);  // the slip shrinks to an instant
    const double apex_error = std::abs(soft_apex - apex);
    EXPECT_LT(apex_error, 0.5 * previous_apex_error);  // and the flight approaches the bridge's
    previous_slip = release - slip;
    previous_apex_error = apex_error;
  }
  EXPECT_LT(previous_apex_error, 2e-5);
}

TEST(BridgedRun, RunWithoutStopsIsUnchanged) {
  // mu = 0.49: no stop, no stretch; the run equals the event-driven one (painleve = "stop").
  const ModelRun bridged = fbm({"solver.t_end=1"});
  const ModelRun plain = fbm({"solver.t_end=1", "mechanics.painleve=stop"});
  EXPECT_TRUE(bridged.bridge_log.stretches.empty());
  ASSERT_EQ(bridged.result.events.size(), plain.result.events.size());
  EXPECT_EQ(run::model_events_csv(bridged), run::model_events_csv(plain));
  EXPECT_EQ(run::model_trajectory_csv(bridged), run::model_trajectory_csv(plain));
}

TEST(BridgedRun, PainleveValuesOtherThanBridgeOrStopAreErrorsAtTheirLine) {
  const std::string text =
      "[model]\nname = \"p\"\n[coordinates]\ny = { initial = 1.0 }\n[mechanics]\n"
      "kinetic_energy = \"0.5*y'^2\"\npotential_energy = \"9.81*y\"\npainleve = \"never\"\n"
      "[[contacts]]\nname = \"floor\"\ngap = \"y\"\ne = 0.5\npainleve = 3\n[solver]\nt_end = 1\n";
  const std::vector<Diagnostic> problems = check_model_text(text, "p.toml");
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].line, 8);
  EXPECT_NE(problems[0].message.find("[mechanics] painleve 'never'; expected \"bridge\""),
            std::string::npos)
      << problems[0].message;
  EXPECT_EQ(problems[1].line, 13);
  EXPECT_NE(problems[1].message.find("contact 'floor' painleve"), std::string::npos)
      << problems[1].message;
  std::string good = text;
  good.replace(good.find("\"never\""), 7, "\"stop\"");
  good.replace(good.find("painleve = 3"), 12, "painleve = \"bridge\"");
  EXPECT_TRUE(check_model_text(good, "q.toml").empty());
}

// Seeded random stick models through the Painleve region (mu up to 0.7 against mu_P(theta0) of
// 0.3 to 0.9): every run ends with a status, none with an event cap or a step-size underflow (the
// bridge takes both), none penetrates after a hand-back or on the event-driven samples, and the
// bridge leaves no Painleve stop behind. SALTUS_RANDOM_FBM sets the count (CI: 200;
// bench/run_random_fbm.sh: 1000, issue 32 item 5).
TEST(BridgedRun, RandomFrictionalBounceRunsEndWithAStatusAndNoPenetration) {
  std::mt19937 rng(20261202u);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int reached = 0, bridged = 0, stretches = 0, lift_offs = 0, unsettled = 0;
  const char* count = std::getenv("SALTUS_RANDOM_FBM");
  const int runs = count ? std::atoi(count) : 200;
  for (int k = 0; k < runs; ++k) {
    const double theta0 = 0.8 + 0.4 * unit(rng), mu = 0.4 + 0.3 * unit(rng);
    const double v_b = std::pow(10.0, -1.0 + 1.2 * unit(rng));
    const double k_r = std::pow(10.0, 1.5 + 1.0 * unit(rng)), c_r = 1e-4 + 5e-3 * unit(rng);
    const double e = unit(rng) < 0.5 ? 0.0 : 0.3;
    const std::string where = "theta0 = " + num(theta0) + ", mu = " + num(mu) +
                              ", v_b = " + num(v_b) + ", k_r = " + num(k_r) +
                              ", c_r = " + num(c_r) + ", e = " + num(e);
    SCOPED_TRACE(where);
    const ModelRun r = fbm({"theta0=" + num(theta0), "mu=" + num(mu), "v_b=" + num(v_b),
                            "k_r=" + num(k_r), "c_r=" + num(c_r), "e=" + num(e), "t_end=1"});
    const Termination t = r.result.termination();
    ASSERT_NE(t, Termination::NotRun);
    EXPECT_NE(t, Termination::EventCap) << r.message();
    EXPECT_NE(t, Termination::StepSizeUnderflow) << r.message();
    EXPECT_FALSE(r.message().empty());
    reached += t == Termination::EndTimeReached;
    unsettled += t == Termination::Unsettled;
    bridged += !r.bridge_log.stretches.empty() || !records(r, kPainleveChoiceGuard).empty();
    lift_offs += static_cast<int>(records(r, kPainleveChoiceGuard).size());
    stretches += static_cast<int>(r.bridge_log.stretches.size());
    if (t != Termination::EndTimeReached) {
      std::printf("random frictional bounce (%s): %s: %s\n", where.c_str(), r.status().c_str(),
                  r.message().substr(0, 300).c_str());
      EXPECT_EQ(r.message().find("Painleve situation"), std::string::npos) << r.message();
    }
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const double limit = tr.mode(i) == kMoreauJeanMode ? 1e-6 : 1e-9;
      EXPECT_GE(tip_gap(r, tr.x(i)), -limit) << "t = " << tr.t(i);
    }
    const EventLog& ev = r.result.events;
    for (long i = 0; i < ev.size(); ++i) {
      if (ev[i].guard != kBridgeEndGuard) continue;
      const auto x = ev.x_after(i);
      EXPECT_GE(tip_gap(r, x), -1e-12 * (std::abs(x[1]) + 0.5 * std::abs(x[2]))) << ev[i].t;
    }
  }
  std::printf(
      "random frictional bounce, bridged: %d of %d reached t_end, %d went on through %d "
      "lift-off choices and %d stretches, %d ended unsettled\n",
      reached, runs, bridged, lift_offs, stretches, unsettled);
  EXPECT_GT(bridged, 0) << "the sample should reach the Painleve region";
  // Every run reaches t_end (200 of 200, 13 stretches, 383 lift-off choices, measured after issue
  // 44); the test passed before when every run ended bridge-unsettled or non-finite. At most 1 %
  // may end otherwise, each printed above with its status and message.
  EXPECT_GE(reached, runs - runs / 100);
}

}  // namespace
}  // namespace saltus::model
