// saltus._core.sweep: run/sweep.hpp's run_sweep with the GIL released, results as arrays.
#pragma once

#include <pybind11/pybind11.h>

namespace saltus::python {

void bind_sweep(pybind11::module_& m);

}  // namespace saltus::python
