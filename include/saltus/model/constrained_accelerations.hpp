// The Lagrange-d'Alembert accelerations of a model with velocity constraints, eliminated
// symbolically on the expression graph: one set of nodes qddot(t, q, q') that a single tape
// computes, sharing every subexpression (the trigonometry of M, h and the rows is evaluated once).
//
// The same equations as mech::NonholonomicModel's generic elimination (nonholonomic_model.hpp,
// FORMULAS.md 12.2), written out on the graph for a fixed number of coordinates n and rows k:
//   M = L D L^T (unit lower L, no pivoting: M is SPD),  a = M^-1 h,  W^a = M^-1 eta^a^T,
//   G_ab = eta^a W^b = G's L D L^T,  G lambda = -(eta a + etadot q'),  qddot = a + W lambda,
// with etadot q' = sum_ij (d eta^a_i / dq_j) q'_j q'_i by symbolic derivatives. The pivots of both
// factorisations are outputs too: the elimination is valid exactly where every pivot is > 0 (M
// SPD and the rows independent); elsewhere the caller falls back to the generic elimination,
// whose errors name the model and the state.
#pragma once

#include <vector>

#include "saltus/model/expression_graph.hpp"

namespace saltus::model {

struct ConstrainedAccelerations {
  std::vector<NodeId> qddot;   // n accelerations
  std::vector<NodeId> pivots;  // the n pivots of M's L D L^T, then the k of G's
};

// q are states 0..n-1 of `graph` and q' states n..2n-1 (n = h.size()); mass[i][j] = M_ij (only
// i >= j is read: M is symmetric), h_i the generalised forces, rows[a][i] = eta^a_i(q).
ConstrainedAccelerations derive_constrained_accelerations(
    ExpressionGraph& graph, const std::vector<std::vector<NodeId>>& mass,
    const std::vector<NodeId>& h, const std::vector<std::vector<NodeId>>& rows);

}  // namespace saltus::model
