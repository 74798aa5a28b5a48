// Guards of a mode holding one rigid contact closed (compiled_lagrangian.hpp): the transitions
// of one closed contact (lift-off, stick, slip, the dynamic jam) and the post-Zeno closing. Every
// guard is one generic lambda (evaluated in double, and in Dual for guard gradients).
#include <string>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

// Guards of a mode holding rigid contact c closed.
void add_closed_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                               const LagrangianMode& mode) {
  const LagrangianContact& c = ctx->model.contact(mode.closed_contact);
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
  if (mode.kind == ClosedKind::SpatialSlip || mode.kind == ClosedKind::SpatialStick) {
    add_spatial_contact_guards(sys, id, ctx, mode);
    return;
  }
  if (mode.kind == ClosedKind::PostZeno) {
    // Entered by the Zeno hand-over; fires at once and closes the contact by the state.
    sys.add_guard(
        id, make_guard(
                "index-sets:" + c.name, Direction::Rising,
                [](const auto&, const auto& x, const auto&) {
                  using S = std::decay_t<decltype(x[0])>;
                  return S(1.0);
                },
                Reset::chosen([ctx, ci, mask](double t, ConstVectorRef x, ConstVectorRef) {
                  const int n = ctx->n;
                  return ctx->find(ctx->model.close_contact(ci, t, x.head(n), x.tail(n), mask));
                })));
    return;
  }
  if (mode.kind == ClosedKind::SlipPositive || mode.kind == ClosedKind::SlipNegative) {
    const double s = detail::slip_sign(mode.kind);
    // B reaches zero while sliding: Painleve (FORMULAS.md 11.1). First in the mode, so a slip
    // entered with B <= 0 is resolved before anything else. Fires at B = kJamMargin w_N^T M^-1
    // w_N: at a dynamic jam the normal force grows like 1/B and B = 0 itself is out of the
    // integrator's reach (contact_tolerances.hpp).
    sys.add_guard(id, make_guard(
                          "painleve:" + c.name, Direction::Rising,
                          [ctx, ci, s](const auto&, const auto& x, const auto&) {
                            using S = std::decay_t<decltype(x[0])>;
                            const auto [q, qd] = split_state(x, ctx->n);
                            return S(-detail::sliding_coefficient(ctx->model, ci, q, qd, s,
                                                                  detail::kJamMargin));
                          },
                          lecornu_reset(ctx, ci, s, mode)));
  }
  // Lift-off: the normal force reaches zero.
  sys.add_guard(id, make_guard(
                        "lift-off:" + c.name, Direction::Rising,
                        [ctx, mode](const auto& t, const auto& x, const auto&) {
                          using S = std::decay_t<decltype(x[0])>;
                          const auto [q, qd] = split_state(x, ctx->n);
                          DynamicsT<S> d;
                          detail::mode_dynamics(ctx->model, mode, S(t), q, qd, d);
                          return S(-d.lambda_N);
                        },
                        Reset::to(ctx->open(mask))));
  if (mode.kind == ClosedKind::SlipPositive || mode.kind == ClosedKind::SlipNegative) {
    const double s = detail::slip_sign(mode.kind);
    // The sliding speed reaches zero: stick, slip reversal, or lift-off by the stick forces.
    Guard g = make_guard(
        "stick:" + c.name, Direction::Rising,
        [ctx, ci, s](const auto&, const auto& x, const auto&) {
          const auto [q, qd] = split_state(x, ctx->n);
          return detail::stick_guard_value(ctx->model.contact(ci), s, q, qd);
        },
        Reset::chosen([ctx, ci, mask](double t, ConstVectorRef x, ConstVectorRef) {
          const int n = ctx->n;
          return ctx->find(ctx->model.close_contact(ci, t, x.head(n), x.tail(n), mask, true));
        }));
    g.scale_offset = detail::kStickGuardOffset;
    sys.add_guard(id, std::move(g));
  } else if (mode.kind == ClosedKind::Stick) {
    // The stick force reaches the cone edge: slip starts against it ([LB] (2.10)).
    const ModeId slip_pos = ctx->find({ci, ClosedKind::SlipPositive, mask});
    const ModeId slip_neg = ctx->find({ci, ClosedKind::SlipNegative, mask});
    for (const double s : {1.0, -1.0}) {
      sys.add_guard(id, make_guard(
                            std::string(s > 0.0 ? "slip+:" : "slip-:") + c.name, Direction::Rising,
                            [ctx, mode, ci, s](const auto& t, const auto& x, const auto&) {
                              using S = std::decay_t<decltype(x[0])>;
                              const auto [q, qd] = split_state(x, ctx->n);
                              DynamicsT<S> d;
                              detail::mode_dynamics(ctx->model, mode, S(t), q, qd, d);
                              // mu_s read now: it may follow a run-time parameter.
                              const double mu = ctx->model.contact(ci).law.static_mu();
                              return S(-s * d.lambda_T - mu * d.lambda_N);
                            },
                            Reset::to(s > 0.0 ? slip_pos : slip_neg)));
    }
  }
}

}  // namespace saltus::mech::detail
