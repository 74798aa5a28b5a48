// Flows written with sign(), abs(), min(), max(), if() or comparisons (issue 45): each switch's
// switching function h splits its mode into smooth modes, one per side of every surface, and
// sliding modes on each surface, so that the run locates every zero of h as an event and never
// integrates across a jump of the right-hand side (docs/MODEL_FORMAT.md "Switching flows").
//
// A mode `m` with surfaces h_1 .. h_K (K <= kMaxSurfaces) becomes:
//   regions  m[h1>0;h2<0;...]   the flow with each switch on its side's branch (lang/switches);
//   sliding  m[h1=0;h2<0;...]   on one surface, the others on a side: Filippov's convex
//            combination x' = l f+ + (1 - l) f-, l = b / (b - a), a = dh(f+), b = dh(f-)
//            (dh(f) = grad h . f + dh/dt), which keeps dh/dt = 0 (h stays 0 to the integrator's
//            tolerance; Utkin's equivalent control gives the same l for a flow affine in its
//            switch).
// Guards of a region on h > 0 (h < 0 mirrored): "cross:h" where h falls to 0 with a <= 0 and
// b <= 0 (the other side's flow carries on across: the other region), "slide:h" where a < 0 and
// b > 0 (it pushes back: attractive sliding); with a > 0 neither (not an arrival); "past:h"
// where the state lies kPastMargin past h while its own flow carries it further (a crossing the
// other two missed: the own flow pointed away at h and turned back under round-off). Of a sliding
// mode: "leave:h>0" where l rises to 1 (f+ tangent: the + side takes over; past 1 by kLeaveMargin),
// "leave:h<0" where l falls to 0, and "cross:g" for another surface g, taken where the sliding flow
// beyond g carries on across; elsewhere no target holds and the run stops naming both surfaces
// (sliding on an intersection is not solved). The mode's own guards go to every region and sliding
// mode; their targets into a split mode choose the region from h at the reset state. The initial
// region is the one the initial state is in; on a surface, the side its flows leave towards, or
// sliding where both push onto it; a repelling surface at the start (both push away: two solutions)
// is refused, naming it.
// (Just over 450 lines: the regions, the sliding modes and their guards are built from one
// Surfaces record and one set of rate expressions; splitting them would pass both around.)
#include <cmath>
#include <map>
#include <sstream>
#include <unordered_map>

#include "model_reader.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/expression_text.hpp"
#include "saltus/lang/switches.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {

namespace {

using lang::NodeId;
using lang::OpCode;

constexpr int kMaxSurfaces = 6;
// How far past [0, 1] the sliding weight goes before the run leaves the surface: above the
// round-off of l at a located exit (a few 1e-16) and far below any tolerance; it delays the exit
// by kLeaveMargin / |dl/dt| (1e-12 s on the relay).
constexpr double kLeaveMargin = 1e-12;
// How far past a surface (a fraction of h's scale, Guard::scale_offset) a region's state may lie
// before its `past:h` guard takes the crossing: far above round-off (a located exit leaves the
// state ~1e-16 past) and the engine's band (2e-12), far below any tolerance a user sets.
constexpr double kPastMargin = 1e-9;

// A mode's surfaces: each distinct switching function once, each switch on one of them.
struct Surfaces {
  std::vector<lang::Switch> switches;  // oriented: `plus` is the branch where h_k > 0
  std::vector<int> surface_of;         // per switch
  std::vector<NodeId> h;               // per surface
  std::vector<std::string> names;
  int first_region = -1;   // new index of region pattern 0; regions: first_region + pattern
  int first_sliding = -1;  // new index of sliding mode (k, pattern without bit k)
  int sliding_mode(int k, unsigned pattern) const {
    const int K = static_cast<int>(h.size());
    const unsigned low = pattern & ((1u << k) - 1u), high = (pattern >> (k + 1)) << k;
    return first_sliding + k * (1 << (K - 1)) + static_cast<int>(low | high);
  }
};

// Bit k of a pattern: surface k on its + side.
bool plus_side(unsigned pattern, int k) {
  return ((pattern >> k) & 1u) != 0;
}

}  // namespace

