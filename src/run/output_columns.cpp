// Named outputs at the trajectory samples and at events (output_columns.hpp).
#include "saltus/run/output_columns.hpp"

#include <limits>
#include <optional>

#include "saltus/lang/tape.hpp"
#include "saltus/model/contact_quantities.hpp"
#include "saltus/run/contact_force_columns.hpp"

namespace saltus::run {
namespace {

constexpr double kNoOutputValue = std::numeric_limits<double>::quiet_NaN();

// One tape of every output and, when they read contact forces, where each contact's forces
// come from: contact k of the model (ModelMechanics::contacts) is contact of_model[k] of the
// run's compiled LagrangianModel (matched by name).
class OutputTape {
 public:
  explicit OutputTape(const model::ModelRun& run) : run_(run) {
    const model::Model& model = *run.model;
    std::vector<lang::TapeOutput> out;
    for (size_t k = 0; k < model.outputs.size(); ++k) {
      out.push_back({model.outputs[k].value, static_cast<std::int32_t>(k)});
      for (const lang::Variable& v : model.graph->inputs(model.outputs[k].value)) {
        reads_forces_ = reads_forces_ || v.kind == lang::OpCode::Algebraic;
      }
    }
    tape_ = lang::compile_tape(*model.graph, out);
    const size_t contacts = model.mechanics ? model.mechanics->contacts.size() : 0;
    z_ = Vector::Constant(2 * static_cast<Eigen::Index>(contacts), kNoOutputValue);
    if (!reads_forces_ || !run.lagrangian) return;
    const mech::LagrangianModel& lm = run.lagrangian->model();
    for (size_t k = 0; k < contacts; ++k) {
      int found = -1;
      for (int c = 0; c < lm.contact_count(); ++c) {
        if (lm.contact(c).name == model.mechanics->contacts[k].name) found = c;
      }
      of_model_.push_back(found);
    }
  }

  // Every output at (t, x) in `mode` into out[0 .. outputs).
  template <class Out>
  void at(ModeId mode, double t, const ConstVectorRef& x, Out&& out) {
    const Eigen::Index n = static_cast<Eigen::Index>(run_.model->outputs.size());
    if (x.size() < static_cast<Eigen::Index>(run_.model->states.size())) {
      for (Eigen::Index k = 0; k < n; ++k) out(k, kNoOutputValue);  // not the model's states
      return;
    }
    if (reads_forces_) {
      z_.setConstant(kNoOutputValue);
      if (const std::optional<mech::ContactForces> f = contact_forces_at(run_, mode, t, x)) {
        for (size_t k = 0; k < of_model_.size(); ++k) {
          if (of_model_[k] < 0) continue;
          const int contact = static_cast<int>(k);
          z_[model::normal_force_input(contact)] = f->normal[of_model_[k]];
          z_[model::tangent_force_input(contact)] = f->tangential[of_model_[k]];
        }
      }
    }
    lang::run(tape_, t, x, x, z_, [&out](int k, double v) { out(k, v); });
  }

 private:
  const model::ModelRun& run_;
  lang::Tape tape_;
  bool reads_forces_ = false;
  std::vector<int> of_model_;
  Vector z_;  // the forces of the state at hand (model/contact_quantities.hpp's inputs)
};

}  // namespace

OutputColumns output_columns(const model::ModelRun& run) {
  OutputColumns out;
  const model::Model& model = *run.model;
  if (model.outputs.empty()) return out;
  for (const model::ModelOutput& o : model.outputs) out.names.push_back(o.name);
  OutputTape outputs(run);
  const Trajectory& tr = run.result.trajectory;
  out.values = Matrix::Zero(tr.size(), static_cast<Eigen::Index>(out.names.size()));
  for (long i = 0; i < tr.size(); ++i) {
    outputs.at(tr.mode(i), tr.t(i), tr.x(i),
               [&out, i](Eigen::Index k, double v) { out.values(i, k) = v; });
  }
  return out;
}

OutputColumns event_output_columns(const model::ModelRun& run) {
  OutputColumns out;
  const model::Model& model = *run.model;
  if (model.outputs.empty()) return out;
  for (const model::ModelOutput& o : model.outputs) {
    out.names.push_back(o.name + "_before");
    out.names.push_back(o.name + "_after");
  }
  OutputTape outputs(run);
  const EventLog& log = run.result.events;
  out.values = Matrix::Zero(log.size(), static_cast<Eigen::Index>(out.names.size()));
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& e = log[i];
    outputs.at(e.mode_before, e.t, log.x_before(i),
               [&out, i](Eigen::Index k, double v) { out.values(i, 2 * k) = v; });
    outputs.at(e.mode_after, e.t, log.x_after(i),
               [&out, i](Eigen::Index k, double v) { out.values(i, 2 * k + 1) = v; });
  }
  return out;
}

Vector output_values(const model::ModelRun& run, ModeId mode, double t, const ConstVectorRef& x) {
  Vector out = Vector::Zero(static_cast<Eigen::Index>(run.model->outputs.size()));
  if (out.size() == 0) return out;
  OutputTape(run).at(mode, t, x, [&out](Eigen::Index k, double v) { out[k] = v; });
  return out;
}

}  // namespace saltus::run
