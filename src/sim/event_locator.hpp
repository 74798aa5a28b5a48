// Finds the first guard crossing in one accepted integrator step (DESIGN.md layer 3; steps 1
// and 2 of the semantics in simulator.hpp), private to src/sim. (Over 450 lines: one class whose
// sampling, dip search, grazing check, certified search and bracketing all read the same
// samples of one step.)
//
// The step's dense output is sampled at guard_samples interior points plus both ends; every
// guard is evaluated there and walked through its arming state (guard_arming.hpp): an armed
// guard with a sign change in its trigger direction is located by the chosen root finder; a
// sampled local maximum near zero between negative samples is examined for a grazing crossing
// from the guard's rate; a guard that left the surface and came back within one sample interval
// is found through its dip. Then every guard with an enclosure (Guard::enclosure) is searched
// with a certificate (crossing_search.hpp) from where it is armed to the earliest crossing the
// samples found: a crossing the samples stepped over is found there. The earliest crossing and
// every guard within simultaneous_rtol of it form the fired set. Buffers are sized in the
// constructor; scan() does not allocate.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <vector>

#include "crossing_search.hpp"
#include "declared_reads.hpp"
#include "dense_enclosure.hpp"
#include "guard_arming.hpp"
#include "guard_values.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/events/bisection.hpp"
#include "saltus/events/brent.hpp"
#include "saltus/events/event_options.hpp"
#include "saltus/events/false_position.hpp"
#include "saltus/events/newton_root.hpp"
#include "saltus/ode/dense_stepper.hpp"
#include "time_events.hpp"

namespace saltus::detail {

template <ode::DenseStepper S>
class EventLocator {
 public:
  enum class Scan {
    NoEvent,         // nothing fires in the step: commit() and go on
    Event,           // event_time(), fired(), retrigger()
    NewtonFailure,   // algebraic states unsolvable at a sample: failure()
    NonFiniteGuard,  // a guard returned NaN/Inf: failure()
    NoEnclosure,     // a guard has no finite enclosure on part of the step: failure()
  };
  struct Failure {
    int guard = -1;  // -1: the algebraic equations
    double t = 0.0;
    double value = 0.0;  // the guard value, or the Newton residual; NoEnclosure: the end of
                         // the interval [t, value] without a finite enclosure
  };

  EventLocator(const events::EventOptions& options, int max_nx, int max_nz, int max_guards)
      : options_(options),
        max_samples_(options.guard_samples + 2),
        samples_(max_samples_),
        x_work_(max_nx),
        z_work_(max_nz),
        xdot_(max_nx),
        dpdx_(max_nx),
        dpdz_(max_nz),
        zdot_(max_nz),
        sample_t_(max_samples_),
        sample_x_(max_nx, max_samples_),
        sample_z_(max_nz, max_samples_),
        sample_s_(std::max(1, max_guards), max_samples_),
        next_arming_(max_guards),
        retrigger_(max_guards),
        unresolved_(max_guards),
        candidate_t_(max_guards),
        certified_(max_guards),
        armed_at_(max_guards),
        x_enclosure_(max_nx),
        dense_(max_nx),
        declared_(max_nx),
        values_(max_guards) {
    fired_.reserve(max_guards);
  }

  // Examines the step `stepper` just took in `mode` from (x0, z0), with the guards' states at
  // its start.
  Scan scan(S& stepper, const Mode& mode, const ConstVectorRef& x0, const ConstVectorRef& z0,
            const GuardStates& guards) {
    stepper_ = &stepper;
    mode_ = &mode;
    guards_ = &guards;
    nx_ = static_cast<int>(x0.size());
    nz_ = static_cast<int>(z0.size());
    declared_.note(mode, nx_, reads_partially());
    values_.note(mode);
    note_certified(mode);
    values_.use_offsets(guards.offset.data());
    if constexpr (kEncloses) dense_.new_step(stepper);
    const Scan sampled = sample_step(stepper.interval(), x0, z0);
    if (sampled != Scan::NoEvent) return sampled;
    const Scan found = locate_first_event();
    first_scan_ = false;
    return found;
  }

