// The resets of rigid contacts' impacts (compiled_lagrangian.hpp): one contact's impact by its
// law, several contacts' simultaneous impact as one jump (multi_contact_impact.hpp), the contact
// closing when the impact leaves it at rest, and Lecornu's impact without collision at the
// dynamic jam. Resets work on fixed-capacity vectors.
#include <bit>
#include <string>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "multi_contact_impact.hpp"
#include "painleve_report.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

namespace {

// A simultaneous impact as one jump (multi_contact_impact.hpp); closes the one contact left
// closed, if any, by close_contact(), and two or more by the contact-force LCP over them
// (index_set_choice.hpp) with I_H = those left with gdot_T(t+) = 0.
bool simultaneous_jump(const CompiledLagrangian& ctx, const std::vector<int>& set,
                       const LagrangianMode& from, double t, ConstVectorRef x, Jump& jump) {
  const int n = ctx.n;
  const unsigned mask = from.compliant_mask;
  unsigned closed = 0;
  if (!detail::simultaneous_impact_jump(ctx.model, set, t, x, jump, closed)) return false;
  jump.target = detail::open_after_jump(ctx, from, t, x.head(n), jump.x_plus.segment(n, n));
  if (closed == 0) return true;
  if (detail::refuse_closing(ctx, from, std::countr_zero(closed), t, jump)) return false;
  if (ctx.model.has_spatial_friction()) {  // friction in space: the flow's own choice
    return detail::continue_spatial_sets(ctx, t, x.head(n), {closed, 0, 0, 0}, mask, jump);
  }
  const Vector qdot_plus = jump.x_plus.segment(n, n);
  if (closed & (closed - 1u)) {
    unsigned stick = 0, negative = 0;
    detail::sets_from_velocities(ctx.model, closed, x.head(n), qdot_plus, jump.state_scales, stick,
                                 negative, detail::kEventRestRate);
    LagrangianMode next;
    if (!detail::choose_index_sets(ctx.model, t, x.head(n), qdot_plus, closed, stick, negative,
                                   mask, next, jump.failure)) {
      jump.cause = code(ContactStop::Painleve);
      return false;
    }
    jump.target = ctx.find(next);
    return true;
  }
  try {
    jump.target =
        ctx.find(ctx.model.close_contact(std::countr_zero(closed), t, x.head(n), qdot_plus, mask));
  } catch (const Error& e) {
    jump.failure = e.what();  // Painleve as the contact closes
    jump.cause = code(contact_stop_of(e));
    return false;
  }
  return true;
}

// w_N of contact d at q and the normal rate w_N . qdot, x = (q, qdot). Not inlined: inlined into
// the reset, GCC 12 takes w_N for uninitialised (-Wmaybe-uninitialized).
[[gnu::noinline]] double normal_rate(const LagrangianModel& m, int d, ConstVectorRef x,
                                     DofVector<double>& w_N) {
  const int n = m.dof();
  detail::gradient(m.contact(d).gap, load<double>(x, 0, n), w_N);
  return w_N.dot(x.tail(n));
}

// x+ = (q, qdot+) and the outputs impulse_t, impulse_n, energy_change of one contact's impact.
void write_impact(const ContactImpact& imp, ConstVectorRef q, Jump& jump) {
  const Eigen::Index n = q.size();
  jump.x_plus.head(n) = q;
  jump.x_plus.segment(n, n) = imp.qdot_plus;
  jump.outputs[0] = imp.planar.impulse[0];
  jump.outputs[1] = imp.planar.impulse[1];
  jump.outputs[2] = imp.planar.dT;
}

// The impact of contact d as one jump: q unchanged, qdot+ and the impulse (P_t, P_n) and
// kinetic-energy change as outputs (event log, on_event, events.csv). Alone in I_S, d's own law
// is solved once; with other contacts in I_S (multi_contact_impact.hpp) all are solved together.
// A law or LCP with no answer fails the reset with its own message. d already separating (a
// simultaneous impact resolved it with another contact's guard): nothing happens.
Reset impact_reset(const Context& ctx, int d, const LagrangianMode& from) {
  const unsigned mask = from.compliant_mask;
  const bool may_close = from.kind == ClosedKind::None;
  Reset reset = Reset::custom(
      ctx->open(mask), true,
      [ctx, d, mask, may_close, from](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n;
        DofVector<double> w_N;
        const double before = normal_rate(ctx->model, d, x, w_N);
        // |gdot_N| at round-off: touching at rest (a corner at the end of its bounces), not
        // separating. Left as an identity event, gravity brought it back 1 ulp later, again and
        // again, to a step-size underflow (issue 11); it closes by its forces instead.
        const detail::ContactScales s =
            detail::contact_scales(jump.state_scales, x.head(n), x.tail(n));
        const double rest = detail::kEventRestRate * detail::scale_along(w_N, s.qdot);
        if (before > rest) {
          jump.target = ctx->find(from);
          jump.x_plus.head(2 * n) = x;
          jump.outputs.setZero();
          if (jump.note) {
            *jump.note =
                saltus::detail::text("already separating (gdot_N = ", before,
                                     "): resolved by an impact at this instant, nothing applied");
          }
          return true;
        }
        const std::vector<int> set = detail::simultaneous_impact_set(
            ctx->model, t, d, closed_bits(from), x.head(n), x.tail(n), jump.state_scales);
        if (set.size() > 1) return simultaneous_jump(*ctx, set, from, t, x, jump);
        if (before >= -rest && may_close) {
          jump.x_plus.head(2 * n) = x;
          jump.outputs.setZero();
          if (detail::refuse_closing(*ctx, from, d, t, jump)) return false;
          try {
            jump.target = ctx->find(ctx->model.close_contact(d, t, x.head(n), x.tail(n), mask));
          } catch (const Error& e) {
            jump.failure = e.what();  // Painleve as the contact closes
            jump.cause = code(contact_stop_of(e));
            return false;
          }
          return true;
        }
        const ContactImpact imp = ctx->model.resolve_impact(d, x.head(n), x.tail(n));
        if (!imp.planar.resolved()) {
          jump.failure = saltus::detail::text(ctx->model.describe_contact(d), ": impact at t = ", t,
                                              ": ", imp.planar.message);
          // The naive law's jam is its frozen slip direction's own (FORMULAS.md 6.3): its
          // message stands, no stretch takes it over.
          if (ctx->model.contact(d).law.kind != ImpactLawKind::Naive) {
            jump.cause = code(ContactStop::ImpactWithoutAnswer);
          }
          return false;
        }
        write_impact(imp, x.head(n), jump);
        if (!imp.qdot_plus.allFinite()) {  // the law has no answer here (a jammed Routh process)
          jump.failure = saltus::detail::text(ctx->model.describe_contact(d), ": impact at t = ", t,
                                              ": the impact law gave a non-finite velocity");
          jump.cause = code(ContactStop::ImpactWithoutAnswer);
          return false;
        }
        jump.target = detail::open_after_jump(*ctx, from, t, x.head(n), imp.qdot_plus);
        if (!may_close) return true;
        const double after = w_N.dot(imp.qdot_plus);
        // Round-off of the law's gdot_N+ = 0 against the approach speed and the terms of
        // gdot_N+ (in the rate's own units; issue 34).
        if (std::abs(after) <=
            1e-12 * (std::abs(before) + w_N.cwiseAbs().dot(imp.qdot_plus.cwiseAbs()))) {
          if (detail::refuse_closing(*ctx, from, d, t, jump)) return false;
          try {
            jump.target = ctx->find(ctx->model.close_contact(d, t, x.head(n), imp.qdot_plus, mask));
          } catch (const Error& e) {
            jump.failure = e.what();  // Painleve as the contact closes
            jump.cause = code(contact_stop_of(e));
            return false;
          }
        }
        return true;
      });
  reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
  return reset;
}

}  // namespace

