// Hamilton's equations, impact and crossing maps (hamiltonian_derivation.hpp) by symbolic
// derivatives on the expression graph.
#include "saltus/lang/hamiltonian_derivation.hpp"

namespace saltus::lang {

HamiltonianEquations derive_hamiltonian(ExpressionGraph& g, NodeId hamiltonian, int n) {
  HamiltonianEquations eq;
  eq.hamiltonian = hamiltonian;
  eq.rates.resize(static_cast<size_t>(2 * n));
  for (int i = 0; i < n; ++i) {
    const NodeId dH_dp = g.derivative(hamiltonian, {OpCode::State, n + i});
    eq.velocity.push_back(dH_dp);
    eq.rates[static_cast<size_t>(i)] = dH_dp;
    eq.rates[static_cast<size_t>(n + i)] =
        g.make(OpCode::Neg, g.derivative(hamiltonian, {OpCode::State, i}));
  }
  for (int i = 0; i < n; ++i) {
    std::vector<NodeId> row;
    for (int j = 0; j < n; ++j) {
      row.push_back(g.derivative(eq.velocity[static_cast<size_t>(i)], {OpCode::State, n + j}));
    }
    eq.inverse_mass.push_back(std::move(row));
  }
  return eq;
}

bool is_quadratic_in_momenta(ExpressionGraph& g, const HamiltonianEquations& eq, int n) {
  for (const auto& row : eq.inverse_mass) {
    for (NodeId entry : row) {
      for (int k = 0; k < n; ++k) {
        if (!g.is_zero(g.derivative(entry, {OpCode::State, n + k}))) return false;
      }
    }
  }
  return true;
}

NodeId natural_hamiltonian(ExpressionGraph& g, const std::vector<std::vector<NodeId>>& metric,
                           NodeId potential, int n) {
  // [M | I] -> [I | M^-1] by row operations on graph nodes.
  std::vector<std::vector<NodeId>> a(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    a[static_cast<size_t>(i)] = metric[static_cast<size_t>(i)];
    for (int j = 0; j < n; ++j) a[static_cast<size_t>(i)].push_back(g.constant(i == j ? 1 : 0));
  }
  const auto at = [&a](int i, int j) -> NodeId& {
    return a[static_cast<size_t>(i)][static_cast<size_t>(j)];
  };
  for (int k = 0; k < n; ++k) {
    const NodeId pivot = at(k, k);
    for (int j = 0; j < 2 * n; ++j) at(k, j) = g.make(OpCode::Div, at(k, j), pivot);
    for (int i = 0; i < n; ++i) {
      if (i == k || g.is_zero(at(i, k))) continue;
      const NodeId factor = at(i, k);
      for (int j = 0; j < 2 * n; ++j) {
        at(i, j) = g.make(OpCode::Sub, at(i, j), g.make(OpCode::Mul, factor, at(k, j)));
      }
    }
  }
  NodeId kinetic = g.constant(0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const NodeId term =
          g.make(OpCode::Mul, g.make(OpCode::Mul, g.state(n + i), at(i, n + j)), g.state(n + j));
      kinetic = g.make(OpCode::Add, kinetic, term);
    }
  }
  return g.make(OpCode::Add, g.make(OpCode::Mul, g.constant(0.5), kinetic), potential);
}

NodeId normal_velocity(ExpressionGraph& g, const HamiltonianEquations& eq,
                       const std::vector<NodeId>& d) {
  NodeId sum = g.constant(0.0);
  for (size_t i = 0; i < d.size(); ++i) {
    sum = g.make(OpCode::Add, sum, g.make(OpCode::Mul, d[i], eq.velocity[i]));
  }
  return sum;
}

NodeId normal_inverse_mass(ExpressionGraph& g, const HamiltonianEquations& eq,
                           const std::vector<NodeId>& d) {
  NodeId sum = g.constant(0.0);
  for (size_t i = 0; i < d.size(); ++i) {
    for (size_t j = 0; j < d.size(); ++j) {
      sum = g.make(OpCode::Add, sum,
                   g.make(OpCode::Mul, g.make(OpCode::Mul, d[i], eq.inverse_mass[i][j]), d[j]));
    }
  }
  return sum;
}

std::vector<NodeId> momenta_after(ExpressionGraph& g, const std::vector<NodeId>& d, NodeId eps,
                                  int n) {
  std::vector<NodeId> p;
  for (int i = 0; i < n; ++i) {
    p.push_back(
        g.make(OpCode::Add, g.state(n + i), g.make(OpCode::Mul, eps, d[static_cast<size_t>(i)])));
  }
  return p;
}

NodeId impact_multiplier(ExpressionGraph& g, const HamiltonianEquations& eq,
                         const std::vector<NodeId>& d, NodeId restitution) {
  const NodeId gain = g.make(OpCode::Add, g.constant(1.0), restitution);
  const NodeId ratio =
      g.make(OpCode::Div, normal_velocity(g, eq, d), normal_inverse_mass(g, eq, d));
  return g.make(OpCode::Neg, g.make(OpCode::Mul, gain, ratio));
}

CrossingMap crossing_map(ExpressionGraph& g, const HamiltonianEquations& from,
                         const HamiltonianEquations& to, const std::vector<NodeId>& d,
                         int entering_sign) {
  CrossingMap m;
  m.a = g.make(OpCode::Mul, g.constant(0.5), normal_inverse_mass(g, to, d));
  m.b = normal_velocity(g, to, d);
  m.c = g.make(OpCode::Sub, to.hamiltonian, from.hamiltonian);
  m.discriminant = g.make(OpCode::Sub, g.make(OpCode::Square, m.b),
                          g.make(OpCode::Mul, g.constant(4.0), g.make(OpCode::Mul, m.a, m.c)));
  // b + 2 a eps = +-sqrt(disc): the refracting root takes the entering sign. For disc < 0 the
  // roots are complex; their real part -b / 2a is what these nodes then give (finite, so they
  // can be reported with the event that reflects).
  const NodeId root = g.make(OpCode::Sqrt, g.make(OpCode::Max, m.discriminant, g.constant(0.0)));
  const NodeId two_a = g.make(OpCode::Mul, g.constant(2.0), m.a);
  const NodeId minus_b = g.make(OpCode::Neg, m.b);
  const NodeId forward = g.make(OpCode::Mul, g.constant(entering_sign), root);
  m.eps_refraction = g.make(OpCode::Div, g.make(OpCode::Add, minus_b, forward), two_a);
  m.eps_reflection = g.make(OpCode::Div, g.make(OpCode::Sub, minus_b, forward), two_a);
  return m;
}

}  // namespace saltus::lang
