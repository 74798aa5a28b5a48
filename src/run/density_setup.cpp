#include "saltus/run/density_setup.hpp"

#include <memory>

#include "saltus/core/error.hpp"
#include "saltus/mech/energy_surface_starts.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/systems/billiard_catalogue.hpp"

namespace saltus::run {
namespace {

// --range XLO XHI YLO YHI, when given, replaces the axes' default ranges.
void apply_range(const DensityArguments& args, analysis::DensityAxis& x, analysis::DensityAxis& y) {
  if (args.range.empty()) return;
  if (args.range.size() != 4 || !(args.range[0] < args.range[1]) ||
      !(args.range[2] < args.range[3])) {
    saltus::detail::throw_error("--range takes XLO XHI YLO YHI with XLO < XHI and YLO < YHI");
  }
  x.lo = args.range[0];
  x.hi = args.range[1];
  y.lo = args.range[2];
  y.hi = args.range[3];
}

}  // namespace

DensitySetup builtin_density_setup(const DensityArguments& args) {
  const systems::Billiard billiard = systems::make_billiard(args.system, args.set);
  DensitySetup s;
  s.label = args.system;
  for (const auto& [name, value] : billiard.params) s.parameters.emplace_back(name, value);
  mech::NonholonomicModel::CompileOptions compile_options;
  compile_options.project_invariants = true;
  const auto compiled = billiard.model.compile(compile_options);
  s.system = compiled.system;
  s.mode = compiled.mode;
  s.starts = systems::billiard_initial_states(billiard, args.trajectories, args.seed);
  s.energy = [billiard](ConstVectorRef x) { return systems::billiard_energy(billiard, x); };
  s.elastic = billiard.params.at("e") == 1.0;
  s.x_axis = systems::billiard_axis(billiard, args.vars[0], args.grid[0]);
  s.y_axis = systems::billiard_axis(billiard, args.vars[1], args.grid[1]);
  apply_range(args, s.x_axis, s.y_axis);
  s.observable = systems::billiard_observable(billiard, s.x_axis.variable, s.y_axis.variable);
  return s;
}

DensitySetup model_density_setup(const DensityArguments& args) {
  const auto model =
      std::make_shared<const model::Model>(model::load_model_file(args.model, args.set));
  if (!model->mechanics || model->mechanics->constraint_rows.empty()) {
    saltus::detail::throw_error(args.model,
                                ": saltus density needs a model with [mechanics] constraints (a "
                                "nonholonomic billiard, e.g. models/chaplygin_sleigh.toml)");
  }
  if (args.range.empty()) {
    saltus::detail::throw_error(args.model,
                                ": --range XLO XHI YLO YHI is required with a model file (the "
                                "grid's extent is not known from the model)");
  }
  const mech::NonholonomicModel nm = model::nonholonomic_model(model);
  DensitySetup s;
  s.label = args.model;
  for (int i = 0; i < static_cast<int>(model->parameters.size()); ++i) {
    s.parameters.emplace_back(model->parameters[static_cast<size_t>(i)].name,
                              model->parameter_value(i));
  }
  const model::MechanicalSystem built = model::build_mechanical_system(model, true);
  s.system = built.system;
  s.mode = built.initial_mode;
  s.starts = mech::energy_surface_starts(nm, model->initial_state(), args.trajectories, args.seed);
  const int n = nm.dof();
  s.energy = [nm, n](ConstVectorRef x) { return nm.kinetic_energy(x.head(n), x.tail(n)); };
  for (const model::ModelContact& c : model->mechanics->contacts) {
    if (c.rigid_law.e != 1.0) s.elastic = false;
  }
  analysis::DensityAxis* axes[2] = {&s.x_axis, &s.y_axis};
  for (int a = 0; a < 2; ++a) {
    const int index = model->state_index(args.vars[static_cast<size_t>(a)]);
    if (index < 0) {
      std::string names;
      for (const auto& q : model->states) names += (names.empty() ? "" : ", ") + q.name;
      saltus::detail::throw_error(args.model, ": has no state '", args.vars[static_cast<size_t>(a)],
                                  "' for --vars (its states: ", names, ")");
    }
    axes[a]->variable = index;
    axes[a]->bins = args.grid[static_cast<size_t>(a)];
  }
  apply_range(args, s.x_axis, s.y_axis);
  return s;
}

}  // namespace saltus::run
