// A mode's flow_set and jump_set (HyEQ's C and D; Goebel, Sanfelice and Teel), lowered to guards.
//
// jump_set: D is a union of conjunctions of comparisons (written with && and ||). Every entry
// into a conjunction crosses one of its boundaries while the others hold, so each comparison the
// flow can change (it reads t or a continuous state) becomes a guard crossing into it, with the
// rest of its conjunction as `when`. A conjunction of parameters and discrete variables alone
// cannot be entered by the flow: its guard (value 1, always past its surface) fires only at the
// start or after a jump that lands inside. The guards form one exclusive group: a corner of D
// crossed at one instant is one jump.
// flow_set: each boundary of C becomes a guard crossing out of it, which fires where the state is
// then in neither C nor D: the run stops there (HyEQ's solution ends) with the sets named.
// priority = "jump" (default, HyEQ's rule 1): in D the state jumps, whether in C or not.
// priority = "flow" (rule 2): in C the state flows; it jumps where it leaves C into D.
// At a crossing the comparisons on the crossed surface are read as on its far side, so that
// `x >= 0` and `x <= 0` sharing the boundary x = 0 do not depend on the rounding of x there; the
// other comparisons the flow changes are read within 64 ulps of their operands (a corner of D
// crossed at one instant).
// The guards are sets' guards (Guard::SetRule): a start inside D (or outside C in D, with flow
// priority) jumps first, and a jump that lands inside D jumps again.
#include <algorithm>
#include <functional>
#include <limits>
#include <utility>

#include "model_reader.hpp"

namespace saltus::model::loader {

namespace {

using lang::NodeId;
using lang::OpCode;

struct Comparison {
  NodeId node = lang::kNoNode;     // as written
  NodeId surface = lang::kNoNode;  // its boundary s = 0, one node for a - b and b - a
  int side = 0;                    // +1: s >= 0, -1: s <= 0, 0: s == 0 (relative to `surface`)
  bool flows = false;              // the flow can change it (reads t or a continuous state)
};
using Conjunction = std::vector<Comparison>;

constexpr size_t kMaxConjunctions = 64;

class SetLowering {
 public:
  SetLowering(lang::ExpressionGraph& g, std::function<bool(int)> held)
      : g_(g), held_(std::move(held)) {}

  // The union of conjunctions equal to `root`; nullopt (with `error` set) where it is not one.
  std::optional<std::vector<Conjunction>> disjunctive_form(NodeId root) {
    const lang::ExpressionNode n = g_.node(root);  // a copy: make() may move the graph's nodes
    if (lang::is_comparison(n.op)) {
      auto c = comparison(root);
      if (!c) return std::nullopt;
      return std::vector<Conjunction>{{*c}};
    }
    if (n.op == OpCode::Const) {
      if (n.value == 1.0) return std::vector<Conjunction>{{}};
      return std::vector<Conjunction>{};
    }
    auto a = disjunctive_form(n.a);
    if (!a) return std::nullopt;
    auto b = disjunctive_form(n.b);
    if (!b) return std::nullopt;
    if (n.op == OpCode::Max) {
      a->insert(a->end(), b->begin(), b->end());
    } else {  // Mul, Min: "and"
      std::vector<Conjunction> product;
      for (const Conjunction& x : *a) {
        for (const Conjunction& y : *b) {
          product.push_back(x);
          product.back().insert(product.back().end(), y.begin(), y.end());
        }
      }
      a->swap(product);
    }
    if (a->size() > kMaxConjunctions) {
      error = "it expands to more than " + std::to_string(kMaxConjunctions) +
              " conjunctions; expected a union (||) of fewer conjunctions (&&)";
      return std::nullopt;
    }
    return a;
  }

  // `root` with every comparison on `surface` replaced by its value on side `side` of it (0: on
  // the surface, where every comparison on it but != holds).
  NodeId across(NodeId root, NodeId surface, int side) {
    const lang::ExpressionNode n = g_.node(root);
    if (lang::is_comparison(n.op)) {
      const auto c = comparison(root);
      if (!c || c->surface != surface) return root;
      const bool holds = side == 0 ? n.op != OpCode::NotEqual : (c->side == side);
      return g_.constant(holds ? 1.0 : 0.0);
    }
    if (n.op != OpCode::Mul && n.op != OpCode::Min && n.op != OpCode::Max) return root;
    const NodeId a = across(n.a, surface, side);
    return g_.make(n.op, a, across(n.b, surface, side));
  }

