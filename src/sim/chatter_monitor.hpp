// Chattering of a flow integrated across its own jumps (issue 45 item 5). A mode's
// discontinuities (core/discontinuity.hpp) are read at the end of every accepted step. Where the
// flow pushes onto a surface from both sides (a sliding surface the run was not told about), an
// integrator stepping across the jump stays at the surface for ever, with steps shrunk to its
// tolerance's scale: 12 million steps for 2 s of a dry-friction oscillator written with sign(v)
// and nothing said. It shows in two ways: the switching function h changes sign at nearly every
// step (Dormand-Prince at rtol 1e-10 on sign(v - vb): flips after 1, 1, 1, 4 steps, over and
// over), or it stays on one side within the tolerance, each step's stages straddling the surface
// (DOP853 at rtol 1e-12: h between 5e-13 and 2e-11 at every step end). A step counts as one at
// the surface when h changed sign in it or ends within kNear times the step's own change of h,
// and its length is below kShortStep of the mode's longest step so far; `steps` such steps, with
// fewer than kMisses others in a row between them, are chattering (the ends of DOP853's steps
// sometimes drift along the surface for a step or two before the next straddle). Both tests are
// ratios of the run's own numbers: they hold in any unit of time or state. A crossing the steps
// resolve leaves the surface within a few steps, however short they are at the jump, and an
// approach to a surface that is never reached keeps its steps long.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

class ChatterMonitor {
 public:
  static constexpr double kNear = 16.0;
  static constexpr double kShortStep = 1e-3;
  static constexpr int kMisses = 4;

  struct Report {
    int discontinuity = -1;  // index in the mode's list; -1: none chatters
    long steps = 0;          // steps at its surface in a row
    int flips = 0;           // sign changes among them
    double since = 0.0;      // start of the first of them
  };

  // A mode is entered, or the state jumped: start over from the state at t.
  void enter(const Mode& m, double t, const ConstVectorRef& x, const ConstVectorRef& z) {
    t_ = t;
    longest_step_ = 0.0;
    watches_.assign(m.discontinuities.size(), Watch{});
    for (size_t k = 0; k < watches_.size(); ++k) {
      watches_[k].h = m.discontinuities[k].value(t, x, z);
    }
  }

  // After an accepted step ending at (t, x, z): the discontinuity that chatters, if any.
  Report after_step(const Mode& m, long steps_needed, double t, const ConstVectorRef& x,
                    const ConstVectorRef& z) {
    Report out;
    const double step = t - t_;
    const double t_start = t_;
    t_ = t;
    if (steps_needed <= 0 || watches_.size() != m.discontinuities.size()) return out;
    const bool short_step = step < kShortStep * longest_step_;
    longest_step_ = std::max(longest_step_, step);
    for (size_t k = 0; k < watches_.size(); ++k) {
      Watch& w = watches_[k];
      const double h = m.discontinuities[k].value(t, x, z);
      const bool flipped = (h > 0.0 && w.h < 0.0) || (h < 0.0 && w.h > 0.0);
      const bool near = std::abs(h) <= kNear * std::abs(h - w.h);
      w.h = h;
      if (!(short_step && (flipped || near))) {
        if (++w.misses >= kMisses || !short_step) {
          w.steps = 0;
          w.flips = 0;
        }
        continue;
      }
      w.misses = 0;
      if (w.steps == 0) w.since = t_start;
      ++w.steps;
      w.flips += flipped ? 1 : 0;
      if (w.steps >= steps_needed && out.discontinuity < 0) {
        out = {static_cast<int>(k), w.steps, w.flips, w.since};
      }
    }
    return out;
  }

 private:
  struct Watch {
    double h = 0.0;  // at the last step's end
    long steps = 0;  // steps at the surface in this run of them
    int flips = 0;
    int misses = 0;  // steps elsewhere since the last one at the surface
    double since = 0.0;
  };

  double t_ = 0.0;
  double longest_step_ = 0.0;  // in this mode since it was entered
  std::vector<Watch> watches_;
};

}  // namespace saltus::detail
