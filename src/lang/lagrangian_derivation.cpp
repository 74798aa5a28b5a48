// M and h of the Euler-Lagrange equations (lagrangian_derivation.hpp) by symbolic derivatives.
#include "saltus/lang/lagrangian_derivation.hpp"

namespace saltus::lang {

LagrangianEquations derive_lagrangian(ExpressionGraph& g, NodeId kinetic_energy,
                                      NodeId potential_energy, const std::vector<NodeId>& Q) {
  const int n = static_cast<int>(Q.size());
  const Variable time{OpCode::Time, 0};
  const NodeId L = g.make(OpCode::Sub, kinetic_energy, potential_energy);
  LagrangianEquations out;
  out.mass.assign(static_cast<size_t>(n), std::vector<NodeId>(static_cast<size_t>(n), kNoNode));
  out.forces.assign(static_cast<size_t>(n), kNoNode);
  for (int i = 0; i < n; ++i) {
    const NodeId p = g.derivative(L, {OpCode::State, n + i});  // dL/dq'_i
    NodeId h = g.make(OpCode::Sub, g.derivative(L, {OpCode::State, i}), g.derivative(p, time));
    for (int j = 0; j < n; ++j) {
      out.mass[static_cast<size_t>(i)][static_cast<size_t>(j)] =
          g.derivative(p, {OpCode::State, n + j});
      // d/dt along the motion of dL/dq'_i has the term (d/dq_j dL/dq'_i) q'_j.
      h = g.make(OpCode::Sub, h,
                 g.make(OpCode::Mul, g.derivative(p, {OpCode::State, j}), g.state(n + j)));
    }
    out.forces[static_cast<size_t>(i)] = g.make(OpCode::Add, h, Q[static_cast<size_t>(i)]);
  }
  return out;
}

}  // namespace saltus::lang