  // The run's clock: the locator works in tau, the guards read t = t0 + tau (hybrid_loop.hpp).
  void set_time_origin(double t0) {
    origin_ = t0;
    values_.set_time_origin(t0);
  }

  // A new run: the modes' declared reads are examined afresh at their first step.
  void begin_run() {
    declared_.forget();
    values_.forget();
    x_work_nan_for_ = nullptr;
    certified_for_ = nullptr;
    first_scan_ = true;
  }

  // Whether guard g of `mode` is searched with a certificate: the stepper encloses its dense
  // output, the mode has no algebraic states, the guard has Guard::enclosure. A time event is
  // neither searched nor sampled.
  static bool certified(const Mode& mode, const Guard& g) {
    return kEncloses && mode.flow.nz == 0 && static_cast<bool>(g.enclosure) && g.period == 0.0;
  }

  // After Scan::NoEvent: the guards' states at the end of the step.
  void commit(GuardStates& guards) const {
    const int last = samples_ - 1;
    for (size_t k = 0; k < mode_->guards.size(); ++k) {
      guards.arming[k] = next_arming_[k];
      guards.p_start[k] = sample_s_(static_cast<Eigen::Index>(k), last);
    }
  }
  // Algebraic state at the end of the step (consistent with the step's end state).
  auto end_algebraic() const { return sample_z_.col(samples_ - 1).head(nz_); }

  double event_time() const { return event_time_; }
  const std::vector<int>& fired() const { return fired_; }
  bool retrigger(int k) const { return retrigger_[k] != 0; }
  // Guard k fired after departing without the dense output ever showing it below zero (an
  // excursion below the resolution of the state).
  bool unresolved_excursion(int k) const { return unresolved_[k] != 0; }
  const Failure& failure() const { return failure_; }
  long guard_evaluations() const { return guard_evaluations_; }
  long root_evaluations() const { return root_evaluations_; }
  long enclosure_evaluations() const { return enclosure_evaluations_; }
  // Certified searches that ran out of pieces (the step's samples decided those guards).
  long undecided_searches() const { return undecided_searches_; }

 private:
  // Evaluates the dense output and every guard at the sample points of the step.
  Scan sample_step(const ode::StepSpan& iv, const ConstVectorRef& x0, const ConstVectorRef& z0) {
    const Mode& m = *mode_;
    const int last = samples_ - 1;
    for (int i = 0; i < samples_; ++i) {
      const double t = i == last ? iv.t1 : iv.t0 + (iv.t1 - iv.t0) * i / last;
      sample_t_[i] = t;
      if (i == last) {
        sample_x_.col(i).head(nx_) = stepper_->state();
      } else if (i == 0) {
        sample_x_.col(i).head(nx_) = x0;
      } else if (!declared_.all_declared()) {
        stepper_->interpolate(t, sample_x_.col(i).head(nx_));
      } else {  // every guard declares what it reads: the others stay NaN
        double* x = sample_x_.col(i).data();
        for (int c : declared_.unread()) x[c] = kNaN;
        interpolate_reads(t, declared_.reads(), x);
      }
      if (nz_ > 0) {
        if (i == 0) {
          sample_z_.col(i).head(nz_) = z0;
        } else {
          sample_z_.col(i).head(nz_) = sample_z_.col(i - 1).head(nz_);
        }
        if (i > 0 && !stepper_->evaluator().solve_algebraic(t, sample_x_.col(i).head(nx_),
                                                            sample_z_.col(i).head(nz_))) {
          failure_ = Failure{-1, t, stepper_->evaluator().last_residual()};
          return Scan::NewtonFailure;
        }
      }
    }
    for (size_t k = 0; k < m.guards.size(); ++k) sample_s_(k, 0) = guards_->p_start[k];
    // Sample by sample, every guard at one state (the earliest non-finite value is the one
    // reported; guards that share work, such as a model's walls, do it once per sample).
    const long guards = static_cast<long>(m.guards.size());
    for (int i = 1; i < samples_; ++i) {
      double* p = sample_s_.col(i).data();
      const int bad =
          values_.all(sample_t_[i], sample_x_.col(i).data(), nx_, sample_z_.col(i).data(), nz_, p);
      guard_evaluations_ += guards;
      if (bad >= 0) {
        failure_ = Failure{bad, sample_t_[i], p[bad]};
        return Scan::NonFiniteGuard;
      }
    }
    return Scan::NoEvent;
  }

