// Moreau-Jean time stepping at the impulse level; see include/saltus/mech/moreau_jean.hpp.
#include "saltus/mech/moreau_jean.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_state.hpp"
#include "saltus/mech/impact_problem.hpp"
#include "saltus/mech/newton_coulomb_law.hpp"

namespace saltus::mech {

const char* to_string(SteppedContact state) {
  switch (state) {
    case SteppedContact::Open:
      return "open";
    case SteppedContact::Closed:
      return "closed";
    case SteppedContact::Stick:
      return "stick";
    case SteppedContact::SlipPositive:
      return "slip+";
    case SteppedContact::SlipNegative:
      return "slip-";
  }
  return "unknown";
}

MoreauJeanStepper::MoreauJeanStepper(const LagrangianModel& model, MoreauJeanOptions options)
    : model_(model), options_(options) {
  if (!(options.theta >= 0.5 && options.theta <= 1.0)) {
    saltus::detail::throw_error("model '", model.name(), "': Moreau-Jean theta = ", options.theta,
                                "; expected a value in [1/2, 1]");
  }
  for (int i = 0; i < model.contact_count(); ++i) {
    if (!model.contact(i).rigid()) {
      saltus::detail::throw_error(model.describe_contact(i),
                                  ": compliant contacts are not stepped by Moreau-Jean (their "
                                  "forces belong to the event-driven modes)");
    }
  }
}

namespace {

// dh/dq (K) and dh/dqdot (C) at (t, q, qdot), column by column with one forward-AD direction.
void force_jacobians(const LagrangianModel& m, double t, ConstVectorRef q, ConstVectorRef qdot,
                     Matrix& K, Matrix& C) {
  const int n = m.dof();
  K.resize(n, n);
  C.resize(n, n);
  DofVector<Dual> qd(n), vd(n), h(n);
  for (int j = 0; j < 2 * n; ++j) {
    for (int i = 0; i < n; ++i) {
      qd[i] = Dual(q[i], j == i ? 1.0 : 0.0);
      vd[i] = Dual(qdot[i], j == n + i ? 1.0 : 0.0);
      h[i] = Dual(0.0);
    }
    m.eval_forces(Dual(t), qd, vd, h);
    for (int i = 0; i < n; ++i) (j < n ? K(i, j) : C(i, j - n)) = h[i].derivative();
  }
}

}  // namespace

MoreauJeanStep MoreauJeanStepper::step(double t, ConstVectorRef q, ConstVectorRef qdot,
                                       double h) const {
  const LagrangianModel& m = model_;
  const int n = m.dof(), nc = m.contact_count();
  if (q.size() != n || qdot.size() != n) {
    saltus::detail::throw_error("model '", m.name(), "': Moreau-Jean step from q, qdot of sizes ",
                                q.size(), ", ", qdot.size(), "; expected ", n);
  }
  if (!(h > 0.0) || !std::isfinite(h)) {
    saltus::detail::throw_error("model '", m.name(), "': Moreau-Jean step h = ", h,
                                "; expected a finite h > 0");
  }
  const double theta = options_.theta;
  const Vector v = qdot;
  const Matrix M = m.mass_matrix(q);  // throws when not SPD
  const Vector f0 = m.forces(t, q, v);
  Vector rhs = (1.0 - theta) * f0 + theta * m.forces(t + h, q, v);
  Matrix W_h = M;
  if (options_.linearize) {
    Matrix K, C;
    force_jacobians(m, t, q, v, K, C);
    rhs += theta * h * (K * v);
    W_h -= h * theta * C + h * h * theta * theta * K;
  }
  rhs *= h;
  const Vector v_free = v + W_h.partialPivLu().solve(rhs);
  // The impulse acts through W_h where that is symmetric positive definite (conservative
  // stiffness and damping), else through M: the impact LCP needs an SPD matrix.
  Matrix A = 0.5 * (W_h + W_h.transpose());
  if ((A - W_h).cwiseAbs().maxCoeff() > 1e-12 * W_h.cwiseAbs().maxCoeff() ||
      Eigen::LLT<Matrix>(A).info() != Eigen::Success) {
    A = M;
  }

  MoreauJeanStep out;
  out.impulse_N = out.impulse_T = Vector::Zero(nc);
  out.rate_N = out.rate_T = out.rate_N_minus = out.rate_T_minus = Vector::Zero(nc);
  out.state.assign(static_cast<size_t>(nc), SteppedContact::Open);
  // Index set: the predicted gap closes within the step.
  std::vector<Vector> w_N(static_cast<size_t>(nc)), w_T(static_cast<size_t>(nc));
  Vector what_N = Vector::Zero(nc), what_T = Vector::Zero(nc);
  const DofVector<double> qv = detail::load<double>(q, 0, n), vv = detail::load<double>(v, 0, n);
  for (int i = 0; i < nc; ++i) {
    const LagrangianContact& c = m.contact(i);
    const SecondOrderJet g = detail::along(c.gap, qv, vv);
    DofVector<double> w;
    detail::gradient(c.gap, qv, w);
    w_N[static_cast<size_t>(i)] = w;
    what_N[i] = g.d2;
    out.rate_N_minus[i] = g.d1;
    if (c.frictional()) {
      const SecondOrderJet s = detail::along(c.tangent, qv, vv);
      detail::gradient(c.tangent, qv, w);
      w_T[static_cast<size_t>(i)] = w;
      what_T[i] = s.d2;
      out.rate_T_minus[i] = s.d1;
    }
    // The predicted gap closes within the step, or is within the round-off of its terms (a gap
    // of a floor at 1e6 m moves in quanta of 1.2e-10 m).
    if (g.v + (1.0 - theta) * h * g.d1 <= touching_band(w_N[static_cast<size_t>(i)], qv, g.v)) {
      out.active.push_back(i);
    }
  }
  const int k = static_cast<int>(out.active.size());
  Vector v_plus = v_free;
  if (k > 0) {
    ImpactProblem p;
    p.mass = A;
    p.qdot_minus = v_free;
    p.time = t + h;
    PlanarContacts& pc = p.contacts;
    pc.W_N.resize(n, k);
    pc.W_T = Matrix::Zero(n, k);
    pc.g_N = pc.w_hat_N = pc.w_hat_T = pc.mu = Vector::Zero(k);
    pc.gdot_N.resize(k);
    pc.gdot_T = Vector::Zero(k);
    for (int j = 0; j < k; ++j) {
      const int i = out.active[static_cast<size_t>(j)];
      const LagrangianContact& c = m.contact(i);
      pc.W_N.col(j) = w_N[static_cast<size_t>(i)];
      const double u_minus = out.rate_N_minus[i];
      // u_N+ + e_hat u_N- as the LCP's rate: e where the contact approaches, 1 where it separates.
      const double e_hat = u_minus <= 0.0 ? c.law.e : 1.0;
      pc.gdot_N[j] = pc.W_N.col(j).dot(v_free) + e_hat * u_minus;
      if (c.frictional()) {
        pc.W_T.col(j) = w_T[static_cast<size_t>(i)];
        pc.mu[j] = c.law.mu;
        const double e_t = c.law.kind == ImpactLawKind::NewtonCoulomb ? c.law.e_t : 0.0;
        pc.gdot_T[j] = pc.W_T.col(j).dot(v_free) + e_t * out.rate_T_minus[i];
      }
      p.sets.I_S.push_back(j);
    }
    ContactSolveOptions options;
    options.selection = SelectionPolicy::LeastKineticEnergy;
    const ContactOutcome outcome = solve_impact(p, options);
    out.verdict = outcome.verdict;
    if (!outcome.can_continue()) {
      out.failure = saltus::detail::text("model '", m.name(), "': Moreau-Jean step at t = ", t,
                                         " (h = ", h, "): ", outcome.message);
      out.q = q;
      out.qdot = v;
      return out;
    }
    out.chosen = outcome.verdict != Verdict::Unique;
    const ContactSolution& sol = *outcome.selected_solution();
    v_plus = sol.motion;
    for (int j = 0; j < k; ++j) {
      const int i = out.active[static_cast<size_t>(j)];
      out.impulse_N[i] = sol.lambda_N[j];
      out.impulse_T[i] = sol.lambda_T[j];
    }
  }
  out.qdot = v_plus;
  out.q = q + h * ((1.0 - theta) * v + theta * v_plus);
  // Contact states at the step's resolution (header comment): the velocity one step of the free
  // forces gives the contact point, normal and tangential together.
  const Vector dv = v_free - v;
  for (int i = 0; i < nc; ++i) {
    const size_t ui = static_cast<size_t>(i);
    out.rate_N[i] = w_N[ui].dot(v_plus);
    const bool frictional = m.contact(i).frictional();
    if (frictional) out.rate_T[i] = w_T[ui].dot(v_plus);
    const bool active = std::find(out.active.begin(), out.active.end(), i) != out.active.end();
    const auto terms = [&](const Vector& w, double what) {
      return std::abs(w.dot(dv)) + h * std::abs(what) +
             1e-12 * (w.cwiseAbs().dot(v_plus.cwiseAbs()) + w.cwiseAbs().dot(v.cwiseAbs()));
    };
    const double resolution =
        terms(w_N[ui], what_N[i]) + (frictional ? terms(w_T[ui], what_T[i]) : 0.0);
    if (out.rate_N[i] > resolution) continue;
    // Out of the index set but on the surface to the step's resolution (gap within h v_c, or
    // within the round-off of its terms: a floor at y = 1e6 m has a gap round-off of 1e-10 m,
    // far above h v_c; contact_state.hpp), at rest normally: a contact resting under
    // theta = 1/2, whose steps lift it by O(h^2) and let it fall back, is closed, not open every
    // other step.
    if (!active) {
      const double g = m.gap(i, out.q);
      if (std::abs(g) > h * resolution + touching_band(w_N[ui], out.q, g)) continue;
    }
    if (!frictional) {
      out.state[ui] = SteppedContact::Closed;
      continue;
    }
    out.state[ui] = out.rate_T[i] > resolution    ? SteppedContact::SlipPositive
                    : out.rate_T[i] < -resolution ? SteppedContact::SlipNegative
                                                  : SteppedContact::Stick;
  }
  return out;
}

std::string settle_stepped_state(const LagrangianModel& m, const std::vector<SteppedContact>& state,
                                 VectorRef x, ConstVectorRef q_scale) {
  const int n = m.dof();
  std::vector<int> onto, closed, stick;
  const DofVector<double> q = detail::load<double>(x, 0, n);
  for (int i = 0; i < m.contact_count(); ++i) {
    if (!m.contact(i).rigid()) continue;
    const SteppedContact s = state[static_cast<size_t>(i)];
    const bool is_closed = s != SteppedContact::Open;
    if (is_closed) closed.push_back(i);
    if (s == SteppedContact::Stick) stick.push_back(i);
    if (is_closed || m.contact(i).gap(q) < 0.0) onto.push_back(i);
  }
  std::string failure;
  if (onto.empty()) return failure;
  if (q_scale.size() != n) {
    saltus::detail::throw_error("model '", m.name(), "': settle_stepped_state: q_scale has ",
                                q_scale.size(), " entries, expected ", n);
  }
  // Positions onto the surfaces (just open by the round-off margin), every rate kept as it is.
  const auto index = static_cast<Eigen::Index>(onto.size());
  Vector rates(index), margins(index);
  {
    const DofVector<double> qd = detail::load<double>(x, n, n);
    DofVector<double> w;
    for (Eigen::Index j = 0; j < index; ++j) {
      detail::gradient(m.contact(onto[static_cast<size_t>(j)]).gap, q, w);
      rates[j] = w.dot(qd);
      margins[j] = 1e-15 * detail::scale_along(w, q_scale.data());
    }
  }
  if (!detail::project_onto_contacts(m, onto, {}, margins, rates, x.head(n), x.segment(n, n), {},
                                     &failure, "the state after a Moreau-Jean stretch")) {
    return failure;
  }
  if (closed.empty()) return failure;
  // Closed contacts at rest along their normals, sticking ones along their tangents too (their
  // gaps already at their margins).
  Vector gaps(static_cast<Eigen::Index>(closed.size()));
  const DofVector<double> q_on = detail::load<double>(x, 0, n);
  for (size_t j = 0; j < closed.size(); ++j) {
    gaps[static_cast<Eigen::Index>(j)] = m.contact(closed[j]).gap(q_on);
  }
  const Vector none = Vector::Zero(static_cast<Eigen::Index>(closed.size() + stick.size()));
  detail::project_onto_contacts(m, closed, stick, gaps, none, x.head(n), x.segment(n, n), {},
                                &failure, "the state after a Moreau-Jean stretch");
  return failure;
}

}  // namespace saltus::mech
