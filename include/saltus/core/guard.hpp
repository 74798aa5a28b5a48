// A guard p(t, x, z): a scalar function whose zero crossing in its direction fires a reset.
//
// Convention (seed 004, DESIGN.md): a Rising guard fires when p crosses zero towards p >= 0;
// Falling towards p <= 0; Either in both directions. The gradient (dp/dx, dp/dz, dp/dt) feeds the
// predictive event step (seed 004, FORMULAS.md 2.1) and the Newton root finder.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/interval_jet.hpp"
#include "saltus/core/plain_function.hpp"
#include "saltus/core/reset.hpp"
#include "saltus/core/types.hpp"

namespace saltus {

enum class Direction { Rising, Falling, Either };

struct Guard {
  using Value = std::function<double(double t, const ConstVectorRef& x, const ConstVectorRef& z)>;
  // Writes dp/dx and dp/dz, returns dp/dt.
  using Gradient = std::function<double(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                        VectorRef dpdx, VectorRef dpdz)>;

  std::string name;
  Direction direction = Direction::Rising;
  Value value;
  Gradient gradient;  // optional; without it the predictive step and Newton are unavailable
  // Optional: the rate p_x xdot + p_z zdot + p_t along a direction (xdot, zdot) in one pass
  // (make_guard: one forward AD pass instead of the gradient's nx + nz + 1). The simulator
  // uses it, when present, for the guard's rate along the flow after a reset.
  using Rate = std::function<double(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                    const ConstVectorRef& xdot, const ConstVectorRef& zdot)>;
  Rate rate;
  // Optional: the only components of x that value() reads (and no z). Event location then
  // evaluates the dense output for these alone (a floor guard -x[0] of a many-state body needs
  // one polynomial, not nx); the other components read NaN there, so a guard that reads more
  // than it declares stops the run (NonFiniteState) instead of reading stale values. Empty:
  // value() may read all of x and z.
  std::vector<int> reads_states;
  // Optional: p and dp/dt enclosed over an interval of time, from enclosures of t and of x over
  // it (x: nx entries; those the guard does not read may hold anything; no z). With it, event
  // location proves in every step where p has no crossing (the certified search,
  // docs/ARCHITECTURE.md "Events"): no crossing of the computed solution is missed, however
  // narrow. Without it (or in a mode with algebraic states) the guard is sampled at
  // events.guard_samples points per step, and the run's summary names it (sampled_guards).
  // Model files give every guard and section one (lang/tape_enclosure.hpp).
  using Enclosure = std::function<IntervalJet(const IntervalJet& t, const IntervalJet* x, int nx)>;
  Enclosure enclosure;
  Reset reset;
  // Optional jump set (HyEQ's D; a Modelica `when` with a condition): the guard fires only where
  // when(t, x, z) != 0 at its crossing (or after a jump that would fire it); elsewhere the
  // crossing passes and the guard waits to move back off its trigger side. NaN is an error.
  using Condition =
      std::function<double(double t, const ConstVectorRef& x, const ConstVectorRef& z)>;
  Condition when;
  std::string when_text;  // the condition as written, for messages (may be empty)
  bool terminal = false;  // stop the run when this guard fires (after logging the event)
  // Crossings: the guard fires where the state crosses its surface (inside `when`), and a start
  // on its trigger side inside `when` is refused (InvalidInput: it has already fired).
  // A guard of a set (model files' `jump_set` and `flow_set`, HyEQ's D and the outside of C)
  // fires besides wherever the state lies on its trigger side inside `when`: at t0, before any
  // flow, and after every jump, whether or not the jump carried it across. ClosedSet counts its
  // surface as inside at t0 (x in D on D's boundary jumps first), OpenSet does not.
  enum class SetRule { Crossings, OpenSet, ClosedSet };
  SetRule set_rule = SetRule::Crossings;
  // Guards of one group (>= 0), such as those lowered from one jump set, apply at most one reset
  // per round of an event set: entering the set through a corner crosses two of its boundaries
  // at one instant, and that is one jump. -1: no group; groups are 0 to 30.
  int exclusive_group = -1;
  // An observer: its crossings are located and reported (event log, on_event) like any other,
  // but no reset is applied (no jump: state, mode and j unchanged) and it re-arms only after
  // moving back to its non-trigger side. For apex times, threshold crossings, Poincare sections.
  bool observe_only = false;
  // Optional: a time event. period > 0: the guard fires at exactly t = period_origin + k period
  // (k = 0, 1, ...; computed from k, so no drift over 1e6 periods) and nowhere else: the steps end
  // at those instants instead of searching for them (Guard::value is kept for the analyses that
  // read it). A stroboscopic section.
  double period = 0.0;
  double period_origin = 0.0;
  // A level in the guard's own units, as a fraction of its scale: the engine reads
  // p - scale_offset x scale(p), scale(p) = sum_i |dp/dx_i| S_i from the run's state scales
  // (docs/ARCHITECTURE.md "Tolerances"; needs `gradient`). For levels that a guard cannot
  // write as a constant without fixing a unit: a sliding speed that counts as rest, a
  // penetration beyond round-off. 0: the guard reads p.
  double scale_offset = 0.0;
  // The mode's flow is not smooth just past this guard's surface (a slip direction that turns
  // over where the slip speed reaches zero): a step whose stages sample the flow beyond it has
  // a dense output spoiled there, and the crossing located on it is off by about the part of
  // the step past the kink (3.5e-10 of the time of a sliding sphere's stick at rtol 1e-12).
  // While it approaches, steps are cut to end at its predicted crossing, seed 004's predictive
  // step h = -p / pdot with gamma = 1 (and its floor, 1/64 of the error-controlled step, so a
  // p that curves away from its crossing does not stall the run), whatever
  // events.predictive_step says; where p is linear in t the step lands on the crossing.
  bool steps_land_on_crossing = false;
};

// A Guard::value with a plain entry in doubles, found by type as DirectRhs is (core/flow.hpp):
// event location, which evaluates guards a few dozen times per step, calls `fast` without the
// std::function and Eigen::Ref layers. A guard whose value is replaced loses it. `fast` must
// return what the guard means at (t, x, z), x and z as dense arrays of nx and nz doubles.
// make_guard gives every guard one.
struct DirectGuardValue
    : PlainFunction<double(double t, const double* x, int nx, const double* z, int nz)> {
  double operator()(double t, const ConstVectorRef& x, const ConstVectorRef& z) const {
    return call(t, x.data(), static_cast<int>(x.size()), z.data(), static_cast<int>(z.size()));
  }
};

// Every guard of a mode in one call (Mode::guard_set, HybridSystem::set_guard_set): values[k]
// must be guard k's value at (t, x, z), bit for bit, for the mode's guards in declaration order.
// Event location samples each step with it: guards that share their work, such as a model's
// walls from one tape of all gaps, then cost one call per sample instead of one per guard.
using DirectGuardSet =
    PlainFunction<void(double t, const double* x, const double* z, double* values)>;

namespace detail {

// dp/dx, dp/dz by one forward pass per input component; dp/dt by one more. `DV` holds the Dual
// copies of x and z.
template <class DV, class P>
double autodiff_guard_gradient_with(const P& p, double t, const ConstVectorRef& x,
                                    const ConstVectorRef& z, VectorRef dpdx, VectorRef dpdz) {
  DV xd(x.size()), zd(z.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) xd[i] = Dual(x[i]);
  for (Eigen::Index i = 0; i < z.size(); ++i) zd[i] = Dual(z[i]);
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    xd[k].v[0] = 1.0;
    dpdx[k] = Dual(p(Dual(t), xd, zd)).derivative();
    xd[k].v[0] = 0.0;
  }
  for (Eigen::Index k = 0; k < z.size(); ++k) {
    zd[k].v[0] = 1.0;
    dpdz[k] = Dual(p(Dual(t), xd, zd)).derivative();
    zd[k].v[0] = 0.0;
  }
  return Dual(p(Dual(t, 1.0), xd, zd)).derivative();
}

// p_x xdot + p_z zdot + p_t by one forward pass seeded with the direction. `DV` as above.
template <class DV, class P>
double autodiff_guard_rate_with(const P& p, double t, const ConstVectorRef& x,
                                const ConstVectorRef& z, const ConstVectorRef& xdot,
                                const ConstVectorRef& zdot) {
  DV xd(x.size()), zd(z.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) xd[i] = Dual(x[i], xdot[i]);
  for (Eigen::Index i = 0; i < z.size(); ++i) zd[i] = Dual(z[i], zdot[i]);
  return Dual(p(Dual(t, 1.0), xd, zd)).derivative();
}

// Dual work vectors of at most 8 entries for small guards: a DualVector default-constructs all
// kMaxAutodiffSize entries, which cost more than the pass itself for a 2-state ball (callgrind).
using SmallDualVector = Eigen::Matrix<Dual, Eigen::Dynamic, 1, 0, 8, 1>;

template <class P>
double autodiff_guard_rate(const P& p, double t, const ConstVectorRef& x, const ConstVectorRef& z,
                           const ConstVectorRef& xdot, const ConstVectorRef& zdot) {
  if (x.size() <= 8 && z.size() <= 8) {
    return autodiff_guard_rate_with<SmallDualVector>(p, t, x, z, xdot, zdot);
  }
  if (x.size() <= kMaxAutodiffSize && z.size() <= kMaxAutodiffSize) {
    return autodiff_guard_rate_with<DualVector>(p, t, x, z, xdot, zdot);
  }
  return autodiff_guard_rate_with<Eigen::Matrix<Dual, Eigen::Dynamic, 1>>(p, t, x, z, xdot, zdot);
}

// On the stack up to kMaxAutodiffSize inputs (no allocation at events); beyond that on the heap
// (a guard does not know the size of its mode when it is made, so it cannot refuse earlier).
template <class P>
double autodiff_guard_gradient(const P& p, double t, const ConstVectorRef& x,
                               const ConstVectorRef& z, VectorRef dpdx, VectorRef dpdz) {
  if (x.size() <= 8 && z.size() <= 8) {
    return autodiff_guard_gradient_with<SmallDualVector>(p, t, x, z, dpdx, dpdz);
  }
  if (x.size() <= kMaxAutodiffSize && z.size() <= kMaxAutodiffSize) {
    return autodiff_guard_gradient_with<DualVector>(p, t, x, z, dpdx, dpdz);
  }
  return autodiff_guard_gradient_with<Eigen::Matrix<Dual, Eigen::Dynamic, 1>>(p, t, x, z, dpdx,
                                                                              dpdz);
}

// make_guard's p(t, x, z) as a DirectGuardValue: p sees the same ConstVectorRefs as through
// Guard::value, so it computes the same bits, without the std::function between.
template <class P>
struct DirectGuard {
  P p;
  static double call(const void* context, double t, const double* x, int nx, const double* z,
                     int nz) {
    const ConstVectorRef xr(Eigen::Map<const Vector>(x, nx));
    const ConstVectorRef zr(Eigen::Map<const Vector>(z, nz));
    return value_of(static_cast<const DirectGuard*>(context)->p(t, xr, zr));
  }
};

}  // namespace detail

