// The expressions of a model as one directed acyclic graph with shared subexpressions, and their
// symbolic derivatives.
//
// Every node is made through make(): constant operands are folded, a few identities are applied
// (a + 0, a * 1, a * 0, a / 1, a^1, a^2 -> square, a^0.5 -> sqrt, a^-1 -> 1/a, --a, a + (-b)),
// commutative operands are put in a canonical order, and a node equal to an existing one is that
// node (hash-consing). So the speed sqrt(vx^2 + vy^2) written in two flow equations is one node,
// and a tape (tape.hpp) computes it once.
//
// derivative(node, variable) builds d node / d variable in the same graph by the chain rule
// (rules in expression_graph.cpp), so derivatives share subexpressions with the values: a Jacobian
// tape of a flow reuses the flow's own intermediate results. Comparisons and sign have derivative
// 0; min, max and if take the derivative of the operand they choose; abs(a)' = -a' for a < 0,
// else a' (as ceres::Jet at a = +0).
//
// Note on a * 0 -> 0: the identity drops a NaN or an infinity in `a`. It keeps derivative graphs
// small (most partial derivatives are structurally zero); a user who writes 0*x gets 0.
//
// Node ids increase with creation and a node's operands always have smaller ids, so the graph is
// in topological order by id. Nothing here recurses: graphs from long expressions are safe.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "saltus/lang/operations.hpp"

namespace saltus::lang {

using NodeId = std::int32_t;
inline constexpr NodeId kNoNode = -1;

struct ExpressionNode {
  OpCode op = OpCode::Const;
  double value = 0.0;      // Const: the number; PowConst: the exponent
  std::int32_t index = 0;  // State, StateRate, Algebraic: which component
  NodeId a = kNoNode, b = kNoNode, c = kNoNode;
};

// A leaf that can be differentiated for: t, x[i], x'[i], z[i] or run-time parameter p[i].
struct Variable {
  OpCode kind = OpCode::State;  // Time, State, StateRate, Algebraic or Parameter
  std::int32_t index = 0;
  friend bool operator==(const Variable&, const Variable&) = default;
};

class ExpressionGraph {
 public:
  ExpressionGraph();

  NodeId constant(double value);
  NodeId variable(Variable v);
  NodeId time() { return variable({OpCode::Time, 0}); }
  NodeId state(int i) { return variable({OpCode::State, i}); }
  NodeId state_rate(int i) { return variable({OpCode::StateRate, i}); }
  NodeId algebraic(int i) { return variable({OpCode::Algebraic, i}); }
  NodeId parameter(int i) { return variable({OpCode::Parameter, i}); }
  // The values of the run-time parameters (Parameter leaves), shared with every tape compiled
  // from this graph (tape.hpp): a write changes what those tapes compute from their next call.
  // Null while the graph has no run-time parameter values.
  void share_parameter_values(std::shared_ptr<std::vector<double>> values) {
    parameter_values_ = std::move(values);
  }
  const std::shared_ptr<std::vector<double>>& parameter_values() const { return parameter_values_; }
  // An operation on existing nodes (c is PowConst's exponent through `exponent`); simplified,
  // folded and shared as described above.
  NodeId make(OpCode op, NodeId a, NodeId b = kNoNode, NodeId c = kNoNode);
  NodeId pow_const(NodeId a, double exponent);

  // d node / d v (a node of this graph; constant 0 when node does not depend on v).
  NodeId derivative(NodeId node, Variable v);

  const ExpressionNode& node(NodeId id) const { return nodes_[static_cast<size_t>(id)]; }
  int size() const { return static_cast<int>(nodes_.size()); }
  bool is_constant(NodeId id) const { return node(id).op == OpCode::Const; }
  bool is_zero(NodeId id) const { return is_constant(id) && node(id).value == 0.0; }
  bool is_one(NodeId id) const { return is_constant(id) && node(id).value == 1.0; }
  // The variables `node` reads (directly or through its operands), in node-id order.
  std::vector<Variable> inputs(NodeId node) const;
  // True when `node` reads variable v.
  bool depends_on(NodeId node, Variable v) const;

 private:
  struct Key {
    OpCode op;
    std::uint64_t bits;  // value's bit pattern
    std::int32_t index;
    NodeId a, b, c;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  NodeId intern(const ExpressionNode& n);
  NodeId simplify(OpCode op, NodeId a, NodeId b, NodeId c, double exponent);
  // Nodes from which `roots` are reachable, in increasing id order.
  std::vector<NodeId> reachable(NodeId root) const;
  NodeId rule(NodeId id, const std::vector<NodeId>& d);

  std::vector<ExpressionNode> nodes_;
  std::unordered_map<Key, NodeId, KeyHash> index_;
  // Derivative memo per variable: derivative_[v][node] (kNoNode = not yet computed).
  std::vector<std::pair<Variable, std::vector<NodeId>>> derivative_;
  std::shared_ptr<std::vector<double>> parameter_values_;
};

}  // namespace saltus::lang