Guard impact_guard(const Context& ctx, int d, const LagrangianMode& from) {
  const LagrangianModel& m = ctx->model;
  Reset reset = m.contact(d).relabel.empty()
                    ? impact_reset(ctx, d, from)
                    : detail::relabelled(ctx, d, impact_reset(ctx, d, from));
  if (has_exact_impact_jacobian(m.contact(d))) {
    reset.jacobian = impact_jacobian(ctx, d, from, reset.apply);
  }
  Guard g = make_guard(
      "impact:" + m.contact(d).name, Direction::Rising,
      [ctx, d](const auto&, const auto& x, const auto&) {
        using S = std::decay_t<decltype(x[0])>;
        return S(-ctx->model.contact(d).gap(load<S>(x, 0, ctx->n)));
      },
      std::move(reset));
  g.when = m.contact(d).when;
  g.when_text = m.contact(d).when_text;
  enclose_gap_guard(g, ctx, d, -1.0);
  return g;
}

// The jump's target after an impact without collision: the mode `close` chooses (the contact
// closing by its forces), or a failure naming why none is consistent.
template <class Close>
bool close_after_lecornu(Jump& jump, const Close& close) {
  try {
    jump.target = close();
  } catch (const Error& e) {
    jump.failure = saltus::detail::text("after the impact without collision: ", e.what());
    jump.cause = code(contact_stop_of(e));
    return false;
  }
  return true;
}

