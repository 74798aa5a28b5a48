#include "saltus/analysis/saltation.hpp"

#include <Eigen/LU>
#include <sstream>

#include "mode_linearization.hpp"
#include "saltus/analysis/reset_jacobian.hpp"

namespace saltus::analysis {

const char* to_string(SensitivityStatus status) {
  switch (status) {
    case SensitivityStatus::Ok:
      return "ok";
    case SensitivityStatus::Grazing:
      return "grazing";
    case SensitivityStatus::ZenoPoint:
      return "zeno point";
    case SensitivityStatus::NotDifferentiable:
      return "not differentiable";
    case SensitivityStatus::SimulationFailed:
      return "simulation failed";
    case SensitivityStatus::IntegrationFailed:
      return "integration failed";
  }
  return "unknown";
}

namespace {

Saltation failed(SensitivityStatus status, std::string message) {
  Saltation s;
  s.status = status;
  s.message = std::move(message);
  return s;
}

std::string where(const HybridSystem& system, const EventRecord& r) {
  std::ostringstream os;
  os.precision(17);
  os << "guard '" << system.mode(r.mode_before).guards[static_cast<size_t>(r.guard)].name
     << "' of mode '" << system.mode(r.mode_before).name << "' at t = " << r.t << " (j = " << r.j
     << ")";
  return os.str();
}

}  // namespace

Saltation event_saltation(const HybridSystem& system, const EventLog& events, long i,
                          bool run_stops_here, const SaltationOptions& options) {
  const long chain[] = {i};
  return instant_saltation(system, events, chain, run_stops_here, options);
}

Saltation instant_saltation(const HybridSystem& system, const EventLog& events,
                            std::span<const long> chain, bool run_stops_here,
                            const SaltationOptions& options) {
  const long i = chain.front();
  const EventRecord& r = events[i];
  if (r.guard == kZenoHandoverGuard) {
    std::ostringstream os;
    os.precision(17);
    os << "the Zeno hand-over at t = " << r.t << " (j = " << r.j
       << ") maps a whole neighbourhood to the limit state: no saltation matrix";
    return failed(SensitivityStatus::ZenoPoint, os.str());
  }
  const Mode& before = system.mode(r.mode_before);
  const Guard& guard = before.guards[static_cast<size_t>(r.guard)];
  const double t = r.t;
  if (r.observation && !run_stops_here) {  // no jump: the flow goes on unchanged
    Saltation s;
    s.matrix = Matrix::Identity(r.nx_before, r.nx_before);
    s.hybrid_jacobian = 1.0;
    return s;
  }
  std::string failure;
  detail::ModeLinearization minus, plus;
  if (!detail::linearize_mode(before.flow, t, events.x_before(i), events.z_before(i), minus,
                              failure)) {
    return failed(SensitivityStatus::NotDifferentiable,
                  where(system, r) + ": before the event, " + failure);
  }
  if (!guard.gradient && !options.allow_numerical_derivatives) {
    return failed(SensitivityStatus::NotDifferentiable,
                  where(system, r) +
                      ": the guard has no gradient (Guard::gradient; make_guard "
                      "derives it by AD): allow central differences with "
                      "SaltationOptions::allow_numerical_derivatives");
  }
  Eigen::RowVectorXd p_x;
  const double p_t =
      detail::guard_total_gradient(guard, t, events.x_before(i), minus.z, minus, p_x);
  const double rate = p_t + p_x.dot(minus.xdot);
  const double scale = std::abs(p_t) + p_x.norm() * minus.xdot.norm();
  if (!(std::abs(rate) > options.grazing_tolerance * scale)) {
    std::ostringstream os;
    os.precision(6);
    os << where(system, r) << ": grazing, dp/dt along the flow = " << rate << " against " << scale
       << " (|P_t| + |P_x| |f-|; grazing_tolerance " << options.grazing_tolerance
       << "): the saltation matrix is undefined";
    Saltation s = failed(SensitivityStatus::Grazing, os.str());
    s.crossing_rate = rate;
    return s;
  }
  Saltation s;
  s.crossing_rate = rate;
  if (r.observation) {
    // No jump, and the run ends here: the derivative of the state at the stopping time.
    s.matrix = Matrix::Identity(r.nx_before, r.nx_before) - minus.xdot * p_x / rate;
    s.hybrid_jacobian = s.matrix.determinant();
    return s;
  }
  // The composite jump R_K o ... o R_1 at the first reset's instant: DR_x and DR_t by the chain
  // rule, each reset's total derivative through the algebraic states of the mode it leaves.
  Matrix dr_x = Matrix::Identity(r.nx_before, r.nx_before);
  Vector dr_t = Vector::Zero(r.nx_before);
  for (const long k : chain) {
    const EventRecord& rk = events[k];
    detail::ModeLinearization lin_k;
    if (k != i && !detail::linearize_mode(system.mode(rk.mode_before).flow, t, events.x_before(k),
                                          events.z_before(k), lin_k, failure)) {
      return failed(SensitivityStatus::NotDifferentiable,
                    where(system, rk) + ": before the event, " + failure);
    }
    const detail::ModeLinearization& at = k == i ? minus : lin_k;
    ResetJacobian dr;
    if (!reset_jacobian(system, rk.mode_before, rk.guard, rk.mode_after, t, events.x_before(k),
                        at.z, events.x_after(k), options.allow_numerical_derivatives, dr,
                        failure)) {
      return failed(SensitivityStatus::NotDifferentiable, where(system, rk) + ": " + failure);
    }
    const Matrix dk_x = dr.d_dx + dr.d_dz * at.dzdx;
    dr_t = dr.d_dt + dr.d_dz * at.dzdt + dk_x * dr_t;
    dr_x = dk_x * dr_x;
    s.numerical_reset_jacobian = s.numerical_reset_jacobian || dr.numerical;
  }
  const long last = chain.back();
  const EventRecord& rl = events[last];
  Vector f_plus = Vector::Zero(rl.nx_after);
  if (!run_stops_here) {
    if (!detail::linearize_mode(system.mode(rl.mode_after).flow, t, events.x_after(last),
                                events.z_after(last), plus, failure)) {
      return failed(SensitivityStatus::NotDifferentiable,
                    where(system, rl) + ": after the event, " + failure);
    }
    f_plus = plus.xdot;
  }
  s.matrix = dr_x + (f_plus - dr_x * minus.xdot - dr_t) * p_x / rate;
  s.numerical_reset_jacobian = s.numerical_reset_jacobian || !guard.gradient;
  if (s.matrix.rows() == s.matrix.cols()) s.hybrid_jacobian = s.matrix.determinant();
  if (!s.matrix.allFinite()) {
    return failed(SensitivityStatus::NotDifferentiable,
                  where(system, r) + ": the saltation matrix is not finite");
  }
  return s;
}

}  // namespace saltus::analysis
