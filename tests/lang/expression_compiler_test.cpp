// The expression compiler: values of every operator and function against <cmath>, constant
// folding, derivatives in saltus::Dual against closed forms, and the messages for bad input.
#include "saltus/lang/expression_compiler.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/types.hpp"

namespace saltus::lang {
namespace {

SymbolTable symbols() {
  SymbolTable s;
  s.constants = {{"g", 9.81}, {"k", 2.0}};
  s.states = {"x", "v"};
  s.algebraic = {"z"};
  return s;
}

double eval(const std::string& text, double t = 0.3, double x = 0.7, double v = -1.2,
            double z = 0.5) {
  const CompiledExpression c = compile_expression(text, symbols());
  EXPECT_TRUE(c.ok()) << text << ": " << (c.ok() ? "" : c.issues[0].message);
  Vector xs(2), zs(1);
  xs << x, v;
  zs << z;
  return evaluate(c.program, t, xs, zs);
}

TEST(ExpressionCompiler, OperatorsAndPrecedence) {
  EXPECT_DOUBLE_EQ(eval("1 + 2*3"), 7.0);
  EXPECT_DOUBLE_EQ(eval("(1 + 2)*3"), 9.0);
  EXPECT_DOUBLE_EQ(eval("-x^2"), -0.49);
  EXPECT_DOUBLE_EQ(eval("2^3^2"), 512.0);
  EXPECT_DOUBLE_EQ(eval("2**-1"), 0.5);
  EXPECT_DOUBLE_EQ(eval("x - v/2 + t"), 0.7 + 0.6 + 0.3);
  EXPECT_DOUBLE_EQ(eval("-g*k + z"), -19.62 + 0.5);
  EXPECT_DOUBLE_EQ(eval("x < v") + eval("x >= v") * 10 + eval("x == x") * 100, 110.0);
  EXPECT_DOUBLE_EQ(eval("if(x > 0.5, 1, 2)"), 1.0);
  EXPECT_DOUBLE_EQ(eval("1.5e2 + .5"), 150.5);
}

TEST(ExpressionCompiler, FunctionsMatchCmath) {
  const double x = 0.7, v = -1.2;
  EXPECT_DOUBLE_EQ(eval("min(x, v, 3)"), v);
  EXPECT_DOUBLE_EQ(eval("max(x, v)"), x);
  EXPECT_DOUBLE_EQ(eval("abs(v)"), 1.2);
  EXPECT_DOUBLE_EQ(eval("sign(v)"), -1.0);
  EXPECT_DOUBLE_EQ(eval("pow(x, 1.5)"), std::pow(x, 1.5));
  EXPECT_DOUBLE_EQ(eval("pow(x, v)"), std::pow(x, v));
  EXPECT_DOUBLE_EQ(eval("sqrt(x)"), std::sqrt(x));
  EXPECT_DOUBLE_EQ(eval("exp(v) + log(x)"), std::exp(v) + std::log(x));
  EXPECT_DOUBLE_EQ(eval("sin(x) + cos(x) + tan(x)"), std::sin(x) + std::cos(x) + std::tan(x));
  EXPECT_DOUBLE_EQ(eval("asin(x) + acos(x) + atan(v)"), std::asin(x) + std::acos(x) + std::atan(v));
  EXPECT_DOUBLE_EQ(eval("atan2(v, x)"), std::atan2(v, x));
  EXPECT_DOUBLE_EQ(eval("sinh(v) + cosh(v) + tanh(v)"), std::sinh(v) + std::cosh(v) + std::tanh(v));
  EXPECT_DOUBLE_EQ(eval("pi"), M_PI);
}

TEST(ExpressionCompiler, ConstantsAreFolded) {
  const CompiledExpression c = compile_expression("-g*k*sqrt(4) + x", symbols());
  ASSERT_TRUE(c.ok());
  // (-g k 2) folded into one literal: one add remains.
  EXPECT_EQ(c.program.operation_count(), 1);
  const CompiledExpression d = compile_expression("2*g - 1", symbols());
  EXPECT_TRUE(d.is_constant);
  EXPECT_DOUBLE_EQ(d.constant_value, 2 * 9.81 - 1);
}

TEST(ExpressionCompiler, DualGivesExactDerivatives) {
  const CompiledExpression c =
      compile_expression("x^2*sin(v) + exp(t*x) + max(x, v) + pow(x, v)", symbols());
  ASSERT_TRUE(c.ok());
  const double t = 0.3, x = 0.7, v = -1.2;
  DualVector xd(2), zd(1);
  xd << Dual(x, 1.0), Dual(v);
  zd << Dual(0.5);
  const Dual r = evaluate(c.program, Dual(t), xd, zd);
  const double d_dx = 2 * x * std::sin(v) + t * std::exp(t * x) + 1 + v * std::pow(x, v - 1);
  EXPECT_NEAR(r.derivative(), d_dx, 1e-14);
  xd << Dual(x), Dual(v, 1.0);
  const Dual s = evaluate(c.program, Dual(t), xd, zd);
  EXPECT_NEAR(s.derivative(), x * x * std::cos(v) + std::log(x) * std::pow(x, v), 1e-14);
}

TEST(ExpressionCompiler, RatesOnlyInResiduals) {
  SymbolTable s = symbols();
  EXPECT_FALSE(compile_expression("x' + v", s).ok());
  s.allow_state_rate = true;
  const int eq = find_equals("x' = v");
  ASSERT_EQ(eq, 3);
  const CompiledExpression c = compile_residual("x' = v", eq, s);
  ASSERT_TRUE(c.ok());
  Vector x(2), xr(2), z(1);
  x << 1, 2;
  xr << 5, 0;
  z << 0;
  EXPECT_DOUBLE_EQ(evaluate(c.program, 0.0, x, xr, z), 3.0);
}

TEST(ExpressionCompiler, ReportsEveryProblemWithItsOffset) {
  const CompiledExpression c = compile_expression("foo + sin(x, v) + bar(x)", symbols());
  ASSERT_EQ(c.issues.size(), 3u);
  EXPECT_EQ(c.issues[0].offset, 0);
  EXPECT_NE(c.issues[0].message.find("unknown symbol 'foo'"), std::string::npos);
  EXPECT_EQ(c.issues[1].offset, 6);
  EXPECT_NE(c.issues[1].message.find("takes 1 argument, got 2"), std::string::npos);
  EXPECT_EQ(c.issues[2].offset, 18);
  EXPECT_NE(c.issues[2].message.find("unknown function 'bar'"), std::string::npos);
}

TEST(ExpressionCompiler, CallOfAnUnknownFunctionWithoutArguments) {
  // Found by the fuzzer: "x()" once read an argument list that was empty.
  const CompiledExpression c = compile_expression("(((x())))", symbols());
  ASSERT_EQ(c.issues.size(), 1u);
  EXPECT_NE(c.issues[0].message.find("unknown function 'x'"), std::string::npos);
}

TEST(ExpressionCompiler, SyntaxErrorsSayWhatWasExpected) {
  for (const char* bad : {"x +", "(x", "x y", "1e", ")", "x < < v", "", "min(x,"}) {
    const CompiledExpression c = compile_expression(bad, symbols());
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_NE(c.issues[0].message.find("expected"), std::string::npos) << c.issues[0].message;
  }
}

TEST(ExpressionCompiler, DeepNestingIsRejectedNotOverflowed) {
  const std::string deep = std::string(5000, '(') + "x" + std::string(5000, ')');
  EXPECT_FALSE(compile_expression(deep, symbols()).ok());
  // 90 nested sums (within the parser's nesting limit) need no deep stack on a register tape.
  std::string chain = "v";
  for (int i = 0; i < 90; ++i) chain = "x*" + std::to_string(i) + " + (" + chain + ")";
  EXPECT_NEAR(eval(chain), 0.7 * 89 * 90 / 2 - 1.2, 1e-11);
}

TEST(ExpressionCompiler, LongSumsNeedNoRecursion) {
  // 20000 terms: a left-deep graph; parsing, differentiation and tape building are iterative.
  std::string sum = "x";
  for (int i = 0; i < 20000; ++i) sum += " + x*v";
  ExpressionGraph g;
  const ParsedExpression p = parse_expression(sum, symbols(), g);
  ASSERT_TRUE(p.ok());
  const NodeId d = g.derivative(p.node, {OpCode::State, 0});
  const Tape t = compile_tape(g, {{p.node, 0}, {d, 1}});
  Vector x(2), z(1);
  x << 0.7, -1.2;
  z << 0.5;
  double value = 0, derivative = 0;
  run(t, 0.0, x, x, z, [&](int k, double v) { (k == 0 ? value : derivative) = v; });
  EXPECT_NEAR(value, 0.7 + 20000 * 0.7 * -1.2, 1e-8);
  EXPECT_NEAR(derivative, 1 + 20000 * -1.2, 1e-8);
}

}  // namespace
}  // namespace saltus::lang
