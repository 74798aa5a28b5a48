// The expression graph and its tapes: shared subexpressions are one node and computed once,
// simplification identities, symbolic derivatives of every operation against closed forms and
// against forward-mode AD (saltus::Dual) of the same tape, and register reuse.
#include "saltus/lang/expression_graph.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/types.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::lang {
namespace {

SymbolTable symbols() {
  SymbolTable s;
  s.constants = {{"c", 0.1}, {"g", 9.81}};
  s.states = {"x", "v"};
  s.algebraic = {"z"};
  return s;
}

NodeId parse(ExpressionGraph& g, const std::string& text) {
  const ParsedExpression p = parse_expression(text, symbols(), g);
  EXPECT_TRUE(p.ok()) << text;
  return p.node;
}

double value(const ExpressionGraph& g, NodeId n, double t, double x, double v, double z) {
  Vector xs(2), zs(1);
  xs << x, v;
  zs << z;
  return evaluate(compile_tape(g, {{n, 0}}), t, xs, zs);
}

TEST(ExpressionGraph, SharedSubexpressionsAreOneNodeComputedOnce) {
  ExpressionGraph g;
  const NodeId a = parse(g, "-c*x*sqrt(x^2 + v^2)");
  const NodeId b = parse(g, "-g - c*v*sqrt(x^2 + v^2)");
  const NodeId speed = parse(g, "sqrt(v*v + x^2)");  // same node: v*v is v^2, + is reordered
  const Tape t = compile_tape(g, {{a, 0}, {b, 1}, {speed, 2}});
  int sqrt_count = 0;
  for (const TapeInstruction& in : t.code) sqrt_count += in.op == OpCode::Sqrt;
  EXPECT_EQ(sqrt_count, 1);
  // square, muladd, sqrt, mul3 (x (-c) s), mul3 (v c s), sub: 6 dispatches for 9 operations.
  EXPECT_EQ(t.operation_count(), 6);
  Vector x(2), z(1);
  x << 0.3, -2.0;
  z << 0.0;
  double out[3];
  run(t, 0.0, x, x, z, [&](int k, double v) { out[k] = v; });
  const double s = std::sqrt(0.09 + 4.0);
  EXPECT_DOUBLE_EQ(out[0], -0.1 * 0.3 * s);
  EXPECT_DOUBLE_EQ(out[1], -9.81 - 0.1 * -2.0 * s);
  EXPECT_DOUBLE_EQ(out[2], s);
}

TEST(ExpressionGraph, ProductsAreFusedWithTheSameRoundings) {
  // A product read once merges into the Mul, Add or Sub reading it (one dispatch for two
  // operations); results are bit-identical to the two operations in C++.
  const double t = 0.3, x = 0.7, v = -1.2, z = 0.5;
  struct Case {
    const char* text;
    double expected;
    OpCode fused;
  };
  const Case cases[] = {
      {"x*v*t", (x * v) * t, OpCode::Mul3},   {"x*v + z", x * v + z, OpCode::MulAdd},
      {"z + x*v", z + x * v, OpCode::MulAdd}, {"x*v - z", x * v - z, OpCode::MulSub},
      {"z - x*v", z - x * v, OpCode::SubMul}, {"x^2 + v^2", x * x + v * v, OpCode::MulAdd},
      {"t*(x*v)", t * (x * v), OpCode::Mul3},
  };
  for (const Case& c : cases) {
    ExpressionGraph g;
    const NodeId n = parse(g, c.text);
    const Tape tape = compile_tape(g, {{n, 0}});
    bool found = false;
    for (const TapeInstruction& in : tape.code) found = found || in.op == c.fused;
    EXPECT_TRUE(found) << c.text;
    EXPECT_EQ(value(g, n, t, x, v, z), c.expected) << c.text;
    DualVector xd(2), zd(1);
    xd << Dual(x, 1.0), Dual(v);
    zd << Dual(z);
    const double ad = evaluate(tape, Dual(t), xd, zd).derivative();
    EXPECT_NEAR(ad, value(g, g.derivative(n, {OpCode::State, 0}), t, x, v, z), 1e-15) << c.text;
  }
  // A product that is also an output (or read twice) stays a product of its own.
  ExpressionGraph g;
  const NodeId p = parse(g, "x*v"), q = parse(g, "x*v + z");
  const Tape tape = compile_tape(g, {{p, 0}, {q, 1}});
  double out[2];
  Vector xs(2), zs(1);
  xs << x, v;
  zs << z;
  run(tape, t, xs, xs, zs, [&](int k, double r) { out[k] = r; });
  EXPECT_EQ(out[0], x * v);
  EXPECT_EQ(out[1], x * v + z);
}

TEST(ExpressionGraph, IdentitiesAndFolding) {
  ExpressionGraph g;
  const NodeId x = g.state(0);
  EXPECT_EQ(parse(g, "x + 0"), x);
  EXPECT_EQ(parse(g, "1*x"), x);
  EXPECT_EQ(parse(g, "x/1"), x);
  EXPECT_EQ(parse(g, "x^1"), x);
  EXPECT_EQ(parse(g, "--x"), x);
  EXPECT_TRUE(g.is_zero(parse(g, "0*sin(v)")));
  EXPECT_EQ(g.node(parse(g, "x^2")).op, OpCode::Square);
  EXPECT_EQ(g.node(parse(g, "x^0.5")).op, OpCode::Sqrt);
  EXPECT_EQ(g.node(parse(g, "x + -v")).op, OpCode::Sub);
  EXPECT_EQ(g.node(parse(g, "pow(x, 1.5)")).op, OpCode::PowConst);
  EXPECT_TRUE(g.is_constant(parse(g, "if(1 > 2, x, g*2)")));
  EXPECT_EQ(parse(g, "if(x > 2, v, v)"), g.state(1));
}

// Derivative of every function against its closed form at a point where all are defined.
TEST(ExpressionGraph, DerivativesMatchClosedForms) {
  const double t = 0.3, x = 0.4, v = 1.7, z = -0.6;
  struct Case {
    const char* text;
    double d_dx;
  };
  const Case cases[] = {
      {"-x", -1},
      {"x + v", 1},
      {"x - v", 1},
      {"v - x", -1},
      {"x*v", v},
      {"x/v", 1 / v},
      {"v/x", -v / (x * x)},
      {"x^v", v * std::pow(x, v - 1)},
      {"v^x", std::pow(v, x) * std::log(v)},
      {"x^x", std::pow(x, x) * (std::log(x) + 1)},
      {"x^3.5", 3.5 * std::pow(x, 2.5)},
      {"x^2", 2 * x},
      {"x^-1", -1 / (x * x)},
      {"sqrt(x)", 0.5 / std::sqrt(x)},
      {"exp(2*x)", 2 * std::exp(2 * x)},
      {"log(x)", 1 / x},
      {"sin(x)", std::cos(x)},
      {"cos(x)", -std::sin(x)},
      {"tan(x)", 1 + std::tan(x) * std::tan(x)},
      {"asin(x)", 1 / std::sqrt(1 - x * x)},
      {"acos(x)", -1 / std::sqrt(1 - x * x)},
      {"atan(x)", 1 / (1 + x * x)},
      {"atan2(x, v)", v / (x * x + v * v)},
      {"atan2(v, x)", -v / (x * x + v * v)},
      {"sinh(x)", std::cosh(x)},
      {"cosh(x)", std::sinh(x)},
      {"tanh(x)", 1 - std::tanh(x) * std::tanh(x)},
      {"abs(x - 1)", -1},
      {"abs(x)", 1},
      {"sign(x)*v", 0},
      {"min(x, v)", 1},
      {"min(v, x)", 1},
      {"max(x, v)", 0},
      {"if(x < 0.5, x^2, -x)", 2 * x},
      {"if(x > 0.5, x^2, -x)", -1},
      {"(x < v) + x", 1},
      {"x*z + t*x", z + t},
  };
  for (const Case& c : cases) {
    ExpressionGraph g;
    const NodeId n = parse(g, c.text);
    const NodeId d = g.derivative(n, {OpCode::State, 0});
    EXPECT_NEAR(value(g, d, t, x, v, z), c.d_dx, 1e-13 * (1 + std::abs(c.d_dx))) << c.text;
  }
}

// Symbolic derivatives equal forward-mode AD through the same tape, for t, x, v and z, and
// second derivatives (used for mass matrices from kinetic energies) equal closed forms.
TEST(ExpressionGraph, DerivativesAgreeWithAutomaticDifferentiation) {
  const char* text = "x^2*sin(v*t) + exp(-x*z)*cosh(v) + atan2(x, v + z)/sqrt(1 + t^2)";
  ExpressionGraph g;
  const NodeId n = parse(g, text);
  const Tape tape = compile_tape(g, {{n, 0}});
  const double t = 0.8, x = -0.35, v = 1.1, z = 0.45;
  const Variable vars[] = {
      {OpCode::Time, 0}, {OpCode::State, 0}, {OpCode::State, 1}, {OpCode::Algebraic, 0}};
  for (int k = 0; k < 4; ++k) {
    DualVector xd(2), zd(1);
    xd << Dual(x, k == 1), Dual(v, k == 2);
    zd << Dual(z, k == 3);
    const double ad = evaluate(tape, Dual(t, k == 0), xd, zd).derivative();
    const double symbolic = value(g, g.derivative(n, vars[k]), t, x, v, z);
    EXPECT_NEAR(symbolic, ad, 1e-14 * (1 + std::abs(ad))) << k;
  }
  // d^2/dv dx of x^2 sin(v t) + ... and d^2/dx^2.
  ExpressionGraph h;
  const NodeId e = parse(h, "0.5*(x^2 + 2*x*v*cos(t) + v^2*x)");
  const NodeId dxv = h.derivative(h.derivative(e, {OpCode::State, 0}), {OpCode::State, 1});
  const NodeId dvv = h.derivative(h.derivative(e, {OpCode::State, 1}), {OpCode::State, 1});
  EXPECT_NEAR(value(h, dxv, t, x, v, z), std::cos(t) + v, 1e-15);
  EXPECT_NEAR(value(h, dvv, t, x, v, z), x, 1e-15);
  EXPECT_FALSE(h.depends_on(h.derivative(e, {OpCode::State, 1}), {OpCode::Algebraic, 0}));
  EXPECT_TRUE(h.depends_on(dxv, {OpCode::Time, 0}));
}

TEST(ExpressionGraph, RegistersAreReused) {
  // A sum of 200 products needs a handful of intermediate registers, not 400.
  std::string text = "x*v";
  for (int i = 1; i < 200; ++i) text += " + x*v^" + std::to_string(i + 1);
  ExpressionGraph g;
  const NodeId n = parse(g, text);
  const Tape tape = compile_tape(g, {{n, 0}});
  EXPECT_LT(tape.registers - static_cast<int>(tape.constants.size()), 8);
  EXPECT_NEAR(value(g, n, 0, 0.5, 0.9, 0), 0.5 * 0.9 * (1 - std::pow(0.9, 200)) / (1 - 0.9), 1e-12);
}

TEST(ExpressionGraph, LargeTapesUseTheThreadBuffer) {
  // Many outputs alive at once (each stored at the end through a shared operand) exceed the stack
  // registers; the result must not change.
  ExpressionGraph g;
  std::vector<TapeOutput> outputs;
  NodeId acc = g.state(0);
  for (int i = 0; i < 3 * kStackRegisters; ++i) {
    acc = g.make(OpCode::Add, g.make(OpCode::Mul, acc, g.constant(1.0 + 1e-3 * i)), g.state(1));
    outputs.push_back({acc, i});
  }
  std::vector<TapeOutput> reversed(outputs.rbegin(), outputs.rend());
  const Tape tape = compile_tape(g, reversed);  // computes the last first: all partial sums live
  EXPECT_GT(tape.registers, kStackRegisters);
  Vector x(2), z(0);
  x << 0.25, -0.5;
  std::vector<double> out(outputs.size());
  run(tape, 0.0, x, x, z, [&](int k, double v) { out[static_cast<size_t>(k)] = v; });
  double expect = 0.25;
  for (size_t i = 0; i < out.size(); ++i) {
    expect = expect * (1.0 + 1e-3 * static_cast<double>(i)) - 0.5;
    ASSERT_DOUBLE_EQ(out[i], expect) << i;
  }
}

}  // namespace
// Whether a caller may read every output slot from the native function's array.
TEST(ExpressionGraph, TapeSaysWhetherItStoresEverySlot) {
  ExpressionGraph g;
  const NodeId a = parse(g, "x*v + 1");
  const NodeId b = parse(g, "sin(x)");
  EXPECT_TRUE(compile_tape(g, {{a, 0}, {b, 1}}).stores_every_slot());
  EXPECT_FALSE(compile_tape(g, {{a, 0}, {b, 2}}).stores_every_slot());  // slot 1 is never stored
  const NodeId x = parse(g, "x");  // a leaf: stored before the code runs
  EXPECT_TRUE(compile_tape(g, {{x, 1}, {a, 0}}).stores_every_slot());
  EXPECT_FALSE(compile_tape(g, {{x, 1}}).stores_every_slot());
}