  // Value of guard k at time t on the dense output (oriented so the crossing is rising). A
  // guard that declares the states it reads (Guard::reads_states) gets those interpolated and
  // NaN in the others.
  double guard_at(const Guard& g, double sign, double t) {
    if (!g.reads_states.empty() && reads_partially()) {
      if (x_work_nan_for_ != &g) {  // NaN where this guard reads nothing
        x_work_.head(nx_).setConstant(kNaN);
        x_work_nan_for_ = &g;
      }
      interpolate_reads(t, g.reads_states, x_work_.data());
      ++root_evaluations_;
      return sign * values_(g, t, x_work_.data(), nx_, z_work_.data(), nz_);
    }
    return guard_at_full_state(g, sign, t);
  }
  double guard_at_full_state(const Guard& g, double sign, double t) {
    x_work_nan_for_ = nullptr;
    stepper_->interpolate(t, x_work_.head(nx_));
    if (nz_ > 0) {
      z_work_.head(nz_) = sample_z_.col(0).head(nz_);  // warm start: z at the step start
      if (!stepper_->evaluator().solve_algebraic(t, x_work_.head(nx_), z_work_.head(nz_)) &&
          !algebraic_failed_) {
        algebraic_failed_ = true;
        failure_ = Failure{-1, t, stepper_->evaluator().last_residual()};
      }
    }
    ++root_evaluations_;
    return sign * values_(g, t, x_work_.data(), nx_, z_work_.data(), nz_);
  }
  // Oriented guard value and its time derivative d/dt p(t, x(t), z(t)), with
  // z' = -g_z^-1 (g_t + g_x x') for a guard on algebraic states.
  double guard_and_rate_at(const Guard& g, double sign, double t, double& rate) {
    const double s = guard_at_full_state(g, sign, t);  // the gradient reads every state
    stepper_->interpolate_derivative(t, xdot_.head(nx_));
    const double dpdt = g.gradient(origin_ + t, x_work_.head(nx_), z_work_.head(nz_),
                                   dpdx_.head(nx_), dpdz_.head(nz_));
    rate = dpdx_.head(nx_).dot(xdot_.head(nx_)) + dpdt;
    if (nz_ > 0) {
      stepper_->evaluator().algebraic_rate(t, x_work_.head(nx_), z_work_.head(nz_), xdot_.head(nx_),
                                           zdot_.head(nz_));
      rate += dpdz_.head(nz_).dot(zdot_.head(nz_));
    }
    rate *= sign;
    return s;
  }

  events::RootResult find_root(const Guard& g, double sign, double a, double sa, double b,
                               double sb) {
    const events::EventOptions& eo = options_;
    auto s = [&](double t) { return guard_at(g, sign, t); };
    switch (eo.root_finder) {
      case events::RootFinderKind::Bisection:
        return events::bisection(s, a, b, eo.root);
      case events::RootFinderKind::Illinois:
        return events::illinois(s, a, sa, b, sb, eo.root);
      case events::RootFinderKind::Newton: {
        auto sd = [&](double t, double& ds) { return guard_and_rate_at(g, sign, t, ds); };
        return events::newton_root(sd, a, sa, b, sb, eo.root);
      }
      case events::RootFinderKind::AndersonBjorck:
        return events::anderson_bjorck(s, a, sa, b, sb, eo.root);
      case events::RootFinderKind::Brent:
      default:
        return events::brent(s, a, sa, b, sb, eo.root);
    }
  }

