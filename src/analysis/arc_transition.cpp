#include "saltus/analysis/arc_transition.hpp"

#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {
namespace {

// What the augmented flow's callables share: the mode's evaluator (it keeps z between calls)
// and the matrix dphi/dx.
struct Workspace {
  Workspace(const Flow& flow, const ode::NewtonOptions& newton)
      : evaluator(flow.nx, flow.nz, newton), a(flow.nx, flow.nx), nx(flow.nx) {
    evaluator.set_flow(flow);
  }
  ode::FlowEvaluator evaluator;
  Matrix a;
  int nx;
};

// y = (x, vec Phi) (Phi column-major): y' = (phi(t, x), vec(dphi/dx Phi)).
Flow variational_flow(std::shared_ptr<Workspace> ws) {
  const int nx = ws->nx;
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = nx * (1 + nx);
  flow.rhs = [ws](double t, ConstVectorRef y, ConstVectorRef, VectorRef ydot) {
    const int n = ws->nx;
    if (!ws->evaluator.derivative(t, y.head(n), ydot.head(n))) {
      ydot.setConstant(kNaN);  // the simulator stops with NonFiniteState and says where
      return;
    }
    ws->evaluator.reduced_jacobian(t, y.head(n), ws->a);
    Eigen::Map<const Matrix> phi(y.data() + n, n, n);
    Eigen::Map<Matrix>(ydot.data() + n, n, n).noalias() = ws->a * phi;
  };
  flow.rhs_jacobian = [ws](double t, ConstVectorRef y, ConstVectorRef, MatrixRef dfdx, MatrixRef) {
    const int n = ws->nx;
    dfdx.setZero();
    if (ws->evaluator.nz() > 0) {
      Vector xdot(n);
      ws->evaluator.derivative(t, y.head(n), xdot);  // z at this point for the reduced Jacobian
    }
    ws->evaluator.reduced_jacobian(t, y.head(n), ws->a);
    for (int k = 0; k <= n; ++k) dfdx.block(k * n, k * n, n, n) = ws->a;
  };
  return flow;
}

}  // namespace

struct ArcTransition::Variational {
  std::shared_ptr<Workspace> workspace;
  HybridSystem system;
  std::unique_ptr<Simulator> simulator;
  SimulationResult result;
};

ArcTransition::ArcTransition(const HybridSystem& system, const SimulationOptions& options)
    : system_(&system), options_(options), modes_(static_cast<size_t>(system.mode_count())) {
  // Only the final state is wanted: no samples, events or callbacks.
  options_.output = OutputOptions{};
  options_.output.record_events = false;
  options_.output.reserve_events = 0;
  options_.output.reserve_samples = 0;
  options_.on_event = nullptr;
  options_.on_progress = nullptr;
  options_.stepper.rtol_per_component.resize(0);
  options_.stepper.atol_per_component.resize(0);
}

ArcTransition::~ArcTransition() = default;
ArcTransition::ArcTransition(ArcTransition&&) noexcept = default;
ArcTransition& ArcTransition::operator=(ArcTransition&&) noexcept = default;

ArcTransition::Variational& ArcTransition::variational(ModeId mode) {
  auto& slot = modes_[static_cast<size_t>(mode)];
  if (!slot) {
    slot = std::make_unique<Variational>();
    const Mode& m = system_->mode(mode);
    slot->workspace = std::make_shared<Workspace>(m.flow, options_.stepper.newton);
    slot->system.add_mode(m.name + " (variational)", variational_flow(slot->workspace));
    slot->simulator = std::make_unique<Simulator>(slot->system, options_);
  }
  return *slot;
}

bool ArcTransition::propagate(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0,
                              double t1, Matrix& phi, Vector& x1, std::string& failure) {
  const int nx = system_->mode(mode).flow.nx, nz = system_->mode(mode).flow.nz;
  phi.setIdentity(nx, nx);
  x1 = x0;
  if (!(t1 > t0)) return true;
  Variational& v = variational(mode);
  if (nz > 0)
    v.workspace->evaluator.set_algebraic(z0.size() == nz ? Vector(z0) : Vector(Vector::Zero(nz)));
  Vector y0(nx * (1 + nx));
  y0.head(nx) = x0;
  Eigen::Map<Matrix>(y0.data() + nx, nx, nx).setIdentity();
  v.simulator->run(0, t0, y0, Vector(), t1, v.result);
  if (v.result.termination() != Termination::EndTimeReached) {
    failure = "variational equations of mode '" + system_->mode(mode).name +
              "': " + v.result.summary.message;
    return false;
  }
  x1 = v.result.x_final.head(nx);
  phi = Eigen::Map<const Matrix>(v.result.x_final.data() + nx, nx, nx);
  return true;
}

}  // namespace saltus::analysis
