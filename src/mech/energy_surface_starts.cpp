#include "saltus/mech/energy_surface_starts.hpp"

#include <cmath>
#include <random>

#include "saltus/core/error.hpp"

namespace saltus::mech {

std::vector<Vector> energy_surface_starts(const NonholonomicModel& model, ConstVectorRef x0,
                                          int count, std::uint64_t seed) {
  const int n = model.dof();
  if (x0.size() != 2 * n) {
    saltus::detail::throw_error("model '", model.name(), "': start has ", x0.size(),
                                " entries, expected ", 2 * n, " (q, qdot)");
  }
  const Vector q0 = x0.head(n);
  model.check_state(q0, x0.tail(n));
  const double T0 = model.kinetic_energy(q0, x0.tail(n));
  if (!(T0 > 0.0)) {
    saltus::detail::throw_error("model '", model.name(), "': the start's kinetic energy T = ", T0,
                                " is not positive (no energy surface to draw velocities on)");
  }
  std::vector<Vector> starts;
  if (count >= 1) starts.push_back(x0);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  while (static_cast<int>(starts.size()) < count) {
    Vector qdot(n);
    for (int i = 0; i < n; ++i) qdot[i] = normal(rng);
    qdot = model.project_velocity(q0, qdot);
    const double T = model.kinetic_energy(q0, qdot);
    if (!(T > 1e-12 * T0)) continue;  // a draw (numerically) normal to the distribution
    Vector x(2 * n);
    x << q0, qdot * std::sqrt(T0 / T);
    starts.push_back(x);
  }
  return starts;
}

}  // namespace saltus::mech