  // Finds the earliest event in the step: sets event_time_, fired_ (all simultaneous guards,
  // ascending), retrigger_ and next_arming_ (the arming at the step end if nothing fires).
  Scan locate_first_event() {
    algebraic_failed_ = false;
    const Scan found = locate_first_event_of_guards();
    // A guard value read with algebraic states whose Newton solve failed is not the guard's:
    // the scan reports the failure instead of an event or none (issue 34).
    return algebraic_failed_ ? Scan::NewtonFailure : found;
  }
  Scan locate_first_event_of_guards() {
    const Mode& m = *mode_;
    const int last = samples_ - 1;
    double t_first = kInfinity;
    for (size_t kk = 0; kk < m.guards.size(); ++kk) {
      const int k = static_cast<int>(kk);
      const Guard& g = m.guards[k];
      const double tol = guards_->band[kk];  // set where the guards were last examined
      candidate_t_[k] = kInfinity;
      retrigger_[k] = 0;
      unresolved_[k] = 0;
      Arming arm = guards_->arming[k];
      if (g.period > 0.0) {  // a time event: fires at its instant, where the loop ends the step
        const double instant = next_instant(g, sample_t_[0], first_scan_, origin_);
        candidate_t_[k] = instant <= sample_t_[last] ? instant : kInfinity;
        next_arming_[k] = arm;
        t_first = std::min(t_first, candidate_t_[k]);
        continue;
      }
      // A guard searched with a certificate is searched first (a guard at rest on its surface
      // after the walk has seen it leave): a crossing it finds is the guard's, and the walk
      // below only follows the arming where it finds none (and finds what is no crossing of
      // the dense output: a return below its resolution, a re-trigger).
      armed_at_[k] = -1;
      if (certified_[k] && arm != Arming::AtZero) {
        if (!certify(k, g, arm)) return Scan::NoEnclosure;
        if (candidate_t_[k] < kInfinity) {
          next_arming_[k] = arm;
          t_first = std::min(t_first, candidate_t_[k]);
          continue;
        }
      }
      double last_in_band = sample_t_[0];
      double sign = g.direction == Direction::Falling ? -1.0 : 1.0;
      // Far below: the walk below would find no crossing and no grazing among the samples.
      const bool walk =
          !(arm == Arming::Armed && g.direction != Direction::Either && far_below(k, sign));
      for (int i = 1; walk && i <= last && candidate_t_[k] == kInfinity; ++i) {
        const double p_prev = sample_s_(k, i - 1), p = sample_s_(k, i);
        if (arm == Arming::AtZero) {
          const double s = oriented(g.direction, p);
          if (std::abs(p) <= tol) {
            last_in_band = sample_t_[i];
          } else if (g.direction == Direction::Either || s < -tol) {
            arm = Arming::Armed;  // left the surface away from the trigger side
            armed_at_[k] = i;
          } else {
            // Left towards the trigger side (fires again, a re-trigger), or away and back
            // between the samples: a crossing later in the step.
            candidate_t_[k] = excursion_return(k, g, sign, last_in_band, i, tol);
            retrigger_[k] = candidate_t_[k] == last_in_band ? 1 : 0;
          }
          continue;
        }
        if (arm == Arming::Leaving) {
          // The rate at the surface said the guard departs towards s < 0, so any negative
          // sample is a real departure, however small (a bounce lower than the band). A
          // non-negative sample with a non-negative rate means it came back since the previous
          // sample (where it was still departing), however small the excursion: look for the
          // return crossing between them.
          // (A guard of one direction always leaves towards its orientation.)
          const double leave =
              g.direction == Direction::Either ? guards_->leave_sign[k] : orientation(g.direction);
          const double s_leave = leave * p;
          if (s_leave < 0.0) {
            arm = Arming::Armed;
            continue;
          }
          // Not below zero: still on its way out (it started inside the band on the trigger
          // side) while its rate is negative and it is within the band, else back (beyond the
          // band on the trigger side it has left and returned since the previous sample).
          double rate = 0.0;
          guard_and_rate_at(g, leave, sample_t_[i], rate);
          if (rate < 0.0 && s_leave <= tol) continue;
          candidate_t_[k] = return_crossing(k, g, leave, i, tol);
          if (candidate_t_[k] == sample_t_[i - 1]) retrigger_[k] = 1;
          continue;
        }
        if (arm == Arming::OnTriggerSideAfterReset) {
          if (oriented(g.direction, p) < -tol) arm = Arming::Armed;
          continue;
        }
        // Armed: a sign change in the trigger direction between samples i-1 and i.
        if (g.direction == Direction::Either) sign = p_prev < 0.0 ? 1.0 : -1.0;
        const double sa = sign * p_prev, sb = sign * p;
        if (sa < 0.0 && sb >= 0.0) {
          const events::RootResult r = find_root(g, sign, sample_t_[i - 1], sa, sample_t_[i], sb);
          if (sa >= -tol && sb <= tol && g.gradient && g.direction != Direction::Either) {
            // A sign change within the band where the guard moves away (rate < 0) is not a
            // crossing (one from below has rate >= 0 at its root) but the guard's round-off: a
            // spinning corner leaving the floor at 1e-4 m/s reads +-1e-17 for a few 1e-13 s.
            // It is on the surface and leaving: the return, if any, is found as after a reset.
            double rate = 0.0;
            guard_and_rate_at(g, sign, r.after, rate);
            if (rate < 0.0) {
              arm = Arming::Leaving;
              continue;
            }
          }
          candidate_t_[k] = r.before;
        } else if (sa < 0.0 && sb < 0.0 && options_.detect_grazing && g.gradient) {
          candidate_t_[k] = grazing_crossing(k, g, sign, i);
        }
      }
      next_arming_[k] = arm;
      if (certified_[k] && guards_->arming[k] == Arming::AtZero && !certify(k, g, Arming::AtZero)) {
        return Scan::NoEnclosure;
      }
      t_first = std::min(t_first, candidate_t_[k]);
    }
    if (t_first == kInfinity) return Scan::NoEvent;
    const double window = options_.simultaneous_rtol * std::abs(t_first);
    fired_.clear();
    for (size_t k = 0; k < m.guards.size(); ++k) {
      if (candidate_t_[k] <= t_first + window) fired_.push_back(static_cast<int>(k));
    }
    event_time_ = t_first;
    return Scan::Event;
  }

