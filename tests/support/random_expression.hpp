// A seeded random expression graph over given leaves with every operation a tape evaluates,
// the arguments kept in the functions' domains (native code against the interpreter). Arguments
// are made positive by abs and atan2 may cross its branch cut, so values land anywhere.
#pragma once

#include <random>
#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::testing {

inline lang::NodeId random_expression(lang::ExpressionGraph& g, std::mt19937& rng,
                                      const std::vector<lang::NodeId>& leaves, int depth) {
  using lang::NodeId;
  using lang::OpCode;
  std::uniform_int_distribution<int> pick_leaf(0, static_cast<int>(leaves.size()) - 1);
  std::uniform_int_distribution<int> pick_op(0, 24);
  std::uniform_real_distribution<double> number(-2.0, 2.0);
  if (depth == 0) {
    return pick_leaf(rng) % 5 == 0 ? g.constant(number(rng)) : leaves[pick_leaf(rng)];
  }
  const NodeId a = random_expression(g, rng, leaves, depth - 1);
  const NodeId b = random_expression(g, rng, leaves, depth - 1);
  const auto positive = [&](NodeId v) {
    return g.make(OpCode::Add, g.make(OpCode::Abs, v), g.constant(0.5));
  };
  const auto bounded = [&](NodeId v) {  // inside (-0.9, 0.9)
    return g.make(OpCode::Mul, g.constant(0.9), g.make(OpCode::Tanh, v));
  };
  switch (pick_op(rng)) {
    case 0:
      return g.make(OpCode::Add, a, b);
    case 1:
      return g.make(OpCode::Sub, a, b);
    case 2:
      return g.make(OpCode::Mul, a, b);
    case 3:
      return g.make(OpCode::Div, a, positive(b));
    case 4:
      return g.make(OpCode::Neg, a);
    case 5:
      return g.make(OpCode::Mul, a, a);
    case 6:
      return g.make(OpCode::Sqrt, positive(a));
    case 7:
      return g.make(OpCode::Exp, bounded(a));
    case 8:
      return g.make(OpCode::Log, positive(a));
    case 9:
      return g.make(OpCode::Sin, a);
    case 10:
      return g.make(OpCode::Cos, a);
    case 11:
      return g.make(OpCode::Tan, bounded(a));
    case 12:
      return g.make(OpCode::Asin, bounded(a));
    case 13:
      return g.make(OpCode::Acos, bounded(a));
    case 14:
      return g.make(OpCode::Atan, a);
    case 15:
      return g.make(OpCode::Atan2, a, b);
    case 16:
      return g.make(OpCode::Sinh, bounded(a));
    case 17:
      return g.make(OpCode::Cosh, bounded(a));
    case 18:
      return g.pow_const(positive(a), number(rng));
    case 19:
      return g.make(OpCode::Pow, positive(a), bounded(b));
    case 20:
      return g.make(OpCode::Add, g.make(OpCode::Mul, a, b), g.make(OpCode::Mul, b, b));
    case 21:
      return g.make(OpCode::Sub, g.make(OpCode::Mul, a, a), g.make(OpCode::Mul, a, b));
    case 22:  // a product used once inside another: Mul3
      return g.make(OpCode::Mul, g.make(OpCode::Mul, a, b), g.make(OpCode::Sin, b));
    case 23:  // an integer power, also through a = 0
      return g.pow_const(a, 3.0);
    default:
      return g.make(OpCode::Tanh, a);
  }
}

}  // namespace saltus::testing