TEST(ExpressionGraph, RunTimeParametersAreLeavesReadFromTheSharedValues) {
  ExpressionGraph g;
  auto values = std::make_shared<std::vector<double>>(std::vector<double>{2.0});
  SymbolTable s = symbols();
  s.parameters = {"k"};
  const ParsedExpression p = parse_expression("k*x^2 + k", s, g);
  ASSERT_TRUE(p.ok());
  // A tape of a graph without values cannot read k.
  EXPECT_THROW(compile_tape(g, {{p.node, 0}}), std::logic_error);
  g.share_parameter_values(values);
  const Tape tape = compile_tape(g, {{p.node, 0}});
  Vector x(2), z(1);
  x << 3.0, 0.0;
  z << 0.0;
  EXPECT_EQ(evaluate(tape, 0.0, x, z), 2.0 * 9.0 + 2.0);
  (*values)[0] = -1.0;  // a write, no recompilation
  EXPECT_EQ(evaluate(tape, 0.0, x, z), -9.0 - 1.0);
  // d/dk = x^2 + 1; d/dx = 2 k x, with k still a leaf.
  const NodeId dk = g.derivative(p.node, {OpCode::Parameter, 0});
  EXPECT_EQ(evaluate(compile_tape(g, {{dk, 0}}), 0.0, x, z), 10.0);
  const NodeId dx = g.derivative(p.node, {OpCode::State, 0});
  EXPECT_TRUE(g.depends_on(dx, {OpCode::Parameter, 0}));
  EXPECT_EQ(evaluate(compile_tape(g, {{dx, 0}}), 0.0, x, z), -6.0);
}

}  // namespace saltus::lang
