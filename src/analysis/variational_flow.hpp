// The variational ODE of one mode (private to src/analysis): y = (x, vec Phi), Phi column-major,
// y' = (phi(t, x), vec(dphi/dx Phi)) on the mode's state-space form (ode::FlowEvaluator: DAE
// modes through their reduced Jacobian). Used by arc_transition.cpp (one arc at a time) and
// one_pass_sensitivity.cpp (the whole run at once).
#pragma once

#include <memory>

#include "saltus/core/flow.hpp"
#include "saltus/ode/flow_evaluator.hpp"

namespace saltus::analysis::detail {

// What the augmented flow's callables share: the mode's evaluator (it keeps z between calls)
// and the matrix dphi/dx.
struct VariationalWorkspace {
  VariationalWorkspace(const Flow& flow, const ode::NewtonOptions& newton)
      : evaluator(flow.nx, flow.nz, newton), a(flow.nx, flow.nx), nx(flow.nx) {
    evaluator.set_flow(flow);
  }
  ode::FlowEvaluator evaluator;
  Matrix a;
  int nx;
};

// y = (x, vec Phi) (Phi column-major): y' = (phi(t, x), vec(dphi/dx Phi)).
inline Flow variational_flow(std::shared_ptr<VariationalWorkspace> ws) {
  const int nx = ws->nx;
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = nx * (1 + nx);
  flow.rhs = [ws](double t, ConstVectorRef y, ConstVectorRef, VectorRef ydot) {
    const int n = ws->nx;
    if (!ws->evaluator.derivative(t, y.head(n), ydot.head(n))) {
      ydot.setConstant(kNaN);  // the simulator stops with NonFiniteState and says where
      return;
    }
    ws->evaluator.reduced_jacobian(t, y.head(n), ws->a);
    Eigen::Map<const Matrix> phi(y.data() + n, n, n);
    Eigen::Map<Matrix>(ydot.data() + n, n, n).noalias() = ws->a * phi;
  };
  flow.rhs_jacobian = [ws](double t, ConstVectorRef y, ConstVectorRef, MatrixRef dfdx, MatrixRef) {
    const int n = ws->nx;
    dfdx.setZero();
    if (ws->evaluator.nz() > 0) {
      Vector xdot(n);
      ws->evaluator.derivative(t, y.head(n), xdot);  // z at this point for the reduced Jacobian
    }
    ws->evaluator.reduced_jacobian(t, y.head(n), ws->a);
    for (int k = 0; k <= n; ++k) dfdx.block(k * n, k * n, n, n) = ws->a;
  };
  return flow;
}

}  // namespace saltus::analysis::detail
