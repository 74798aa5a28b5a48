#include "saltus/ode/stepper_options.hpp"

#include <cmath>
#include <sstream>

#include "saltus/ode/step_status.hpp"

namespace saltus::ode {

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Accepted:
      return "accepted";
    case StepStatus::StepSizeUnderflow:
      return "step-size underflow";
    case StepStatus::TooManyRejections:
      return "too many rejected steps";
    case StepStatus::NonFiniteState:
      return "non-finite state";
    case StepStatus::NewtonFailure:
      return "Newton failure";
    case StepStatus::ProjectionFailure:
      return "projection failure";
  }
  return "unknown";
}

std::string StepperOptions::validate() const {
  std::ostringstream out;
  auto positive = [&](const char* name, double v) {
    if (!(v > 0.0) || !std::isfinite(v)) out << name << " = " << v << " must be > 0 and finite; ";
  };
  positive("rtol", rtol);
  positive("atol", atol);
  for (Eigen::Index i = 0; i < rtol_per_component.size(); ++i) {
    if (!(rtol_per_component[i] > 0.0)) {
      out << "rtol_per_component[" << i << "] = " << rtol_per_component[i] << " must be > 0; ";
    }
  }
  for (Eigen::Index i = 0; i < atol_per_component.size(); ++i) {
    if (!(atol_per_component[i] > 0.0)) {
      out << "atol_per_component[" << i << "] = " << atol_per_component[i] << " must be > 0; ";
    }
  }
  if (h_initial < 0.0) out << "h_initial = " << h_initial << " must be >= 0 (0: automatic); ";
  if (h_min < 0.0) out << "h_min = " << h_min << " must be >= 0; ";
  if (!(h_max > 0.0)) out << "h_max = " << h_max << " must be > 0; ";
  if (h_min > h_max) out << "h_min = " << h_min << " exceeds h_max = " << h_max << "; ";
  if (max_rejections < 1) out << "max_rejections = " << max_rejections << " must be >= 1; ";
  if (!(safety > 0.0 && safety <= 1.0)) out << "safety = " << safety << " must be in (0, 1]; ";
  if (!(fac_min > 0.0 && fac_min < 1.0)) out << "fac_min = " << fac_min << " must be in (0, 1); ";
  if (!(fac_max > 1.0)) out << "fac_max = " << fac_max << " must be > 1; ";
  if (!(pi_beta >= 0.0 && pi_beta <= 0.1)) {
    out << "pi_beta = " << pi_beta << " must be in [0, 0.1]; ";
  }
  if (!(newton.tolerance > 0.0))
    out << "newton.tolerance = " << newton.tolerance << " must be > 0; ";
  if (newton.max_iterations < 1) {
    out << "newton.max_iterations = " << newton.max_iterations << " must be >= 1; ";
  }
  return out.str();
}

}  // namespace saltus::ode
