// Closed rigid contacts kept on their constraint manifold (compiled_lagrangian.hpp): the flow of
// a closed mode enforces gddot_N = 0 (and gddot_T = 0 while sticking), an index-1 form of the
// position constraint g_N(q) = 0, so the integrator's local errors make g_N and gdot_N drift,
// g_N quadratically in time (measured on a particle in a circular bowl: 4.9e-5 after 200 s at
// rtol 1e-8). Projection after every accepted step (core/invariant_projection.hpp) keeps the
// gaps at the values they had when the mode was entered and the rates (gdot_N, and gdot_T while
// sticking) at zero: a contact closed at an event located to 2 ulps in time keeps a residual
// rate there (gdot_T = 1e-11 on a stick entered from sliding), and a sliding mode entered with
// that residual on the wrong side finds its own stick guard already crossed (stick and slip
// then flip at one instant until the event cap).
// The Zeno hand-overs project the limit state the same way (one contact, several contacts).
#include <Eigen/QR>
#include <array>
#include <cmath>
#include <string>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

namespace {

// Fixed capacities (no heap allocation at the per-step projection): at most kMaxDof closed
// contacts, each with a normal and possibly a tangential row.
constexpr int kMaxRows = 2 * kMaxDof;
using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxRows>;
using RowSquare = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows>;
using RowVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1>;

// The gradients of the contact functions `fns` at q as columns of W, and M^-1 W in MW.
using Functions = std::array<const ConfigurationFunction*, kMaxRows>;

void gradients(const LagrangianModel& m, const Functions& fns, int r, const DofVector<double>& q,
               RowBlock& W, RowBlock& MW) {
  const int n = m.dof();
  SpdFactor<double> factor;
  factor_mass(m, q, factor);
  W.resize(n, r);
  MW.resize(n, r);
  DofVector<double> w;
  for (int j = 0; j < r; ++j) {
    gradient(*fns[static_cast<size_t>(j)], q, w);
    W.col(j) = w;
    factor.solve_in_place(w);
    MW.col(j) = w;
  }
}

// The step -M^-1 W G^+ e, G = W^T M^-1 W (minimum-norm for dependent rows). One row (one
// contact's gap, the Zeno limit state of one contact): G is the number w^T M^-1 w.
DofVector<double> correction(const RowBlock& W, const RowBlock& MW, const RowVector& e) {
  if (e.size() == 1) {
    const DofVector<double> w = W.col(0), Mw = MW.col(0);
    return -(Mw * (e[0] / w.dot(Mw)));
  }
  const RowSquare G = W.transpose() * MW;
  const RowVector y = Eigen::CompleteOrthogonalDecomposition<RowSquare>(G).solve(e);
  return -(MW * y);
}

}  // namespace

