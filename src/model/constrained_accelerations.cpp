// Lagrange-d'Alembert accelerations on the expression graph (constrained_accelerations.hpp).
#include "saltus/model/constrained_accelerations.hpp"

#include <cstddef>

namespace saltus::model {
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

// A symmetric matrix S = L D L^T (L unit lower triangular, stored below the diagonal).
struct LdlFactor {
  Square L;
  Column D;
};

// S given by its lower triangle: entry(i, j) for i >= j.
template <class Entry>
LdlFactor factor(Nodes& s, int n, Entry entry) {
  LdlFactor f;
  f.L.assign(static_cast<size_t>(n), Column(static_cast<size_t>(n), s.zero()));
  f.D.assign(static_cast<size_t>(n), s.zero());
  const auto L = [&f](int i, int j) -> NodeId& {
    return f.L[static_cast<size_t>(i)][static_cast<size_t>(j)];
  };
  const auto D = [&f](int j) -> NodeId& { return f.D[static_cast<size_t>(j)]; };
  for (int j = 0; j < n; ++j) {
    NodeId d = entry(j, j);
    for (int k = 0; k < j; ++k) d = s.sub(d, s.mul(s.mul(L(j, k), L(j, k)), D(k)));
    D(j) = d;
    for (int i = j + 1; i < n; ++i) {
      NodeId v = entry(i, j);
      for (int k = 0; k < j; ++k) v = s.sub(v, s.mul(s.mul(L(i, k), L(j, k)), D(k)));
      L(i, j) = s.div(v, d);
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
  for (int i = 0; i < n; ++i) at(i) = s.div(at(i), f.D[static_cast<size_t>(i)]);
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

}  // namespace

ConstrainedAccelerations derive_constrained_accelerations(ExpressionGraph& graph,
                                                          const Square& mass, const Column& h,
                                                          const Square& rows) {
  Nodes s{graph};
  const int n = static_cast<int>(h.size());
  const int k = static_cast<int>(rows.size());
  const LdlFactor M = factor(
      s, n, [&mass](int i, int j) { return mass[static_cast<size_t>(i)][static_cast<size_t>(j)]; });
  const Column a = solve(s, M, h);
  std::vector<Column> W;  // W^b = M^-1 eta^b^T
  for (const Column& row : rows) W.push_back(solve(s, M, row));

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
  const LdlFactor G = factor(s, k, [&rows, &W, &s](int i, int j) {
    return dot(s, rows[static_cast<size_t>(i)], W[static_cast<size_t>(j)]);
  });
  const Column lambda = solve(s, G, rhs);

  ConstrainedAccelerations out;
  for (int i = 0; i < n; ++i) {
    NodeId qdd = a[static_cast<size_t>(i)];
    for (int b = 0; b < k; ++b) {
      qdd = s.add(qdd, s.mul(W[static_cast<size_t>(b)][static_cast<size_t>(i)],
                             lambda[static_cast<size_t>(b)]));
    }
    out.qddot.push_back(qdd);
  }
  out.pivots = M.D;
  out.pivots.insert(out.pivots.end(), G.D.begin(), G.D.end());
  return out;
}

}  // namespace saltus::model
