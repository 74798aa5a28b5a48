// Parameter sweeps (run/sweep.hpp): threaded equals serial bit for bit, the bouncing ball's
// Zeno time against its closed form at every point, failing points as rows, bad input refused.
#include "saltus/run/sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/diagnostic.hpp"
#include "support/model_files.hpp"

using saltus::run::SweepResult;
using saltus::run::SweepSpec;
using saltus::testing::models_dir;

namespace {

SweepSpec ball_sweep(const std::string& vary, std::vector<std::string> collect) {
  SweepSpec spec;
  spec.model_file = models_dir() / "bouncing_ball.toml";
  spec.axes.push_back(saltus::run::parse_sweep_axis(vary));
  spec.collect = std::move(collect);
  return spec;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string error_of(const SweepSpec& spec) {
  try {
    saltus::run::check_sweep(spec);
  } catch (const saltus::Error& e) {
    return e.what();
  }
  return "";
}

std::string axis_error(const std::string& text) {
  try {
    saltus::run::parse_sweep_axis(text);
  } catch (const saltus::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Sweep, GridIncludesBothEndsWithTheLastAxisFastest) {
  SweepSpec spec = ball_sweep("e=0.1:0.9:3", {"zeno_time"});
  spec.axes.push_back(saltus::run::parse_sweep_axis("h0=1:2:2"));
  const auto points = saltus::run::sweep_points(spec);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (std::vector<double>{0.1, 1.0}));
  EXPECT_EQ(points[1], (std::vector<double>{0.1, 2.0}));
  EXPECT_EQ(points[5], (std::vector<double>{0.9, 2.0}));
  EXPECT_DOUBLE_EQ(points[2][0], 0.5);
}

TEST(Sweep, RandomPointsLieInTheirRangesAndRepeatWithTheSeed) {
  SweepSpec spec = ball_sweep("e=0.2:0.4:1", {"zeno_time"});
  spec.random = true;
  spec.random_count = 50;
  spec.seed = 7;
  const auto a = saltus::run::sweep_points(spec);
  ASSERT_EQ(a.size(), 50u);
  for (const auto& p : a) EXPECT_TRUE(p[0] >= 0.2 && p[0] < 0.4) << p[0];
  EXPECT_EQ(a, saltus::run::sweep_points(spec));
  spec.seed = 8;
  EXPECT_NE(a, saltus::run::sweep_points(spec));
}

// Every e of the sweep against t_inf = sqrt(2 h0 / g) (1 + e) / (1 - e) (the model's g, h0).
TEST(Sweep, BallZenoTimeMatchesItsClosedFormAtEveryPoint) {
  SweepSpec spec = ball_sweep("e=0.1:0.8:8", {"zeno_time", "final.x", "events.count"});
  spec.overrides = {"solver.rtol=1e-12"};
  const SweepResult r = saltus::run::run_sweep(spec, 2);
  ASSERT_EQ(r.points.size(), 8u);
  for (const auto& p : r.points) {
    const double e = p.values[0];
    ASSERT_TRUE(p.succeeded) << e << ": " << p.status << " " << p.message;
    const double t_inf = std::sqrt(2 * 1.0 / 9.81) * (1 + e) / (1 - e);
    EXPECT_NEAR(p.collected[0], t_inf, 1e-9 * t_inf) << e;
    EXPECT_EQ(p.collected[1], 0.0) << e;  // at rest on the floor after the hand-over
    EXPECT_GT(p.collected[2], 2.0) << e;
  }
}

TEST(Sweep, EventQuantitiesAreTheBallsBounceTimesSpeedsAndFlightTimes) {
  // The k-th impact of a ball dropped from h0 (e = 0.5): t_1 = sqrt(2 h0/g), then flights of
  // 2 e^k s/g (s = g t_1); after impact k the speed is e^k s. return_time: the last flight. For
  // h0 in [0.95, 1.05] the run's end, 1.18 s, lies after the third impact (2.5 t_1 <= 1.157 s)
  // and before the fourth (2.75 t_1 >= 1.21 s).
  SweepSpec spec = ball_sweep(
      "h0=0.95:1.05:5", {"event.impact.1.t", "event.impact.3.t", "event.impact.3.v",
                         "event.impact.last.t", "return_time.impact", "event.impact.100000.t"});
  spec.overrides = {"solver.rtol=1e-12", "t_end=1.18", "e=0.5"};
  const SweepResult r = saltus::run::run_sweep(spec, 2);
  ASSERT_EQ(r.points.size(), 5u);
  const double e = 0.5, g = 9.81;
  for (const auto& p : r.points) {
    const double h0 = p.values[0];
    ASSERT_TRUE(p.succeeded) << h0 << ": " << p.status << " " << p.message;
    const double t1 = std::sqrt(2 * h0 / g), s = g * t1;
    std::vector<double> t{t1};
    for (int k = 1; t.back() + 2 * std::pow(e, k) * s / g < 1.18; ++k) {
      t.push_back(t.back() + 2 * std::pow(e, k) * s / g);
    }
    ASSERT_EQ(t.size(), 3u) << h0;
    EXPECT_NEAR(p.collected[0], t[0], 1e-10 * t1);
    EXPECT_NEAR(p.collected[1], t[2], 1e-10 * t1);
    EXPECT_NEAR(p.collected[2], e * e * e * s, 1e-9 * s);
    EXPECT_NEAR(p.collected[3], t[2], 1e-10 * t1);
    EXPECT_NEAR(p.collected[4], t[2] - t[1], 1e-10 * t1);
    EXPECT_TRUE(std::isnan(p.collected[5]));  // no such event: missing, not an error
  }
}

TEST(Sweep, OutputsAfterAnEventAreTheWearingBallsEnergyAndWear) {
  // models/bouncing_ball_wear.toml: bounce k rebounds at u_k = e0 wear^(k-1) s_k, s_1 = g t_1,
  // s_(k+1) = u_k; after bounce 3 its [outputs] energy is 1/2 m u_3^2 (at the floor) and worn is
  // 1 - wear^3 (e_now = e0 wear^3).
  SweepSpec spec;
  spec.model_file = models_dir() / "bouncing_ball_wear.toml";
  spec.axes.push_back(saltus::run::parse_sweep_axis("h0=0.5:2:4"));
  spec.collect = {"event.impact.3.energy", "event.impact.3.worn", "event.impact.9.energy"};
  const SweepResult r = saltus::run::run_sweep(spec, 2);
  ASSERT_EQ(r.points.size(), 4u);
  const double g = 9.81, e0 = 0.9, wear = 0.99;
  for (const auto& p : r.points) {
    const double h0 = p.values[0];
    ASSERT_TRUE(p.succeeded) << h0 << ": " << p.status << " " << p.message;
    double s = std::sqrt(2 * g * h0), e = e0;
    for (int k = 1; k < 3; ++k) {
      s *= e;
      e *= wear;
    }
    const double u3 = e * s, energy = 0.5 * u3 * u3;
    EXPECT_NEAR(p.collected[0], energy, 1e-9 * energy) << h0;
    EXPECT_NEAR(p.collected[1], 1 - wear * wear * wear, 1e-14) << h0;
    EXPECT_TRUE(std::isnan(p.collected[2]));  // it stops at the fifth bounce
  }
  const std::string err = error_of([&] {
    SweepSpec bad = spec;
    bad.collect = {"event.impact.2.power"};
    return bad;
  }());
  EXPECT_NE(err.find("'power' is neither t nor a state or output"), std::string::npos) << err;
  EXPECT_NE(err.find("outputs: energy, worn"), std::string::npos) << err;
}

TEST(Sweep, EventQuantitiesNameWhatIsWrong) {
  std::string e = error_of(ball_sweep("e=0.1:0.9:3", {"event.bounce.1.t"}));
  EXPECT_NE(e.find("names no guard or section 'bounce'"), std::string::npos) << e;
  EXPECT_NE(e.find("(guards and sections: impact, lift-off)"), std::string::npos) << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"event.impact.0.t"}));
  EXPECT_NE(e.find("the event number '0' is not a whole number from 1, or 'last'"),
            std::string::npos)
      << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"event.impact.2.w"}));
  EXPECT_NE(e.find("'w' is neither t nor a state or output"), std::string::npos) << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"event.impact"}));
  EXPECT_NE(e.find("is not event.<guard>.<k>.<t, state or output>"), std::string::npos) << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"return_time.nothing"}));
  EXPECT_NE(e.find("names no guard or section 'nothing'"), std::string::npos) << e;
}

