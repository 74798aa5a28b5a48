// How guards are monitored, events located and discrete updates bounded.
#pragma once

#include <string>

#include "saltus/events/root_bracket.hpp"

namespace saltus::events {

struct EventOptions {
  // Root finder for event times (root_bracket.hpp). Newton needs guard gradients.
  RootFinderKind root_finder = RootFinderKind::Brent;
  RootOptions root;

  // Interior points of each step's dense output at which every guard is evaluated, in addition
  // to the step ends. Guards with an enclosure (Guard::enclosure) are also searched with a
  // certificate between them (no crossing missed, however close); for the others two crossings
  // closer together than step / (guard_samples + 1) can be missed.
  int guard_samples = 4;
  // Between samples, also look for a grazing crossing (guard rises above zero and falls back
  // between two negative samples) from the guard's time derivative; needs guard gradients.
  bool detect_grazing = true;

  // "On the switching surface": |p| <= guard_tolerance times the guard's scale, sum_i |dp/dx_i|
  // S_i + sum_j |dp/dz_j| S_z,j + |dp/dt| |t| with S the largest |x_i|, |z_j| of the run so far
  // (a relative tolerance: the band is in the guard's own units and follows the model's units);
  // a guard without gradient: times max(1, |x|_inf). Used for arming: a guard this close to zero
  // after a reset stays disarmed until it leaves the band. 2e-12: a few thousand ulps of the
  // guard's scale (at 1e-12 a restitution rocking block's hand-overs moved by 2e-8 s between
  // solver tolerances 1e-10 and 1e-12; tests/mech/multi_contact_test.cpp).
  double guard_tolerance = 2e-12;
  // Only the first band_states states count in the band (0: all).
  // Augmented systems whose extra states are no part of the physics (the variational states of
  // a one-pass sensitivity run, which may grow to 1e20) set it to the physical state's size.
  int band_states = 0;
  // Guards whose located times lie within simultaneous_rtol * |t| of the earliest one (t since
  // the run's start) fire together (one event set, resolved in guard declaration order).
  double simultaneous_rtol = 1e-13;

  // Seed 004's predictive event step h = max(h_min, min(-gamma p / pdot, h_err)), applied
  // while a guard approaches. Off by default: the certified search does not need it (it only
  // shortens steps; it can cause no miss, nor make one impossible).
  bool predictive_step = false;
  double predictive_gamma = 0.5;  // gamma in (0, 1]
  double predictive_h_min = 0.0;  // 0: h_err / 64 (progress: never the geometric stall)

  // Caps: total events in a run, and resets at a single instant (beating).
  long max_events = 1000000;
  int max_resets_per_instant = 100;  // also caps event sets in a row at one instant
  // A discontinuity of the flow (Mode::discontinuities) whose switching function stays at its
  // surface this many accepted steps in a row, each short, ends the run as chattering (0: never;
  // src/sim/chatter_monitor.hpp).
  int chatter_steps = 32;

  std::string validate() const;
};

}  // namespace saltus::events
