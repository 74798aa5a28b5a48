#include "saltus/sim/simulator.hpp"

#include <variant>

#include "hybrid_loop.hpp"
#include "saltus/core/error.hpp"
#include "saltus/ode/dop853.hpp"
#include "saltus/ode/dopri5.hpp"
#include "saltus/ode/radau5.hpp"

namespace saltus {

struct Simulator::Engine {
  Engine(const HybridSystem& s, const SimulationOptions& o) : system(s), options(o) {}
  const HybridSystem& system;
  SimulationOptions options;  // owned copy: the loop keeps a reference to it
  std::variant<std::monostate, detail::HybridLoop<ode::Dopri5>, detail::HybridLoop<ode::Dop853>,
               detail::HybridLoop<ode::Radau5>>
      loop;
};

namespace {

void check_guard_gradients(const HybridSystem& system, const SimulationOptions& options) {
  if (options.events.root_finder != events::RootFinderKind::Newton) return;
  for (const Mode& m : system.modes()) {
    for (const Guard& g : m.guards) {
      if (!g.gradient) {
        saltus::detail::throw_error("events.root_finder = newton needs guard gradients; guard '",
                                    g.name, "' of mode '", m.name,
                                    "' has none (use make_guard, or another root "
                                    "finder)");
      }
    }
  }
}

}  // namespace

Simulator::Simulator(const HybridSystem& system, const SimulationOptions& options)
    : engine_(std::make_unique<Engine>(system, options)) {
  system.validate();
  const std::string problems = options.validate();
  if (!problems.empty()) saltus::detail::throw_error("invalid simulation options: ", problems);
  check_guard_gradients(system, options);
  switch (options.integrator) {
    case Integrator::Dopri5:
      engine_->loop.emplace<detail::HybridLoop<ode::Dopri5>>(system, engine_->options);
      break;
    case Integrator::Dop853:
      engine_->loop.emplace<detail::HybridLoop<ode::Dop853>>(system, engine_->options);
      break;
    case Integrator::Radau5:
      engine_->loop.emplace<detail::HybridLoop<ode::Radau5>>(system, engine_->options);
      break;
  }
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

const HybridSystem& Simulator::system() const {
  return engine_->system;
}
const SimulationOptions& Simulator::options() const {
  return engine_->options;
}

void Simulator::run(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0, double t_end,
                    SimulationResult& result) {
  engine_->system.mode(mode);  // throws on an unknown id
  std::visit(
      [&](auto& loop) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(loop)>, std::monostate>) {
          loop.run(mode, t0, x0, z0, t_end, result);
        }
      },
      engine_->loop);
}

SimulationResult Simulator::run(ModeId mode, double t0, ConstVectorRef x0, ConstVectorRef z0,
                                double t_end) {
  SimulationResult result;
  run(mode, t0, x0, z0, t_end, result);
  return result;
}

SimulationResult simulate(const HybridSystem& system, ModeId mode, double t0, ConstVectorRef x0,
                          double t_end, const SimulationOptions& options, ConstVectorRef z0) {
  Simulator sim(system, options);
  return sim.run(mode, t0, x0, z0, t_end);
}

}  // namespace saltus
