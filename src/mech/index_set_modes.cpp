// Modes holding two or more rigid contacts closed (kind IndexSets) and their guards: the
// transitions of [LB] Sec. 2 as guards of the current index sets; every reset chooses the next sets
// by the contact-force LCP (index_set_choice.hpp) with the changed contact moved as the event says.
//   "lift-off:<c>"  p = -lambda_N,c rising -> LCP over I_N \ {c}
//   "stick:<c>"     p = -s gdot_T,c rising past its scale offset (c sliding with s reaches rest;
//                   stick_guard_value) -> LCP with c in I_H
//   "slip+:<c>", "slip-:<c>"  p = -/+ lambda_T,c - mu lambda_N,c rising (c sticking) -> LCP with c
//                   and the members of its sticking group (equal w_T) sliding with s
//   "painleve:<sets>" p = -B rising (some contact sliding; B of index_set_dynamics.hpp): the
//                   system of the closed contacts becomes singular -> the run ends naming it
#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"

namespace saltus::mech::detail {

namespace {

// The reset of an index-set event: x unchanged, the next mode from the LCP over the given sets.
Reset choose_reset(const Context& ctx, ModeId self, unsigned closed, unsigned stick,
                   unsigned slip_negative, unsigned mask) {
  return Reset::custom(self, true,
                       [ctx, closed, stick, slip_negative, mask](double t, ConstVectorRef x,
                                                                 ConstVectorRef, Jump& jump) {
                         const int n = ctx->n;
                         jump.x_plus.head(2 * n) = x;
                         LagrangianMode next;
                         if (!choose_index_sets(ctx->model, t, x.head(n), x.tail(n), closed, stick,
                                                slip_negative, mask, next, jump.failure)) {
                           jump.cause = code(ContactStop::Painleve);
                           return false;
                         }
                         jump.target = ctx->find(next);
                         return true;
                       });
}

template <class T, class X>
DynamicsT<std::decay_t<decltype(std::declval<X>()[0])>> dynamics_at(const Context& ctx,
                                                                    const LagrangianMode& mode,
                                                                    const T& t, const X& x) {
  using S = std::decay_t<decltype(x[0])>;
  const int n = ctx->n;
  DynamicsT<S> d;
  mode_dynamics(ctx->model, mode, S(t), load<S>(x, 0, n), load<S>(x, n, n), d);
  return d;
}

// The sliding speed of i reached zero: i, the sliding contacts with i's w_T (they reach zero
// together) and any other at rest join I_H; the LCP decides stick, reversal or lift-off.
Reset stick_reset(const Context& ctx, ModeId self, int i, unsigned closed, unsigned stick,
                  unsigned neg, unsigned mask) {
  return Reset::custom(
      self, true,
      [ctx, i, closed, stick, neg, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n;
        const LagrangianModel& m = ctx->model;
        jump.x_plus.head(2 * n) = x;
        unsigned at_rest = 0, negative = 0;
        sets_from_velocities(m, closed, x.head(n), x.tail(n), jump.state_scales, at_rest, negative,
                             kEventRestRate);
        const Vector w_i = m.tangent_gradient(i, x.head(n));
        unsigned next_stick = stick | at_rest | (1u << i);
        const SpdFactor<double> M = factored_mass(m, x.head(n));
        for_each_bit(closed & ~stick, [&](int j) {
          if (m.contact(j).frictional() &&
              sticking_directions_shared(M, w_i, m.tangent_gradient(j, x.head(n)))) {
            next_stick |= 1u << j;
          }
        });
        LagrangianMode next;
        if (!choose_index_sets(m, t, x.head(n), x.tail(n), closed, next_stick, neg & ~next_stick,
                               mask, next, jump.failure)) {
          jump.cause = code(ContactStop::Painleve);
          return false;
        }
        jump.target = ctx->find(next);
        return true;
      });
}

// "a&b" of the closed contacts, for guard names (no comma: names go into CSV columns).
std::string closed_names(const LagrangianModel& m, unsigned closed) {
  std::string out;
  for_each_bit(closed, [&](int i) { out += (out.empty() ? "" : "&") + m.contact(i).name; });
  return out;
}

// qdot -= M^-1 W G^+ W^T qdot, W = (w_N of `closed`, w_T of `stick`), G = W^T M^-1 W: the
// velocity M-closest to qdot with those rates zero (G may be singular: dependent w_T).
void remove_rest_rates(const LagrangianModel& m, unsigned closed, unsigned stick, ConstVectorRef q,
                       VectorRef qdot) {
  const int n = m.dof();
  const int k = std::popcount(closed) + std::popcount(stick);
  if (k == 0) return;
  Matrix W(n, k);
  int j = 0;
  for_each_bit(closed, [&](int i) { W.col(j++) = m.gap_gradient(i, q); });
  for_each_bit(stick, [&](int i) { W.col(j++) = m.tangent_gradient(i, q); });
  const Matrix MW = m.mass_matrix(q).llt().solve(W);
  const Eigen::CompleteOrthogonalDecomposition<Matrix> G(W.transpose() * MW);
  const Vector change = MW * G.solve(W.transpose() * qdot);
  qdot -= change;
}

}  // namespace

namespace {

// The sets of two or more rigid contacts that get modes: up to dof() members, at most one more
// than the rank of their normals at a few seeded random configurations (rank is lower
// semicontinuous, so its largest value over generic samples is its rank almost everywhere). Four
// corners of a box's face (rank 3) may close together; a set dependent by two or more (five
// corners of a box on the floor) cannot touch at once. A model whose gaps are not finite at the
// samples keeps every set.
std::vector<unsigned> possible_closed_sets(const LagrangianModel& m,
                                           const std::vector<int>& rigid) {
  constexpr int kSamples = 6;
  std::mt19937 rng(20261130u);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<Matrix> normals;  // per sample: the rigid contacts' normals as columns
  for (int s = 0; s < kSamples; ++s) {
    Vector q(m.dof());
    for (int k = 0; k < m.dof(); ++k) q[k] = normal(rng);
    Matrix W(m.dof(), static_cast<Eigen::Index>(rigid.size()));
    for (size_t j = 0; j < rigid.size(); ++j)
      W.col(static_cast<Eigen::Index>(j)) = m.gap_gradient(rigid[j], q);
    if (W.allFinite()) normals.push_back(W);
  }
  std::vector<unsigned> out;
  const size_t r = rigid.size();
  for (unsigned subset = 0; r > 1 && subset < (1u << r); ++subset) {
    const int size = std::popcount(subset);
    if (size < 2 || size > m.dof()) continue;
    bool independent = normals.empty();
    for (const Matrix& W : normals) {
      Matrix cols(m.dof(), size);
      int c = 0;
      for (size_t j = 0; j < r; ++j) {
        if ((subset >> j) & 1u) cols.col(c++) = W.col(static_cast<Eigen::Index>(j)).normalized();
      }
      Eigen::ColPivHouseholderQR<Matrix> qr(cols);
      qr.setThreshold(1e-8);
      if (qr.rank() + 1 >= size) {
        independent = true;
        break;
      }
    }
    if (independent) out.push_back(subset);
  }
  return out;
}

}  // namespace

// The modes of kind IndexSets: every set of two or more rigid contacts of possible_closed_sets,
// each frictional member sticking or sliding
// either way (planar) or sticking or sliding (in space: the direction is the state's). Refused
// beyond kMaxIndexSetModes.
void add_index_set_modes(const LagrangianModel& m, const std::vector<int>& rigid, unsigned mask,
                         std::vector<LagrangianMode>& modes) {
  constexpr size_t kMaxIndexSetModes = 4096;
  const size_t r = rigid.size();
  const size_t first = modes.size();
  for (const unsigned subset : possible_closed_sets(m, rigid)) {
    unsigned closed = 0, frictional = 0, spatial = 0;
    for (size_t j = 0; j < r; ++j) {
      if (!((subset >> j) & 1u)) continue;
      closed |= 1u << rigid[j];
      if (m.contact(rigid[j]).frictional()) frictional |= 1u << rigid[j];
      if (m.contact(rigid[j]).spatial_frictional()) spatial |= 1u << rigid[j];
    }
    // Each planar frictional member: 0 slip+, 1 slip-, 2 stick (base-3 digits of `code`); each
    // member with friction in space: 0 slip, 1 stick (the base-2 digits after them).
    const int nf = std::popcount(frictional);
    int combos = 1 << std::popcount(spatial);
    for (int j = 0; j < nf; ++j) combos *= 3;
    for (int code = 0; code < combos; ++code) {
      unsigned stick = 0, negative = 0;
      int rest = code;
      for_each_bit(frictional, [&](int i) {
        if (rest % 3 == 1) negative |= 1u << i;
        if (rest % 3 == 2) stick |= 1u << i;
        rest /= 3;
      });
      for_each_bit(spatial, [&](int i) {
        if (rest % 2 == 1) stick |= 1u << i;
        rest /= 2;
      });
      modes.push_back(mode_of_sets(m, closed, stick, negative, mask));
      if (modes.size() - first > kMaxIndexSetModes) {
        saltus::detail::throw_error("model '", m.name(), "': ", r,
                                    " rigid contacts need more than ", kMaxIndexSetModes,
                                    " modes for their index sets (closed, sticking, sliding)");
      }
    }
  }
}

void add_index_set_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode) {
  const LagrangianModel& m = ctx->model;
  const unsigned closed = mode.closed_set, stick = mode.stick_set, neg = mode.slip_negative_set;
  const unsigned mask = mode.compliant_mask;
  const unsigned sliding = closed & ~stick;
  bool any_friction_slides = false;
  for_each_bit(sliding, [&](int i) { any_friction_slides |= m.contact(i).frictional(); });
  if (any_friction_slides) {
    const std::string sets = describe_sets(m, closed, stick, neg);
    sys.add_guard(
        id, make_guard(
                "painleve:" + closed_names(m, closed), Direction::Rising,
                [ctx, mode](const auto& t, const auto& x, const auto&) {
                  using S = std::decay_t<decltype(x[0])>;
                  return S(-dynamics_at(ctx, mode, t, x).B);
                },
                Reset::custom(
                    id, false,
                    [ctx, mode, sets](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
                      const auto d = dynamics_at(ctx, mode, t, x);
                      jump.failure = saltus::detail::text(
                          "model '", ctx->model.name(), "': Painleve: the closed ", "contacts ",
                          sets, " at t = ", t,
                          " have no unique contact forces while sliding (normalised ",
                          "det of the contact system B = ", d.B, ")");
                      jump.cause = code(ContactStop::Painleve);
                      return false;
                    })));
  }
  for_each_bit(closed, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    const unsigned bit = 1u << i;
    sys.add_guard(id, make_guard(
                          "lift-off:" + c.name, Direction::Rising,
                          [ctx, mode, i](const auto& t, const auto& x, const auto&) {
                            using S = std::decay_t<decltype(x[0])>;
                            return S(-dynamics_at(ctx, mode, t, x).lambda_N_of[i]);
                          },
                          choose_reset(ctx, id, closed & ~bit, stick & ~bit, neg & ~bit, mask)));
    if (!c.frictional()) return;
    if (!(stick & bit)) {
      const double s = neg & bit ? -1.0 : 1.0;
      Guard g = make_guard(
          "stick:" + c.name, Direction::Rising,
          [ctx, i, s](const auto&, const auto& x, const auto&) {
            using S = std::decay_t<decltype(x[0])>;
            const int n = ctx->n;
            const DofVector<S> q = load<S>(x, 0, n), qd = load<S>(x, n, n);
            return stick_guard_value(ctx->model.contact(i), s, q, qd);
          },
          stick_reset(ctx, id, i, closed, stick, neg, mask));
      g.scale_offset = kStickGuardOffset;
      sys.add_guard(id, std::move(g));
      return;
    }
    for (const double s : {1.0, -1.0}) {
      // The contacts of i's sticking group (equal w_T) reach the cone edge together; all of
      // them start to slide.
      const Reset reset = Reset::custom(
          id, true,
          [ctx, closed, stick, neg, mask, i, s](double t, ConstVectorRef x, ConstVectorRef,
                                                Jump& jump) {
            const int n = ctx->n;
            jump.x_plus.head(2 * n) = x;
            const Vector w_i = ctx->model.tangent_gradient(i, x.head(n));
            unsigned group = 0;
            const SpdFactor<double> M = factored_mass(ctx->model, x.head(n));
            for_each_bit(stick, [&](int j) {
              const Vector w_j = ctx->model.tangent_gradient(j, x.head(n));
              if (sticking_directions_shared(M, w_i, w_j)) group |= 1u << j;
            });
            const unsigned negative = s < 0.0 ? (neg | group) : (neg & ~group);
            LagrangianMode next;
            if (!choose_index_sets(ctx->model, t, x.head(n), x.tail(n), closed, stick & ~group,
                                   negative, mask, next, jump.failure)) {
              jump.cause = code(ContactStop::Painleve);
              return false;
            }
            jump.target = ctx->find(next);
            return true;
          });
      sys.add_guard(id, make_guard(
                            std::string(s > 0.0 ? "slip+:" : "slip-:") + c.name, Direction::Rising,
                            [ctx, mode, s, i](const auto& t, const auto& x, const auto&) {
                              using S = std::decay_t<decltype(x[0])>;
                              const auto d = dynamics_at(ctx, mode, t, x);
                              // mu_s read now: it may follow a run-time parameter.
                              const double mu = ctx->model.contact(i).law.static_mu();
                              return S(-s * d.lambda_T_of[i] - mu * d.lambda_N_of[i]);
                            },
                            reset));
    }
  });
}

