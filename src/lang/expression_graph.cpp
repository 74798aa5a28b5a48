#include "saltus/lang/expression_graph.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace saltus::lang {

size_t ExpressionGraph::KeyHash::operator()(const Key& k) const {
  // FNV-style mixing of the fields; collisions only cost a comparison.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  mix(static_cast<std::uint64_t>(k.op));
  mix(k.bits);
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.index)));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.a)));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.b)));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.c)));
  return static_cast<size_t>(h ^ (h >> 29));
}

ExpressionGraph::ExpressionGraph() {
  constant(0.0);  // ids 0 and 1: the constants the derivative rules need most
  constant(1.0);
}

NodeId ExpressionGraph::intern(const ExpressionNode& n) {
  Key k{n.op, 0, n.index, n.a, n.b, n.c};
  std::memcpy(&k.bits, &n.value, sizeof k.bits);
  const auto [it, inserted] = index_.emplace(k, static_cast<NodeId>(nodes_.size()));
  if (inserted) nodes_.push_back(n);
  return it->second;
}

NodeId ExpressionGraph::constant(double value) {
  ExpressionNode n;
  n.op = OpCode::Const;
  n.value = value;
  return intern(n);
}

NodeId ExpressionGraph::variable(Variable v) {
  ExpressionNode n;
  n.op = v.kind;
  n.index = v.kind == OpCode::Time ? 0 : v.index;
  return intern(n);
}

NodeId ExpressionGraph::pow_const(NodeId a, double exponent) {
  if (is_constant(a)) return constant(ops::fold(OpCode::PowConst, node(a).value, 0.0, exponent));
  if (exponent == 1.0) return a;
  if (exponent == 0.0) return constant(1.0);  // as std::pow: x^0 = 1 for every x
  if (exponent == 2.0) return make(OpCode::Square, a);
  if (exponent == 0.5) return make(OpCode::Sqrt, a);
  if (exponent == -1.0) return make(OpCode::Div, constant(1.0), a);
  ExpressionNode n;
  n.op = OpCode::PowConst;
  n.value = exponent;
  n.a = a;
  return intern(n);
}

NodeId ExpressionGraph::make(OpCode op, NodeId a, NodeId b, NodeId c) {
  return simplify(op, a, b, c, 0.0);
}

NodeId ExpressionGraph::simplify(OpCode op, NodeId a, NodeId b, NodeId c, double exponent) {
  const int k = arity(op);
  bool all_constant = true;
  for (NodeId operand : {a, b, c}) {
    if (operand != kNoNode && !is_constant(operand)) all_constant = false;
  }
  if (op == OpCode::PowConst) return pow_const(a, exponent);
  if (all_constant) {
    const double va = node(a).value;
    const double vb = k > 1 ? node(b).value : 0.0;
    const double vc = k > 2 ? node(c).value : 0.0;
    return constant(ops::fold(op, va, vb, vc));
  }
  const auto negated = [this](NodeId x) { return node(x).op == OpCode::Neg; };
  const auto value_is = [this](NodeId x, double v) { return is_constant(x) && node(x).value == v; };
  switch (op) {
    case OpCode::Neg:
      if (negated(a)) return node(a).a;
      break;
    case OpCode::Add:
      if (is_zero(a)) return b;
      if (is_zero(b)) return a;
      if (negated(b)) return make(OpCode::Sub, a, node(b).a);
      if (negated(a)) return make(OpCode::Sub, b, node(a).a);
      break;
    case OpCode::Sub:
      if (is_zero(b)) return a;
      if (is_zero(a)) return make(OpCode::Neg, b);
      if (negated(b)) return make(OpCode::Add, a, node(b).a);
      break;
    case OpCode::Mul:
      if (is_zero(a) || is_zero(b)) return constant(0.0);
      if (is_one(a)) return b;
      if (is_one(b)) return a;
      if (value_is(a, -1.0)) return make(OpCode::Neg, b);
      if (value_is(b, -1.0)) return make(OpCode::Neg, a);
      if (a == b) return make(OpCode::Square, a);
      break;
    case OpCode::Div:
      if (is_one(b)) return a;
      if (value_is(b, -1.0)) return make(OpCode::Neg, a);
      if (is_zero(a)) return constant(0.0);
      break;
    case OpCode::Pow:
      if (is_constant(b)) return pow_const(a, node(b).value);
      break;
    case OpCode::Min:
    case OpCode::Max:
      if (a == b) return a;
      break;
    case OpCode::If:
      if (is_constant(a)) return ops::choose(node(a).value, 1.0, 0.0) != 0.0 ? b : c;
      if (b == c) return b;
      break;
    default:
      break;
  }
  if (is_commutative(op) && b < a) std::swap(a, b);
  ExpressionNode n;
  n.op = op;
  n.a = a;
  n.b = k > 1 ? b : kNoNode;
  n.c = k > 2 ? c : kNoNode;
  return intern(n);
}

