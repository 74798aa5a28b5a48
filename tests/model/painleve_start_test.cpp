// A run that starts in a Painleve situation (issue 32 item 2; bridge/bridged_run.hpp): the
// classical Painleve rod (models/painleve_rounded_rod.toml with a = 0: m = l = 1, J = 1/3,
// g = 9.81) put on the floor at rest normally with its tip sliding in -x (s = -1), where
// FORMULAS.md 11.2 gives gddot_N = B lambda_N + b with
//   B = 1 + 3 cos^2 th - 3 mu sin th cos th,  b = thdot^2 sin th - g.
// With mu above mu_P(th) (B < 0) the contact-force problem has two solutions when b > 0 (lift-off
// and the slip with lambda_N = -b/B) and none when b < 0. The mode choice refuses such a start;
// by default the run takes the free motion at t0 where it is one of several (a painleve-lift-off
// record naming both), and starts with a Moreau-Jean stretch from t0 where there is none (its
// bridge-start note names the consistent motions and the one the stretch took);
// `painleve = "stop"` keeps the refusal.
// Tolerances: lambda_N in the note is printed to 6 digits (1e-5 relative); the closed forms are
// single evaluations.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/moreau_jean.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"
#include "support/painleve_rod_start.hpp"

namespace saltus::model {
namespace {

using namespace saltus::bridge;

using saltus::testing::models_dir;
using saltus::testing::num;

using RodStart = saltus::testing::PainleveRodStart;
constexpr double kG = saltus::testing::kRodG;

std::vector<std::string> rod_sets(const RodStart& r, double t_end) {
  std::vector<std::string> sets = r.sets();
  sets.push_back("t_end=" + num(t_end));
  return sets;
}

ModelRun run_rod(const std::vector<std::string>& sets) {
  return run_model(std::make_shared<const Model>(
      load_model_file(models_dir() / "painleve_rounded_rod.toml", sets)));
}

const std::string& first_note(const ModelRun& r) {
  static const std::string none;
  return r.result.events.size() > 0 ? r.result.events.note(0) : none;
}

// At tan th = 2, mu = 1.5 > 4/3: B = (8 - 9) / 5 = -0.2.
const double kThetaTan2 = std::atan(2.0);

TEST(PainleveStart, SeveralMotionsAtT0TakeTheFreeMotionAndNameBoth) {
  const RodStart r{kThetaTan2, 4.0, -1.0, 1.5};  // b = 16 sin th - g = 4.50
  ASSERT_LT(r.B(), 0.0);
  ASSERT_GT(r.b(), 0.0);
  const ModelRun run = run_rod(rod_sets(r, 0.01));
  ASSERT_TRUE(run.succeeded()) << run.message();
  EXPECT_TRUE(run.bridge_log.stretches.empty());
  ASSERT_GE(run.result.events.size(), 1);
  EXPECT_EQ(event_guard_name(run.system, run.result.events[0]), "painleve-lift-off");
  EXPECT_EQ(run.result.events[0].t, 0.0);
  EXPECT_EQ(run.system.mode(run.result.events[0].mode_after).name, "free");
  const std::string& note = first_note(run);
  SCOPED_TRACE(note);
  // The LCP's two motions: lift-off and the slip with lambda_N = -b/B (FORMULAS.md 11.1); the
  // free one taken.
  EXPECT_EQ(note.rfind("lift-off (initial-state, contacts 'tip'): several motions: ['tip' "
                       "lift-off] ['tip' slip- lambda_N = ",
                       0),
            0u);
  const std::string key = "['tip' slip- lambda_N = ";
  const size_t at = note.find(key);
  ASSERT_NE(at, std::string::npos);
  EXPECT_NEAR(std::stod(note.substr(at + key.size())), -r.b() / r.B(), 1e-5 * (-r.b() / r.B()));
  EXPECT_NE(note.find("; taken: the free motion"), std::string::npos);
  // summary.json and the report carry it.
  const std::string json = run::summary_json(run);
  EXPECT_NE(json.find("\"painleve_lift_offs\": ["), std::string::npos) << json;
  EXPECT_NE(run::run_report(run).find("painleve   at t = 0 s: lift-off (initial-state"),
            std::string::npos);
  // The free flight from there: the tip's gap y - sin th stays positive to t_end (it clears the
  // floor by b t^2 / 2 at first).
  const Vector& x = run.result.x_final;
  EXPECT_GT(x[1] - std::sin(x[2]), 0.0);
}

// b < 0: the stretch takes Lecornu's jump and the tip sticks (velocities within the step's
// resolution h (g + l thdot^2) of zero), holds stick and hands back.
// Why the stretch jumps where lift-off is consistent: one Moreau-Jean step's impact LCP from the
// b > 0 state has a unique motion, the stick, at every h. Its free normal rate is h w_N^T M^-1 h =
// -g h (the centripetal thdot^2 sin th of b enters only through the gradient's change over the
// step), so lift-off (Lambda = 0) would leave u_N+ < 0 and is not a solution.
TEST(PainleveStart, TheFirstStepsImpactProblemHasOnlyTheJump) {
  const RodStart r{kThetaTan2, 4.0, -1.0, 1.5};
  const auto model = std::make_shared<const Model>(
      load_model_file(models_dir() / "painleve_rounded_rod.toml", rod_sets(r, 0.01)));
  const mech::LagrangianModel rod = lagrangian_model(model);
  const mech::MoreauJeanStepper stepper(rod);
  const Vector x0 = model->initial_state();
  for (const double h : {1e-4, 1e-6, 1e-8}) {
    SCOPED_TRACE("h = " + num(h));
    const mech::MoreauJeanStep s = stepper.step(0.0, x0.head(3), x0.tail(3), h);
    ASSERT_TRUE(s.ok()) << s.failure;
    EXPECT_EQ(s.verdict, mech::Verdict::Unique);
    EXPECT_FALSE(s.chosen);
    EXPECT_EQ(s.state[0], mech::SteppedContact::Stick);
    EXPECT_GT(s.impulse_N[0], 0.0);
  }
}

TEST(PainleveStart, NoConsistentMotionAtT0JumpsToStickAndHandsBack) {
  const RodStart r{kThetaTan2, 1.0, -1.0, 1.5};  // b = sin th - g < 0
  ASSERT_LT(r.B(), 0.0);
  ASSERT_LT(r.b(), 0.0);
  const ModelRun run = run_rod(rod_sets(r, 0.01));
  ASSERT_EQ(run.bridge_log.stretches.size(), 1u);
  const BridgeStretch& st = run.bridge_log.stretches[0];
  EXPECT_EQ(st.t_start, 0.0);
  EXPECT_EQ(st.motions, "no consistent motion");
  EXPECT_EQ(st.taken.rfind("first step ['tip' stick] (none of them)", 0), 0u) << st.taken;
  EXPECT_NE(first_note(run).find("; no consistent motion; taken: first step ['tip' stick]"),
            std::string::npos)
      << first_note(run);
  // The stuck tip holds stick for 20 steps (before the stepped state counted a contact resting
  // on its surface out of the index set as closed, it flickered stick / open and the run ended
  // bridge-unsettled), and the run goes on event-driven in stick to t_end.
  EXPECT_EQ(run.result.termination(), Termination::EndTimeReached) << run.message();
  EXPECT_TRUE(st.settled);
  EXPECT_EQ(st.handed_back_to, "stick:tip");
  EXPECT_LT(st.steps, 40);
  long end = -1;
  for (long i = 0; i < run.result.events.size(); ++i) {
    if (run.result.events[i].guard == kBridgeEndGuard) end = i;
  }
  ASSERT_GE(end, 0);
  // The stepped state at the hand-back: the tip at rest to the step's resolution.
  const auto x = run.result.events.x_before(end);
  const double u_N = x[4] - std::cos(x[2]) * x[5], u_T = x[3] + std::sin(x[2]) * x[5];
  const double resolution = st.step * (kG + r.thdot * r.thdot);
  EXPECT_LT(std::abs(u_N), 10.0 * resolution);
  EXPECT_LT(std::abs(u_T), 10.0 * resolution);
}

// The rod is autonomous and nothing reads its x (the floor is flat): started at t0 = 1e9, or 1e6
// further along the floor, a Painleve start takes the same lift-off (b > 0) or the same stretch
// and hand-back (b < 0). At t0 = 1e9 the states are the same bits and each time is the run's from
// 0 shifted, to the rounding of t0 + tau (and a stretch's steps, rounded once from its start: one
// ulp(t) each); moved along x, the same events, times and states to 1e4 of the tolerances as in
// the metamorphic suite (the error test now weighs x at 1e6).
TEST(PainleveStart, TheSameStartLaterAndElsewhereTakesTheSameMotion) {
  for (const double thdot : {4.0, 1.0}) {
    const RodStart r{kThetaTan2, thdot, -1.0, 1.5};
    SCOPED_TRACE("b = " + num(r.b()));
    const ModelRun ref = run_rod(rod_sets(r, 0.01));
    ASSERT_TRUE(ref.succeeded()) << ref.message();
    ASSERT_GE(ref.result.events.size(), 1);
    const GuardId first = ref.result.events[0].guard;
    EXPECT_EQ(first, r.b() > 0.0 ? kPainleveChoiceGuard : kBridgeStartGuard);
    // Later.
    std::vector<std::string> sets = rod_sets(r, 1e9 + 0.01);
    sets.push_back("initial.t=1e9");
    const ModelRun late = run_rod(sets);
    EXPECT_EQ(late.result.termination(), ref.result.termination()) << late.message();
    const EventLog &ea = ref.result.events, &eb = late.result.events;
    ASSERT_EQ(eb.size(), ea.size());
    const double ulp = std::nextafter(1e9, 2e9) - 1e9;
    for (long i = 0; i < ea.size(); ++i) {
      EXPECT_EQ(eb[i].guard, ea[i].guard) << i;
      EXPECT_EQ(eb[i].mode_after, ea[i].mode_after) << i;
      EXPECT_LE(std::abs((eb[i].t - 1e9) - ea[i].t), ulp) << i;
      EXPECT_EQ(eb.x_after(i), ea.x_after(i)) << i;
    }
    // Elsewhere.
    sets = rod_sets(r, 0.01);
    sets.push_back("x=1e6");
    const ModelRun moved = run_rod(sets);
    ASSERT_GT(moved.result.x_final[0], 0.99e6);  // it did start there
    const saltus::testing::RunComparison c = saltus::testing::compare_runs(
        ref, moved, [](double t) { return t; },
        [](Eigen::Index k, double x) { return k == 0 ? x - 1e6 : x; }, true, 0);
    EXPECT_EQ(c.first_difference, "");
    EXPECT_LE(c.worst_time, 1e4 * ref.model->options.stepper.rtol);
    EXPECT_LE(c.worst_state, 1e4);
  }
}

TEST(PainleveStart, TheRoundedRodAboveItsCriticalMuStartsToo) {
  // models/painleve_rounded_rod.toml as written (a = 0.5, theta0 = 1.05, thdot = 0: b = -g) with
  // mu = 1.2 above its mu_P = (1/3 + cos^2) / (cos (sin + 0.5)) = 1.0697.
  const ModelRun run = run_rod({"mu=1.2"});
  ASSERT_TRUE(run.succeeded()) << run.message();
  ASSERT_GE(run.bridge_log.stretches.size(), 1u);
  EXPECT_EQ(run.bridge_log.stretches[0].stop_status, "initial-state");
  EXPECT_EQ(run.bridge_log.stretches[0].motions, "no consistent motion");
}

TEST(PainleveStart, StopPolicyKeepsTheRefusal) {
  for (const char* stop : {"mechanics.painleve=stop", "contacts.tip.painleve=stop"}) {
    std::vector<std::string> sets = rod_sets({kThetaTan2, 4.0, -1.0, 1.5}, 0.01);
    sets.push_back(stop);
    SCOPED_TRACE(stop);
    try {
      const ModelRun run = run_rod(sets);
      ADD_FAILURE() << "the run started: " << run.message();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("Painleve situation at t = 0"), std::string::npos)
          << e.what();
    }
  }
}

TEST(PainleveStart, AConsistentStartIsNotBridged) {
  const RodStart r{kThetaTan2, 1.0, -1.0, 1.0};  // mu below 4/3: B > 0, a slip
  ASSERT_GT(r.B(), 0.0);
  const ModelRun run = run_rod(rod_sets(r, 0.01));
  ASSERT_TRUE(run.succeeded()) << run.message();
  EXPECT_TRUE(run.bridge_log.stretches.empty());
  EXPECT_EQ(run.system.mode(run.result.trajectory.mode(0)).name, "slip-:tip");
}

}  // namespace
}  // namespace saltus::model
