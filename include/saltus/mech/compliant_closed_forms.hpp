// Closed-form results for one impact of a point mass on a compliant contact, and the damping
// design formulas used with Hunt-Crossley contacts.
//
// Sources: seed 000 eqs. (5.2)-(5.6) (linear spring), (5.8)-(5.11) (Kelvin-Voigt, kinematic
// release); FORMULAS.md 3.1, 3.2 (force release, delta_max [derived]), 3.3 (Hunt-Crossley exact
// restitution (1 + e) d = ln((1 + d)/(1 - e d)), d = c v0 / k, delta_max, contact duration,
// design approximations of Hunt & Crossley 1975, Lankarani & Nikravesh 1990, Flores et al. 2011,
// Gonthier et al. 2004).
//
// Symbol table (FORMULAS.md -> code): m, k, c, n, v0 (impact speed > 0) -> same names;
// omega_n = sqrt(k/m), zeta = c/(2 sqrt(m k)), omega_d = omega_n sqrt(1 - zeta^2);
// d = c v0 / k, chi = c / k (Hunt-Crossley).
#pragma once

#include "saltus/core/types.hpp"

namespace saltus::mech {

struct LinearSpringImpact {
  double omega_n, delta_max, contact_duration, f_max, impulse, exit_velocity;
};
// (5.3)-(5.6): delta_max = v0 sqrt(m/k), duration pi sqrt(m/k), f_max = sqrt(m k) v0,
// impulse 2 m v0, exit speed v0.
LinearSpringImpact linear_spring_impact(double m, double k, double v0);

struct KelvinVoigtImpact {
  double zeta = kNaN;
  double e = kNaN;                 // coefficient of restitution
  double contact_duration = kNaN;  // t_r - t_c
  double t_max_penetration = kNaN;
  double delta_max = kNaN;
  double exit_velocity = kNaN;
  double delta_at_release = kNaN;           // 0 for the kinematic release
  double force_per_mass_at_release = kNaN;  // x-direction force / m at release (tensile < 0
                                            // for the kinematic release)
};
// zeta < 1. Kinematic release: e(zeta) = exp(-pi zeta / sqrt(1 - zeta^2)) (5.11), duration
// pi / omega_d, deepest point at omega_d s = acos(zeta). Force release: omega_d t_r = pi - 2 asin
// zeta, e = exp(-zeta (pi - 2 asin zeta)/sqrt(1 - zeta^2)), residual penetration 2 zeta e v0 /
// omega_n. zeta >= 1 with the kinematic release: no return, e = 0, duration infinite.
KelvinVoigtImpact kelvin_voigt_impact(double m, double k, double c, double v0, bool force_release);

// e(zeta) of (5.11).
double kelvin_voigt_restitution(double zeta);

// Exact Hunt-Crossley restitution for d = c v0 / k >= 0: the root of
// (1 + e) d = ln((1 + d)/(1 - e d)) in (0, min(1, 1/d)) (unique; bisection on a form without
// cancellation, log1p(x) - x by series for small x; d = 0 gives 1).
double hunt_crossley_restitution(double d);
// Inverse: the d = c v0 / k that gives restitution e in (0, 1] (exact, same relation).
double hunt_crossley_d_for_restitution(double e);
// delta_max^{n+1} = (n+1)(m/k)(d - ln(1+d))/chi^2  (-> (n+1) m v0^2/(2k) as c -> 0).
double hunt_crossley_max_penetration(double m, double k, double c, double n, double v0);
// T = (m/k) int_{-e v0}^{v0} dv / (delta(v)^n (1 + chi v)); endpoint singularities removed by
// v0 - v = s^{n+1} (and v + e v0 = s^{n+1}), then Gauss-Legendre.
double hunt_crossley_contact_duration(double m, double k, double c, double n, double v0);

// The contact time scale pi delta_max / v0 of a force k delta^n (n = 1 for the linear laws),
// delta_max the undamped penetration, k delta^(n+1) / (n+1) = m v0^2 / 2: pi sqrt(m/k) for
// n = 1 (the linear-spring contact time), the same order for any Hunt-Crossley exponent.
double compliant_contact_time_scale(double m, double k, double n, double v0);

// Design approximations as e(d) (FORMULAS.md 3.3): each inverts its c(e) formula.
double hunt_crossley_1975_restitution(double d);   // c = 3k(1-e)/(2 v0)     <=> e = 1 - 2d/3
double lankarani_nikravesh_restitution(double d);  // c = 3k(1-e^2)/(4 v0)   <=> e = sqrt(1-4d/3)
                                                   //   (NaN when 4d/3 > 1)
double flores_restitution(double d);               // c = 8k(1-e)/(5 e v0)   <=> e = 8/(8+5d)
double gonthier_restitution(double d);             // c = k(1-e^2)/(e v0)    <=> e^2 + d e = 1
// The same formulas as damping c for a target restitution e.
double hunt_crossley_1975_damping(double k, double e, double v0);
double lankarani_nikravesh_damping(double k, double e, double v0);
double flores_damping(double k, double e, double v0);
double gonthier_damping(double k, double e, double v0);
// Exact damping for a target e (from hunt_crossley_d_for_restitution).
double hunt_crossley_exact_damping(double k, double e, double v0);

}  // namespace saltus::mech
