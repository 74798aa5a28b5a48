// derive_lagrangian on the expression graph alone (no model file): a pendulum hanging from a
// cart, with a time-dependent term linear in the velocities and damping forces, has M and h
// equal to the hand-derived closed forms at seeded random (t, q, q').
#include "saltus/lang/lagrangian_derivation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "saltus/core/types.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::lang {
namespace {

// Cart mass M, bob mass m, rod length l, gravity g, drive k, damping b (cart) and c (pendulum).
constexpr double kM = 2.0, km = 0.7, kl = 1.3, kg = 9.81, kk = 0.4, kb = 0.25, kc = 0.15;

SymbolTable cart_pendulum_symbols() {
  SymbolTable s;
  s.constants = {{"M", kM}, {"m", km}, {"l", kl}, {"g", kg}, {"k", kk}, {"b", kb}, {"c", kc}};
  s.states = {"x", "th", "x'", "th'"};  // coordinates, then their velocities
  s.velocity_of = {2, 3, -1, -1};
  return s;
}

NodeId parse(ExpressionGraph& g, const std::string& text) {
  const ParsedExpression p = parse_expression(text, cart_pendulum_symbols(), g);
  EXPECT_TRUE(p.ok()) << text;
  return p.node;
}

double value(const ExpressionGraph& g, NodeId n, double t, const Vector& x) {
  return evaluate(compile_tape(g, {{n, 0}}), t, x, Vector(0));
}

TEST(LagrangianDerivation, CartPendulumMatchesClosedForm) {
  ExpressionGraph g;
  // theta measured from the downward vertical; k cos(t) x' is a time-dependent term linear in
  // the velocity, so h gets -d/dt of it: +k sin(t).
  const NodeId T =
      parse(g, "0.5*(M + m)*x'^2 + m*l*x'*th'*cos(th) + 0.5*m*l^2*th'^2 + k*cos(t)*x'");
  const NodeId V = parse(g, "-m*g*l*cos(th)");
  const std::vector<NodeId> Q = {parse(g, "-b*x'"), parse(g, "-c*th'")};
  const LagrangianEquations eq = derive_lagrangian(g, T, V, Q);
  ASSERT_EQ(eq.mass.size(), 2u);
  ASSERT_EQ(eq.forces.size(), 2u);

  std::mt19937 rng(20261123);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double t = u(rng), x = u(rng), th = u(rng), xd = u(rng), thd = u(rng);
    Vector state(4);
    state << x, th, xd, thd;
    // By hand: M = [[M + m, m l cos th], [m l cos th, m l^2]],
    // h_x = m l sin(th) th'^2 + k sin t - b x',  h_th = -m g l sin th - c th'.
    const double closed_mass[2][2] = {{kM + km, km * kl * std::cos(th)},
                                      {km * kl * std::cos(th), km * kl * kl}};
    const double closed_h[2] = {km * kl * std::sin(th) * thd * thd + kk * std::sin(t) - kb * xd,
                                -km * kg * kl * std::sin(th) - kc * thd};
    for (size_t i = 0; i < 2; ++i) {
      for (size_t j = 0; j < 2; ++j) {
        EXPECT_NEAR(value(g, eq.mass[i][j], t, state), closed_mass[i][j], 1e-13)
            << "M" << i << j << " at trial " << trial;
      }
      EXPECT_NEAR(value(g, eq.forces[i], t, state), closed_h[i],
                  1e-13 * (1.0 + std::abs(closed_h[i])))
          << "h" << i << " at trial " << trial;
    }
  }
  // M reads the coordinates only (never the velocities or t): its inputs are q.
  for (const auto& row : eq.mass) {
    for (const NodeId Mij : row) {
      for (const Variable& v : g.inputs(Mij)) {
        EXPECT_TRUE(v.kind == OpCode::State && v.index < 2) << "M reads a velocity or t";
      }
    }
  }
}

}  // namespace
}  // namespace saltus::lang
