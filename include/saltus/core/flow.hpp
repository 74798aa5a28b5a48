// The continuous dynamics of one mode.
//
// Three kinds (DESIGN.md "Semantics"; seed 004; FORMULAS.md 1.4):
//   Ode              x' = f(t, x)
//   SemiExplicitDae  x' = f(t, x, z),   0 = g(t, x, z),   dg/dz nonsingular (index 1)
//   ImplicitDae      0 = F(t, x, x', z), 0 = g(t, x, z),   dF/dx' and dg/dz nonsingular
// x has nx components, z has nz (0 for an Ode). Every callable receives Eigen vectors and writes
// its result into the last argument (preallocated by the caller; no allocation).
//
// Derivatives: the factories below take generic callables (auto parameters) and derive the
// Jacobians by forward-mode automatic differentiation (autodiff.hpp); a user may instead pass
// hand-written Jacobians. Finite differences are never used.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/error.hpp"
#include "saltus/core/types.hpp"

namespace saltus {

enum class FlowKind { Ode, SemiExplicitDae, ImplicitDae };

struct Flow {
  using Rhs = std::function<void(double t, ConstVectorRef x, ConstVectorRef z, VectorRef xdot)>;
  using RhsJacobian = std::function<void(double t, ConstVectorRef x, ConstVectorRef z,
                                         MatrixRef dfdx, MatrixRef dfdz)>;
  using Algebraic = std::function<void(double t, ConstVectorRef x, ConstVectorRef z, VectorRef g)>;
  using AlgebraicJacobian = std::function<void(double t, ConstVectorRef x, ConstVectorRef z,
                                               MatrixRef dgdx, MatrixRef dgdz)>;
  using Residual = std::function<void(double t, ConstVectorRef x, ConstVectorRef xdot,
                                      ConstVectorRef z, VectorRef F)>;
  using ResidualJacobian =
      std::function<void(double t, ConstVectorRef x, ConstVectorRef xdot, ConstVectorRef z,
                         MatrixRef dFdx, MatrixRef dFdxdot, MatrixRef dFdz)>;
  using AlgebraicTimeDerivative =
      std::function<void(double t, ConstVectorRef x, ConstVectorRef z, VectorRef dgdt)>;

  FlowKind kind = FlowKind::Ode;
  int nx = 0;                            // differential states
  int nz = 0;                            // algebraic states
  Rhs rhs;                               // Ode, SemiExplicitDae
  RhsJacobian rhs_jacobian;              // Ode, SemiExplicitDae
  Algebraic algebraic;                   // SemiExplicitDae, ImplicitDae
  AlgebraicJacobian algebraic_jacobian;  // SemiExplicitDae, ImplicitDae
  Residual residual;                     // ImplicitDae
  ResidualJacobian residual_jacobian;    // ImplicitDae
  // dg/dt (SemiExplicitDae, ImplicitDae; optional, absent: g has no explicit t). With
  // algebraic_jacobian it gives the rate of the algebraic states along the flow,
  // z' = -g_z^-1 (g_t + g_x x'), which the rate of a guard on z needs (lift-off p = -lambda).
  AlgebraicTimeDerivative algebraic_time_derivative;

