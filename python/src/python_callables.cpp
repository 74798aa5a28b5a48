#include "python_callables.hpp"

#include <pybind11/numpy.h>

#include <cmath>
#include <cstring>
#include <utility>

namespace py = pybind11;

namespace saltus::python {
namespace {

// A fresh float64 array of x: a callable may keep or change it without touching the engine.
py::array_t<double> as_array(const ConstVectorRef& x) {
  py::array_t<double> a(static_cast<py::ssize_t>(x.size()));
  if (x.size() > 0) {
    std::memcpy(a.mutable_data(), x.data(), static_cast<size_t>(x.size()) * sizeof(double));
  }
  return a;
}

// Shortest round-trip text of v, as Python prints floats.
std::string number_text(double v) {
  return py::repr(py::float_(v)).cast<std::string>();
}

std::string values_text(const double* v, Eigen::Index n) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < n; ++i) out += (i ? ", " : "") + number_text(v[i]);
  return out + "]";
}

// Reads `obj` as n numbers into `out` (a list or tuple item by item, anything else through
// numpy). False with `why` when it holds another count; error_already_set when an entry is no
// number.
bool read_numbers(const py::handle& obj, Eigen::Index n, double* out, std::string& why) {
  if (obj.is_none()) {
    why = "returned None";
    return false;
  }
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(obj.ptr());
    if (size != n) {
      why = "returned " + std::to_string(size) + " values";
      return false;
    }
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    for (Py_ssize_t i = 0; i < size; ++i) {
      const double v = PyFloat_AsDouble(items[i]);
      if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      out[i] = v;
    }
    return true;
  }
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Array a(py::reinterpret_borrow<py::object>(obj));  // throws when numpy cannot convert
  if (a.ndim() > 1 || a.size() != n) {
    why = "returned an array of shape " + py::repr(a.attr("shape")).cast<std::string>();
    return false;
  }
  std::memcpy(out, a.data(), static_cast<size_t>(n) * sizeof(double));
  return true;
}

std::string states_text(Eigen::Index n) {
  return std::to_string(n) + (n == 1 ? " state" : " states");
}

}  // namespace

void PyCallable::fail(const std::string& what, py::object cause, double t,
                      const ConstVectorRef& x) const {
  if (!state->failed) {
    state->failed = true;
    CallableFailure& f = state->failure;
    f.message = qualname + " (" + role + ") " + what + " at t = " + number_text(t) +
                ", x = " + values_text(x.data(), x.size());
    f.cause = std::move(cause);
    f.callable = qualname;
    f.role = role;
    f.t = t;
    f.x = as_array(x);
  }
  throw CallableAbort(state->failure.message);
}

py::object PyCallable::call(double t, const ConstVectorRef& x) const {
  // After a failure the engine may still wind down; no more Python code runs.
  if (state->failed) throw CallableAbort(state->failure.message);
  try {
    return fn(t, as_array(x));
  } catch (py::error_already_set& e) {
    py::object value = e.value();
    if (e.trace()) PyException_SetTraceback(value.ptr(), e.trace().ptr());
    std::string text = py::str(value).cast<std::string>();
    const std::string type = py::str(value.get_type().attr("__name__")).cast<std::string>();
    fail("raised " + type + (text.empty() ? "" : ": " + text), value, t, x);
  }
}

// Reads what the callable returned as n numbers, or fails naming why and what was expected
// (`target`: the mode x+ is for; empty: the callable's own mode). The texts are made on failure
// only: this runs at every flow evaluation.
void PyCallable::read(const py::object& result, Eigen::Index n, const std::string& target, double t,
                      const ConstVectorRef& x, double* out) const {
  std::string why;
  try {
    if (read_numbers(result, n, out, why)) return;
  } catch (py::error_already_set& e) {
    py::object value = e.value();
    fail("returned " + py::repr(result).cast<std::string>().substr(0, 80) +
             ", not a sequence of numbers",
         value, t, x);
  }
  fail(why + "; expected " + std::to_string(n) + " (" +
           (target.empty() ? "the mode" : "mode '" + target + "'") + " has " + states_text(n) + ")",
       py::none(), t, x);
}

void PyCallable::flow(double t, const ConstVectorRef& x, VectorRef xdot) const {
  const py::object result = call(t, x);
  read(result, xdot.size(), std::string(), t, x, xdot.data());
  if (!xdot.allFinite()) {
    state->non_finite_flow = qualname + " (" + role + ") returned " +
                             values_text(xdot.data(), xdot.size()) + " at t = " + number_text(t) +
                             ", x = " + values_text(x.data(), x.size());
  }
}

double PyCallable::guard(double t, const ConstVectorRef& x) const {
  const py::object result = call(t, x);
  const double p = PyFloat_AsDouble(result.ptr());
  if (p == -1.0 && PyErr_Occurred()) {
    py::error_already_set e;
    fail("returned " + py::repr(result).cast<std::string>().substr(0, 80) + ", not a number",
         e.value(), t, x);
  }
  if (!std::isfinite(p)) fail("returned " + number_text(p), py::none(), t, x);
  return p;
}

double PyCallable::gradient(double t, const ConstVectorRef& x, VectorRef dpdx) const {
  const py::object result = call(t, x);
  if (!py::isinstance<py::tuple>(result) || py::len(result) != 2) {
    fail("returned " + py::repr(result).cast<std::string>().substr(0, 80) +
             "; expected a pair (dp/dx, dp/dt)",
         py::none(), t, x);
  }
  const auto pair = result.cast<py::tuple>();
  read(pair[0], dpdx.size(), std::string(), t, x, dpdx.data());
  const double dpdt = PyFloat_AsDouble(pair[1].ptr());
  if (dpdt == -1.0 && PyErr_Occurred()) {
    py::error_already_set e;
    fail("returned dp/dt = " + py::repr(pair[1]).cast<std::string>().substr(0, 80) +
             ", not a number",
         e.value(), t, x);
  }
  if (!dpdx.allFinite() || !std::isfinite(dpdt)) {
    fail("returned dp/dx = " + values_text(dpdx.data(), dpdx.size()) +
             ", dp/dt = " + number_text(dpdt),
         py::none(), t, x);
  }
  return dpdt;
}

void PyCallable::reset(double t, const ConstVectorRef& x, VectorRef x_plus,
                       const std::string& target) const {
  const py::object result = call(t, x);
  read(result, x_plus.size(), target, t, x, x_plus.data());
  if (!x_plus.allFinite()) {
    fail("returned " + values_text(x_plus.data(), x_plus.size()), py::none(), t, x);
  }
}

}  // namespace saltus::python