TEST(Sweep, ThreadedSweepEqualsTheSerialLoopBitForBit) {
  SweepSpec spec = ball_sweep("e=0.05:0.95:12", {"zeno_time", "t_final", "final.v"});
  spec.axes.push_back(saltus::run::parse_sweep_axis("h0=-0.5:2:2"));  // h0 < 0 fails
  const SweepResult serial = saltus::run::run_sweep(spec, 1);
  const SweepResult threaded = saltus::run::run_sweep(spec, 4);
  ASSERT_EQ(serial.points.size(), 24u);
  ASSERT_EQ(threaded.points.size(), serial.points.size());
  for (size_t i = 0; i < serial.points.size(); ++i) {
    const auto& s = serial.points[i];
    const auto& t = threaded.points[i];
    EXPECT_EQ(s.values, t.values) << i;
    EXPECT_EQ(s.status, t.status) << i;
    for (size_t q = 0; q < s.collected.size(); ++q) {
      EXPECT_TRUE(same_bits(s.collected[q], t.collected[q]))
          << "point " << i << " quantity " << q << ": " << s.collected[q] << " vs "
          << t.collected[q];
    }
  }
  EXPECT_EQ(saltus::run::sweep_csv(serial), saltus::run::sweep_csv(threaded));
}

TEST(Sweep, AFailingPointIsARowWithItsStatus) {
  // h0 = -1 starts the ball below the floor: that point's run refuses its initial state.
  SweepSpec spec = ball_sweep("h0=-1:1:2", {"zeno_time"});
  std::atomic<long> done{0};
  const SweepResult r = saltus::run::run_sweep(spec, 2, &done);
  ASSERT_EQ(r.points.size(), 2u);
  EXPECT_EQ(done.load(), 2);
  EXPECT_FALSE(r.points[0].succeeded);
  EXPECT_EQ(r.points[0].status, "invalid-input");
  EXPECT_FALSE(r.points[0].message.empty());
  EXPECT_TRUE(std::isnan(r.points[0].collected[0]));
  EXPECT_TRUE(r.points[1].succeeded);
  EXPECT_EQ(r.failed_count(), 1);

  // A point whose values make the model invalid (a rod of negative mass) does not load.
  SweepSpec rod;
  rod.model_file = models_dir() / "bouncing_rod.toml";
  rod.axes = {saltus::run::parse_sweep_axis("m=-1:1:2")};
  rod.overrides = {"solver.t_end=0.1"};
  rod.collect = {"t_final"};
  const SweepResult negative_mass = saltus::run::run_sweep(rod, 1);
  EXPECT_EQ(negative_mass.points[0].status, "model-error");
  EXPECT_NE(negative_mass.points[0].message.find("positive definite"), std::string::npos)
      << negative_mass.points[0].message;
  EXPECT_TRUE(negative_mass.points[1].succeeded) << negative_mass.points[1].message;

  // A run that fails (three events allowed, the ball bounces more often) keeps its status.
  SweepSpec capped = ball_sweep("e=0.5:0.5:1", {"zeno_time"});
  capped.overrides = {"max_events=3"};
  const SweepResult c = saltus::run::run_sweep(capped, 1);
  EXPECT_EQ(c.points[0].status, "event-cap");
  EXPECT_NE(saltus::run::sweep_csv(c).find("0.5,event-cap,0,nan\n"), std::string::npos)
      << saltus::run::sweep_csv(c);
}

