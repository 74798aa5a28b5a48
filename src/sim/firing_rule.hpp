// The firing rule of docs/ARCHITECTURE.md, "When a guard fires" (private to src/sim): before an
// event set, which guards sit on their trigger side; after its resets, which guards fire at once
// and how the others are armed (steps 3 and 4). A guard fires only when its oriented value has
// crossed zero (by the jump, or it is on the surface moving into the trigger side) from its
// armed side; never because it still sits on its trigger side, and never again at once because
// of its own reset (an identity or counter reset is an ordinary event). An observer fires only
// where the flow crosses its value, never because of a jump.
//
// Independent of the integrator: guard rates come through GuardRates (the loop evaluates the
// flow), so the rule is unit-tested with made-up rates (tests/sim/firing_rule_test.cpp).
// Buffers are sized in the constructor; nothing allocates afterwards.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "guard_arming.hpp"
#include "saltus/core/hybrid_system.hpp"

namespace saltus::detail {

// What the rule asks of the run, only when it needs it (a flow evaluation, a look at the Zeno
// prediction).
class GuardRates {
 public:
  // d/dt p along the current mode's flow at (t, x): false when the flow cannot be evaluated.
  virtual bool rate(const Guard& g, const ConstVectorRef& x, double& rate) = 0;
  // The Zeno monitor's prediction holds now (accumulation.hpp).
  virtual bool accumulating() const = 0;
  // While accumulating(): the predicted duration of the next cycle of events (0 otherwise).
  virtual double next_cycle() const { return 0.0; }
  // How far guard g may read on its trigger side at x only because of the clock's resolution:
  // an event's left limit lies up to the root bracket before its crossing, so a guard on the
  // same surface reads up to its rate times that (0 where not known).
  virtual double clock_margin(const Guard&, const ConstVectorRef&) { return 0.0; }

 protected:
  ~GuardRates() = default;
};

// Where the guards are examined: the current (t, x, z). The band of "on the surface" of each
// guard is GuardStates::band, set for this point.
struct GuardCheckPoint {
  double t;
  ConstVectorRef x, z;
};

class FiringRule {
 public:
  enum class Departure { Away, Approaching, IntoTrigger, Unknown };
  enum class Outcome {
    Ok,
    NonFiniteGuard,      // guard failed_guard() is not finite (value failed_value())
    NonFiniteCondition,  // guard failed_guard()'s `when` is NaN (value failed_value())
    NoSeparation,        // the latest reset leaves its own guard moving in (rates below)
  };

  explicit FiringRule(int max_guards)
      : applied_(max_guards),
        retrigger_(max_guards),
        trigger_side_(max_guards),
        at_rest_(max_guards),
        passed_(max_guards) {
    fired_.reserve(max_guards);
    next_fired_.reserve(max_guards);
  }

  // A new run: nothing of a run before is kept (a Simulator is reused).
  void begin_run() {
    fired_.clear();
    next_fired_.clear();
    for (auto* flags : {&applied_, &retrigger_, &trigger_side_, &at_rest_, &passed_}) {
      std::fill(flags->begin(), flags->end(), 0);
    }
    last_reset_ = -1;
    accumulation_reached_ = false;
  }

  // The guards that fire now (declaration order) and whether each is a re-trigger.
  std::vector<int>& fired() { return fired_; }
  bool retrigger(int k) const { return retrigger_[k] != 0; }
  void set_retrigger(int k, bool r) { retrigger_[k] = r ? 1 : 0; }

  // A new event set: nothing applied yet.
  void begin_set() {
    std::fill(applied_.begin(), applied_.end(), 0);
    last_reset_ = -1;
  }
  // Guard k's reset (or observation) was applied; `changed_state`: a real reset, the latest
  // change of the state.
  void applied(int k, bool changed_state) {
    applied_[k] = 1;
    if (changed_state) last_reset_ = k;
  }
  void start_round() { last_reset_ = -1; }
  // The mode changed: its guards are fresh, none sits on its trigger side, none was applied.
  void enter_new_mode() {
    std::fill(applied_.begin(), applied_.end(), 0);
    std::fill(trigger_side_.begin(), trigger_side_.end(), 0);
    std::fill(passed_.begin(), passed_.end(), 0);
    last_reset_ = -1;
  }
  void forget_applied() { std::fill(applied_.begin(), applied_.end(), 0); }

