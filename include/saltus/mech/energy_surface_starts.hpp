// Independent starts of a nonholonomic system on one energy surface, for ensembles such as the
// invariant densities of a model file's billiard (`saltus density MODEL`): the first start is the
// given state; every other keeps its configuration q0 and draws an admissible velocity of the same
// kinetic energy in a random direction of the constraint distribution (a standard normal vector
// projected M-orthogonally onto {eta(q0) qdot = 0}, then scaled to T = T0).
// Reproducible from `seed`. Throws saltus::Error when x0 is not a valid state of the model
// (NonholonomicModel::check_state) or its kinetic energy is not positive.
#pragma once

#include <cstdint>
#include <vector>

#include "saltus/mech/nonholonomic_model.hpp"

namespace saltus::mech {

std::vector<Vector> energy_surface_starts(const NonholonomicModel& model, ConstVectorRef x0,
                                          int count, std::uint64_t seed);

}  // namespace saltus::mech
