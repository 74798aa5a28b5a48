// saltus._core.command: the `saltus` command line run in this process (saltus/analysis.py).
#pragma once

#include <pybind11/pybind11.h>

namespace saltus::python {

void bind_command(pybind11::module_& m);

}  // namespace saltus::python
