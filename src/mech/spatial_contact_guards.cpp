// One rigid contact with Coulomb friction in space held closed (compiled_lagrangian.hpp): which
// closed state it takes (stick inside the cone, slip otherwise), the guards of its sliding and
// sticking modes, and the projection that keeps a sticking contact at rest. The dynamics are in
// spatial_friction_dynamics.hpp. A contact with rolling resistance closes and guards its modes in
// spatial_rolling_contact.cpp, with the guards and resets shared here (stop_reset,
// start_from_rest).
//
// Transitions (lagrangian_model.hpp, "Friction in space"):
//   slip:  "painleve:<c>" B reaches kJamMargin w_N^T M^-1 w_N -> Lecornu's impact without
//          collision by Routh's process in space (impact_resets.cpp), or the run ends
//          (ContactStop::Painleve) where it has no answer; "lift-off:<c>" lambda_N = 0 -> open;
//          "stick:<c>" the slip speed falls to kStickGuardOffset of its scale -> the slip removed,
//          then stick or slip again by the stick forces (a slip from rest starts along -lambda_T)
//   stick: "lift-off:<c>"; "slip:<c>" |lambda_T| reaches mu_s lambda_N -> slip from rest
#include <cmath>
#include <string>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "mode_quantity.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"

namespace saltus::mech::detail {

namespace {

// The velocity rows [w_N eta_1^T ... eta_k^T] of contact ci at q (k = c.slip_rows()).
std::array<DofVector<double>, 1 + kMaxSlipRows> velocity_rows(const LagrangianContact& c,
                                                              const DofVector<double>& q) {
  std::array<DofVector<double>, 1 + kMaxSlipRows> rows;
  gradient(c.gap, q, rows[0]);
  for (int k = 0; k < c.slip_rows(); ++k) {
    c.slip[static_cast<size_t>(k)](q, rows[static_cast<size_t>(k + 1)]);
  }
  return rows;
}

// "(a, b)" or "(a, b, c)" for messages: the first `rows` entries.
std::string slip_text(const std::array<double, kMaxSlipRows>& v, int rows) {
  std::string out = "(";
  for (int k = 0; k < rows; ++k) out += (k ? ", " : "") + saltus::detail::text(v[k]);
  return out + ")";
}

double norm_of(const std::array<double, kMaxSlipRows>& v, int rows) {
  double sum = 0.0;
  for (int k = 0; k < rows; ++k) sum += v[k] * v[k];
  return std::sqrt(sum);
}

// x+ = (q, qd without contact ci's slip, or with `rolling` without its rolling rates), the other
// rates kept; generic in the scalar (Reset::to_ad derives its Jacobian).
auto without_slip(const Context& ctx, int ci, bool rolling = false) {
  return [ctx, ci, rolling](const auto&, const auto& x, const auto&, auto& xp) {
    using S = std::decay_t<decltype(x[0])>;
    const int n = ctx->n;
    const DofVector<S> q = load<S>(x, 0, n);
    DofVector<S> qd = load<S>(x, n, n);
    const std::array<double, kMaxSlipRows> zero{};
    const std::array<double, 2> zero_roll{};
    set_contact_rates(ctx->model, ci, q, qd, rolling ? nullptr : &zero,
                      rolling ? &zero_roll : nullptr);
    for (int k = 0; k < n; ++k) {
      xp[k] = q[k];
      xp[n + k] = qd[k];
    }
  };
}

}  // namespace

Reset start_from_rest(const Context& ctx, int ci, const LagrangianMode& held, ModeId target,
                      bool rolling) {
  Reset r = Reset::to_ad(target, without_slip(ctx, ci, rolling));
  r.apply = [ctx, ci, held, rolling](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
    const int n = ctx->n;
    const LagrangianModel& m = ctx->model;
    const LagrangianContact& c = m.contact(ci);
    const DofVector<double> q = load<double>(x, 0, n);
    DofVector<double> qd = load<double>(x, n, n);
    const ContactDynamics d = m.dynamics(held, t, q, qd);
    const int rows = rolling ? 2 : c.slip_rows();
    const std::array<double, kMaxSlipRows> f =
        rolling ? std::array<double, kMaxSlipRows>{d.lambda_R1, d.lambda_R2, 0.0}
                : std::array<double, kMaxSlipRows>{d.lambda_T, d.lambda_T2, d.lambda_T3};
    const double force = norm_of(f, rows);
    double scale = 0.0, resolution = 0.0;
    std::array<DofVector<double>, kMaxSlipRows> W;
    for (int k = 0; k < rows; ++k) {
      const ConstraintRow& row =
          rolling ? c.roll[static_cast<size_t>(k)] : c.slip[static_cast<size_t>(k)];
      row(q, W[static_cast<size_t>(k)]);
    }
    for (int j = 0; j < n; ++j) {
      double along = 0.0;
      for (int k = 0; k < rows; ++k) along += std::abs(W[static_cast<size_t>(k)][j]);
      if (jump.state_scales != nullptr) scale += along * jump.state_scales[n + j];
      if (jump.state_atol != nullptr) resolution += along * jump.state_atol[n + j];
    }
    const double start = force > 0.0 ? onset_slip_speed(scale, resolution) / force : 0.0;
    if (rolling) {
      const std::array<double, 2> roll{-start * f[0], -start * f[1]};
      set_contact_rates(m, ci, q, qd, nullptr, &roll);
    } else {
      remove_slip(m, ci, q, qd, {-start * f[0], -start * f[1], -start * f[2]});
    }
    VectorRef xp = jump.state_after();
    xp.head(n) = q;
    xp.segment(n, n) = qd;
    return true;
  };
  return r;
}

LagrangianMode close_spatial_contact(const LagrangianModel& m, int i, double t, ConstVectorRef q,
                                     ConstVectorRef qdot, unsigned mask, bool at_rest,
                                     bool roll_at_rest) {
  const LagrangianContact& c = m.contact(i);
  if (c.has_rolling_resistance()) {
    return close_rolling_contact(m, i, t, q, qdot, mask, at_rest, roll_at_rest);
  }
  const LagrangianMode open{-1, ClosedKind::None, mask}, stick{i, ClosedKind::SpatialStick, mask},
      slip{i, ClosedKind::SpatialSlip, mask};
  const DofVector<double> qv = load<double>(q, 0, m.dof());
  DofVector<double> qdv = load<double>(qdot, 0, m.dof());
  SlipKinematics<double> kt;
  slip_kinematics(c, qv, qdv, kt);
  const int rows = c.slip_rows();
  const double speed = std::sqrt(kt.speed2());
  const bool rests = at_rest || speed <= kSlipRestFraction * kt.terms;
  ContactDynamics held;
  std::array<double, kMaxSlipRows> held_f{};
  if (rests) {
    held = m.dynamics(stick, t, q, qdot);
    if (!(held.lambda_N > 0.0)) return open;
    held_f = {held.lambda_T, held.lambda_T2, held.lambda_T3};
    if (norm_of(held_f, rows) <= c.law.static_mu() * held.lambda_N) return stick;
    remove_slip(m, i, qv, qdv);  // the slip flow then starts along -lambda_T
  }
  const ContactDynamics d = m.dynamics(slip, t, qv, qdv);
  if (rests && d.B > 0.0 && d.lambda_N > 0.0) {
    // Slip from rest against the stick force must speed up: d/dt |gamma| = a_T . d >= 0, d the
    // friction force's opposite. Where it slows down instead, neither stick (the force is outside
    // the cone) nor slip along d is consistent, and the run would flip between them at one
    // instant (or grind along gamma = 0 in the slip flow).
    SlipKinematics<double> now;
    slip_kinematics(c, qv, qdv, now);
    const std::array<double, kMaxSlipRows> f{d.lambda_T, d.lambda_T2, d.lambda_T3};
    const double force = norm_of(f, rows);
    double rate = 0.0, scale = 0.0;
    for (int k = 0; k < rows; ++k) {
      const double a = now.w[k].dot(d.qddot) + now.what[k];
      rate += a * (-f[k] / force);
      scale += std::abs(now.w[k].dot(d.qddot)) + std::abs(now.what[k]);
    }
    if (rate < -1e-9 * scale) {
      throw ContactStopError(
          ContactStop::Painleve,
          saltus::detail::text(
              c.description, ": at t = ", t, " the contact can neither stick (its stick force ",
              slip_text(held_f, rows),
              " lies outside the cone mu_s lambda_N = ", c.law.static_mu() * held.lambda_N,
              ") nor slip against it (the slip speed would ", "fall at ", rate,
              "): no consistent contact mode (Painleve); lower mu or change ", "the geometry"));
    }
  }
  if (!(d.B > 0.0)) {
    throw ContactStopError(
        ContactStop::Painleve,
        saltus::detail::text(
            c.description, ": at t = ", t, " the contact would slide in space (slip velocity ",
            slip_text(kt.gamma, rows), ", friction force ",
            slip_text({d.lambda_T, d.lambda_T2, d.lambda_T3}, rows),
            ") with B = w_N^T M^-1 (w_N - mu W_T d) = ", d.B, " <= 0 at mu = ", c.law.mu,
            ": Painleve (no or several contact forces); lower mu or change the geometry"));
  }
  return d.lambda_N > 0.0 ? slip : open;
}

Reset stop_reset(const Context& ctx, ModeId id, const LagrangianMode& mode, bool rolling) {
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
  const bool slip_rest = !rolling || mode.kind == ClosedKind::SpatialStick;
  const bool roll_rest = rolling || mode.rolling_held();
  Reset stop = Reset::to_ad(id, without_slip(ctx, ci, rolling));
  stop.chooses_target = true;
  stop.apply = [ctx, ci, mask, slip_rest, roll_rest, map = without_slip(ctx, ci, rolling)](
                   double t, ConstVectorRef x, ConstVectorRef z, Jump& jump) {
    VectorRef xp = jump.state_after();
    map(t, x, z, xp);
    const int n = ctx->n;
    jump.target = ctx->find(close_spatial_contact(ctx->model, ci, t, xp.head(n), xp.segment(n, n),
                                                  mask, slip_rest, roll_rest));
    return true;
  };
  return stop;
}

void add_slip_stop_guard(HybridSystem& sys, ModeId id, const Context& ctx,
                         const LagrangianMode& mode) {
  // The slip speed falls to the level counted as rest (a falling guard: |gamma| >= 0 never
  // crosses zero).
  Guard g = make_guard("stick:" + ctx->model.contact(mode.closed_contact).name, Direction::Falling,
                       of_dynamics(ctx, mode, [](const auto& d) { return d.slip_speed; }),
                       stop_reset(ctx, id, mode, false));
  g.scale_offset = kStickGuardOffset;
  g.steps_land_on_crossing = true;  // the slip direction turns over at zero speed
  sys.add_guard(id, std::move(g));
}

void add_slip_onset_guard(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode, ModeId slip) {
  // The stick force reaches the cone's edge: slip from rest along it.
  const int ci = mode.closed_contact;
  sys.add_guard(
      id, make_guard("slip:" + ctx->model.contact(ci).name, Direction::Rising,
                     of_dynamics(ctx, mode,
                                 [ctx, ci](const auto& d) {
                                   using std::sqrt;
                                   // mu_s read now: it may follow a run-time parameter.
                                   const double mu = ctx->model.contact(ci).law.static_mu();
                                   // lambda_T3 is 0 without drilling friction.
                                   return sqrt(d.lambda_T * d.lambda_T + d.lambda_T2 * d.lambda_T2 +
                                               d.lambda_T3 * d.lambda_T3) -
                                          mu * d.lambda_N;
                                 }),
                     start_from_rest(ctx, ci, mode, slip, false)));
}

void add_spatial_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                const LagrangianMode& mode) {
  if (ctx->model.contact(mode.closed_contact).has_rolling_resistance()) {
    add_rolling_contact_guards(sys, id, ctx, mode);
    return;
  }
  const LagrangianContact& c = ctx->model.contact(mode.closed_contact);
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
  const ModeId slip = ctx->find({ci, ClosedKind::SpatialSlip, mask});
  if (mode.kind == ClosedKind::SpatialSlip) {
    // B reaches zero while sliding (FORMULAS.md 11.1), at the margin of the planar guard.
    sys.add_guard(
        id,
        make_guard("painleve:" + c.name, Direction::Rising,
                   of_dynamics(ctx, mode,
                               [](const auto& d) { return -(d.B / d.normal_metric) + kJamMargin; }),
                   spatial_lecornu_reset(ctx, ci, mask)));
  }
  sys.add_guard(id, make_guard("lift-off:" + c.name, Direction::Rising,
                               of_dynamics(ctx, mode, [](const auto& d) { return -d.lambda_N; }),
                               Reset::to(ctx->open(mask))));
  if (mode.kind == ClosedKind::SpatialSlip) {
    add_slip_stop_guard(sys, id, ctx, mode);
  } else {
    add_slip_onset_guard(sys, id, ctx, mode, slip);
  }
}