void add_index_sets_guard(HybridSystem& sys, ModeId id, const Context& ctx, unsigned mask) {
  sys.add_guard(
      id, make_guard(
              "index-sets", Direction::Rising,
              [](const auto&, const auto& x, const auto&) {
                using S = std::decay_t<decltype(x[0])>;
                return S(1.0);
              },
              Reset::custom(
                  id, true, [ctx, mask](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
                    const int n = ctx->n;
                    const LagrangianModel& m = ctx->model;
                    jump.x_plus.head(2 * n) = x;
                    const ContactScales s = contact_scales(jump.state_scales, x.head(n), x.tail(n));
                    unsigned closed = 0;
                    for (int i = 0; i < m.contact_count(); ++i) {
                      if (!m.contact(i).rigid()) continue;
                      const double g = m.gap(i, x.head(n));
                      const Vector w = m.gap_gradient(i, x.head(n));
                      const double band = kPostZenoGapBand * scale_along(w, s.q);
                      if (g < -band) {
                        jump.failure = saltus::detail::text(
                            m.describe_contact(i), ": the Zeno limit state at t = ", t,
                            " penetrates by ", -g, " (beyond ", band,
                            ", 1e-8 of the gap's scale): the extrapolated accumulation is not a "
                            "settling one; the run stops rather than project it");
                        jump.cause = code(ContactStop::ZenoLimit);
                        return false;
                      }
                      const double rate = w.dot(x.tail(n));
                      if (g <= kImpactGapBand * scale_along(w, s.q) &&
                          std::abs(rate) <= kPostZenoRestRate * scale_along(w, s.qdot)) {
                        closed |= 1u << i;
                      }
                    }
                    if (m.has_spatial_friction()) {  // slip below the same level is at rest
                      unsigned at_rest = 0;
                      for_each_bit(closed, [&](int i) {
                        const LagrangianContact& c = m.contact(i);
                        if (!c.spatial_frictional()) return;
                        double scale = 0.0, slip2 = 0.0;
                        for (int r = 0; r < c.slip_rows(); ++r) {
                          DofVector<double> e;
                          c.slip[static_cast<size_t>(r)](load<double>(x, 0, n), e);
                          scale += scale_along(e, s.qdot);
                          slip2 += e.dot(x.tail(n)) * e.dot(x.tail(n));
                        }
                        if (std::sqrt(slip2) <= kPostZenoRestRate * scale) at_rest |= 1u << i;
                      });
                      return continue_spatial_sets(*ctx, t, x.head(n), {closed, 0, 0, at_rest},
                                                   mask, jump);
                    }
                    // Tangential rates at the level the extrapolation leaves in the normal
                    // ones (1e-9) are sticking candidates too: the LCP decides stick or slip.
                    // (A box rocking to rest on sticking corners reached post-zeno with
                    // gdot_T = 2e-11; taken as sliding, a tall box tipped over on that.)
                    unsigned stick = 0, negative = 0;
                    sets_from_velocities(m, closed, x.head(n), x.tail(n), jump.state_scales, stick,
                                         negative, kPostZenoRestRate);
                    // Those rates removed as post_zeno_projection removes the normal ones: a
                    // sticking contact left with gdot_T = 2e-11 slides off at once against its
                    // own slip direction, and stick <-> slip flip at this instant.
                    remove_rest_rates(m, closed, stick, x.head(n), jump.x_plus.segment(n, n));
                    LagrangianMode next;
                    const Vector qd = jump.x_plus.segment(n, n);
                    if (!choose_index_sets(m, t, x.head(n), qd, closed, stick, negative, mask, next,
                                           jump.failure)) {
                      jump.cause = code(ContactStop::Painleve);
                      return false;
                    }
                    jump.target = ctx->find(next);
                    return true;
                  })));
}

