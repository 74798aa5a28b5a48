#include "saltus/lang/switches.hpp"

#include <algorithm>

#include "saltus/core/error.hpp"

namespace saltus::lang {

namespace {

bool ordering(OpCode op) {
  return op == OpCode::Less || op == OpCode::LessEqual || op == OpCode::Greater ||
         op == OpCode::GreaterEqual;
}
bool greater(OpCode op) {
  return op == OpCode::Greater || op == OpCode::GreaterEqual;
}

// Nodes reachable from `roots`, in increasing id order (operands have smaller ids).
std::vector<NodeId> reachable(const ExpressionGraph& g, const std::vector<NodeId>& roots) {
  std::vector<char> seen(static_cast<size_t>(g.size()), 0);
  std::vector<NodeId> stack;
  for (NodeId r : roots) {
    if (r != kNoNode) stack.push_back(r);
  }
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (seen[static_cast<size_t>(id)]) continue;
    seen[static_cast<size_t>(id)] = 1;
    const ExpressionNode& n = g.node(id);
    if (n.op == OpCode::PowConst) {
      stack.push_back(n.a);
      continue;
    }
    for (NodeId k : {n.a, n.b, n.c}) {
      if (k != kNoNode) stack.push_back(k);
    }
  }
  std::vector<NodeId> out;
  for (NodeId id = 0; id < g.size(); ++id) {
    if (seen[static_cast<size_t>(id)]) out.push_back(id);
  }
  return out;
}

}  // namespace

std::vector<Switch> find_switches(ExpressionGraph& g, const std::vector<NodeId>& roots) {
  const std::vector<NodeId> nodes = reachable(g, roots);
  // Conditions of if()s: part of their switch.
  std::vector<NodeId> conditions;
  for (NodeId id : nodes) {
    if (g.node(id).op == OpCode::If) conditions.push_back(g.node(id).a);
  }
  std::vector<Switch> out;
  for (NodeId id : nodes) {
    const ExpressionNode n = g.node(id);  // a copy: make() may grow the node list
    Switch s;
    s.node = id;
    switch (n.op) {
      case OpCode::Sign:
        s.h = n.a;
        s.plus = g.constant(1.0);
        s.minus = g.constant(-1.0);
        break;
      case OpCode::Abs:
        s.h = n.a;
        s.plus = n.a;
        s.minus = g.make(OpCode::Neg, n.a);
        break;
      case OpCode::Min:
      case OpCode::Max:
        s.h = g.make(OpCode::Sub, n.a, n.b);
        s.plus = n.op == OpCode::Max ? n.a : n.b;
        s.minus = n.op == OpCode::Max ? n.b : n.a;
        break;
      case OpCode::If: {
        const ExpressionNode c = g.node(n.a);
        if (!ordering(c.op)) {
          saltus::detail::throw_error(
              "an if() whose condition is ",
              c.op == OpCode::Equal || c.op == OpCode::NotEqual ? "an equality (== or !=)"
                                                                : "not a comparison",
              " (its value is ", to_string(c.op),
              "); expected if(a < b, ...), <=, > or >=: the switching surface is a = b");
        }
        s.h = g.make(OpCode::Sub, c.a, c.b);
        s.plus = greater(c.op) ? n.b : n.c;
        s.minus = greater(c.op) ? n.c : n.b;
        break;
      }
      case OpCode::Equal:
      case OpCode::NotEqual:
        if (std::find(conditions.begin(), conditions.end(), id) != conditions.end()) continue;
        saltus::detail::throw_error(
            "a comparison ", to_string(n.op),
            " used as a value holds on a set without sides; expected <, <=, > or >=");
      default:
        if (!ordering(n.op) ||
            std::find(conditions.begin(), conditions.end(), id) != conditions.end()) {
          continue;
        }
        s.h = g.make(OpCode::Sub, n.a, n.b);
        s.plus = g.constant(greater(n.op) ? 1.0 : 0.0);
        s.minus = g.constant(greater(n.op) ? 0.0 : 1.0);
    }
    out.push_back(s);
  }
  return out;
}

NodeId substitute(ExpressionGraph& g, NodeId root,
                  const std::unordered_map<NodeId, NodeId>& replace) {
  std::unordered_map<NodeId, NodeId> done;
  // Iterative post-order: a node is rebuilt once its operands (or its replacement) are.
  std::vector<std::pair<NodeId, bool>> stack = {{root, false}};
  while (!stack.empty()) {
    const auto [id, ready] = stack.back();
    stack.pop_back();
    if (done.count(id)) continue;
    const auto r = replace.find(id);
    const ExpressionNode n = g.node(id);
    if (!ready) {
      stack.push_back({id, true});
      if (r != replace.end()) {
        stack.push_back({r->second, false});
      } else if (n.op == OpCode::PowConst) {
        stack.push_back({n.a, false});
      } else {
        for (NodeId k : {n.a, n.b, n.c}) {
          if (k != kNoNode) stack.push_back({k, false});
        }
      }
      continue;
    }
    if (r != replace.end()) {
      done[id] = done.at(r->second);
    } else if (arity(n.op) == 0) {
      done[id] = id;
    } else if (n.op == OpCode::PowConst) {
      done[id] = g.pow_const(done.at(n.a), n.value);
    } else {
      const auto get = [&done](NodeId k) { return k == kNoNode ? kNoNode : done.at(k); };
      done[id] = g.make(n.op, get(n.a), get(n.b), get(n.c));
    }
  }
  return done.at(root);
}

}  // namespace saltus::lang
