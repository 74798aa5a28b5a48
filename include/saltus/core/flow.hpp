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

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/error.hpp"
#include "saltus/core/plain_function.hpp"
#include "saltus/core/types.hpp"

namespace saltus {

enum class FlowKind { Ode, SemiExplicitDae, ImplicitDae };

struct Flow {
  using Rhs = std::function<void(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                 VectorRef xdot)>;
  using RhsJacobian = std::function<void(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                         MatrixRef dfdx, MatrixRef dfdz)>;
  using Algebraic =
      std::function<void(double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef g)>;
  using AlgebraicJacobian = std::function<void(
      double t, const ConstVectorRef& x, const ConstVectorRef& z, MatrixRef dgdx, MatrixRef dgdz)>;
  using Residual = std::function<void(double t, const ConstVectorRef& x, const ConstVectorRef& xdot,
                                      const ConstVectorRef& z, VectorRef F)>;
  using ResidualJacobian = std::function<void(double t, const ConstVectorRef& x,
                                              const ConstVectorRef& xdot, const ConstVectorRef& z,
                                              MatrixRef dFdx, MatrixRef dFdxdot, MatrixRef dFdz)>;
  using AlgebraicTimeDerivative = std::function<void(double t, const ConstVectorRef& x,
                                                     const ConstVectorRef& z, VectorRef dgdt)>;

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

// A Flow::rhs for an Ode with a fast path in plain doubles: integrators find it in Flow::rhs by
// its type (std::function::target, FlowEvaluator::set_flow) and call `fast` directly, without
// the std::function and Eigen::Ref layers between them and compiled code (a model file's flow
// costs a few hundred instructions, about what those layers cost). Found by type, so a Flow
// whose rhs is replaced loses the fast path with it. `fast` computes the same x' as `general`
// or declines (false: say, a pivot <= 0), and `general` then answers and names what failed.
using DirectOdeFunction = PlainFunction<bool(double t, const double* x, double* xdot)>;
struct DirectRhs : DirectOdeFunction {
  Flow::Rhs general;

