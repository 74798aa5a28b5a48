// Guards and projection of a mode holding two or more rigid contacts closed in a model with
// friction in space (kind IndexSets; compiled_lagrangian.hpp). Every reset continues by
// choose_spatial_sets (spatial_index_set_choice.cpp) with the event's contact moved as it says:
//   "painleve:<set>" p = -B rising (a contact slides; B of spatial_index_set_dynamics.hpp): the
//                    sliding system turns singular -> the run ends naming it
//   "lift-off:<c>"  p = -lambda_N,c rising -> c opens
//   "stick:<c>"     c's slip speed falls to kStickGuardOffset of its scale -> c at rest
//   "slip:<c>"      |lambda_T,c| - mu_s lambda_N,c rising (c sticking; the flow's split of the
//                   friction forces) -> c slips from rest
// The resets change the velocity (residual slip removed, a slip from rest started). Their
// derivative (Reset::chosen_jacobian) is that of the map with the choice's decisions held, read
// from the modes before and after (a perturbed state would decide otherwise: which contacts are
// at rest depends on the run's scales).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "mode_quantity.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"

namespace saltus::mech::detail {

bool continue_spatial_sets(const CompiledLagrangian& ctx, double t, ConstVectorRef q,
                           const SpatialSetsEvent& event, unsigned mask, Jump& jump) {
  const int n = ctx.n;
  LagrangianMode next;
  if (!choose_spatial_sets(ctx.model, t, q, jump.x_plus.segment(n, n), event, mask,
                           jump.state_scales, jump.state_atol, next, jump.failure)) {
    jump.cause = code(ContactStop::Painleve);
    return false;
  }
  jump.target = ctx.find(next);
  if (jump.target == kNoMode) {  // more dependent normals closed than modes are built for
    jump.failure = saltus::detail::text(
        "model '", ctx.model.name(), "': at t = ", t, " the contacts chosen to stay closed (",
        describe_sets(ctx.model, next.closed_set, next.stick_set, 0),
        ") have no mode: their normals are dependent by two or more");
    jump.cause = code(ContactStop::Painleve);
    return false;
  }
  return true;
}

namespace {

// The sticking contacts a mode holds, as bits.
unsigned stick_bits(const LagrangianMode& mode) {
  if (mode.kind == ClosedKind::IndexSets) return mode.stick_set;
  return mode.kind == ClosedKind::SpatialStick ? 1u << mode.closed_contact : 0u;
}

// The decisions the choice took at an event from `source` into `target`, read from the two
// modes: the contacts touching (closed before or after), those whose slip the jump set (sticking
// after, or slipping from rest: sticking before and sliding after). A contact sliding before and
// after keeps the slip the projection leaves it (the run's rare slip from rest of a contact that
// slid within the rest band is taken so too).
SpatialChoiceTrace trace_of_jump(const LagrangianModel& m, const LagrangianMode& source,
                                 const LagrangianMode& target) {
  SpatialChoiceTrace trace;
  trace.closed = closed_bits(target);
  trace.stick = stick_bits(target);
  trace.touching = closed_bits(source) | trace.closed;
  trace.onset = stick_bits(source) & trace.closed & ~trace.stick;
  trace.onset_speed.assign(static_cast<size_t>(m.contact_count()), 0.0);
  trace.rest = (trace.stick | trace.onset) & trace.touching;
  return trace;
}

}  // namespace

Reset spatial_sets_reset(const Context& ctx, ModeId self, const SpatialSetsEvent& event,
                         unsigned mask) {
  Reset r = Reset::custom(
      self, true, [ctx, event, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        jump.x_plus.head(2 * ctx->n) = x;
        return continue_spatial_sets(*ctx, t, x.head(ctx->n), event, mask, jump);
      });
  // With the decisions held, x+ = (q, continued_velocity(q, qd)): its derivative by central
  // differences (step cbrt(eps) max(1, |x_k|); the map is linear in qd, smooth in q). A slip
  // from rest starts at 0 here: its onset speed (1e-10 of the slip's scale) moves the derivative
  // by that fraction.
  r.chosen_jacobian = [ctx, self, mask](ModeId target, double t, ConstVectorRef x, ConstVectorRef,
                                        ConstVectorRef, MatrixRef d_dx, MatrixRef d_dz,
                                        VectorRef d_dt) {
    const int n = ctx->n;
    const LagrangianModel& m = ctx->model;
    const SpatialChoiceTrace trace = trace_of_jump(m, ctx->mode_of(self), ctx->mode_of(target));
    d_dx.setZero();
    d_dz.setZero();
    const auto map = [&](double tt, const Vector& xs) {
      return Vector(
          continued_velocity(m, tt, load<double>(xs, 0, n), load<double>(xs, n, n), trace, mask));
    };
    d_dx.topLeftCorner(n, n).setIdentity();
    const double root = std::cbrt(std::numeric_limits<double>::epsilon());
    Vector xs = x;
    for (int k = 0; k < 2 * n; ++k) {
      const double h = root * std::max(1.0, std::abs(x[k]));
      xs[k] = x[k] + h;
      const Vector up = map(t, xs);
      xs[k] = x[k] - h;
      const Vector down = map(t, xs);
      xs[k] = x[k];
      d_dx.block(n, k, n, 1) = (up - down) / (2.0 * h);
    }
    const double h = root * std::max(1.0, std::abs(t));
    d_dt.head(n).setZero();
    d_dt.tail(n) = (map(t + h, xs) - map(t - h, xs)) / (2.0 * h);
  };
  return r;
}

namespace {

// "a&b" of the closed contacts, for guard names (no comma: names go into CSV columns).
std::string joined_names(const LagrangianModel& m, unsigned closed) {
  std::string out;
  for_each_bit(closed, [&](int i) { out += (out.empty() ? "" : "&") + m.contact(i).name; });
  return out;
}

}  // namespace

void add_spatial_index_set_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                  const LagrangianMode& mode) {
  const LagrangianModel& m = ctx->model;
  const unsigned closed = mode.closed_set, stick = mode.stick_set, mask = mode.compliant_mask;
  unsigned sliding = 0;
  for_each_bit(closed & ~stick, [&](int i) {
    if (m.contact(i).spatial_frictional()) sliding |= 1u << i;
  });
  if (sliding) {
    sys.add_guard(
        id, make_guard(
                "painleve:" + joined_names(m, closed), Direction::Rising,
                of_dynamics(ctx, mode, [](const auto& d) { return -d.B + kJamMargin; }),
                Reset::custom(id, false,
                              [ctx, closed](double t, ConstVectorRef, ConstVectorRef, Jump& jump) {
                                jump.cause = code(ContactStop::Painleve);
                                jump.failure = saltus::detail::text(
                                    "model '", ctx->model.name(), "': at t = ", t,
                                    " the closed contacts ", joined_names(ctx->model, closed),
                                    " sliding in space have no unique contact forces "
                                    "(the normalised determinant B of their system "
                                    "reaches zero: Painleve)");
                                return false;
                              })));
  }
  for_each_bit(closed, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    const unsigned bit = 1u << i;
    sys.add_guard(
        id, make_guard("lift-off:" + c.name, Direction::Rising,
                       of_dynamics(ctx, mode, [i](const auto& d) { return -d.lambda_N_of[i]; }),
                       spatial_sets_reset(ctx, id, {closed, bit, 0, 0, stick}, mask)));
    if (!c.spatial_frictional()) return;
    if (sliding & bit) {
      Guard g = make_guard(
          "stick:" + c.name, Direction::Falling,
          [ctx, i](const auto&, const auto& x, const auto&) {
            using S = std::decay_t<decltype(x[0])>;
            using std::sqrt;
            const auto [q, qd] = split_state(x, ctx->n);
            SlipKinematics<S> kt;
            slip_kinematics(ctx->model.contact(i), q, qd, kt);
            const S speed2 = kt.speed2();
            return val(speed2) > 0.0 ? S(sqrt(speed2)) : S(0.0);
          },
          spatial_sets_reset(ctx, id, {closed, 0, 0, bit, stick}, mask));
      g.scale_offset = kStickGuardOffset;
      g.steps_land_on_crossing = true;  // the slip direction turns over at zero speed
      sys.add_guard(id, std::move(g));
      return;
    }
    sys.add_guard(id,
                  make_guard("slip:" + c.name, Direction::Rising,
                             of_dynamics(ctx, mode,
                                         [ctx, i](const auto& d) {
                                           using std::sqrt;
                                           using S = std::decay_t<decltype(d.lambda_N)>;
                                           const double mu = ctx->model.contact(i).law.static_mu();
                                           const S f2 = S(d.lambda_T_of[i] * d.lambda_T_of[i] +
                                                          d.lambda_T2_of[i] * d.lambda_T2_of[i] +
                                                          d.lambda_T3_of[i] * d.lambda_T3_of[i]);
                                           const S f = val(f2) > 0.0 ? S(sqrt(f2)) : S(0.0);
                                           return S(f - mu * d.lambda_N_of[i]);
                                         }),
                             spatial_sets_reset(ctx, id, {closed, 0, bit, 0, stick}, mask)));
  });
}