void ModelReader::lower_switches() {
  lang::ExpressionGraph& g = *graph_;
  const int nx = static_cast<int>(state_names_.size());
  const lang::ExpressionText text(g, state_names_, runtime_read_);
  const auto problem = [&](int mode, const std::string& message) {
    const auto at = flow_nodes_.find(mode);
    const std::string where = "mode '" + model_.modes[static_cast<size_t>(mode)].name + "' flow";
    if (at != flow_nodes_.end()) {
      add(*at->second, where + ": " + message);
    } else {
      add(0, 0, where + ": " + message);
    }
  };

  // The surfaces of each mode.
  const int old_count = static_cast<int>(model_.modes.size());
  std::vector<Surfaces> plans(static_cast<size_t>(old_count));
  bool any = false;
  for (int o = 0; o < old_count; ++o) {
    const ModelMode& mode = model_.modes[static_cast<size_t>(o)];
    Surfaces& s = plans[static_cast<size_t>(o)];
    try {
      s.switches = lang::find_switches(g, mode.flow);
    } catch (const Error& e) {
      problem(o, e.what());
      continue;
    }
    if (s.switches.empty()) continue;
    if (mode.kind != FlowKind::Ode || !mode.algebraic.empty()) {
      problem(o,
              "sign, abs, min, max, if or a comparison in a mode with algebraic states or "
              "residuals; expected them in an explicit flow, or [solver] switching = \"smooth\" "
              "to integrate them as written");
      continue;
    }
    for (lang::Switch& sw : s.switches) {
      int k = 0;
      bool flipped = false;
      const lang::ExpressionNode hn = g.node(sw.h);
      const NodeId mirrored =
          hn.op == OpCode::Sub ? g.make(OpCode::Sub, hn.b, hn.a) : g.make(OpCode::Neg, sw.h);
      for (; k < static_cast<int>(s.h.size()); ++k) {
        if (s.h[static_cast<size_t>(k)] == sw.h) break;
        if (s.h[static_cast<size_t>(k)] == mirrored) {
          flipped = true;
          break;
        }
      }
      if (k == static_cast<int>(s.h.size())) s.h.push_back(sw.h);
      if (flipped) std::swap(sw.plus, sw.minus);
      s.surface_of.push_back(k);
    }
    for (NodeId h : s.h) {
      s.names.push_back(text(h));
      if (!lang::find_switches(g, {h}).empty()) {
        problem(o, "the switching function " + s.names.back() +
                       " holds a switch itself; expected switches whose arguments are smooth");
      }
    }
    if (static_cast<int>(s.h.size()) > kMaxSurfaces) {
      problem(o, std::to_string(s.h.size()) + " switching surfaces; at most " +
                     std::to_string(kMaxSurfaces) + " per mode are split into modes");
    }
    any = true;
  }
  if (!any || !diagnostics.empty()) return;

  // New mode indices.
  std::vector<int> first(static_cast<size_t>(old_count));
  int next = 0;
  for (int o = 0; o < old_count; ++o) {
    Surfaces& s = plans[static_cast<size_t>(o)];
    first[static_cast<size_t>(o)] = next;
    if (s.h.empty()) {
      ++next;
      continue;
    }
    const int K = static_cast<int>(s.h.size());
    s.first_region = next;
    s.first_sliding = next + (1 << K);
    next = s.first_sliding + K * (1 << (K - 1));
  }

  // The flow of mode o with every switch on the branch of `pattern`'s sides (built once per
  // pattern: each region's flow is also its neighbours' "other side" and its sliding modes' f+-).
  std::map<std::pair<int, unsigned>, std::vector<NodeId>> region_flows;
  const auto region_flow = [&](int o, unsigned pattern) -> const std::vector<NodeId>& {
    std::vector<NodeId>& out = region_flows[{o, pattern}];
    if (!out.empty()) return out;
    const Surfaces& s = plans[static_cast<size_t>(o)];
    std::unordered_map<NodeId, NodeId> branch;
    for (size_t i = 0; i < s.switches.size(); ++i) {
      const lang::Switch& sw = s.switches[i];
      branch[sw.node] = plus_side(pattern, s.surface_of[i]) ? sw.plus : sw.minus;
    }
    for (NodeId f : model_.modes[static_cast<size_t>(o)].flow) {
      out.push_back(lang::substitute(g, f, branch));
    }
    return out;
  };
  // dh(f) = grad h . f + dh/dt.
  const auto rate = [&](NodeId h, const std::vector<NodeId>& f) {
    NodeId out = g.derivative(h, {OpCode::Time, 0});
    for (int i = 0; i < nx; ++i) {
      const NodeId d = g.derivative(h, {OpCode::State, i});
      out = g.make(OpCode::Add, out, g.make(OpCode::Mul, d, f[static_cast<size_t>(i)]));
    }
    return out;
  };
  const NodeId zero = g.constant(0.0), one = g.constant(1.0);
  // Filippov's sliding flow on surface k of mode o, the others on `pattern`'s sides, and its
  // weight l.
  const auto sliding_flow = [&](int o, int k, unsigned pattern, NodeId& weight) {
    const Surfaces& s = plans[static_cast<size_t>(o)];
    const std::vector<NodeId> fp = region_flow(o, pattern | (1u << k));
    const std::vector<NodeId> fm = region_flow(o, pattern & ~(1u << k));
    const NodeId h = s.h[static_cast<size_t>(k)];
    const NodeId a = rate(h, fp), b = rate(h, fm);
    // b - a identically 0: the switch does not act across h (a relay on another coordinate), no
    // arrival slides and any weight keeps dh/dt = a; 1/2 keeps the unreachable mode finite.
    const NodeId across = g.make(OpCode::Sub, b, a);
    weight = a == b || g.is_zero(across) ? g.constant(0.5) : g.make(OpCode::Div, b, across);
    std::vector<NodeId> out;
    for (int i = 0; i < nx; ++i) {
      out.push_back(g.make(
          OpCode::Add, g.make(OpCode::Mul, weight, fp[static_cast<size_t>(i)]),
          g.make(OpCode::Mul, g.make(OpCode::Sub, one, weight), fm[static_cast<size_t>(i)])));
    }
    return out;
  };
  // The condition "h > 0" / "h < 0" of `pattern`'s side of every surface of mode o at the state
  // `after` gives (states replaced by their reset values): h >= 0 counts as the + side.
  const auto region_condition = [&](int o, unsigned pattern,
                                    const std::unordered_map<NodeId, NodeId>& after) {
    const Surfaces& s = plans[static_cast<size_t>(o)];
    NodeId out = lang::kNoNode;
    for (int k = 0; k < static_cast<int>(s.h.size()); ++k) {
      const NodeId h = lang::substitute(g, s.h[static_cast<size_t>(k)], after);
      const NodeId c = g.make(plus_side(pattern, k) ? OpCode::GreaterEqual : OpCode::Less, h, zero);
      out = out == lang::kNoNode ? c : g.make(OpCode::Mul, out, c);
    }
    return out;
  };
  // A guard of the original mode with its targets into the new modes.
  const auto mapped_guard = [&](const ModelGuard& guard) {
    ModelGuard out = guard;
    out.targets.clear();
    for (const ModelTarget& t : guard.targets) {
      const Surfaces& s = plans[static_cast<size_t>(t.target)];
      if (s.h.empty()) {
        ModelTarget m = t;
        m.target = first[static_cast<size_t>(t.target)];
        out.targets.push_back(m);
        continue;
      }
      std::unordered_map<NodeId, NodeId> after;
      for (const Assignment& a : t.reset) after[g.state(a.state)] = a.value;
      for (unsigned p = 0; p < (1u << s.h.size()); ++p) {
        ModelTarget m = t;
        m.target = s.first_region + static_cast<int>(p);
        const NodeId c = region_condition(t.target, p, after);
        m.when = t.when == lang::kNoNode ? c : g.make(OpCode::Mul, t.when, c);
        m.when_text = (t.when_text.empty() ? "" : t.when_text + " and ") + "the region of '" +
                      model_.modes[static_cast<size_t>(t.target)].name + "' at the reset state";
        out.targets.push_back(m);
      }
    }
    return out;
  };

  // Region and sliding names: m[h1>0;h2=0].
  const auto mode_name = [&](int o, unsigned pattern, int sliding_on) {
    const Surfaces& s = plans[static_cast<size_t>(o)];
    std::string out = model_.modes[static_cast<size_t>(o)].name + "[";
    for (int k = 0; k < static_cast<int>(s.h.size()); ++k) {
      out += (k ? ";" : "") + s.names[static_cast<size_t>(k)] +
             (k == sliding_on         ? "=0"
              : plus_side(pattern, k) ? ">0"
                                      : "<0");
    }
    return out + "]";
  };

  std::vector<ModelMode> modes;
  for (int o = 0; o < old_count; ++o) {
    const ModelMode& old = model_.modes[static_cast<size_t>(o)];
    const Surfaces& s = plans[static_cast<size_t>(o)];
    const auto copy_own = [&](ModelMode& mode) {
      for (const ModelGuard& guard : old.guards) mode.guards.push_back(mapped_guard(guard));
      if (old.zeno) {
        mode.zeno = old.zeno;
        mode.zeno->target = first[static_cast<size_t>(old.zeno->target)];
        if (!plans[static_cast<size_t>(old.zeno->target)].h.empty()) {
          problem(o,
                  "its Zeno hand-over goes to a mode with switching surfaces; expected a "
                  "target without them");
        }
      }
    };
    if (s.h.empty()) {
      ModelMode mode = old;
      mode.guards.clear();
      mode.zeno.reset();
      copy_own(mode);
      modes.push_back(std::move(mode));
      continue;
    }
    const int K = static_cast<int>(s.h.size());
    for (unsigned p = 0; p < (1u << K); ++p) {
      ModelMode mode;
      mode.name = mode_name(o, p, -1);
      mode.flow = region_flow(o, p);
      for (int k = 0; k < K; ++k) {
        const NodeId h = s.h[static_cast<size_t>(k)];
        const bool above = plus_side(p, k);
        // The other side's rate across h: it carries on (crossing) or pushes back (sliding);
        // this side's own rate must head for h. Where it does not (a state put a round-off past
        // h by a jump, such as the exit from sliding at l = 1 + kLeaveMargin, whose own rate
        // points away), neither fires: the crossing passes and the run stays on this side.
        const NodeId other = rate(h, region_flow(o, p ^ (1u << k)));
        const NodeId own = rate(h, mode.flow);
        const OpCode heads = above ? OpCode::LessEqual : OpCode::GreaterEqual;
        ModelGuard cross;
        cross.name = "cross:" + s.names[static_cast<size_t>(k)];
        cross.value = above ? g.make(OpCode::Neg, h) : h;
        cross.when = g.make(OpCode::Mul, g.make(heads, other, zero), g.make(heads, own, zero));
        cross.when_text = "both sides' flows cross " + s.names[static_cast<size_t>(k)] + " = 0";
        ModelTarget across;
        across.target = s.first_region + static_cast<int>(p ^ (1u << k));
        cross.targets.push_back(across);
        ModelGuard slide = cross;
        slide.name = "slide:" + s.names[static_cast<size_t>(k)];
        slide.when =
            g.make(OpCode::Mul, g.make(above ? OpCode::Greater : OpCode::Less, other, zero),
                   g.make(above ? OpCode::Less : OpCode::Greater, own, zero));
        slide.when_text =
            "the flows on both sides of " + s.names[static_cast<size_t>(k)] + " = 0 push onto it";
        slide.targets[0].target = s.sliding_mode(k, p);
        // Past the surface by more than round-off while on this side: a crossing neither guard
        // took, because this side's own rate pointed away when the state reached h and turned
        // back later (a crossing at the end of the sliding region, where the other side's flow
        // is tangent: the excursion below round-off). Taken then as the crossing it was, by the
        // same rule; where neither holds the run stops naming it, never integrating this side's
        // flow on the other.
        ModelGuard past;
        past.name = "past:" + s.names[static_cast<size_t>(k)];
        past.value = cross.value;
        past.scale_offset = kPastMargin;
        // Only while this side's flow carries the state further past: a state a round-off past
        // after a jump, its own flow carrying it back, is no crossing (the exit from sliding).
        past.when = g.make(above ? OpCode::Less : OpCode::Greater, own, zero);
        past.when_text =
            "this side's flow carries the state across " + s.names[static_cast<size_t>(k)] + " = 0";
        ModelTarget carry_on = cross.targets[0];
        carry_on.when = cross.when;
        carry_on.when_text = cross.when_text;
        ModelTarget onto = slide.targets[0];
        onto.when = slide.when;
        onto.when_text = slide.when_text;
        past.targets = {carry_on, onto};
        mode.guards.push_back(std::move(cross));
        mode.guards.push_back(std::move(slide));
        mode.guards.push_back(std::move(past));
      }
      copy_own(mode);
      modes.push_back(std::move(mode));
    }
    for (int k = 0; k < K; ++k) {
      for (unsigned p = 0; p < (1u << K); ++p) {
        if (plus_side(p, k)) continue;  // one sliding mode per pattern of the other surfaces
        ModelMode mode;
        mode.name = mode_name(o, p, k);
        NodeId weight = lang::kNoNode;
        mode.flow = sliding_flow(o, k, p, weight);
        mode.sliding = ModelMode::SlidingSurface{s.h[static_cast<size_t>(k)],
                                                 s.first_region + static_cast<int>(p | (1u << k)),
                                                 s.first_region + static_cast<int>(p)};
        for (const bool up : {true, false}) {
          ModelGuard leave;
          leave.name = "leave:" + s.names[static_cast<size_t>(k)] + (up ? ">0" : "<0");
          // l past [0, 1] by kLeaveMargin: there the side's rate across h points away by
          // kLeaveMargin (b - a), so the region entered does not slide back at once on the
          // round-off of a located exit (a start on the surface left at l = 1 - 6e-17 and
          // slid again, an event per instant).
          leave.value =
              up ? g.make(OpCode::Sub, weight, g.constant(1.0 + kLeaveMargin))
                 : g.make(OpCode::Sub, g.make(OpCode::Neg, weight), g.constant(kLeaveMargin));
          ModelTarget side;
          side.target = s.first_region + static_cast<int>(up ? p | (1u << k) : p);
          leave.targets.push_back(side);
          mode.guards.push_back(std::move(leave));
        }
        for (int j = 0; j < K; ++j) {
          if (j == k) continue;
          const NodeId h = s.h[static_cast<size_t>(j)];
          const bool above = plus_side(p, j);
          NodeId beyond_weight = lang::kNoNode;
          const std::vector<NodeId> beyond = sliding_flow(o, k, p ^ (1u << j), beyond_weight);
          ModelGuard cross;
          cross.name = "cross:" + s.names[static_cast<size_t>(j)];
          cross.value = above ? g.make(OpCode::Neg, h) : h;
          ModelTarget across;
          across.target = s.sliding_mode(k, p ^ (1u << j));
          across.when =
              g.make(above ? OpCode::LessEqual : OpCode::GreaterEqual, rate(h, beyond), zero);
          across.when_text = "sliding on " + s.names[static_cast<size_t>(k)] +
                             " = 0 carries on across " + s.names[static_cast<size_t>(j)] +
                             " = 0 (else sliding on both, which is not solved)";
          cross.targets.push_back(across);
          mode.guards.push_back(std::move(cross));
        }
        copy_own(mode);
        modes.push_back(std::move(mode));
      }
    }
  }

  // The initial region.
  const int o0 = model_.initial_mode;
  const Surfaces& s0 = plans[static_cast<size_t>(o0)];
  int initial = first[static_cast<size_t>(o0)];
  if (!s0.h.empty()) {
    const Vector x0 = model_.initial_state(), z0(0);
    const auto value = [&](NodeId node) {
      const lang::Tape tape = lang::compile_tape(g, {{node, 0}});
      return lang::evaluate(tape, model_.t_start, x0, x0, z0);
    };
    unsigned pattern = 0;
    int on = -1;
    for (int k = 0; k < static_cast<int>(s0.h.size()); ++k) {
      const double h = value(s0.h[static_cast<size_t>(k)]);
      if (h > 0.0) pattern |= 1u << k;
      if (h == 0.0) {
        if (on >= 0) {
          add(0, 0,
              "[initial]: the initial state is on two switching surfaces of mode '" +
                  model_.modes[static_cast<size_t>(o0)].name + "' (" +
                  s0.names[static_cast<size_t>(on)] + " = 0 and " +
                  s0.names[static_cast<size_t>(k)] + " = 0); expected a start on one");
          return;
        }
        on = k;
      }
    }
    initial = s0.first_region + static_cast<int>(pattern);
    if (on >= 0) {
      const NodeId h = s0.h[static_cast<size_t>(on)];
      const double a = value(rate(h, region_flow(o0, pattern | (1u << on))));
      const double b = value(rate(h, region_flow(o0, pattern & ~(1u << on))));
      const std::string where = "[initial]: the initial state is on the switching surface " +
                                s0.names[static_cast<size_t>(on)] + " = 0 of mode '" +
                                model_.modes[static_cast<size_t>(o0)].name + "'";
      if (a < 0.0 && b > 0.0) {
        initial = s0.sliding_mode(on, pattern & ~(1u << on));
      } else if (a > 0.0 && b >= 0.0) {
        initial = s0.first_region + static_cast<int>(pattern | (1u << on));
      } else if (a <= 0.0 && b < 0.0) {
        initial = s0.first_region + static_cast<int>(pattern & ~(1u << on));
      } else {
        std::ostringstream m;
        m.precision(6);
        m << where << ", where "
          << (a > 0.0 && b < 0.0 ? "both sides' flows leave it (repelling: a solution goes either "
                                   "way)"
                                 : "a side's flow is tangent to it")
          << ": dh(f+) = " << a << ", dh(f-) = " << b << "; expected a start off the surface";
        add(0, 0, m.str());
        return;
      }
    }
  }
  if (!diagnostics.empty()) return;
  for (int o = 0; o < old_count; ++o) {
    const Surfaces& s = plans[static_cast<size_t>(o)];
    if (s.h.empty()) continue;
    std::string note = "mode '" + model_.modes[static_cast<size_t>(o)].name +
                       "' has switching surfaces (located as events; sliding by Filippov's " +
                       "convex combination):";
    for (const std::string& n : s.names) note += " " + n + " = 0;";
    model_.notes.push_back(note);
  }
  model_.modes = std::move(modes);
  model_.initial_mode = initial;
  mode_names_.clear();
  for (const ModelMode& m : model_.modes) mode_names_.push_back(m.name);
}

}  // namespace saltus::model::loader
