// The guards of compliant contacts (lagrangian_model.hpp): touch and release, and for Coulomb
// friction on them ("Friction on compliant contacts") the state a contact takes when it touches
// or stops sliding and the stick/slip guards of an active frictional one. Friction mirrors a
// closed rigid contact's transitions (close_contact, add_closed_contact_guards in
// closed_contact_guards.cpp) with the compliant force f+ = max(f, 0) as the normal load
// ([LB] (2.4)-(2.10)). Also the rule that keeps closed rigid contacts and compliant friction
// apart (open_after_jump, refuse_closing), used by the impact resets.
#include <cmath>
#include <string>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

namespace {

// A tangential velocity below kRestTolerance times its own scale sum_k |w_T,k qdot_k| (the
// terms that sum to it, in its units) counts as zero, as close_contact counts it for rigid
// contacts.
constexpr double kRestTolerance = 1e-12;

// d/dt of the cone margin mu f+ - |lambda_T| of compliant contact ci along the flow of `stick`
// at (t, q, qdot), by one forward pass in Dual seeded with (1, qdot, qddot).
double cone_margin_rate(const LagrangianModel& m, const LagrangianMode& stick, int ci, double t,
                        const DofVector<double>& q, const DofVector<double>& qd) {
  const int n = m.dof();
  DynamicsT<double> d;
  mode_dynamics(m, stick, t, q, qd, d);
  DofVector<Dual> qD(n), qdD(n);
  for (int i = 0; i < n; ++i) {
    qD[i] = Dual(q[i], qd[i]);
    qdD[i] = Dual(qd[i], d.qdd[i]);
  }
  DynamicsT<Dual> dD;
  mode_dynamics(m, stick, Dual(t, 1.0), qD, qdD, dD);
  const LagrangianContact& c = m.contact(ci);
  const Dual lambda = dD.lambda_T_of[ci], load = friction_load(c, qD, qdD);
  return c.compliant.mu * load.v[0] - (lambda.a < 0.0 ? -1.0 : 1.0) * lambda.v[0];
}

}  // namespace

LagrangianMode choose_compliant_friction(const LagrangianModel& m, LagrangianMode mode, size_t j,
                                         double t, ConstVectorRef q, ConstVectorRef qdot,
                                         bool tangential_rest) {
  const unsigned bit = 1u << j;
  const int ci = m.compliant_contacts()[j];
  const LagrangianContact& c = m.contact(ci);
  mode.compliant_stick &= ~bit;
  mode.compliant_slip_negative &= ~bit;
  if (!(mode.compliant_mask & bit) || !c.compliant_frictional()) return mode;
  const int n = m.dof();
  const DofVector<double> qv = load<double>(q, 0, n), qdv = load<double>(qdot, 0, n);
  DofVector<double> w_T;
  gradient(c.tangent, qv, w_T);
  const double gdot_T = w_T.dot(qdv);
  const double rest_tol = kRestTolerance * w_T.cwiseAbs().dot(qdv.cwiseAbs());
  if (!tangential_rest && std::abs(gdot_T) > rest_tol) {
    if (gdot_T < 0.0) mode.compliant_slip_negative |= bit;
    return mode;
  }
  LagrangianMode stick = mode;
  stick.compliant_stick |= bit;
  const ContactDynamics d = m.dynamics(stick, t, q, qdot);
  const double lambda_T = d.lambda_T_each[ci];
  const double cone = c.compliant.mu * friction_load(c, qv, qdv);
  const double margin = cone - std::abs(lambda_T);
  // Inside the cone: stick; at its edge (within 1e-9, the event states lie on the near side of a
  // located root) only while the force moves inward, as the contact-force LCP at acceleration
  // level would decide ([LB] (2.10)); else slip against what friction cannot supply.
  if (margin >= 0.0 && (margin > 1e-9 * (cone + std::abs(lambda_T)) ||
                        cone_margin_rate(m, stick, ci, t, qv, qdv) >= 0.0)) {
    return stick;
  }
  if (lambda_T > 0.0) mode.compliant_slip_negative |= bit;
  return mode;
}

LagrangianMode choose_compliant_frictions(const LagrangianModel& m, LagrangianMode mode, double t,
                                          ConstVectorRef q, ConstVectorRef qdot) {
  for (size_t j = 0; j < m.compliant_contacts().size(); ++j) {
    mode = choose_compliant_friction(m, mode, j, t, q, qdot, false);
  }
  return mode;
}

