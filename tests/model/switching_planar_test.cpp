// Random planar switched systems (issue 45; model/loader/switching_modes.cpp): x' = A x + b+ on
// one side of a random line and A x + b- on the other, written with if(), against their piecewise
// closed form: every crossing, slide and leave of the same kind at the same time, every sample on
// the closed form, every sliding sample on the line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_run.hpp"
#include "saltus/sim/csv_writer.hpp"
#include "support/metamorphic.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

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
    const ModelRun r = saltus::testing::run_text(text, {});
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    ASSERT_EQ(r.result.events.size(), static_cast<long>(s.events.size()));
    const double scale = 1.0 + x0.norm();
    for (size_t i = 0; i < s.events.size(); ++i) {
      const std::string g = event_guard_name(r.system, r.result.events[static_cast<long>(i)]);
      EXPECT_EQ(g.substr(0, g.find(':')), s.events[i]) << i;
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

}  // namespace
}  // namespace saltus::model
