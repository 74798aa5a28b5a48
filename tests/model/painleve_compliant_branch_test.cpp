// Which motion the rigid run takes at a Painleve start, against the compliant limit (issue 32
// item 2: "choose by a stated policy (default: the one the compliant limit selects; document how
// you established it)").
// The classical Painleve rod (models/painleve_rounded_rod.toml, a = 0; FORMULAS.md 11.2) on the
// floor, at rest normally (gap 0, gdot_N = 0), its tip sliding in -x with mu above mu_P(th), so
// B < 0, at seeded random states in both regimes:
//   several (b > 0): the contact forces allow lift-off and the slip with lambda_N = -b/B;
//   none    (b < 0): no contact force; Lecornu's impact without collision (the jump) is needed.
// The rigid run takes the free motion where it is one of several (bridge/bridged_run.hpp, the
// lift-off choice) and starts with a Moreau-Jean stretch where there is none (least kinetic
// energy per step); the same rod on a Kelvin-Voigt contact (c = tau k, tau = 1e-3 s: damping ratio
// growing like sqrt(k), release when the force returns to 0;
// tests/model/compliant_limit_model_test.cpp) at k = 1e6 ... 1e9 from the same state. Compared: the
// tip's normal and tangential velocities T = 2 ms later.
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
#include "saltus/sim/csv_writer.hpp"
#include "support/model_files.hpp"
#include "support/painleve_rod_start.hpp"

