// Issue 10: does the PI controller (StepperOptions::pi_beta) save steps at equal accuracy?
// Dopri5 and DOP853 on problems with known end states, rtol 1e-3 .. 1e-13 (atol = rtol), for
// beta = 0 (elementary controller), 0.04 (DOPRI5's default) and 0.08. Prints one JSON object per
// line: problem, method, beta, rtol, accepted and rejected steps, f evaluations, end error.
// Compare the columns at equal error (the errors move with beta too): bench/README or
// docs/BENCHMARKS.md, "Step-size controller", says how the default was chosen.
#include <cmath>
#include <cstdio>
#include <string>

#include "saltus/ode/dop853.hpp"
#include "saltus/ode/dopri5.hpp"

namespace {

using namespace saltus;

struct Problem {
  std::string name;
  Flow flow;
  Vector x0;
  double t_end;
  Vector exact;  // x(t_end)
};

// Arenstorf orbit (HNW I, II.0): periodic with period T, x(T) = x(0).
Problem arenstorf() {
  const double mu = 0.012277471, mu1 = 1.0 - mu;
  Problem p;
  p.name = "arenstorf";
  p.flow = ode_flow(4, [=](const auto&, const auto& y, auto& f) {
    using std::pow;
    const auto d1 = pow((y[0] + mu) * (y[0] + mu) + y[1] * y[1], 1.5);
    const auto d2 = pow((y[0] - mu1) * (y[0] - mu1) + y[1] * y[1], 1.5);
    f[0] = y[2];
    f[1] = y[3];
    f[2] = y[0] + 2.0 * y[3] - mu1 * (y[0] + mu) / d1 - mu * (y[0] - mu1) / d2;
    f[3] = y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - mu * y[1] / d2;
  });
  p.x0.resize(4);
  p.x0 << 0.994, 0.0, 0.0, -2.00158510637908252240537862224;
  p.t_end = 17.0652165601579625588917206249;
  p.exact = p.x0;
  return p;
}

// Kepler orbit of eccentricity 0.6 over 3 periods (2 pi each): back at the start.
Problem kepler() {
  const double e = 0.6;
  Problem p;
  p.name = "kepler-e0.6";
  p.flow = ode_flow(4, [](const auto&, const auto& y, auto& f) {
    using std::pow;
    const auto r3 = pow(y[0] * y[0] + y[1] * y[1], 1.5);
    f[0] = y[2];
    f[1] = y[3];
    f[2] = -y[0] / r3;
    f[3] = -y[1] / r3;
  });
  p.x0.resize(4);
  p.x0 << 1.0 - e, 0.0, 0.0, std::sqrt((1.0 + e) / (1.0 - e));
  p.t_end = 3 * 2 * M_PI;
  p.exact = p.x0;
  return p;
}

// Ball with linear drag, x' = v, v' = -g - c v, thrown up; closed form.
Problem drag_flight() {
  const double g = 9.81, c = 0.5, v0 = 8.0, t = 1.5;
  Problem p;
  p.name = "drag-flight";
  p.flow = ode_flow(2, [=](const auto&, const auto& y, auto& f) {
    f[0] = y[1];
    f[1] = -g - c * y[1];
  });
  p.x0.resize(2);
  p.x0 << 0.0, v0;
  p.t_end = t;
  const double vinf = g / c, decay = std::exp(-c * t);
  p.exact.resize(2);
  p.exact << (v0 + vinf) * (1.0 - decay) / c - vinf * t, (v0 + vinf) * decay - vinf;
  return p;
}

template <class S>
void run(const Problem& p, double beta, double rtol) {
  ode::StepperOptions o;
  o.rtol = rtol;
  o.atol = rtol;
  o.pi_beta = beta;
  S s(o, static_cast<int>(p.x0.size()), 0);
  s.set_flow(p.flow);
  s.restart(0.0, p.x0, Vector(), false);
  while (s.time() < p.t_end) {
    if (s.step(p.t_end) != ode::StepStatus::Accepted) break;
  }
  const double err = (s.state() - p.exact).template lpNorm<Eigen::Infinity>();
  std::printf(
      "{\"problem\":\"%s\",\"method\":\"%s\",\"beta\":%g,\"rtol\":%g,\"accepted\":%ld,"
      "\"rejected\":%ld,\"f_evals\":%ld,\"error\":%.3e}\n",
      p.name.c_str(), S::kName, beta, rtol, s.stats().accepted_steps, s.stats().rejected_steps,
      s.stats().rhs_evaluations, err);
}

}  // namespace

int main() {
  for (const Problem& p : {arenstorf(), kepler(), drag_flight()}) {
    for (double beta : {0.0, 0.04, 0.08}) {
      for (int k = 3; k <= 13; ++k) {
        run<ode::Dopri5>(p, beta, std::pow(10.0, -k));
        run<ode::Dop853>(p, beta, std::pow(10.0, -k));
      }
    }
  }
  return 0;
}
