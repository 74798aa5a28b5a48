// LagrangianModel::compile(): the modes, their flows and names, and which guards, projections
// and Zeno hand-overs each mode gets (lagrangian_model.hpp). The guards and resets are built
// elsewhere: impacts in impact_resets.cpp, one closed contact's in closed_contact_guards.cpp,
// several closed contacts' in index_set_modes.cpp, the compliant contacts' in
// compliant_contact_guards.cpp, the projections and hand-overs in closed_contact_projection.cpp.
// Every flow is one generic lambda (evaluated in double, and in Dual for Jacobians).
#include <string>
#include <utility>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

namespace {

using detail::closed_bits;
using detail::CompiledLagrangian;
using detail::Context;
using detail::DynamicsT;
using detail::split_state;

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
    const bool rolls =
        mode.kind == ClosedKind::SpatialSlip || mode.kind == ClosedKind::SpatialStick;
    if (rolls && m.contact(mode.closed_contact).has_rolling_resistance()) {
      name += mode.rolling_held() ? "/rest" : "/rolling";  // "stick:floor/rolling"
    }
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
      if (contacts_[r].spatial_frictional()) {
        for (const ClosedKind kind : {ClosedKind::SpatialSlip, ClosedKind::SpatialStick}) {
          out.modes.push_back({r, kind, mask});
          if (contacts_[r].has_rolling_resistance()) {  // and with the rolling held at rest
            LagrangianMode rest{r, kind, mask};
            rest.roll_rest_set = 1u << r;
            out.modes.push_back(rest);
          }
        }
        if (zeno_handover) out.modes.push_back({r, ClosedKind::PostZeno, mask});
      } else if (contacts_[r].frictional()) {
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
    if (mode.kind == ClosedKind::SpatialStick || mode.rolling_held()) {
      out.system.set_projection(id, detail::spatial_contact_projection(ctx, mode));
    } else if (mode.kind == ClosedKind::IndexSets && has_spatial_friction()) {
      out.system.set_projection(id, detail::spatial_index_set_projection(ctx, mode));
    } else if (closed_bits(mode) != 0 && mode.kind != ClosedKind::PostZeno) {
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
        out.system.add_guard(id, detail::impact_guard(ctx, d, mode));
        if (rigid.size() > 1) out.system.add_guard(id, detail::penetration_guard(ctx, d, id));
      }
    }
    if (mode.kind == ClosedKind::IndexSets && has_spatial_friction()) {
      detail::add_spatial_index_set_guards(out.system, id, ctx, mode);
    } else if (mode.kind == ClosedKind::IndexSets) {
      detail::add_index_set_guards(out.system, id, ctx, mode);
    } else if (mode.kind == ClosedKind::PostZeno && mode.closed_contact < 0) {
      detail::add_index_sets_guard(out.system, id, ctx, mode.compliant_mask);
    } else if (mode.kind != ClosedKind::None) {
      detail::add_closed_contact_guards(out.system, id, ctx, mode);
    }
    if (mode.kind != ClosedKind::PostZeno) {
      detail::add_compliant_guards(out.system, id, ctx, mode);
    }
  }

  // Zeno hand-over (one rigid contact): project onto g_N = gdot_N = 0 and close the contact.
  if (zeno_handover) {
    const int r = rigid[0];
    const ClosedKind target = contacts_[r].frictional() || contacts_[r].spatial_frictional()
                                  ? ClosedKind::PostZeno
                                  : ClosedKind::Frictionless;
    for (unsigned code = 0; code < ctx->configurations; ++code) {
      const LagrangianMode open = ctx->open_configuration(code);
      if (detail::has_compliant_friction(*this, open)) continue;  // ends as Termination::Zeno
      ZenoHandover handover;
      handover.target = ctx->find({r, target, open.compliant_mask});
      handover.apply = detail::zeno_projection(ctx, r);
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
    LagrangianMode stick{
        r, contacts_[r].spatial_frictional() ? ClosedKind::SpatialStick : ClosedKind::Stick, 0};
    if (contacts_[r].has_rolling_resistance()) stick.roll_rest_set = 1u << r;  // at rest
    out.stick[r] = ctx->find(stick);
  }
  return out;
}

ModeId LagrangianModel::Compiled::find(const LagrangianMode& mode) const {
  return context ? context->find(mode) : kNoMode;
}

}  // namespace saltus::mech
