#include "saltus/core/hybrid_system.hpp"

#include <algorithm>

#include "saltus/core/error.hpp"

namespace saltus {

void Flow::check(const std::string& where) const {
  if (nx < 0 || nz < 0)
    saltus::detail::throw_error(where, ": negative state size (nx=", nx, ", nz=", nz, ")");
  switch (kind) {
    case FlowKind::Ode:
      if (nz != 0)
        saltus::detail::throw_error(where, ": an Ode flow has no algebraic states, got nz=", nz);
      if (!rhs) saltus::detail::throw_error(where, ": Ode flow without right-hand side");
      break;
    case FlowKind::SemiExplicitDae:
      if (!rhs || !algebraic) {
        saltus::detail::throw_error(where, ": semi-explicit DAE needs both f and g");
      }
      break;
    case FlowKind::ImplicitDae:
      if (!residual || !algebraic) {
        saltus::detail::throw_error(where, ": implicit DAE needs both F and g");
      }
      if (!residual_jacobian)
        saltus::detail::throw_error(where, ": implicit DAE needs dF/dx, dF/dx'");
      break;
  }
  if (nz > 0 && !algebraic_jacobian) saltus::detail::throw_error(where, ": DAE flow needs dg/dz");
}

ModeId HybridSystem::add_mode(std::string name, Flow flow) {
  for (const Mode& m : modes_) {
    if (m.name == name)
      saltus::detail::throw_error("add_mode: a mode named '", name, "' already exists");
  }
  flow.check("mode '" + name + "'");
  modes_.push_back(
      Mode{std::move(name), std::move(flow), {}, std::nullopt, std::nullopt, std::nullopt, {}});
  return static_cast<ModeId>(modes_.size() - 1);
}

GuardId HybridSystem::add_guard(ModeId mode_id, Guard guard) {
  if (mode_id < 0 || mode_id >= mode_count()) {
    saltus::detail::throw_error("add_guard '", guard.name, "': unknown mode id ", mode_id, " (",
                                mode_count(), " modes)");
  }
  Mode& m = modes_[mode_id];
  if (!guard.value)
    saltus::detail::throw_error("mode '", m.name, "', guard '", guard.name, "': no value");
  m.guards.push_back(std::move(guard));
  m.guard_set.reset();  // written for the guards before this one
  return static_cast<GuardId>(m.guards.size() - 1);
}

void HybridSystem::set_guard_set(ModeId mode_id, DirectGuardSet set) {
  if (mode_id < 0 || mode_id >= mode_count()) {
    saltus::detail::throw_error("set_guard_set: unknown mode id ", mode_id);
  }
  if (!set.fast)
    saltus::detail::throw_error("mode '", modes_[mode_id].name, "': guard set without entry");
  modes_[mode_id].guard_set = std::move(set);
}

void HybridSystem::set_projection(ModeId mode_id, InvariantProjection projection) {
  if (mode_id < 0 || mode_id >= mode_count()) {
    saltus::detail::throw_error("set_projection: unknown mode id ", mode_id);
  }
  modes_[mode_id].projection = std::move(projection);
}

void HybridSystem::add_discontinuity(ModeId mode_id, Discontinuity discontinuity) {
  if (mode_id < 0 || mode_id >= mode_count()) {
    saltus::detail::throw_error("add_discontinuity: unknown mode id ", mode_id);
  }
  if (!discontinuity.value) {
    saltus::detail::throw_error("mode '", modes_[mode_id].name, "': discontinuity '",
                                discontinuity.text, "' has no switching function");
  }
  modes_[mode_id].discontinuities.push_back(std::move(discontinuity));
}

void HybridSystem::set_zeno_handover(ModeId mode_id, ZenoHandover handover) {
  if (mode_id < 0 || mode_id >= mode_count()) {
    saltus::detail::throw_error("set_zeno_handover: unknown mode id ", mode_id);
  }
  modes_[mode_id].zeno_handover = std::move(handover);
}

const Mode& HybridSystem::mode(ModeId id) const {
  if (id < 0 || id >= mode_count()) {
    saltus::detail::throw_error("unknown mode id ", id, " (", mode_count(), " modes)");
  }
  return modes_[id];
}

ModeId HybridSystem::mode_id(const std::string& name) const {
  std::string known;
  for (ModeId i = 0; i < mode_count(); ++i) {
    if (modes_[i].name == name) return i;
    known += (i ? ", '" : "'") + modes_[i].name + "'";
  }
  saltus::detail::throw_error("unknown mode '", name, "' (known: ", known, ")");
}

int HybridSystem::max_nx() const {
  int n = 0;
  for (const Mode& m : modes_) n = std::max(n, m.flow.nx);
  return n;
}

int HybridSystem::max_nz() const {
  int n = 0;
  for (const Mode& m : modes_) n = std::max(n, m.flow.nz);
  return n;
}

int HybridSystem::max_reset_outputs() const {
  size_t n = 0;
  for (const Mode& m : modes_) {
    for (const Guard& g : m.guards) n = std::max(n, g.reset.output_names.size());
  }
  return static_cast<int>(n);
}

int HybridSystem::max_invariants() const {
  int n = 0;
  for (const Mode& m : modes_) {
    if (m.projection) n = std::max(n, m.projection->count);
  }
  return n;
}

int HybridSystem::max_guards() const {
  int n = 0;
  for (const Mode& m : modes_) n = std::max(n, static_cast<int>(m.guards.size()));
  return n;
}

void HybridSystem::validate() const {
  if (modes_.empty()) saltus::detail::throw_error("hybrid system has no modes");
  auto check_target = [&](const Mode& from, const std::string& what, ModeId target, bool has_map) {
    if (target < 0 || target >= mode_count()) {
      saltus::detail::throw_error("mode '", from.name, "', ", what, ": reset to unknown mode id ",
                                  target, " (", mode_count(), " modes)");
    }
    if (!has_map && modes_[target].flow.nx != from.flow.nx) {
      saltus::detail::throw_error("mode '", from.name, "', ", what, ": identity reset into mode '",
                                  modes_[target].name, "' changes the state size (", from.flow.nx,
                                  " -> ", modes_[target].flow.nx, "); give a reset map");
    }
  };
  for (const Mode& m : modes_) {
    m.flow.check("mode '" + m.name + "'");
    for (const Guard& g : m.guards) {
      if (!g.reset.output_names.empty() && !g.reset.apply) {
        saltus::detail::throw_error("mode '", m.name, "', guard '", g.name,
                                    "': ", g.reset.output_names.size(),
                                    " output names but no apply function to compute them");
      }
      for (int c : g.reads_states) {
        if (c < 0 || c >= m.flow.nx) {
          saltus::detail::throw_error("mode '", m.name, "', guard '", g.name,
                                      "': reads_states names state ", c, " of ", m.flow.nx);
        }
      }
      if (!g.observe_only && !g.reset.chooses_target) {
        check_target(m, "guard '" + g.name + "'", g.reset.target, !g.reset.identity);
      }
    }
    if (m.projection &&
        (m.projection->count < 1 || !m.projection->values || !m.projection->project)) {
      saltus::detail::throw_error("mode '", m.name,
                                  "': invariant projection needs count >= 1 (has ",
                                  m.projection->count, "), values and project");
    }
    if (m.projection && m.flow.nz > 0) {
      // The projection moves x only; z would no longer solve 0 = g(t, x, z).
      saltus::detail::throw_error("mode '", m.name,
                                  "': invariant projection is for ODE modes (this one has ",
                                  m.flow.nz, " algebraic states)");
    }
    if (m.zeno_handover) {
      check_target(m, "Zeno hand-over", m.zeno_handover->target,
                   m.zeno_handover->map || m.zeno_handover->apply);
    }
  }
}

}  // namespace saltus
