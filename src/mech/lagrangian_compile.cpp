// Over 450 lines (~540): the single-contact modes and guards, one concept, kept together; the
// several-closed-contacts modes are in index_set_modes.cpp, the compliant contacts' guards in
// compliant_contact_guards.cpp.
// LagrangianModel::compile(): the modes, guards, resets and Zeno hand-overs described in
// lagrangian_model.hpp. Every flow and guard is one generic lambda (evaluated in double, and in
// Dual for Jacobians and guard gradients); resets and choosers work on fixed-capacity vectors.
#include <bit>
#include <string>
#include <utility>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "multi_contact_impact.hpp"
#include "painleve_report.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

namespace {

using detail::closed_bits;
using detail::CompiledLagrangian;
using detail::Context;
using detail::DynamicsT;
using detail::load;

// x = (q, qdot) split into DofVectors of the scalar of x (double or Dual).
template <class X>
auto split_state(const X& x, int n) {
  using S = std::decay_t<decltype(x[0])>;
  return std::pair<DofVector<S>, DofVector<S>>(load<S>(x, 0, n), load<S>(x, n, n));
}

std::string mode_name(const LagrangianModel& m, const LagrangianMode& mode) {
  std::string name;
  if (mode.kind == ClosedKind::None) {
    name = "free";
  } else if (mode.kind == ClosedKind::PostZeno && mode.closed_contact < 0) {
    name = "post-zeno";
  } else if (mode.kind == ClosedKind::IndexSets) {
    detail::for_each_bit(mode.closed_set, [&](int i) {
      const LagrangianMode one =
          detail::mode_of_sets(m, 1u << i, mode.stick_set, mode.slip_negative_set, 0);
      name += (name.empty() ? "" : "&") + std::string(to_string(one.kind)) + ":" +
              m.contact(i).name;  // "&": names go into CSV
    });
  } else {
    name = std::string(to_string(mode.kind)) + ":" + m.contact(mode.closed_contact).name;
  }
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const unsigned bit = 1u << j;
    if (!(mode.compliant_mask & bit)) continue;
    const LagrangianContact& c = m.contact(compliant[j]);
    name += "|";
    if (c.compliant_frictional()) {  // "|slip+:pad", "|slip-:pad", "|stick:pad"
      name += (mode.compliant_stick & bit)
                  ? "stick:"
                  : ((mode.compliant_slip_negative & bit) ? "slip-:" : "slip+:");
    }
    name += c.name;
  }
  return name;
}

Flow mode_flow(const Context& ctx, const LagrangianMode& mode) {
  return ode_flow(2 * ctx->n, [ctx, mode](const auto& t, const auto& x, auto& xdot) {
    using S = std::decay_t<decltype(x[0])>;
    const int n = ctx->n;
    const auto [q, qd] = split_state(x, n);
    DynamicsT<S> d;
    detail::mode_dynamics(ctx->model, mode, S(t), q, qd, d);
    for (int i = 0; i < n; ++i) {
      xdot[i] = qd[i];
      xdot[n + i] = d.qdd[i];
    }
  });
}

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
  const Vector qdot_plus = jump.x_plus.segment(n, n);
  if (closed & (closed - 1u)) {
    unsigned stick = 0, negative = 0;
    detail::sets_from_velocities(ctx.model, closed, x.head(n), qdot_plus, jump.state_scales, stick,
                                 negative, detail::kEventRestRate);
    LagrangianMode next;
    if (!detail::choose_index_sets(ctx.model, t, x.head(n), qdot_plus, closed, stick, negative,
                                   mask, next, jump.failure)) {
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
    return false;
  }
  return true;
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
        detail::gradient(ctx->model.contact(d).gap, load<double>(x, 0, n), w_N);
        const double before = w_N.dot(x.tail(n));
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
          return true;
        }
        const std::vector<int> set = detail::simultaneous_impact_set(
            ctx->model, d, closed_bits(from), x.head(n), x.tail(n), jump.state_scales);
        if (set.size() > 1) return simultaneous_jump(*ctx, set, from, t, x, jump);
        if (before >= -rest && may_close) {
          jump.x_plus.head(2 * n) = x;
          jump.outputs.setZero();
          if (detail::refuse_closing(*ctx, from, d, t, jump)) return false;
          try {
            jump.target = ctx->find(ctx->model.close_contact(d, t, x.head(n), x.tail(n), mask));
          } catch (const Error& e) {
            jump.failure = e.what();  // Painleve as the contact closes
            return false;
          }
          return true;
        }
        const ContactImpact imp = ctx->model.resolve_impact(d, x.head(n), x.tail(n));
        if (!imp.planar.resolved()) {
          jump.failure = saltus::detail::text(ctx->model.describe_contact(d), ": impact at t = ", t,
                                              ": ", imp.planar.message);
          return false;
        }
        write_impact(imp, x.head(n), jump);
        jump.target = detail::open_after_jump(*ctx, from, t, x.head(n), imp.qdot_plus);
        if (!may_close) return true;
        const double after = w_N.dot(imp.qdot_plus);
        if (std::abs(after) <= 1e-12 * (1.0 + std::abs(before))) {
          if (detail::refuse_closing(*ctx, from, d, t, jump)) return false;
          try {
            jump.target = ctx->find(ctx->model.close_contact(d, t, x.head(n), imp.qdot_plus, mask));
          } catch (const Error& e) {
            jump.failure = e.what();  // Painleve as the contact closes
            return false;
          }
        }
        return true;
      });
  reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
  return reset;
}

