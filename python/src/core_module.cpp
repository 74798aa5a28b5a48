// saltus._core: the compiled half of the Python package (python/saltus/*.py is the other half,
// with the docstrings users read). Loading returns the diagnostics instead of raising, so that
// saltus/errors.py chooses the exception type; runs, sweeps and commands release the GIL (runs of
// Python callables, callable_system.cpp, hold it).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <memory>

#include "callable_system.hpp"
#include "command_binding.hpp"
#include "run_tables.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/run_outputs.hpp"
#include "sweep_binding.hpp"
#include "timed_run.hpp"

namespace py = pybind11;
using saltus::model::Diagnostic;
using saltus::model::Model;
using saltus::model::ModelError;
using saltus::model::ModelRun;
using saltus::python::TimedRun;

namespace {

using Diagnostics = std::vector<std::tuple<std::string, int, int, std::string>>;

Diagnostics as_tuples(const std::vector<Diagnostic>& diagnostics) {
  Diagnostics out;
  for (const Diagnostic& d : diagnostics) out.emplace_back(d.file, d.line, d.column, d.message);
  return out;
}

// (model, []) or (None, diagnostics).
template <class Load>
py::tuple load(Load load_fn) {
  try {
    auto m = std::make_shared<const Model>(load_fn());
    return py::make_tuple(py::cast(std::move(m)), Diagnostics{});
  } catch (const ModelError& e) {
    return py::make_tuple(py::none(), as_tuples(e.diagnostics()));
  }
}

std::unique_ptr<TimedRun> run(const std::shared_ptr<const Model>& m) {
  py::gil_scoped_release no_gil;
  auto r = std::make_unique<TimedRun>();
  const auto t0 = std::chrono::steady_clock::now();
  r->run = saltus::model::run_model(m);
  r->engine_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

py::list quantities(const std::vector<saltus::model::Quantity>& qs) {
  py::list out;
  for (const auto& q : qs) out.append(py::make_tuple(q.name, q.value, q.unit));
  return out;
}

// (name, value now, unit) of every parameter: a run-time parameter's current value.
py::list parameters(const Model& m) {
  py::list out;
  for (size_t i = 0; i < m.parameters.size(); ++i) {
    const auto& q = m.parameters[i];
    out.append(py::make_tuple(q.name, m.parameter_value(static_cast<int>(i)), q.unit));
  }
  return out;
}

// (mode, name, direction, when or None, target modes, terminal) of every guard of every mode;
// a mechanical model's contacts are not guards of the file (empty).
py::list guards(const Model& m) {
  static const char* const kDirections[] = {"rising", "falling", "either"};
  py::list out;
  for (const auto& mode : m.modes) {
    for (const auto& g : mode.guards) {
      py::list targets;
      for (const auto& t : g.targets) {
        targets.append(m.modes[static_cast<size_t>(t.target)].name);
      }
      out.append(py::make_tuple(mode.name, g.name, kDirections[static_cast<int>(g.direction)],
                                g.when == saltus::lang::kNoNode ? py::object(py::none())
                                                                : py::object(py::str(g.when_text)),
                                targets, g.terminal));
    }
  }
  return out;
}

saltus::model::LoadOptions runtime_options(const std::vector<std::string>& runtime) {
  saltus::model::LoadOptions options;
  options.runtime_parameters = runtime;
  return options;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Compiled core of the saltus package; use the functions of `saltus` instead.";

  // saltus::Error (bad sizes, unwritable folders, a refused sweep) -> saltus.errors.EngineError.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ModelError& e) {
      py::object make = py::module_::import("saltus.errors").attr("model_error");
      py::object err = make(as_tuples(e.diagnostics()));
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
    } catch (const saltus::Error& e) {
      py::object cls = py::module_::import("saltus.errors").attr("EngineError");
      PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
    }
  });

  py::class_<Model, std::shared_ptr<Model>>(m, "Model")
      .def_property_readonly("file", [](const Model& x) { return x.file; })
      .def_property_readonly("name", [](const Model& x) { return x.name; })
      .def_property_readonly("description", [](const Model& x) { return x.description; })
      .def_property_readonly("time_unit", [](const Model& x) { return x.time_unit; })
      .def_property_readonly("t_start", [](const Model& x) { return x.t_start; })
      .def_property_readonly("t_end", [](const Model& x) { return x.t_end; })
      .def_property_readonly("parameters", &parameters)
      .def_property_readonly("runtime_parameters",
                             [](const Model& x) {
                               std::vector<std::string> names;
                               for (int i : x.runtime_parameters) {
                                 names.push_back(x.parameters[static_cast<size_t>(i)].name);
                               }
                               return names;
                             })
      .def("set_runtime_parameter",
           [](const Model& x, const std::string& name, double value) {
             saltus::model::set_runtime_parameter(x, name, value);
           })
      .def_property_readonly("states", [](const Model& x) { return quantities(x.states); })
      .def_property_readonly("guards", &guards)
      .def_property_readonly("mechanical", [](const Model& x) { return x.mechanics.has_value(); })
      .def_property_readonly("dof",
                             [](const Model& x) { return x.mechanics ? x.mechanics->dof : 0; })
      .def_property_readonly("output_variables", [](const Model& x) { return x.output_variables; });

  m.def(
      "load_file",
      [](const std::filesystem::path& path, const std::vector<std::string>& overrides,
         const std::vector<std::string>& runtime) {
        return load([&] {
          return saltus::model::load_model_file(path, overrides, runtime_options(runtime));
        });
      },
      py::arg("path"), py::arg("overrides"), py::arg("runtime"));
  m.def(
      "load_text",
      [](const std::string& text, const std::string& file_name,
         const std::vector<std::string>& overrides, const std::vector<std::string>& runtime) {
        return load([&] {
          return saltus::model::load_model_text(text, file_name, overrides,
                                                runtime_options(runtime));
        });
      },
      py::arg("text"), py::arg("file_name"), py::arg("overrides"), py::arg("runtime"));

  py::class_<TimedRun>(m, "Run")
      .def_property_readonly("status", [](const TimedRun& r) { return r.run.status(); })
      .def_property_readonly("message", [](const TimedRun& r) { return r.run.message(); })
      .def_property_readonly("succeeded", [](const TimedRun& r) { return r.run.succeeded(); })
      .def_property_readonly("engine_seconds", [](const TimedRun& r) { return r.engine_seconds; })
      .def("summary_json", [](const TimedRun& r) { return saltus::run::summary_json(r.run); })
      .def("report", [](const TimedRun& r) { return saltus::run::run_report(r.run); })
      .def("trajectory", [](const TimedRun& r) { return saltus::python::trajectory_table(r.run); })
      .def("events", [](const TimedRun& r) { return saltus::python::event_table(r.run); })
      .def("write_outputs", [](const TimedRun& r, const std::filesystem::path& dir) {
        saltus::run::write_run_outputs(r.run, dir);
      });
  m.def("run", &run, py::arg("model"));

  saltus::python::bind_callables(m);
  saltus::python::bind_sweep(m);
  saltus::python::bind_command(m);
}
