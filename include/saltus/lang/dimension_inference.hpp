// The dimension of every node of an expression graph, from the dimensions of its leaves (the
// declared units of states, parameters and t), and the places where an expression mixes
// dimensions: a sum of metres and seconds, sin of a length, a power of a length with a
// variable exponent. Model files' unit check (model/loader/unit_check.cpp) uses it.
//
// A node's dimension is known, a number, or unknown:
// - a number (a Const node: a literal, pi, anything folded from them) is dimensionless in
//   products and quotients but takes the other side's dimension in sums, differences,
//   comparisons, min, max and if's branches, so `x - 1.0` and `v' = -9.81` pass;
// - unknown is what reads a leaf without a dimension (a symbol without a unit): a product with
//   it is unknown, a sum with it has the other side's dimension, and nothing about it is a
//   conflict; so a model without units is not checked, and a partly annotated one only where
//   its units say something.
// Rules: + - min max, comparisons and if's branches need equal dimensions; * / add and subtract
// exponents; a^c multiplies them by c (a rational with a small denominator, else a is to be
// dimensionless), sqrt halves them; a^b with b not constant needs a dimensionless a and b
// (b constant when it reads only run-time parameters whose values are given); exp, log, the
// trigonometric and hyperbolic functions need a dimensionless argument (rad and deg are) and
// give a dimensionless value, as do atan2 (of two equal dimensions), sign and comparisons; abs
// and minus keep the dimension.
//
// A conflicting node is reported once, and is unknown from then on, so one mistake is one
// conflict however many expressions use it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/units.hpp"

namespace saltus::lang {

struct NodeDimension {
  enum class Kind { Known, Number, Unknown };
  Kind kind = Kind::Unknown;
  Dimension dimension;  // when Known

  static NodeDimension known(Dimension d) { return {Kind::Known, d}; }
  static NodeDimension number() { return {Kind::Number, {}}; }
  static NodeDimension unknown() { return {Kind::Unknown, {}}; }
  bool is_known() const { return kind == Kind::Known; }
  // "m s^-1"; "a number" or "unknown" for the other kinds.
  std::string str() const;
};

struct DimensionConflict {
  NodeId node = kNoNode;
  std::string message;  // "a sum of v (m s^-1) and g (m s^-2)"
};

class DimensionInference {
 public:
  // The dimension of a leaf (t, x[i], x'[i], z[i], run-time parameter p[i]); unknown for one
  // without a unit.
  using LeafDimension = std::function<NodeDimension(const Variable&)>;
  // The value of run-time parameter p[i], for exponents written with parameters (x^n).
  using ParameterValue = std::function<std::optional<double>(int)>;
  // The name of a leaf, for messages ("v", "x'").
  using LeafName = std::function<std::string(const Variable&)>;

  DimensionInference(const ExpressionGraph& graph, LeafDimension leaf, ParameterValue value = {},
                     LeafName name = {});

  // The dimension of `node`; the conflicts found on the way that no earlier call found are
  // appended to `conflicts`. The graph may grow between calls.
  NodeDimension infer(NodeId node, std::vector<DimensionConflict>* conflicts = nullptr);

  // What a sum of a and b has: the common dimension, a number, unknown; none on a conflict.
  static std::optional<NodeDimension> common(const NodeDimension& a, const NodeDimension& b);

 private:
  NodeDimension rule(NodeId id, std::string& conflict);
  std::optional<double> constant_value(NodeId id);
  // "v (m s^-1)" for a leaf, "m s^-1" for an operation.
  std::string operand(NodeId id) const;

  const ExpressionGraph& graph_;
  LeafDimension leaf_;
  ParameterValue value_;
  LeafName name_;
  std::vector<std::optional<NodeDimension>> dims_;
  std::vector<char> value_done_;
  std::vector<std::optional<double>> values_;
};

}  // namespace saltus::lang
