// Flows written with sign(), if() and comparisons (issue 45; model/loader/switching_modes.cpp):
// the run locates each switching surface as an event, crosses it or slides on it by Filippov's
// convex combination, and leaves where the weight reaches 0 or 1. Checked against closed forms
// derived here from each case's own parameters: the relay of models/relay_sign.toml and random
// stick-slip oscillators (models/dry_friction_sign.toml), in other units, later and translated,
// Theorem 14's saltation, and bad input. Random planar systems: switching_planar_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kPi = 3.14159265358979323846;

ModelRun run_file(const std::string& file, const std::vector<std::string>& sets) {
  return saltus::testing::run_file(models_dir() / file, sets);
}
ModelRun run_text(const std::string& text) {
  return saltus::testing::run_text(text, {});
}

double parameter(const ModelRun& r, const std::string& name) {
  for (size_t i = 0; i < r.model->parameters.size(); ++i) {
    if (r.model->parameters[i].name == name) return r.model->parameter_value(static_cast<int>(i));
  }
  ADD_FAILURE() << "no parameter " << name;
  return kNaN;
}

std::vector<std::string> guards(const ModelRun& r) {
  std::vector<std::string> out;
  for (long i = 0; i < r.result.events.size(); ++i) {
    out.push_back(event_guard_name(r.system, r.result.events[i]));
  }
  return out;
}

// x' = -v sign(x) + a t from x0 > 0: x = x0 - v t + a t^2/2 reaches 0 at t1, slides while
// |a t| < v (the weight l = (1 + a t/v)/2 in [0, 1]), leaves upwards at t2 = v/a, then
// x = a (t - t2)^2/2.
TEST(SwitchingFlows, TheRelayWrittenWithSignSlidesAsItsClosedForm) {
  for (const double a : {0.25, 0.2, 0.3}) {
    const ModelRun r = run_file("relay_sign.toml", {"a=" + num(a), "output.sample_interval=0.01"});
    SCOPED_TRACE("a = " + num(a));
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    const double v = parameter(r, "v"), x0 = r.model->states[0].value, t_end = r.model->t_end;
    const double t1 = (v - std::sqrt(v * v - 2.0 * a * x0)) / a, t2 = v / a;
    ASSERT_LT(t2, t_end);
    const double tol = 100.0 * r.model->options.stepper.rtol * (1.0 + t_end);
    ASSERT_EQ(guards(r), (std::vector<std::string>{"slide:x", "leave:x>0"}));
    EXPECT_NEAR(r.result.events[0].t, t1, tol);
    EXPECT_NEAR(r.result.events[1].t, t2, tol);
    EXPECT_EQ(r.system.mode(r.result.events[0].mode_after).name, "relay[x=0]");
    EXPECT_NEAR(r.result.x_final[0], 0.5 * a * (t_end - t2) * (t_end - t2), tol);
    // On the surface while sliding, and on the closed form elsewhere.
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const double t = tr.t(i);
      const double expected = t <= t1   ? x0 - v * t + 0.5 * a * t * t
                              : t <= t2 ? 0.0
                                        : 0.5 * a * (t - t2) * (t - t2);
      EXPECT_NEAR(tr.x(i)[0], expected, tol) << "t = " << t;
    }
  }
}

// The relay written with sign() and written by hand as three modes with an algebraic weight
// (models/filippov_sliding.toml): the same reach and leave times and the same x(6).
TEST(SwitchingFlows, TheRelayWithSignIsTheHandWrittenFilippovModel) {
  const ModelRun sign = run_file("relay_sign.toml", {});
  const ModelRun hand = run_file("filippov_sliding.toml", {});
  ASSERT_TRUE(sign.succeeded() && hand.succeeded()) << sign.message() << hand.message();
  ASSERT_EQ(sign.result.events.size(), 2);
  ASSERT_EQ(hand.result.events.size(), 2);
  for (long i = 0; i < 2; ++i) {
    EXPECT_NEAR(sign.result.events[i].t, hand.result.events[i].t, 1e-9) << i;
  }
  EXPECT_NEAR(sign.result.x_final[0], hand.result.x_final[0], 1e-9);
}