  // not(root), by De Morgan down to negated comparisons (a condition node again).
  NodeId negation(NodeId root) {
    const lang::ExpressionNode n = g_.node(root);
    switch (n.op) {
      case OpCode::Const:
        return g_.constant(n.value == 0.0 ? 1.0 : 0.0);
      case OpCode::Less:
        return g_.make(OpCode::GreaterEqual, n.a, n.b);
      case OpCode::LessEqual:
        return g_.make(OpCode::Greater, n.a, n.b);
      case OpCode::Greater:
        return g_.make(OpCode::LessEqual, n.a, n.b);
      case OpCode::GreaterEqual:
        return g_.make(OpCode::Less, n.a, n.b);
      case OpCode::Equal:
        return g_.make(OpCode::NotEqual, n.a, n.b);
      case OpCode::NotEqual:
        return g_.make(OpCode::Equal, n.a, n.b);
      case OpCode::Max:
        return g_.make(OpCode::Mul, negation(n.a), negation(n.b));
      default:
        return g_.make(OpCode::Max, negation(n.a), negation(n.b));  // Mul, Min
    }
  }

  // `root` with each comparison the flow can change read with a tolerance of 64 ulps of its
  // operands (a - b >= -64 eps (|a| + |b|) for a >= b): at a corner crossed at one instant (two
  // clocks reaching T together) the located event leaves the other boundary a rounding away,
  // on either side. Sets are closed; this widens them by round-off only.
  NodeId relaxed(NodeId root) {
    const lang::ExpressionNode n = g_.node(root);
    if (lang::is_comparison(n.op)) {
      const auto c = comparison(root);
      if (!c || !c->flows || n.op == OpCode::NotEqual) return root;
      const NodeId slack =
          g_.make(OpCode::Mul, g_.constant(64.0 * std::numeric_limits<double>::epsilon()),
                  g_.make(OpCode::Add, g_.make(OpCode::Abs, n.a), g_.make(OpCode::Abs, n.b)));
      const bool upper = n.op == OpCode::Greater || n.op == OpCode::GreaterEqual;
      if (n.op == OpCode::Equal) {
        return g_.make(OpCode::LessEqual, g_.make(OpCode::Abs, g_.make(OpCode::Sub, n.a, n.b)),
                       slack);
      }
      const NodeId d = upper ? g_.make(OpCode::Sub, n.a, n.b) : g_.make(OpCode::Sub, n.b, n.a);
      return g_.make(OpCode::GreaterEqual, g_.make(OpCode::Add, d, slack), g_.constant(0.0));
    }
    if (n.op != OpCode::Mul && n.op != OpCode::Min && n.op != OpCode::Max) return root;
    const NodeId a = relaxed(n.a);
    return g_.make(n.op, a, relaxed(n.b));
  }

  NodeId conjunction_node(const Conjunction& c) {
    NodeId out = g_.constant(1.0);
    for (const Comparison& k : c) out = g_.make(OpCode::Mul, out, k.node);
    return out;
  }

  // The guard value that rises through 0 where the state crosses into comparison `c` (into its
  // complement: `into` false); the direction in `direction`.
  NodeId crossing_value(const Comparison& c, bool into, Direction& direction) {
    const lang::ExpressionNode n = g_.node(c.node);
    direction = Direction::Rising;
    if (n.op == OpCode::Equal) {
      direction = Direction::Either;
      return g_.make(OpCode::Sub, n.a, n.b);
    }
    const bool upper = n.op == OpCode::Greater || n.op == OpCode::GreaterEqual;  // a >= b
    return upper == into ? g_.make(OpCode::Sub, n.a, n.b) : g_.make(OpCode::Sub, n.b, n.a);
  }

  std::string error;

 private:
  std::optional<Comparison> comparison(NodeId id) {
    const lang::ExpressionNode n = g_.node(id);
    if (n.op == OpCode::NotEqual) {
      error =
          "'!=' leaves a set without its boundary, where no crossing can be located; "
          "expected <=, >=, <, > or ==";
      return std::nullopt;
    }
    Comparison c;
    c.node = id;
    const NodeId ab = g_.make(OpCode::Sub, n.a, n.b), ba = g_.make(OpCode::Sub, n.b, n.a);
    c.surface = std::min(ab, ba);
    const int orient = c.surface == ab ? 1 : -1;
    if (n.op == OpCode::Greater || n.op == OpCode::GreaterEqual) c.side = orient;
    if (n.op == OpCode::Less || n.op == OpCode::LessEqual) c.side = -orient;
    for (const lang::Variable& v : g_.inputs(ab)) {
      if (v.kind == OpCode::Time || v.kind == OpCode::Algebraic ||
          (v.kind == OpCode::State && !held_(v.index))) {
        c.flows = true;
      }
    }
    return c;
  }