  // Guard k at the latest examination had no rate on the surface (AtZero for want of one).
  bool at_rest(int k) const { return at_rest_[k] != 0; }
  // The rate arm_on_surface() found after the reset, and the one before it (NoSeparation).
  double surface_rate() const { return surface_rate_; }
  double rate_before() const { return rate_before_; }
  int failed_guard() const { return failed_guard_; }
  double failed_value() const { return failed_value_; }

  // Jump sets (Guard::when): removes from fired() the guards of mode m whose condition fails at
  // `at` (the left limit of their crossing). Their crossing passes without a jump: the next
  // examination has them wait to move away from their trigger side.
  Outcome pass_outside_jump_sets(const Mode& m, const GuardCheckPoint& at) {
    size_t kept = 0;
    for (int k : fired_) {
      const Guard& g = m.guards[static_cast<size_t>(k)];
      if (!g.observe_only && g.when) {
        const Condition c = condition(k, g, at);
        if (c == Condition::NotANumber) return Outcome::NonFiniteCondition;
        if (c == Condition::Fails) {
          passed_[k] = 1;
          continue;
        }
      }
      fired_[kept++] = k;
    }
    fired_.resize(kept);
    return Outcome::Ok;
  }

  // note_trigger_sides() when every guard of the mode fired: none sits on its trigger side.
  void clear_trigger_sides() { std::fill(trigger_side_.begin(), trigger_side_.end(), 0); }

  // Before the first reset of an event set: which guards of the mode sit on their trigger side
  // at the left limit (they stay put, and never fire because a reset leaves them there).
  Outcome note_trigger_sides(const Mode& m, const GuardCheckPoint& at, const GuardStates& guards) {
    std::fill(trigger_side_.begin(), trigger_side_.end(), 0);
    for (size_t kk = 0; kk < m.guards.size(); ++kk) {
      const Guard& g = m.guards[kk];
      if (g.direction == Direction::Either || g.period > 0.0) continue;
      if (std::find(fired_.begin(), fired_.end(), static_cast<int>(kk)) != fired_.end()) continue;
      const double p = g.value(at.t, at.x, at.z) - guards.offset[kk];
      if (!std::isfinite(p)) return non_finite(static_cast<int>(kk), p);
      const double s = oriented(g.direction, p);
      const double band = guards.band[kk];
      trigger_side_[kk] =
          s > band || (guards.arming[kk] == Arming::OnTriggerSideAfterReset && s >= -band);
    }
    return Outcome::Ok;
  }

