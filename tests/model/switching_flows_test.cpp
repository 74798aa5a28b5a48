// Flows written with sign(), if() and comparisons (issue 45; model/loader/switching_modes.cpp):
// the run locates each switching surface as an event, crosses it or slides on it by Filippov's
// convex combination, and leaves where the weight reaches 0 or 1. Checked against closed forms
// derived here from each case's own parameters: the relay of models/relay_sign.toml and random
// stick-slip oscillators (models/dry_friction_sign.toml), in other units, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::models_dir;
using saltus::testing::num;

constexpr double kPi = 3.14159265358979323846;

ModelRun run_file(const std::string& file, const std::vector<std::string>& sets) {
  return run_model(std::make_shared<const Model>(load_model_file(models_dir() / file, sets)));
}

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "switching.toml")));
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

// Started at t0 = 1e6 (the oscillator is autonomous): the same events, 1e6 later.
TEST(SwitchingFlows, TheStickSlipOscillatorStartedLaterHasTheSameEvents) {
  const ModelRun ref = run_file("dry_friction_sign.toml", {"solver.t_end=12"});
  const ModelRun late =
      run_file("dry_friction_sign.toml", {"initial.t=1e6", "solver.t_end=1000012"});
  ASSERT_TRUE(ref.succeeded() && late.succeeded()) << ref.message() << late.message();
  ASSERT_EQ(late.result.events.size(), ref.result.events.size());
  for (long i = 0; i < ref.result.events.size(); ++i) {
    EXPECT_EQ(late.result.events[i].guard, ref.result.events[i].guard) << i;
    EXPECT_NEAR(late.result.events[i].t - 1e6, ref.result.events[i].t, 1e-8) << i;
    EXPECT_NEAR(late.result.events.x_before(i)[0], ref.result.events.x_before(i)[0], 1e-9) << i;
  }
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

// e^{M t} for a 2x2 M (Cayley-Hamilton: e^{tau t} (c(t) I + s(t) (M - tau I)), tau = tr M / 2).
Matrix exp2(const Matrix& m, double t) {
  const double tau = 0.5 * m.trace(), disc = tau * tau - m.determinant();
  const double r = std::sqrt(std::abs(disc));
  double c = 1.0, s = t;
  if (disc > 1e-14) {
    c = std::cosh(r * t);
    s = std::sinh(r * t) / r;
  } else if (disc < -1e-14) {
    c = std::cos(r * t);
    s = std::sin(r * t) / r;
  }
  return std::exp(tau * t) * (c * Matrix::Identity(2, 2) + s * (m - tau * Matrix::Identity(2, 2)));
}

// x' = M x + q from x0: e^{Mt} x0 + int_0^t e^{Ms} ds q, the integral by 8-point Gauss-Legendre
// on 8 panels (exact to round-off for |M| t <= 10: the integrand is entire).
Vector affine_flow(const Matrix& m, const Vector& q, const Vector& x0, double t) {
  static const double node[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                 0.9602898564975363};
  static const double weight[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                   0.1012285362903763};
  Vector integral = Vector::Zero(2);
  const int panels = 8;
  const double w = t / panels;
  for (int p = 0; p < panels; ++p) {
    const double mid = (p + 0.5) * w;
    for (int k = 0; k < 4; ++k) {
      for (const double side : {-1.0, 1.0}) {
        integral += weight[k] * 0.5 * w * (exp2(m, mid + side * node[k] * 0.5 * w) * q);
      }
    }
  }
  return exp2(m, t) * x0 + integral;
}

// A random planar system on both sides of a line h = c.x - c0: x' = A x + b+ (h > 0), A x + b-
// (h < 0), written with if(). Sliding on the line is x' = P (A x + b-), P = I - d c^T / (c.d),
// d = b+ - b- (linear too). Reference: each piece in closed form, its end (the line reached, the
// weight l = -c.(A x + b-) / c.d at 0 or 1) by sampling every 1e-3 and bisection.
struct PlanarSwitch {
  Matrix A = Matrix::Zero(2, 2);
  Vector bp = Vector::Zero(2), bm = Vector::Zero(2), c = Vector::Zero(2);
  double c0 = 0.0;
  struct Piece {
    int side;  // +1, -1, 0 (sliding)
    double t0;
    Vector x0;
  };
  std::vector<Piece> pieces;
  std::vector<std::string> events;  // cross, slide, leave
  std::vector<double> times;
  bool clean = true;  // no event near a tangency or a grazing (the reference cannot decide it)

  Matrix sliding_matrix() const {
    const Vector d = bp - bm;
    return (Matrix::Identity(2, 2) - d * c.transpose() / c.dot(d));
  }
  Vector at(const Piece& p, double t) const {
    if (p.side == 0) {
      const Matrix P = sliding_matrix();
      return affine_flow(P * A, P * bm, p.x0, t - p.t0);
    }
    return affine_flow(A, p.side > 0 ? bp : bm, p.x0, t - p.t0);
  }
  Vector x(double t) const {
    size_t k = 0;
    while (k + 1 < pieces.size() && pieces[k + 1].t0 <= t) ++k;
    return at(pieces[k], t);
  }
  double weight(const Vector& x) const { return -c.dot(A * x + bm) / c.dot(bp - bm); }
  void solve(const Vector& x0, double t_end) {
    const double h0 = c.dot(x0) - c0;
    pieces.push_back({h0 > 0 ? 1 : -1, 0.0, x0});
    while (pieces.size() < 12) {
      const Piece p = pieces.back();
      // The piece's end: h changes sign (a side), or l leaves [0, 1] (sliding).
      const auto end_value = [&](double t) {
        const Vector y = at(p, t);
        if (p.side != 0) return p.side * (c.dot(y) - c0);
        const double l = weight(y);
        return std::min(l, 1.0 - l);
      };
      double lo = p.t0, hi = kNaN;
      for (double t = p.t0 + 1e-3; t <= t_end; t += 1e-3) {
        if (end_value(t) < 0.0) {
          hi = t;
          break;
        }
        lo = t;
      }
      if (std::isnan(hi)) return;
      for (int i = 0; i < 100; ++i) {
        const double m = 0.5 * (lo + hi);
        (end_value(m) < 0.0 ? hi : lo) = m;
      }
      const Vector y = at(p, hi);
      const double a = c.dot(A * y + bp), b = c.dot(A * y + bm);
      // An arrival near a tangency of either side's flow, or a leave whose weight barely moves:
      // the reference's sampling cannot tell the sequence apart from a neighbouring one.
      if (p.side != 0 && std::min(std::abs(a), std::abs(b)) < 1e-2) clean = false;
      if (p.side == 0 && std::abs(end_value(hi - 1e-3)) < 1e-6) clean = false;
      times.push_back(hi);
      if (p.side != 0) {
        const double other = p.side > 0 ? b : a;  // the other side's rate across the line
        const bool crosses = p.side > 0 ? other <= 0.0 : other >= 0.0;
        events.push_back(crosses ? "cross" : "slide");
        pieces.push_back({crosses ? -p.side : 0, hi, y});
      } else {
        events.push_back("leave");
        pieces.push_back({weight(y) > 0.5 ? 1 : -1, hi, y});
      }
    }
  }
};

TEST(SwitchingFlows, RandomPlanarSwitchedSystemsMatchTheirPiecewiseClosedForms) {
  std::mt19937 rng(4546);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int checked = 0, slides = 0, crosses = 0, leaves = 0;
  double worst = 0.0;
  for (int n = 0; n < 60; ++n) {
    PlanarSwitch s;
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) s.A(i, j) = 0.8 * u(rng);
      s.bp[i] = 2.0 * u(rng);
      s.bm[i] = 2.0 * u(rng);
    }
    const double phi = 3.14159 * u(rng);
    s.c << std::cos(phi), std::sin(phi);
    s.c0 = 0.5 * u(rng);
    const Vector x0{{2.0 * u(rng), 2.0 * u(rng)}};
    const double t_end = 6.0;
    s.solve(x0, t_end);
    if (!s.clean || s.events.empty() || std::abs(s.c.dot(x0) - s.c0) < 1e-2) continue;
    const std::string h = num(s.c[0]) + "*x + " + num(s.c[1]) + "*y - " + num(s.c0);
    const auto component = [&](int i) {
      return num(s.A(i, 0)) + "*x + " + num(s.A(i, 1)) + "*y + if(" + h + " > 0, " + num(s.bp[i]) +
             ", " + num(s.bm[i]) + ")";
    };
    const std::string text = "[states]\nx = " + num(x0[0]) + "\ny = " + num(x0[1]) +
                             "\n[modes.m]\nflow = [\"x' = " + component(0) +
                             "\", \"y' = " + component(1) + "\"]\n[solver]\nt_end = " + num(t_end) +
                             "\nrtol = 1e-12\natol = 1e-12\n[output]\nsample_interval = 0.01\n";
    SCOPED_TRACE(text);
    const ModelRun r = run_text(text);
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    const std::vector<std::string> g = guards(r);
    ASSERT_EQ(g.size(), s.events.size());
    const double scale = 1.0 + x0.norm();
    for (size_t i = 0; i < g.size(); ++i) {
      EXPECT_EQ(g[i].substr(0, g[i].find(':')), s.events[i]) << i;
      EXPECT_NEAR(r.result.events[static_cast<long>(i)].t, s.times[i], 1e-8) << i;
      slides += s.events[i] == "slide";
      crosses += s.events[i] == "cross";
      leaves += s.events[i] == "leave";
    }
    const Trajectory& tr = r.result.trajectory;
    for (long i = 0; i < tr.size(); ++i) {
      const Vector expected = s.x(tr.t(i));
      const double e = (tr.x(i).head(2) - expected).norm();
      worst = std::max(worst, e / scale);
      EXPECT_LE(e, 1e-8 * scale) << "t = " << tr.t(i);
      // On the line while sliding (the sliding mode is m[...=0]).
      if (r.system.mode(tr.mode(i)).name.find("=0]") != std::string::npos) {
        EXPECT_LE(std::abs(s.c.dot(tr.x(i).head(2)) - s.c0), 1e-9 * scale) << "t = " << tr.t(i);
      }
    }
    ++checked;
  }
  std::printf(
      "planar switched systems: %d checked, %d crossings, %d slides, %d leaves, worst %.3g\n",
      checked, crosses, slides, leaves, worst);
  EXPECT_GE(checked, 15);
  EXPECT_GE(slides, 3);
  EXPECT_GE(crosses, 3);
  EXPECT_GE(leaves, 1);
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
