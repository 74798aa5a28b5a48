// The contact forces of a mechanical model's run as trajectory columns (trajectory.csv, the
// Python package's trajectory table, forces.png): lambda_N:<c> for every contact and
// lambda_T:<c> for a frictional one, at every trajectory sample, computed from the mode the
// sample is in (mech::LagrangianModel::dynamics): the closed contacts' forces (the contact-force
// LCP's for several), a compliant contact's push-out force while active, 0 for an open contact.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::run {

struct ContactForceColumns {
  std::vector<std::string> names;
  Matrix values;  // one row per trajectory sample, one column per name
};

// Empty (no names) for a model without contacts, a non-mechanical model or one with velocity
// constraints (whose constraint forces are not contact forces).
ContactForceColumns contact_force_columns(const model::ModelRun& run);

}  // namespace saltus::run