InvariantProjection spatial_index_set_projection(const Context& ctx, const LagrangianMode& mode) {
  std::vector<int> normal, sticking;
  for_each_bit(mode.closed_set, [&](int i) {
    normal.push_back(i);
    if (((mode.stick_set >> i) & 1u) && ctx->model.contact(i).spatial_frictional()) {
      sticking.push_back(i);
    }
  });
  const int k = static_cast<int>(normal.size()), n = ctx->n;
  InvariantProjection p;
  p.count = 2 * k;
  for (const int i : sticking) p.count += ctx->model.contact(i).slip_rows();
  p.values = [ctx, normal, sticking, k, n](ConstVectorRef x, VectorRef c) {
    const LagrangianModel& m = ctx->model;
    const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
    DofVector<double> w;
    for (int j = 0; j < k; ++j) {
      const LagrangianContact& contact = m.contact(normal[static_cast<size_t>(j)]);
      c[j] = contact.gap(q);
      gradient(contact.gap, q, w);
      c[k + j] = w.dot(qd);
    }
    int row = 2 * k;
    for (const int i : sticking) {
      for (int r = 0; r < m.contact(i).slip_rows(); ++r) {
        m.contact(i).slip[static_cast<size_t>(r)](q, w);
        c[row++] = w.dot(qd);
      }
    }
  };
  p.project = [ctx, normal, sticking, k, n](ConstVectorRef target, VectorRef x) {
    const LagrangianModel& m = ctx->model;
    const Vector zero_rates = Vector::Zero(k);
    if (!project_onto_contacts(m, normal, {}, target.head(k), zero_rates, x.head(n),
                               x.segment(n, n))) {
      return false;
    }
    const DofVector<double> q = load<double>(x, 0, n);
    RateRows rows;
    DofVector<double> w;
    for (const int i : normal) {
      gradient(m.contact(i).gap, q, w);
      rows.add(w, 0.0);
    }
    for (const int i : sticking) {
      for (int r = 0; r < m.contact(i).slip_rows(); ++r) {
        m.contact(i).slip[static_cast<size_t>(r)](q, w);
        rows.add(w, 0.0);
      }
    }
    const DofVector<double> qd = with_rates(m, q, load<double>(x, n, n), rows);
    x.segment(n, n) = qd;
    return qd.allFinite();
  };
  return p;
}

}  // namespace saltus::mech::detail
