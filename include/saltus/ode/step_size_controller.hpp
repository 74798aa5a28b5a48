// Step-size control of the explicit embedded pairs (Dopri5, DOP853), one for both:
//   h_new = h * clamp(safety * err^(-a) * err_prev^(b), fac_min, fac_max),
// a = 1/p - c b for a pair of order p, b = StepperOptions::pi_beta, c = 0.75 for Dopri5 and 0.2
// for DOP853 (the PI controller of Hairer's codes DOPRI5 and DOP853, after Gustafsson; HNW I,
// II.4; b = 0 is the elementary controller h err^(-1/p)), err_prev the previous accepted error
// (at least 1e-4). After a rejection the
// step does not grow on the next acceptance (as in Radau5 and the HNW codes), and a rejected
// try shrinks by clamp(safety * err^(-1/p), fac_min, 1).
// Cheap where the event loop needs it: err so small that the factor is clamped at fac_max (a
// polynomial flight, whose error estimate is round-off) costs no pow(), and DOP853's exponent
// 1/8 is three square roots.
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/ode/stepper_options.hpp"

namespace saltus::ode {

class StepSizeController {
 public:
  // order: p of the pair; pi_coupling: c above.
  StepSizeController(int order, double pi_coupling) : order_(order), coupling_(pi_coupling) {}

  // Forgets the error history (a restart after a reset starts a new arc).
  void restart() {
    err_prev_ = kMinPreviousError;
    rejected_ = false;
  }

  // Factor h_next / h after a step of error err <= 1 was accepted.
  double accepted(double err, const StepperOptions& o) {
    double fac = o.fac_max;
    if (err > tiny_error(o)) {
      const double a = 1.0 / order_ - coupling_ * o.pi_beta;
      fac = o.safety * inverse_power(err, a);
      if (o.pi_beta != 0.0) fac *= std::pow(err_prev_, o.pi_beta);
      fac = std::clamp(fac, o.fac_min, o.fac_max);
    }
    if (rejected_) fac = std::min(fac, 1.0);  // no growth right after a rejection
    rejected_ = false;
    err_prev_ = std::max(err, kMinPreviousError);
    return fac;
  }

  // Factor h_retry / h after a try of error err > 1 was rejected.
  double rejected(double err, const StepperOptions& o) {
    rejected_ = true;
    return std::max(o.fac_min, o.safety * inverse_power(err, 1.0 / order_));
  }

  // err^(-a). DOP853's elementary controller (a = 1/8) takes three square roots and a division:
  // pow cost ~4 times as much (1.2 % of the sleigh billiard's time), and the factor differs from
  // pow's in the last bits only.
  static double inverse_power(double err, double a) {
    if (a == 0.125) return 1.0 / std::sqrt(std::sqrt(std::sqrt(err)));
    return std::pow(err, -a);
  }

 private:
  static constexpr double kMinPreviousError = 1e-4;

  // Below this error the proposal is fac_max whatever err_prev is (err_prev^b <= 1 and
  // err^(-a) decreasing); cached per options value of (safety, fac_max, pi_beta).
  double tiny_error(const StepperOptions& o) {
    if (o.safety != cached_safety_ || o.fac_max != cached_fac_max_ || o.pi_beta != cached_beta_) {
      cached_safety_ = o.safety;
      cached_fac_max_ = o.fac_max;
      cached_beta_ = o.pi_beta;
      const double a = 1.0 / order_ - coupling_ * o.pi_beta;
      // safety * err^(-a) * err_prev^b >= safety * err^(-a) * 1e-4^b >= fac_max for err below:
      tiny_ = a > 0.0
                  ? std::pow(o.safety * std::pow(kMinPreviousError, o.pi_beta) / o.fac_max, 1.0 / a)
                  : 0.0;
    }
    return tiny_;
  }

  int order_;
  double coupling_;
  double err_prev_ = kMinPreviousError;
  bool rejected_ = false;
  double cached_safety_ = -1.0, cached_fac_max_ = -1.0, cached_beta_ = -1.0, tiny_ = 0.0;
};

}  // namespace saltus::ode