// Started on the surface (x0 = 0, attracting): it slides from t0 and leaves once at v/a, where
// the side it leaves to has f+ tangent to x = 0 (leaving at the round-off of l = 1 once slid
// back at once, an event per instant, to the event cap).
TEST(SwitchingFlows, TheRelayStartedOnTheSurfaceSlidesThenLeavesOnce) {
  const ModelRun r = run_file("relay_sign.toml", {"x=0"});
  ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
  const double v = parameter(r, "v"), a = parameter(r, "a"), t_end = r.model->t_end;
  EXPECT_EQ(r.system.mode(r.model->initial_mode).name, "relay[x=0]");
  ASSERT_EQ(guards(r), (std::vector<std::string>{"leave:x>0"}));
  EXPECT_NEAR(r.result.events[0].t, v / a, 1e-9);
  EXPECT_NEAR(r.result.x_final[0], 0.5 * a * (t_end - v / a) * (t_end - v / a), 1e-9);
}

// The same relay written with if() and with a comparison as a value: the same surface, the same
// events at the same times.
TEST(SwitchingFlows, IfAndComparisonsAreSwitchesLikeSign) {
  const ModelRun ref = run_file("relay_sign.toml", {});
  ASSERT_TRUE(ref.succeeded()) << ref.message();
  const std::string head = R"([parameters]
v = 1.0
a = 0.25
[states]
x = 1.0
[modes.relay]
)";
  const std::string tail = "\n[solver]\nt_end = 6.0\nrtol = 1e-12\natol = 1e-12\n";
  for (const std::string flow :
       {"flow = [\"x' = if(x > 0, -v, v) + a*t\"]", "flow = [\"x' = if(0 >= x, v, -v) + a*t\"]",
        "flow = [\"x' = v - 2*v*(x > 0) + a*t\"]"}) {
    SCOPED_TRACE(flow);
    const ModelRun r = run_text(head + flow + tail);
    ASSERT_TRUE(r.succeeded()) << r.message();
    ASSERT_EQ(r.result.events.size(), 2);
    for (long i = 0; i < 2; ++i) {
      EXPECT_NEAR(r.result.events[i].t, ref.result.events[i].t, 1e-10);
    }
    EXPECT_NEAR(r.result.x_final[0], ref.result.x_final[0], 1e-10);
  }
}

// x'' + w^2 x = -F sign(x' - vb) from (x0, 0) with w^2 |x0| < F, in the phase plane (u, v/w),
// u = x - F/w^2 (slipping backwards relative to the belt, v < vb): a clockwise circle at rate w.
// It reaches v = vb at u_in = -sqrt(R^2 - (vb/w)^2) (R its radius) after the angle from its start
// to there, sticks (v = vb) until w^2 x = F, and then slips on the circle of radius vb/w through
// (0, vb/w), touching v = vb once per period 2 pi/w: x = F/w^2 + (vb/w) sin(w (t - t2)).
struct StickSlip {
  double F, vb, w, x0;
  double t1 = kNaN, x_in = kNaN, t2 = kNaN;
  StickSlip(double F_, double vb_, double w_, double x0_) : F(F_), vb(vb_), w(w_), x0(x0_) {
    const double c = F / (w * w), u0 = x0 - c, r = std::abs(u0), h = vb / w;
    const double u_in = -std::sqrt(r * r - h * h);
    const double from = std::atan2(0.0, u0), to = std::atan2(h, u_in);
    t1 = std::fmod(from - to + 4.0 * kPi, 2.0 * kPi) / w;
    x_in = c + u_in;
    t2 = t1 + (c - x_in) / vb;
  }
  double x(double t) const {
    const double c = F / (w * w);
    if (t <= t1) return c + (x0 - c) * std::cos(w * t);
    if (t <= t2) return x_in + vb * (t - t1);
    return c + (vb / w) * std::sin(w * (t - t2));
  }
};

