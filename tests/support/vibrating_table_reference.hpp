// Reference impacts of Holmes' (1982) ball on a sinusoidally vibrating table (issue 43: no
// crossing may be missed), independent of saltus: std only, no integrator, no event locator.
//
// Flight y'' = -g; the table is at A sin(w t); an impact is the gap h = y - A sin(w t) reaching
// 0 from above; the reset is v+ = (1 + e) A w cos(w t) - e v-, i.e. the relative velocity
// h' becomes -e h'. Between impacts y is an exact parabola, so h is known in closed form and
// |h''| = |-g + A w^2 sin(w t)| <= M = g + A w^2. On [a, b], h lies above the Taylor bound
// h(a) + h'(a)(t - a) - M (t - a)^2 / 2 (and the same from b): a bound that stays above the
// rounding margin proves that there is no crossing, an h' of one sign that h is monotone;
// anything else is halved. So an excursion below the table is found however short it is, where
// a search that samples h (a solver's event location) can step over it.
//
// Each flight is written in its own time tau = t - tk, the gap expanded about tk:
//   h(tau) = hk + u tau - g tau^2 / 2 - A (s (cos(w tau) - 1) + c (sin(w tau) - w tau)),
// s = sin(w tk), c = cos(w tk), u = h'(tk+), so that near an impact h has full relative
// precision (no cancellation against y and A sin(w t)): a flight of 1e-9 s is resolved. After
// an impact hk = 0 and u > 0, so h >= u tau - M tau^2 / 2 > 0 on (0, 2u/M): the search starts
// at tau = u/M. Roots are bisected to adjacent doubles in tau. The next flight starts at the
// rounded impact time with the ball exactly on the table there: an O(ulp(t)) perturbation per
// impact, which tables that keep bouncing amplify to ~1e-7 s by t = 20 (mpmath agrees with each
// flight to 5e-15 s). So compare a solver flight by flight (table_next_impact from its own
// restart state), not its whole list of impacts.
//
// Where the reference stops (TableStop; compare impacts only before t_stop):
//   end          t_end reached.
//   sticks       the relative velocity after an impact is <= 0: the ball stays on the table,
//                which this model (no sticking mode) cannot continue.
//   accumulates  impacts accumulate (chatter): more than max_impacts, or the next flight's
//                certified start u/M is under 64 ulps of t (the flight cannot be resolved).
//   grazes       h touches 0 with h' = 0 within rounding: whether the ball hits the table
//                cannot be decided in double precision.
//
// Random tables for the tests and bench/vibrating_table_peers.py,
// bench/peers/vibrating_table_cvode.c (the same bits): vibrating_table_case(seed, k).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "../../bench/splitmix64.hpp"

namespace saltus::testing {

struct TableImpact {
  double t;          // impact time
  double v_after;    // ball velocity just after: (1 + e) A w cos(w t) - e v-
  double rel_speed;  // -h'(t-) > 0, the speed relative to the table (small: nearly grazing)
};

enum class TableStop { end, sticks, accumulates, grazes };

inline const char* to_string(TableStop s) {
  switch (s) {
    case TableStop::end:
      return "end";
    case TableStop::sticks:
      return "sticks";
    case TableStop::accumulates:
      return "accumulates";
    case TableStop::grazes:
      return "grazes";
  }
  return "?";
}

struct TableReference {
  std::vector<TableImpact> impacts;
  TableStop stop = TableStop::end;
  double t_stop = 0.0;  // t_end, or where the reference gave up
};

// The gap along one flight from (tk, hk, u) in tau = t - tk.
struct TableFlight {
  double A, w, g, M, tk, hk, u, s, c;

  // M is widened by 1e-12: the rounded s^2 + c^2 is 1 only to a few ulps
  TableFlight(double A_, double w_, double g_, double tk_, double hk_, double u_)
      : A(A_),
        w(w_),
        g(g_),
        M((g_ + A_ * w_ * w_) * (1 + 1e-12)),
        tk(tk_),
        hk(hk_),
        u(u_),
        s(std::sin(w_ * tk_)),
        c(std::cos(w_ * tk_)) {}