TEST(Sweep, MalformedRangesAreRefusedNamingTheProblem) {
  EXPECT_NE(axis_error("e0.1:0.9:3").find("expected NAME=LO:HI:N"), std::string::npos);
  EXPECT_NE(axis_error("e=0.1:0.9").find("three fields"), std::string::npos);
  EXPECT_NE(axis_error("e=a:0.9:3").find("LO 'a' is not a finite number"), std::string::npos);
  EXPECT_NE(axis_error("e=0.1:inf:3").find("HI 'inf'"), std::string::npos);
  EXPECT_NE(axis_error("e=0.1:0.9:0").find("N must be a whole number"), std::string::npos);
  EXPECT_NE(axis_error("e=0.1:0.9:2.5").find("N must be a whole number"), std::string::npos);
  EXPECT_NE(axis_error("e=0.9:0.1:3").find("range is empty"), std::string::npos);
  EXPECT_EQ(axis_error("e=0.1:0.9:3"), "");
}

TEST(Sweep, UnknownParameterAndQuantityAreRefusedNamingWhatExists) {
  std::string e = error_of(ball_sweep("restitution=0.1:0.9:3", {"zeno_time"}));
  EXPECT_NE(e.find("'restitution' is not a parameter or state"), std::string::npos) << e;
  EXPECT_NE(e.find("parameters: g, e, m, h0"), std::string::npos) << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"zeno_tim"}));
  EXPECT_NE(e.find("unknown quantity 'zeno_tim'"), std::string::npos) << e;
  e = error_of(ball_sweep("e=0.1:0.9:3", {"final.y"}));
  EXPECT_NE(e.find("'final.y' names no state"), std::string::npos) << e;
  EXPECT_EQ(error_of(ball_sweep("x=0.5:1:2", {"final.v", "zeno_events"})), "");
  SweepSpec huge = ball_sweep("e=0.1:0.9:100000", {"zeno_time"});
  huge.axes.push_back(saltus::run::parse_sweep_axis("h0=1:2:1000"));
  e = error_of(huge);
  EXPECT_NE(e.find("the sweep has 100000000 points; at most 10000000"), std::string::npos) << e;
  SweepSpec bad_file = ball_sweep("e=0.1:0.9:3", {"zeno_time"});
  bad_file.overrides = {"nosuch=1"};
  EXPECT_THROW(saltus::run::check_sweep(bad_file), saltus::model::ModelError);
}

