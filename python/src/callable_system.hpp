// saltus._core.run_callables: a hybrid system whose flows, guards and resets are Python
// callables (python_callables.hpp), run by the engine with the GIL held throughout, into the
// same Run as a model file's (timed_run.hpp), or the first failure of a callable.
#pragma once

#include <pybind11/pybind11.h>

namespace saltus::python {

void bind_callables(pybind11::module_& m);

}  // namespace saltus::python