std::string first_frictional_compliant(const LagrangianModel& m, const LagrangianMode& mode) {
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const LagrangianContact& c = m.contact(compliant[j]);
    if (((mode.compliant_mask >> j) & 1u) && c.compliant_frictional()) return c.name;
  }
  return "";
}

// The mode without a closed rigid contact that follows a jump from `from` to (q, qdot+): the same
// active compliant contacts, the frictional ones in the friction state the new velocities give
// (a sticking contact whose gdot_T the impact changed slides).
ModeId open_after_jump(const CompiledLagrangian& ctx, const LagrangianMode& from, double t,
                       ConstVectorRef q, ConstVectorRef qdot_plus) {
  const LagrangianMode open{-1, ClosedKind::None, from.compliant_mask};
  if (!has_compliant_friction(ctx.model, open)) return ctx.find(open);
  return ctx.find(choose_compliant_frictions(ctx.model, open, t, q, qdot_plus));
}

// Closed rigid contacts and compliant contacts with friction are not built together: a rigid
// contact that would close while a frictional compliant contact is active ends the run.
bool refuse_closing(const CompiledLagrangian& ctx, const LagrangianMode& from, int d, double t,
                    Jump& jump) {
  if (!has_compliant_friction(ctx.model, from)) return false;
  jump.failure = saltus::detail::text(
      ctx.model.describe_contact(d), ": would stay closed after its impact at t = ", t,
      " while compliant contact '", first_frictional_compliant(ctx.model, from),
      "' is active with Coulomb friction; closed rigid contacts together with friction on ",
      "compliant contacts are not supported (use e > 0 for this contact, or mu = 0 on the ",
      "compliant one)");
  return true;
}

namespace {

// x = (q, qdot) split into DofVectors of the scalar of x (double or Dual).
template <class X>
auto split(const X& x, int n) {
  using S = std::decay_t<decltype(x[0])>;
  return std::pair<DofVector<S>, DofVector<S>>(load<S>(x, 0, n), load<S>(x, n, n));
}

// The jump into the friction state compliant contact j takes (choose_compliant_friction from
// `from`). A contact that starts sticking has the residual of its tangential velocity (the root
// of gdot_T is located to round-off of the dense output, ~1e-15) removed along M^-1 w_T: left in
// place, the flow would keep it, and a later slip the other way would start on the trigger side
// of its own stick guard.
Reset friction_reset(const Context& ctx, const LagrangianMode& from, size_t j, bool at_rest) {
  return Reset::custom(
      ctx->find(from), true,
      [ctx, from, j, at_rest](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n;
        const LagrangianModel& m = ctx->model;
        const LagrangianMode next =
            choose_compliant_friction(m, from, j, t, x.head(n), x.tail(n), at_rest);
        jump.target = ctx->find(next);
        if (jump.target == kNoMode) {  // closed rigid contacts in `from` (compile() builds none)
          const int closed = from.closed_contact >= 0 ? from.closed_contact : 0;
          jump.failure = saltus::detail::text(
              m.describe_contact(m.compliant_contacts()[j]), ": touches at t = ", t,
              " with Coulomb friction while rigid contact '", m.contact(closed).name,
              "' is closed (mode '", to_string(from.kind), "'); closed rigid contacts together ",
              "with friction on compliant contacts are not supported");
          return false;
        }
        jump.x_plus.head(2 * n) = x;
        if (!(next.compliant_stick & (1u << j))) return true;
        const DofVector<double> q = load<double>(x, 0, n);
        DofVector<double> w_T, Mw;
        gradient(m.contact(m.compliant_contacts()[j]).tangent, q, w_T);
        SpdFactor<double> M;
        factor_mass(m, q, M);
        Mw = M.solve(w_T);
        const double rate = w_T.dot(x.tail(n)), G = w_T.dot(Mw);
        for (int i = 0; i < n; ++i) jump.x_plus[n + i] -= Mw[i] * (rate / G);
        return true;
      });
}

// "stick:<j>" while sliding, "slip+:<j>" / "slip-:<j>" while sticking.
void add_friction_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                         const LagrangianMode& mode) {
  const LagrangianModel& m = ctx->model;
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const unsigned bit = 1u << j;
    const int ci = compliant[j];
    const LagrangianContact& c = m.contact(ci);
    if (!(mode.compliant_mask & bit) || !c.compliant_frictional()) continue;
    if (!(mode.compliant_stick & bit)) {
      // The sliding speed reaches zero, to the tolerance below which a tangential velocity counts
      // as zero (kRestTolerance of the guard's scale, Guard::scale_offset, from the run's
      // velocity scales, as the rigid stick guards): stick, or slip reversal when the cone
      // cannot hold it. The tolerance keeps a slip that starts at the cone's edge
      // from firing this guard at once: its state lies on the near side of the located edge, so
      // for a moment friction still holds a little more than needed and gdot_T leaves zero the
      // wrong way by round-off (a rate above the engine's band, an excursion far below this).
      const double s = (mode.compliant_slip_negative & bit) ? -1.0 : 1.0;
      Guard g = make_guard(
          "stick:" + c.name, Direction::Rising,
          [ctx, ci, s](const auto&, const auto& x, const auto&) {
            using S = std::decay_t<decltype(x[0])>;
            const auto [q, qd] = split(x, ctx->n);
            return S(-s * along(ctx->model.contact(ci).tangent, q, qd).d1);
          },
          friction_reset(ctx, mode, j, true));
      g.scale_offset = kRestTolerance;
      sys.add_guard(id, std::move(g));
      continue;
    }
    // The stick force reaches the cone's edge: slip starts against it ([LB] (2.10)).
    const double mu = c.compliant.mu;
    for (const double s : {1.0, -1.0}) {
      LagrangianMode next = mode;
      next.compliant_stick &= ~bit;
      if (s < 0.0) next.compliant_slip_negative |= bit;
      sys.add_guard(id, make_guard(
                            std::string(s > 0.0 ? "slip+:" : "slip-:") + c.name, Direction::Rising,
                            [ctx, mode, ci, mu, s](const auto& t, const auto& x, const auto&) {
                              using S = std::decay_t<decltype(x[0])>;
                              const auto [q, qd] = split(x, ctx->n);
                              DynamicsT<S> d;
                              mode_dynamics(ctx->model, mode, S(t), q, qd, d);
                              const S normal_load = friction_load(ctx->model.contact(ci), q, qd);
                              return S(-s * d.lambda_T_of[ci] - mu * normal_load);
                            },
                            Reset::to(ctx->find(next))));
    }
  }
}

}  // namespace

