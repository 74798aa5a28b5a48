// libFuzzer target for the model-file parser and the expression compiler (docs/FUZZING.md).
// Each input is tried twice: as a whole model file (TOML + every expression in it, then each
// compiled program evaluated in double and in Dual), and as one bare expression.
// Any outcome other than success or a ModelError / saltus::Error is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/expression_compiler.hpp"
#include "saltus/model/model_loader.hpp"

namespace {

using saltus::Dual;
using saltus::DualVector;
using saltus::model::Program;

void exercise(const Program& p, int nx, int nz) {
  if (p.empty()) return;
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(nx, 0.5, 1.5);
  Eigen::VectorXd z = Eigen::VectorXd::Constant(nz, -0.25);
  volatile double sink = saltus::model::evaluate(p, 0.75, x, x, z);
  DualVector xd(nx), zd(nz);
  for (int i = 0; i < nx; ++i) xd[i] = Dual(x[i], i == 0 ? 1.0 : 0.0);
  for (int i = 0; i < nz; ++i) zd[i] = Dual(z[i]);
  const Dual r = saltus::model::evaluate(p, Dual(0.75, 1.0), xd, xd, zd);
  sink = r.derivative();
  (void)sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const saltus::model::Model m = saltus::model::load_model_text(text, "fuzz.toml", {"g=1"});
    const int nx = static_cast<int>(m.states.size());
    for (const auto& mode : m.modes) {
      const int nz = static_cast<int>(mode.algebraic.size());
      for (const Program& p : mode.flow) exercise(p, nx, nz);
      for (const Program& p : mode.constraints) exercise(p, nx, nz);
      for (const auto& g : mode.guards) {
        exercise(g.value, nx, nz);
        for (const auto& a : g.reset) exercise(a.value, nx, nz);
      }
    }
  } catch (const saltus::Error&) {
    // ModelError (with its diagnostics) is the expected outcome for bad input.
  }
  saltus::model::SymbolTable s;
  s.constants = {{"g", 9.81}, {"e", 0.8}};
  s.states = {"x", "v"};
  s.algebraic = {"z"};
  s.allow_state_rate = size % 2 == 0;
  const int eq = saltus::model::find_equals(text);
  const auto c = eq >= 0 ? saltus::model::compile_residual(text, eq, s)
                         : saltus::model::compile_expression(text, s);
  if (c.ok()) exercise(c.program, 2, 1);
  return 0;
}
