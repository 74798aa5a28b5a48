// Next index sets by the contact-force LCP; see src/mech/index_set_choice.hpp.
#include "index_set_choice.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_force_problem.hpp"

namespace saltus::mech::detail {

LagrangianMode mode_of_sets(const LagrangianModel& m, unsigned closed, unsigned stick,
                            unsigned slip_negative, unsigned compliant_mask) {
  unsigned frictional = 0, spatial = 0;
  for_each_bit(closed, [&](int i) {
    if (m.contact(i).frictional()) frictional |= 1u << i;
    if (m.contact(i).spatial_frictional()) spatial |= 1u << i;
  });
  stick &= closed & (frictional | spatial);
  slip_negative &= closed & frictional & ~stick;
  if (closed == 0) return {-1, ClosedKind::None, compliant_mask};
  const int first = std::countr_zero(closed);
  if (std::popcount(closed) == 1) {
    ClosedKind kind = ClosedKind::Frictionless;
    if (spatial) {
      kind = stick ? ClosedKind::SpatialStick : ClosedKind::SpatialSlip;
    } else if (frictional) {
      kind = stick ? ClosedKind::Stick
                   : (slip_negative ? ClosedKind::SlipNegative : ClosedKind::SlipPositive);
    }
    return {first, kind, compliant_mask};
  }
  return {first, ClosedKind::IndexSets, compliant_mask, closed, stick, slip_negative};
}

void sets_from_velocities(const LagrangianModel& m, unsigned closed, ConstVectorRef q,
                          ConstVectorRef qdot, const double* state_scales, unsigned& stick,
                          unsigned& slip_negative, double rest) {
  stick = slip_negative = 0;
  const ContactScales s = contact_scales(state_scales, q, qdot);
  for_each_bit(closed, [&](int i) {
    if (!m.contact(i).frictional()) return;
    const Vector w_T = m.tangent_gradient(i, q);
    const double gdot_T = w_T.dot(qdot);
    const double tol = rest * scale_along(w_T, s.qdot);
    if (std::abs(gdot_T) <= tol) {
      stick |= 1u << i;
    } else if (gdot_T < 0.0) {
      slip_negative |= 1u << i;
    }
  });
}

std::string describe_sets(const LagrangianModel& m, unsigned closed, unsigned stick,
                          unsigned slip_negative) {
  std::string out;
  for_each_bit(closed, [&](int i) {
    const char* state = !m.contact(i).frictional()  ? "frictionless"
                        : (stick >> i) & 1u         ? "stick"
                        : (slip_negative >> i) & 1u ? "slip-"
                                                    : "slip+";
    out += (out.empty() ? "'" : ", '") + m.contact(i).name + "' (" + state + ")";
  });
  return out;
}

ContactForceProblem force_problem_of_sets(const LagrangianModel& m, double t, ConstVectorRef q,
                                          ConstVectorRef qdot, unsigned closed, unsigned stick,
                                          unsigned slip_negative, unsigned compliant_mask) {
  std::vector<int> ids;
  for_each_bit(closed, [&](int i) { ids.push_back(i); });
  const int n = m.dof(), k = static_cast<int>(ids.size());
  ContactForceProblem p;
  p.mass = m.mass_matrix(q);
  const DofVector<double> qv = load<double>(q, 0, n), qdv = load<double>(qdot, 0, n);
  DofVector<double> h;
  total_forces(m, compliant_mask, t, qv, qdv, h);
  p.h = h;
  p.time = t;
  PlanarContacts& c = p.contacts;
  c.W_N.resize(n, k);
  c.W_T = Matrix::Zero(n, k);
  c.g_N = c.gdot_N = c.w_hat_T = c.mu = Vector::Zero(k);
  c.w_hat_N.resize(k);
  c.gdot_T = Vector::Ones(k);
  for (int j = 0; j < k; ++j) {
    const int i = ids[static_cast<size_t>(j)];
    const LagrangianContact& contact = m.contact(i);
    c.W_N.col(j) = m.gap_gradient(i, q);
    c.w_hat_N[j] = m.gap_acceleration_offset(i, q, qdot);
    p.sets.I_S.push_back(j);
    p.sets.I_N.push_back(j);
    if (!contact.frictional()) continue;  // mu = 0, W_T = 0: no friction, a fixed direction
    c.W_T.col(j) = m.tangent_gradient(i, q);
    c.w_hat_T[j] = m.tangent_acceleration_offset(i, q, qdot);
    // A contact at rest is held by its static cone; a sliding one carries its sliding
    // coefficient at its slip speed.
    if ((stick >> i) & 1u) {
      c.mu[j] = contact.law.static_mu();
      c.gdot_T[j] = 0.0;
      p.sets.I_H.push_back(j);
    } else {
      c.mu[j] = sliding_mu_at(contact, DofVector<double>(c.W_T.col(j)), qdv);
      c.gdot_T[j] = (slip_negative >> i) & 1u ? -1.0 : 1.0;  // the direction, not the speed
    }
  }
  // Tangents equal to 1e-8 (kinetic metric) are one direction, as in the flow
  // (sticking_directions_shared): a
  // box flat on two corners carries its angle's integration error (~1e-10), and two directions
  // that far apart made the sticking face a sliver whose accelerations spread over the motion
  // tolerance, a false "continuum of motions" (Painleve indeterminacy) instead of the one motion.
  const SpdFactor<double> M = factored_mass(m, q);
  for (int j = 0; j < k; ++j) {
    if (c.mu[j] == 0.0) continue;
    for (int l = j + 1; l < k; ++l) {
      if (c.mu[l] == 0.0 || !sticking_directions_shared(M, c.W_T.col(j), c.W_T.col(l))) continue;
      c.W_T.col(l) = c.W_T.col(j);
      c.w_hat_T[l] = c.w_hat_T[j];
    }
  }
  return p;
}

namespace {

// A closed contact whose normal lies within this (relative, in the kinetic metric) of the span of
// the normals kept before it adds no constraint: far above the round-off of a face's corners
// (1e-16) and far below any independent contact's.
constexpr double kDependentNormal = 1e-10;

// Closed contacts whose normals depend on the others' (the four corners of a face on the floor:
// three independent constraints) make the closed mode's force system singular: their forces
// are not determined, the motion is. Keeps a largest independent set in the kinetic metric
// (w_i . w_j in M^-1), the contacts with the larger normal forces first; the others leave the
// closed set, resting open at gap 0 with the rate the kept ones give them (0 to round-off).
unsigned independent_normals(const ContactForceProblem& problem, const std::vector<int>& ids,
                             const ContactSolution& sol, unsigned closed) {
  std::vector<int> order;  // columns of the problem, by decreasing normal force
  for (int j = 0; j < static_cast<int>(ids.size()); ++j) {
    if (closed & (1u << ids[static_cast<size_t>(j)])) order.push_back(j);
  }
  if (order.size() < 2) return closed;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return sol.lambda_N[a] > sol.lambda_N[b]; });
  const Eigen::LLT<Matrix> M(problem.mass);
  std::vector<Vector> basis;  // orthonormal, of L^-1 w over the kept contacts
  unsigned kept = 0;
  for (const int j : order) {
    Vector v = M.matrixL().solve(problem.contacts.W_N.col(j));
    const double size = v.norm();
    for (const Vector& b : basis) v -= b.dot(v) * b;
    if (!(v.norm() > kDependentNormal * size)) continue;
    basis.push_back(v / v.norm());
    kept |= 1u << ids[static_cast<size_t>(j)];
  }
  return kept;
}

}  // namespace

