// Enclosures of one step's dense output, component by component, over pieces of the step: what
// the certified event search (crossing_search.hpp) encloses guards through. Private to src/sim.
//
// A component's polynomial in u = (t - t0) / h is read from the stepper (dense_polynomial: its
// coefficients enclosed) once per step, the first time a guard reads it, with the coefficients
// of its time derivative. A piece [a, b] of the step is then u in [ua, ub] subset of [0, 1],
// where Horner's scheme multiplies by u >= 0 only (two products a multiplication, not four).
#pragma once

#include <algorithm>
#include <vector>

#include "saltus/core/interval_jet.hpp"
#include "saltus/ode/step_status.hpp"

namespace saltus::detail {

template <class S>
class DenseEnclosure {
 public:
  explicit DenseEnclosure(int max_nx)
      : value_(static_cast<size_t>(max_nx) * ode::kMaxDenseCoefficients),
        rate_(value_.size()),
        count_(static_cast<size_t>(max_nx)),
        read_in_(static_cast<size_t>(max_nx), -1) {}

  // The stepper's last accepted step is the one enclosed from now on.
  void new_step(const S& stepper) {
    stepper_ = &stepper;
    ++step_;
    const ode::StepSpan span = stepper.interval();
    t0_ = span.t0;
    t1_ = span.t1;
    h_ = span.t1 - span.t0;
    inverse_h_ = h_ > 0.0 ? Interval(1.0) / Interval(h_) : Interval(0.0);
  }

  // Component i and its time derivative over the times [a, b] of the step.
  IntervalJet component(int i, double a, double b) {
    const size_t at = static_cast<size_t>(i) * ode::kMaxDenseCoefficients;
    if (read_in_[static_cast<size_t>(i)] != step_) read(i, at);
    const int n = count_[static_cast<size_t>(i)];
    const Interval* c = value_.data() + at;
    if (n == 1) return IntervalJet(c[0], Interval(0.0));
    const Interval u = unit_times(a, b);
    return {horner(c, n, u), horner(rate_.data() + at, n - 1, u)};
  }

 private:
  // sum_k c[k] u^k over u (u.lo >= 0) by Horner's scheme in interval arithmetic: each product
  // u * v takes the path for a factor >= 0 (two multiplications, not four). Measured against
  // Horner on the bounds with one rounding bound at the end (Higham 5.1, per bound): the same
  // enclosures and more instructions (callgrind, ball ensemble), so the plain form stays.
  static Interval horner(const Interval* c, int n, const Interval& u) {
    Interval v = c[n - 1];
    for (int k = n - 2; k >= 0; --k) v = u * v + c[k];
    return v;
  }

  void read(int i, size_t at) {
    Interval* c = value_.data() + at;
    const int n = stepper_->dense_polynomial(i, c);
    count_[static_cast<size_t>(i)] = n;
    read_in_[static_cast<size_t>(i)] = step_;
    for (int k = 1; k < n; ++k) {  // products with a factor >= 0 first: two multiplications
      rate_[at + static_cast<size_t>(k - 1)] = inverse_h_ * (Interval(k) * c[k]);
    }
  }
  // u = (t - t0) / h over [a, b], outward: (t - t0) times the rounded 1 / h, three roundings of
  // half an ulp each, within the 2^-51 relative (two ulps) each bound is pushed out by; within
  // [0, 1] when [a, b] lies in the step.
  Interval unit_times(double a, double b) const {
    using intervals::interval_detail::down;
    using intervals::interval_detail::kArithmetic;
    using intervals::interval_detail::up;
    const double inverse_h = 1.0 / h_;
    double lo = down((a - t0_) * inverse_h, kArithmetic);
    double hi = up((b - t0_) * inverse_h, kArithmetic);
    if (a >= t0_) lo = std::max(lo, 0.0);
    if (b <= t1_) hi = std::min(hi, 1.0);
    return {lo, hi};
  }

  const S* stepper_ = nullptr;
  long step_ = 0;
  double t0_ = 0.0, t1_ = 0.0, h_ = 0.0;
  Interval inverse_h_;           // 1 / h, enclosed
  std::vector<Interval> value_;  // per component: kMaxDenseCoefficients coefficients of u^k
  std::vector<Interval> rate_;   // per component: the derivative's, in 1/time
  std::vector<int> count_;       // per component: its coefficients' count
  std::vector<long> read_in_;    // per component: the step it was read in (-1: none)
};

}  // namespace saltus::detail