  // Guard k, at rest on its surface until time a (AtZero), is on its trigger side at sample i.
  // It may have left the surface away from its trigger side and come back before sample i: a
  // guard at rest with an acceleration away from its trigger side that is later overtaken (the
  // end of a spinning rod after a plastic landing rises, then falls again). Probes from the
  // middle of (a, t_i) towards a look for that excursion (a value below half the band, so that
  // round-off next to a is not taken for it); its return is located. With none, the guard left
  // towards its trigger side at a: a. (Without this the rod end fired again at the landing
  // instant, and impact, Zeno hand-over and index sets cycled there until the event cap.)
  double excursion_return(int k, const Guard& g, double sign, double a, int i, double band) {
    const double b = sample_t_[i];
    constexpr int kProbes = 24;
    for (int j = 1; j <= kProbes; ++j) {
      const double probe = a + std::ldexp(b - a, -j);
      if (!(probe > a)) break;
      const double s_probe = guard_at(g, sign, probe);
      if (s_probe < -0.5 * band) {
        return find_root(g, sign, probe, s_probe, b, sign * sample_s_(k, i)).before;
      }
    }
    return a;
  }

  // Guard k was departing at sample i-1 (rate < 0) and is back on its trigger side (or on the
  // surface) at sample i with rate >= 0: the return crossing lies after the dip between them. Found
  // by, cheapest first: a probe just past the departure (a guard leaving linearly, such as a ball
  // bouncing off the floor, is below zero there); the dip as the root of the rate; a finer scan
  // for a negative value when the rate does not change sign once. With no negative value at
  // all the dense output never left the surface: the event is at the dip (or the departure),
  // where the guard has stopped moving away.
  double return_crossing(int k, const Guard& g, double sign, int i, double band) {
    const double a = sample_t_[i - 1], b = sample_t_[i];
    const double sb = sign * sample_s_(k, i);
    if (!g.gradient) return a;
    double ra = 0.0, rb = 0.0;
    const double sa = guard_and_rate_at(g, sign, a, ra);
    guard_and_rate_at(g, sign, b, rb);
    if (!(ra < 0.0)) return a;
    // The probe goes as far as the departure needs to leave the band at its rate: nearer, the
    // guard reads its own round-off (a corner leaving at 3e-4 m/s is +-1e-17 for ~1e-13 s) and
    // the root between a noise-negative probe and b is a noise crossing next to it, not the
    // return (step-size underflow in random box drops, issue 11).
    const double probe =
        a + std::max({4.0 * std::abs(sa) / -ra, band / -ra, 64.0 * events::detail::ulp_of(a)});
    if (probe < b) {
      const double s_probe = guard_at(g, sign, probe);
      if (s_probe < -0.5 * band) return find_root(g, sign, probe, s_probe, b, sb).before;
    }
    if (rb > 0.0) {
      auto rate = [&](double t) {
        double r = 0.0;
        guard_and_rate_at(g, sign, t, r);
        return r;
      };
      // Locate the dip coarsely first (the guard is flat there) and to full precision only
      // when the coarse point is not below zero.
      events::RootOptions coarse = options_.root;
      coarse.abs_width = 1e-3 * (b - a);
      events::RootResult dip = events::illinois(rate, a, ra, b, rb, coarse);
      double s_dip = guard_at(g, sign, dip.before);
      if (!(s_dip < 0.0)) {
        dip = events::illinois(rate, dip.before, rate(dip.before), dip.after, rate(dip.after),
                               options_.root);
        s_dip = guard_at(g, sign, dip.before);
      }
      if (s_dip < 0.0) return find_root(g, sign, dip.before, s_dip, b, sb).before;
      unresolved_[k] = 1;
      return dip.before;
    }
    // The rate turns more than once between the samples: scan for the first negative value
    // and the first non-negative one after it.
    constexpr int kScan = 16;
    double t_neg = a, s_neg = 0.0;
    for (int n = 1; n <= kScan; ++n) {
      const double t = n == kScan ? b : a + (b - a) * n / kScan;
      const double s = n == kScan ? sb : guard_at(g, sign, t);
      if (s < 0.0) {
        t_neg = t;
        s_neg = s;
      } else if (s_neg < 0.0) {
        return find_root(g, sign, t_neg, s_neg, t, s).before;
      }
    }
    unresolved_[k] = 1;
    return a;
  }

