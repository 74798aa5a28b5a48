// [model], [initial], [solver] and [output]: names, the initial mode and time, solver settings
// with their limits, output samples and variables.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <type_traits>

#include "../drawing_section.hpp"
#include "model_reader.hpp"

namespace saltus::model::loader {

namespace {

// An integral count as written, without exponent or sign surprises ("1000000000").
std::string format_count(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

// ------------------------------------------------------------------ sections
void ModelReader::read_model_section(const toml::table& doc) {
  const toml::table* t = table_at(doc, "model", "the file", false);
  if (t == nullptr) return;
  check_keys(*t, "[model]", {"name", "description", "time_unit"});
  if (const toml::node* n = t->get("name")) {
    if (auto s = string(*n, "model name")) model_.name = *s;
  }
  if (const toml::node* n = t->get("description")) {
    if (auto s = string(*n, "description")) model_.description = *s;
  }
  if (const toml::node* n = t->get("time_unit")) {
    if (auto s = string(*n, "time_unit")) model_.time_unit = *s;
  }
}

void ModelReader::read_initial(const toml::table& doc) {
  const toml::table* t = table_at(doc, "initial", "the file", false);
  if (t != nullptr) {
    check_keys(*t, "[initial]",
               model_.mechanics ? std::vector<std::string>{"t", "project"}
                                : std::vector<std::string>{"mode", "t"});
    if (const toml::node* p = model_.mechanics ? t->get("project") : nullptr) {
      if (auto v = number(*p, "[initial] project")) {
        if (!(*v > 0.0 && *v < 1.0)) {
          add(*p, "[initial] project = " + std::to_string(*v) +
                      " is not a tolerance; expected the largest violation of a contact or "
                      "constraint to project away, in (0, 1) (e.g. 1e-6)");
        } else {
          model_.initial_projection.tolerance = *v;
        }
      }
    }
  }
  const toml::node* m = t != nullptr && !model_.mechanics ? t->get("mode") : nullptr;
  if (m == nullptr) {
    // A Hamiltonian model with a surface starts in the region of its initial state.
    if (model_.modes.size() > 1 && !initial_mode_chosen_) {
      add(t != nullptr ? static_cast<int>(t->source().begin.line) : 0, 0,
          "no initial mode; expected [initial] mode = \"<one of " + join(mode_names_) + ">\"");
    }
    if (!initial_mode_chosen_) model_.initial_mode = 0;
  } else {
    model_.initial_mode = target_mode(m, 0, "[initial] mode");
  }
  if (t != nullptr) {
    if (const toml::node* n = t->get("t")) {
      if (auto v = number(*n, "[initial] t")) model_.t_start = *v;
    }
  }
}

// [solver] atol: one number for every state, or a table of states' own values (SUNDIALS's
// per-component atol), each in its state's unit: { default = 1e-10, theta = 1e-12, "x'" = 1e-9 }.
// States the table does not name take `default` (1e-10 when absent). One number across states
// of different units (metres and radians) is what a table avoids.
void ModelReader::read_atol(const toml::node& n) {
  ode::StepperOptions& s = model_.options.stepper;
  const toml::table* table = n.as_table();
  if (table == nullptr) {
    if (auto v = number(n, "[solver] atol")) s.atol = *v;
    return;
  }
  const auto positive = [&](const toml::node& v, const std::string& what) -> std::optional<double> {
    const auto x = number(v, what);
    if (x && !(*x > 0.0 && std::isfinite(*x))) {
      add(v, what + " = " + short_number(*x) + "; expected a positive number");
      return std::nullopt;
    }
    return x;
  };
  if (const toml::node* d = table->get("default")) {
    if (auto v = positive(*d, "[solver] atol.default")) s.atol = *v;
  }
  Vector per(static_cast<Eigen::Index>(model_.states.size()));
  per.setConstant(s.atol);
  for (const auto& [key, v] : ordered(*table)) {
    if (key == "default") continue;
    const int i = model_.state_index(key);
    if (i < 0) {
      std::vector<std::string> names;
      for (const Quantity& q : model_.states) names.push_back(q.name);
      add(*v, "[solver] atol names '" + key +
                  "', which is not a state; expected default or one of " + join(names));
      continue;
    }
    // atol 0: no scale for the state's error test where it is 0 (at its start, if it starts
    // there); it takes the default, and the summary says so.
    if (const auto zero = number(*v, "[solver] atol." + key); zero && *zero == 0.0) {
      model_.notes.push_back(
          "[solver] atol." + key + " = 0 gives state '" + key + "' no scale where it is 0" +
          (model_.states[static_cast<size_t>(i)].value == 0.0 ? " (it starts at 0)" : "") +
          "; it takes the default atol " + short_number(s.atol));
      continue;
    }
    if (auto x = positive(*v, "[solver] atol." + key)) per[i] = *x;
  }
  s.atol_per_component = per;
}

void ModelReader::read_solver(const toml::table& doc) {
  const toml::table* t = table_at(doc, "solver", "the file", false);
  SimulationOptions& o = model_.options;
  o.stepper.rtol = 1e-8;
  o.stepper.atol = 1e-10;
  if (t == nullptr) {
    add(0, 0, "missing [solver] t_end; expected the end time of the simulation");
    return;
  }
  check_keys(*t, "[solver]",
             {"t_end", "integrator", "rtol", "atol", "h_max", "h_initial", "root_finder",
              "guard_samples", "detect_grazing", "predictive_step", "predictive_gamma",
              "max_events", "zeno_policy", "zeno_handover_tolerance", "zeno_cycles",
              "zeno_ratio_tolerance", "switching", "chatter_steps"});
  // Counts are checked against their limit here, at the key's line, before the cast (2^31
  // into an int would wrap negative).
  auto num = [&](const char* key, auto& field, double limit = kInfinity) {
    if (const toml::node* n = t->get(key)) {
      if (auto v = number(*n, std::string("[solver] ") + key)) {
        using F = std::decay_t<decltype(field)>;
        if constexpr (std::is_integral_v<F>) {
          if (!(std::abs(*v) < 1e15) || std::floor(*v) != *v) {
            add(*n, std::string("[solver] ") + key + " must be an integer");
            return;
          }
          if (*v > limit) {
            add(*n, std::string("[solver] ") + key + " = " + format_count(*v) +
                        " exceeds the limit of " + format_count(limit));
            return;
          }
        }
        field = static_cast<F>(*v);
      }
    }
  };
  if (const toml::node* n = t->get("t_end")) {
    if (auto v = number(*n, "[solver] t_end")) model_.t_end = *v;
  } else {
    add(*t, "[solver] has no t_end; expected the end time of the simulation");
  }
  num("rtol", o.stepper.rtol);
  if (const toml::node* n = t->get("atol")) read_atol(*n);
  num("h_max", o.stepper.h_max);
  num("h_initial", o.stepper.h_initial);
  num("guard_samples", o.events.guard_samples, SimulationOptionLimits::guard_samples);
  num("predictive_gamma", o.events.predictive_gamma);
  num("max_events", o.events.max_events, SimulationOptionLimits::max_events);
  num("chatter_steps", o.events.chatter_steps, SimulationOptionLimits::max_events);
  num("zeno_handover_tolerance", o.zeno.handover_tolerance);
  num("zeno_cycles", o.zeno.cycles, SimulationOptionLimits::zeno_cycles);
  num("zeno_ratio_tolerance", o.zeno.ratio_tolerance);
  auto flag = [&](const char* key, bool& field) {
    if (const toml::node* n = t->get(key)) {
      if (n->is_boolean()) {
        field = *n->value<bool>();
      } else {
        add(*n,
            std::string("[solver] ") + key + " is " + type_name(*n) + "; expected true or false");
      }
    }
  };
  flag("predictive_step", o.events.predictive_step);
  flag("detect_grazing", o.events.detect_grazing);
  auto choice = [&](const char* key, const std::vector<std::string>& names) -> int {
    const toml::node* n = t->get(key);
    if (n == nullptr) return -1;
    const auto v = string(*n, std::string("[solver] ") + key);
    if (!v) return -1;
    const auto it = std::find(names.begin(), names.end(), *v);
    if (it == names.end()) {
      add(*n, std::string("[solver] ") + key + " '" + *v + "'; expected one of " + join(names));
      return -1;
    }
    return static_cast<int>(it - names.begin());
  };
  if (const int i = choice("integrator", {"dopri5", "dop853", "radau5"}); i >= 0) {
    o.integrator = static_cast<Integrator>(i);
  } else if (t->get("integrator") == nullptr) {
    // By tolerance (issue 10; models/bouncing_ball_drag.toml, same event times): at rtol 1e-12
    // DOP853 needs 1307 flow evaluations against Dopri5's 2422, at 1e-10 both ~1220, at 1e-8
    // Dopri5 772 against 1165.
    o.integrator = o.stepper.rtol < 1e-10 ? Integrator::Dop853 : Integrator::Dopri5;
  }
  static const std::vector<std::pair<std::string, events::RootFinderKind>> kFinders = {
      {"brent", events::RootFinderKind::Brent},
      {"anderson_bjorck", events::RootFinderKind::AndersonBjorck},
      {"illinois", events::RootFinderKind::Illinois},
      {"bisection", events::RootFinderKind::Bisection},
      {"newton", events::RootFinderKind::Newton},
  };
  std::vector<std::string> finder_names;
  for (const auto& f : kFinders) finder_names.push_back(f.first);
  if (const int i = choice("root_finder", finder_names); i >= 0) {
    o.events.root_finder = kFinders[static_cast<size_t>(i)].second;
  }
  if (const int i = choice("zeno_policy", {"handover", "stop", "off"}); i >= 0) {
    o.zeno.policy = static_cast<events::ZenoOptions::Policy>(i);
  }
  // switching_modes.cpp: "events" (default) locates every switch of a flow; "smooth" integrates
  // the expressions as written.
  if (const int i = choice("switching", {"events", "smooth"}); i >= 0) smooth_switches_ = i == 1;
  if (!(model_.t_end > model_.t_start)) {
    add(t->get("t_end") != nullptr ? *t->get("t_end") : static_cast<const toml::node&>(*t),
        "t_end = " + std::to_string(model_.t_end) +
            " must be after the initial t = " + std::to_string(model_.t_start));
  }
  solver_table_ = t;
}

void ModelReader::read_output(const toml::table& doc) {
  OutputOptions& out = model_.options.output;
  const toml::table* t = table_at(doc, "output", "the file", false);
  int samples = 1001;
  if (t != nullptr) {
    check_keys(*t, "[output]",
               {"sample_times", "sample_interval", "samples", "variables", "record_steps"});
    if (const toml::node* n = t->get("sample_times")) {
      if (!n->is_array()) {
        add(*n, "[output] sample_times is " + type_name(*n) + "; expected an array of times");
      } else {
        for (const toml::node& e : *n->as_array()) {
          if (auto v = number(e, "sample time")) out.sample_times.push_back(*v);
        }
        if (!std::is_sorted(out.sample_times.begin(), out.sample_times.end())) {
          add(*n, "[output] sample_times must be sorted ascending");
        }
        samples = 0;
      }
    }
    if (const toml::node* n = t->get("samples")) {
      if (auto v = number(*n, "[output] samples")) {
        if (*v < 0 || *v > 1e7 || std::floor(*v) != *v) {
          add(*n, "[output] samples must be an integer in [0, 1e7]");
        } else {
          samples = static_cast<int>(*v);
        }
      }
    }
    if (const toml::node* n = t->get("sample_interval")) {
      if (auto v = number(*n, "[output] sample_interval")) {
        const double count = (model_.t_end - model_.t_start) / *v;
        if (!(*v > 0) || !(count < 1e7)) {
          add(*n, "[output] sample_interval must be positive and give at most 1e7 samples");
        } else {
          samples = static_cast<int>(std::floor(count + 1e-9)) + 1;
        }
      }
    }
    if (const toml::node* n = t->get("record_steps")) {
      if (n->is_boolean()) {
        out.record_steps = *n->value<bool>();
      } else {
        add(*n, "[output] record_steps is " + type_name(*n) + "; expected true or false");
      }
    }
    if (const toml::node* n = t->get("variables")) {
      if (const toml::array* a = array_of_strings(*n, "[output] variables")) {
        for (const toml::node& e : *a) {
          const std::string v = *e.value<std::string>();
          bool known = std::find(state_names_.begin(), state_names_.end(), v) != state_names_.end();
          for (const ModelMode& m : model_.modes) {
            for (const Quantity& q : m.algebraic) known = known || q.name == v;
          }
          if (!known) {
            add(e, "[output] variable '" + v + "' is not a state or algebraic state; " +
                       "expected one of " + join(state_names_) + " or an algebraic state");
          }
          model_.output_variables.push_back(v);
        }
      }
    }
  }
  if (out.sample_times.empty() && samples > 0) {
    const double span = model_.t_end - model_.t_start;
    if (std::isfinite(span) && span > 0) {
      for (int i = 0; i < samples; ++i) {
        out.sample_times.push_back(samples == 1 ? model_.t_start
                                                : model_.t_start + span * i / (samples - 1));
      }
      // The last sample at t_end itself: t_start + span rounds above it (0.42 * 10 / 10 =
      // 0.42000000000000004), and a sample after the run's end is never recorded.
      if (samples > 1) out.sample_times.back() = model_.t_end;
    }
  }
  out.reserve_samples = static_cast<long>(out.sample_times.size()) + 64;
  const std::string problems = model_.options.validate();
  if (!problems.empty()) {
    std::istringstream in(problems);
    std::string line;
    while (std::getline(in, line)) {
      if (solver_table_ != nullptr) {
        add(*solver_table_, "[solver]: " + line);
      } else {
        add(0, 0, "[solver]: " + line);
      }
    }
  }
}

// [drawing] (drawing_section.cpp): expressions of t, the parameters and the states.
void ModelReader::read_drawing(const toml::node& d) {
  const lang::SymbolTable s = symbols({});
  model_.drawing = read_drawing_section(
      d, {*graph_,
          [&](const toml::node& n, const std::string& what) { return expression(n, what, s); },
          [&](const toml::node& n, const std::string& message) { add(n, message); }});
}

}  // namespace saltus::model::loader