  lang::ExpressionGraph& g_;
  std::function<bool(int)> held_;  // state i has rate 0 in every mode (discrete, parameter)
};

std::string line_of(const toml::node& n) {
  return "line " + std::to_string(n.source().begin.line);
}

}  // namespace

void ModelReader::read_hybrid_sets(const toml::table& t, ModelMode& mode, int self,
                                   const lang::SymbolTable& s) {
  const std::string where = "mode '" + mode.name + "'";
  const toml::node* c_node = t.get("flow_set");
  const toml::node* d_node = t.get("jump_set");
  const toml::node* jump = t.get("jump");
  const toml::node* jump_target = t.get("jump_target");
  const toml::node* priority = t.get("priority");
  if (d_node == nullptr) {
    for (const toml::node* n : {jump, jump_target}) {
      if (n != nullptr)
        add(*n, where + " has a jump map but no jump_set; expected jump_set = \"...\"");
    }
  }
  if (priority != nullptr && (c_node == nullptr || d_node == nullptr)) {
    add(*priority, where + " priority decides between flow_set and jump_set; expected both");
  }
  if (c_node == nullptr && d_node == nullptr) return;
  bool flow_first = false;
  if (priority != nullptr) {
    if (auto p = string(*priority, where + " priority")) {
      if (*p == "flow") {
        flow_first = true;
      } else if (*p != "jump") {
        add(*priority, where + " priority '" + *p + "'; expected \"jump\" (HyEQ's rule 1, the " +
                           "default) or \"flow\" (rule 2)");
      }
    }
  }
  SetLowering sets(*graph_,
                   [this](int i) { return is_discrete_state(i) || is_parameter_state(i); });
  // A set as written; without one C is everywhere and D nowhere.
  auto read_set = [&](const toml::node* n, const char* key, bool absent) -> std::optional<NodeId> {
    if (n == nullptr) return graph_->constant(absent ? 1.0 : 0.0);
    auto root = condition(*n, where, s, key);
    if (!root) return std::nullopt;
    if (!sets.disjunctive_form(*root)) {
      add(*n, where + " " + key + " '" + *n->value<std::string>() + "': " + sets.error);
      return std::nullopt;
    }
    return root;
  };
  const auto c_root = read_set(c_node, "flow_set", true);
  const auto d_root = read_set(d_node, "jump_set", false);
  if (!c_root || !d_root) return;
  const auto flow_set = *sets.disjunctive_form(*c_root);
  const auto jump_set = *sets.disjunctive_form(*d_root);
  if (d_node != nullptr && jump_set.size() == 1 && jump_set[0].empty()) {
    add(*d_node, where +
                     " jump_set holds everywhere: every state would jump forever; expected "
                     "a condition on the states");
    return;
  }
  const int target = target_mode(jump_target, self, where + " jump");
  std::vector<Assignment> reset;
  if (jump != nullptr) {
    for (auto& a : assignments(*jump, where + " jump", s, false, s.algebraic)) {
      reset.push_back({a.state, a.value});
    }
  }
  const std::string c_text =
      c_node ? "'" + *c_node->value<std::string>() + "' (" + file_ + " " + line_of(*c_node) + ")"
             : "";
  const std::string d_text =
      d_node ? "'" + *d_node->value<std::string>() + "' (" + file_ + " " + line_of(*d_node) + ")"
             : "(none)";
  constexpr Guard::SetRule kOpen = Guard::SetRule::OpenSet, kClosed = Guard::SetRule::ClosedSet;
  std::vector<ModelGuard> lowered;
  // Adds a guard, or widens the `when` of one already crossing the same way (an or).
  // rule: ClosedSet for D's own boundaries (a start on them is in D), OpenSet for C's (a start
  // on C's boundary is in C: it jumps or stops only once it moves out).
  auto add_guard = [&](NodeId value, Direction direction, NodeId when, bool jumps,
                       Guard::SetRule rule) {
    if (graph_->is_zero(when)) return;  // never holds
    for (ModelGuard& g : lowered) {
      if (g.value == value && g.direction == direction && g.stop_message.empty() == jumps) {
        if (g.when != lang::kNoNode) {
          g.when = graph_->is_one(when) ? lang::kNoNode : graph_->make(OpCode::Max, g.when, when);
        }
        return;
      }
    }
    ModelGuard g;
    g.value = value;
    g.direction = direction;
    g.when = graph_->is_one(when) ? lang::kNoNode : when;
    g.set_rule = rule;
    ModelTarget to;
    to.target = target;
    if (jumps) {
      g.exclusive_group = 0;
      to.reset = reset;
      g.when_text = "in jump_set " + d_text;
    } else {
      g.stop_message = "the state leaves flow_set " + c_text + " outside jump_set " + d_text +
                       ": HyEQ's solution ends here (it can neither flow nor jump)";
      g.when_text = "outside flow_set " + c_text + " and jump_set " + d_text;
    }
    g.targets.push_back(std::move(to));
    lowered.push_back(std::move(g));
  };
  // Crossing out of flow-set comparison k: the state is then outside C; in D or not.
  for (const Conjunction& conj : flow_set) {
    for (const Comparison& k : conj) {
      if (!k.flows) continue;
      if (k.side == 0) {
        add(*c_node, where + " flow_set '" + *c_node->value<std::string>() +
                         "' has '==' on a state: a flow cannot stay on a surface it does not "
                         "follow; expected <=, >=, < or >");
        return;
      }
      Direction dir;
      const NodeId value = sets.crossing_value(k, false, dir);
      const NodeId outside_c =
          sets.negation(sets.relaxed(sets.across(*c_root, k.surface, -k.side)));
      const NodeId in_d = sets.relaxed(sets.across(*d_root, k.surface, -k.side));
      if (flow_first)
        add_guard(value, dir, graph_->make(OpCode::Mul, outside_c, in_d), true, kOpen);
      add_guard(value, dir, graph_->make(OpCode::Mul, outside_c, sets.negation(in_d)), false,
                kOpen);
    }
  }
  // A jump that changes a discrete variable of C may land outside C without crossing any of its
  // boundaries: a guard past its surface everywhere catches it (and a start outside C and D).
  const bool static_c = std::any_of(flow_set.begin(), flow_set.end(), [](const Conjunction& c) {
    return std::any_of(c.begin(), c.end(), [](const Comparison& k) { return !k.flows; });
  });
  if (static_c) {
    const NodeId outside_c = sets.negation(sets.relaxed(*c_root));
    const NodeId in_d = sets.relaxed(*d_root);
    const NodeId neither = graph_->make(OpCode::Mul, outside_c, sets.negation(in_d));
    if (flow_first) {
      add_guard(graph_->constant(1.0), Direction::Rising,
                graph_->make(OpCode::Mul, outside_c, in_d), true, kOpen);
    }
    add_guard(graph_->constant(1.0), Direction::Rising, neither, false, kOpen);
  }
  if (!flow_first) {
    for (const Conjunction& conj : jump_set) {
      const NodeId whole = sets.conjunction_node(conj);
      bool any = false;
      for (const Comparison& k : conj) {
        if (!k.flows) continue;
        any = true;
        Direction dir;
        const NodeId value = sets.crossing_value(k, true, dir);
        add_guard(value, dir, sets.relaxed(sets.across(whole, k.surface, k.side)), true, kClosed);
      }
      if (!any) add_guard(graph_->constant(1.0), Direction::Rising, whole, true, kClosed);
    }
  }
  // Names: "jump" and "leaves_flow_set", numbered where there are several.
  int jumps = 0, exits = 0;
  for (const ModelGuard& g : lowered) (g.stop_message.empty() ? jumps : exits) += 1;
  int j = 0, e = 0;
  for (ModelGuard& g : lowered) {
    const bool is_jump = g.stop_message.empty();
    const std::string base = is_jump ? "jump" : "leaves_flow_set";
    const int n = is_jump ? ++j : ++e;
    g.name = (is_jump ? jumps : exits) > 1 ? base + "." + std::to_string(n) : base;
    for (const ModelGuard& other : mode.guards) {
      if (other.name == g.name) {
        add(t, where + ": guard name '" + g.name + "' is taken by the mode's flow and jump sets; " +
                   "expected another name for the guard");
      }
    }
    mode.guards.push_back(std::move(g));
  }
}

}  // namespace saltus::model::loader