  // Step 4 after the resets of one round: arms every guard of mode m at `at` and leaves in
  // fired() those that fire at once. x_minus: the state before the latest reset (for the rate
  // check of a reset that leaves its guard on the surface). While rates.accumulating(), a reset
  // that no longer separates is the accumulation point (take_accumulation_reached()).
  Outcome examine_after_reset(const Mode& m, const GuardCheckPoint& at,
                              const ConstVectorRef& x_minus, GuardStates& guards,
                              GuardRates& rates) {
    next_fired_.clear();
    for (size_t kk = 0; kk < m.guards.size(); ++kk) {
      const int k = static_cast<int>(kk);
      const Guard& g = m.guards[k];
      const double p = g.value(at.t, at.x, at.z) - guards.offset[k];
      guards.p_start[k] = p;
      if (!std::isfinite(p)) return non_finite(k, p);
      const double s = oriented(g.direction, p);
      const double tol = guards.band[k];
      const bool was_on_trigger_side = trigger_side_[k] != 0;
      retrigger_[k] = 0;
      trigger_side_[k] = 0;
      auto wait_to_move_away = [&] {
        guards.arming[k] = Arming::OnTriggerSideAfterReset;
        trigger_side_[k] = 1;
      };
      // Whether a guard that would fire here lies in its jump set (no `when`: everywhere).
      Condition in_jump_set = Condition::Holds;
      auto outside_jump_set = [&] {
        if (!g.when) return false;
        in_jump_set = condition(k, g, at);
        return in_jump_set != Condition::Holds;
      };
      const bool passed = passed_[k] != 0;
      passed_[k] = 0;
      if (g.set_rule != Guard::SetRule::Crossings && g.direction != Direction::Either && s > tol &&
          !outside_jump_set()) {
        next_fired_.push_back(k);  // a set's guard fires wherever the state lies inside it
      } else if (in_jump_set == Condition::NotANumber) {
        return Outcome::NonFiniteCondition;
      } else if (g.period > 0.0) {
        guards.arming[k] = Arming::Armed;  // a time event: its instants decide, not its value
      } else if (passed) {
        wait_to_move_away();  // its crossing here passed outside its jump set
      } else if (applied_[k] && g.observe_only && g.direction == Direction::Either) {
        // An observer of both directions is on its surface moving on to the side its rate
        // points to; its next crossing is the one back. Waiting to move away (below) waited
        // for p < 0 and took every falling crossing after a rising one for its departure: a
        // turning-point section recorded every second turn.
        arm_on_surface(k, g, s, at, guards, rates);
      } else if (applied_[k] && g.observe_only) {
        wait_to_move_away();  // an observer re-arms once back on its other side
      } else if (g.observe_only) {
        // An observer records crossings of its own value along the flow, which the locator
        // finds up to this instant's left limit; a jump (a reset, a new mode's copy of the
        // section) that leaves it on its trigger side or on its surface moving in crossed
        // nothing: it waits to move away (issue 34: apex rows written at impacts into slip).
        if (g.direction != Direction::Either && s > tol) {
          wait_to_move_away();
        } else if (std::abs(p) <= tol) {
          if (arm_on_surface(k, g, s, at, guards, rates) == Departure::IntoTrigger) {
            wait_to_move_away();
          }
        } else {
          guards.arming[k] = Arming::Armed;
        }
      } else if (k == last_reset_) {
        // Its own reset is the latest change of the state: armed once it moves away.
        if (std::abs(p) <= tol) {
          const Departure d = arm_on_surface(k, g, s, at, guards, rates);
          if ((d == Departure::IntoTrigger || d == Departure::Approaching) && outside_jump_set()) {
            // Its reset leaves it on the surface moving in where it may not fire: no failure.
            if (in_jump_set == Condition::NotANumber) return Outcome::NonFiniteCondition;
            wait_to_move_away();
          } else if (d != Departure::Away && rates.accumulating()) {
            // Accumulating events whose next one is below what the dense output resolves (the
            // reset no longer separates): this is the Zeno point.
            accumulation_reached_ = true;
          } else if (d == Departure::Away && rates.accumulating() &&
                     std::abs(surface_rate_) * rates.next_cycle() <= 4.0 * tol) {
            // Leaving at rate v and back within the next cycle D: an arc of constant curvature
            // departs by v D / 4 at most, so the whole next excursion stays "on the surface"
            // (within the band): the events below that are round-off, and this is the Zeno
            // point (a spinning corner bouncing to rest, issue 11).
            accumulation_reached_ = true;
          } else if (d == Departure::IntoTrigger || d == Departure::Approaching) {
            if (!reset_kept_rate(g, x_minus, tol, rates)) {
              failed_guard_ = k;
              return Outcome::NoSeparation;
            }
            wait_to_move_away();  // an identity or counter reset: an ordinary event
          }
        } else if (g.direction != Direction::Either && s > tol) {
          wait_to_move_away();
        } else {
          guards.arming[k] = Arming::Armed;
        }
      } else if (was_on_trigger_side) {
        if (s < -tol) {
          guards.arming[k] = Arming::Armed;
        } else {
          wait_to_move_away();
        }
      } else if (std::abs(p) <= tol || (g.direction != Direction::Either && s > tol &&
                                        s <= tol + rates.clock_margin(g, at.x))) {
        // On the surface, or past it by no more than the clock resolves (a mode switched at a
        // late time leaves the next mode's guard on the same surface 3e-11 past it at 1 m/s).
        if (arm_on_surface(k, g, s, at, guards, rates) == Departure::IntoTrigger) {
          if (outside_jump_set()) {
            if (in_jump_set == Condition::NotANumber) return Outcome::NonFiniteCondition;
            wait_to_move_away();
          } else {
            next_fired_.push_back(k);  // reached from its armed side, moving in
            retrigger_[k] = 1;
          }
        }
      } else if (g.direction != Direction::Either && s > tol) {
        if (outside_jump_set()) {
          if (in_jump_set == Condition::NotANumber) return Outcome::NonFiniteCondition;
          wait_to_move_away();  // carried across where it may not fire
        } else {
          next_fired_.push_back(k);  // the jump carried it across
        }
      } else {
        guards.arming[k] = Arming::Armed;
      }
    }
    fired_.swap(next_fired_);
    return Outcome::Ok;
  }

