// The three billiards of nonholonomic_billiards.hpp by name, with parameters as name=value
// strings, for `saltus density --system NAME` (a model file with constraints is the other way:
// `saltus density MODEL`, run/density_setup.hpp).
//
// Names and parameters (defaults in brackets; every system also takes the table's semi-axes
// A [2] and B [1], the restitution e [1] of every wall and the kinetic energy T [0.5] of the
// initial states):
//   sleigh  m [1], I [0.1], a [0.3] (blade to centre of mass), L [0.3] (half-length)
//   ball    k2 [0.4], r [1]
//   disk    m [1], R [0.2], I [0.02], J [0.01]
// Coordinates (the names --vars takes): sleigh x, y, theta; ball x, y, theta, phi, psi; disk x,
// y, theta, phi. Angles are binned modulo 2 pi on [0, 2 pi).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "saltus/analysis/invariant_density.hpp"
#include "saltus/mech/nonholonomic_model.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace saltus::systems {

struct Billiard {
  std::string system;                    // sleigh, ball or disk
  std::map<std::string, double> params;  // every parameter with its value (defaults filled in)
  EllipticTable table;
  mech::NonholonomicModel model;
  std::vector<std::string> coordinates;  // names of q's entries
};

// The names make_billiard accepts.
const std::vector<std::string>& billiard_names();

// Throws saltus::Error naming the unknown system, the unknown parameter (with the known ones), a
// value that is not a number, or a value out of range (semi-axes, masses, inertias, lengths
// must be > 0, e in [0, 1]; the sleigh and the disk must fit in the table: L, R < B).
Billiard make_billiard(const std::string& system, const std::vector<std::string>& set);

// `count` initial states (q, qdot), reproducible from `seed`: the configuration uniform (in the
// coordinates) over the admissible region (every wall h_w(q) >= 0, by rejection; the ball's
// Euler angle theta in [1.2, 1.9], away from the chart's singularity), the reduced velocities
// uniform in angle on the ellipse T = T0 of the reduced metric. For the disk this is the
// invariant measure restricted to the energy surface (Clark & Bloch Theorem 2 and Prop. 5: the
// reduced metric is constant and the flow in (q, thetadot, phidot) has zero divergence), so
// every later time-1 map of the ensemble has that distribution too.
std::vector<Vector> billiard_initial_states(const Billiard& billiard, int count,
                                            std::uint64_t seed);

// The grid axis for coordinate `name` (x on [-A, A], y on [-B, B], angles on [0, 2 pi)); throws
// saltus::Error naming the coordinate and listing the system's.
analysis::DensityAxis billiard_axis(const Billiard& billiard, const std::string& name, int bins);

// The observable that bins coordinates (ix, iy) of q, angles wrapped into [0, 2 pi).
std::function<Eigen::Vector2d(ConstVectorRef x)> billiard_observable(const Billiard& billiard,
                                                                     int ix, int iy);

// Kinetic energy of a state (q, qdot).
double billiard_energy(const Billiard& billiard, ConstVectorRef x);

}  // namespace saltus::systems