// Issue 34: a point's row may not depend on which points the same thread ran before it. The
// sleigh's walls read the table's semi-axis A at run time; the per-thread gap memo was keyed on
// the model and q only, so after the point A = 0.3 (the sleigh does not fit: invalid start)
// every later point read its gaps and failed too. The rows of one runner taking the points in
// order, of another taking them in reverse, and of each point with its own runner must match
// bit for bit, and points where the sleigh fits must succeed.
TEST(Sweep, SleighPointsDoNotDependOnThePointsRunBeforeThemInTheSameThread) {
  SweepSpec spec;
  spec.model_file = models_dir() / "chaplygin_sleigh.toml";
  spec.axes = {saltus::run::parse_sweep_axis("A=0.3:2:8")};
  spec.overrides = {"solver.t_end=4"};
  spec.collect = {"events.count", "t_final", "final.x"};
  const saltus::run::SweepPlan plan(spec);
  ASSERT_TRUE(plan.loads_once());  // the runner keeps one model and writes A per point
  const size_t n = plan.size();
  ASSERT_EQ(n, 8u);
  std::vector<saltus::run::SweepPoint> forward(n), backward(n), alone(n);
  const auto forward_runner = plan.runner();
  for (size_t i = 0; i < n; ++i) forward[i] = forward_runner(i);
  const auto backward_runner = plan.runner();
  for (size_t i = n; i-- > 0;) backward[i] = backward_runner(i);
  for (size_t i = 0; i < n; ++i) alone[i] = plan.point(i);
  EXPECT_FALSE(forward[0].succeeded);  // A = 0.3 < the sleigh's reach: its start is refused
  for (size_t i = 1; i < n; ++i) EXPECT_TRUE(alone[i].succeeded) << i << ": " << alone[i].message;
  for (size_t i = 0; i < n; ++i) {
    for (const auto* other : {&forward[i], &backward[i]}) {
      EXPECT_EQ(other->status, alone[i].status) << "point " << i << ": " << other->message;
      ASSERT_EQ(other->collected.size(), alone[i].collected.size());
      for (size_t q = 0; q < alone[i].collected.size(); ++q) {
        EXPECT_TRUE(same_bits(other->collected[q], alone[i].collected[q]))
            << "point " << i << " quantity " << q << ": " << other->collected[q] << " vs "
            << alone[i].collected[q];
      }
    }
  }
}

// A contact's mu as a run-time parameter (issue 33; the compiled contact laws follow it, the
// start mode is chosen again): each point gives what it gives alone, whatever ran before it in
// its thread, forwards or backwards; mu = 0.55 is the Painleve stop, a status like any other.
TEST(Sweep, ContactCoefficientPointsDoNotDependOnThePointsRunBeforeThem) {
  SweepSpec spec;
  spec.model_file = models_dir() / "frictional_bounce.toml";
  spec.axes = {saltus::run::parse_sweep_axis("mu=0.1:0.6:6")};
  spec.overrides = {"solver.t_end=1"};
  spec.collect = {"events.count", "t_final", "final.y"};
  const saltus::run::SweepPlan plan(spec);
  ASSERT_TRUE(plan.loads_once());
  const size_t n = plan.size();
  ASSERT_EQ(n, 6u);
  std::vector<saltus::run::SweepPoint> forward(n), backward(n), alone(n);
  const auto forward_runner = plan.runner();
  for (size_t i = 0; i < n; ++i) forward[i] = forward_runner(i);
  const auto backward_runner = plan.runner();
  for (size_t i = n; i-- > 0;) backward[i] = backward_runner(i);
  for (size_t i = 0; i < n; ++i) alone[i] = plan.point(i);
  int succeeded = 0;
  for (size_t i = 0; i < n; ++i) {
    succeeded += alone[i].succeeded;
    for (const auto* other : {&forward[i], &backward[i]}) {
      EXPECT_EQ(other->status, alone[i].status) << "point " << i << ": " << other->message;
      ASSERT_EQ(other->collected.size(), alone[i].collected.size());
      for (size_t q = 0; q < alone[i].collected.size(); ++q) {
        EXPECT_TRUE(same_bits(other->collected[q], alone[i].collected[q]))
            << "point " << i << " quantity " << q << ": " << other->collected[q] << " vs "
            << alone[i].collected[q];
      }
    }
  }
  EXPECT_GE(succeeded, 4);
}
