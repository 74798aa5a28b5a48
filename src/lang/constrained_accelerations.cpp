// Lagrange-d'Alembert accelerations on the expression graph (constrained_accelerations.hpp).
#include "saltus/lang/constrained_accelerations.hpp"

#include <cstddef>

namespace saltus::lang {
namespace {

using Column = std::vector<NodeId>;
using Square = std::vector<std::vector<NodeId>>;

// Arithmetic on nodes; make() folds zeros and ones, so structurally sparse matrices (the
// sleigh's M has two zero entries) give short tapes.
struct Nodes {
  ExpressionGraph& g;
  NodeId add(NodeId a, NodeId b) { return g.make(OpCode::Add, a, b); }
  NodeId sub(NodeId a, NodeId b) { return g.make(OpCode::Sub, a, b); }
  NodeId mul(NodeId a, NodeId b) { return g.make(OpCode::Mul, a, b); }
  NodeId div(NodeId a, NodeId b) { return g.make(OpCode::Div, a, b); }
  NodeId zero() { return g.constant(0.0); }
};

// A symmetric matrix S = L D L^T (L unit lower triangular, stored below the diagonal), with
// 1 / D: one division per pivot, the rest products (a division's latency is several products'
// on the flow's dependency chain).
struct LdlFactor {
  Square L;
  Column D, inverse_D;
};

// S given by its lower triangle: entry(i, j) for i >= j.
template <class Entry>
LdlFactor factor(Nodes& s, int n, Entry entry) {
  LdlFactor f;
  f.L.assign(static_cast<size_t>(n), Column(static_cast<size_t>(n), s.zero()));
  f.D.assign(static_cast<size_t>(n), s.zero());
  f.inverse_D.assign(static_cast<size_t>(n), s.zero());
  const auto L = [&f](int i, int j) -> NodeId& {
    return f.L[static_cast<size_t>(i)][static_cast<size_t>(j)];
  };
  const auto D = [&f](int j) -> NodeId& { return f.D[static_cast<size_t>(j)]; };
  for (int j = 0; j < n; ++j) {
    NodeId d = entry(j, j);
    for (int k = 0; k < j; ++k) d = s.sub(d, s.mul(s.mul(L(j, k), L(j, k)), D(k)));
    D(j) = d;
    const NodeId inverse = s.div(s.g.constant(1.0), d);
    f.inverse_D[static_cast<size_t>(j)] = inverse;
    for (int i = j + 1; i < n; ++i) {
      NodeId v = entry(i, j);
      for (int k = 0; k < j; ++k) v = s.sub(v, s.mul(s.mul(L(i, k), L(j, k)), D(k)));
      L(i, j) = s.mul(v, inverse);
    }
  }
  return f;
}

// x = S^-1 b from S's factors: L y = b, D z = y, L^T x = z.
Column solve(Nodes& s, const LdlFactor& f, Column b) {
  const int n = static_cast<int>(b.size());
  const auto L = [&f](int i, int j) { return f.L[static_cast<size_t>(i)][static_cast<size_t>(j)]; };
  const auto at = [&b](int i) -> NodeId& { return b[static_cast<size_t>(i)]; };
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) at(i) = s.sub(at(i), s.mul(L(i, k), at(k)));
  }
  for (int i = 0; i < n; ++i) at(i) = s.mul(at(i), f.inverse_D[static_cast<size_t>(i)]);
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) at(i) = s.sub(at(i), s.mul(L(k, i), at(k)));
  }
  return b;
}

NodeId dot(Nodes& s, const Column& u, const Column& v) {
  NodeId sum = s.zero();
  for (size_t i = 0; i < u.size(); ++i) sum = s.add(sum, s.mul(u[i], v[i]));
  return sum;
}

// M's factors, W^b = M^-1 eta^b^T and G_ab = eta^a W^b's factors: what the accelerations and
// the velocity projection share.
struct ConstraintFactors {
  LdlFactor M;
  std::vector<Column> W;
  LdlFactor G;
};

