// Simultaneous impacts over I_S; see src/mech/multi_contact_impact.hpp.
#include "multi_contact_impact.hpp"

#include "contact_dynamics.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/mech/impact_problem.hpp"

namespace saltus::mech::detail {

std::string contact_names(const LagrangianModel& m, const std::vector<int>& contacts) {
  std::string out;
  for (size_t k = 0; k < contacts.size(); ++k) {
    out += (k ? ", '" : "'") + m.contact(contacts[k]).name + "'";
  }
  return out;
}

// Whether rigid contact i joins I_S of an impact at q; no allocation, so the single-contact path
// stays allocation-free.
static bool joins_impact(const LagrangianModel& m, int i, int fired, unsigned closed,
                         const DofVector<double>& q, double band) {
  if (i == fired || !m.contact(i).rigid()) return false;
  if ((closed >> i) & 1u) return true;
  return m.contact(i).gap(q) <= band;  // touching, approaching or not (see the header)
}

std::vector<int> simultaneous_impact_set(const LagrangianModel& m, int fired, unsigned closed,
                                         ConstVectorRef q, ConstVectorRef /*qdot*/) {
  const int n = m.dof();
  const DofVector<double> qv = load<double>(q, 0, n);
  const double band = kImpactGapBand * std::max(1.0, q.lpNorm<Eigen::Infinity>());
  int others = 0;
  for (int i = 0; i < m.contact_count(); ++i) others += joins_impact(m, i, fired, closed, qv, band);
  if (others == 0) return {};  // d alone: no allocation
  std::vector<int> set{fired};
  for (int i = 0; i < m.contact_count(); ++i) {
    if (joins_impact(m, i, fired, closed, qv, band)) set.push_back(i);
  }
  return set;
}

namespace {

// The LCP's constant term for one contact: (1 + e) gdot_N(t-) while approaching (Moreau's law
// gdot_N(t+) + e gdot_N(t-) >= 0), gdot_N(t-) itself while separating (gdot_N(t+) >= 0: it gets
// impulse only if the others' impulses would make it approach).
double moreau_rate(double gdot_minus, double e) {
  return gdot_minus < 0.0 ? (1.0 + e) * gdot_minus : gdot_minus;
}

// T+ - T- and the contacts of I_S left with gdot_N(t+) = 0 (to 1e-12 of the largest approach) or
// separating too slowly for their bounce to be resolved.
void finish(const Matrix& M, const Matrix& W_N, const Vector& gdot_minus, ConstVectorRef qdot_minus,
            SimultaneousImpact& out) {
  out.rate_N = W_N.transpose() * out.qdot_plus;
  out.energy_change =
      0.5 * out.qdot_plus.dot(M * out.qdot_plus) - 0.5 * qdot_minus.dot(M * qdot_minus);
  const double rate_tol = 1e-12 * (1.0 + gdot_minus.lpNorm<Eigen::Infinity>());
  const double speed = qdot_minus.lpNorm<Eigen::Infinity>();
  for (Eigen::Index j = 0; j < out.rate_N.size(); ++j) {
    // Leaving slower than 1e-8 of the velocity scale, the bounce is below the round-off of
    // the gap (5e-18 m at 1e-8 m/s under g) and its return cannot be located: closed.
    const double unresolved = 1e-8 * (1.0 + W_N.col(j).lpNorm<1>() * speed);
    if (std::abs(out.rate_N[j]) <= rate_tol ||
        (out.rate_N[j] > 0.0 && out.rate_N[j] <= unresolved)) {
      out.closed_after.push_back(out.contacts[j]);
    }
  }
}

// With Coulomb friction: the impact LCP (2.17)-(2.18) of impact_problem.hpp, posed with
// gdot_N(t-) scaled by (1 + e_i) so that its normal complementarity reads Moreau's
// gdot_N(t+) + e_i gdot_N(t-) >= 0 perp Lambda_N (e_T = 0: sticking means gdot_T(t+) = 0);
// qdot+ = qdot- + M^-1 (W_N Lambda_N + W_T Lambda_T) does not depend on that scaling.
// Frictionless members take part with mu = 0.
SimultaneousImpact resolve_frictional(const LagrangianModel& m, const std::vector<int>& contacts,
                                      const std::string& where, double t, ConstVectorRef q,
                                      ConstVectorRef qdot_minus) {
  SimultaneousImpact out;
  out.contacts = contacts;
  const int n = m.dof(), k = static_cast<int>(contacts.size());
  ImpactProblem p;
  p.mass = m.mass_matrix(q);
  p.qdot_minus = qdot_minus;
  p.time = t;
  PlanarContacts& c = p.contacts;
  c.W_N.resize(n, k);
  c.W_T = Matrix::Zero(n, k);
  c.g_N = c.w_hat_N = c.w_hat_T = c.mu = Vector::Zero(k);
  c.gdot_N.resize(k);
  Vector gdot_minus(k);
  for (int j = 0; j < k; ++j) {
    const LagrangianContact& contact = m.contact(contacts[j]);
    c.W_N.col(j) = m.gap_gradient(contacts[j], q);
    if (contact.frictional()) {
      c.W_T.col(j) = m.tangent_gradient(contacts[j], q);
      c.mu[j] = contact.law.mu;
    }
    gdot_minus[j] = c.W_N.col(j).dot(qdot_minus);
    c.gdot_N[j] = moreau_rate(gdot_minus[j], contact.law.e);
    p.sets.I_S.push_back(j);
  }
  c.gdot_T = c.W_T.transpose() * qdot_minus;
  const ContactOutcome outcome = solve_impact(p);
  out.verdict = outcome.verdict;
  if (!outcome.can_continue()) {
    out.message =
        saltus::detail::text(where, " (Moreau's law with Coulomb friction): ", outcome.message);
    if (out.verdict == Verdict::Unique) out.verdict = Verdict::NotRun;
    return out;
  }
  const ContactSolution& sol = *outcome.selected_solution();
  out.impulse_N = sol.lambda_N;
  out.qdot_plus = sol.motion;
  finish(p.mass, c.W_N, gdot_minus, qdot_minus, out);
  return out;
}

// I_S without its separating contacts (gdot_N(t-) > 0) when any member has restitution: Moreau's
// law lets such a contact take impulse without restitution beside contacts with it, and that
// impulse can add energy (dT = sum_i Lambda_i (1 - E_i) gdot_N,i(t-) / 2 > 0;
// tests/model/stacked_balls_model_test.cpp). Used only when the whole set gains energy; the left
// out contact's guard then fires at the same instant if the others drive it into the surface
// (each such impact dissipates). Without restitution the law dissipates, dT = -Lambda^T G
// Lambda / 2 <= 0 ([LB]'s inelastic law, oracle lcp.impact.*), and the set is kept.
std::vector<int> lcp_members(const LagrangianModel& m, const std::vector<int>& contacts,
                             ConstVectorRef q, ConstVectorRef qdot_minus) {
  const bool restitution = std::any_of(contacts.begin(), contacts.end(),
                                       [&m](int i) { return m.contact(i).law.e > 0.0; });
  if (!restitution) return contacts;
  const double rate_tol = 1e-12 * (1.0 + qdot_minus.lpNorm<Eigen::Infinity>());
  std::vector<int> members{contacts.front()};
  for (size_t j = 1; j < contacts.size(); ++j) {
    if (m.gap_gradient(contacts[j], q).dot(qdot_minus) <= rate_tol) members.push_back(contacts[j]);
  }
  return members;
}

// Moreau's law over `contacts` (all of them in the LCP).
SimultaneousImpact resolve_over(const LagrangianModel& m, const std::vector<int>& contacts,
                                double t, ConstVectorRef q, ConstVectorRef qdot_minus) {
  SimultaneousImpact out;
  out.contacts = contacts;
  const std::string where = saltus::detail::text("model '", m.name(), "': simultaneous impact of ",
                                                 contact_names(m, contacts), " at t = ", t);
  const bool frictional = std::any_of(contacts.begin(), contacts.end(),
                                      [&m](int i) { return m.contact(i).frictional(); });
  if (frictional) return resolve_frictional(m, contacts, where, t, q, qdot_minus);
  const int n = m.dof();
  const int k = static_cast<int>(contacts.size());
  const Matrix M = m.mass_matrix(q);
  const Eigen::LLT<Matrix> llt(M);
  Matrix W(n, k);
  Vector gdot_minus(k), q_lcp(k);
  for (int j = 0; j < k; ++j) {
    W.col(j) = m.gap_gradient(contacts[j], q);
    gdot_minus[j] = W.col(j).dot(qdot_minus);
    q_lcp[j] = moreau_rate(gdot_minus[j], m.contact(contacts[j]).law.e);
  }
  const Matrix motion_map = llt.solve(W);  // M^-1 W_N: qdot+ - qdot- per unit impulse
  const Matrix G = W.transpose() * motion_map;
  lcp::LcpEnumerationOptions options;
  options.max_size = std::max(options.max_size, k);
  const lcp::LcpEnumerationResult enumerated =
      lcp::enumerate_lcp_solutions(G, q_lcp, options, &motion_map);

  const double scale = 1.0 + qdot_minus.lpNorm<Eigen::Infinity>();
  const double motion_tol = 1e-9 * scale;  // ContactSolveOptions::motion_tolerance
  bool several = false;
  for (const lcp::LcpFace& face : enumerated.singular_faces) {
    if ((face.observable_max - face.observable_min).lpNorm<Eigen::Infinity>() > motion_tol) {
      several = true;
    }
  }
  for (size_t s = 1; s < enumerated.solutions.size(); ++s) {
    const Vector diff = motion_map * (enumerated.solutions[s].z - enumerated.solutions[0].z);
    if (diff.lpNorm<Eigen::Infinity>() > motion_tol) several = true;
  }
  if (!enumerated.has_solution()) {
    out.verdict = Verdict::None;
    out.message = saltus::detail::text(where, ": the impact LCP has no solution (verdict ",
                                       to_string(out.verdict), ")");
    return out;
  }
  if (several) {
    out.verdict = Verdict::Several;
    out.message =
        saltus::detail::text(where, ": the impact LCP has ", enumerated.solutions.size(),
                             " solutions moving the system differently (verdict ",
                             to_string(out.verdict), "); no impulse distribution is chosen");
    return out;
  }
  out.verdict = Verdict::Unique;
  out.impulse_N = enumerated.solutions[0].z;
  out.qdot_plus = qdot_minus + motion_map * out.impulse_N;
  finish(M, W, gdot_minus, qdot_minus, out);
  return out;
}

}  // namespace

SimultaneousImpact resolve_simultaneous_impact(const LagrangianModel& m,
                                               const std::vector<int>& impact_set, double t,
                                               ConstVectorRef q, ConstVectorRef qdot_minus) {
  SimultaneousImpact all = resolve_over(m, impact_set, t, q, qdot_minus);
  if (!all.resolved()) return all;
  const double kinetic = 0.5 * qdot_minus.dot(m.mass_matrix(q) * qdot_minus);
  if (all.energy_change <= 1e-12 * std::max(kinetic, 1e-300)) return all;
  // Energy gained through a separating contact beside restitution: resolve without it (it
  // takes its own impact at the same instant if the others drive it into the surface).
  const std::vector<int> members = lcp_members(m, impact_set, q, qdot_minus);
  if (members.size() == impact_set.size()) return all;
  return resolve_over(m, members, t, q, qdot_minus);
}

bool simultaneous_impact_jump(const LagrangianModel& m, const std::vector<int>& set, double t,
                              ConstVectorRef x, Jump& jump, unsigned& closed) {
  const int n = m.dof();
  closed = 0;
  const SimultaneousImpact imp = resolve_simultaneous_impact(m, set, t, x.head(n), x.tail(n));
  if (!imp.resolved()) {
    jump.failure = imp.message;
    return false;
  }
  jump.x_plus.head(n) = x.head(n);
  jump.x_plus.segment(n, n) = imp.qdot_plus;
  jump.outputs[0] = 0.0;
  jump.outputs[1] = imp.impulse_N[0];
  jump.outputs[2] = imp.energy_change;
  for (int i : imp.closed_after) closed |= 1u << i;
  return true;
}

}  // namespace saltus::mech::detail