  // Set by examine_after_reset() when accumulating events reach their limit; cleared on reading.
  bool take_accumulation_reached() {
    const bool r = accumulation_reached_;
    accumulation_reached_ = false;
    return r;
  }

  // Guard k within the band of zero at `at`, oriented value s: its rate along the flow says
  // where the trajectory goes next. Moving away: Leaving (armed at the first negative sample, a
  // return located however small the excursion). Moving into the trigger side: still before the
  // crossing (s < 0: Approaching, armed, the scan locates it) or at or past it (IntoTrigger: the
  // caller decides whether it fires now). No rate (no gradient, or |rate| within the band, e.g.
  // a ball at rest): AtZero, disarmed until the dense output shows it leave the band.
  Departure arm_on_surface(int k, const Guard& g, double s, const GuardCheckPoint& at,
                           GuardStates& guards, GuardRates& rates) {
    guards.arming[k] = Arming::AtZero;
    at_rest_[k] = 1;  // until a rate says otherwise
    double rate = 0.0;
    if (!g.gradient || !rates.rate(g, at.x, rate)) return Departure::Unknown;
    surface_rate_ = rate;
    at_rest_[k] = !(std::abs(rate) > guards.band[k]);
    if (at_rest_[k]) return Departure::Unknown;
    const double sign = orientation(g.direction);
    if (g.direction != Direction::Either && sign * rate > 0.0) {
      if (s >= 0.0) return Departure::IntoTrigger;
      guards.arming[k] = Arming::Armed;
      return Departure::Approaching;
    }
    // Leaving: sign * p becomes negative first (for Either, whichever side it leaves to).
    guards.leave_sign[k] = g.direction == Direction::Either ? (rate > 0.0 ? -1.0 : 1.0) : sign;
    guards.arming[k] = Arming::Leaving;
    return Departure::Away;
  }

 private:
  enum class Condition { Holds, Fails, NotANumber };
  // Guard k's `when` at `at`; NaN also sets failed_guard() and failed_value().
  Condition condition(int k, const Guard& g, const GuardCheckPoint& at) {
    const double c = g.when(at.t, at.x, at.z);
    if (std::isnan(c)) {
      non_finite(k, c);
      return Condition::NotANumber;
    }
    return c != 0.0 ? Condition::Holds : Condition::Fails;
  }

  Outcome non_finite(int k, double p) {
    failed_guard_ = k;
    failed_value_ = p;
    return Outcome::NonFiniteGuard;
  }

  // A guard's rate before its own latest reset (at x_minus) equals the rate after it
  // (surface_rate_): the reset did not act on what the guard watches (an identity reset, a
  // counter, a time-only guard).
  bool reset_kept_rate(const Guard& g, const ConstVectorRef& x_minus, double band,
                       GuardRates& rates) {
    rate_before_ = kNaN;
    if (!rates.rate(g, x_minus, rate_before_)) return false;
    const double scale = std::max(std::abs(rate_before_), std::abs(surface_rate_));
    return std::abs(rate_before_ - surface_rate_) <=
           64 * std::numeric_limits<double>::epsilon() * scale + band;
  }

  std::vector<char> applied_, retrigger_;
  std::vector<char> trigger_side_;  // the guard sits on its trigger side (note_trigger_sides)
  std::vector<char> at_rest_;       // arm_on_surface found no rate (AtZero for want of one)
  std::vector<char> passed_;        // crossed outside its jump set (pass_outside_jump_sets)
  int last_reset_ = -1;             // guard whose reset changed the state last in this round
  double surface_rate_ = 0.0;       // the rate arm_on_surface() found
  double rate_before_ = 0.0;        // the rate reset_kept_rate() found before the reset
  bool accumulation_reached_ = false;
  int failed_guard_ = -1;
  double failed_value_ = 0.0;
  std::vector<int> fired_, next_fired_;
};

}  // namespace saltus::detail
