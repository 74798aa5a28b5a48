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
//
// The velocity projection of the same model (NonholonomicModel::project_velocity, the energy
// projection of long runs) on the same factors: v = q' - W lambda with G lambda = eta q', the
// M-orthogonal projection of q' onto {eta v = 0}, and its kinetic energy 1/2 v^T M v; one tape
// evaluates the heading's trigonometry once and needs no square root (L D L^T, not Cholesky).
#pragma once

#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::lang {

struct ConstrainedAccelerations {
  std::vector<NodeId> qddot;   // n accelerations
  std::vector<NodeId> pivots;  // the n pivots of M's L D L^T, then the k of G's
};

// q are states 0..n-1 of `graph` and q' states n..2n-1 (n = h.size()); mass[i][j] = M_ij (only
// i >= j is read: M is symmetric), h_i the generalised forces, rows[a][i] = eta^a_i(q).
ConstrainedAccelerations derive_constrained_accelerations(
    ExpressionGraph& graph, const std::vector<std::vector<NodeId>>& mass,
    const std::vector<NodeId>& h, const std::vector<std::vector<NodeId>>& rows);

struct ConstrainedVelocity {
  std::vector<NodeId> qdot;         // n components of v
  NodeId kinetic_energy = kNoNode;  // 1/2 v^T M v
  std::vector<NodeId> pivots;       // as ConstrainedAccelerations::pivots
};

// v(q, q') and its kinetic energy; arguments as for derive_constrained_accelerations (n =
// mass.size()).
ConstrainedVelocity derive_constrained_velocity(ExpressionGraph& graph,
                                                const std::vector<std::vector<NodeId>>& mass,
                                                const std::vector<std::vector<NodeId>>& rows);

}  // namespace saltus::lang