  // Whether guard k's oriented samples are all below zero by more than their spread over the step:
  // then no sample interval brackets a crossing and grazing_crossing() examines none (one pass
  // over the samples instead of the arming walk per sample, for most guards in most steps).
  bool far_below(int k, double sign) const {
    double s_min = kInfinity, s_max = -kInfinity;
    for (int n = 0; n < samples_; ++n) {
      const double s = sign * sample_s_(k, n);
      s_min = std::min(s_min, s);
      s_max = std::max(s_max, s);
    }
    return s_max < -(s_max - s_min);
  }

  // Which guards of `mode` are searched with a certificate (certified()). Where all are (or are
  // time events), the interior samples find nothing the search does not: only the step's ends
  // are sampled (for the arming walk and the next step's start values).
  void note_certified(const Mode& mode) {
    if (&mode == certified_for_) return;
    certified_for_ = &mode;
    bool all = true;
    for (size_t k = 0; k < mode.guards.size(); ++k) {
      const Guard& g = mode.guards[k];
      certified_[k] = certified(mode, g);
      all = all && (certified_[k] || g.period > 0.0);
    }
    samples_ = all ? 2 : max_samples_;
  }

  // The certified search of guard k from the step's start to its sampled candidate (or the
  // step's end): an earlier crossing or grazing replaces the candidate. How a crossing counts
  // follows the guard's arming at the start (`arm`): an armed guard's first crossing in its
  // direction (Either: away from its side); a guard leaving its surface, its return after any
  // negative value; a guard waiting on its surface or on its trigger side, a crossing after it
  // has moved beyond the band (Either: the crossing back, in the orientation it moves away in).
  // False: the guard has no finite enclosure on part of the step (failure_).
  bool certify(int k, const Guard& g, Arming arm) {
    // A guard at rest on its surface (AtZero) is searched from the sample where the walk saw it
    // leave the band: before that its sign is the round-off of a state at rest (a band of 0 where
    // every state has been 0 so far).
    if (arm == Arming::AtZero && armed_at_[k] < 0) return true;
    const int first = arm == Arming::AtZero ? armed_at_[k] : 0;
    const double from = sample_t_[first];
    const double to = std::min(candidate_t_[k], sample_t_[samples_ - 1]);
    if (!(to > from)) return true;
    const double p_from = first == 0 ? guards_->p_start[k] : sample_s_(k, first);
    double sign = orientation(g.direction);
    if (arm == Arming::AtZero) arm = Arming::Armed;
    bool departed = arm == Arming::Armed, needs_departure = false;
    if (arm == Arming::Leaving) {
      if (g.direction == Direction::Either) sign = guards_->leave_sign[k];
    } else if (arm != Arming::Armed) {
      needs_departure = true;
      if (g.direction == Direction::Either) {
        if (!g.gradient) return true;  // no rate to tell its side: the walk decides
        double rate = 0.0;             // moving away towards p > 0: the crossing back is p falling
        guard_and_rate_at(g, 1.0, from, rate);
        if (rate == 0.0) return true;  // at rest on the surface: the walk decides
        sign = rate > 0.0 ? -1.0 : 1.0;
      }
    } else if (g.direction == Direction::Either) {
      if (p_from == 0.0) return true;  // on the surface: the walk decides
      sign = p_from < 0.0 ? 1.0 : -1.0;
    }
    const double offset = guards_->offset[k];
    const std::vector<int>& reads = g.reads_states.empty() ? all_states() : g.reads_states;
    auto enclose = [&](double a, double b) {
      const IntervalJet tau = IntervalJet::time(a, b);
      for (int i : reads) x_enclosure_[i] = dense_.component(i, a, b);
      IntervalJet p =
          g.enclosure(origin_ == 0.0 ? tau : IntervalJet(origin_) + tau, x_enclosure_.data(), nx_);
      if (offset != 0.0) p = p - IntervalJet(offset);
      return sign < 0.0 ? -p : p;  // negation is exact
    };
    auto point = [&](double t) { return guard_at(g, sign, t); };
    // The end of the step on the trigger side: a crossing (or a return) to cut around.
    double cuts[2];
    const int n_cuts =
        to == sample_t_[samples_ - 1]
            ? parabola_cuts(point, from, sign * p_from, to, sign * sample_s_(k, samples_ - 1), cuts)
            : 0;
    const CrossingSearchResult r = search_crossing(
        enclose, point, from, sign * p_from, to, guards_->band[k], departed, needs_departure,
        guards_->graze_band[k], std::span<const double>(cuts, static_cast<size_t>(n_cuts)));
    enclosure_evaluations_ += r.enclosures;
    using Kind = CrossingSearchResult::Kind;
    double found = kInfinity;
    switch (r.kind) {
      case Kind::None:
        return true;
      case Kind::Exhausted:
        ++undecided_searches_;
        return true;
      case Kind::Unbounded:
        failure_ = Failure{k, r.a, r.b};
        return false;
      case Kind::Grazing:
        found = r.a;
        break;
      case Kind::Bracket:
        found = r.a == r.b ? r.a : find_root(g, sign, r.a, r.sa, r.b, r.sb).before;
        break;
    }
    if (found < candidate_t_[k]) {
      candidate_t_[k] = found;
      retrigger_[k] = 0;
      unresolved_[k] = 0;
    }
    return true;
  }
  const std::vector<int>& all_states() {
    if (static_cast<int>(all_states_.size()) != nx_) {
      all_states_.resize(static_cast<size_t>(nx_));
      for (int i = 0; i < nx_; ++i) all_states_[static_cast<size_t>(i)] = i;
    }
    return all_states_;
  }

