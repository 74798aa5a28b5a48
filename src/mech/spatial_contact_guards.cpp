// One rigid contact with Coulomb friction in space held closed (compiled_lagrangian.hpp): which
// closed state it takes (stick inside the cone, slip otherwise), the guards of its sliding and
// sticking modes, and the projection that keeps a sticking contact at rest. The dynamics are in
// spatial_friction_dynamics.hpp.
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

// x+ = (q, qd without contact ci's slip), generic in the scalar (Reset::to_ad derives its
// Jacobian).
auto without_slip(const Context& ctx, int ci) {
  return [ctx, ci](const auto&, const auto& x, const auto&, auto& xp) {
    using S = std::decay_t<decltype(x[0])>;
    const int n = ctx->n;
    const DofVector<S> q = load<S>(x, 0, n);
    DofVector<S> qd = load<S>(x, n, n);
    remove_slip(ctx->model, ci, q, qd);
    for (int k = 0; k < n; ++k) {
      xp[k] = q[k];
      xp[n + k] = qd[k];
    }
  };
}

Reset slip_from_rest(const Context& ctx, int ci, ModeId slip, unsigned mask) {
  Reset r = Reset::to_ad(slip, without_slip(ctx, ci));
  r.apply = [ctx, ci, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
    const int n = ctx->n;
    const LagrangianModel& m = ctx->model;
    const DofVector<double> q = load<double>(x, 0, n);
    DofVector<double> qd = load<double>(x, n, n);
    const ContactDynamics held = m.dynamics({ci, ClosedKind::SpatialStick, mask}, t, q, qd);
    const int rows = m.contact(ci).slip_rows();
    const std::array<double, kMaxSlipRows> f{held.lambda_T, held.lambda_T2, held.lambda_T3};
    const double force = norm_of(f, rows);
    double scale = 0.0, resolution = 0.0;
    const auto W = velocity_rows(m.contact(ci), q);
    for (int j = 0; j < n; ++j) {
      double along = 0.0;
      for (int k = 1; k <= rows; ++k) along += std::abs(W[static_cast<size_t>(k)][j]);
      if (jump.state_scales != nullptr) scale += along * jump.state_scales[n + j];
      if (jump.state_atol != nullptr) resolution += along * jump.state_atol[n + j];
    }
    const double start = force > 0.0 ? onset_slip_speed(scale, resolution) / force : 0.0;
    remove_slip(m, ci, q, qd, {-start * f[0], -start * f[1], -start * f[2]});
    VectorRef xp = jump.state_after();
    xp.head(n) = q;
    xp.segment(n, n) = qd;
    return true;
  };
  return r;
}

}  // namespace

LagrangianMode close_spatial_contact(const LagrangianModel& m, int i, double t, ConstVectorRef q,
                                     ConstVectorRef qdot, unsigned mask, bool at_rest) {
  const LagrangianContact& c = m.contact(i);
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

void add_spatial_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                const LagrangianMode& mode) {
  const LagrangianContact& c = ctx->model.contact(mode.closed_contact);
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
  // The value of a quantity of this mode's dynamics at (t, x).
  const auto of_dynamics = [ctx, mode](auto read) {
    return [ctx, mode, read](const auto& t, const auto& x, const auto&) {
      using S = std::decay_t<decltype(x[0])>;
      const auto [q, qd] = split_state(x, ctx->n);
      DynamicsT<S> d;
      mode_dynamics(ctx->model, mode, S(t), q, qd, d);
      return S(read(d));
    };
  };
  const ModeId slip = ctx->find({ci, ClosedKind::SpatialSlip, mask});
  if (mode.kind == ClosedKind::SpatialSlip) {
    // B reaches zero while sliding (FORMULAS.md 11.1), at the margin of the planar guard.
    sys.add_guard(
        id, make_guard("painleve:" + c.name, Direction::Rising, of_dynamics([](const auto& d) {
                         return -(d.B / d.normal_metric) + kJamMargin;
                       }),
                       spatial_lecornu_reset(ctx, ci, mask)));
  }
  sys.add_guard(id, make_guard("lift-off:" + c.name, Direction::Rising,
                               of_dynamics([](const auto& d) { return -d.lambda_N; }),
                               Reset::to(ctx->open(mask))));
  if (mode.kind == ClosedKind::SpatialSlip) {
    // The slip speed falls to the level counted as rest (a falling guard: |gamma| >= 0 never
    // crosses zero).
    Reset stop = Reset::to_ad(id, without_slip(ctx, ci));
    stop.chooses_target = true;
    stop.apply = [ctx, ci, mask, map = without_slip(ctx, ci)](double t, ConstVectorRef x,
                                                              ConstVectorRef z, Jump& jump) {
      VectorRef xp = jump.state_after();
      map(t, x, z, xp);
      const int n = ctx->n;
      jump.target = ctx->find(
          close_spatial_contact(ctx->model, ci, t, xp.head(n), xp.segment(n, n), mask, true));
      return true;
    };
    Guard g = make_guard("stick:" + c.name, Direction::Falling,
                         of_dynamics([](const auto& d) { return d.slip_speed; }), std::move(stop));
    g.scale_offset = kStickGuardOffset;
    g.steps_land_on_crossing = true;  // the slip direction turns over at zero speed
    sys.add_guard(id, std::move(g));
  } else {
    // The stick force reaches the cone's edge: slip from rest along it.
    sys.add_guard(
        id, make_guard("slip:" + c.name, Direction::Rising, of_dynamics([ctx, ci](const auto& d) {
                         using std::sqrt;
                         // mu_s read now: it may follow a run-time parameter.
                         const double mu = ctx->model.contact(ci).law.static_mu();
                         // lambda_T3 is 0 without drilling friction.
                         return sqrt(d.lambda_T * d.lambda_T + d.lambda_T2 * d.lambda_T2 +
                                     d.lambda_T3 * d.lambda_T3) -
                                mu * d.lambda_N;
                       }),
                       slip_from_rest(ctx, ci, slip, mask)));
  }
}

InvariantProjection spatial_stick_projection(const Context& ctx, int ci) {
  InvariantProjection p;
  const int rows = ctx->model.contact(ci).slip_rows();
  p.count = 2 + rows;  // g_N, gdot_N, gamma_1, gamma_2 (and l w_n with drilling)
  p.values = [ctx, ci, rows](ConstVectorRef x, VectorRef c) {
    const int n = ctx->n;
    const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
    const auto W = velocity_rows(ctx->model.contact(ci), q);
    c[0] = ctx->model.contact(ci).gap(q);
    for (int i = 0; i <= rows; ++i) c[1 + i] = W[static_cast<size_t>(i)].dot(qd);
  };
  p.project = [ctx, ci, normal = std::vector<int>{ci}](ConstVectorRef target, VectorRef x) {
    const int n = ctx->n;
    const Eigen::Matrix<double, 1, 1> zero = Eigen::Matrix<double, 1, 1>::Zero();
    if (!project_onto_contacts(ctx->model, normal, {}, target.head(1), zero, x.head(n),
                               x.segment(n, n))) {
      return false;
    }
    const DofVector<double> q = load<double>(x, 0, n);
    DofVector<double> qd = load<double>(x, n, n);
    remove_slip(ctx->model, ci, q, qd);
    x.segment(n, n) = qd;
    return qd.allFinite();
  };
  return p;
}

}  // namespace saltus::mech::detail
