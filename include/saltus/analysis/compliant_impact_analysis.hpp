// One impact of a point mass on a compliant contact, simulated by the saltus engine, with the
// quantities the lecture notes discuss: contact duration, maximum penetration, maximum force,
// coefficient of restitution (seed 000 section "Point particle - 1D impact"; FORMULAS.md 3).
//
// Hybrid system (x = (x, v), x = gap g_N, delta = -x):
//   mode "free"     x' = v, v' = -g
//       guard "contact": p = -x rising -> "contact" (state unchanged)
//   mode "contact"  x' = v, v' = f(delta, deltadot)/m - g, deltadot = -v
//       guard "max_penetration": p = v rising (deepest point; state unchanged, logged)
//       guard "max_force":       p = -df/dt rising (force maximum; value only, no gradient)
//       guard "release" (terminal): p = x rising (gap returns to zero) or, for Kelvin-Voigt with
//                                   ForceReturnsToZero, p = -f rising (force returns to zero)
// The run starts in "free" at x0 = v0 t_lead above the surface moving with -v0 (t_lead = 2 % of
// pi sqrt(m/k)), so the contact starts at t_c = t_lead exactly when g = 0. Times below are
// measured from the located contact event.
//
// Symbol table: v0 -> impact_speed, e -> restitution, delta_max -> max_penetration,
// f_max -> max_force, t_r - t_c -> contact_duration.
// Layer analysis (DESIGN.md): it runs the engine (sim) on a law of mech, which knows no engine.
#pragma once

#include "saltus/mech/compliant_contact_law.hpp"
#include "saltus/sim/simulation_options.hpp"
#include "saltus/sim/simulation_summary.hpp"

namespace saltus::analysis {

struct CompliantImpactOptions {
  double gravity = 0.0;  // constant acceleration towards the surface (m/s^2); 0: pure impact
  // Integration: Dop853 at rtol 1e-12 (FORMULAS.md 0: flow-derived COR at rtol <= 1e-10 is
  // compared with rel 1e-7). atol is scaled by v0 sqrt(m/k) when left at 0.
  double rtol = 1e-12;
  double atol = 0.0;
  // Stop if no release happened within this many multiples of pi sqrt(m/k).
  double max_duration_factor = 50.0;
};

struct CompliantImpactResult {
  bool released = false;           // false: still in contact at the time limit (e.g. zeta >= 1)
  double contact_time = kNaN;      // t_c (absolute)
  double contact_duration = kNaN;  // t_r - t_c
  double time_of_max_penetration = kNaN;  // from t_c
  double max_penetration = kNaN;          // delta_max
  double max_force = kNaN;                // f_max over the contact
  double exit_velocity = kNaN;            // xdot(t_r) > 0
  double restitution = kNaN;              // exit_velocity / v0 (0 when not released)
  double penetration_at_release = kNaN;   // delta(t_r): 0 for gap release
  double force_at_release = kNaN;         // f(t_r) (< 0 = tensile for KV gap release)
  SimulationSummary summary;              // the engine's report of the run
};

// Throws saltus::Error for m <= 0, v0 <= 0 or an invalid law (naming the law and value).
CompliantImpactResult analyze_compliant_impact(const mech::CompliantContactLaw& law, double m,
                                               double impact_speed,
                                               const CompliantImpactOptions& options = {});

}  // namespace saltus::analysis