InvariantProjection spatial_contact_projection(const Context& ctx, const LagrangianMode& mode) {
  InvariantProjection p;
  const int ci = mode.closed_contact;
  const LagrangianContact& c = ctx->model.contact(ci);
  const bool slip_held = mode.kind == ClosedKind::SpatialStick, roll_held = mode.rolling_held();
  const int slips = slip_held ? c.slip_rows() : 0, rolls = roll_held ? 2 : 0;
  p.count = 2 + slips + rolls;  // g_N, gdot_N, the held slip and rolling rates
  p.values = [ctx, ci, slips, rolls](ConstVectorRef x, VectorRef v) {
    const int n = ctx->n;
    const LagrangianContact& c = ctx->model.contact(ci);
    const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
    const auto W = velocity_rows(c, q);
    v[0] = c.gap(q);
    v[1] = W[0].dot(qd);
    for (int k = 0; k < slips; ++k) v[2 + k] = W[static_cast<size_t>(k + 1)].dot(qd);
    DofVector<double> row;
    for (int k = 0; k < rolls; ++k) {
      c.roll[static_cast<size_t>(k)](q, row);
      v[2 + slips + k] = row.dot(qd);
    }
  };
  p.project = [ctx, ci, slip_held, roll_held, normal = std::vector<int>{ci}](ConstVectorRef target,
                                                                             VectorRef x) {
    const int n = ctx->n;
    const Eigen::Matrix<double, 1, 1> zero = Eigen::Matrix<double, 1, 1>::Zero();
    if (!project_onto_contacts(ctx->model, normal, {}, target.head(1), zero, x.head(n),
                               x.segment(n, n))) {
      return false;
    }
    const DofVector<double> q = load<double>(x, 0, n);
    DofVector<double> qd = load<double>(x, n, n);
    const std::array<double, kMaxSlipRows> no_slip{};
    const std::array<double, 2> no_roll{};
    set_contact_rates(ctx->model, ci, q, qd, slip_held ? &no_slip : nullptr,
                      roll_held ? &no_roll : nullptr);
    x.segment(n, n) = qd;
    return qd.allFinite();
  };
  return p;
}

}  // namespace saltus::mech::detail
