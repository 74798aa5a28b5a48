#include "saltus/run/density_setup.hpp"

#include <memory>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/lang/tape.hpp"
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

// `root` with every velocity q' (states dof..2 dof - 1) replaced by 0, built in `g`: the nodes
// up to root are rebuilt in id order (operands have smaller ids) through make(), which folds
// the zeros away, so T(q, 0) of a kinetic energy without a velocity-free part is constant 0.
lang::NodeId at_rest(lang::ExpressionGraph& g, lang::NodeId root, int dof) {
  std::vector<lang::NodeId> image(static_cast<size_t>(root) + 1, lang::kNoNode);
  for (lang::NodeId id = 0; id <= root; ++id) {
    const lang::ExpressionNode n = g.node(id);  // a copy: make() grows the node table
    const auto operand = [&image](lang::NodeId a) {
      return a == lang::kNoNode ? a : image[static_cast<size_t>(a)];
    };
    lang::NodeId& out = image[static_cast<size_t>(id)];
    if (lang::arity(n.op) == 0) {
      out = n.op == lang::OpCode::State && n.index >= dof ? g.constant(0.0) : id;
    } else if (n.op == lang::OpCode::PowConst) {
      out = g.pow_const(operand(n.a), n.value);
    } else {
      out = g.make(n.op, operand(n.a), operand(n.b), operand(n.c));
    }
  }
  return image[static_cast<size_t>(root)];
}

// The model's energy must be a first integral of its flow (the density is of one energy
// surface): no applied generalised forces and no explicit time in T or V. Throws naming the file
// and every term at fault.
void check_conservative(const DensityArguments& args, const model::Model& model) {
  const model::ModelMechanics& m = *model.mechanics;
  const lang::ExpressionGraph& g = *model.graph;
  std::vector<std::string> causes;
  for (int i = 0; i < static_cast<int>(m.applied_forces.size()); ++i) {
    if (!g.is_zero(m.applied_forces[static_cast<size_t>(i)])) {
      causes.push_back("[mechanics] forces gives a generalised force on '" +
                       model.states[static_cast<size_t>(i)].name + "'");
    }
  }
  const lang::Variable t{lang::OpCode::Time, 0};
  if (g.depends_on(m.kinetic_energy, t)) causes.push_back("[mechanics] kinetic_energy reads t");
  if (g.depends_on(m.potential_energy, t)) {
    causes.push_back("[mechanics] potential_energy reads t");
  }
  if (causes.empty()) return;
  std::string list;
  for (const std::string& c : causes) list += (list.empty() ? "" : "; ") + c;
  saltus::detail::throw_error(args.model,
                              ": saltus density needs a model whose energy is conserved (the "
                              "density is of one energy surface), but ",
                              list,
                              "; expected no [mechanics] forces (a conservative force belongs in "
                              "potential_energy) and T and V that do not read t");
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
  s.kinetic_energy = s.energy;
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
  check_conservative(args, *model);
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
  // The energy E = T2(q, q') + V(q) - T(q, 0), T2 = 1/2 q'^T M(q) q' (T's part linear in q' does
  // no work). With V - T(q, 0) = 0 it is T2, kept by projection; otherwise the projection, which
  // rescales q' only, cannot keep E where T2 vanishes, and the run keeps E to the integrator's
  // tolerance (the error is reported).
  lang::ExpressionGraph g = *model->graph;
  const int n = nm.dof();
  const lang::NodeId potential = g.make(lang::OpCode::Sub, model->mechanics->potential_energy,
                                        at_rest(g, model->mechanics->kinetic_energy, n));
  s.projected = g.is_zero(potential);
  const model::MechanicalSystem built = model::build_mechanical_system(model, s.projected);
  s.system = built.system;
  s.mode = built.initial_mode;
  s.starts = mech::energy_surface_starts(nm, model->initial_state(), args.trajectories, args.seed);
  s.kinetic_energy = [nm, n](ConstVectorRef x) { return nm.kinetic_energy(x.head(n), x.tail(n)); };
  if (s.projected) {
    s.energy = s.kinetic_energy;
  } else {
    const auto tape = std::make_shared<const lang::Tape>(lang::compile_tape(g, {{potential, 0}}));
    const double t0 = model->t_start;
    s.energy = [nm, n, tape, t0](ConstVectorRef x) {
      const Vector state = x, z(0);
      return nm.kinetic_energy(x.head(n), x.tail(n)) + lang::evaluate(*tape, t0, state, z);
    };
  }
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
