// One contact in space under Newton's law with Coulomb's cone; see
// include/saltus/mech/spatial_impact_law.hpp.
#include "saltus/mech/spatial_impact_law.hpp"

#include <Eigen/Cholesky>
#include <array>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech {

namespace {

// Angles scanned for the slip direction, and the bisection steps refining each sign change
// (2 pi / 720 / 2^50: below an ulp of the angle).
constexpr int kDirections = 720;
constexpr int kBisections = 50;

struct SlipCandidate {
  double P_N = 0.0;  // > 0 where the direction is admissible (A_NN - mu A_NT d > 0)
  Eigen::Vector2d d = Eigen::Vector2d::Zero(), xi = Eigen::Vector2d::Zero();
  double cross() const { return xi[0] * d[1] - xi[1] * d[0]; }
};

SlipCandidate slip_at(const SpatialImpactInput& in, double e, double e_t, double mu, double th) {
  SlipCandidate c;
  c.d = {std::cos(th), std::sin(th)};
  const Eigen::Vector2d A_TN = in.A.block<2, 1>(1, 0);
  const Eigen::Matrix2d A_TT = in.A.block<2, 2>(1, 1);
  const double den = in.A(0, 0) - mu * in.A.block<1, 2>(0, 1).dot(c.d);
  c.P_N = den > 0.0 ? -(1.0 + e) * in.v_minus[0] / den : kNaN;
  const Eigen::Vector2d v_T = in.v_minus.tail<2>();
  c.xi = (1.0 + e_t) * v_T + c.P_N * (A_TN - mu * (A_TT * c.d));
  return c;
}

}  // namespace

SpatialImpactResult spatial_newton_coulomb_impact(const SpatialImpactInput& in, double e,
                                                  double e_t, double mu, bool superelastic) {
  SpatialImpactResult r;
  r.v_plus = in.v_minus;
  if (!(in.v_minus[0] < 0.0)) return r;  // not approaching: no impulse
  const double speed = in.v_minus.norm();
  int found = 0;
  // Stick: A P = -((1 + e) v_N-, (1 + e_t) v_T-).
  const Eigen::Vector3d target(-(1.0 + e) * in.v_minus[0], -(1.0 + e_t) * in.v_minus[1],
                               -(1.0 + e_t) * in.v_minus[2]);
  const Eigen::Vector3d P_stick = in.A.ldlt().solve(target);
  const double cone = mu * P_stick[0] - P_stick.tail<2>().norm();
  if (P_stick[0] >= 0.0 && cone >= -1e-12 * P_stick[0]) {
    r.impulse = P_stick;
    r.sticks = true;
    ++found;
  }
  // Slip: roots of xi_T x d over the circle with xi_T . d > 0 (beyond round-off of the stick
  // solution, which a slip on the cone's edge reproduces).
  if (mu > 0.0) {
    const double two_pi = 2.0 * std::acos(-1.0);
    SlipCandidate prev = slip_at(in, e, e_t, mu, 0.0);
    for (int k = 1; k <= kDirections; ++k) {
      double hi = two_pi * k / kDirections, lo = two_pi * (k - 1) / kDirections;
      const SlipCandidate next = slip_at(in, e, e_t, mu, hi);
      const bool bracket = std::isfinite(prev.P_N) && std::isfinite(next.P_N) &&
                           (prev.cross() < 0.0) != (next.cross() < 0.0);
      prev = next;
      if (!bracket) continue;
      SlipCandidate a = slip_at(in, e, e_t, mu, lo), m = a;
      for (int b = 0; b < kBisections; ++b) {
        m = slip_at(in, e, e_t, mu, 0.5 * (lo + hi));
        if ((m.cross() < 0.0) == (a.cross() < 0.0)) {
          lo = 0.5 * (lo + hi);
          a = m;
        } else {
          hi = 0.5 * (lo + hi);
        }
      }
      if (!(m.P_N > 0.0) || !(m.xi.dot(m.d) > 1e-12 * speed)) continue;
      const Eigen::Vector3d P(m.P_N, -mu * m.P_N * m.d[0], -mu * m.P_N * m.d[1]);
      if (found > 0 && (P - r.impulse).norm() <= 1e-9 * P.norm()) continue;
      if (found == 0) r.impulse = P;
      ++found;
    }
  }
  const auto law = [&] {
    return saltus::detail::text("Newton-Coulomb law in space (e = ", e, ", e_t = ", e_t,
                                ", mu = ", mu, ", v- = (", in.v_minus[0], ", ", in.v_minus[1], ", ",
                                in.v_minus[2], ")): ");
  };
  if (found != 1) {
    r.status = ImpactStatus::Jam;
    r.message = law() + (found == 0 ? "no impulse satisfies the law (no stick or slip answer)"
                                    : saltus::detail::text(found,
                                                           " impulses satisfy the law "
                                                           "(stick and slip answers): the "
                                                           "impact is indeterminate"));
    return r;
  }
  r.v_plus = in.v_minus + in.A * r.impulse;
  r.dT = r.impulse.dot(in.v_minus) + 0.5 * r.impulse.dot(in.A * r.impulse);
  const double T_minus = 0.5 * in.v_minus.dot(in.A.ldlt().solve(in.v_minus));
  if (!superelastic && r.dT > 1e-12 * T_minus) {
    r.status = ImpactStatus::Jam;
    r.message = law() + saltus::detail::text("the impulse (", r.impulse[0], ", ", r.impulse[1],
                                             ", ", r.impulse[2], ") gains kinetic energy (", r.dT,
                                             " on ", T_minus,
                                             "): with e_t != e the law is not dissipative for "
                                             "every body; e_t = e always dissipates");
  }
  return r;
}

}  // namespace saltus::mech