void add_compliant_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode) {
  const std::vector<int>& compliant = ctx->model.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const int ci = compliant[j];
    const LagrangianContact& c = ctx->model.contact(ci);
    const unsigned bit = 1u << j;
    const bool on_force = c.compliant.releases_on_force();
    LagrangianMode next = mode;
    if (mode.compliant_mask & bit) {
      next.compliant_mask &= ~bit;  // release ends the contact's friction too
      next.compliant_stick &= ~bit;
      next.compliant_slip_negative &= ~bit;
      Guard release = make_guard(
          "release:" + c.name, Direction::Rising,
          [ctx, ci, on_force](const auto&, const auto& x, const auto&) {
            using S = std::decay_t<decltype(x[0])>;
            const auto [q, qd] = split(x, ctx->n);
            const LagrangianContact& cc = ctx->model.contact(ci);
            if (on_force) return S(-compliant_force(cc, q, qd));
            return S(cc.gap(q));  // the gap returns to zero
          },
          Reset::to(ctx->find(next)));
      if (!on_force) enclose_gap_guard(release, ctx, ci, 1.0);
      sys.add_guard(id, std::move(release));
    } else {
      next.compliant_mask |= bit;
      // A frictional contact starts sliding or sticking by its tangential velocity and forces.
      Reset touched = c.compliant_frictional() ? friction_reset(ctx, next, j, false)
                                               : Reset::to(ctx->find(next));
      Guard touch = make_guard(
          "touch:" + c.name, Direction::Rising,
          [ctx, ci, on_force](const auto&, const auto& x, const auto&) {
            using S = std::decay_t<decltype(x[0])>;
            const auto [q, qd] = split(x, ctx->n);
            const LagrangianContact& cc = ctx->model.contact(ci);
            const S p = S(-cc.gap(q));
            if (!on_force) return p;
            const S f = compliant_force(cc, q, qd);
            return val(f) < val(p) ? f : p;  // min(-g_N, f)
          },
          std::move(touched));
      if (!on_force) enclose_gap_guard(touch, ctx, ci, -1.0);
      sys.add_guard(id, std::move(touch));
    }
  }
  add_friction_guards(sys, id, ctx, mode);
}

}  // namespace saltus::mech::detail
