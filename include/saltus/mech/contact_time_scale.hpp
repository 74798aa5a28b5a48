// The time scale of a rigid contact, and the contacts a Moreau-Jean step reaches (issue 44
// item 4): what the bridge (bridge/bridged_run.hpp) steps a stretch with and calls "at the stop",
// from the contact's own motion, never from how far the coordinates are from their origin, the
// units or the run's length.
//
// For rigid contact i at (t, q, qdot) in a run whose kinetic energy has reached T (its largest
// value so far):
//   V_i = sqrt(2 T w^T M^-1 w)        the largest rate T can give the contact
//                                      (Cauchy-Schwarz in the kinetic metric: |w^T qdot| <= V_i)
//   A_i = |w^T M^-1 h| + |what|        its free acceleration (what = qdot^T (d2 g / dq2) qdot)
//   tau_i = V_i / A_i                  (infinite when V_i or A_i is zero: no scale)
// with w = w_N, plus the same terms along w_T for a frictional contact (sliding sets the scale of a
// Painleve stop, whose normal rate is zero). A ball dropped from h onto a floor: tau = sqrt(2h/g),
// the time of its fall, wherever the floor is and in any units.
#pragma once

#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

struct ContactTimeScales {
  Vector tau;    // per contact (infinite for compliant contacts and where there is no scale)
  Vector accel;  // A_i per contact (0 for compliant ones)
};

// Throws saltus::Error when M(q) is not SPD or a size does not match.
ContactTimeScales contact_time_scales(const LagrangianModel& model, double t, ConstVectorRef q,
                                      ConstVectorRef qdot, double kinetic_energy);

// The step a stretch takes, tied to the run's tolerances: h = sqrt(rtol) min tau_i over the given
// contacts. Moreau-Jean is of order one at the nonsmooth instants, so its error there is
// h / tau = sqrt(rtol): half the digits the event-driven run keeps, the usual compromise (the
// stretch is short: it ends as soon as the contact state holds). NaN when no contact gives a
// scale.
double moreau_jean_step_size(const ContactTimeScales& scales, const std::vector<int>& contacts,
                             double rtol);

// The rigid contacts a step h from (q, qdot) reaches: g_i <= touching band (contact_state.hpp)
// + |gdot_i| h + A_i h^2 / 2. At a stop of the event-driven run these are the contacts it stopped
// on: touching, chattering below what the integrator resolves, or penetrated by an extrapolated
// limit.
std::vector<int> contacts_within_step(const LagrangianModel& model, ConstVectorRef q,
                                      ConstVectorRef qdot, const ContactTimeScales& scales,
                                      double h);

}  // namespace saltus::mech
