// Moreau-Jean time stepping at the impulse level for a LagrangianModel with rigid contacts (issue
// 32 item 3): what the event-driven run hands a stretch to where no event-driven rule answers
// (bridge/bridged_run.hpp).
//
// Sources: Moreau's sweeping process and Jean's NSCD scheme as Acary and Brogliato write it
// ("Numerical Methods for Nonsmooth Dynamical Systems", 2008, Ch. 10: the theta-method of the
// smooth forces, the index set from the predicted gap, the impact law per step); seed 001 [LB]
// (2.14)-(2.18) (Newton on the normal impulse, Coulomb on the tangential one, the impact LCP of
// impact_problem.hpp); Stewart 1998 (the step's LCP is always solvable and its limit h -> 0 holds
// the impacts without collision).
//
// One step from (t, q, v) of size h:
//   K = dh/dq, C = dh/dqdot at (t, q, v) (forward AD), W_h = M(q) - h theta C - h^2 theta^2 K,
//   v_free = v + W_h^-1 h [(1 - theta) h(t, q, v) + theta (h(t + h, q, v) + h K v)]
//     (the theta-method of M vdot = h linearised once about (q, v), Siconos' MoreauJeanOSI);
//   index set: the rigid contacts whose predicted gap g(q) + (1 - theta) h u_N- <= 0 (u = W^T v:
//     the gap would close within the step even if the contact stopped at its end);
//   over them one impact LCP (impact_problem.hpp, certified by enumeration up to 12 unknowns,
//     Lemke beyond): v+ = v_free + A^-1 (W_N Lambda_N + W_T Lambda_T) with
//       0 <= u_N+ + e_hat u_N-  perp  Lambda_N >= 0,
//       Lambda_T in -mu Lambda_N Sign(u_T+ + e_t u_T-),
//     e_hat = e (the contact's restitution) where u_N- <= 0 and 1 where the contact already
//     separates (u_N- > 0): such a contact is held from closing further over the step
//     (u_N+ + u_N- >= 0 keeps its gap) and its impulse does no work (see Energy); e_t is the
//     tangential restitution of a newton_coulomb contact, 0 for every other law. A = W_h's
//     symmetric part when that is positive definite (it is M when h has no stiffness), else M;
//   q+ = q + h ((1 - theta) v + theta v+).
// Several motions (the LCP's verdict Several, or Lemke's Uncertified answer): the one of least
// kinetic energy (SelectionPolicy::LeastKineticEnergy), recorded in the step. An LCP without a
// solution (never for a Delassus matrix W^T A^-1 W positive definite) is the step's failure.
//
// Energy (constant M, potential linear in q, no other force: a rigid body under gravity): the
// step changes T + V by exactly
//   dE = Lambda^T (theta u+ + (1 - theta) u-) + (1/2 - theta) |v+ - v|_M^2,
// so with theta = 1 and e = e_t = 0, dE = Lambda^T u+ - |v+ - v|_M^2 / 2 <= 0: never a gain. With
// theta = 1/2 the normal part Lambda_N (u_N+ + u_N-) / 2 = Lambda_N (1 - e_hat) u_N- / 2 is <= 0
// (e_hat above), and the tangential part Lambda_T (u_T+ + u_T-) / 2 gains only where friction
// reverses the slip within the step or stops it against the drive, by at most
// max(0, Lambda_T u_T-) / 2 per contact (tests/mech/moreau_jean_test.cpp counts them).
//
// After a step each rigid contact is Open, Closed (frictionless), Stick, SlipPositive or
// SlipNegative: closed when u_N+ is within the step's resolution
// v_c = |w_N^T (v_free - v)| + |w_T^T (v_free - v)| + h (|what_N| + |what_T|) (the velocity one
// step of the free forces gives the contact point, normal and tangential together; a contact
// with e > 0 resting on its surface bounces below it) and it is in the index set or its gap after
// the step is within h v_c (a contact resting under theta = 1/2 leaves the index set every other
// step, lifted by O(h^2)), stick when also |u_T+| <= v_c, else slip with the sign of u_T+. The
// bridge hands back when that state holds.
//
// Compliant contacts are not stepped (the constructor throws naming one): their forces and
// friction belong to the event-driven modes.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/mech/contact_verdict.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

struct MoreauJeanOptions {
  double theta = 0.5;     // in [1/2, 1]: 1/2 the trapezoidal rule, 1 implicit Euler
  bool linearize = true;  // K and C in W_h (off: W_h = M, the forces explicit in v)
};

enum class SteppedContact { Open, Closed, Stick, SlipPositive, SlipNegative };
const char* to_string(SteppedContact state);

struct MoreauJeanStep {
  Vector q, qdot;                     // at t + h
  std::vector<int> active;            // the step's index set (model contact indices)
  Vector impulse_N, impulse_T;        // per contact (0 outside the index set)
  Vector rate_N, rate_T;              // u+ = W^T qdot+ per rigid contact (0 for compliant ones)
  Vector rate_N_minus, rate_T_minus;  // u- = W^T v per rigid contact
  std::vector<SteppedContact> state;  // per contact (Open for compliant ones)
  Verdict verdict = Verdict::NotRun;  // the step's LCP (NotRun: no contact in the index set)
  bool chosen = false;                // several motions: the least kinetic energy was taken
  std::string failure;                // why the step has no answer (empty when it has one)
  bool ok() const { return failure.empty(); }
};

class MoreauJeanStepper {
 public:
  // Throws saltus::Error for theta outside [1/2, 1] or a compliant contact in the model.
  explicit MoreauJeanStepper(const LagrangianModel& model, MoreauJeanOptions options = {});

  // One step of size h > 0 from (t, q, qdot). Throws saltus::Error for bad sizes, h <= 0 or a
  // mass matrix that is not SPD; an LCP without an answer is the step's `failure`.
  MoreauJeanStep step(double t, ConstVectorRef q, ConstVectorRef qdot, double h) const;

  const LagrangianModel& model() const { return model_; }
  const MoreauJeanOptions& options() const { return options_; }

 private:
  const LagrangianModel& model_;
  MoreauJeanOptions options_;
};

// The state handed back to event-driven integration after a stretch: x = (q, qdot) moved, in the
// kinetic metric, onto the surfaces of the contacts `state` calls closed and of the open ones
// that penetrate (g_N < 0), and the normal rates of the closed ones (and the tangential rates of
// the sticking ones) set to zero; open contacts keep their rates. The surface is g_N = 1e-15
// S_c, S_c = sum_k |w_N,k| q_scale_k the gap's scale over the run (q_scale: the largest |q_k| it
// has seen): the projection's round-off then never leaves a gap below zero, where a fresh run
// would find the contact's impact guard on its trigger side (a rod flat on the floor at y = 0,
// theta = 0 has a gap scale of 0 in its own coordinates). Empty when done, else why not.
std::string settle_stepped_state(const LagrangianModel& model,
                                 const std::vector<SteppedContact>& state, VectorRef x,
                                 ConstVectorRef q_scale);

}  // namespace saltus::mech
