#include "saltus/model/model_system.hpp"

#include <utility>

namespace saltus::model {
namespace {

// Writes every flow program of `mode` into `out` (x'_i, or residual F_i).
template <class S, class X, class XRate, class Z, class Out>
void eval_all(const std::vector<Program>& programs, const S& t, const X& x, const XRate& xrate,
              const Z& z, Out& out) {
  for (size_t i = 0; i < programs.size(); ++i) {
    out[static_cast<Eigen::Index>(i)] = evaluate(programs[i], t, x, xrate, z);
  }
}

Reset::Map reset_map(std::shared_ptr<const Model> keep, const std::vector<Assignment>* a) {
  if (a->empty()) return {};
  return [keep = std::move(keep), a](double t, ConstVectorRef x, ConstVectorRef z, VectorRef xp) {
    // All right-hand sides read the pre-reset state, whatever the order of the assignments.
    SmallVector<double> values(static_cast<Eigen::Index>(a->size()));
    for (size_t k = 0; k < a->size(); ++k) {
      values[static_cast<Eigen::Index>(k)] = evaluate((*a)[k].value, t, x, x, z);
    }
    xp = x;
    for (size_t k = 0; k < a->size(); ++k) {
      xp[(*a)[k].state] = values[static_cast<Eigen::Index>(k)];
    }
  };
}

Flow make_flow(const std::shared_ptr<const Model>& keep, const ModelMode& mode, int nx) {
  const std::vector<Program>* f = &mode.flow;
  const std::vector<Program>* g = &mode.constraints;
  const int nz = static_cast<int>(mode.algebraic.size());
  auto constraints = [keep, g](const auto& t, const auto& x, const auto& z, auto& res) {
    eval_all(*g, t, x, x, z, res);
  };
  switch (mode.kind) {
    case FlowKind::Ode:
      return ode_flow(nx, [keep, f](const auto& t, const auto& x, auto& xdot) {
        eval_all(*f, t, x, x, x, xdot);
      });
    case FlowKind::SemiExplicitDae:
      return semi_explicit_flow(
          nx, nz,
          [keep, f](const auto& t, const auto& x, const auto& z, auto& xdot) {
            eval_all(*f, t, x, x, z, xdot);
          },
          constraints);
    case FlowKind::ImplicitDae:
      return implicit_flow(
          nx, nz,
          [keep, f](const auto& t, const auto& x, const auto& xdot, const auto& z, auto& res) {
            eval_all(*f, t, x, xdot, z, res);
          },
          constraints);
  }
  return {};
}

}  // namespace

HybridSystem build_hybrid_system(std::shared_ptr<const Model> model) {
  HybridSystem sys;
  const int nx = static_cast<int>(model->states.size());
  for (const ModelMode& mode : model->modes) sys.add_mode(mode.name, make_flow(model, mode, nx));
  for (size_t m = 0; m < model->modes.size(); ++m) {
    const ModelMode& mode = model->modes[m];
    const auto id = static_cast<ModeId>(m);
    for (const ModelGuard& g : mode.guards) {
      const Program* p = &g.value;
      sys.add_guard(id, make_guard(
                            g.name, g.direction,
                            [model, p](const auto& t, const auto& x, const auto& z) {
                              return evaluate(*p, t, x, x, z);
                            },
                            Reset::to(g.target, reset_map(model, &g.reset)), g.terminal));
    }
    if (mode.zeno) {
      sys.set_zeno_handover(id,
                            ZenoHandover{mode.zeno->target, reset_map(model, &mode.zeno->reset)});
    }
  }
  return sys;
}

}  // namespace saltus::model
