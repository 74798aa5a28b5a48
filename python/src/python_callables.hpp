// Python callables as the flows, guards and resets of a hybrid system (callable_system.cpp).
// They run with the GIL held (the caller holds it for the whole run). A callable that raises or
// returns what its role cannot use records the run's first failure and throws CallableAbort,
// which the engine turns into a stop; the caller then raises the failure in Python, chained to
// the callable's own exception.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus::python {

// What unwinds the engine after a callable failed (the engine catches it and stops).
struct CallableAbort : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The first failure of a run's callables: the message names the callable, its role, t and x.
struct CallableFailure {
  std::string message;
  pybind11::object cause;  // the exception the callable raised, or None
  std::string callable, role;
  double t = 0.0;
  pybind11::object x;  // x as the callable saw it (a float64 array)
};

// Shared by the callables of one run.
struct CallableRunState {
  bool failed = false;
  CallableFailure failure;
  // The latest non-finite value a flow returned: the engine rejects the step (a trial step
  // may leave the flow's domain), and a run that ends non-finite names the callable with it.
  std::string non_finite_flow;
};

// One callable and where it belongs ("the flow of mode 'flight'").
struct PyCallable {
  pybind11::object fn;
  std::string qualname;
  std::string role;
  std::shared_ptr<CallableRunState> state;

  // x' = fn(t, x): nx numbers.
  void flow(double t, const ConstVectorRef& x, VectorRef xdot) const;
  // p = fn(t, x): one finite number.
  double guard(double t, const ConstVectorRef& x) const;
  // (dp/dx, dp/dt) = fn(t, x): nx numbers and one, all finite; returns dp/dt.
  double gradient(double t, const ConstVectorRef& x, VectorRef dpdx) const;
  // x+ = fn(t, x-): the target mode's nx finite numbers (`target` names it in messages).
  void reset(double t, const ConstVectorRef& x, VectorRef x_plus, const std::string& target) const;

 private:
  pybind11::object call(double t, const ConstVectorRef& x) const;
  void read(const pybind11::object& result, Eigen::Index n, const std::string& target, double t,
            const ConstVectorRef& x, double* out) const;
  [[noreturn]] void fail(const std::string& what, pybind11::object cause, double t,
                         const ConstVectorRef& x) const;
};

}  // namespace saltus::python
