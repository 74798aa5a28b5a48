// A Lagrangian system with constraints linear in the velocities and rigid walls, compiled into a
// saltus::HybridSystem (seed 003, Clark & Bloch: Sec. 2.2.3 Lagrange-d'Alembert, Sec. 3.2
// Theorems 3-4 and eq. (9); FORMULAS.md 12-13).
//
// Model: kinetic energy T = 1/2 qdot^T M(q) qdot, generalised forces h(t, q, qdot) (Coriolis and
// centrifugal terms, -dV/dq, applied forces), exactly as mech::LagrangianModel takes them;
// constraints eta^a(q) qdot = 0, a = 1..k, each row eta^a(q) a generic callable; walls
// h_w(q) >= 0 (inside), each with a restitution e_w (1: the elastic map of the paper).
//
// Equations of motion (Lagrange-d'Alembert with multipliers, eliminated exactly):
//   M qddot = h + eta^T lambda,   eta qddot + etadot qdot = 0,
//   lambda = -(eta M^-1 eta^T)^-1 (eta M^-1 h + etadot qdot),
// state x = (q, qdot) (2n entries), etadot qdot = d/ds eta(q + s qdot) qdot by second-order jets.
// Why multipliers and not a reduced basis qdot = B(q) nu: a basis of the constraint distribution
// chosen automatically (a fixed split into independent and dependent velocities, or a QR null
// space) is not smooth on the whole configuration space (the sleigh's split xd = v cos th,
// yd = v sin th needs the heading, a split by coordinates becomes singular at cos th = 0), and a
// user-written B(q) is the hand reduction this class exists to avoid. With the multiplier exactly
// eliminated (no Baumgarte term) every eta^a(q) qdot is a first integral of the flow on the whole
// of (q, qdot), and the wall map (eq. (9), global version) keeps each of them: the constraint
// values move only by the integrator's local errors (measured in docs/VALIDATION.md).
// The multipliers lambda (constraint forces eta^T lambda) are outputs of dynamics().
//
// Hybrid system from compile(): one mode "constrained" x' = (qdot, qddot); per wall w a guard
// "<wall name>", p = -h_w(q) rising, reset qdot+ = nonholonomic_impact(M, dh_w, eta, qdot-, e_w)
// with outputs epsilon, lambda_<constraint>..., denominator, energy_change.
//
// Generic callables (write math as `using std::sin; sin(q[2])`, constants as doubles):
//   M(q)            fn(q, M):          double, Dual, ChunkDual
//   h(t, q, qdot)   fn(t, q, qdot, h): double, Dual, ChunkDual
//   eta^a(q)        fn(q, row):        double, Dual, ChunkDual and the SecondOrderJetTpl of each
//   h_w(q)          fn(q) -> scalar:   double, Dual, ChunkDual and the SecondOrderJetTpl of each
// q is a DofVector<S>; M, h and row are preset to zeros of the right size.
//
// Bad input (saltus::Error naming model, constraint or wall and the value): dependent constraint
// rows (eta M^-1 eta^T singular), M(q) not SPD (this is also the singular reduced metric: the
// reduced metric B^T M B of any basis B is SPD exactly when M is on the distribution), an
// initial velocity violating a constraint, a start outside a wall, a trivial wall impact (D = 0).
// Constraints not linear in the velocities cannot be written: a row depends on q only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/nonholonomic_impact.hpp"

namespace saltus::mech {

// Largest number of constraint rows.
inline constexpr int kMaxConstraints = 8;

// A fused evaluation of the accelerations qddot(t, q, qdot) of the Lagrange-d'Alembert equations
// (an optional fast path: model files set one from the symbolic elimination of
// lang/constrained_accelerations.hpp). fn(t, q, qdot, qddot) -> bool, qddot preset to n zeros;
// false where it does not apply (a pivot <= 0: M not SPD or dependent rows at q), and the generic
// elimination then runs and reports the state. Kept for the flow's scalars; in doubles fn is
// called with pointers to n entries each, so the compiled flow passes slices of x and x' without
// copying them (fn must accept both: a generic lambda indexing q[i] does).
class AccelerationFunction {
 public:
  template <class S>
  using Fn = std::function<bool(const S&, const DofVector<S>&, const DofVector<S>&, DofVector<S>&)>;
  using DoubleFn = std::function<bool(double, const double*, const double*, double*)>;
  // The whole first-order flow in doubles as a plain function of a context: x' = (qdot, qddot)
  // at x = (q, qdot), 2n entries each, false where fn is. The compiled flow's DirectRhs
  // (core/flow.hpp) is this function itself: no std::function and no layer between the stepper
  // and the model's code (each cost ~50 instructions of ~400 per evaluation, sleigh).
  using Fast = DirectOdeFunction;