  // Between two negative samples the guard may rise above zero and fall back (grazing). Only
  // subintervals next to a sampled local maximum that is close to zero (within the guard's
  // variation over the step) are examined: there the rates at both ends are computed and, if
  // they change sign from + to -, the peak is located; a non-negative peak brackets a root.
  double grazing_crossing(int k, const Guard& g, double sign, int i) {
    const int last = samples_ - 1;
    auto s_at = [&](int n) { return sign * sample_s_(k, n); };
    const bool max_left = (i - 1 == 0 || s_at(i - 1) >= s_at(i - 2)) && s_at(i - 1) >= s_at(i);
    const bool max_right = s_at(i) >= s_at(i - 1) && (i == last || s_at(i) >= s_at(i + 1));
    if (!max_left && !max_right) return kInfinity;
    double s_min = kInfinity, s_max = -kInfinity;
    for (int n = 0; n <= last; ++n) {
      s_min = std::min(s_min, s_at(n));
      s_max = std::max(s_max, s_at(n));
    }
    if (s_max < -(s_max - s_min)) return kInfinity;  // far from the surface in this step
    const double a = sample_t_[i - 1], b = sample_t_[i];
    double ra = 0.0, rb = 0.0;
    const double sa = guard_and_rate_at(g, sign, a, ra);
    guard_and_rate_at(g, sign, b, rb);
    if (!(ra > 0.0 && rb < 0.0)) return kInfinity;
    auto falling_rate = [&](double t) {
      double r = 0.0;
      guard_and_rate_at(g, sign, t, r);
      return -r;  // the root finders expect a rising function
    };
    const events::RootResult peak = events::illinois(falling_rate, a, -ra, b, -rb, options_.root);
    const double t_peak = peak.before;
    const double s_peak = guard_at(g, sign, t_peak);
    if (s_peak < 0.0) return kInfinity;
    return find_root(g, sign, a, sa, t_peak, s_peak).before;
  }

