// Predictive event step (seed 004, "Adaptive step"; FORMULAS.md 2.1 and 14):
//   h_event = -gamma p / pdot,  pdot = dp/dx f + dp/dz dz/dt + dp/dt,  gamma in (0, 1],
//   h = max(h_min, min(h_event, h_err)).
// Applied only while the guard approaches (p < 0 < pdot, in the guard's trigger orientation);
// otherwise h_event is negative or infinite and the error-controlled h_err is used unchanged.
#pragma once

#include <algorithm>

namespace saltus::events {

struct PredictiveStep {
  double h_event = 0.0;      // -gamma p / pdot (reported even when not applied)
  double h = 0.0;            // the step to use
  bool approaching = false;  // p < 0 < pdot
};

inline PredictiveStep predictive_step(double p, double pdot, double gamma, double h_err,
                                      double h_min) {
  PredictiveStep r;
  r.h_event = -gamma * p / pdot;
  r.approaching = p < 0.0 && pdot > 0.0;
  r.h = r.approaching ? std::max(h_min, std::min(r.h_event, h_err)) : h_err;
  return r;
}

}  // namespace saltus::events
