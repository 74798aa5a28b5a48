// Simultaneous impacts over I_S; see src/mech/multi_contact_impact.hpp.
#include "multi_contact_impact.hpp"

#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/mech/contact_state.hpp"
#include "saltus/mech/contact_stop.hpp"
#include "saltus/mech/impact_problem.hpp"
#include "saltus/mech/newton_coulomb_law.hpp"

namespace saltus::mech::detail {

std::string contact_names(const LagrangianModel& m, const std::vector<int>& contacts) {
  std::string out;
  for (size_t k = 0; k < contacts.size(); ++k) {
    out += (k ? ", '" : "'") + m.contact(contacts[k]).name + "'";
  }
  return out;
}

// Whether rigid contact i joins I_S of an impact at (q, qdot): touching (contact_state.hpp), or
// approaching and reaching its surface within `lead`, the time the located state may precede the
// fired contact's impact. No allocation, so the single-contact path stays allocation-free.
// A contact whose `when` fails there does not join (a walker's foot behind the stance foot).
static bool joins_impact(const LagrangianModel& m, double t, int i, int fired, unsigned closed,
                         const DofVector<double>& q, const DofVector<double>& qdot, double lead,
                         const double* q_scale) {
  if (i == fired || !m.contact(i).rigid()) return false;
  if ((closed >> i) & 1u) return true;
  if (!m.contact(i).may_be_hit(t, q, qdot)) return false;
  const double g = m.contact(i).gap(q);
  if (g <= 0.0) return true;  // touching, approaching or not (see the header)
  DofVector<double> w;
  gradient(m.contact(i).gap, q, w);
  return g <= touching_band(w, q, g, q_scale) + std::max(-w.dot(qdot), 0.0) * lead;
}

std::vector<int> simultaneous_impact_set(const LagrangianModel& m, double t, int fired,
                                         unsigned closed, ConstVectorRef q, ConstVectorRef qdot,
                                         const double* state_scales) {
  if (m.contact_count() < 2) return {};  // the fired contact alone: nothing to compute
  const int n = m.dof();
  const DofVector<double> qv = load<double>(q, 0, n), vv = load<double>(qdot, 0, n);
  // The located state is on either side of the fired contact's impact by its residual gap: a
  // contact that lands at the same instant is as far from its own (time = gap / approach rate).
  // Only while the fired contact approaches faster than its rest level (the round-off of its
  // rate at the run's velocity scales): at rest there is no approach to measure a lead by (a
  // residual gap 2.2e-19 over a rate -1.2e-24 after a Moreau-Jean stretch gave 1.8e5 s, and the
  // woodpecker's beak, 6.5 mm from the pole, joined a sleeve impact; issue 46).
  double lead = 0.0;
  {
    const SecondOrderJet g = along(m.contact(fired).gap, qv, vv);
    DofVector<double> w;
    gradient(m.contact(fired).gap, qv, w);
    const double rest = kEventRestRate * scale_along(w, contact_scales(state_scales, q, qdot).qdot);
    if (g.v > 0.0 && g.d1 < -rest) lead = g.v / -g.d1;
  }
  int others = 0;
  for (int i = 0; i < m.contact_count(); ++i) {
    others += joins_impact(m, t, i, fired, closed, qv, vv, lead, state_scales);
  }
  if (others == 0) return {};  // d alone: no allocation
  std::vector<int> set{fired};
  for (int i = 0; i < m.contact_count(); ++i) {
    if (joins_impact(m, t, i, fired, closed, qv, vv, lead, state_scales)) set.push_back(i);
  }
  return set;
}

// T+ - T- and the contacts of I_S left with gdot_N(t+) = 0 (to 1e-12 of the largest approach) or
// separating too slowly for their bounce to be resolved.
void finish(const Matrix& M, const Matrix& W_N, ConstVectorRef qdot_minus, const ContactScales& s,
            SimultaneousImpact& out) {
  out.rate_N = W_N.transpose() * out.qdot_plus;
  out.energy_change =
      0.5 * out.qdot_plus.dot(M * out.qdot_plus) - 0.5 * qdot_minus.dot(M * qdot_minus);
  for (Eigen::Index j = 0; j < out.rate_N.size(); ++j) {
    const double scale = scale_along(W_N.col(j), s.qdot);
    const double rate_tol = kEventRestRate * scale;
    // Leaving slower than 1e-8 of the velocity scale, the bounce is below the round-off of
    // the gap (5e-18 m at 1e-8 m/s under g) and its return cannot be located: closed.
    const double unresolved = 1e-8 * scale;
    if (std::abs(out.rate_N[j]) <= rate_tol ||
        (out.rate_N[j] > 0.0 && out.rate_N[j] <= unresolved)) {
      out.closed_after.push_back(out.contacts[j]);
    }
  }
}

namespace {

// With Coulomb friction: the Newton-Coulomb law (newton_coulomb_law.hpp), the impact LCP
// (2.17)-(2.18) of impact_problem.hpp posed with gdot_N(t-) scaled by (1 + e_i) and gdot_T(t-) by
// (1 + e_t,i) (e_t of a newton_coulomb contact, 0 for the other laws: sticking means
// gdot_T(t+) = 0); qdot+ = qdot- + M^-1 (W_N Lambda_N + W_T Lambda_T) does not depend on that
// scaling. Frictionless members take part with mu = 0.
SimultaneousImpact resolve_frictional(const LagrangianModel& m, const std::vector<int>& contacts,
                                      const std::string& where, double t, ConstVectorRef q,
                                      ConstVectorRef qdot_minus, const ContactScales& s) {
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
  c.gdot_T.resize(k);
  for (int j = 0; j < k; ++j) {
    const LagrangianContact& contact = m.contact(contacts[j]);
    c.W_N.col(j) = m.gap_gradient(contacts[j], q);
    if (contact.frictional()) {
      c.W_T.col(j) = m.tangent_gradient(contacts[j], q);
      c.mu[j] = contact.law.mu;
    }
    const double e_t = contact.law.kind == ImpactLawKind::NewtonCoulomb ? contact.law.e_t : 0.0;
    c.gdot_N[j] = newton_restitution_rate(c.W_N.col(j).dot(qdot_minus), contact.law.e);
    c.gdot_T[j] = tangential_restitution_rate(c.W_T.col(j).dot(qdot_minus), e_t);
    p.sets.I_S.push_back(j);
  }
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
  out.impulse_T = sol.lambda_T;
  out.qdot_plus = sol.motion;
  finish(p.mass, c.W_N, qdot_minus, s, out);
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
                             ConstVectorRef q, ConstVectorRef qdot_minus, const ContactScales& s) {
  const bool restitution = std::any_of(contacts.begin(), contacts.end(),
                                       [&m](int i) { return m.contact(i).law.e > 0.0; });
  if (!restitution) return contacts;
  std::vector<int> members{contacts.front()};
  for (size_t j = 1; j < contacts.size(); ++j) {
    const Vector w = m.gap_gradient(contacts[j], q);
    if (w.dot(qdot_minus) <= kEventRestRate * scale_along(w, s.qdot)) {
      members.push_back(contacts[j]);
    }
  }
  return members;
}

// Moreau's law over `contacts` (all of them in the LCP).
SimultaneousImpact resolve_over(const LagrangianModel& m, const std::vector<int>& contacts,
                                double t, ConstVectorRef q, ConstVectorRef qdot_minus,
                                const ContactScales& s) {
  SimultaneousImpact out;
  out.contacts = contacts;
  const std::string where = saltus::detail::text("model '", m.name(), "': simultaneous impact of ",
                                                 contact_names(m, contacts), " at t = ", t);
  const bool frictional = std::any_of(contacts.begin(), contacts.end(),
                                      [&m](int i) { return m.contact(i).frictional(); });
  if (frictional) return resolve_frictional(m, contacts, where, t, q, qdot_minus, s);
  if (std::any_of(contacts.begin(), contacts.end(),
                  [&m](int i) { return m.contact(i).spatial_frictional(); })) {
    return resolve_in_space(m, contacts, where, q, qdot_minus, s);
  }
  const int n = m.dof();
  const int k = static_cast<int>(contacts.size());
  const Matrix M = m.mass_matrix(q);
  const Eigen::LLT<Matrix> llt(M);
  Matrix W(n, k);
  Vector gdot_minus(k), q_lcp(k);
  for (int j = 0; j < k; ++j) {
    W.col(j) = m.gap_gradient(contacts[j], q);
    gdot_minus[j] = W.col(j).dot(qdot_minus);
    q_lcp[j] = newton_restitution_rate(gdot_minus[j], m.contact(contacts[j]).law.e);
  }
  const Matrix motion_map = llt.solve(W);  // M^-1 W_N: qdot+ - qdot- per unit impulse
  const Matrix G = W.transpose() * motion_map;
  lcp::LcpEnumerationOptions options;
  options.max_size = std::max(options.max_size, k);
  const lcp::LcpEnumerationResult enumerated =
      lcp::enumerate_lcp_solutions(G, q_lcp, options, &motion_map);

  // Two motions differ when their difference is beyond 1e-9 of the motion before the impact,
  // both measured in the kinetic metric (units of velocity of every coordinate weighed alike).
  const auto kinetic_norm = [&M](const Vector& v) { return std::sqrt(v.dot(M * v)); };
  const double motion_tol = 1e-9 * kinetic_norm(qdot_minus);  // ContactSolveOptions's 1e-9
  bool several = false;
  for (const lcp::LcpFace& face : enumerated.singular_faces) {
    if (kinetic_norm(face.observable_max - face.observable_min) > motion_tol) several = true;
  }
  for (size_t j = 1; j < enumerated.solutions.size(); ++j) {
    const Vector diff = motion_map * (enumerated.solutions[j].z - enumerated.solutions[0].z);
    if (kinetic_norm(diff) > motion_tol) several = true;
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
  out.impulse_T = Vector::Zero(k);
  out.qdot_plus = qdot_minus + motion_map * out.impulse_N;
  finish(M, W, qdot_minus, s, out);
  return out;
}

}  // namespace

SimultaneousImpact resolve_simultaneous_impact(const LagrangianModel& m,
                                               const std::vector<int>& impact_set, double t,
                                               ConstVectorRef q, ConstVectorRef qdot_minus,
                                               const double* state_scales) {
  const ContactScales s = contact_scales(state_scales, q, qdot_minus);
  SimultaneousImpact all = resolve_over(m, impact_set, t, q, qdot_minus, s);
  if (!all.resolved()) return all;
  const double kinetic = 0.5 * qdot_minus.dot(m.mass_matrix(q) * qdot_minus);
  // A super-elastic contact in the set (the model said so: ContactImpactLaw::superelastic) gains
  // energy by design: its impacts are not refused for it.
  const auto superelastic = [&m](const SimultaneousImpact& imp) {
    return std::any_of(imp.contacts.begin(), imp.contacts.end(),
                       [&m](int i) { return m.contact(i).law.superelastic; });
  };
  const auto gains_energy = [kinetic, &superelastic](const SimultaneousImpact& imp) {
    return imp.energy_change > 1e-12 * std::max(kinetic, 1e-300) && !superelastic(imp);
  };
  if (!gains_energy(all)) return all;
  // Energy gained through a separating contact beside restitution: resolve without it (it
  // takes its own impact at the same instant if the others drive it into the surface).
  const std::vector<int> members = lcp_members(m, impact_set, q, qdot_minus, s);
  SimultaneousImpact fewer =
      members.size() == impact_set.size() ? all : resolve_over(m, members, t, q, qdot_minus, s);
  if (!fewer.resolved() || !gains_energy(fewer)) return fewer;
  // No impact may create energy (issue 34: the frictional path returned such a solution).
  fewer.verdict = Verdict::NotRun;
  fewer.message = saltus::detail::text(
      "model '", m.name(), "': simultaneous impact of ", contact_names(m, fewer.contacts),
      " at t = ", t, ": the only impulses found gain kinetic energy (", fewer.energy_change, " on ",
      kinetic, "); no post-impact state is taken");
  return fewer;
}

bool simultaneous_impact_jump(const LagrangianModel& m, const std::vector<int>& set, double t,
                              ConstVectorRef x, Jump& jump, unsigned& closed) {
  const int n = m.dof();
  closed = 0;
  const SimultaneousImpact imp =
      resolve_simultaneous_impact(m, set, t, x.head(n), x.tail(n), jump.state_scales);
  if (!imp.resolved()) {
    jump.failure = imp.message;
    jump.cause = code(ContactStop::ImpactWithoutAnswer);
    return false;
  }
  jump.x_plus.head(n) = x.head(n);
  jump.x_plus.segment(n, n) = imp.qdot_plus;
  jump.outputs[0] = imp.impulse_T[0];
  jump.outputs[1] = imp.impulse_N[0];
  jump.outputs[2] = imp.energy_change;
  for (int i : imp.closed_after) closed |= 1u << i;
  if (jump.note) *jump.note = simultaneous_impact_note(m, imp, x.head(n), x.tail(n));
  return true;
}

std::string simultaneous_impact_note(const LagrangianModel& m, const SimultaneousImpact& imp,
                                     ConstVectorRef q, ConstVectorRef qdot_minus) {
  bool frictional = false, in_space = !imp.impulse_slip.empty();
  for (int i : imp.contacts) frictional = frictional || m.contact(i).frictional();
  std::ostringstream out;
  out.precision(10);
  out << "simultaneous impact of " << contact_names(m, imp.contacts) << " ("
      << (in_space     ? "Newton's law with Coulomb's cone in space per contact over one cone "
                         "contact problem"
          : frictional ? "Newton-Coulomb law per contact over one impact LCP"
                       : "Newton's law per contact over one impact LCP")
      << (imp.equal_compliance ? "; its dependent contacts' several answers closed by the rigid "
                                 "limit of equal compliance"
                               : "");
  // The other laws (Routh's processes, Chatterjee-Ruina, naive) are built for one contact: in a
  // simultaneous impact they take Newton's e with e_t = 0, and the note says so.
  std::vector<int> single;
  for (int i : imp.contacts) {
    const ImpactLawKind kind = m.contact(i).law.kind;
    if (kind != ImpactLawKind::NewtonFrictionless && kind != ImpactLawKind::NewtonCoulomb)
      single.push_back(i);
  }
  if (!single.empty()) {
    out << "; the one-contact law of " << contact_names(m, single)
        << " taken as Newton's e with e_t = 0";
  }
  out << "); per contact: ";
  const Vector dq = imp.qdot_plus - qdot_minus;
  for (size_t k = 0; k < imp.contacts.size(); ++k) {
    const int i = imp.contacts[k];
    const auto j = static_cast<Eigen::Index>(k);
    // Its share of T+ - T-: the work of its impulses at the mean of its rates before and after
    // (the shares sum to T+ - T-, qdot+ - qdot- = M^-1 (W_N Lambda_N + W_T Lambda_T)).
    const Vector w_N = m.gap_gradient(i, q);
    double share = imp.impulse_N[j] * w_N.dot(qdot_minus + 0.5 * dq);
    if (m.contact(i).frictional()) {
      const Vector w_T = m.tangent_gradient(i, q);
      share += imp.impulse_T[j] * w_T.dot(qdot_minus + 0.5 * dq);
    }
    if (in_space && m.contact(i).spatial_frictional()) {
      const DofVector<double> qv = load<double>(q, 0, m.dof());
      for (size_t r = 0; r < 2; ++r) {
        DofVector<double> eta;
        m.contact(i).slip[r](qv, eta);
        share += imp.impulse_slip[k][r] * eta.dot(qdot_minus + 0.5 * dq);
      }
    }
    out << (k ? "; '" : "'") << m.contact(i).name << "' impulse_n " << imp.impulse_N[j]
        << ", impulse_t " << imp.impulse_T[j] << ", energy_change " << share;
  }
  return out.str();
}

}  // namespace saltus::mech::detail
