// The operations of model-file expressions and their meaning for any scalar type: double,
// saltus::Dual (ceres::Jet), or another forward-mode scalar with the usual operators, comparisons
// against double and the elementary functions found by argument-dependent lookup.
//
// One definition serves constant folding (expression_graph.cpp, in double) and evaluation
// (tape.hpp, in every scalar), so a folded constant and an evaluated one never differ.
// Comparisons, sign and the choice made by min, max and if carry no derivative: min(a, b) is
// b when b < a, else a (its derivative is that operand's), and if(c, a, b) is a when c != 0.
#pragma once

#include <ceres/jet.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "saltus/core/interval_jet.hpp"

namespace saltus::lang {

enum class OpCode : std::uint8_t {
  // Leaves (graph nodes only; a tape loads them into registers before it runs).
  Const,      // a number (parameters are folded into numbers unless they are run-time)
  Time,       // t
  State,      // x[index]
  StateRate,  // x'[index] (implicit residuals only)
  Algebraic,  // z[index]
  Parameter,  // run-time parameter [index] (ExpressionGraph::parameter_values)
  // Operators and functions.
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Pow,       // a^b, both variable
  PowConst,  // a^c with a constant exponent c (the node's value)
  Square,    // a*a
  Sqrt,
  Exp,
  Log,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Abs,
  Sign,
  Min,
  Max,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  If,  // if(c, a, b): a when c != 0, else b (both evaluated; the derivative is the chosen one's)
  // Tapes only: output slot `out` <- register a (an output computed earlier than its store).
  Store,
  // Tapes only: two graph operations in one dispatch (the inner product is used once). Each is
  // evaluated as the two operations it replaces, with the same roundings.
  Mul3,    // (a * b) * c
  MulAdd,  // a * b + c
  MulSub,  // a * b - c
  SubMul,  // c - a * b
};

// Number of operands (0 for leaves).
int arity(OpCode op);
// True for Less .. NotEqual (a value of 1 or 0, no derivative).
bool is_comparison(OpCode op);
// True when a op b == b op a (operands may be reordered for common-subexpression elimination).
bool is_commutative(OpCode op);
// The function's name in expressions ("sin"), or the operator ("+").
const char* to_string(OpCode op);

namespace ops {

// The value part of a scalar, for comparisons. Other scalar types provide an overload in their
// own namespace (found by argument-dependent lookup).
inline double scalar_value(double a) {
  return a;
}
template <class T, int N>
double scalar_value(const ceres::Jet<T, N>& a) {
  return scalar_value(a.a);
}

// Scalar meanings shared by folding and evaluation (see the file comment).
template <class S>
S sign(const S& a) {
  const double v = scalar_value(a);
  if (v > 0.0) return S(1.0);
  if (v < 0.0) return S(-1.0);
  if (v == 0.0) return S(0.0);
  return S(std::numeric_limits<double>::quiet_NaN());
}
template <class S>
S min(const S& a, const S& b) {
  return scalar_value(b) < scalar_value(a) ? b : a;
}
template <class S>
S max(const S& a, const S& b) {
  return scalar_value(b) > scalar_value(a) ? b : a;
}
template <class S>
S truth(bool c) {
  return S(c ? 1.0 : 0.0);
}
template <class S>
S choose(const S& c, const S& a, const S& b) {
  return scalar_value(c) != 0.0 ? a : b;
}

// A comparison (Less .. NotEqual) as a value 1 or 0.
template <class S>
S compare(OpCode op, const S& a, const S& b) {
  const double x = scalar_value(a), y = scalar_value(b);
  switch (op) {
    case OpCode::Less:
      return truth<S>(x < y);
    case OpCode::LessEqual:
      return truth<S>(x <= y);
    case OpCode::Greater:
      return truth<S>(x > y);
    case OpCode::GreaterEqual:
      return truth<S>(x >= y);
    case OpCode::Equal:
      return truth<S>(x == y);
    default:
      return truth<S>(x != y);
  }
}

// The same meanings over an interval of time (core/interval_jet.hpp): where the outcome can
// differ inside the interval, the enclosure of both outcomes and no derivative.
inline IntervalJet sign(const IntervalJet& a) {
  return intervals::sign(a);
}
inline IntervalJet min(const IntervalJet& a, const IntervalJet& b) {
  return intervals::min(a, b);
}
inline IntervalJet max(const IntervalJet& a, const IntervalJet& b) {
  return intervals::max(a, b);
}
inline IntervalJet choose(const IntervalJet& c, const IntervalJet& a, const IntervalJet& b) {
  return intervals::choose(c, a, b);
}
IntervalJet compare(OpCode op, const IntervalJet& a, const IntervalJet& b);

// Value of a non-leaf operation on constant operands (c: PowConst's exponent or if's third
// operand).
double fold(OpCode op, double a, double b, double c);

}  // namespace ops
}  // namespace saltus::lang