bool project_onto_contacts(const LagrangianModel& m, const std::vector<int>& normal,
                           const std::vector<int>& tangential, ConstVectorRef g_target,
                           ConstVectorRef rate_target, VectorRef q, VectorRef qdot,
                           const ProjectionSteps& rule, std::string* failure, const char* what) {
  if (normal.empty() && tangential.empty()) return true;
  const int n = m.dof(), k = static_cast<int>(normal.size());
  const int r = k + static_cast<int>(tangential.size());
  Functions rows{};  // the gaps, then the sticking contacts' tangents
  for (int j = 0; j < k; ++j)
    rows[static_cast<size_t>(j)] = &m.contact(normal[static_cast<size_t>(j)]).gap;
  for (size_t j = 0; j < tangential.size(); ++j) {
    rows[static_cast<size_t>(k) + j] = &m.contact(tangential[j]).tangent;
  }
  DofVector<double> qv = load<double>(q, 0, n), qdv = load<double>(qdot, 0, n);
  RowBlock W, MW;
  RowVector e(k), scale(r), rate_scale(r);
  // Each row's own scales (issue 34's policy, docs/ARCHITECTURE.md "Tolerances"): sum_k |w_k q_k|
  // for its value and sum_k |w_k qdot_k| for its rate, in the row's units; a norm across q mixes
  // metres and radians and is another tolerance in other units.
  {
    DofVector<double> w;
    for (int j = 0; j < r; ++j) {
      gradient(*rows[static_cast<size_t>(j)], qv, w);
      scale[j] = w.cwiseAbs().dot(qv.cwiseAbs()) + (j < k ? std::abs(g_target[j]) : 0.0);
      rate_scale[j] = w.cwiseAbs().dot(qdv.cwiseAbs()) + std::abs(rate_target[j]);
    }
  }
  if (rule.min_steps == 0) {
    // Already there (flat contacts keep g_N and its rates exactly): one jet per row, no factoring.
    bool on = true;
    for (int j = 0; j < r && on; ++j) {
      const SecondOrderJetTpl<double> g = along(*rows[static_cast<size_t>(j)], qv, qdv);
      on = std::abs(g.d1 - rate_target[j]) <= 1e-15 * rate_scale[j] &&
           (j >= k || std::abs(g.v - g_target[j]) <= 1e-15 * scale[j]);
    }
    if (on) return true;
  }
  // Every gap within its band of its target: with rule.scales, kImpactGapBand of the gap's scale
  // at qv (whose gradients W holds); without, `fraction` of the row's own scale.
  const auto within = [&](double fraction) {
    if (!rule.scales) {
      for (int j = 0; j < k; ++j) {
        if (!(std::abs(e[j]) <= fraction * scale[j])) return false;
      }
      return true;
    }
    const ContactScales& s = *rule.scales;
    for (int j = 0; j < k; ++j) {
      const auto w = W.col(j);
      if (!(std::abs(e[j]) <= detail::kImpactGapBand * detail::scale_along(w, s.q))) return false;
    }
    return true;
  };
  // Positions: Newton steps q <- q - M^-1 W G^+ (g - target).
  int steps = 0;
  for (;; ++steps) {
    for (int j = 0; j < k; ++j) e[j] = (*rows[static_cast<size_t>(j)])(qv)-g_target[j];
    if (rule.scales) gradients(m, rows, k, qv, W, MW);  // the bands are read along them
    if (steps >= rule.min_steps && within(1e-15)) break;
    if (steps == rule.max_steps) break;
    if (!rule.scales) gradients(m, rows, k, qv, W, MW);
    qv += correction(W, MW, e);
  }
  bool converged = within(1e-10);
  if (converged) {
    // Velocities (linear): qdot <- qdot - M^-1 V G^+ (V^T qdot - target), V = [W_N, W_T(stick)].
    gradients(m, rows, r, qv, W, MW);
    const RowVector excess = W.transpose() * qdv - rate_target;
    qdv += correction(W, MW, excess);
    q = qv;
    qdot = qdv;
    converged = qv.allFinite() && qdv.allFinite();
  }
  if (!converged && failure) {
    int worst = 0;  // the gap furthest from its target (a NaN first)
    for (int j = 1; j < k; ++j) {
      if (!(std::abs(e[j]) <= std::abs(e[worst]))) worst = j;
    }
    const int c = k > 0 ? normal[static_cast<size_t>(worst)] : tangential[0];
    *failure = saltus::detail::text(m.describe_contact(c), ": ", what,
                                    " could not be projected onto the contact's surface: gap ",
                                    m.contact(c).gap(qv), " after ", steps, " Newton steps");
  }
  return converged;
}

}  // namespace saltus::mech::detail

namespace saltus::mech {

std::string LagrangianModel::project_onto_contacts(const std::vector<int>& contacts,
                                                   VectorRef x) const {
  const int n = dof();
  const DofVector<double> q = detail::load<double>(x, 0, n), qdot = detail::load<double>(x, n, n);
  Vector zeros = Vector::Zero(static_cast<Eigen::Index>(contacts.size()));
  Vector rates(zeros.size());
  DofVector<double> w;
  for (size_t j = 0; j < contacts.size(); ++j) {
    detail::gradient(contact(contacts[j]).gap, q, w);
    rates[static_cast<Eigen::Index>(j)] = w.dot(qdot);
  }
  std::string failure;
  detail::project_onto_contacts(*this, contacts, {}, zeros, rates, x.head(n), x.segment(n, n), {},
                                &failure, "the initial state");
  return failure;
}

}  // namespace saltus::mech