// The dynamic jam (Genot and Brogliato): a contact sliding with s reaches B = 0, where the normal
// force grows without bound. Resolved by Lecornu's impact without collision: the impulse that
// brings the slip to rest along Routh's process at gdot_N = 0 (LagrangianModel::resolve_impact,
// WithoutCollision); the contact then closes by its forces (stick, as a rule). Outputs as an
// impact's. A process without an answer ends the run with the Painleve report and its reason.
Reset lecornu_reset(const Context& ctx, int ci, double s, const LagrangianMode& from) {
  const unsigned mask = from.compliant_mask;
  Reset reset = Reset::custom(
      ctx->open(mask), true,
      [ctx, ci, s, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n;
        const LagrangianModel& m = ctx->model;
        const ContactImpact imp = m.resolve_impact(ci, x.head(n), x.tail(n),
                                                   LagrangianModel::ImpactKind::WithoutCollision);
        // No impulse: the slip is at rest at the jam (a stick-slip transition in the Painleve
        // regime), where the impulse level keeps the stick that the forces cannot: unresolved.
        // At rest to the round-off of its own terms, as at an event (kEventRestRate): the
        // stick's leftover speed of a few ulps, which would give an impulse of a few ulps back
        // into stick in one unit system and none in another (issue 34).
        const Vector w_T = m.tangent_gradient(ci, x.head(n));
        const bool at_rest = std::abs(w_T.dot(x.tail(n))) <=
                             kEventRestRate * w_T.cwiseAbs().dot(x.tail(n).cwiseAbs());
        const bool none = at_rest || imp.planar.impulse.isZero(0.0);
        if (!imp.planar.resolved() || none) {
          jump.failure = saltus::detail::text(
              detail::painleve_message(m, ci, t, x.head(n), x.tail(n), s,
                                       m.sliding_coefficient(ci, x.head(n), x.tail(n), s),
                                       "B reached zero while sliding"),
              none ? "; no impact without collision resolves it (the slip is at rest)"
                   : "; the impact without collision has no answer: ",
              imp.planar.message);
          jump.cause = code(ContactStop::Painleve);
          return false;
        }
        write_impact(imp, x.head(n), jump);
        return close_after_lecornu(jump, [&] {
          return ctx->find(m.close_contact(ci, t, x.head(n), imp.qdot_plus, mask));
        });
      });
  reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
  return reset;
}

// The dynamic jam in space: a contact sliding in space reaches B = 0 (its guard painleve:<c>,
// spatial_contact_guards.cpp). Lecornu's impact without collision by Routh's process in space at
// gdot_N = 0 (LagrangianModel::resolve_impact, WithoutCollision;
// spatial_impact_without_collision): the slip turns and is brought to rest, its residual (the
// process's last stretch) removed; the contact then closes by its forces. No impulse (the slip is
// no Painleve slip there) or a process without an answer ends the run with status Painleve.
Reset spatial_lecornu_reset(const Context& ctx, int ci, unsigned mask) {
  Reset reset = Reset::custom(
      ctx->open(mask), true,
      [ctx, ci, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n;
        const LagrangianModel& m = ctx->model;
        ContactImpact imp = m.resolve_impact(ci, x.head(n), x.tail(n),
                                             LagrangianModel::ImpactKind::WithoutCollision);
        const bool none = imp.planar.impulse.isZero(0.0);
        if (!imp.planar.resolved() || none) {
          jump.failure = saltus::detail::text(
              m.describe_contact(ci), ": at t = ", t,
              " B = w_N^T M^-1 (w_N - mu W_T d) of the contact sliding in space reaches zero (a "
              "dynamic jam, Painleve) at q = ",
              q_text(x.head(n)),
              none ? "; no impact without collision resolves it (no Painleve slip there)"
                   : "; the impact without collision has no answer: ",
              imp.planar.message);
          jump.cause = code(ContactStop::Painleve);
          return false;
        }
        const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
        SlipKinematics<double> before, after;
        slip_kinematics(m.contact(ci), q, qd, before);
        slip_kinematics(m.contact(ci), q, imp.qdot_plus, after);
        if (after.speed2() <= 1e-18 * before.speed2()) {
          remove_slip(m, ci, q, imp.qdot_plus);  // at rest but for the process's last stretch
        }
        write_impact(imp, x.head(n), jump);
        return close_after_lecornu(jump, [&] {
          return ctx->find(close_spatial_contact(m, ci, t, x.head(n), imp.qdot_plus, mask, false));
        });
      });
  reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
  return reset;
}

}  // namespace saltus::mech::detail