  void operator()(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                  VectorRef xdot) const {
    if (!call(t, x.data(), xdot.data())) general(t, x, z, xdot);
  }
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

// Jacobian of out = fn(t, x, z) by one Dual forward pass per column.
template <class Fn>
void autodiff_jacobian_by_columns(const Fn& fn, int n_out, double t, const ConstVectorRef& x,
                                  const ConstVectorRef& z, MatrixRef d_dx, MatrixRef d_dz) {
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

// The work vectors of the chunked passes, constructed once per thread: a SmallVector of ChunkDual
// default-constructs (zeroes) all kMaxAutodiffSize entries, 15 KB for the three, which took longer
// than the pass itself for a small flow (bench/sensitivity_bench.cpp's ball).
struct ChunkWork {
  SmallVector<ChunkDual> x, z, out;
  bool busy = false;  // in use by a pass further up this thread's stack
};
inline ChunkWork& thread_chunk_work() {
  thread_local ChunkWork work;
  return work;
}

// Jacobian of out = fn(t, x, z) by ChunkDual forward passes: the columns of x, then those of z,
// kJacobianChunk at a time (column c of the chunk starting at `first` is direction c - first).
template <class Fn>
void autodiff_jacobian_in_chunks(const Fn& fn, int n_out, double t, const ConstVectorRef& x,
                                 const ConstVectorRef& z, MatrixRef d_dx, MatrixRef d_dz,
                                 ChunkWork& work) {
  SmallVector<ChunkDual>&xd = work.x, &zd = work.z, &out = work.out;
  xd.resize(x.size());
  zd.resize(z.size());
  out.resize(n_out);
  for (Eigen::Index i = 0; i < x.size(); ++i) xd[i] = ChunkDual(x[i]);
  for (Eigen::Index i = 0; i < z.size(); ++i) zd[i] = ChunkDual(z[i]);
  for (Eigen::Index i = 0; i < n_out; ++i) out[i] = ChunkDual(0.0);
  const ChunkDual td(t);
  const Eigen::Index nx = x.size();
  const Eigen::Index columns = nx + (d_dz.cols() == 0 ? 0 : z.size());  // d_dz empty: d/dx only
  const auto input = [&](Eigen::Index c) -> ChunkDual& { return c < nx ? xd[c] : zd[c - nx]; };
  for (Eigen::Index first = 0; first < columns; first += kJacobianChunk) {
    const Eigen::Index count = std::min<Eigen::Index>(kJacobianChunk, columns - first);
    for (Eigen::Index j = 0; j < count; ++j) input(first + j).v[j] = 1.0;
    fn(td, xd, zd, out);
    for (Eigen::Index j = 0; j < count; ++j) {
      const Eigen::Index c = first + j;
      for (Eigen::Index i = 0; i < out.size(); ++i) {
        (c < nx ? d_dx(i, c) : d_dz(i, c - nx)) = out[i].v[j];
      }
      input(c).v[j] = 0.0;
    }
  }
}

// True when a Jacobian of `columns` columns is cheaper in chunks than column by column
// (src/core/autodiff.cpp says where the line is and why).
bool chunked_jacobian_pays(Eigen::Index columns);

// Jacobian of out = fn(t, x, z) (out has n_out entries) with respect to x and to z: in chunks of
// kJacobianChunk directions, or one direction per pass (few columns, or as JacobianPasses says).
template <class Fn>
void autodiff_jacobian(const Fn& fn, int n_out, double t, const ConstVectorRef& x,
                       const ConstVectorRef& z, MatrixRef d_dx, MatrixRef d_dz) {
  const Eigen::Index columns = x.size() + (d_dz.cols() == 0 ? 0 : z.size());
  const bool chunked = jacobian_passes == JacobianPasses::Automatic
                           ? chunked_jacobian_pays(columns)
                           : jacobian_passes == JacobianPasses::Chunked;
  if (!chunked) {
    autodiff_jacobian_by_columns(fn, n_out, t, x, z, d_dx, d_dz);
    return;
  }
  ChunkWork& shared = thread_chunk_work();
  if (shared.busy) {  // a flow differentiating another flow inside its own pass
    ChunkWork local;
    autodiff_jacobian_in_chunks(fn, n_out, t, x, z, d_dx, d_dz, local);
    return;
  }
  struct Release {
    ChunkWork& work;
    ~Release() { work.busy = false; }  // also when fn throws
  } release{shared};
  shared.busy = true;
  autodiff_jacobian_in_chunks(fn, n_out, t, x, z, d_dx, d_dz, shared);
}

// dg/dt of out = g(t, x, z) (n_out entries) by one forward pass with t seeded.
template <class G>
void autodiff_time_derivative(const G& g, int n_out, double t, const ConstVectorRef& x,
                              const ConstVectorRef& z, VectorRef dgdt) {
  DualVector xd, zd, out(n_out);
  load_values(xd, x);
  load_values(zd, z);
  g(Dual(t, 1.0), xd, zd, out);
  for (int i = 0; i < n_out; ++i) dgdt[i] = out[i].derivative();
}

// An ode_flow's f(t, x, xdot) as a DirectRhs: integrators call it on their arrays without the
// std::function and the evaluator's general path (~70 instructions per call, more than a small
// system's f). f sees the same ConstVectorRef and VectorRef as through Flow::rhs, so it computes
// the same bits; it never declines.
template <class F>
struct DirectOde {
  F f;
  int nx;
  static bool call(const void* context, double t, const double* x, double* xdot) {
    const auto& self = *static_cast<const DirectOde*>(context);
    const ConstVectorRef xr(Eigen::Map<const Vector>(x, self.nx));
    VectorRef xdotr(Eigen::Map<Vector>(xdot, self.nx));
    self.f(t, xr, xdotr);
    return true;
  }
};

template <class F>
DirectRhs direct_ode_rhs(int nx, const F& f) {
  DirectRhs d;
  d.fast = &DirectOde<F>::call;
  d.context = std::make_shared<const DirectOde<F>>(DirectOde<F>{f, nx});
  d.general = [f](double t, const ConstVectorRef& x, const ConstVectorRef&, VectorRef xdot) {
    f(t, x, xdot);
  };
  return d;
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
  flow.rhs = detail::direct_ode_rhs(nx, f);
  flow.rhs_jacobian = [f4, nx](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                               MatrixRef dfdx, MatrixRef dfdz) {
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
  flow.rhs = detail::direct_ode_rhs(nx, f);
  flow.rhs_jacobian = [jac](double t, const ConstVectorRef& x, const ConstVectorRef&,
                            MatrixRef dfdx, MatrixRef) { jac(t, x, dfdx); };
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
  flow.rhs = [f](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef xdot) {
    f(t, x, z, xdot);
  };
  flow.rhs_jacobian = [f, nx](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                              MatrixRef dfdx, MatrixRef dfdz) {
    detail::autodiff_jacobian(f, nx, t, x, z, dfdx, dfdz);
  };
  flow.algebraic = [g](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef res) {
    g(t, x, z, res);
  };
  flow.algebraic_jacobian = [g, nz](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                    MatrixRef dgdx, MatrixRef dgdz) {
    detail::autodiff_jacobian(g, nz, t, x, z, dgdx, dgdz);
  };
  flow.algebraic_time_derivative = [g, nz](double t, const ConstVectorRef& x,
                                           const ConstVectorRef& z, VectorRef dgdt) {
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
  flow.residual = [residual](double t, const ConstVectorRef& x, const ConstVectorRef& xdot,
                             const ConstVectorRef& z,
                             VectorRef res) { residual(t, x, xdot, z, res); };
  flow.residual_jacobian = [residual, nx](double t, const ConstVectorRef& x,
                                          const ConstVectorRef& xdot, const ConstVectorRef& z,
                                          MatrixRef dFdx, MatrixRef dFdxdot, MatrixRef dFdz) {
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
  flow.algebraic = [g](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef res) {
    g(t, x, z, res);
  };
  flow.algebraic_jacobian = [g, nz](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                    MatrixRef dgdx, MatrixRef dgdz) {
    detail::autodiff_jacobian(g, nz, t, x, z, dgdx, dgdz);
  };
  flow.algebraic_time_derivative = [g, nz](double t, const ConstVectorRef& x,
                                           const ConstVectorRef& z, VectorRef dgdt) {
    detail::autodiff_time_derivative(g, nz, t, x, z, dgdt);
  };
  return flow;
}

}  // namespace saltus
