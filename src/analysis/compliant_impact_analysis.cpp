#include "saltus/analysis/compliant_impact_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/compliant_closed_forms.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::analysis {

using namespace mech;  // NOLINT: the laws and closed forms are this analysis's vocabulary

CompliantImpactResult analyze_compliant_impact(const CompliantContactLaw& law, double m,
                                               double impact_speed,
                                               const CompliantImpactOptions& options) {
  law.validate("analyze_compliant_impact");
  if (!std::isfinite(m) || m <= 0.0) {
    saltus::detail::throw_error("analyze_compliant_impact: mass m = ", m, " must be > 0");
  }
  if (!std::isfinite(impact_speed) || impact_speed <= 0.0) {
    saltus::detail::throw_error("analyze_compliant_impact: impact speed v0 = ", impact_speed,
                                " must be > 0");
  }
  const double v0 = impact_speed, g = options.gravity;
  const double n = law.kind == CompliantLawKind::HuntCrossley ? law.n : 1.0;
  const double t_scale = compliant_contact_time_scale(m, law.k, n, v0);
  const double t_lead = 0.02 * t_scale;

  // An observation guard whose reset keeps the mode would fire again as soon as it leaves its
  // band towards the trigger side (the engine's re-trigger rule for contact surfaces), so each
  // observation moves the run to a copy of the contact mode without that guard: four contact
  // modes indexed by (max penetration seen, max force seen).
  HybridSystem sys;
  const ModeId free = sys.add_mode("free", ode_flow(2, [g](const auto&, const auto& x, auto& xd) {
                                     xd[0] = x[1];
                                     xd[1] = -g;
                                   }));
  auto contact_flow = ode_flow(2, [law, m, g](const auto&, const auto& x, auto& xd) {
    using S = std::decay_t<decltype(x[0])>;
    const S delta = -x[0], delta_dot = -x[1];
    xd[0] = x[1];
    xd[1] = law.force(delta, delta_dot) / m - g;  // f pushes towards +x
  });
  const char* names[4] = {"contact", "contact (after max penetration)", "contact (after max force)",
                          "contact (after both)"};
  ModeId contact[4];
  for (int i = 0; i < 4; ++i) contact[i] = sys.add_mode(names[i], contact_flow);
  sys.add_guard(free, make_guard(
                          "contact", Direction::Rising,
                          [](const auto&, const auto& x, const auto&) { return -x[0]; },
                          Reset::to(contact[0])));
  for (int i = 0; i < 4; ++i) {
    const bool pen_seen = (i & 1) != 0, force_seen = (i & 2) != 0;
    if (!pen_seen) {
      // Deepest point: deltadot = -v crosses zero, i.e. v rises through 0.
      sys.add_guard(contact[i], make_guard(
                                    "max_penetration", Direction::Rising,
                                    [](const auto&, const auto& x, const auto&) { return x[1]; },
                                    Reset::to(contact[i | 1])));
    }
    if (!force_seen) {
      // Force maximum: df/dt = f_delta deltadot + f_deltadot deltaddot falls through 0.
      Guard max_force;
      max_force.name = "max_force";
      max_force.direction = Direction::Rising;
      max_force.value = [law, m, g](double, ConstVectorRef x, ConstVectorRef) {
        const double delta = -x[0], delta_dot = -x[1];
        const double delta_ddot = g - law.force(delta, delta_dot) / m;
        return -law.force(Dual(delta, delta_dot), Dual(delta_dot, delta_ddot)).derivative();
      };
      max_force.reset = Reset::to(contact[i | 2]);
      sys.add_guard(contact[i], max_force);
    }
    if (law.releases_on_force()) {
      sys.add_guard(contact[i], make_guard(
                                    "release", Direction::Rising,
                                    [law](const auto&, const auto& x, const auto&) {
                                      using S = std::decay_t<decltype(x[0])>;
                                      const S delta = -x[0], delta_dot = -x[1];
                                      return -law.force(delta, delta_dot);
                                    },
                                    Reset::to(free), /*terminal=*/true));
    } else {
      sys.add_guard(contact[i], make_guard(
                                    "release", Direction::Rising,
                                    [](const auto&, const auto& x, const auto&) { return x[0]; },
                                    Reset::to(free), /*terminal=*/true));
    }
  }

  SimulationOptions sim;
  sim.integrator = Integrator::Dop853;
  sim.stepper.rtol = options.rtol;
  sim.stepper.atol = options.atol > 0.0 ? options.atol : 1e-3 * options.rtol * v0 * t_scale;
  Vector x0(2);
  // Free fall backwards from (x = 0, v = -v0) over t_lead: the contact starts at t = t_lead.
  x0 << v0 * t_lead - 0.5 * g * t_lead * t_lead, -v0 + g * t_lead;
  const double t_end = t_lead + options.max_duration_factor * t_scale;
  const SimulationResult run = simulate(sys, free, 0.0, x0, t_end, sim);

  CompliantImpactResult r;
  r.summary = run.summary;
  auto force_at = [&](const Eigen::Map<const Vector>& x) { return law.force(-x[0], -x[1]); };
  for (long i = 0; i < run.events.size(); ++i) {
    const EventRecord& ev = run.events[i];
    if (ev.guard == kZenoHandoverGuard) continue;
    const auto x = run.events.x_before(i);
    const std::string& name = sys.mode(ev.mode_before).guards[ev.guard].name;
    if (name == "contact" && std::isnan(r.contact_time)) {
      r.contact_time = ev.t;
      r.max_force = force_at(x);
    } else if (name == "max_penetration") {
      r.time_of_max_penetration = ev.t - r.contact_time;
      r.max_penetration = -x[0];
    } else if (name == "max_force") {
      r.max_force = std::max(r.max_force, force_at(x));
    } else if (name == "release") {
      r.released = true;
      r.contact_duration = ev.t - r.contact_time;
      r.exit_velocity = x[1];
      r.restitution = x[1] / v0;
      r.penetration_at_release = -x[0];
      r.force_at_release = force_at(x);
      r.max_force = std::max(r.max_force, r.force_at_release);
    }
  }
  if (!r.released) r.restitution = 0.0;
  return r;
}

}  // namespace saltus::analysis
