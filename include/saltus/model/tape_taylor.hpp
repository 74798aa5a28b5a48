// Taylor coefficients of the solution of x' = f(t, x) where f is a tape (tape.hpp): the first
// part of a Taylor-series integrator (Jorba & Zou 2005; heyoka's "Taylor decomposition"). The
// solution's coefficients follow order by order: x_0 = x(t0); pass k computes coefficient k of
// every value of the tape from coefficients 0..k of its operands (and 0..k-1 of itself) by the
// recurrences of automatic differentiation (Griewank & Walther, ch. 13), which gives f_k, and
// x_{k+1} = f_k / (k + 1). The cost is O(order^2) per multiplication and elementary function,
// one sin and cos per expansion (the rest are recurrences), against a Runge-Kutta method's
// evaluation of f per stage.
//
// The tape's registers are reused (compile_tape); the coefficients need one row per computed
// value, so the constructor renames the program into single assignments once.
//
// Piecewise operations (abs, sign, min, max, comparisons, if) take the branch that holds just
// after t0: the series is that of the branch's analytic piece (abs and min/max decide by the first
// coefficient where the operands differ), valid up to the next switch, which an integrator must
// treat as an event. A value that is not analytic at t0 (sqrt or log of 0, x^c for a non-integer c
// at 0) makes expand() fail and name it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "saltus/model/tape.hpp"

namespace saltus::model {

class TaylorTape {
 public:
  // `flow` writes x' into slots 0 .. n-1 (a mode's flow tape; slots from flow.positive_from on
  // are conditions that must hold, such as an elimination's pivots) and reads t, x and
  // parameters. Throws std::invalid_argument when it reads x' or algebraic states, or does not
  // store all n components.
  TaylorTape(const Tape& flow, int n);

  int states() const { return n_; }

  // coefficients[i * (order + 1) + k] = the coefficient of tau^k in x_i(t0 + tau), k = 0..order
  // (order >= 1). False where a condition slot is not > 0 at t0, a value is not finite or not
  // analytic at t0: failure() names the operation or slot.
  bool expand(double t0, const double* x0, int order, double* coefficients);
  const std::string& failure() const { return failure_; }

 private:
  struct Step {  // one operation in single-assignment form
    OpCode op;
    int out;      // the value it defines
    int a, b, c;  // the values it reads (-1: none)
    int aux;      // first of its auxiliary series (-1: none), such as cos beside sin
    double exponent;
  };
  bool pass(int k);  // coefficient k of every value
  bool fail(std::string why);

  // The run-time parameters' values, shared with the tape (read at each expansion; the tape
  // itself need not outlive this object).
  std::shared_ptr<const std::vector<double>> parameter_values_;
  int n_;
  int values_ = 0, aux_ = 0;
  std::vector<std::pair<int, int>> state_values_;  // (value, component of x)
  std::vector<std::pair<int, double>> constant_values_;
  std::vector<std::pair<int, int>> parameter_of_;  // (value, run-time parameter index)
  int time_value_ = -1;
  std::vector<int> flow_value_;       // value written to slot i, i < n
  std::vector<int> condition_value_;  // values of the condition slots
  std::vector<Step> steps_;
  int order_ = 0;              // columns - 1 of the storage below
  std::vector<double> c_, w_;  // series of the values and auxiliary series, (order_ + 1) each
  std::string failure_;
};

}  // namespace saltus::model