  // Whether the stepper can evaluate single components of its dense output, and the mode has
  // no algebraic states (those are solved from the whole x).
  static constexpr bool kComponentDense = requires(const S& s, const int* w, double* x) {
    s.interpolate_components(0.0, w, 0, x);
  };
  // Whether the stepper encloses its dense output over an interval (the certified search).
  static constexpr bool kEncloses = requires(const S& s, Interval* c) {
    { s.dense_polynomial(0, c) } -> std::same_as<int>;
  };
  bool reads_partially() const { return kComponentDense && nz_ == 0; }
  // x[which[k]] from the dense output at t (only called when reads_partially()).
  void interpolate_reads(double t, const std::vector<int>& which, double* x) const {
    if constexpr (kComponentDense) {
      stepper_->interpolate_components(t, which.data(), static_cast<int>(which.size()), x);
    }
  }
  const events::EventOptions& options_;
  const int max_samples_;  // guard_samples + 2
  // Sample points of the current mode's steps, ends included: max_samples_, or only the ends
  // where every guard is searched with a certificate (note_certified).
  int samples_;
  S* stepper_ = nullptr;
  const Mode* mode_ = nullptr;
  const GuardStates* guards_ = nullptr;
  int nx_ = 0, nz_ = 0;
  Vector x_work_, z_work_, xdot_, dpdx_, dpdz_, zdot_;
  Vector sample_t_;
  Matrix sample_x_, sample_z_, sample_s_;
  std::vector<Arming> next_arming_;
  std::vector<char> retrigger_, unresolved_;
  std::vector<double> candidate_t_;
  std::vector<char> certified_;  // guard k of the current mode is searched (certified())
  std::vector<int> armed_at_;    // the sample where the walk armed guard k at rest (-1: none)
  std::vector<IntervalJet> x_enclosure_;
  DenseEnclosure<S> dense_;  // the step's dense output over pieces (certified search)
  std::vector<int> all_states_;
  const Mode* certified_for_ = nullptr;  // the mode certified_ was noted for
  bool first_scan_ = true;  // the run's first step: a time event's instant at t0 fires too
  std::vector<int> fired_;
  DeclaredReads declared_;                 // Guard::reads_states of the current mode
  double origin_ = 0.0;                    // t0 of the run (set_time_origin)
  GuardValues values_;                     // the current mode's guards in doubles
  const Guard* x_work_nan_for_ = nullptr;  // x_work_ is NaN outside this guard's reads
  double event_time_ = 0.0;
  Failure failure_;
  bool algebraic_failed_ = false;  // a root-finding evaluation's Newton solve failed (failure_)
  long guard_evaluations_ = 0, root_evaluations_ = 0;
  long enclosure_evaluations_ = 0, undecided_searches_ = 0;
};

}  // namespace saltus::detail