TEST(SwitchingFlows, RandomStickSlipOscillatorsReachTheirLimitCycle) {
  std::mt19937 rng(4545);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int runs = 0, later_leaves = 0;
  double worst = 0.0;
  for (int n = 0; n < 24; ++n) {
    const double F = 0.5 + 1.5 * unit(rng), vb = 0.1 + 0.4 * unit(rng), w = 0.5 + 1.5 * unit(rng);
    // A start that slips backwards first and reaches the belt's speed inside the stick band.
    const double c = F / (w * w), x0 = -c + (2.0 * c - 1.2 * vb / w) * unit(rng);
    if (!(std::abs(x0 - c) > 1.1 * vb / w)) continue;
    const StickSlip cs(F, vb, w, x0);
    const double period = 2.0 * kPi / w, t_end = cs.t2 + 3.0 * period;
    const ModelRun r =
        run_file("dry_friction_sign.toml",
                 {"F=" + num(F), "vb=" + num(vb), "w=" + num(w), "x=" + num(x0),
                  "solver.t_end=" + num(t_end), "output.sample_interval=" + num(period / 16.0)});
    SCOPED_TRACE("F = " + num(F) + ", vb = " + num(vb) + ", w = " + num(w) + ", x0 = " + num(x0));
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    ++runs;
    const double scale = std::abs(x0) + c + vb / w;
    const double tol = 100.0 * r.model->options.stepper.rtol * scale * (1.0 + w * t_end);
    const std::vector<std::string> g = guards(r);
    const std::string surface = "v - ";  // the surface's text: v - vb
    ASSERT_GE(g.size(), 2u);
    EXPECT_EQ(g[0].rfind("slide:" + surface, 0), 0u) << g[0];
    EXPECT_EQ(g[1].rfind("leave:" + surface, 0), 0u) << g[1];
    EXPECT_NE(g[1].find("<0"), std::string::npos) << g[1];
    EXPECT_NEAR(r.result.events[0].t, cs.t1, tol / vb);
    EXPECT_NEAR(r.result.events.x_before(0)[0], cs.x_in, tol);
    EXPECT_NEAR(r.result.events[1].t, cs.t2, tol / vb);
    // Later sticks are grazes of zero length, one period apart where the integrated circle
    // touches the belt's speed at all.
    for (size_t i = 2; i < g.size(); ++i) {
      if (g[i].rfind("leave:", 0) != 0) continue;
      const double k = (r.result.events[static_cast<long>(i)].t - cs.t2) / period;
      EXPECT_NEAR(k, std::round(k), 1e-6) << "leave " << i;
      ++later_leaves;
    }
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const double e = std::abs(tr.x(i)[0] - cs.x(tr.t(i)));
      worst = std::max(worst, e / scale);
      EXPECT_LE(e, tol) << "t = " << tr.t(i);
    }
  }
  std::printf("stick-slip: %d runs, %d later leaves, worst sample error %.3g of the scale\n", runs,
              later_leaves, worst);
  EXPECT_GE(runs, 12);
}

// The oscillator in millimetres (F, vb, x, atol times 1000): the same events at the same times.
TEST(SwitchingFlows, TheStickSlipOscillatorInMillimetresHasTheSameEvents) {
  const ModelRun m = run_file("dry_friction_sign.toml", {"solver.t_end=12"});
  const ModelRun mm = run_file("dry_friction_sign.toml",
                               {"solver.t_end=12", "F=1000", "vb=200", "x=0", "solver.atol=1e-9"});
  ASSERT_TRUE(m.succeeded() && mm.succeeded()) << m.message() << mm.message();
  ASSERT_EQ(mm.result.events.size(), m.result.events.size());
  for (long i = 0; i < m.result.events.size(); ++i) {
    EXPECT_NEAR(mm.result.events[i].t, m.result.events[i].t, 1e-9) << i;
    EXPECT_NEAR(mm.result.events.x_before(i)[0], 1e3 * m.result.events.x_before(i)[0], 1e-6) << i;
  }
}

// Started at t0 = 1e6 and 1e9 (the oscillator is autonomous): the same events, t0 later, to the
// clock's resolution there (64 ulps of t0: a step's time is rounded to it).
TEST(SwitchingFlows, TheStickSlipOscillatorStartedLaterHasTheSameEvents) {
  const ModelRun ref = run_file("dry_friction_sign.toml", {"solver.t_end=12"});
  ASSERT_TRUE(ref.succeeded()) << ref.message();
  for (const double t0 : {1e6, 1e9}) {
    SCOPED_TRACE("t0 = " + num(t0));
    const ModelRun late = run_file("dry_friction_sign.toml",
                                   {"initial.t=" + num(t0), "solver.t_end=" + num(t0 + 12)});
    ASSERT_TRUE(late.succeeded()) << late.message();
    const double tol = std::max(1e-8, 64.0 * (std::nextafter(t0, 2.0 * t0) - t0));
    ASSERT_EQ(late.result.events.size(), ref.result.events.size());
    for (long i = 0; i < ref.result.events.size(); ++i) {
      EXPECT_EQ(late.result.events[i].guard, ref.result.events[i].guard) << i;
      EXPECT_NEAR(late.result.events[i].t - t0, ref.result.events[i].t, tol) << i;
      EXPECT_NEAR(late.result.events.x_before(i)[0], ref.result.events.x_before(i)[0], tol) << i;
    }
  }
}

