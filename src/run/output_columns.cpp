// Named outputs at the trajectory samples (output_columns.hpp).
#include "saltus/run/output_columns.hpp"

#include "saltus/lang/tape.hpp"

namespace saltus::run {
namespace {

lang::Tape outputs_tape(const model::Model& model) {
  std::vector<lang::TapeOutput> out;
  for (size_t k = 0; k < model.outputs.size(); ++k) {
    out.push_back({model.outputs[k].value, static_cast<std::int32_t>(k)});
  }
  return lang::compile_tape(*model.graph, out);
}

}  // namespace

OutputColumns output_columns(const model::ModelRun& run) {
  OutputColumns out;
  const model::Model& model = *run.model;
  if (model.outputs.empty()) return out;
  for (const model::ModelOutput& o : model.outputs) out.names.push_back(o.name);
  const lang::Tape tape = outputs_tape(model);
  const Trajectory& tr = run.result.trajectory;
  out.values = Matrix::Zero(tr.size(), static_cast<Eigen::Index>(out.names.size()));
  const Vector no_z(0);  // outputs read no algebraic state (the loader refuses them)
  for (long i = 0; i < tr.size(); ++i) {
    const ConstVectorRef x = tr.x(i);
    lang::run(tape, tr.t(i), x, x, no_z, [&out, i](int k, double v) { out.values(i, k) = v; });
  }
  return out;
}

Vector output_values(const model::Model& model, double t, const ConstVectorRef& x) {
  Vector out = Vector::Zero(static_cast<Eigen::Index>(model.outputs.size()));
  if (model.outputs.empty()) return out;
  const Vector no_z(0);
  lang::run(outputs_tape(model), t, x, x, no_z, [&out](int k, double v) { out[k] = v; });
  return out;
}

}  // namespace saltus::run
