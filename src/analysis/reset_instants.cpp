#include "reset_instants.hpp"

#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::analysis::detail {
namespace {

// Beyond this fraction of its scale a guard's value is no perturbation of a converged orbit (far
// above the simulator's band, events.guard_tolerance = 2e-12, and an orbit's residual).
constexpr double kCarriedMargin = 1e-6;
// A mode that lasts at most this fraction of the run, entered on a guard's surface (within the
// margin above) and left by that guard, lasted "a moment": the corner of a landing met from
// the side where the guard is crossed after the jump (a converged orbit's iterate lies within
// its residual of the corner, on either side).
constexpr double kMoment = 1e-9;

std::string event_name(const HybridSystem& system, const EventRecord& r) {
  return "guard '" + system.mode(r.mode_before).guards[r.guard].name + "' of mode '" +
         system.mode(r.mode_before).name + "'";
}

// Each state component's magnitude over the run (the largest |x_i| at its start, before and
// after its events and at its end), at least its atol: what a guard's value is measured against. A
// component near 0 at the corner, as a wall's coordinate when it is hit, keeps the scale of the
// run.
Vector run_scales(const SimulationResult& run, ConstVectorRef x0,
                  const SimulationOptions& options) {
  const EventLog& log = run.events;
  Eigen::Index n = std::max(x0.size(), run.x_final.size());
  for (long i = 0; i < log.size(); ++i) {
    n = std::max<Eigen::Index>(n, std::max(log[i].nx_before, log[i].nx_after));
  }
  Vector scale = Vector::Zero(n);
  scale.head(x0.size()) = x0.cwiseAbs();
  scale.head(run.x_final.size()) = scale.head(run.x_final.size()).cwiseMax(run.x_final.cwiseAbs());
  for (long i = 0; i < log.size(); ++i) {
    for (const ConstVectorRef x : {log.x_before(i), log.x_after(i)}) {
      scale.head(x.size()) = scale.head(x.size()).cwiseMax(x.cwiseAbs());
    }
  }
  const ode::StepperOptions& o = options.stepper;
  for (Eigen::Index i = 0; i < n; ++i) {
    scale[i] =
        std::max(scale[i], o.atol_per_component.size() > i ? o.atol_per_component[i] : o.atol);
  }
  return scale;
}

// |p| / (kCarriedMargin x the guard's scale) of guard g at (t, x, z), the scale
// sum_i |dp/dx_i| S_i + sum_j |dp/dz_j| |z_j| with S the run's scales (the simulator's guard
// scale without its clock term); NaN when the guard has no value or gradient.
double margins_from_surface(const Guard& g, double t, ConstVectorRef x, ConstVectorRef z,
                            const Vector& scales) {
  if (!g.value || !g.gradient) return kNaN;
  Vector dpdx(x.size()), dpdz(z.size());
  g.gradient(t, x, z, dpdx, dpdz);
  double scale = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    scale += std::abs(dpdx[i]) * std::max(std::abs(x[i]), scales[i]);
  }
  for (Eigen::Index j = 0; j < z.size(); ++j) scale += std::abs(dpdz[j]) * std::abs(z[j]);
  return std::abs(g.value(t, x, z)) / (kCarriedMargin * scale);
}

bool is_guard_record(const EventRecord& r) {
  return r.guard >= 0;
}

}  // namespace

ResetInstants group_resets_by_instant(const HybridSystem& system, const SimulationResult& run,
                                      double t0, ConstVectorRef x0,
                                      const SimulationOptions& options) {
  ResetInstants out;
  const EventLog& log = run.events;
  // The run's scales, computed at the first pair of resets that needs them (most runs have none).
  Vector scales_storage;
  const auto scales = [&]() -> const Vector& {
    if (scales_storage.size() == 0) scales_storage = run_scales(run, x0, options);
    return scales_storage;
  };
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& r = log[i];
    if (r.observation || r.guard == kZenoHandoverGuard) continue;
    if (out.chains.empty()) {
      out.chains.push_back({i});
      continue;
    }
    const long previous = out.chains.back().back();
    const EventRecord& p = log[previous];
    const bool guards = is_guard_record(r) && is_guard_record(p);
    const Guard* g = guards ? &system.mode(r.mode_before).guards[r.guard] : nullptr;
    if (r.t != p.t) {
      // A moment in the mode the previous jump entered, from a landing on this guard's surface:
      // the same corner, met from its other side.
      const bool moment = guards && r.mode_before == p.mode_after &&
                          r.t - p.t <= kMoment * std::max(std::abs(run.t_final - t0), 1e-300) &&
                          margins_from_surface(*g, p.t, log.x_after(previous),
                                               log.z_after(previous), scales()) <= 1.0;
      if (moment) {
        out.has_chain = true;
        ResetCorner c;
        c.previous = previous;
        c.follower = i;
        c.landing = true;
        c.message = saltus::detail::text(
            "events ", previous, " and ", i, " (", event_name(system, p), ", then ",
            event_name(system, r), ") reset the state at t = ", p.t, " and ", r.t,
            ": the first jump landed on the second's surface, so the flow map has a corner "
            "there (one-sided derivatives differ) and is not differentiable at this start");
        out.corners.push_back(std::move(c));
      }
      out.chains.push_back({i});
      continue;
    }
    out.has_chain = true;
    const double after =
        g ? margins_from_surface(*g, r.t, log.x_before(i), log.z_before(i), scales()) : kNaN;
    if (after > 1.0) {  // carried across
      out.chains.back().push_back(i);
      continue;
    }
    ResetCorner c;
    c.previous = previous;
    c.follower = i;
    // Landing: the follower's guard, in the mode the jump left, was away from its surface
    // before the jump (or is no guard of that mode).
    const bool same_mode = guards && r.mode_before == p.mode_before;
    c.landing =
        guards && (!same_mode || margins_from_surface(*g, p.t, log.x_before(previous),
                                                      log.z_before(previous), scales()) > 1.0);
    const std::string a = guards ? event_name(system, p) : "a layer's reset";
    const std::string b = guards ? event_name(system, r) : "a layer's reset";
    c.message = saltus::detail::text(
        "events ", previous, " and ", i, " (", a, ", then ", b,
        ") reset the state at the same t = ", r.t,
        c.landing ? ": the first jump landed on the second's surface"
                  : ": both surfaces were crossed at that instant",
        ", so the flow map has a corner there (one-sided derivatives differ) and is not "
        "differentiable at this start");
    out.corners.push_back(std::move(c));
    out.chains.push_back({i});
  }
  return out;
}

std::vector<std::vector<long>> joined_at(const ResetInstants& instants, const ResetCorner& corner) {
  std::vector<std::vector<long>> out;
  for (const std::vector<long>& chain : instants.chains) {
    if (chain.front() == corner.follower && !out.empty()) {
      out.back().insert(out.back().end(), chain.begin(), chain.end());
    } else {
      out.push_back(chain);
    }
  }
  return out;
}

}  // namespace saltus::analysis::detail
