// Hamilton's equations, impacts and the refraction crossing map derived symbolically on the
// expression graph, without any file format (docs/MODEL_FORMAT.md "Hamiltonian models").
//
// The coordinates q are states 0..n-1 of the graph and their momenta p states n..2n-1. Impacts
// and crossings are the corner conditions of seed 003 in cotangent form, p+ = p- + eps dh
// (Theorem 3, section 3.5), solved in closed form for Hamiltonians quadratic in p.
#pragma once

#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::lang {

struct HamiltonianEquations {
  NodeId hamiltonian = kNoNode;
  std::vector<NodeId> rates;                      // q_i' = dH/dp_i (i < n), p_i' = -dH/dq_i
  std::vector<NodeId> velocity;                   // dH/dp_i
  std::vector<std::vector<NodeId>> inverse_mass;  // d^2 H / dp_i dp_j
};

HamiltonianEquations derive_hamiltonian(ExpressionGraph& graph, NodeId hamiltonian, int n);

// True when every third derivative d^3 H / dp_i dp_j dp_k is structurally zero: H is at most
// quadratic in p, as the closed-form impact and crossing maps below assume.
bool is_quadratic_in_momenta(ExpressionGraph& graph, const HamiltonianEquations& eq, int n);

// H = 1/2 p^T M(q)^-1 p + V(q) with M inverted symbolically (Gauss-Jordan without pivoting: M
// is symmetric positive definite where the model is valid).
NodeId natural_hamiltonian(ExpressionGraph& graph, const std::vector<std::vector<NodeId>>& metric,
                           NodeId potential, int n);

// d . grad_p H and d^T (d^2 H / dp^2) d for a covector d (n nodes).
NodeId normal_velocity(ExpressionGraph& graph, const HamiltonianEquations& eq,
                       const std::vector<NodeId>& d);
NodeId normal_inverse_mass(ExpressionGraph& graph, const HamiltonianEquations& eq,
                           const std::vector<NodeId>& d);

// p + eps d, the momenta after a jump along d.
std::vector<NodeId> momenta_after(ExpressionGraph& graph, const std::vector<NodeId>& d, NodeId eps,
                                  int n);

// An impact on the wall g(q) = 0 with d = dg/dq and Newton's restitution e on the normal
// velocity: eps = -(1 + e) (d . H_p) / (d^T H_pp d). With e = 1 it keeps H (corner conditions).
NodeId impact_multiplier(ExpressionGraph& graph, const HamiltonianEquations& eq,
                         const std::vector<NodeId>& d, NodeId restitution);

// Crossing the surface h(q) = 0 from the side of H_from into the side of H_to, d = dh/dq:
// H_to(q, p + eps d) = H_from(q, p) is a quadratic a eps^2 + b eps + c = 0 with
// a = d^T H_to,pp d / 2, b = d . H_to,p (q, p), c = H_to(q, p) - H_from(q, p). Its root whose
// normal velocity b + 2 a eps has the sign `entering_sign` (-1 into h < 0, +1 into h > 0)
// refracts; the other root points back across the surface: a reflection that keeps H_to's
// energy on H_from's side (seed 003 Fig. 3, right). No real root (discriminant < 0): total
// internal reflection; both eps nodes then give the real part -b / 2a.
struct CrossingMap {
  NodeId a = kNoNode, b = kNoNode, c = kNoNode, discriminant = kNoNode;
  NodeId eps_refraction = kNoNode, eps_reflection = kNoNode;
};
CrossingMap crossing_map(ExpressionGraph& graph, const HamiltonianEquations& from,
                         const HamiltonianEquations& to, const std::vector<NodeId>& d,
                         int entering_sign);

}  // namespace saltus::lang
