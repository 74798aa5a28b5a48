// libFuzzer target for the model-file parser, the expression graph and the tapes
// (docs/FUZZING.md). Each input is tried twice: as a whole model file (TOML + every expression in
// it, then the HybridSystem built from it: flows, symbolic Jacobians, guards with their gradients
// and resets, evaluated once in every mode, or in an even sample of 32 modes of a larger system),
// and as one bare expression (its tape evaluated in double and in
// Dual, and its symbolic derivatives); a model that loads is loaded and built again with every
// parameter at run time. Any outcome other than success or a ModelError /
// saltus::Error is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/model/runtime_parameters.hpp"

namespace {

using saltus::Dual;
using saltus::DualVector;

// Every mode of a system of up to this many, an even sample of this many of a larger one: the
// eight corners of models/cube_drop_friction.toml make 1680 modes, whose guards and resets all
// took minutes under the sanitizers; the modes of one kind share their code, and the stride
// reaches every kind.
constexpr int kMaxExercisedModes = 32;

void exercise(const saltus::HybridSystem& sys, int nx) {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(nx, 0.5, 1.5), xp(nx);
  const int stride = (sys.mode_count() + kMaxExercisedModes - 1) / kMaxExercisedModes;
  for (int m = 0; m < sys.mode_count(); m += std::max(stride, 1)) {
    const saltus::Mode& mode = sys.mode(m);
    const saltus::Flow& f = mode.flow;
    Eigen::VectorXd z = Eigen::VectorXd::Constant(f.nz, -0.25), out(nx), g(f.nz);
    Eigen::MatrixXd jx(nx, nx), jv(nx, nx), jz(nx, f.nz), gx(f.nz, nx), gz(f.nz, f.nz);
    if (f.rhs) f.rhs(0.75, x, z, out);
    if (f.rhs_jacobian) f.rhs_jacobian(0.75, x, z, jx, jz);
    if (f.residual) f.residual(0.75, x, x, z, out);
    if (f.residual_jacobian) f.residual_jacobian(0.75, x, x, z, jx, jv, jz);
    if (f.algebraic) f.algebraic(0.75, x, z, g);
    if (f.algebraic_jacobian) f.algebraic_jacobian(0.75, x, z, gx, gz);
    Eigen::VectorXd dpdx(nx), dpdz(f.nz);
    for (const saltus::Guard& guard : mode.guards) {
      volatile double sink = guard.value(0.75, x, z);
      sink = guard.gradient(0.75, x, z, dpdx, dpdz);
      (void)sink;
      if (guard.reset.apply) {
        std::string failure;
        const std::vector<int> nx_of_mode(sys.mode_count(), nx);
        Eigen::VectorXd outputs(guard.reset.output_names.size());
        saltus::Jump jump{guard.reset.target < 0 ? 0 : guard.reset.target, xp, outputs, failure,
                          nx_of_mode.data()};
        guard.reset.apply(0.75, x, z, jump);
      }
    }
  }
}

void exercise(const saltus::lang::Tape& p, int nx, int nz) {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(nx, 0.5, 1.5);
  Eigen::VectorXd z = Eigen::VectorXd::Constant(nz, -0.25);
  volatile double sink = saltus::lang::evaluate(p, 0.75, x, x, z);
  DualVector xd(nx), zd(nz);
  for (int i = 0; i < nx; ++i) xd[i] = Dual(x[i], i == 0 ? 1.0 : 0.0);
  for (int i = 0; i < nz; ++i) zd[i] = Dual(z[i]);
  const Dual r = saltus::lang::evaluate(p, Dual(0.75, 1.0), xd, xd, zd);
  sink = r.derivative();
  (void)sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto m = std::make_shared<const saltus::model::Model>(
        saltus::model::load_model_text(text, "fuzz.toml", {"g=1"}));
    exercise(saltus::model::build_hybrid_system(m), static_cast<int>(m->states.size()));
    // Again with every parameter kept at run time (refused where a value is computed from
    // one at load time), after a new value is written.
    saltus::model::LoadOptions runtime;
    for (const auto& p : m->parameters) runtime.runtime_parameters.push_back(p.name);
    auto r = std::make_shared<const saltus::model::Model>(
        saltus::model::load_model_text(text, "fuzz.toml", {"g=1"}, runtime));
    for (int i : r->runtime_parameters) {
      saltus::model::set_runtime_parameter(*r, r->parameters[static_cast<size_t>(i)].name, 0.5);
    }
    exercise(saltus::model::build_hybrid_system(r), static_cast<int>(r->states.size()));
  } catch (const saltus::Error&) {
    // ModelError (with its diagnostics) is the expected outcome for bad input.
  }
  saltus::lang::SymbolTable s;
  s.constants = {{"g", 9.81}, {"e", 0.8}};
  s.states = {"x", "v"};
  s.algebraic = {"z"};
  s.allow_state_rate = size % 2 == 0;
  const int eq = saltus::lang::find_equals(text);
  saltus::lang::ExpressionGraph graph;
  const auto c = eq >= 0 ? saltus::lang::parse_residual(text, eq, s, graph)
                         : saltus::lang::parse_expression(text, s, graph);
  if (c.ok()) {
    std::vector<saltus::lang::TapeOutput> outputs{{c.node, 0}};
    for (int i = 0; i < 2; ++i) {
      outputs.push_back({graph.derivative(c.node, {saltus::lang::OpCode::State, i}), i + 1});
    }
    exercise(saltus::lang::compile_tape(graph, outputs), 2, 1);
  }
  return 0;
}