  // sin(x) - x and cos(x) - 1 without cancellation for small x
  static double sin_m(double x) {
    if (std::abs(x) >= 1) return std::sin(x) - x;
    const double x2 = x * x;
    double term = -x * x2 / 6, sum = term;
    for (int n = 5; std::abs(term) > 1e-17 * std::abs(sum); n += 2) {
      term *= -x2 / ((n - 1) * n);
      sum += term;
    }
    return sum;
  }
  static double cos_m(double x) {
    const double h = std::sin(x / 2);
    return -2 * h * h;
  }

  double h(double tau) const {
    const double x = w * tau;
    return hk + u * tau - 0.5 * g * tau * tau - A * (s * cos_m(x) + c * sin_m(x));
  }
  double hp(double tau) const {
    const double x = w * tau;
    return u - g * tau - A * w * (c * cos_m(x) - s * std::sin(x));
  }
  // a bound on the rounding error of h(tau), h'(tau): 16 ulps of the terms' magnitudes
  double h_err(double tau) const {
    const double x = w * tau;
    return 16 * kEps *
           (std::abs(hk) + std::abs(u * tau) + 0.5 * g * tau * tau +
            A * (std::abs(s * cos_m(x)) + std::abs(c * sin_m(x))));
  }
  double hp_err(double tau) const {
    const double x = w * tau;
    return 16 * kEps *
           (std::abs(u) + g * tau + A * w * (std::abs(c * cos_m(x)) + std::abs(s * std::sin(x))));
  }
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
};

// The first crossing of a flight, in tau.
struct TableCrossing {
  enum Kind { none, impact, graze } kind = none;
  double tau = 0.0;
};

namespace vibrating_table_detail {

struct Point {
  double tau, h, hp;
};
inline Point at(const TableFlight& f, double tau) {
  return {tau, f.h(tau), f.hp(tau)};
}

// First tau in (a.tau, b.tau] where h <= 0, given h(a) > 0.
inline TableCrossing scan(const TableFlight& f, const Point& a, const Point& b) {
  const double L = b.tau - a.tau, quad = 0.5 * f.M * L * L;
  // A Taylor bound from either end stays positive: no crossing.
  const double ea = f.h_err(a.tau) + f.hp_err(a.tau) * L + 16 * TableFlight::kEps * quad;
  const double eb = f.h_err(b.tau) + f.hp_err(b.tau) * L + 16 * TableFlight::kEps * quad;
  if (a.h > ea && a.h + a.hp * L - quad > ea) return {};
  if (b.h > eb && b.h - b.hp * L - quad > eb) return {};
  // h' of one sign on [a, b]: h monotone, a crossing is a sign change at the ends.
  const double spread = f.M * L + f.hp_err(a.tau);
  if (a.hp - spread > 0) return {};
  if (a.hp + spread < 0) {
    if (b.h > 0) return {};
    Point lo = a, hi = b;  // h(lo) > 0 >= h(hi): bisect to adjacent doubles
    for (;;) {
      const double mid = lo.tau + 0.5 * (hi.tau - lo.tau);
      if (mid <= lo.tau || mid >= hi.tau) break;
      const double hm = f.h(mid);
      (hm > 0 ? lo : hi) = {mid, hm, 0.0};
    }
    return {TableCrossing::impact, hi.tau};
  }
  // Undecided: halve, left half first. Halving below the resolution of t means h and h' are
  // both zero within rounding: a tangency.
  const double mid = a.tau + 0.5 * L;
  if (f.tk + mid == f.tk + a.tau || f.tk + mid == f.tk + b.tau) {
    return {TableCrossing::graze, a.tau};
  }
  const Point m = at(f, mid);
  const TableCrossing left = scan(f, a, m);
  if (left.kind != TableCrossing::none) return left;
  return scan(f, m, b);  // left found none, so h(m) > 0
}

}  // namespace vibrating_table_detail

// First crossing of h in (tau0, tau_end], given h(tau0) > 0 and no crossing in (0, tau0].
inline TableCrossing table_first_crossing(const TableFlight& f, double tau0, double tau_end) {
  using vibrating_table_detail::at;
  const double chunk = 0.5 * std::numbers::pi / f.w;  // a quarter period keeps the bounds tight
  vibrating_table_detail::Point a = at(f, tau0);
  while (a.tau < tau_end) {
    const vibrating_table_detail::Point b = at(f, std::min(a.tau + chunk, tau_end));
    const TableCrossing r = vibrating_table_detail::scan(f, a, b);
    if (r.kind != TableCrossing::none) return r;
    a = b;
  }
  return {};
}

// The first impact after a solver's own restart state (tk, yk, vk), at tk + tau: for checking
// it flight by flight. A state on the table within 1e-9 and moving up is put on it; kind graze
// also means undecidable (a start further below the table, or moving into it); none: no impact
// up to t_end.
inline TableCrossing table_next_impact(double A, double w, double g, double tk, double yk,
                                       double vk, double t_end) {
  TableFlight f(A, w, g, tk, yk - A * std::sin(w * tk), vk - A * w * std::cos(w * tk));
  double tau0 = 0.0;
  if (!(f.hk > 0)) {
    if (!(f.hk > -1e-9 && f.u > 0)) return {TableCrossing::graze, 0.0};
    f.hk = 0.0;
    tau0 = f.u / f.M;
    if (tk + tau0 == tk) return {TableCrossing::graze, 0.0};
  }
  return table_first_crossing(f, tau0, t_end - tk);
}

// Every impact in (t0, t_end] of the ball started at (t0, y0, v0) above the table.
inline TableReference vibrating_table_reference(double A, double w, double e, double g, double t0,
                                                double y0, double v0, double t_end,
                                                int max_impacts = 1000) {
  TableReference r;
  TableFlight f(A, w, g, t0, y0 - A * std::sin(w * t0), v0 - A * w * std::cos(w * t0));
  if (!(f.hk > 0)) throw std::invalid_argument("vibrating_table_reference: start on or below");
  double tau0 = 0.0;  // h(tau0) > 0 and no crossing before it
  for (;;) {
    const TableCrossing x = table_first_crossing(f, tau0, t_end - f.tk);
    const double t = f.tk + x.tau;
    if (x.kind == TableCrossing::none) {
      r.stop = TableStop::end;
      r.t_stop = t_end;
      return r;
    }
    if (x.kind == TableCrossing::graze) {
      r.stop = TableStop::grazes;
      r.t_stop = t;
      return r;
    }
    const double rel = -f.hp(x.tau), u = e * rel;
    r.impacts.push_back({t, u + A * w * std::cos(w * t), rel});
    f = TableFlight(A, w, g, t, 0.0, u);
    tau0 = u / f.M;
    if (!(u > 0)) {
      r.stop = TableStop::sticks;
      r.t_stop = t;
      return r;
    }
    const double ulp = std::nextafter(t, std::numeric_limits<double>::infinity()) - t;
    if (static_cast<int>(r.impacts.size()) >= max_impacts || tau0 < 64 * ulp || !(f.h(tau0) > 0)) {
      r.stop = TableStop::accumulates;
      r.t_stop = t;
      return r;
    }
  }
}

// One random table of issue 43 (w = 2 pi, g = 9.81, t0 = 0, t_end = 20). Case k of a seed
// takes draws 4k .. 4k+3 of splitmix64(seed): A in [0.05, 0.6], e in [0.1, 0.9], y0 = A +
// [0.05, 1] (above the table's highest point), v0 in [-1, 1].
struct VibratingTableCase {
  double A, e, y0, v0;
  double w = 2 * std::numbers::pi, g = 9.81, t0 = 0.0, t_end = 20.0;
  TableReference reference(int max_impacts = 1000) const {
    return vibrating_table_reference(A, w, e, g, t0, y0, v0, t_end, max_impacts);
  }
};

inline VibratingTableCase vibrating_table_case(std::uint64_t seed, std::uint64_t k) {
  SplitMix64 rng{seed + 4 * k * 0x9E3779B97F4A7C15ull};  // the state after 4k draws
  VibratingTableCase c{};
  c.A = rng.uniform(0.05, 0.6);
  c.e = rng.uniform(0.1, 0.9);
  c.y0 = c.A + rng.uniform(0.05, 1.0);
  c.v0 = rng.uniform(-1.0, 1.0);
  return c;
}

}  // namespace saltus::testing
