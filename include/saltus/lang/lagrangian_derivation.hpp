// Euler-Lagrange equations derived symbolically on the expression graph, without any file
// format: a mechanical model's M(q) q'' = h(t, q, q') from its kinetic energy T, potential
// energy V and generalised forces Q (docs/MODEL_FORMAT.md "Mechanical models").
#pragma once

#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::lang {

struct LagrangianEquations {
  std::vector<std::vector<NodeId>> mass;  // M_ij = d^2 L / dq'_i dq'_j
  std::vector<NodeId> forces;             // h_i (below)
};

// For n = Q.size() coordinates, whose values are states 0..n-1 of `graph` and whose velocities
// q' are states n..2n-1: with L = T - V,
//   M_ij = d^2 L / dq'_i dq'_j,
//   h_i  = dL/dq_i - sum_j (d^2 L / dq'_i dq_j) q'_j - d/dt dL/dq'_i + Q_i,
// all as nodes of `graph`. Nothing is checked here: the caller decides what M may read (a
// T that is not quadratic in q' gives an M that reads q').
LagrangianEquations derive_lagrangian(ExpressionGraph& graph, NodeId kinetic_energy,
                                      NodeId potential_energy, const std::vector<NodeId>& Q);

}  // namespace saltus::lang
