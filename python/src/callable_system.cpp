#include "callable_system.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "python_callables.hpp"
#include "saltus/core/error.hpp"
#include "saltus/sim/simulator.hpp"
#include "timed_run.hpp"

namespace py = pybind11;

namespace saltus::python {
namespace {

Direction direction_of(const std::string& d) {
  if (d == "rising") return Direction::Rising;
  if (d == "falling") return Direction::Falling;
  if (d == "either") return Direction::Either;
  detail::throw_error("direction '", d, "'; expected 'rising', 'falling' or 'either'");
}

// A mode as saltus/system.py passes it: (name, nx, flow, flow's name, guards), each guard
// (name, value, value's name, direction, reset or None, reset's name, target id, terminal,
// gradient or None, gradient's name).
struct ModeSpec {
  std::string name;
  int nx = 0;
  py::object flow;
  std::string flow_name;
  py::list guards;
};

ModeSpec mode_spec(const py::handle& h) {
  const auto t = h.cast<py::tuple>();
  return {t[0].cast<std::string>(), t[1].cast<int>(), t[2].cast<py::object>(),
          t[3].cast<std::string>(), t[4].cast<py::list>()};
}

Guard python_guard(const py::tuple& spec, const std::string& mode, const HybridSystem& system,
                   const std::shared_ptr<CallableRunState>& state) {
  Guard g;
  g.name = spec[0].cast<std::string>();
  g.direction = direction_of(spec[3].cast<std::string>());
  g.terminal = spec[7].cast<bool>();
  const std::string where = "guard '" + g.name + "' of mode '" + mode + "'";
  // No enclosure: event location samples the guard (events.guard_samples points per step) and
  // the summary names it among sampled_guards.
  const PyCallable value{spec[1].cast<py::object>(), spec[2].cast<std::string>(), "the " + where,
                         state};
  g.value = [value](double t, const ConstVectorRef& x, const ConstVectorRef&) {
    return value.guard(t, x);
  };
  // With a gradient the engine tells a state leaving the surface after a reset from one resting
  // on it; without, a recognised accumulation is taken as reached at once (its Zeno point).
  if (!spec[8].is_none()) {
    const PyCallable gradient{spec[8].cast<py::object>(), spec[9].cast<std::string>(),
                              "the gradient of " + where, state};
    g.gradient = [gradient](double t, const ConstVectorRef& x, const ConstVectorRef&,
                            VectorRef dpdx, VectorRef) { return gradient.gradient(t, x, dpdx); };
  }
  const auto target = spec[6].cast<ModeId>();
  if (target < 0 || target >= system.mode_count()) {
    detail::throw_error(where, ": target mode id ", target, " (", system.mode_count(), " modes)");
  }
  if (spec[4].is_none()) {
    g.reset = Reset::to(target);  // identity: validate() refuses modes of other sizes
    return g;
  }
  const PyCallable reset{spec[4].cast<py::object>(), spec[5].cast<std::string>(),
                         "the reset of " + where, state};
  const std::string target_name = system.mode(target).name;
  g.reset = Reset::custom(
      target, false, [reset, target_name](double t, ConstVectorRef x, ConstVectorRef, Jump& j) {
        reset.reset(t, x, j.state_after(), target_name);
        return true;
      });
  return g;
}

// The modes first (a guard's reset needs its target's size), then every mode's guards.
void build(const py::list& modes, HybridSystem& system, model::Model& model,
           const std::shared_ptr<CallableRunState>& state) {
  std::vector<ModeSpec> specs;
  for (const py::handle& h : modes) specs.push_back(mode_spec(h));
  for (const ModeSpec& m : specs) {
    Flow flow;
    flow.kind = FlowKind::Ode;
    flow.nx = m.nx;
    // No Jacobian (Radau5 needs one): saltus/system.py offers the explicit integrators only.
    const PyCallable f{m.flow, m.flow_name, "the flow of mode '" + m.name + "'", state};
    flow.rhs = [f](double t, const ConstVectorRef& x, const ConstVectorRef&, VectorRef xdot) {
      f.flow(t, x, xdot);
    };
    system.add_mode(m.name, std::move(flow));
    model::ModelMode described;
    described.name = m.name;
    model.modes.push_back(std::move(described));
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    for (const py::handle& h : specs[i].guards) {
      system.add_guard(static_cast<ModeId>(i),
                       python_guard(h.cast<py::tuple>(), specs[i].name, system, state));
    }
  }
  system.validate();
}

// Model files' [solver] and [output] keys of the same names, with their defaults
// (src/model/loader/options_reader.cpp).
SimulationOptions options_of(const py::dict& o, double t0, double t_end) {
  SimulationOptions s;
  const auto get = [&o](const char* key) -> py::object {
    return o.contains(key) ? py::object(o[key]) : py::object(py::none());
  };
  if (!get("rtol").is_none()) s.stepper.rtol = get("rtol").cast<double>();
  if (!get("atol").is_none()) s.stepper.atol = get("atol").cast<double>();
  if (!get("h_max").is_none()) s.stepper.h_max = get("h_max").cast<double>();
  if (!get("guard_samples").is_none()) s.events.guard_samples = get("guard_samples").cast<int>();
  if (!get("max_events").is_none()) s.events.max_events = get("max_events").cast<long>();
  static const std::pair<const char*, events::RootFinderKind> kFinders[] = {
      {"brent", events::RootFinderKind::Brent},
      {"anderson_bjorck", events::RootFinderKind::AndersonBjorck},
      {"illinois", events::RootFinderKind::Illinois},
      {"bisection", events::RootFinderKind::Bisection},
      {"newton", events::RootFinderKind::Newton}};
  if (const py::object finder = get("root_finder"); !finder.is_none()) {
    const auto name = finder.cast<std::string>();
    const auto* it = std::find_if(std::begin(kFinders), std::end(kFinders),
                                  [&name](const auto& f) { return name == f.first; });
    if (it == std::end(kFinders)) {
      detail::throw_error("root_finder '", name,
                          "'; expected brent, anderson_bjorck, illinois, bisection or newton");
    }
    s.events.root_finder = it->second;
  }
  const py::object integrator = get("integrator");
  if (integrator.is_none()) {
    s.integrator = s.stepper.rtol < 1e-10 ? Integrator::Dop853 : Integrator::Dopri5;
  } else {
    s.integrator =
        integrator.cast<std::string>() == "dop853" ? Integrator::Dop853 : Integrator::Dopri5;
  }
  if (const py::object times = get("sample_times"); !times.is_none()) {
    s.output.sample_times = times.cast<std::vector<double>>();
  } else if (const int n = get("samples").cast<int>(); n > 0) {  // as [output] samples
    const double span = t_end - t0;
    for (int i = 0; i < n; ++i)
      s.output.sample_times.push_back(n == 1 ? t0 : t0 + span * i / (n - 1));
  }
  s.output.record_steps = get("record_steps").cast<bool>();
  s.output.reserve_samples = static_cast<long>(s.output.sample_times.size()) + 64;
  if (const std::string problems = s.validate(); !problems.empty()) {
    detail::throw_error(problems);
  }
  return s;
}

// (run, None), or (None, (message, cause, callable, role, t, x)) when a callable failed.
py::tuple run_callables(const std::string& name, const std::vector<std::string>& states,
                        const py::list& modes, ModeId mode, double t0,
                        const std::vector<double>& x0, double t_end, const py::dict& options) {
  auto state = std::make_shared<CallableRunState>();
  auto model = std::make_shared<model::Model>();
  model->file = "<python>";
  model->name = name;
  for (size_t i = 0; i < states.size(); ++i) {
    model->states.push_back({states[i], i < x0.size() ? x0[i] : kNaN, ""});
  }
  model->initial_mode = mode;
  model->t_start = t0;
  model->t_end = t_end;
  model->options = options_of(options, t0, t_end);
  auto r = std::make_unique<TimedRun>();
  build(modes, r->run.system, *model, state);
  r->run.model = model;
  const Vector x = Eigen::Map<const Vector>(x0.data(), static_cast<Eigen::Index>(x0.size()));
  const auto start = std::chrono::steady_clock::now();
  try {
    Simulator simulator(r->run.system, model->options);
    simulator.run(mode, t0, x, Vector(), t_end, r->run.result);
  } catch (const CallableAbort&) {
    // A callable failed where the engine does not stop on exceptions: recorded in `state`.
  }
  r->engine_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (state->failed) {
    const CallableFailure& f = state->failure;
    return py::make_tuple(py::none(),
                          py::make_tuple(f.message, f.cause, f.callable, f.role, f.t, f.x));
  }
  if (!r->run.succeeded() && !state->non_finite_flow.empty()) {
    r->run.result.summary.message +=
        " (the last non-finite flow value: " + state->non_finite_flow + ")";
  }
  return py::make_tuple(py::cast(std::move(r)), py::none());
}

}  // namespace

void bind_callables(py::module_& m) {
  m.def("run_callables", &run_callables, py::arg("name"), py::arg("states"), py::arg("modes"),
        py::arg("mode"), py::arg("t0"), py::arg("x0"), py::arg("t_end"), py::arg("options"));
}

}  // namespace saltus::python
