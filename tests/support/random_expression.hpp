// A seeded random expression graph over given leaves with every operation a tape evaluates,
// the arguments kept in the functions' domains, shared by the tape tests (native code against
// the interpreter; Taylor coefficients against the ODE).
#pragma once

#include <random>
#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::testing {

// Kinks::Allowed makes arguments positive by abs and lets atan2 cross its branch cut (values
// anywhere); Kinks::Avoided by squares and a positive second argument, so the expression is
// analytic wherever it is finite (series along a trajectory).
enum class Kinks { Allowed, Avoided };

inline lang::NodeId random_expression(lang::ExpressionGraph& g, std::mt19937& rng,
                                      const std::vector<lang::NodeId>& leaves, int depth,
                                      Kinks kinks) {
  using lang::NodeId;
  using lang::OpCode;
  std::uniform_int_distribution<int> pick_leaf(0, static_cast<int>(leaves.size()) - 1);
  std::uniform_int_distribution<int> pick_op(0, 24);
  std::uniform_real_distribution<double> number(-2.0, 2.0);
  if (depth == 0) {
    return pick_leaf(rng) % 5 == 0 ? g.constant(number(rng)) : leaves[pick_leaf(rng)];
  }
  const lang::NodeId a = random_expression(g, rng, leaves, depth - 1, kinks);
  const lang::NodeId b = random_expression(g, rng, leaves, depth - 1, kinks);
  const auto positive = [&](lang::NodeId v) {
    const lang::NodeId size =
        kinks == Kinks::Allowed ? g.make(lang::OpCode::Abs, v) : g.make(lang::OpCode::Mul, v, v);
    return g.make(lang::OpCode::Add, size, g.constant(0.5));
  };
  const auto bounded = [&](lang::NodeId v) {  // inside (-0.9, 0.9)
    return g.make(lang::OpCode::Mul, g.constant(0.9), g.make(lang::OpCode::Tanh, v));
  };
  switch (pick_op(rng)) {
    case 0:
      return g.make(lang::OpCode::Add, a, b);
    case 1:
      return g.make(lang::OpCode::Sub, a, b);
    case 2:
      return g.make(lang::OpCode::Mul, a, b);
    case 3:
      return g.make(lang::OpCode::Div, a, positive(b));
    case 4:
      return g.make(lang::OpCode::Neg, a);
    case 5:
      return g.make(lang::OpCode::Mul, a, a);
    case 6:
      return g.make(lang::OpCode::Sqrt, positive(a));
    case 7:
      return g.make(lang::OpCode::Exp, bounded(a));
    case 8:
      return g.make(lang::OpCode::Log, positive(a));
    case 9:
      return g.make(lang::OpCode::Sin, a);
    case 10:
      return g.make(lang::OpCode::Cos, a);
    case 11:
      return g.make(lang::OpCode::Tan, bounded(a));
    case 12:
      return g.make(lang::OpCode::Asin, bounded(a));
    case 13:
      return g.make(lang::OpCode::Acos, bounded(a));
    case 14:
      return g.make(lang::OpCode::Atan, a);
    case 15:
      return g.make(lang::OpCode::Atan2, a, kinks == Kinks::Allowed ? b : positive(b));
    case 16:
      return g.make(lang::OpCode::Sinh, bounded(a));
    case 17:
      return g.make(lang::OpCode::Cosh, bounded(a));
    case 18:
      return g.pow_const(positive(a), number(rng));
    case 19:
      return g.make(lang::OpCode::Pow, positive(a), bounded(b));
    case 20:
      return g.make(lang::OpCode::Add, g.make(lang::OpCode::Mul, a, b),
                    g.make(lang::OpCode::Mul, b, b));
    case 21:
      return g.make(lang::OpCode::Sub, g.make(lang::OpCode::Mul, a, a),
                    g.make(lang::OpCode::Mul, a, b));
    case 22:  // a product used once inside another: Mul3
      return g.make(lang::OpCode::Mul, g.make(lang::OpCode::Mul, a, b),
                    g.make(lang::OpCode::Sin, b));
    case 23:  // an integer power, also through a = 0
      return g.pow_const(a, 3.0);
    default:
      return g.make(lang::OpCode::Tanh, a);
  }
}

}  // namespace saltus::testing