std::vector<NodeId> ExpressionGraph::reachable(NodeId root) const {
  std::vector<char> seen(static_cast<size_t>(root) + 1, 0);
  std::vector<NodeId> stack{root}, out;
  seen[static_cast<size_t>(root)] = 1;
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    out.push_back(id);
    const ExpressionNode& n = node(id);
    for (NodeId operand : {n.a, n.b, n.c}) {
      if (operand != kNoNode && !seen[static_cast<size_t>(operand)]) {
        seen[static_cast<size_t>(operand)] = 1;
        stack.push_back(operand);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Variable> ExpressionGraph::inputs(NodeId root) const {
  std::vector<Variable> out;
  for (NodeId id : reachable(root)) {
    const ExpressionNode& n = node(id);
    if (arity(n.op) == 0 && n.op != OpCode::Const) out.push_back({n.op, n.index});
  }
  return out;
}

bool ExpressionGraph::depends_on(NodeId root, Variable v) const {
  if (v.kind == OpCode::Time) v.index = 0;
  const std::vector<Variable> in = inputs(root);
  return std::find(in.begin(), in.end(), v) != in.end();
}

NodeId ExpressionGraph::derivative(NodeId root, Variable v) {
  if (v.kind == OpCode::Time) v.index = 0;
  auto memo_of = [this, v]() -> std::vector<NodeId>& {
    for (auto& [var, memo] : derivative_) {
      if (var == v) return memo;
    }
    derivative_.emplace_back(v, std::vector<NodeId>{});
    return derivative_.back().second;
  };
  std::vector<NodeId>& memo = memo_of();
  if (memo.size() < nodes_.size()) memo.resize(nodes_.size(), kNoNode);
  for (NodeId id : reachable(root)) {
    if (memo[static_cast<size_t>(id)] != kNoNode) continue;
    const ExpressionNode& n = node(id);
    NodeId d;
    if (n.op == v.kind && (v.kind == OpCode::Time || n.index == v.index)) {
      d = constant(1.0);
    } else if (arity(n.op) == 0) {
      d = constant(0.0);
    } else {
      d = rule(id, memo);
    }
    // rule() may have grown the graph; the memo only needs entries for ids up to `root`.
    memo[static_cast<size_t>(id)] = d;
  }
  return memo[static_cast<size_t>(root)];
}

// Chain rule for node `id` given the derivatives `d` of its operands.
NodeId ExpressionGraph::rule(NodeId id, const std::vector<NodeId>& d) {
  const ExpressionNode n = node(id);  // a copy: make() may reallocate nodes_
  const NodeId a = n.a, b = n.b, c = n.c;
  const NodeId da = a != kNoNode ? d[static_cast<size_t>(a)] : kNoNode;
  const NodeId db = b != kNoNode ? d[static_cast<size_t>(b)] : kNoNode;
  const NodeId dc = c != kNoNode ? d[static_cast<size_t>(c)] : kNoNode;
  const NodeId zero = constant(0.0), one = constant(1.0), two = constant(2.0);
  auto M = [this](OpCode op, NodeId x, NodeId y = kNoNode, NodeId z = kNoNode) {
    return make(op, x, y, z);
  };
  switch (n.op) {
    case OpCode::Neg:
      return M(OpCode::Neg, da);
    case OpCode::Add:
      return M(OpCode::Add, da, db);
    case OpCode::Sub:
      return M(OpCode::Sub, da, db);
    case OpCode::Mul:
      return M(OpCode::Add, M(OpCode::Mul, da, b), M(OpCode::Mul, a, db));
    case OpCode::Div:  // (a' - (a/b) b') / b
      return M(OpCode::Div, M(OpCode::Sub, da, M(OpCode::Mul, id, db)), b);
    case OpCode::Pow:
      if (is_zero(db)) {
        return M(OpCode::Mul, M(OpCode::Mul, b, M(OpCode::Pow, a, M(OpCode::Sub, b, one))), da);
      }
      if (is_zero(da)) return M(OpCode::Mul, M(OpCode::Mul, id, M(OpCode::Log, a)), db);
      return M(OpCode::Mul, id,
               M(OpCode::Add, M(OpCode::Mul, db, M(OpCode::Log, a)),
                 M(OpCode::Div, M(OpCode::Mul, b, da), a)));
    case OpCode::PowConst:
      return M(OpCode::Mul, M(OpCode::Mul, constant(n.value), pow_const(a, n.value - 1.0)), da);
    case OpCode::Square:
      return M(OpCode::Mul, M(OpCode::Mul, two, a), da);
    case OpCode::Sqrt:
      return M(OpCode::Div, da, M(OpCode::Mul, two, id));
    case OpCode::Exp:
      return M(OpCode::Mul, id, da);
    case OpCode::Log:
      return M(OpCode::Div, da, a);
    case OpCode::Sin:
      return M(OpCode::Mul, M(OpCode::Cos, a), da);
    case OpCode::Cos:
      return M(OpCode::Neg, M(OpCode::Mul, M(OpCode::Sin, a), da));
    case OpCode::Tan:
      return M(OpCode::Mul, M(OpCode::Add, one, M(OpCode::Square, id)), da);
    case OpCode::Asin:
      return M(OpCode::Div, da, M(OpCode::Sqrt, M(OpCode::Sub, one, M(OpCode::Square, a))));
    case OpCode::Acos:
      return M(OpCode::Neg,
               M(OpCode::Div, da, M(OpCode::Sqrt, M(OpCode::Sub, one, M(OpCode::Square, a)))));
    case OpCode::Atan:
      return M(OpCode::Div, da, M(OpCode::Add, one, M(OpCode::Square, a)));
    case OpCode::Atan2:  // atan2(y = a, x = b)' = (x y' - y x') / (x^2 + y^2)
      return M(OpCode::Div, M(OpCode::Sub, M(OpCode::Mul, b, da), M(OpCode::Mul, a, db)),
               M(OpCode::Add, M(OpCode::Square, a), M(OpCode::Square, b)));
    case OpCode::Sinh:
      return M(OpCode::Mul, M(OpCode::Cosh, a), da);
    case OpCode::Cosh:
      return M(OpCode::Mul, M(OpCode::Sinh, a), da);
    case OpCode::Tanh:
      return M(OpCode::Mul, M(OpCode::Sub, one, M(OpCode::Square, id)), da);
    case OpCode::Abs:
      return M(OpCode::If, M(OpCode::Less, a, zero), M(OpCode::Neg, da), da);
    case OpCode::Min:
      return M(OpCode::If, M(OpCode::Less, b, a), db, da);
    case OpCode::Max:
      return M(OpCode::If, M(OpCode::Greater, b, a), db, da);
    case OpCode::If:
      return M(OpCode::If, a, db, dc);
    default:  // sign and comparisons
      return zero;
  }
}

}  // namespace saltus::lang
