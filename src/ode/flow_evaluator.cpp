#include "saltus/ode/flow_evaluator.hpp"

#include <cmath>

namespace saltus::ode {

FlowEvaluator::FlowEvaluator(int max_nx, int max_nz, const NewtonOptions& newton)
    : newton_(newton),
      z_(Vector::Zero(max_nz)),
      xdot_(Vector::Zero(max_nx)),
      residual_(max_nx + max_nz),
      correction_(max_nx + max_nz),
      newton_matrix_(max_nx + max_nz, max_nx + max_nz),
      dfdx_(max_nx, max_nx),
      dfdz_(max_nx, max_nz),
      dgdx_(max_nz, max_nx),
      dgdz_(max_nz, max_nz),
      dFdxdot_(max_nx, max_nx),
      dzdx_(max_nz, max_nx),
      lu_(max_nx + max_nz),
      lu_gz_(max_nz),
      lu_xdot_(max_nx) {}

void FlowEvaluator::set_flow(const Flow& flow) {
  flow_ = &flow;
  direct_ = flow.kind == FlowKind::Ode ? flow.rhs.target<DirectRhs>() : nullptr;
  nx_ = flow.nx;
  nz_ = flow.nz;
}

// derivative() past its fast path: the flow's kind, and a DirectRhs that declined.
bool FlowEvaluator::general_derivative(double t, const ConstVectorRef& x, VectorRef xdot) {
  switch (flow_->kind) {
    // z as a Map: binds to the Ref without Eigen's out-of-line checks for a block.
    case FlowKind::Ode:
      if (direct_) {
        direct_->general(t, x, Eigen::Map<const Vector>(z_.data(), 0), xdot);
      } else {
        flow_->rhs(t, x, Eigen::Map<const Vector>(z_.data(), 0), xdot);
      }
      break;
    case FlowKind::SemiExplicitDae:
      if (!solve_semi_explicit(t, x)) return false;
      flow_->rhs(t, x, Eigen::Map<const Vector>(z_.data(), nz_), xdot);
      break;
    case FlowKind::ImplicitDae:
      if (!solve_implicit(t, x)) return false;
      xdot = xdot_.head(nx_);
      break;
  }
  return all_finite(xdot.data(), xdot.size());
}

bool FlowEvaluator::solve_algebraic(double tau, const ConstVectorRef& x, VectorRef z) {
  const double t = origin_ + tau;
  z_.head(nz_) = z;
  bool ok = true;
  if (flow_->kind == FlowKind::SemiExplicitDae) ok = solve_semi_explicit(t, x);
  if (flow_->kind == FlowKind::ImplicitDae) ok = solve_implicit(t, x);
  z = z_.head(nz_);
  return ok;
}

// Newton on g(t, x, z) = 0 for z.
bool FlowEvaluator::solve_semi_explicit(double t, const ConstVectorRef& x) {
  auto z = z_.head(nz_);
  auto g = residual_.head(nz_);
  auto dz = correction_.head(nz_);
  for (int it = 1; it <= newton_.max_iterations; ++it) {
    flow_->algebraic(t, x, z, g);
    last_residual_ = g.lpNorm<Eigen::Infinity>();
    last_iterations_ = it;
    if (!std::isfinite(last_residual_)) return false;
    flow_->algebraic_jacobian(t, x, z, dgdx_.topLeftCorner(nz_, nx_),
                              dgdz_.topLeftCorner(nz_, nz_));
    lu_.compute(dgdz_.topLeftCorner(nz_, nz_));
    dz.noalias() = lu_.solve(g);
    z -= dz;
    if (!dz.allFinite()) return false;
    bool converged = true;
    for (int i = 0; i < nz_; ++i) {
      if (std::abs(dz[i]) > newton_.tolerance * (1.0 + std::abs(z[i]))) converged = false;
    }
    if (converged) {
      flow_->algebraic(t, x, z, g);
      last_residual_ = g.lpNorm<Eigen::Infinity>();
      return std::isfinite(last_residual_);
    }
  }
  return false;
}

// Newton on (F(t, x, x', z), g(t, x, z)) = 0 for u = (x', z). Jacobian [[F_x', F_z], [0, g_z]].
bool FlowEvaluator::solve_implicit(double t, const ConstVectorRef& x) {
  const int m = nx_ + nz_;
  auto xdot = xdot_.head(nx_);
  auto z = z_.head(nz_);
  auto res = residual_.head(m);
  auto du = correction_.head(m);
  auto J = newton_matrix_.topLeftCorner(m, m);
  for (int it = 1; it <= newton_.max_iterations; ++it) {
    flow_->residual(t, x, xdot, z, res.head(nx_));
    if (nz_ > 0) flow_->algebraic(t, x, z, res.tail(nz_));
    last_residual_ = res.lpNorm<Eigen::Infinity>();
    last_iterations_ = it;
    if (!std::isfinite(last_residual_)) return false;
    J.setZero();
    flow_->residual_jacobian(t, x, xdot, z, dfdx_.topLeftCorner(nx_, nx_),
                             J.topLeftCorner(nx_, nx_), J.topRightCorner(nx_, nz_));
    if (nz_ > 0) {
      flow_->algebraic_jacobian(t, x, z, dgdx_.topLeftCorner(nz_, nx_),
                                J.bottomRightCorner(nz_, nz_));
    }
    lu_.compute(J);
    du.noalias() = lu_.solve(res);
    if (!du.allFinite()) return false;
    xdot -= du.head(nx_);
    z -= du.tail(nz_);
    bool converged = true;
    for (int i = 0; i < nx_; ++i) {
      if (std::abs(du[i]) > newton_.tolerance * (1.0 + std::abs(xdot[i]))) converged = false;
    }
    for (int i = 0; i < nz_; ++i) {
      if (std::abs(du[nx_ + i]) > newton_.tolerance * (1.0 + std::abs(z[i]))) converged = false;
    }
    if (converged) return true;
  }
  return false;
}

void FlowEvaluator::reduced_jacobian(double tau, const ConstVectorRef& x, MatrixRef jac) {
  const double t = origin_ + tau;
  auto fx = dfdx_.topLeftCorner(nx_, nx_);
  auto fz = dfdz_.topLeftCorner(nx_, nz_);
  auto gx = dgdx_.topLeftCorner(nz_, nx_);
  auto gz = dgdz_.topLeftCorner(nz_, nz_);
  auto z = z_.head(nz_);
  switch (flow_->kind) {
    case FlowKind::Ode:
      flow_->rhs_jacobian(t, x, z, jac, fz);
      return;
    case FlowKind::SemiExplicitDae: {
      flow_->rhs_jacobian(t, x, z, fx, fz);
      flow_->algebraic_jacobian(t, x, z, gx, gz);
      lu_gz_.compute(gz);
      auto dzdx = dzdx_.topLeftCorner(nz_, nx_);
      dzdx.noalias() = lu_gz_.solve(gx);  // = -dz/dx
      jac = fx;
      jac.noalias() -= fz * dzdx;
      return;
    }
    case FlowKind::ImplicitDae: {
      auto Fxdot = dFdxdot_.topLeftCorner(nx_, nx_);
      flow_->residual_jacobian(t, x, xdot_.head(nx_), z, fx, Fxdot, fz);
      if (nz_ > 0) {
        flow_->algebraic_jacobian(t, x, z, gx, gz);
        lu_gz_.compute(gz);
        auto dzdx = dzdx_.topLeftCorner(nz_, nx_);
        dzdx.noalias() = lu_gz_.solve(gx);  // = -dz/dx
        fx.noalias() -= fz * dzdx;          // F_x + F_z dz/dx
      }
      lu_xdot_.compute(Fxdot);
      jac.noalias() = lu_xdot_.solve(fx);  // (a negated solve would need a temporary)
      jac = -jac;
      return;
    }
  }
}

void FlowEvaluator::algebraic_rate(double tau, const ConstVectorRef& x, const ConstVectorRef& z,
                                   const ConstVectorRef& xdot, VectorRef zdot) {
  const double t = origin_ + tau;
  if (nz_ == 0) return;
  auto gx = dgdx_.topLeftCorner(nz_, nx_);
  auto gz = dgdz_.topLeftCorner(nz_, nz_);
  flow_->algebraic_jacobian(t, x, z, gx, gz);
  auto rhs = residual_.head(nz_);
  if (flow_->algebraic_time_derivative) {
    flow_->algebraic_time_derivative(t, x, z, rhs);
  } else {
    rhs.setZero();
  }
  rhs.noalias() += gx * xdot;
  lu_gz_.compute(gz);
  zdot.noalias() = lu_gz_.solve(rhs);
  zdot = -zdot;
}

}  // namespace saltus::ode