Guard impact_guard(const Context& ctx, int d, const LagrangianMode& from) {
  const LagrangianModel& m = ctx->model;
  return make_guard(
      "impact:" + m.contact(d).name, Direction::Rising,
      [ctx, d](const auto&, const auto& x, const auto&) {
        using S = std::decay_t<decltype(x[0])>;
        return S(-ctx->model.contact(d).gap(load<S>(x, 0, ctx->n)));
      },
      impact_reset(ctx, d, from));
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
        const bool none = imp.planar.impulse.isZero(0.0);
        if (!imp.planar.resolved() || none) {
          jump.failure = saltus::detail::text(
              detail::painleve_message(m, ci, t, x.head(n), x.tail(n), s,
                                       m.sliding_coefficient(ci, x.head(n), s),
                                       "B reached zero while sliding"),
              none ? "; no impact without collision resolves it (the slip is at rest)"
                   : "; the impact without collision has no answer: ",
              imp.planar.message);
          return false;
        }
        write_impact(imp, x.head(n), jump);
        try {
          jump.target = ctx->find(m.close_contact(ci, t, x.head(n), imp.qdot_plus, mask));
        } catch (const Error& e) {
          jump.failure = saltus::detail::text("after the impact without collision: ", e.what());
          return false;
        }
        return true;
      });
  reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
  return reset;
}

// Guards of a mode holding rigid contact c closed.
void add_closed_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                               const LagrangianMode& mode) {
  const LagrangianContact& c = ctx->model.contact(mode.closed_contact);
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
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
    // entered with B <= 0 is resolved before anything else.
    sys.add_guard(id, make_guard(
                          "painleve:" + c.name, Direction::Rising,
                          [ctx, ci, s](const auto&, const auto& x, const auto&) {
                            using S = std::decay_t<decltype(x[0])>;
                            const DofVector<S> q = load<S>(x, 0, ctx->n);
                            return S(-detail::sliding_coefficient(ctx->model, ci, q, s));
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
    sys.add_guard(
        id,
        make_guard(
            "stick:" + c.name, Direction::Rising,
            [ctx, ci, s](const auto&, const auto& x, const auto&) {
              const auto [q, qd] = split_state(x, ctx->n);
              return detail::stick_guard_value(ctx->model.contact(ci), s, q, qd);
            },
            Reset::chosen([ctx, ci, mask](double t, ConstVectorRef x, ConstVectorRef) {
              const int n = ctx->n;
              return ctx->find(ctx->model.close_contact(ci, t, x.head(n), x.tail(n), mask, true));
            })));
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
                              // mu read now: it may follow a run-time parameter.
                              const double mu = ctx->model.contact(ci).law.mu;
                              return S(-s * d.lambda_T - mu * d.lambda_N);
                            },
                            Reset::to(s > 0.0 ? slip_pos : slip_neg)));
    }
  }
}

// Zeno hand-over map: the limit state projected onto g_N = 0 (q along M^-1 w_N, Newton steps:
// three, and up to kMaxSteps until the gap is within kImpactGapBand of its scale) and gdot_N = 0
// (qdot <- P(q, 0) qdot, seed 000 (5.18) with e = 0). No post-Zeno state when the gap does not
// come within that band (issue 34: three steps were taken without a check).
ZenoHandover::Apply zeno_projection(const Context& ctx, int ci) {
  return [ctx, ci](double, ConstVectorRef x, ConstVectorRef, const double* state_scales,
                   VectorRef xp, std::string& failure) {
    constexpr int kMaxSteps = 12;
    const int n = ctx->n;
    const LagrangianModel& m = ctx->model;
    const ConfigurationFunction& gap = m.contact(ci).gap;
    DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n), w, Mw;
    const detail::ContactScales s = detail::contact_scales(state_scales, x.head(n), x.tail(n));
    detail::SpdFactor<double> M;
    const auto factor = [&] {
      detail::factor_mass(m, q, M);
      detail::gradient(gap, q, w);
      Mw = M.solve(w);
    };
    int steps = 0;
    for (factor(); steps < kMaxSteps; factor()) {
      const double g = gap(q);
      if (steps >= 3 && std::abs(g) <= detail::kImpactGapBand * detail::scale_along(w, s.q)) {
        break;
      }
      q -= Mw * (g / w.dot(Mw));
      ++steps;
    }
    const double g = gap(q);
    if (!(std::abs(g) <= detail::kImpactGapBand * detail::scale_along(w, s.q))) {
      failure = saltus::detail::text(m.describe_contact(ci),
                                     ": the Zeno limit state could not be projected onto the "
                                     "contact's surface: gap ",
                                     g, " after ", steps, " Newton steps");
      return false;
    }
    qd -= Mw * (w.dot(qd) / w.dot(Mw));
    xp.head(n) = q;
    xp.tail(n) = qd;
    return true;
  };
}

}  // namespace

