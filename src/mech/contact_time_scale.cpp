// Contact time scales; see mech/contact_time_scale.hpp.
#include "saltus/mech/contact_time_scale.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_state.hpp"

namespace saltus::mech {

ContactTimeScales contact_time_scales(const LagrangianModel& m, double t, ConstVectorRef q,
                                      ConstVectorRef qdot, double kinetic_energy) {
  const int n = m.dof();
  if (q.size() != n || qdot.size() != n) {
    saltus::detail::throw_error("model '", m.name(), "': contact_time_scales: q and qdot have ",
                                q.size(), " and ", qdot.size(), " entries, expected ", n);
  }
  const Eigen::LLT<Matrix> llt(m.mass_matrix(q));
  if (llt.info() != Eigen::Success) {
    saltus::detail::throw_error("model '", m.name(), "': the mass matrix at t = ", t,
                                " is not symmetric positive definite (contact time scales)");
  }
  const Vector a = llt.solve(m.forces(t, q, qdot));
  const DofVector<double> qv = detail::load<double>(q, 0, n), vv = detail::load<double>(qdot, 0, n);
  const double energy = std::max(kinetic_energy, 0.0);
  ContactTimeScales out;
  out.tau = Vector::Constant(m.contact_count(), kInfinity);
  out.accel = Vector::Zero(m.contact_count());
  DofVector<double> w;
  const auto add = [&](const ConfigurationFunction& f, double& rate, double& accel) {
    detail::gradient(f, qv, w);
    const Vector wv = w;
    rate += std::sqrt(2.0 * energy * wv.dot(llt.solve(wv)));
    accel += std::abs(wv.dot(a)) + std::abs(detail::along(f, qv, vv).d2);
  };
  for (int i = 0; i < m.contact_count(); ++i) {
    const LagrangianContact& c = m.contact(i);
    if (!c.rigid()) continue;
    double rate = 0.0, accel = 0.0;
    add(c.gap, rate, accel);
    if (c.frictional()) add(c.tangent, rate, accel);
    out.accel[i] = accel;
    if (rate > 0.0 && accel > 0.0) out.tau[i] = rate / accel;
  }
  return out;
}

double moreau_jean_step_size(const ContactTimeScales& scales, const std::vector<int>& contacts,
                             double rtol) {
  double tau = kInfinity;
  for (int i : contacts) tau = std::min(tau, scales.tau[i]);
  return std::isfinite(tau) ? std::sqrt(rtol) * tau : kNaN;
}

std::vector<int> contacts_within_step(const LagrangianModel& m, ConstVectorRef q,
                                      ConstVectorRef qdot, const ContactTimeScales& scales,
                                      double h) {
  std::vector<int> out;
  for (int i = 0; i < m.contact_count(); ++i) {
    if (!m.contact(i).rigid()) continue;
    const Vector w = m.gap_gradient(i, q);
    const double g = m.gap(i, q);
    const double reach =
        touching_band(w, q, g) + std::abs(w.dot(qdot)) * h + 0.5 * scales.accel[i] * h * h;
    if (g <= reach) out.push_back(i);
  }
  return out;
}

}  // namespace saltus::mech