  // Throws saltus::Error naming `where` if a callable the kind needs is missing or sizes are bad.
  void check(const std::string& where) const;
};

namespace detail {

inline void check_autodiff_size(int n, const char* what) {
  if (n > kMaxAutodiffSize) {
    throw_error(what, " has ", n, " components; automatic differentiation supports at most ",
                kMaxAutodiffSize, ": pass hand-written Jacobians for larger systems");
  }
}

template <class V>
void load_values(DualVector& out, const V& values) {
  out.resize(values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) out[i] = Dual(values[i]);
}

inline void store_derivatives(const DualVector& from, MatrixRef to, Eigen::Index column) {
  for (Eigen::Index i = 0; i < from.size(); ++i) to(i, column) = from[i].derivative();
}

// Jacobian of out = fn(t, x, z) (out has n_out entries) with respect to x and to z: one forward
// pass per column, seeding one input direction at a time.
template <class Fn>
void autodiff_jacobian(const Fn& fn, int n_out, double t, ConstVectorRef x, ConstVectorRef z,
                       MatrixRef d_dx, MatrixRef d_dz) {
  DualVector xd, zd, out(n_out);
  load_values(xd, x);
  load_values(zd, z);
  const Dual td(t);
  for (Eigen::Index k = 0; k < xd.size(); ++k) {
    xd[k].v[0] = 1.0;
    fn(td, xd, zd, out);
    store_derivatives(out, d_dx, k);
    xd[k].v[0] = 0.0;
  }
  if (d_dz.cols() == 0) return;  // caller wants d/dx only
  for (Eigen::Index k = 0; k < zd.size(); ++k) {
    zd[k].v[0] = 1.0;
    fn(td, xd, zd, out);
    store_derivatives(out, d_dz, k);
    zd[k].v[0] = 0.0;
  }
}

// dg/dt of out = g(t, x, z) (n_out entries) by one forward pass with t seeded.
template <class G>
void autodiff_time_derivative(const G& g, int n_out, double t, ConstVectorRef x, ConstVectorRef z,
                              VectorRef dgdt) {
  DualVector xd, zd, out(n_out);
  load_values(xd, x);
  load_values(zd, z);
  g(Dual(t, 1.0), xd, zd, out);
  for (int i = 0; i < n_out; ++i) dgdt[i] = out[i].derivative();
}

}  // namespace detail

// x' = f(t, x). `f(t, x, xdot)` is generic in its scalar type; its Jacobian is derived by AD.
template <class F>
Flow ode_flow(int nx, F f) {
  detail::check_autodiff_size(nx, "ode_flow: x");
  auto f4 = [f](const auto& t, const auto& x, const auto& /*z*/, auto& xdot) { f(t, x, xdot); };
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = nx;
  flow.rhs = [f](double t, ConstVectorRef x, ConstVectorRef, VectorRef xdot) { f(t, x, xdot); };
  flow.rhs_jacobian = [f4, nx](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef dfdx,
                               MatrixRef dfdz) {
    detail::autodiff_jacobian(f4, nx, t, x, z, dfdx, dfdz);
  };
  return flow;
}

// x' = f(t, x) with a hand-written Jacobian `jac(t, x, dfdx)` (double only).
template <class F, class J>
Flow ode_flow(int nx, F f, J jac) {
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = nx;
  flow.rhs = [f](double t, ConstVectorRef x, ConstVectorRef, VectorRef xdot) { f(t, x, xdot); };
  flow.rhs_jacobian = [jac](double t, ConstVectorRef x, ConstVectorRef, MatrixRef dfdx, MatrixRef) {
    jac(t, x, dfdx);
  };
  return flow;
}

// x' = f(t, x, z), 0 = g(t, x, z). Both generic; Jacobians by AD.
template <class F, class G>
Flow semi_explicit_flow(int nx, int nz, F f, G g) {
  detail::check_autodiff_size(nx, "semi_explicit_flow: x");
  detail::check_autodiff_size(nz, "semi_explicit_flow: z");
  Flow flow;
  flow.kind = FlowKind::SemiExplicitDae;
  flow.nx = nx;
  flow.nz = nz;
  flow.rhs = [f](double t, ConstVectorRef x, ConstVectorRef z, VectorRef xdot) {
    f(t, x, z, xdot);
  };
  flow.rhs_jacobian = [f, nx](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef dfdx,
                              MatrixRef dfdz) {
    detail::autodiff_jacobian(f, nx, t, x, z, dfdx, dfdz);
  };
  flow.algebraic = [g](double t, ConstVectorRef x, ConstVectorRef z, VectorRef res) {
    g(t, x, z, res);
  };
  flow.algebraic_jacobian = [g, nz](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef dgdx,
                                    MatrixRef dgdz) {
    detail::autodiff_jacobian(g, nz, t, x, z, dgdx, dgdz);
  };
  flow.algebraic_time_derivative = [g, nz](double t, ConstVectorRef x, ConstVectorRef z,
                                           VectorRef dgdt) {
    detail::autodiff_time_derivative(g, nz, t, x, z, dgdt);
  };
  return flow;
}

// 0 = F(t, x, x', z), 0 = g(t, x, z) (seed 004's form). F(t, x, xdot, z, res) and
// g(t, x, z, res) are generic; Jacobians by AD.
template <class F, class G>
Flow implicit_flow(int nx, int nz, F residual, G g) {
  detail::check_autodiff_size(2 * nx, "implicit_flow: (x, x')");
  detail::check_autodiff_size(nz, "implicit_flow: z");
  Flow flow;
  flow.kind = FlowKind::ImplicitDae;
  flow.nx = nx;
  flow.nz = nz;
  flow.residual = [residual](double t, ConstVectorRef x, ConstVectorRef xdot, ConstVectorRef z,
                             VectorRef res) { residual(t, x, xdot, z, res); };
  flow.residual_jacobian = [residual, nx](double t, ConstVectorRef x, ConstVectorRef xdot,
                                          ConstVectorRef z, MatrixRef dFdx, MatrixRef dFdxdot,
                                          MatrixRef dFdz) {
    // Differentiate with respect to x and z (x' held fixed), then with respect to x'.
    auto in_x_z = [&](const auto& td, const auto& xd, const auto& zd, auto& out) {
      using Scalar = std::decay_t<decltype(td)>;
      SmallVector<Scalar> v(nx);
      for (int i = 0; i < nx; ++i) v[i] = Scalar(xdot[i]);
      residual(td, xd, v, zd, out);
    };
    detail::autodiff_jacobian(in_x_z, nx, t, x, z, dFdx, dFdz);
    auto in_xdot = [&](const auto& td, const auto& vd, const auto& zd, auto& out) {
      using Scalar = std::decay_t<decltype(td)>;
      SmallVector<Scalar> xs(nx);
      for (int i = 0; i < nx; ++i) xs[i] = Scalar(x[i]);
      residual(td, xs, vd, zd, out);
    };
    Eigen::Map<Matrix> no_z_columns(nullptr, nx, 0);
    detail::autodiff_jacobian(in_xdot, nx, t, xdot, z, dFdxdot, no_z_columns);
  };
  flow.algebraic = [g](double t, ConstVectorRef x, ConstVectorRef z, VectorRef res) {
    g(t, x, z, res);
  };
  flow.algebraic_jacobian = [g, nz](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef dgdx,
                                    MatrixRef dgdz) {
    detail::autodiff_jacobian(g, nz, t, x, z, dgdx, dgdz);
  };
  flow.algebraic_time_derivative = [g, nz](double t, ConstVectorRef x, ConstVectorRef z,
                                           VectorRef dgdt) {
    detail::autodiff_time_derivative(g, nz, t, x, z, dgdt);
  };
  return flow;
}

}  // namespace saltus