LagrangianModel::Compiled LagrangianModel::compile() const {
  validate();
  const auto ctx = std::make_shared<CompiledLagrangian>(*this);
  Compiled out;
  out.context = ctx;
  std::vector<int> rigid;
  for (int i = 0; i < contact_count(); ++i) {
    if (contacts_[i].rigid()) rigid.push_back(i);
  }
  const bool zeno_handover = rigid.size() == 1;
  if (rigid.size() > 1 && contact_count() > kMaxDof) {
    saltus::detail::throw_error("model '", name_, "': ", contact_count(), " contacts with ",
                                rigid.size(), " rigid ones; at most ", kMaxDof,
                                " contacts are supported when several rigid contacts may close");
  }

  // Modes: for every state of the compliant contacts (active set and friction states), the open
  // mode and each rigid contact's closed modes (friction on compliant contacts comes without
  // rigid contacts: validate()).
  for (unsigned code = 0; code < ctx->configurations; ++code) {
    const LagrangianMode open = ctx->open_configuration(code);
    const unsigned mask = open.compliant_mask;
    out.modes.push_back(open);
    if (detail::has_compliant_friction(*this, open)) continue;  // no closed rigid contact with it
    for (int r : rigid) {
      if (contacts_[r].frictional()) {
        out.modes.push_back({r, ClosedKind::SlipPositive, mask});
        out.modes.push_back({r, ClosedKind::SlipNegative, mask});
        out.modes.push_back({r, ClosedKind::Stick, mask});
        if (zeno_handover) out.modes.push_back({r, ClosedKind::PostZeno, mask});
      } else {
        out.modes.push_back({r, ClosedKind::Frictionless, mask});
      }
    }
    detail::add_index_set_modes(*this, rigid, mask, out.modes);
    if (rigid.size() > 1) out.modes.push_back({-1, ClosedKind::PostZeno, mask});  // "post-zeno"
  }
  for (const LagrangianMode& mode : out.modes) {
    const ModeId id = out.system.add_mode(mode_name(*this, mode), mode_flow(ctx, mode));
    ctx->add(mode, id);
    if (closed_bits(mode) != 0 && mode.kind != ClosedKind::PostZeno) {
      out.system.set_projection(id, detail::closed_contact_projection(ctx, mode));
    }
  }

  // Guards: impacts of the rigid contacts not held closed, the closed contact's transitions,
  // the compliant contacts' touch and release.
  for (ModeId id = 0; id < static_cast<ModeId>(out.modes.size()); ++id) {
    const LagrangianMode& mode = out.modes[id];
    if (mode.kind != ClosedKind::PostZeno) {
      for (int d : rigid) {
        if ((closed_bits(mode) >> d) & 1u) continue;
        out.system.add_guard(id, impact_guard(ctx, d, mode));
        if (rigid.size() > 1) out.system.add_guard(id, detail::penetration_guard(ctx, d, id));
      }
    }
    if (mode.kind == ClosedKind::IndexSets) {
      detail::add_index_set_guards(out.system, id, ctx, mode);
    } else if (mode.kind == ClosedKind::PostZeno && mode.closed_contact < 0) {
      detail::add_index_sets_guard(out.system, id, ctx, mode.compliant_mask);
    } else if (mode.kind != ClosedKind::None) {
      add_closed_contact_guards(out.system, id, ctx, mode);
    }
    if (mode.kind != ClosedKind::PostZeno) {
      detail::add_compliant_guards(out.system, id, ctx, mode);
    }
  }

  // Zeno hand-over (one rigid contact): project onto g_N = gdot_N = 0 and close the contact.
  if (zeno_handover) {
    const int r = rigid[0];
    const ClosedKind target =
        contacts_[r].frictional() ? ClosedKind::PostZeno : ClosedKind::Frictionless;
    for (unsigned code = 0; code < ctx->configurations; ++code) {
      const LagrangianMode open = ctx->open_configuration(code);
      if (detail::has_compliant_friction(*this, open)) continue;  // ends as Termination::Zeno
      ZenoHandover handover;
      handover.target = ctx->find({r, target, open.compliant_mask});
      handover.apply = zeno_projection(ctx, r);
      out.system.set_zeno_handover(ctx->find(open), std::move(handover));
    }
  }

  // Zeno hand-over (several rigid contacts): from every other mode to "post-zeno", the limit
  // state projected onto the contacts that touch; the index-sets guard closes them by the LCP.
  if (rigid.size() > 1) {
    for (ModeId id = 0; id < static_cast<ModeId>(out.modes.size()); ++id) {
      const LagrangianMode& mode = out.modes[id];
      if (mode.kind == ClosedKind::PostZeno) continue;
      if (detail::has_compliant_friction(*this, mode)) continue;  // ends as Termination::Zeno
      ZenoHandover handover;
      handover.target = ctx->find({-1, ClosedKind::PostZeno, mode.compliant_mask});
      handover.apply = detail::post_zeno_projection(ctx, closed_bits(mode));
      out.system.set_zeno_handover(id, std::move(handover));
    }
  }

  out.free = ctx->open(0);
  const int nc = contact_count();
  out.closed.assign(nc, kNoMode);
  out.slip_positive.assign(nc, kNoMode);
  out.slip_negative.assign(nc, kNoMode);
  out.stick.assign(nc, kNoMode);
  for (int r : rigid) {
    out.closed[r] = ctx->find({r, ClosedKind::Frictionless, 0});
    out.slip_positive[r] = ctx->find({r, ClosedKind::SlipPositive, 0});
    out.slip_negative[r] = ctx->find({r, ClosedKind::SlipNegative, 0});
    out.stick[r] = ctx->find({r, ClosedKind::Stick, 0});
  }
  return out;
}