// The relay's surface moved along x to X = 1e6 (x' = -v sign(x - X) + a t from X + 1): the same
// events at the same times, and x(6) - X the same, to the round-off of x near X (ulp 1.2e-10).
TEST(SwitchingFlows, TheRelayTranslatedAlongItsSurfacesCoordinateHasTheSameEvents) {
  const ModelRun ref = run_file("relay_sign.toml", {});
  ASSERT_TRUE(ref.succeeded()) << ref.message();
  const double X = 1e6;
  const ModelRun moved = run_text(R"toml([parameters]
v = 1.0
a = 0.25
X = 1e6
[states]
x = 1000001.0
[modes.relay]
flow = ["x' = -v*sign(x - X) + a*t"]
[solver]
t_end = 6.0
rtol = 1e-12
atol = 1e-12
)toml");
  ASSERT_TRUE(moved.succeeded()) << moved.message();
  ASSERT_EQ(guards(moved), (std::vector<std::string>{"slide:x - 1000000", "leave:x - 1000000>0"}));
  const double tol = 64.0 * (std::nextafter(X, 2.0 * X) - X);
  for (long i = 0; i < 2; ++i) {
    EXPECT_NEAR(moved.result.events[i].t, ref.result.events[i].t, tol) << i;
  }
  EXPECT_NEAR(moved.result.x_final[0] - X, ref.result.x_final[0], tol);
}

// Two surfaces: sliding on y = 0 reaches x = 0 where the sliding flow beyond it pushes back
// (sliding on both is not solved): the run stops there, naming both surfaces, events kept.
TEST(SwitchingFlows, SlidingOntoASecondSurfaceStopsNamingBoth) {
  const ModelRun r = run_text(R"toml([states]
x = 1.0
y = 1.0
[modes.m]
flow = ["x' = -sign(x) + 0.5", "y' = -sign(y) + 0.3*sign(x)"]
[solver]
t_end = 5.0
rtol = 1e-10
)toml");
  EXPECT_EQ(r.result.termination(), Termination::ResetFailed);
  EXPECT_FALSE(r.succeeded());
  // y' = -0.7 reaches y = 0 at 1/0.7 and slides; x' = -0.5 reaches x = 0 at t = 2.
  ASSERT_EQ(guards(r), (std::vector<std::string>{"slide:y"}));
  EXPECT_NEAR(r.result.events[0].t, 1.0 / 0.7, 1e-9);
  EXPECT_NEAR(r.result.t_final, 2.0, 1e-9);
  EXPECT_NE(r.message().find("sliding on y = 0 carries on across x = 0"), std::string::npos)
      << r.message();
  EXPECT_NE(r.message().find("m[x>0;y=0]"), std::string::npos) << r.message();
}