  AccelerationFunction() = default;
  template <class F>
  explicit AccelerationFunction(F f) : fns_(wrap_double(f), wrap<Dual>(f), wrap<ChunkDual>(f)) {}
  template <class F>
  AccelerationFunction(F f, Fast fast) : AccelerationFunction(f) {
    fast_ = std::move(fast);
  }

  bool operator()(double t, const double* q, const double* qdot, double* qddot) const {
    return std::get<DoubleFn>(fns_)(t, q, qdot, qddot);
  }
  const Fast& fast() const { return fast_; }
  template <class S>
  bool operator()(const S& t, const DofVector<S>& q, const DofVector<S>& qdot,
                  DofVector<S>& qddot) const {
    if constexpr (std::is_same_v<S, double>) {
      return (*this)(t, q.data(), qdot.data(), qddot.data());
    } else {
      return std::get<Fn<S>>(fns_)(t, q, qdot, qddot);
    }
  }
  explicit operator bool() const { return static_cast<bool>(std::get<0>(fns_)); }

 private:
  template <class F>
  static DoubleFn wrap_double(F f) {
    return [f](double t, const double* q, const double* qd, double* qdd) {
      return static_cast<bool>(f(t, q, qd, qdd));
    };
  }
  template <class S, class F>
  static Fn<S> wrap(F f) {
    return [f](const S& t, const DofVector<S>& q, const DofVector<S>& qd, DofVector<S>& qdd) {
      return static_cast<bool>(f(t, q, qd, qdd));
    };
  }
  std::tuple<DoubleFn, Fn<Dual>, Fn<ChunkDual>> fns_;
  Fast fast_;
};

// An optional plain evaluation in doubles of NonholonomicModel::project_velocity and of the
// kinetic energy of its result (model files set one from lang/constrained_accelerations.hpp's
// symbolic projection): fn(context, q, qdot, v, T) writes n entries of v and T; false where it
// does not apply (a pivot <= 0), and the generic projection then runs.
using VelocityProjection =
    PlainFunction<bool(const double* q, const double* qdot, double* v, double* kinetic_energy)>;

// An optional plain evaluation in doubles of every wall's h at q at once (model files set one
// from their tape of all gaps): fn(context, q, h) writes h of each wall, in wall order, bit for bit
// as the walls' own h. The compiled system's guard set (core/guard.hpp) calls it.
using AllWallGaps = PlainFunction<void(const double* q, double* h)>;

struct NonholonomicConstraint {
  std::string name;
  ConstraintRow row;
};

struct NonholonomicWall {
  std::string name;
  ConfigurationFunction h;  // h(q) >= 0 inside
  double restitution = 1.0;
  // Optional dh/dq in doubles (n entries written from q's n entries): model files set a
  // compiled symbolic gradient; without it the wall's guard differentiates h by AD.
  std::function<void(const double* q, double* dh)> gradient;
};

// The plain entries in doubles a model file compiles for its NonholonomicModel, given when the
// model is constructed (each optional; each gives the generic path's bits or declines, and tests
// compare them): the fused accelerations the compiled flow uses instead of the generic
// elimination (dynamics() stays generic), the fused velocity projection the energy projection of
// compile() uses instead of the generic one, and every wall's h in one call for the
// `all_wall_gaps_walls` walls the model will have, in the order they are added (compile() uses it
// only when the model has exactly that many).
struct NonholonomicPlainEntries {
  AccelerationFunction accelerations;
  VelocityProjection velocity_projection;
  AllWallGaps all_wall_gaps;
  int all_wall_gaps_walls = 0;
};

// Accelerations and constraint forces at (t, q, qdot).
struct NonholonomicDynamics {
  Vector qddot;
  Vector lambda;            // one multiplier per constraint row
  Vector constraint_force;  // eta^T lambda (generalised force)
};

class NonholonomicModel {
 public:
  NonholonomicModel(std::string name, int n_dof, NonholonomicPlainEntries entries = {});

  const std::string& name() const { return unconstrained_.name(); }
  int dof() const { return unconstrained_.dof(); }
  int constraint_count() const { return static_cast<int>(constraints_.size()); }
  int wall_count() const { return static_cast<int>(walls_.size()); }
  const NonholonomicConstraint& constraint(int a) const;
  const NonholonomicWall& wall(int w) const;
  // M and h without the constraints (their evaluations, and the SPD check of M).
  const LagrangianModel& unconstrained() const { return unconstrained_; }

