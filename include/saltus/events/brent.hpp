// Brent's method (R.P. Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 4,
// procedure zeroin): inverse quadratic interpolation and secant steps, with a bisection step
// whenever interpolation would not shrink the bracket fast enough. Never slower than about
// twice bisection, superlinear on smooth guards, and robust on the lopsided brackets that
// arise after a reset (one end barely below zero, the other far above), where false position
// with the Anderson-Bjorck weight needs many halvings of the far end's value.
//
// Symbols as in Brent's text: b is the best estimate, c the contrapoint (s(b) s(c) <= 0), a the
// previous b; d the last step, e the one before; tol the half-width target, here
// RootOptions::ulps / 2 ulps of b. See root_bracket.hpp for the bracket contract.
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

template <class S>
RootResult brent(const S& s, double a0, double sa0, double b0, double sb0, const RootOptions& o) {
  RootResult r{a0, b0, 0, false};
  if (sb0 == 0.0) {
    r.before = b0;
    r.converged = true;
    return r;
  }
  double a = a0, fa = sa0, b = b0, fb = sb0;
  double c = a, fc = fa;
  double d = b - a, e = d;
  for (;;) {
    if ((fb > 0.0) == (fc > 0.0)) {  // keep b and c on opposite sides
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {  // b is the best estimate
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const double tol = 0.5 * std::max(o.ulps * detail::ulp_of(b), o.abs_width);
    const double m = 0.5 * (c - b);
    if (std::abs(m) <= tol || fb == 0.0 || r.evaluations >= o.max_evaluations) break;
    if (std::abs(e) >= tol && std::abs(fa) > std::abs(fb)) {
      const double sr = fb / fa;
      double p, q;
      if (a == c) {  // secant
        p = 2.0 * m * sr;
        q = 1.0 - sr;
      } else {  // inverse quadratic interpolation
        const double qa = fa / fc, rb = fb / fc;
        p = sr * (2.0 * m * qa * (qa - rb) - (b - a) * (rb - 1.0));
        q = (qa - 1.0) * (rb - 1.0) * (sr - 1.0);
      }
      if (p > 0.0) {
        q = -q;
      } else {
        p = -p;
      }
      if (2.0 * p < std::min(3.0 * m * q - std::abs(tol * q), std::abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = e = m;  // interpolation rejected: bisect
      }
    } else {
      d = e = m;
    }
    a = b;
    fa = fb;
    b += std::abs(d) > tol ? d : (m > 0.0 ? tol : -tol);
    fb = s(b);
    ++r.evaluations;
  }
  // Orient the final bracket {b, c}: `before` on the pre-crossing side (s < 0).
  if (fb == 0.0) {
    r.before = r.after = b;
  } else if (fb < 0.0) {
    r.before = b;
    r.after = c;
  } else {
    r.before = c;
    r.after = b;
  }
  r.converged = fb == 0.0 || detail::bracket_done(r.before, r.after, o) ||
                std::nextafter(r.before, r.after) == r.after;
  return r;
}

}  // namespace saltus::events
