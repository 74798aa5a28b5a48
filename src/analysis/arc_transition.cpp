#include "saltus/analysis/arc_transition.hpp"

#include "saltus/sim/simulator.hpp"
#include "variational_flow.hpp"

namespace saltus::analysis {

struct ArcTransition::Variational {
  std::shared_ptr<detail::VariationalWorkspace> workspace;
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
    slot->workspace =
        std::make_shared<detail::VariationalWorkspace>(m.flow, options_.stepper.newton);
    slot->system.add_mode(m.name + " (variational)", detail::variational_flow(slot->workspace));
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
