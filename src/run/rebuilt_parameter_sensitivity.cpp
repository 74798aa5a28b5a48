#include "saltus/run/rebuilt_parameter_sensitivity.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <memory>
#include <sstream>

#include "saltus/analysis/parameter_augmented_system.hpp"
#include "saltus/model/diagnostic.hpp"

namespace saltus::run {
namespace {

[[noreturn]] void refuse(const model::Model& m, const std::string& message) {
  throw model::ModelError({model::Diagnostic{m.file, 0, 0, message}});
}

std::string exact(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

int parameter_index(const model::Model& m, const std::string& name) {
  for (size_t i = 0; i < m.parameters.size(); ++i) {
    if (m.parameters[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string parameter_names(const model::Model& m) {
  std::string out;
  for (const model::Quantity& q : m.parameters) out += (out.empty() ? "" : ", ") + q.name;
  return out.empty() ? "(none: the file has no [parameters])" : out;
}

// The model with `name` at `value`, built; refused when it moved what has no derivative.
struct Built {
  std::shared_ptr<const model::Model> model;
  model::ModelRun run;
  model::ModelStart start;
};

Built build(const ModelLoad& load, const std::vector<std::string>& overrides) {
  Built b;
  b.model = std::make_shared<const model::Model>(load(overrides));
  b.start = model::prepare_model_run(b.model, b.run);
  return b;
}

void check_unchanged(const Built& nominal, const Built& moved, const std::string& name) {
  const model::Model &a = *nominal.model, &b = *moved.model;
  const auto changes = [&](const std::string& what) {
    refuse(a, "parameter '" + name + "' changes " + what +
                  ", which has no derivative; expected a parameter of the dynamics, contacts "
                  "or initial values");
  };
  if (a.t_start != b.t_start) changes("t_start");
  if (a.t_end != b.t_end) changes("t_end");
  if (nominal.start.mode != moved.start.mode) changes("the initial mode");
  if (nominal.start.x0.size() != moved.start.x0.size()) changes("the number of states");
}

}  // namespace

bool declares_modes(const std::string& model_text) {
  try {
    return toml::parse(model_text).contains("modes");
  } catch (const toml::parse_error&) {
    return false;  // the load reports it
  }
}

ModelSensitivity rebuilt_parameter_sensitivity(const ModelLoad& load,
                                               const std::vector<std::string>& parameters,
                                               const analysis::SaltationOptions& saltation) {
  const Built nominal = build(load, {});
  const model::Model& m0 = *nominal.model;
  auto family = std::make_shared<analysis::ParameterFamily>();
  family->nominal = nominal.run.system;
  const auto np = static_cast<Eigen::Index>(parameters.size());
  family->values.resize(np);
  family->steps.resize(np);
  Matrix dx0_dp(nominal.start.x0.size(), np);
  auto augmented = std::make_shared<model::Model>(m0);
  for (Eigen::Index k = 0; k < np; ++k) {
    const std::string& name = parameters[static_cast<size_t>(k)];
    const int i = parameter_index(m0, name);
    if (i < 0) {
      refuse(m0, "no parameter '" + name + "' to differentiate; expected one of the " +
                     "[parameters]: " + parameter_names(m0));
    }
    if (std::count(parameters.begin(), parameters.end(), name) > 1) {
      refuse(m0, "parameter '" + name + "' is asked for twice");
    }
    const double p = m0.parameter_value(i), h = analysis::parameter_step(p);
    family->names.push_back(name);
    family->values[k] = p;
    family->steps[k] = h;
    const Built up = build(load, {name + "=" + exact(p + h)});
    const Built down = build(load, {name + "=" + exact(p - h)});
    check_unchanged(nominal, up, name);
    check_unchanged(nominal, down, name);
    family->plus.push_back(up.run.system);
    family->minus.push_back(down.run.system);
    dx0_dp.col(k) = (up.start.x0 - down.start.x0) / (2.0 * h);
    augmented->parameter_states.push_back(static_cast<int>(augmented->states.size()));
    augmented->states.push_back(m0.parameters[static_cast<size_t>(i)]);
  }
  ModelSensitivity out;
  out.differenced_parameters = true;
  out.run.model = augmented;
  out.run.lagrangian = nominal.run.lagrangian;  // the forces at the nominal parameters
  try {
    out.run.system = analysis::parameter_augmented_system(family);
  } catch (const Error& e) {
    refuse(m0, e.what());
  }
  const Eigen::Index nx = nominal.start.x0.size();
  Vector x0(nx + np);
  x0 << nominal.start.x0, family->values;
  out.sensitivity =
      analysis::flow_map_sensitivity(out.run.system, nominal.start.mode, m0.t_start, x0, m0.t_end,
                                     m0.options, nominal.start.z0, saltation);
  out.run.result = std::move(out.sensitivity.run);
  for (size_t i = 0; i < m0.parameters.size(); ++i) {
    out.run.parameter_values.push_back(m0.parameter_value(static_cast<int>(i)));
  }
  // x0 depends on p: d x(t_end)/d p = J_p + J_x dx0/dp. (Same state count in every mode.)
  Matrix& J = out.sensitivity.flow_map_jacobian;
  if (out.sensitivity.ok() && J.rows() == nx + np) {
    J.rightCols(np) += J.leftCols(nx) * dx0_dp;
  }
  return out;
}

}  // namespace saltus::run
