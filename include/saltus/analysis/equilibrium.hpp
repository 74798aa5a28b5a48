// Equilibria of one mode (issue 46, boundary-equilibrium bifurcations): where the mode's flow
// rests, f(x) = 0, or, for a sliding mode of a flow written with sign() (docs/MODEL_FORMAT.md
// "Switching flows"), a pseudo-equilibrium on its surface: Filippov's sliding flow
// f_s = l f+ + (1 - l) f- vanishes and h(x) = 0. f_s keeps dh/dt = 0 everywhere, so
// grad h . f_s = 0 and f_s = 0 alone is one equation short; [f_s; h] is one too many and
// consistent, and is solved in least squares (Gauss-Newton; exact at a solution).
//
// Admissibility (Kuznetsov, Rinaldi and Gragnani 2003; di Bernardo et al. 2008, ch. 5): an
// equilibrium of a mode is *admissible* where the mode holds it: every guard of the mode lies on
// its non-trigger side there (a rising guard p < 0, a falling one p > 0); otherwise it is
// *virtual* (the flow would leave the mode before reaching it). Guards with direction `either`
// and observers bound no region and are left out. A pseudo-equilibrium's guards are the
// sliding mode's leave:h>0 / leave:h<0 (0 < l < 1: inside the sliding region); whether the
// surface attracts there (a = dh(f+) < 0 < b = dh(f-)) or repels is reported besides.
//
// Eigenvalues: of D_y f over the free states y (held states, such as parameters loaded as states,
// left out); of a pseudo-equilibrium, those of the sliding flow on the surface: T' D_y f_s T
// with T an orthonormal basis of grad_y h's complement (D_y f_s maps into that complement at a
// pseudo-equilibrium; its remaining eigenvalue is 0, across the surface). Stable: every real part
// < 0 (and, sliding, the surface attracting).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"

namespace saltus::analysis {

// The mode whose equilibria are sought and, for a sliding mode, its surface.
struct EquilibriumMode {
  ModeId mode = kNoMode;
  struct Surface {
    Guard h;  // value h(t, x) and its gradient; the sliding mode lies on h = 0
    ModeId plus = kNoMode, minus = kNoMode;  // the regions on h > 0 (f+) and h < 0 (f-)
  };
  std::optional<Surface> surface;
};

struct EquilibriumOptions {
  double t = 0.0;  // the flows' time argument
  // A root is also checked at t + 0.37 and t + 0.71 time_span: a flow that reads t (a forcing)
  // rests at x at one instant only, and is refused, saying so. 0: not checked.
  double time_span = 1.0;
  std::vector<int> held;  // states kept at the guess's values (parameters as states, discrete)
  Vector floor;           // per state: an absolute size below which steps count as converged
  double rtol = 1e-13;    // Newton stops when every |dx_i| <= rtol |x_i| + floor_i
  int max_iterations = 50;
  // A guard's value within this fraction of its scale (sum_i |dp/dx_i| max(|x_i|, floor_i))
  // counts as on its surface: a boundary equilibrium.
  double boundary_tolerance = 1e-9;
};

struct GuardSide {
  GuardId guard = -1;
  std::string name;
  double inside = kNaN;     // > 0 on the guard's non-trigger side (-p rising, p falling)
  double scale = kNaN;      // sum_i |dp/dx_i| max(|x_i|, floor_i)
  bool on_surface = false;  // |inside| <= boundary_tolerance * scale
};

struct Equilibrium {
  bool found = false;
  std::string message;  // why none was found, naming the mode
  ModeId mode = kNoMode;
  bool pseudo = false;  // on a sliding mode's surface
  Vector x;             // every state, held ones at the guess's values
  int iterations = 0;
  double residual = kNaN;        // max |f_i| (and |h|) at x
  Eigen::VectorXcd eigenvalues;  // by decreasing real part
  bool stable = false;
  std::vector<GuardSide> guards;  // the mode's guards that bound a region
  bool admissible = false;        // every guard's inside > 0
  // Pseudo-equilibria: dh(f+), dh(f-) and the sliding weight l = b / (b - a).
  double a = kNaN, b = kNaN, weight = kNaN;
  bool attracting = false;  // a < 0 < b
};

// Newton (regular) or Gauss-Newton (pseudo) from `guess`, damped by halving while the residual
// grows. A flow that fails (throws saltus::Error: a singular mass matrix) or is not finite gives
// found = false with the message. Throws saltus::Error for a mode with algebraic states (not
// solved) or a bad mode index.
Equilibrium find_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                             const Vector& guess, const EquilibriumOptions& options);

// Whether x is an equilibrium of the mode to round-off: max |f| (and |h|) within 1e-8 of the
// equations' largest linear terms, sum_j |df_i/dx_j| max(|x_j|, 1e3 floor_j), as Newton's roots
// are accepted.
bool is_equilibrium(const HybridSystem& system, const EquilibriumMode& mode, const Vector& x,
                    const EquilibriumOptions& options);

// The equilibrium's record at x as found there (eigenvalues, guards, admissibility), without
// solving: for points a continuation has converged.
Equilibrium describe_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                                 const Vector& x, const EquilibriumOptions& options);

// The equations of the mode's equilibria over the free states: f_y (regular), [f_s,y; h]
// (pseudo), and their Jacobian with respect to the states listed in `unknowns` (the free states,
// and for a continuation the parameter too).
void equilibrium_equations(const HybridSystem& system, const EquilibriumMode& mode, double t,
                           const Vector& x, const std::vector<int>& rows,
                           const std::vector<int>& unknowns, Vector& residual, Matrix& jacobian);

// The unit null direction of `j` (n columns) where its null space is one-dimensional: rank
// n - 1, the (n-1)th singular value of j with unit columns above 1e-10 of the largest (SVD);
// false otherwise. A branch's
// tangent (equilibrium_branch.cpp) and dx/dp at a boundary point (boundary_equilibrium.cpp).
bool null_direction(const Matrix& j, Vector& out);

// The free states: every state not in `held`.
std::vector<int> free_states(int nx, const std::vector<int>& held);

}  // namespace saltus::analysis
