// Pseudo-arclength continuation of a mode's equilibrium (equilibrium.hpp) in one parameter, a
// state held at rate 0 (a model's parameter loaded as a state), with its bifurcations:
//  - fold: the tangent's parameter component changes sign (a real eigenvalue crosses 0);
//  - Hopf: the number of complex eigenvalues with positive real part changes, and the real part
//    of the complex pair nearest the imaginary axis changes sign (its frequency reported);
//  - boundary: a guard's value at the equilibrium changes sign, so the equilibrium turns from
//    admissible to virtual or back, classified by boundary_equilibrium.hpp.
// Each is located by Illinois regula falsi on the arclength to round-off. The branch runs on
// past boundary points (virtual equilibria are still equilibria of the mode's flow), marking
// each point admissible or virtual, until the parameter reaches `to` (the last point lies on it),
// the corrector fails at the smallest step, or max_points.
//
// Unknowns u = (free states, parameter) in scaled units, u_i / s_i, with s_p = |to - from| and
// s_i = max(|x_i|, |dx_i/dp| s_p, 1e3 floor_i) at the start: a step of 0.05 is a twentieth of
// the range in the parameter and of the expected change in each state, whatever the units.
// Equations G(u) = 0 (equilibrium_equations) and t_k . (u - u_k) = h; the corrector is Newton in
// least squares ([G_u; t_k'], full column rank on a branch); the tangent is the null vector of
// G_u (SVD), oriented along the previous one.
#pragma once

#include <string>
#include <vector>

#include "saltus/analysis/boundary_equilibrium.hpp"
#include "saltus/analysis/equilibrium.hpp"

namespace saltus::analysis {

struct EquilibriumBranchOptions {
  int parameter = -1;  // the state continued; must be in EquilibriumOptions::held
  double from = 0.0, to = 0.0;
  int max_points = 400;
  double initial_step = 1e-2, min_step = 1e-9, max_step = 5e-2;  // scaled arclength
  int max_corrector_iterations = 8;
  double tolerance = 1e-11;  // corrector: every scaled |du_i| <= tolerance
};

enum class EquilibriumEventKind { Fold, Hopf, Boundary };
const char* to_string(EquilibriumEventKind kind);  // "fold", "hopf", "boundary"

struct EquilibriumEvent {
  EquilibriumEventKind kind = EquilibriumEventKind::Fold;
  double parameter = kNaN;
  int after_point = 0;  // between points after_point and after_point + 1
  Equilibrium at;       // the located equilibrium
  // False when the test function's sign change was seen but its root not closed in on (a
  // corrector failed inside the step): `at` is then the nearest point found, or the step's end.
  bool located = true;
  double frequency = kNaN;          // Hopf: the crossing pair's imaginary part
  std::vector<std::string> guards;  // boundary: the guards on their surface there
  BoundaryClassification boundary;  // boundary only
};

struct EquilibriumBranch {
  ModeId mode = kNoMode;
  std::vector<Equilibrium> points;
  std::vector<EquilibriumEvent> events;
  bool reached_end = false;  // the branch left the range (at `to`, or back at `from`)
  std::string message;       // how the branch ended
};

// Continues `start` (an equilibrium of `mode` found with `options`) from its parameter value
// towards `branch.to`. `modes`: every mode of the system with its surface, for classifying
// boundary points. Throws saltus::Error on options that cannot work (parameter not held, a
// start off `from`).
EquilibriumBranch continue_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                                       const std::vector<EquilibriumMode>& modes,
                                       const Equilibrium& start, const EquilibriumOptions& options,
                                       const EquilibriumBranchOptions& branch);

}  // namespace saltus::analysis