ConstraintFactors constraint_factors(Nodes& s, const Square& mass, const Square& rows) {
  const int n = static_cast<int>(mass.size());
  const int k = static_cast<int>(rows.size());
  ConstraintFactors f;
  f.M = factor(
      s, n, [&mass](int i, int j) { return mass[static_cast<size_t>(i)][static_cast<size_t>(j)]; });
  for (const Column& row : rows) f.W.push_back(solve(s, f.M, row));
  f.G = factor(s, k, [&rows, &f, &s](int i, int j) {
    return dot(s, rows[static_cast<size_t>(i)], f.W[static_cast<size_t>(j)]);
  });
  return f;
}

// q' - sum_b W^b lambda_b.
Column subtract_columns(Nodes& s, Column v, const std::vector<Column>& W, const Column& lambda) {
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t b = 0; b < W.size(); ++b) v[i] = s.sub(v[i], s.mul(W[b][i], lambda[b]));
  }
  return v;
}

Column pivots(const ConstraintFactors& f) {
  Column p = f.M.D;
  p.insert(p.end(), f.G.D.begin(), f.G.D.end());
  return p;
}

}  // namespace

ConstrainedAccelerations derive_constrained_accelerations(ExpressionGraph& graph,
                                                          const Square& mass, const Column& h,
                                                          const Square& rows) {
  Nodes s{graph};
  const int n = static_cast<int>(h.size());
  const ConstraintFactors f = constraint_factors(s, mass, rows);
  const Column a = solve(s, f.M, h);

  // G lambda = -(eta a + etadot q'), etadot q' = sum_ij (d eta_i / dq_j) q'_j q'_i.
  Column rhs;
  for (const Column& row : rows) {
    NodeId rate = s.zero();
    for (int i = 0; i < n; ++i) {
      NodeId d_row = s.zero();  // (d/ds) eta_i(q + s q')
      for (int j = 0; j < n; ++j) {
        d_row =
            s.add(d_row, s.mul(graph.derivative(row[static_cast<size_t>(i)], {OpCode::State, j}),
                               graph.state(n + j)));
      }
      rate = s.add(rate, s.mul(d_row, graph.state(n + i)));
    }
    rhs.push_back(graph.make(OpCode::Neg, s.add(dot(s, row, a), rate)));
  }
  const Column lambda = solve(s, f.G, rhs);

  ConstrainedAccelerations out;
  for (int i = 0; i < n; ++i) {
    NodeId qdd = a[static_cast<size_t>(i)];
    for (size_t b = 0; b < rows.size(); ++b) {
      qdd = s.add(qdd, s.mul(f.W[b][static_cast<size_t>(i)], lambda[b]));
    }
    out.qddot.push_back(qdd);
  }
  out.pivots = pivots(f);
  return out;
}

ConstrainedVelocity derive_constrained_velocity(ExpressionGraph& graph, const Square& mass,
                                                const Square& rows) {
  Nodes s{graph};
  const int n = static_cast<int>(mass.size());
  const ConstraintFactors f = constraint_factors(s, mass, rows);
  Column qdot, violation;  // eta^a q'
  for (int i = 0; i < n; ++i) qdot.push_back(graph.state(n + i));
  for (const Column& row : rows) violation.push_back(dot(s, row, qdot));
  ConstrainedVelocity out;
  out.qdot = subtract_columns(s, qdot, f.W, solve(s, f.G, violation));
  // 1/2 v^T M v from M's lower triangle: sum_i M_ii v_i^2 / 2 + sum_{i > j} M_ij v_i v_j.
  NodeId twice = s.zero();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      const NodeId vv = s.mul(out.qdot[static_cast<size_t>(i)], out.qdot[static_cast<size_t>(j)]);
      NodeId term = s.mul(mass[static_cast<size_t>(i)][static_cast<size_t>(j)], vv);
      if (i != j) term = s.add(term, term);
      twice = s.add(twice, term);
    }
  }
  out.kinetic_energy = s.mul(graph.constant(0.5), twice);
  out.pivots = pivots(f);
  return out;
}

}  // namespace saltus::lang