// Guard from a generic callable p(t, x, z) (auto parameters); the gradient is derived by AD.
template <class P>
Guard make_guard(std::string name, Direction direction, P p, Reset reset, bool terminal = false) {
  Guard g;
  g.name = std::move(name);
  g.direction = direction;
  g.value =
      DirectGuardValue{&detail::DirectGuard<P>::call,
                       std::make_shared<const detail::DirectGuard<P>>(detail::DirectGuard<P>{p})};
  g.gradient = [p](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef dpdx,
                   VectorRef dpdz) {
    return detail::autodiff_guard_gradient(p, t, x, z, dpdx, dpdz);
  };
  g.rate = [p](double t, const ConstVectorRef& x, const ConstVectorRef& z,
               const ConstVectorRef& xdot, const ConstVectorRef& zdot) {
    return detail::autodiff_guard_rate(p, t, x, z, xdot, zdot);
  };
  g.reset = std::move(reset);
  g.terminal = terminal;
  return g;
}

// x or z of a guard evaluated as an enclosure (make_enclosed_guard): entries read by index.
struct IntervalJetSpan {
  const IntervalJet* data = nullptr;
  Eigen::Index n = 0;
  const IntervalJet& operator[](Eigen::Index i) const { return data[i]; }
  Eigen::Index size() const { return n; }
};

// make_guard with Guard::enclosure (the certified event search): p is also called as
// p(IntervalJet t, IntervalJetSpan x, IntervalJetSpan z) with z empty, so it may read x[i] and
// use arithmetic and the elementary functions (no Eigen expressions of x, no z).
template <class P>
Guard make_enclosed_guard(std::string name, Direction direction, P p, Reset reset,
                          bool terminal = false) {
  Guard g = make_guard(std::move(name), direction, p, std::move(reset), terminal);
  g.enclosure = [p](const IntervalJet& t, const IntervalJet* x, int nx) {
    return IntervalJet(p(t, IntervalJetSpan{x, nx}, IntervalJetSpan{}));
  };
  return g;
}

// Observer guard (no reset) from a generic callable p(t, x, z); see Guard::observe_only.
template <class P>
Guard make_observer(std::string name, Direction direction, P p, bool terminal = false) {
  Guard g = make_guard(std::move(name), direction, std::move(p), Reset{}, terminal);
  g.observe_only = true;
  return g;
}

}  // namespace saltus