Guard penetration_guard(const Context& ctx, int d, ModeId self) {
  Guard g = make_guard(
      "penetration:" + ctx->model.contact(d).name, Direction::Rising,
      [ctx, d](const auto&, const auto& x, const auto&) {
        using S = std::decay_t<decltype(x[0])>;
        return S(-ctx->model.contact(d).gap(load<S>(x, 0, ctx->n)));
      },
      Reset::custom(self, false, [ctx, d](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        jump.failure = saltus::detail::text(
            ctx->model.describe_contact(d), ": penetrates by ", -ctx->model.gap(d, x.head(ctx->n)),
            " at t = ", t, " (beyond ", kPenetrationLimit,
            " of the gap's scale): its impact was missed, the run stops rather than pass through "
            "the surface (near a Zeno point: a larger zeno.handover_tolerance hands over before "
            "the noise)");
        jump.cause = code(ContactStop::Penetration);
        return false;
      }));
  g.scale_offset = kPenetrationLimit;   // the engine's level in the gap's own scale
  g.when = ctx->model.contact(d).when;  // a foot behind the stance foot is not in the ground
  g.when_text = ctx->model.contact(d).when_text;
  enclose_gap_guard(g, ctx, d, -1.0);
  return g;
}

}  // namespace saltus::mech::detail
