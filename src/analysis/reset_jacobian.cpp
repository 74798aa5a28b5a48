#include "saltus/analysis/reset_jacobian.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "reset_apply.hpp"
#include "saltus/core/error.hpp"

namespace saltus::analysis {

bool reset_jacobian(const HybridSystem& system, ModeId source, GuardId guard, ModeId target,
                    double t, ConstVectorRef x_minus, ConstVectorRef z_minus, ConstVectorRef x_plus,
                    bool allow_differences, ResetJacobian& out, std::string& failure) {
  const Reset& reset = system.mode(source).guards[static_cast<size_t>(guard)].reset;
  const int n_plus = system.mode(target).flow.nx;
  const auto n_x = x_minus.size(), n_z = z_minus.size();
  out.d_dx.setZero(n_plus, n_x);
  out.d_dz.setZero(n_plus, n_z);
  out.d_dt.setZero(n_plus);
  out.numerical = false;
  if (reset.chosen_jacobian) {
    try {
      reset.chosen_jacobian(target, t, x_minus, z_minus, x_plus, out.d_dx, out.d_dz, out.d_dt);
    } catch (const Error& e) {
      failure = e.what();
      return false;
    }
    return true;
  }
  if (reset.jacobian) {
    reset.jacobian(t, x_minus, z_minus, out.d_dx, out.d_dz, out.d_dt);
    return true;
  }
  if (reset.identity || !reset.apply) {
    out.d_dx.setIdentity();
    return true;
  }
  if (!allow_differences) {
    failure =
        "the reset has no derivative (a contact's impact under Routh's process, the "
        "Chatterjee-Ruina or the naive law, or with friction in space; in the library, a reset "
        "without Reset::jacobian): "
        "run with `--numerical-resets` for central differences of the reset "
        "(SaltationOptions::allow_numerical_derivatives in the library)";
    return false;
  }
  out.numerical = true;
  detail::ApplyProbe apply(system, reset);
  const double root = std::cbrt(std::numeric_limits<double>::epsilon());
  Vector xs = x_minus, zs = z_minus, up(n_plus), down(n_plus);
  double ts = t;
  // Central difference in the input `v` (an entry of xs, zs or ts) into `column`.
  const auto differentiate = [&](double& v, auto column) {
    const double h = root * std::max(1.0, std::abs(v)), v0 = v;
    v = v0 + h;
    const bool ok_up = apply(ts, xs, zs, target, up);
    v = v0 - h;
    const bool ok_down = ok_up && apply(ts, xs, zs, target, down);
    v = v0;
    if (!ok_down) return false;
    column = (up - down) / (2.0 * h);
    return true;
  };
  bool ok = true;
  for (Eigen::Index k = 0; ok && k < n_x; ++k) ok = differentiate(xs[k], out.d_dx.col(k));
  for (Eigen::Index k = 0; ok && k < n_z; ++k) ok = differentiate(zs[k], out.d_dz.col(k));
  if (ok) ok = differentiate(ts, out.d_dt.col(0));
  if (!ok) {
    failure = "the reset is not differentiable here (central differences, perturbed apply: " +
              apply.failure + ")";
  }
  return ok;
}

}  // namespace saltus::analysis