namespace saltus::mech::detail {

InvariantProjection closed_contact_projection(const Context& ctx, const LagrangianMode& mode) {
  std::vector<int> normal, tangential;
  for (int i = 0; i < ctx->model.contact_count(); ++i) {
    if (!((closed_bits(mode) >> i) & 1u)) continue;
    normal.push_back(i);
    const bool sticks = mode.kind == ClosedKind::IndexSets ? ((mode.stick_set >> i) & 1u) != 0
                                                           : mode.kind == ClosedKind::Stick;
    if (sticks) tangential.push_back(i);
  }
  const int k = static_cast<int>(normal.size()), n = ctx->n;
  InvariantProjection p;
  p.count = 2 * k + static_cast<int>(tangential.size());
  p.values = [ctx, normal, tangential, k, n](ConstVectorRef x, VectorRef c) {
    const LagrangianModel& m = ctx->model;
    const DofVector<double> q = load<double>(x, 0, n), qdot = load<double>(x, n, n);
    DofVector<double> w;
    for (int j = 0; j < k; ++j) {
      const LagrangianContact& contact = m.contact(normal[static_cast<size_t>(j)]);
      c[j] = contact.gap(q);
      gradient(contact.gap, q, w);
      c[k + j] = w.dot(qdot);
    }
    for (size_t j = 0; j < tangential.size(); ++j) {
      gradient(m.contact(tangential[j]).tangent, q, w);
      c[2 * k + static_cast<int>(j)] = w.dot(qdot);
    }
  };
  p.project = [ctx, normal, tangential, k, n](ConstVectorRef target, VectorRef x) {
    const RowVector zero_rates = RowVector::Zero(target.size() - k);
    return project_onto_contacts(ctx->model, normal, tangential, target.head(k), zero_rates,
                                 x.head(n), x.segment(n, n));
  };
  return p;
}

// Zeno hand-over map: the limit state projected onto g_N = 0 (q along M^-1 w_N, Newton steps:
// three, and up to kMaxSteps until the gap is within kImpactGapBand of its scale) and gdot_N = 0
// (qdot <- P(q, 0) qdot, seed 000 (5.18) with e = 0). No post-Zeno state when the gap does not
// come within that band (issue 34: three steps were taken without a check). Allocates nothing
// but the message of a failure.
ZenoHandover::Apply zeno_projection(const Context& ctx, int ci) {
  return [ctx, normal = std::vector<int>{ci}](double, ConstVectorRef x, ConstVectorRef,
                                              const double* state_scales, VectorRef xp,
                                              std::string& failure) {
    constexpr int kMinSteps = 3, kMaxSteps = 12;
    const int n = ctx->n;
    const detail::ContactScales s = detail::contact_scales(state_scales, x.head(n), x.tail(n));
    const Eigen::Matrix<double, 1, 1> zero = Eigen::Matrix<double, 1, 1>::Zero();
    xp.head(2 * n) = x;
    return project_onto_contacts(ctx->model, normal, {}, zero, zero, xp.head(n), xp.segment(n, n),
                                 {kMinSteps, kMaxSteps, &s}, &failure, "the Zeno limit state");
  };
}

ZenoHandover::Apply post_zeno_projection(const Context& ctx, unsigned closed) {
  return [ctx, closed](double, ConstVectorRef x, ConstVectorRef, const double* state_scales,
                       VectorRef xp, std::string&) {
    const int n = ctx->n;
    const LagrangianModel& m = ctx->model;
    Vector q = x.head(n), qd = x.tail(n);
    const ContactScales s = contact_scales(state_scales, x.head(n), x.tail(n));
    std::vector<int> set;
    for (int i = 0; i < m.contact_count(); ++i) {
      if (!m.contact(i).rigid()) continue;
      const double g = m.gap(i, q);
      const double band = kPostZenoGapBand * scale_along(m.gap_gradient(i, q), s.q);
      if (g < -band) {  // not a settling limit: left for the index-sets guard to report
        xp.head(2 * n) = x;
        return true;
      }
      if (((closed >> i) & 1u) || g <= band) set.push_back(i);
    }
    const Vector zeros = Vector::Zero(static_cast<Eigen::Index>(set.size()));
    // A limit state that does not converge is kept as projected; the index-sets guard judges it.
    (void)project_onto_contacts(m, set, {}, zeros, zeros, q, qd);
    xp.head(n) = q;
    xp.tail(n) = qd;
    return true;
  };
}

}  // namespace saltus::mech::detail
