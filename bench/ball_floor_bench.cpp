// The floor for the ball ensemble of bench/hybrid_ball_bench.cpp (issue 10): the same algorithm
// as saltus (Dormand-Prince 5(4) with its continuous extension, the elementary step-size
// controller, guard p = -x sampled at 4 interior points and both ends of each step, Brent to 2
// ulps on the dense output, left-limit reset v+ = -e v-, the step after an impact capped at twice
// the previous arc, the first arc counted from the start) written by hand for 2 states with nothing
// generic: no std::function, no Eigen, no event log, no Zeno monitor. What saltus costs above this
// is the price of its generality. Same balls, tolerances and reference as the ensemble there;
// prints one JSON line in the schema of bench/peers/run_peers.sh (tool "hand-written-floor").
//
//   ball_floor_bench [--quick]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "saltus/events/brent.hpp"

namespace {

constexpr double kG = 9.81;

// Dopri5 for x' = v, v' = -g: the stages written out for this flow (k_x = v at the stage,
// k_v = -g), with the standard coefficients and the HNW dense output.
struct Ball2 {
  double t = 0, x = 0, v = 0, h = 0;
  double t0 = 0, d[2][5] = {};  // dense output of the last step
  double rtol, atol;

  // One accepted step to at most t_limit; the dense output covers [t0, t].
  void step(double t_limit) {
    for (;;) {
      bool last = false;
      if (h >= (t_limit - t) * (1.0 - 1e-12)) {
        h = t_limit - t;
        last = true;
      }
      // Stage velocities (k_x) are v + h sum a_ij (-g); k_v = -g for every stage.
      const double c[7] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
      double kx[7];
      for (int i = 0; i < 7; ++i) kx[i] = v - kG * c[i] * h;
      const double b[7] = {35.0 / 384,     0.0,       500.0 / 1113, 125.0 / 192,
                           -2187.0 / 6784, 11.0 / 84, 0.0};
      const double e[7] = {71.0 / 57600,      0.0,        -71.0 / 16695, 71.0 / 1920,
                           -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
      double sx = 0, ex = 0, ev = 0, se = 0;
      for (int i = 0; i < 7; ++i) {
        sx += b[i] * kx[i];
        ex += e[i] * kx[i];
        se += e[i];
      }
      ev = se * -kG;
      const double x1 = x + h * sx, v1 = v - kG * h;
      const double sc_x = atol + rtol * std::max(std::abs(x), std::abs(x1));
      const double sc_v = atol + rtol * std::max(std::abs(v), std::abs(v1));
      const double ex_r = h * ex / sc_x, ev_r = h * ev / sc_v;
      const double err = std::sqrt(0.5 * (ex_r * ex_r + ev_r * ev_r));
      const double fac_max = 10.0, fac_min = 0.2, safety = 0.9;
      if (err <= 1.0) {
        const double dd[7] = {-12715105075.0 / 11282082432,  0.0,
                              87487479700.0 / 32700410799,   -10690763975.0 / 1880347072,
                              701980252875.0 / 199316789632, -1453857185.0 / 822651844,
                              69997945.0 / 29380423};
        const double xs[2] = {x, v}, x1s[2] = {x1, v1};
        const double k0[2] = {kx[0], -kG}, k6[2] = {v1, -kG};
        for (int j = 0; j < 2; ++j) {
          const double dx = x1s[j] - xs[j];
          const double c2 = h * k0[j] - dx;
          d[j][0] = xs[j];
          d[j][1] = dx;
          d[j][2] = c2;
          d[j][3] = dx - h * k6[j] - c2;
          double s4 = 0;
          for (int i = 0; i < 7; ++i) s4 += dd[i] * (j == 0 ? kx[i] : -kG);
          d[j][4] = h * s4;
        }
        t0 = t;
        t = last ? t_limit : t + h;
        x = x1;
        v = v1;
        const double fac = err < 5.9e-6 ? fac_max : safety * std::pow(err, -0.2);
        const double proposal = h * std::clamp(fac, fac_min, fac_max);
        if (!last || proposal > h) h = proposal;
        return;
      }
      h *= std::max(fac_min, safety * std::pow(err, -0.2));
    }
  }
  double position(double tt) const {
    const double th = (tt - t0) / (t - t0), th1 = 1.0 - th;
    return d[0][0] + th * (d[0][1] + th1 * (d[0][2] + th * (d[0][3] + th1 * d[0][4])));
  }
  double velocity(double tt) const {
    const double th = (tt - t0) / (t - t0), th1 = 1.0 - th;
    return d[1][0] + th * (d[1][1] + th1 * (d[1][2] + th * (d[1][3] + th1 * d[1][4])));
  }
};

struct Position {
  const Ball2* b;
  double operator()(double t) const { return -b->position(t); }  // guard p = -x
};

// Simulates one ball to t_end; writes the impact times; returns the number of impacts.
int run_ball(double x0, double e, double t_end, double rtol, double atol, double* impacts,
             int max_impacts) {
  Ball2 b;
  b.rtol = rtol;
  b.atol = atol;
  b.x = x0;
  b.v = 0;
  b.h = 0.01;  // saltus' initial-step heuristic gives about this for the ball
  int n = 0;
  double previous_event = 0.0, h_cap = 1e300;  // the run's start counts as the first arc's
  bool armed = false;
  saltus::events::RootOptions ro;
  while (b.t < t_end && n < max_impacts) {
    b.h = std::min(b.h, h_cap);
    h_cap = 1e300;
    b.step(t_end);
    // Guard samples at 4 interior points and the end; armed (p < 0 at the start of the step).
    double ta = b.t0, pa = -b.d[0][0];
    armed = armed || pa < 0.0;
    bool hit = false;
    for (int i = 1; i <= 5 && !hit; ++i) {
      const double tb = i == 5 ? b.t : b.t0 + (b.t - b.t0) * i / 5;
      const double pb = -b.position(tb);
      if (armed && pb >= 0.0) {
        const auto r = saltus::events::brent(Position{&b}, ta, pa, tb, pb, ro);
        const double te = r.before;
        impacts[n++] = te;
        const double xe = b.position(te), ve = b.velocity(te);
        b.t = te;
        b.x = xe;
        b.v = -e * ve;
        h_cap = 2.0 * (te - previous_event);
        previous_event = te;
        hit = true;
        armed = false;  // on the floor moving up: armed at the first negative sample
      }
      armed = armed || pb < 0.0;
      ta = tb;
      pa = pb;
    }
  }
  return n;
}

std::vector<double> closed_form_impacts(double x0, double g, double e, int n) {
  std::vector<double> t(n);
  const double v1 = std::sqrt(2 * g * x0);
  double tk = std::sqrt(2 * x0 / g), ek = 1.0;
  for (int k = 0; k < n; ++k) {
    t[k] = tk;
    ek *= e;
    tk += 2 * ek * v1 / g;
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const double phi = 0.6180339887498949, s2 = 0.41421356237309515;
  const int n_balls = 10000, stride = quick ? 100 : 1, reps = quick ? 1 : 3;
  const double rtol = 1e-12, atol = 1e-14;
  std::vector<double> x0s, es;
  std::vector<std::vector<double>> refs;
  for (int i = 0; i < n_balls; i += stride) {
    const double fx = std::fmod((i + 1) * phi, 1.0), fe = std::fmod((i + 1) * s2, 1.0);
    es.push_back(0.5 + 0.45 * fe);
    x0s.push_back(0.5 + 1.5 * fx);
    refs.push_back(closed_form_impacts(x0s.back(), kG, es.back(), 21));
  }
  double best = 1e300, max_error = 0.0;
  long impacts = 0;
  double times[64];
  for (int r = 0; r < reps; ++r) {
    impacts = 0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t k = 0; k < x0s.size(); ++k) {
      const std::vector<double>& ref = refs[k];
      const int n = run_ball(x0s[k], es[k], 0.5 * (ref[19] + ref[20]), rtol, atol, times, 64);
      impacts += n;
      for (int i = 0; i < n; ++i) max_error = std::max(max_error, std::abs(times[i] - ref[i]));
    }
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf(
      "{\"tool\":\"hand-written-floor\",\"problem\":\"ensemble\",\"setting\":\"rtol=1e-12,"
      "atol=1e-14\",\"impacts\":%ld,\"max_impact_time_error\":%.3e,\"wall_s\":%.6g,"
      "\"us_per_impact\":%.4g,\"penetration\":false,\"hung\":false,\"note\":\"%s\"}\n",
      impacts, max_error, best, 1e6 * best / static_cast<double>(impacts),
      quick ? "every 100th ball" : "all 10^4 balls");
  return 0;
}