namespace saltus::model {
namespace {

using namespace saltus::bridge;

using saltus::testing::models_dir;
using saltus::testing::num;

using RodStart = saltus::testing::PainleveRodStart;
constexpr double kG = saltus::testing::kRodG, kT = 2e-3, kTau = 1e-3;
const std::vector<double> kStiffness = {1e6, 1e7, 1e8, 1e9};

std::vector<std::string> rod_sets(const RodStart& r) {
  std::vector<std::string> sets = r.sets();
  sets.push_back("t_end=" + num(kT));
  return sets;
}

ModelRun run_rod(std::vector<std::string> sets) {
  return run_model(std::make_shared<const Model>(
      load_model_file(models_dir() / "painleve_rounded_rod.toml", sets)));
}

// The tip's (normal, tangential) velocity at x: (ydot - cos th thdot, xdot + sin th thdot).
std::pair<double, double> tip_velocity(ConstVectorRef x) {
  return {x[4] - std::cos(x[2]) * x[5], x[3] + std::sin(x[2]) * x[5]};
}

// The free flight's tip velocity at t from the start (xdot, thdot constant, ydot = ydot0 - g t).
std::pair<double, double> free_flight_tip_velocity(const RodStart& r, double t) {
  const double th = r.th + r.thdot * t;
  const double xd = r.v_t - std::sin(r.th) * r.thdot, yd = std::cos(r.th) * r.thdot - kG * t;
  return {yd - std::cos(th) * r.thdot, xd + std::sin(th) * r.thdot};
}

// The smallest free-flight gap y - sin th over (0, T] (on 1000 points): > 0 when the free flight
// is the lift-off motion all the way to T.
double least_free_flight_gap(const RodStart& r) {
  double least = kInfinity;
  for (int i = 1; i <= 1000; ++i) {
    const double t = kT * i / 1000.0;
    const double y = std::sin(r.th) + std::cos(r.th) * r.thdot * t - 0.5 * kG * t * t;
    least = std::min(least, y - std::sin(r.th + r.thdot * t));
  }
  return least;
}

bool touched(const ModelRun& r) {
  for (long i = 0; i < r.result.events.size(); ++i) {
    if (event_guard_name(r.system, r.result.events[i]) == "touch:tip") return true;
  }
  return false;
}

struct RigidRun {
  std::pair<double, double> tip;  // at T
  double step = kNaN;             // the first stretch's step
  std::string motions, taken;     // of the first stretch
  bool settled = false;           // the first stretch handed back
};

// The bridged rigid run to 10 T (a stretch that does not settle ends at its limit, 10 % of the
// run: T), its state at T from the samples (every T / 2); lift_off_choice false: without the
// lift-off choice (BridgeOptions::open_mode null), every Painleve stop stepped by Moreau-Jean.
RigidRun rigid_run(const RodStart& r, bool lift_off_choice = true) {
  std::vector<std::string> sets = rod_sets(r);
  sets.push_back("t_end=" + num(10.0 * kT));
  sets.push_back("output.sample_interval=" + num(0.5 * kT));
  ModelRun run;
  if (lift_off_choice) {
    run = run_rod(sets);
  } else {
    const ModelStart start =
        prepare_model_run(std::make_shared<const Model>(
                              load_model_file(models_dir() / "painleve_rounded_rod.toml", sets)),
                          run, true);
    const Model& m = *run.model;
    run_bridged(run.system, run.lagrangian->model(), start.mode_at, m.options, bridge_options(m),
                start.mode, m.t_start, start.x0, m.t_end, run.result, run.bridge_log);
  }
  RigidRun out;
  EXPECT_FALSE(run.bridge_log.stretches.empty()) << run.message();
  if (run.bridge_log.stretches.empty()) return out;
  const BridgeStretch& st = run.bridge_log.stretches[0];
  EXPECT_EQ(st.t_start, 0.0);
  out.step = st.step;
  out.motions = st.motions;
  out.taken = st.taken;
  out.settled = st.settled;
  const Trajectory& tr = run.result.trajectory;
  long at = -1;
  for (long i = 0; i < tr.size(); ++i) {
    if (std::abs(tr.t(i) - kT) <= 1e-12 * kT) at = i;
  }
  EXPECT_GE(at, 0) << "no sample at T; " << run.message();
  if (at >= 0) out.tip = tip_velocity(tr.x(at).head(6));
  return out;
}

// The compliant rod from the same state to T: the tip's velocity at T, and whether it touched.
std::pair<std::pair<double, double>, bool> compliant_run(const RodStart& r, double k) {
  std::vector<std::string> sets = rod_sets(r);
  for (const std::string& s :
       {std::string("contacts.tip.law=kelvin_voigt"), "contacts.tip.k=" + num(k),
        "contacts.tip.c=" + num(kTau * k), std::string("contacts.tip.release=\"force\"")}) {
    sets.push_back(s);
  }
  const ModelRun run = run_rod(sets);
  EXPECT_TRUE(run.succeeded()) << "k = " << k << ": " << run.message();
  return {tip_velocity(run.result.x_final), touched(run)};
}

int case_count() {
  const char* n = std::getenv("SALTUS_PAINLEVE_BRANCH_CASES");
  return n != nullptr ? std::atoi(n) : 20;
}

// th in [0.9, 1.3], mu 0.3 to 1.5 above mu_P(th) (B < 0), the tip sliding in -x at 0.5 to 2.5,
// |thdot| 1.2 to 1.8 times sqrt(g / sin th) (b > 0: several) or below 0.8 times it (b < 0: none).
RodStart random_start(std::mt19937& rng, bool several) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double th = 0.9 + 0.4 * unit(rng), c = std::cos(th), s = std::sin(th);
  const double mu_p = (1.0 + 3.0 * c * c) / (3.0 * s * c);
  const double mu = mu_p + 0.3 + 1.2 * unit(rng);
  const double rest = std::sqrt(kG / s);  // |thdot| where b = 0
  const double w = several ? rest * (1.2 + 0.6 * unit(rng)) : rest * 0.8 * unit(rng);
  return {th, unit(rng) < 0.5 ? w : -w, -(0.5 + 2.0 * unit(rng)), mu};
}

std::string describe(const RodStart& r) {
  return "th = " + num(r.th) + ", thdot = " + num(r.thdot) + ", v_t = " + num(r.v_t) +
         ", mu = " + num(r.mu) + ", B = " + num(r.B()) + ", b = " + num(r.b());
}

// The rigid run to T with the free motion taken at t0 (one painleve-lift-off record naming both
// motions, no stretch): the tip's velocity at T, and the record's note.
std::pair<std::pair<double, double>, std::string> lift_off_run(const RodStart& r) {
  const ModelRun run = run_rod(rod_sets(r));
  EXPECT_EQ(run.result.termination(), Termination::EndTimeReached) << run.message();
  EXPECT_TRUE(run.bridge_log.stretches.empty());
  std::string note;
  for (long i = 0; i < run.result.events.size(); ++i) {
    if (run.result.events[i].guard != kPainleveChoiceGuard) continue;
    EXPECT_EQ(run.result.events[i].t, 0.0);
    EXPECT_EQ(run.system.mode(run.result.events[i].mode_after).name, "free");
    note = run.result.events.note(i);
  }
  return {tip_velocity(run.result.x_final), note};
}

TEST(PainleveCompliantBranch, SeveralMotionsTheRigidRodLiftsOffAsTheCompliantOneDoes) {
  std::mt19937 rng(3232);
  double worst_free = 0.0, worst_rigid = 0.0, least_stop = kInfinity;
  for (int n = 0; n < case_count(); ++n) {
    const RodStart r = random_start(rng, true);
    SCOPED_TRACE("case " + std::to_string(n) + ": " + describe(r));
    ASSERT_LT(r.B(), 0.0);
    ASSERT_GT(r.b(), 0.0);
    ASSERT_GT(least_free_flight_gap(r), 0.0);
    const std::pair<double, double> flight = free_flight_tip_velocity(r, kT);
    // The compliant rod never touches at any k: its motion is the free flight (lift-off) to the
    // integrator's tolerance (rtol 1e-12 of velocities of order 10: 1e-9).
    for (const double k : kStiffness) {
      const auto [tip, touches] = compliant_run(r, k);
      EXPECT_FALSE(touches) << "k = " << k;
      const double e =
          std::max(std::abs(tip.first - flight.first), std::abs(tip.second - flight.second));
      EXPECT_LT(e, 1e-9) << "k = " << k;
      worst_free = std::max(worst_free, e);
    }
    // The rigid run: both motions named, the free one taken; the same free flight (1e-9).
    const auto [tip, note] = lift_off_run(r);
    EXPECT_NE(note.find("several motions: ["), std::string::npos) << note;
    EXPECT_NE(note.find("['tip' lift-off]"), std::string::npos) << note;
    EXPECT_NE(note.find("['tip' slip- lambda_N = "), std::string::npos) << note;
    EXPECT_NE(note.find("; taken: the free motion"), std::string::npos) << note;
    const double e =
        std::max(std::abs(tip.first - flight.first), std::abs(tip.second - flight.second));
    EXPECT_LT(e, 1e-9);
    worst_rigid = std::max(worst_rigid, e);
    // Moreau-Jean's step alone (no lift-off choice) would take Lecornu's jump here (its impact
    // problem has the stick only: PainleveStart.TheFirstStepsImpactProblemHasOnlyTheJump), which
    // stops the slip: its tangential velocity at T would be far from the slip's v_t that the
    // compliant limit keeps.
    const RigidRun stepped = rigid_run(r, false);
    EXPECT_EQ(stepped.taken.rfind("first step ['tip' stick] (none of them)", 0), 0u)
        << stepped.taken;
    EXPECT_GT(std::abs(flight.second), 0.8 * std::abs(r.v_t));
    EXPECT_LT(std::abs(stepped.tip.second), 0.2 * std::abs(r.v_t));
    least_stop =
        std::min(least_stop, std::abs(stepped.tip.second - flight.second) / std::abs(r.v_t));
  }
  std::printf(
      "several: compliant = free flight to %.2e, rigid (lift-off choice) to %.2e; stepped by "
      "Moreau-Jean alone: |u_T - u_T compliant| >= %.3f |v_t|\n",
      worst_free, worst_rigid, least_stop);
}

TEST(PainleveCompliantBranch, NoMotionTheCompliantRodConvergesToTheBridgesJump) {
  std::mt19937 rng(3233);
  std::vector<double> worst(kStiffness.size(), 0.0), ratio(kStiffness.size(), 0.0);
  double worst_rate = 0.0;
  int settled = 0;
  for (int n = 0; n < case_count(); ++n) {
    const RodStart r = random_start(rng, false);
    SCOPED_TRACE("case " + std::to_string(n) + ": " + describe(r));
    ASSERT_LT(r.B(), 0.0);
    ASSERT_LT(r.b(), 0.0);
    const RigidRun rigid = rigid_run(r);
    EXPECT_EQ(rigid.motions, "no consistent motion");
    EXPECT_EQ(rigid.taken.rfind("first step ['tip' stick] (none of them)", 0), 0u) << rigid.taken;
    settled += rigid.settled ? 1 : 0;
    std::vector<double> e;
    for (size_t i = 0; i < kStiffness.size(); ++i) {
      const auto [tip, touches] = compliant_run(r, kStiffness[i]);
      EXPECT_TRUE(touches) << "k = " << kStiffness[i];
      e.push_back(
          std::max(std::abs(tip.first - rigid.tip.first), std::abs(tip.second - rigid.tip.second)));
      // The Kelvin-Voigt contact's slow mode relaxes its compression over c / k = tau: after the
      // jump's impulse P ~ m |v_t| (compression P / c), the tip still moves P / (c tau)
      // exp(-T / tau) at T.
      // Asserted from k = 1e7 on (at 1e6 the jump is not over by T) with a factor 10 for P
      // (measured: 3.9 of the bound at most).
      const double bound = std::abs(r.v_t) / (kTau * kTau * kStiffness[i]) * std::exp(-kT / kTau);
      if (i > 0) {
        EXPECT_LT(e.back(), 10.0 * bound) << "k = " << kStiffness[i];
      }
      ratio[i] = std::max(ratio[i], e.back() / bound);
      worst[i] = std::max(worst[i], e.back());
    }
    // Convergence: at least a factor 2 per decade of k (measured: 2.9 to 30).
    for (size_t i = 2; i < e.size(); ++i) {
      EXPECT_LT(e[i], 0.5 * e[i - 1]) << "k = " << kStiffness[i];
      worst_rate = std::max(worst_rate, e[i] / e[i - 1]);
    }
    if (std::getenv("SALTUS_PAINLEVE_BRANCH_CASES") == nullptr) continue;  // the bench prints
    std::printf("none: %s | rigid uN %+.2e uT %+.2e h %.2e | e %.2e %.2e %.2e %.2e\n",
                describe(r).c_str(), rigid.tip.first, rigid.tip.second, rigid.step, e[0], e[1],
                e[2], e[3]);
  }
  std::printf(
      "none: %d of %d bridged runs handed back from the first stretch; slowest "
      "convergence %.3f per decade of k\n",
      settled, case_count(), worst_rate);
  for (size_t i = 0; i < kStiffness.size(); ++i) {
    std::printf("none: k = %.0e: largest tip velocity difference %.3e, %.3f of the bound\n",
                kStiffness[i], worst[i], ratio[i]);
  }
}

}  // namespace
}  // namespace saltus::model
