// The tolerances of contact mechanics, in one place (internal to src/mech; docs/ARCHITECTURE.md
// "Tolerances"). Each test compares a contact quantity with a fraction of its own scale: a gap,
// a normal or tangential rate with w = its gradient over q, and
//   scale = sum_i |w_i| S_i,
// S_i the run's scale of q_i or qdot_i (Jump::state_scales: the largest |x_i| the run has seen)
// or, outside a simulation, |q_i| and |qdot_i| of the state itself. The scale is in the
// quantity's own units (metres and radians are never mixed), grows with the model's units (a
// block in millimetres has the same bands as in metres), and ignores coordinates the quantity
// does not read (a block translated to x = 1e8 keeps its bands).
#pragma once

#include <algorithm>
#include <cmath>

#include "saltus/core/types.hpp"

namespace saltus::mech::detail {

// Fractions of a contact quantity's scale.
// A gap counts as touching at another contact's impact (multi_contact_impact.hpp).
inline constexpr double kImpactGapBand = 1e-10;
// A gap counts as touching at a Zeno limit state (extrapolated: wider; post_zeno_projection).
inline constexpr double kPostZenoGapBand = 1e-8;
// A normal or tangential rate counts as at rest at a Zeno limit state (the index-sets guard):
// the extrapolated limit carries rates of ~1e-8 of the run's velocity scale (a rocking block
// with a corner speed of 0.03 m/s reached post-zeno with gdot_T = -2.7e-10 m/s in metres and
// +5e-10 m/s in millimetres: noise), so a sliding corner below 1e-7 of it is a candidate for
// sticking and the contact-force LCP decides.
inline constexpr double kPostZenoRestRate = 1e-7;
// A rate counts as zero at an event: round-off of a state that has just been located.
inline constexpr double kEventRestRate = 1e-12;
// A sliding contact's Painleve coefficient B = w_N^T M^-1 (w_N - mu s w_T) counts as zero below
// this fraction of a = w_N^T M^-1 w_N (the guard "painleve:<c>" fires at B = kJamMargin a, and
// Lecornu's impulse takes such a slip as a Painleve slip). At Genot and Brogliato's dynamic jam
// the normal force grows like 1/B: the integrator cannot step onto B = 0 and shrank its step to
// an underflow on the Painleve rod at mu = 3 with B still 1e-15 a; at 1e-9 a it is reached, about
// 1e-9 a / |dB/dt| before the jam (1e-10 s there).
inline constexpr double kJamMargin = 1e-9;

// A slip starts from rest (friction in space) at this fraction of the slip speed's scale
// (sum_j (|eta_1,j| + |eta_2,j|) S_j over the run's velocity scales, as the stick guard's level)
// along -lambda_T of the stick forces. Exactly at rest the flow would take that direction anyway;
// the start off rest arms the stick guard, so that a slip that slows down instead of speeding up
// (neither stick nor slip consistent) reaches the closing rule, which reports it, instead of
// grinding along gamma = 0 with the friction force flipping at every step. Its derivative is the
// slip removal's (the start's own is 1e-10 small).
inline constexpr double kOnsetSlip = 1e-10;
// A run that never moved has no velocity scale (a box at rest pushed until it slips), and a
// start of kOnsetSlip of 0 would leave the slip at gamma = 0 for the stick guard to end at once;
// round-off of its velocities (1e-18) would then choose the slip's direction. So the start is at
// least this many times the least slip the run resolves, sum_j (|eta_1,j| + |eta_2,j|) atol_j
// (Jump::state_atol): far above round-off, below what the integrator can tell from rest.
inline constexpr double kOnsetResolutions = 10.0;

// The slip speed a slip from rest starts at: `scale` the slip speed's scale in the run, and
// `resolution` the least slip speed it resolves (0 outside a simulation).
inline double onset_slip_speed(double scale, double resolution) {
  return std::max(kOnsetSlip * scale, kOnsetResolutions * resolution);
}

// The run's scales of q and qdot (n entries each).
struct ContactScales {
  const double* q = nullptr;
  const double* qdot = nullptr;
};
// From Jump::state_scales (x = (q, qdot), n entries each); where that is nullptr (outside a
// simulation), from the state (q, qdot) itself.
inline ContactScales contact_scales(const double* state_scales, ConstVectorRef q,
                                    ConstVectorRef qdot) {
  if (state_scales) return {state_scales, state_scales + q.size()};
  return {q.data(), qdot.data()};
}

// sum_i |w_i| |s_i| over the n entries of w: the scale of a quantity with gradient w.
template <class W>
double scale_along(const W& w, const double* s) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i) sum += std::abs(w[i]) * std::abs(s[i]);
  return sum;
}

}  // namespace saltus::mech::detail
