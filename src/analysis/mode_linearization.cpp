#include "mode_linearization.hpp"

#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace saltus::analysis::detail {

bool linearize_mode(const Flow& flow, double t, ConstVectorRef x, ConstVectorRef z,
                    ModeLinearization& out, std::string& failure) {
  const int nx = flow.nx, nz = flow.nz;
  ode::FlowEvaluator evaluator(nx, nz, ode::NewtonOptions{});
  evaluator.set_flow(flow);
  if (nz > 0) evaluator.set_algebraic(z.size() == nz ? Vector(z) : Vector(Vector::Zero(nz)));
  out.xdot.resize(nx);
  if (!evaluator.derivative(t, x, out.xdot)) {
    failure = "the flow could not be evaluated (algebraic residual " +
              std::to_string(evaluator.last_residual()) + ")";
    return false;
  }
  out.z = evaluator.algebraic();
  out.dzdx.setZero(nz, nx);
  out.dzdt.setZero(nz);
  if (nz == 0) return true;
  Matrix g_x(nz, nx), g_z(nz, nz);
  flow.algebraic_jacobian(t, x, out.z, g_x, g_z);
  Vector g_t = Vector::Zero(nz);
  if (flow.algebraic_time_derivative) flow.algebraic_time_derivative(t, x, out.z, g_t);
  const Eigen::PartialPivLU<Matrix> lu(g_z);
  out.dzdx = -lu.solve(g_x);
  out.dzdt = -lu.solve(g_t);
  return true;
}

namespace {

// Central differences of p in each input (guards built without a gradient).
double numerical_guard_gradient(const Guard& guard, double t, ConstVectorRef x, ConstVectorRef z,
                                VectorRef p_x, VectorRef p_z) {
  const double root = std::cbrt(std::numeric_limits<double>::epsilon());
  Vector xs = x, zs = z;
  const auto diff = [&](double& v) {
    const double h = root * std::max(1.0, std::abs(v)), v0 = v;
    v = v0 + h;
    const double up = guard.value(t, xs, zs);
    v = v0 - h;
    const double down = guard.value(t, xs, zs);
    v = v0;
    return (up - down) / (2.0 * h);
  };
  for (Eigen::Index k = 0; k < x.size(); ++k) p_x[k] = diff(xs[k]);
  for (Eigen::Index k = 0; k < z.size(); ++k) p_z[k] = diff(zs[k]);
  double ts = t;
  const double h = root * std::max(1.0, std::abs(t));
  ts = t + h;
  const double up = guard.value(ts, x, z);
  ts = t - h;
  return (up - guard.value(ts, x, z)) / (2.0 * h);
}

}  // namespace

double guard_total_gradient(const Guard& guard, double t, ConstVectorRef x, ConstVectorRef z,
                            const ModeLinearization& lin, Eigen::RowVectorXd& p_x) {
  Vector dpdx(x.size()), dpdz(z.size());
  const double dpdt = guard.gradient ? guard.gradient(t, x, z, dpdx, dpdz)
                                     : numerical_guard_gradient(guard, t, x, z, dpdx, dpdz);
  p_x = dpdx.transpose();
  if (z.size() == 0) return dpdt;
  p_x += dpdz.transpose() * lin.dzdx;
  return dpdt + dpdz.dot(lin.dzdt);
}

}  // namespace saltus::analysis::detail