ModeId LagrangianModel::Compiled::find(const LagrangianMode& mode) const {
  return context ? context->find(mode) : kNoMode;
}

ModeId LagrangianModel::Compiled::initial_mode(double t, ConstVectorRef x) const {
  const LagrangianModel& m = context->model;
  const int n = context->n;
  if (x.size() != 2 * n) {
    saltus::detail::throw_error("model '", m.name(), "': initial state has ", x.size(),
                                " entries, expected ", 2 * n, " (q, qdot)");
  }
  const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
  unsigned mask = 0;
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const LagrangianContact& c = m.contact(compliant[j]);
    const bool penetrating = c.gap(q) < 0.0;
    const bool pushing =
        !c.compliant.releases_on_force() || detail::compliant_force(c, q, qd) > 0.0;
    if (penetrating && pushing) mask |= 1u << j;
  }
  const LagrangianMode open =
      detail::choose_compliant_frictions(m, {-1, ClosedKind::None, mask}, t, x.head(n), x.tail(n));
  const double tol = 1e-12 * (1.0 + x.lpNorm<Eigen::Infinity>());
  ModeId first = find(open);
  std::vector<int> closing;  // rigid contacts that would each stay closed
  for (int i = 0; i < m.contact_count(); ++i) {
    const LagrangianContact& c = m.contact(i);
    if (!c.rigid()) continue;
    const SecondOrderJet g = detail::along(c.gap, q, qd);
    if (std::abs(g.v) > tol || std::abs(g.d1) > tol) continue;
    const LagrangianMode mode = m.close_contact(i, t, q, qd, mask);
    if (mode.kind == ClosedKind::None) continue;
    if (closing.empty()) first = find(mode);
    closing.push_back(i);
  }
  if (!closing.empty() && detail::has_compliant_friction(m, open)) {
    saltus::detail::throw_error(
        m.describe_contact(closing[0]),
        ": the initial state holds it closed while compliant "
        "contact '",
        detail::first_frictional_compliant(m, open),
        "' is active with Coulomb "
        "friction; closed rigid contacts together with friction on compliant contacts are not "
        "supported (initial state)");
  }
  if (closing.size() > 1) {  // the contact-force LCP over all of them decides
    unsigned closed = 0, stick = 0, negative = 0;
    for (int i : closing) closed |= 1u << i;
    detail::sets_from_velocities(m, closed, q, qd, nullptr, stick, negative,
                                 detail::kEventRestRate);  // the initial state: its own scales
    LagrangianMode next;
    std::string failure;
    if (!detail::choose_index_sets(m, t, q, qd, closed, stick, negative, mask, next, failure)) {
      saltus::detail::throw_error(failure, " (initial state)");
    }
    return find(next);
  }
  return first;
}

}  // namespace saltus::mech