bool choose_index_sets(const LagrangianModel& m, double t, ConstVectorRef q, ConstVectorRef qdot,
                       unsigned closed, unsigned stick, unsigned slip_negative,
                       unsigned compliant_mask, LagrangianMode& out, std::string& failure) {
  if (closed == 0) {
    out = mode_of_sets(m, 0, 0, 0, compliant_mask);
    return true;
  }
  std::vector<int> ids;
  for_each_bit(closed, [&](int i) { ids.push_back(i); });
  const int k = static_cast<int>(ids.size());
  const ContactForceProblem problem =
      force_problem_of_sets(m, t, q, qdot, closed, stick, slip_negative, compliant_mask);
  const ContactOutcome outcome = solve_contact_forces(problem);
  if (!outcome.can_continue()) {
    failure =
        saltus::detail::text("model '", m.name(), "': contact forces over the closed contacts ",
                             describe_sets(m, closed, stick, slip_negative), " at t = ", t,
                             ": verdict ", to_string(outcome.verdict), ": ", outcome.message);
    return false;
  }
  const ContactSolution& sol = *outcome.selected_solution();
  unsigned next = 0, next_stick = 0, next_negative = 0;
  for (int j = 0; j < k; ++j) {
    const int i = ids[static_cast<size_t>(j)];
    const ContactMode& mode = sol.modes[static_cast<size_t>(j)];
    if (mode.normal != NormalState::Closed) continue;
    next |= 1u << i;
    if (mode.tangential == TangentialState::Stick) next_stick |= 1u << i;
    if (mode.tangential == TangentialState::SlideNegative) next_negative |= 1u << i;
  }
  next = independent_normals(problem, ids, sol, next);
  out = mode_of_sets(m, next, next_stick & next, next_negative & next, compliant_mask);
  return true;
}

}  // namespace saltus::mech::detail
