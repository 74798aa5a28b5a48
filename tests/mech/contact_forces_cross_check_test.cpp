// One contact-force law, two evaluations: a mode's closed-form forces (LagrangianModel::dynamics,
// the flow's fast path: one closed contact by lambda_N = -b / B, several by the mode's linear
// system) against the contact-force LCP (2.9)-(2.10) (solve_contact_forces, which decides the
// index sets at events) posed on the same closed, sticking and sliding sets. Seeded random
// boxes on one or two corners with random mass, size, friction and spring-damper forces, at
// random states: wherever the LCP finds one motion that keeps every contact of the mode in its
// state, both give the same forces and accelerations (to 1e-9 of the force scale; both are
// direct solves of the same equations).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "saltus/mech/contact_force_problem.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/planar_rigid_body.hpp"

namespace saltus::mech {
namespace {

struct RandomBox {
  LagrangianModel model{"box", 3};
  double force_scale = 0.0;
};

// Half-width a, half-height b, mass m, J = m (a^2 + b^2) / 3; bottom corners (-a, -b), (a, -b)
// (the second only when `corners` is 2); gravity plus a spring-damper to a random point and a
// torsional one, so that h depends on q and qdot.
RandomBox random_box(std::mt19937_64& rng, int corners, double mu) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double m = 0.5 + 2.5 * u(rng), a = 0.2 + 0.8 * u(rng), b = 0.1 + 0.7 * u(rng);
  const double g = 9.81, k = 20.0 * u(rng), c = 2.0 * u(rng), x0 = u(rng) - 0.5;
  const double k_theta = 5.0 * u(rng);
  RandomBox box;
  set_planar_body_dynamics(box.model, m, m * (a * a + b * b) / 3.0, g);
  box.model.set_forces([=](const auto&, const auto& q, const auto& qdot, auto& h) {
    h[0] = -k * (q[0] - x0) - c * qdot[0];
    h[1] = -m * g - k * q[1] - c * qdot[1];
    h[2] = -k_theta * q[2] - c * qdot[2];
  });
  const ContactImpactLaw law{ImpactLawKind::RouthPoisson, 0.0, 0.0, mu};
  add_ground_point_contact(box.model, "trailing", "box", -a, -b, law);
  if (corners == 2) add_ground_point_contact(box.model, "leading", "box", a, -b, law);
  box.force_scale = m * g + k + k_theta;
  return box;
}

// The mode's sets as bits: closed, sticking, sliding with s = -1.
struct ModeSets {
  unsigned closed = 0, stick = 0, negative = 0;
};

ModeSets sets_of(const LagrangianMode& mode) {
  ModeSets s;
  if (mode.kind == ClosedKind::IndexSets)
    return {mode.closed_set, mode.stick_set, mode.slip_negative_set};
  const unsigned bit = 1u << mode.closed_contact;
  s.closed = bit;
  if (mode.kind == ClosedKind::Stick) s.stick = bit;
  if (mode.kind == ClosedKind::SlipNegative) s.negative = bit;
  return s;
}

// The LCP over the mode's closed contacts, built from the model's public accessors.
ContactForceProblem lcp_of(const LagrangianModel& model, const ModeSets& s, const Vector& q,
                           const Vector& qdot) {
  ContactForceProblem p;
  const int n = model.dof(), k = model.contact_count();
  p.mass = model.mass_matrix(q);
  p.h = model.forces(0.0, q, qdot);
  p.time = 0.0;
  PlanarContacts& c = p.contacts;
  c.W_N = Matrix::Zero(n, k);
  c.W_T = Matrix::Zero(n, k);
  c.g_N = c.gdot_N = c.w_hat_N = c.w_hat_T = c.mu = Vector::Zero(k);
  c.gdot_T = Vector::Ones(k);
  for (int i = 0; i < k; ++i) {
    c.W_N.col(i) = model.gap_gradient(i, q);
    c.w_hat_N[i] = model.gap_acceleration_offset(i, q, qdot);
    if (!((s.closed >> i) & 1u)) continue;
    p.sets.I_S.push_back(i);
    p.sets.I_N.push_back(i);
    if (!model.contact(i).frictional()) continue;
    c.W_T.col(i) = model.tangent_gradient(i, q);
    c.w_hat_T[i] = model.tangent_acceleration_offset(i, q, qdot);
    c.mu[i] = model.contact(i).law.mu;
    if ((s.stick >> i) & 1u) {
      c.gdot_T[i] = 0.0;
      p.sets.I_H.push_back(i);
    } else {
      c.gdot_T[i] = (s.negative >> i) & 1u ? -1.0 : 1.0;
    }
  }
  return p;
}

// Whether the LCP's solution keeps every contact of the mode closed in the mode's state.
bool keeps_the_mode(const ContactSolution& sol, const ModeSets& s, const LagrangianModel& model) {
  for (int i = 0; i < model.contact_count(); ++i) {
    if (!((s.closed >> i) & 1u)) continue;
    const ContactMode& cm = sol.modes[static_cast<size_t>(i)];
    if (cm.normal != NormalState::Closed) return false;
    if (!model.contact(i).frictional()) continue;
    const TangentialState want = (s.stick >> i) & 1u      ? TangentialState::Stick
                                 : (s.negative >> i) & 1u ? TangentialState::SlideNegative
                                                          : TangentialState::SlidePositive;
    if (cm.tangential != want) return false;
  }
  return true;
}

TEST(ContactForcesCrossCheck, ModeClosedFormsEqualTheContactLcp) {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  long modes = 0, compared = 0, single = 0, several = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    const int corners = 1 + trial % 2;
    const double mu = trial % 4 == 3 ? 0.0 : 1.2 * u(rng);
    const RandomBox box = random_box(rng, corners, mu);
    const LagrangianModel::Compiled compiled = box.model.compile();
    for (int state = 0; state < 6; ++state) {
      Vector q(3), qdot(3);
      q << u(rng) - 0.5, 0.3 * (u(rng) - 0.5), 0.6 * (u(rng) - 0.5);
      qdot << 2.0 * (u(rng) - 0.5), 0.2 * (u(rng) - 0.5), 4.0 * (u(rng) - 0.5);
      for (const LagrangianMode& mode : compiled.modes) {
        if (mode.kind == ClosedKind::None || mode.kind == ClosedKind::PostZeno) continue;
        ++modes;
        const ModeSets s = sets_of(mode);
        const ContactOutcome out = solve_contact_forces(lcp_of(box.model, s, q, qdot));
        if (out.verdict != Verdict::Unique || out.forces_indeterminate) continue;
        const ContactSolution& sol = out.solutions[static_cast<size_t>(out.selected)];
        if (!keeps_the_mode(sol, s, box.model)) continue;
        const ContactDynamics d = box.model.dynamics(mode, 0.0, q, qdot);
        const double tol = 1e-9 * box.force_scale;
        for (int i = 0; i < box.model.contact_count(); ++i) {
          if (!((s.closed >> i) & 1u)) continue;
          const bool each = mode.kind == ClosedKind::IndexSets;
          const double lambda_N = each ? d.lambda_N_each[i] : d.lambda_N;
          const double lambda_T = each ? d.lambda_T_each[i] : d.lambda_T;
          EXPECT_NEAR(lambda_N, sol.lambda_N[i], tol) << "trial " << trial << " contact " << i;
          EXPECT_NEAR(lambda_T, sol.lambda_T[i], tol) << "trial " << trial << " contact " << i;
          worst = std::max({worst, std::abs(lambda_N - sol.lambda_N[i]) / box.force_scale,
                            std::abs(lambda_T - sol.lambda_T[i]) / box.force_scale});
        }
        for (int j = 0; j < 3; ++j) {
          EXPECT_NEAR(d.qddot[j], sol.motion[j], 1e-9 * (1.0 + std::abs(sol.motion[j])))
              << "trial " << trial << " coordinate " << j;
        }
        ++compared;
        (mode.kind == ClosedKind::IndexSets ? several : single) += 1;
      }
    }
  }
  std::printf(
      "contact forces: %ld modes at random states, %ld where the LCP keeps the mode compared "
      "(%ld one contact, %ld two), worst |difference| / force scale %.1e\n",
      modes, compared, single, several, worst);
  EXPECT_GE(single, 100);
  EXPECT_GE(several, 20);
}

}  // namespace
}  // namespace saltus::mech