  template <class MassFn>
  void set_mass_matrix(MassFn fn) {
    unconstrained_.set_mass_matrix(fn);
  }
  // h defaults to zero (no applied forces).
  template <class ForceFn>
  void set_forces(ForceFn fn) {
    unconstrained_.set_forces(fn);
  }
  // Adds the constraint eta(q) qdot = 0; returns its index. Throws beyond kMaxConstraints or
  // when k would reach the number of coordinates.
  template <class RowFn>
  int add_constraint(std::string name, RowFn row) {
    return push_constraint({std::move(name), ConstraintRow(row)});
  }
  // Adds the wall h(q) = 0 (h >= 0 inside) with restitution e in [0, 1] and, optionally, dh/dq
  // in doubles (NonholonomicWall::gradient; it must be dh/dq: tests compare it with AD); returns
  // its index.
  template <class WallFn>
  int add_wall(std::string name, WallFn h, double restitution = 1.0,
               std::function<void(const double* q, double* dh)> gradient = {}) {
    return push_wall({std::move(name), ConfigurationFunction(h), restitution, std::move(gradient)});
  }
  void set_wall_restitution(int w, double restitution);
  // The plain entries given at construction (NonholonomicPlainEntries).
  const AccelerationFunction& accelerations() const { return entries_.accelerations; }
  const AllWallGaps& all_wall_gaps() const { return entries_.all_wall_gaps; }
  // all_wall_gaps is given, for exactly this model's walls.
  bool all_wall_gaps_fit() const {
    return entries_.all_wall_gaps && entries_.all_wall_gaps_walls == wall_count();
  }
  // v and T by the fused projection; false when there is none or it does not apply.
  bool fused_velocity_projection(const double* q, const double* qdot, double* v,
                                 double* kinetic_energy) const {
    return entries_.velocity_projection &&
           entries_.velocity_projection.call(q, qdot, v, kinetic_energy);
  }

  // Evaluations at double precision.
  Matrix mass_matrix(ConstVectorRef q) const { return unconstrained_.mass_matrix(q); }
  double kinetic_energy(ConstVectorRef q, ConstVectorRef qdot) const {
    return unconstrained_.kinetic_energy(q, qdot);
  }
  Matrix constraint_matrix(ConstVectorRef q) const;                       // eta, k x n
  Vector constraint_values(ConstVectorRef q, ConstVectorRef qdot) const;  // eta qdot
  // Whether |eta^a qdot| is round-off of its terms: <= 1e-10 sum_k |eta^a_k qdot_k| (in the
  // constraint's own units; check_state and [initial] project admit a start by it).
  bool velocity_admissible(int a, ConstVectorRef q, ConstVectorRef qdot) const;
  double wall_value(int w, ConstVectorRef q) const;     // h_w(q)
  Vector wall_gradient(int w, ConstVectorRef q) const;  // dh_w^T
  NonholonomicDynamics dynamics(double t, ConstVectorRef q, ConstVectorRef qdot) const;
  // Wall w's impact map at (q, qdot-) (nonholonomic_impact with the wall's restitution).
  NonholonomicImpact impact(int w, ConstVectorRef q, ConstVectorRef qdot_minus) const;
  // The M-orthogonal projection of qdot onto the constraint distribution {eta qdot = 0}: the
  // admissible velocity nearest in kinetic energy (to build consistent initial states).
  Vector project_velocity(ConstVectorRef q, ConstVectorRef qdot) const;

  // Throws saltus::Error for missing M or h, an invalid restitution.
  void validate() const;
  // validate() plus, at x = (q, qdot): M(q) SPD, independent constraint rows, every constraint
  // velocity_admissible, every h_w(q) >= 0.
  void check_state(ConstVectorRef q, ConstVectorRef qdot) const;

  struct Compiled;
  struct CompileOptions {
    // Keep the kinetic energy and the constraints by projecting qdot after every step and before
    // every impact (core/invariant_projection.hpp): for long runs (time-1 maps of billiards),
    // where the integrator's drift would otherwise accumulate. Only for models whose T is a
    // first integral (no potential or applied forces doing work, as in the three billiards).
    bool project_invariants = false;
  };
  Compiled compile() const;
  Compiled compile(const CompileOptions& options) const;

  // "model 'm', constraint 'c'" / "model 'm', wall 'w'" for messages.
  std::string describe_constraint(int a) const;
  std::string describe_wall(int w) const;

 private:
  int push_constraint(NonholonomicConstraint c);
  int push_wall(NonholonomicWall w);

  LagrangianModel unconstrained_;
  std::vector<NonholonomicConstraint> constraints_;
  std::vector<NonholonomicWall> walls_;
  NonholonomicPlainEntries entries_;
};

namespace detail {
struct CompiledNonholonomic;  // shared by the compiled callables
}

struct NonholonomicModel::Compiled {
  HybridSystem system;
  ModeId mode = kNoMode;  // "constrained"
  std::shared_ptr<const detail::CompiledNonholonomic> context;

  // Checks x = (q, qdot) by check_state (sizes too) and returns the mode to start in.
  ModeId initial_mode(ConstVectorRef x) const;
  const NonholonomicModel& model() const;
};

}  // namespace saltus::mech