// Seed 003 Theorem 14 on random planar systems written with if(): at a crossing of h = 0 from
// f (h > 0) to g (h < 0) the saltation matrix is Id + (g - f) dh / dh(f) and its determinant, the
// hybrid Jacobian, dh(g) / dh(f), evaluated here from f, g and h at the event's state; the whole
// flow map's Jacobian agrees with central differences of runs from perturbed starts.
TEST(SwitchingFlows, TheSaltationOfACrossingIsTheoremFourteens) {
  std::mt19937 rng(1414);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int checked = 0;
  for (int n = 0; n < 20; ++n) {
    double f[6], g[6];
    for (double& c : f) c = 0.3 * u(rng);
    for (double& c : g) c = 0.3 * u(rng);
    f[0] -= 1.0;  // both sides move towards -x: a crossing
    g[0] -= 1.0;
    const double k = 0.3 * u(rng), y0 = 0.5 * u(rng);
    const auto field = [](const double* c, double x, double y) {
      return Vector{{c[0] + c[1] * x + c[2] * y, c[3] + c[4] * x + c[5] * y}};
    };
    const auto line = [](const double* c, int i) {
      return num(c[3 * i]) + " + " + num(c[3 * i + 1]) + "*x + " + num(c[3 * i + 2]) + "*y";
    };
    const std::string h = "x - " + num(k) + "*y^2";
    const std::string text =
        "[states]\nx = 1.0\ny = " + num(y0) + "\n[modes.m]\nflow = [\"x' = if(" + h + " > 0, " +
        line(f, 0) + ", " + line(g, 0) + ")\", \"y' = if(" + h + " > 0, " + line(f, 1) + ", " +
        line(g, 1) + ")\"]\n[solver]\nt_end = 2.0\nrtol = 1e-12\n" + "atol = 1e-12\n";
    SCOPED_TRACE(text);
    const auto model = std::make_shared<const Model>(load_model_text(text, "theorem14.toml"));
    const run::ModelSensitivity s = run::model_sensitivity(model);
    const EventLog& log = s.run.result.events;
    if (!s.sensitivity.ok() || log.size() != 1 ||
        event_guard_name(s.run.system, log[0]).rfind("cross:", 0) != 0) {
      continue;
    }
    ++checked;
    const double x = log.x_before(0)[0], y = log.x_before(0)[1];
    const Vector grad{{1.0, -2.0 * k * y}}, fx = field(f, x, y), gx = field(g, x, y);
    const Matrix expected = Matrix::Identity(2, 2) + (gx - fx) * grad.transpose() / grad.dot(fx);
    const analysis::EventSensitivity& e = s.sensitivity.events[0];
    EXPECT_LE((e.saltation - expected).norm(), 1e-10 * expected.norm()) << e.saltation;
    EXPECT_NEAR(e.hybrid_jacobian, grad.dot(gx) / grad.dot(fx), 1e-10);
    // The flow map's Jacobian against central differences (step 1e-6, error ~1e-9).
    for (int j = 0; j < 2; ++j) {
      std::vector<std::string> plus = {j == 0 ? "x=" + num(1.0 + 1e-6) : "y=" + num(y0 + 1e-6)};
      std::vector<std::string> minus = {j == 0 ? "x=" + num(1.0 - 1e-6) : "y=" + num(y0 - 1e-6)};
      const ModelRun a =
          run_model(std::make_shared<const Model>(load_model_text(text, "theorem14.toml", plus)));
      const ModelRun b =
          run_model(std::make_shared<const Model>(load_model_text(text, "theorem14.toml", minus)));
      const Vector column = (a.result.x_final - b.result.x_final) / 2e-6;
      EXPECT_LE((column - s.sensitivity.flow_map_jacobian.col(j)).norm(), 1e-6) << j;
    }
  }
  std::printf("Theorem 14: %d random crossings checked\n", checked);
  EXPECT_GE(checked, 10);
}

TEST(SwitchingFlows, SwitchesTheRunCannotSplitAreRefusedWithFileAndLine) {
  const std::string head = "[states]\nx = 1.0\n[modes.m]\n";
  const std::string tail = "\n[solver]\nt_end = 1.0\n";
  expect_load_refused(head + "flow = [\"x' = if(x, -1, 1)\"]" + tail, "not a comparison");
  expect_load_refused(head + "flow = [\"x' = if(x == 0, -1, 1)\"]" + tail, "an equality");
  expect_load_refused(head + "flow = [\"x' = 1 + (x == 0)\"]" + tail, "without sides");
  expect_load_refused(head + "flow = [\"x' = -sign(sign(x) - 0.5)\"]" + tail,
                      "holds a switch itself");
  // Both sides' flows leave x = 0: two solutions from a start on it.
  expect_load_refused(
      "[states]\nx = 0.0\n[modes.m]\nflow = [\"x' = sign(x) + 0.5*(x >= 0)\"]" + tail, "repelling");
}

// [solver] switching = "smooth": the flow as written, one mode, no switching events.
TEST(SwitchingFlows, SmoothSwitchingIntegratesTheExpressionAsWritten) {
  const ModelRun r = run_file("relay_sign.toml", {"solver.t_end=1", "solver.switching=\"smooth\""});
  ASSERT_TRUE(r.succeeded()) << r.message();
  EXPECT_EQ(r.system.mode_count(), 1);
  EXPECT_TRUE(r.result.events.empty());
  EXPECT_NEAR(r.result.x_final[0], 1.0 - 1.0 + 0.125, 1e-9);
}

}  // namespace
}  // namespace saltus::model
