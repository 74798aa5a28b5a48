// A jump of a mode's right-hand side that the model integrates as written (a sign() or a
// comparison the model file asked to keep, `[solver] switching = "smooth"`, or one in a mechanical
// model's forces): the flow is discontinuous where its switching function changes sign. The
// simulator watches it at the end of every accepted step; an integrator grinding across a surface
// both sides push onto crosses it at nearly every step, for ever, and the run stops with
// Termination::Chattering naming `text` (src/sim/chatter_monitor.hpp).
#pragma once

#include <functional>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus {

struct Discontinuity {
  std::string text;    // the expression as written, e.g. "sign(v - vb)"
  std::string advice;  // what the model can write instead, in its layer's words
  // Its switching function h(t, x, z): the flow takes one branch where h > 0, the other where
  // h < 0.
  std::function<double(double t, const ConstVectorRef& x, const ConstVectorRef& z)> value;
};

}  // namespace saltus
