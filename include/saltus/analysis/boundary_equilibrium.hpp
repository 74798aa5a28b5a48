// Boundary-equilibrium bifurcations (issue 46; di Bernardo, Budd, Champneys and Kowalczyk 2008,
// sec. 5.3; Kuznetsov, Rinaldi and Gragnani 2003): an equilibrium of a mode reaches a guard of
// the mode at p = p* (equilibrium.hpp: the guard's value vanishes there) and becomes virtual
// past it. What happens is decided by the other equilibria through the same point: every mode
// whose equilibrium (pseudo-equilibrium, for a sliding mode) at p* is that point. Along each,
// the guards on their surface there change linearly with p, d(inside)/dp = grad p . (dx/dp, 1),
// dx/dp from the mode's equilibrium branch (the null vector of its equations' Jacobian), so
// each is admissible on one side of p* (or on neither: its guards disagree). Then:
//  - persistence: two meet, one admissible on each side (a regular equilibrium turns into a
//    pseudo-equilibrium on the surface, or into the neighbouring region's equilibrium where the
//    flow is continuous across it);
//  - nonsmooth fold: two meet, both admissible on the same side, and collide and vanish;
//  - otherwise (one alone, as at an impact surface, or more than two) the kind is not named
//    and the message lists them.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/equilibrium.hpp"

namespace saltus::analysis {

enum class BoundaryKind { Persistence, NonsmoothFold, Unclassified };
const char* to_string(BoundaryKind kind);  // "persistence", "nonsmooth-fold", "unclassified"

struct BoundaryMeeting {
  ModeId mode = kNoMode;
  bool pseudo = false;
  bool attracting = false;  // pseudo: the surface attracts there
  bool stable = false;      // at p*, on its admissible side's limit
  // +1: admissible for p > p*; -1: for p < p*; 0: on neither side; 2: on both (no guard of
  // the mode on its surface there); 3: degenerate (d(inside)/dp = 0 to round-off, or the
  // mode's own branch turns at p*).
  int side = 0;
  Vector dxdp;
};

struct BoundaryClassification {
  BoundaryKind kind = BoundaryKind::Unclassified;
  std::vector<BoundaryMeeting> meeting;
  std::string message;
};

// Classifies the boundary equilibrium x_b (parameter = x_b[parameter]) among `modes` (every
// mode the system has, each with its surface where it is a sliding mode). `options.held` must
// hold `parameter`; the other held states stay at x_b's values.
BoundaryClassification classify_boundary_equilibrium(const HybridSystem& system,
                                                     const std::vector<EquilibriumMode>& modes,
                                                     const Vector& x_b, int parameter,
                                                     const EquilibriumOptions& options);

// dx/dp along the mode's equilibrium branch at x (p component 1); false where the branch turns
// (its null vector has no p component) or the Jacobian has no one-dimensional null space.
bool equilibrium_tangent(const HybridSystem& system, const EquilibriumMode& mode, const Vector& x,
                         int parameter, const EquilibriumOptions& options, Vector& dxdp);

}  // namespace saltus::analysis
