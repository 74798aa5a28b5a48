// A run as saltus._core.Run holds it: the ModelRun plus the seconds spent in the engine
// (bench/python_overhead.py subtracts them). Model files' runs and runs of Python callables
// (callable_system.cpp) are both of this type, so saltus.Run reads them alike.
#pragma once

#include "saltus/model/model_run.hpp"

namespace saltus::python {

struct TimedRun {
  model::ModelRun run;
  double engine_seconds = 0.0;
};

}  // namespace saltus::python
