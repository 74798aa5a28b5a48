// The next closed, sticking and sliding contacts of a model with friction in space, and the
// velocity they start from; see compiled_lagrangian.hpp (choose_spatial_sets).
//
// Candidates: every contact the event leaves touching at rest in the normal direction takes
// part, closed or open; a contact at rest in the tangent plane sticks, slips from rest or opens;
// a sliding one slides or opens. Each candidate is run through the flow's own dynamics
// (spatial_index_set_dynamics.hpp, or one contact's) and kept when it is consistent: closed
// contacts push (lambda_N >= 0), opened ones do not fall through (gddot_N >= 0), sticking ones
// lie in their cones (with the flow's split of the friction forces), a slip from rest speeds up
// against its friction force, and no sliding set is singular (B > 0). One consistent motion is
// taken (candidates that move the system alike are one: the one with the most contacts closed
// and sticking); none, or two that move it differently, end the run as Painleve with a message
// naming the contacts, the states tried and t. The acceleration-level contact problem in space is
// asked only where no candidate passes (spatial_contact_problem_choice.cpp): its answer's split of
// indeterminate friction forces need not be the flow's, and a contact the flow would slide could
// come back sticking at the same instant.
#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

namespace {

// A slip counts as at rest at an event below this fraction of its scale: ten times the level the
// stick guard fires at (kStickGuardOffset), so that contacts that stop together (the corners of a
// face sliding to rest in translation) are all at rest when the first one's guard fires.
constexpr double kSlipRestBand = 10.0 * kStickGuardOffset;
// A closed contact pushing by less than this fraction of its force scale is not firm (preferred
// against among answers that move the system alike).
constexpr double kFirm = 1e-6;
// Relative slack of the consistency tests (round-off of forces and accelerations at an event).
constexpr double kConsistency = 1e-9;

enum class Role { Open, Stick, Slip };

struct Candidate {
  unsigned closed = 0, stick = 0, onset = 0;  // onset: slipping from rest
};

// Contact c's slip rows eta_k at q (2, or 3 with drilling friction).
std::vector<DofVector<double>> slip_rows(const LagrangianContact& c, const DofVector<double>& q) {
  std::vector<DofVector<double>> rows(static_cast<size_t>(c.slip_rows()));
  for (size_t k = 0; k < rows.size(); ++k) c.slip[k](q, rows[k]);
  return rows;
}

// Contact i's slip-row forces in d, the dynamics of one closed contact (one) or of index sets.
std::array<double, kMaxSlipRows> slip_forces_of(const ContactDynamics& d, bool one, int i) {
  if (one) return {d.lambda_T, d.lambda_T2, d.lambda_T3};
  return {d.lambda_T_each[i], d.lambda_T2_each[i],
          d.lambda_T3_each.size() > i ? d.lambda_T3_each[i] : 0.0};
}

double slip_force_norm(const std::array<double, kMaxSlipRows>& f) {
  return std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

// The contacts of `open` whose normals lie in the span of the normals of `closed` (within 1e-8 in
// the kinetic metric, as the flow drops dependent rows).
unsigned dependent_open(const LagrangianModel& m, const DofVector<double>& q, unsigned closed,
                        unsigned open) {
  if (!closed || !open) return 0;
  const SpdFactor<double> M = factored_mass(m, q);
  std::vector<DofVector<double>> basis, basis_M;
  for_each_bit(closed, [&](int i) {
    DofVector<double> w;
    gradient(m.contact(i).gap, q, w);
    for (size_t j = 0; j < basis.size(); ++j) w -= w.dot(basis_M[j]) * basis[j];
    const DofVector<double> Mw = M.solve(w);
    const double left2 = w.dot(Mw);
    if (!(left2 > 0.0)) return;
    basis.push_back(w / std::sqrt(left2));
    basis_M.push_back(Mw / std::sqrt(left2));
  });
  unsigned out = 0;
  for_each_bit(open, [&](int i) {
    DofVector<double> w;
    gradient(m.contact(i).gap, q, w);
    const double size2 = w.dot(M.solve(w));
    for (size_t j = 0; j < basis.size(); ++j) w -= w.dot(basis_M[j]) * basis[j];
    if (!(w.dot(M.solve(w)) > 1e-16 * size2)) out |= 1u << i;
  });
  return out;
}

std::string describe(const LagrangianModel& m, const Candidate& c, unsigned all) {
  std::string out;
  for_each_bit(all, [&](int i) {
    const char* state = !((c.closed >> i) & 1u)              ? "open"
                        : !m.contact(i).spatial_frictional() ? "closed"
                        : (c.stick >> i) & 1u                ? "stick"
                        : (c.onset >> i) & 1u                ? "slip from rest"
                                                             : "slip";
    out += (out.empty() ? "'" : ", '") + m.contact(i).name + "' " + state;
  });
  return out;
}

// The velocity every candidate starts from: the slip of the contacts of `rest` removed, the
// normal rates of those of `touching` kept.
DofVector<double> resting_velocity(const LagrangianModel& m, const DofVector<double>& q,
                                   const DofVector<double>& qd, unsigned touching, unsigned rest) {
  RateRows base;
  for_each_bit(touching, [&](int i) {
    DofVector<double> w;
    gradient(m.contact(i).gap, q, w);
    base.add(w, w.dot(qd));
  });
  for_each_bit(rest, [&](int i) {
    for (const auto& row : slip_rows(m.contact(i), q)) base.add(row, 0.0);
  });
  return with_rates(m, q, qd, base);
}

// The velocity candidate c starts from, from qd0 (resting_velocity): each slip from rest (c.onset)
// started at its onset speed against the force that would hold it (the flow's split), its
// direction into `direction`; the sticking ones held at rest. False where a slip from rest has
// no force to slip against (only sticking is consistent there).
bool candidate_velocity(const LagrangianModel& m, double t, const DofVector<double>& q,
                        const DofVector<double>& qd0, const Candidate& c,
                        const std::vector<double>& onset, unsigned mask, DofVector<double>& qd,
                        std::vector<std::array<double, kMaxSlipRows>>& direction) {
  qd = qd0;
  direction.assign(static_cast<size_t>(m.contact_count()), {});
  if (!c.onset) return true;
  const LagrangianMode held = mode_of_sets(m, c.closed, c.stick | c.onset, 0, mask);
  const ContactDynamics hold = m.dynamics(held, t, q, qd0);
  RateRows kick;
  for_each_bit(c.closed, [&](int i) {
    DofVector<double> w;
    gradient(m.contact(i).gap, q, w);
    kick.add(w, w.dot(qd0));
  });
  bool ok = true;
  for_each_bit(c.onset | c.stick, [&](int i) {
    const std::array<double, kMaxSlipRows> fk =
        slip_forces_of(hold, held.kind != ClosedKind::IndexSets, i);
    const double f = slip_force_norm(fk);
    const auto rows = slip_rows(m.contact(i), q);
    if (!((c.onset >> i) & 1u)) {
      for (const auto& row : rows) kick.add(row, 0.0);
      return;
    }
    if (!(f > 0.0)) {
      ok = false;
      return;
    }
    const double start = onset[static_cast<size_t>(i)];
    for (size_t k = 0; k < rows.size(); ++k) {
      direction[static_cast<size_t>(i)][k] = -fk[k] / f;
      kick.add(rows[k], -start * fk[k] / f);
    }
  });
  if (ok) qd = with_rates(m, q, qd0, kick);
  return ok;
}

}  // namespace

// qdot + M^-1 W G^+ (target - W^T qdot): the smallest change in the kinetic metric that gives the
// rows their targets (G = W^T M^-1 W may be singular: dependent rows of a face's corners).
DofVector<double> with_rates(const LagrangianModel& m, const DofVector<double>& q,
                             DofVector<double> qd, const RateRows& rows) {
  const int n = m.dof(), k = static_cast<int>(rows.w.size());
  if (k == 0) return qd;
  Matrix W(n, k);
  Vector miss(k);
  for (int j = 0; j < k; ++j) {
    W.col(j) = rows.w[static_cast<size_t>(j)];
    miss[j] = rows.target[static_cast<size_t>(j)] - W.col(j).dot(qd);
  }
  const Matrix MW = m.mass_matrix(q).llt().solve(W);
  const Eigen::CompleteOrthogonalDecomposition<Matrix> G(W.transpose() * MW);
  qd += MW * G.solve(miss);
  return qd;
}

bool choose_spatial_sets(const LagrangianModel& m, double t, ConstVectorRef q_in,
                         VectorRef qdot_inout, const SpatialSetsEvent& event, unsigned mask,
                         const double* state_scales, const double* state_atol, LagrangianMode& out,
                         std::string& failure, SpatialChoiceTrace* trace) {
  const int n = m.dof();
  const DofVector<double> q = load<double>(q_in, 0, n);
  const DofVector<double> qd_in = load<double>(qdot_inout, 0, n);
  const ContactScales scales = contact_scales(state_scales, q_in, qdot_inout);

  // The contacts taking part: the event's that touch (an impact set may hold a contact that was
  // about to arrive: 1e-8 of its gap's scale, the Zeno limit's band), and every other rigid one
  // touching at rest.
  unsigned touching = 0;
  for (int i = 0; i < m.contact_count(); ++i) {
    const LagrangianContact& c = m.contact(i);
    if (!c.rigid()) continue;
    DofVector<double> w;
    gradient(c.gap, q, w);
    const double gap = c.gap(q), scale = scale_along(w, scales.q);
    if ((event.closed >> i) & 1u
            ? gap <= kPostZenoGapBand * scale
            : gap <= kImpactGapBand * scale &&
                  std::abs(w.dot(qd_in)) <= kEventRestRate * scale_along(w, scales.qdot)) {
      touching |= 1u << i;
    }
  }
  // At rest in the tangent plane: the event's, and those whose slip is round-off or below what
  // the run resolves. `onset`: the slip speed a slip from rest starts at, per contact.
  unsigned rest = event.at_rest | event.must_slip | event.held;
  std::vector<double> onset(static_cast<size_t>(m.contact_count()), 0.0);
  for_each_bit(touching, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    if (!c.spatial_frictional()) return;
    double scale = 0.0, resolution = 0.0, slip2 = 0.0;
    for (const DofVector<double>& row : slip_rows(c, q)) {
      scale += scale_along(row, scales.qdot);
      if (state_atol != nullptr) resolution += scale_along(row, state_atol + n);
      slip2 += row.dot(qd_in) * row.dot(qd_in);
    }
    onset[static_cast<size_t>(i)] = onset_slip_speed(scale, resolution);
    if (std::sqrt(slip2) <= std::max(kSlipRestBand * scale, resolution)) {
      rest |= 1u << i;
    }
  });
  rest &= touching;

  const DofVector<double> qd0 = resting_velocity(m, q, qd_in, touching, rest);
  if (trace != nullptr) *trace = {touching, rest, 0, 0, 0, onset, false};

  // Candidates: per contact 0 open, 1 closed (sliding, or sticking if at rest), 2 slip from rest.
  std::vector<int> members;
  for_each_bit(touching, [&](int i) { members.push_back(i); });
  std::vector<Candidate> candidates;
  const std::function<void(size_t, Candidate)> enumerate = [&](size_t k, Candidate c) {
    if (k == members.size()) {
      candidates.push_back(c);
      return;
    }
    const int i = members[k];
    const unsigned bit = 1u << i;
    const bool spatial = m.contact(i).spatial_frictional();
    const bool at_rest = (rest & bit) != 0;
    // Closed first, sticking first: the preferred answer among those that move alike.
    if (!(event.must_open & bit)) {
      if (spatial && at_rest && !(event.must_slip & bit)) {
        enumerate(k + 1, {c.closed | bit, c.stick | bit, c.onset});
      }
      if (spatial && at_rest) {
        enumerate(k + 1, {c.closed | bit, c.stick, c.onset | bit});
      } else {
        enumerate(k + 1, {c.closed | bit, c.stick, c.onset});
      }
    }
    enumerate(k + 1, c);
  };
  if (members.size() > 8) {
    failure = saltus::detail::text("model '", m.name(), "': ", members.size(),
                                   " contacts touch at rest at t = ", t,
                                   "; at most 8 are decided together in space");
    return false;
  }
  enumerate(0, {});

  struct Consistent {
    Candidate c;
    DofVector<double> qd, qdd;
    bool firm = true;  // every closed contact pushes by more than kFirm of its scale
  };
  std::vector<Consistent> found;
  std::string last_reason;
  for (const Candidate& c : candidates) {
    const LagrangianMode mode = mode_of_sets(m, c.closed, c.stick, 0, mask);
    DofVector<double> qd;
    std::vector<std::array<double, kMaxSlipRows>> onset_direction;
    bool ok = candidate_velocity(m, t, q, qd0, c, onset, mask, qd, onset_direction), firm = true;
    if (!ok) continue;
    const ContactDynamics d = m.dynamics(mode, t, q, qd);
    if (!d.qddot.allFinite()) continue;
    const DofVector<double> a = m.dynamics({-1, ClosedKind::None, mask}, t, q, qd).qddot;
    const bool single = mode.kind != ClosedKind::IndexSets;
    for_each_bit(touching, [&](int i) {
      if (!ok) return;
      const LagrangianContact& contact = m.contact(i);
      Kinematics<double> kn;
      kinematics(contact.gap, q, qd, kn);
      const double hold = (std::abs(kn.w.dot(a)) + std::abs(kn.what)) /
                          kn.w.dot(m.mass_matrix(q).llt().solve(Vector(kn.w)));
      const double tol_force = kConsistency * hold;
      const double lambda_N = single ? d.lambda_N : d.lambda_N_each[i];
      if (!((c.closed >> i) & 1u)) {
        const double acc = kn.w.dot(d.qddot) + kn.what;
        if (acc < -kConsistency *
                      (std::abs(kn.w.dot(d.qddot)) + std::abs(kn.what) + std::abs(kn.w.dot(a)))) {
          ok = false;
          last_reason =
              saltus::detail::text("'", contact.name, "' opened falls through (", acc, ")");
        }
        return;
      }
      if (!(lambda_N > kFirm * hold)) firm = false;
      if (lambda_N < -tol_force) {
        ok = false;
        last_reason =
            saltus::detail::text("'", contact.name, "' pulls (lambda_N = ", lambda_N, ")");
        return;
      }
      if (!contact.spatial_frictional()) return;
      const double friction = slip_force_norm(slip_forces_of(d, single, i));
      if ((c.stick >> i) & 1u) {
        if (!(friction < contact.law.static_mu() * lambda_N - kFirm * hold)) {
          firm = false;  // on its cone's edge: about to slip
        }
        if (friction > contact.law.static_mu() * lambda_N + tol_force) {
          ok = false;
          last_reason = saltus::detail::text("'", contact.name, "' sticking leaves its cone (|",
                                             "lambda_T| = ", friction, " > ",
                                             contact.law.static_mu() * lambda_N, ")");
        }
        return;
      }
      if ((c.onset >> i) & 1u) {
        // It must speed up along the direction it started in.
        const auto rows = slip_rows(contact, q);
        SlipKinematics<double> kt;
        slip_kinematics(contact, q, qd, kt);
        const std::array<double, kMaxSlipRows>& dir = onset_direction[static_cast<size_t>(i)];
        double rate = 0.0, size = 0.0;
        for (size_t k = 0; k < rows.size(); ++k) {
          const double acc = rows[k].dot(d.qddot) + kt.what[k];
          rate += acc * dir[k];
          size += std::abs(rows[k].dot(d.qddot)) + std::abs(kt.what[k]) + std::abs(rows[k].dot(a));
        }
        if (rate < -kConsistency * size) {
          ok = false;
          last_reason = saltus::detail::text("'", contact.name, "' slipping from rest slows ",
                                             "down (", rate, ")");
        }
      }
    });
    if (!ok) continue;
    if ((c.closed & ~c.stick) &&
        (mode.kind == ClosedKind::IndexSets || c.onset || mode.kind == ClosedKind::SpatialSlip)) {
      if (!(d.B > 0.0)) {
        last_reason = saltus::detail::text("the sliding set is singular (B = ", d.B, ")");
        continue;
      }
    }
    found.push_back({c, qd, d.qddot, firm});
  }

  if (found.empty()) {
    // The flow's own split found none: the cone contact problem decides (its own file says when).
    DofVector<double> qd = qd0;
    std::string why;
    if (choose_by_cone_problem(m, t, q, qd, touching, rest, onset, mask, out, why)) {
      qdot_inout = qd;
      if (trace != nullptr) trace->by_cone_problem = true;
      return true;
    }
    failure = saltus::detail::text(
        "model '", m.name(), "': at t = ", t, " no closed, sticking or sliding state of the ",
        "contacts touching at rest (", describe(m, {touching, rest, 0}, touching),
        ") is consistent (Painleve; last refused: ", last_reason, "), and ", why);
    return false;
  }
  // A candidate that opens a touching contact whose normal lies in the span of its closed ones
  // (the fourth corner of a face) leaves that contact at gap 0 whatever it does: it is the answer
  // only where no consistent candidate closes that contact too (its share would pull).
  std::vector<Consistent> kept;
  for (const Consistent& f : found) {
    const unsigned dependent = dependent_open(m, q, f.c.closed, touching & ~f.c.closed);
    const bool relaxed =
        dependent != 0 && std::any_of(found.begin(), found.end(), [&](const Consistent& g) {
          const unsigned need = f.c.closed | dependent;
          return (g.c.closed & need) == need;
        });
    if (!relaxed) kept.push_back(f);
  }
  found.swap(kept);
  // Candidates that move the system alike (to kConsistency of the accelerations' size in the
  // kinetic metric) are one answer; the first is the most closed and sticking.
  const Matrix mass = m.mass_matrix(q);
  // The scale: the accelerations held and the free ones (a body at rest holds zero).
  const Vector free = m.dynamics({-1, ClosedKind::None, mask}, t, q, found[0].qd).qddot;
  const double size =
      std::sqrt(found[0].qdd.dot(mass * Vector(found[0].qdd))) + std::sqrt(free.dot(mass * free));
  for (const Consistent& other : found) {
    const Vector diff = other.qdd - found[0].qdd;
    const double apart = std::sqrt(diff.dot(mass * diff));
    if (apart > 1e-7 * size + 1e-300) {
      failure = saltus::detail::text(
          "model '", m.name(), "': at t = ", t, " two states of the contacts touching at rest ",
          "are consistent and move the system differently (Painleve indeterminacy): ",
          describe(m, found[0].c, touching), " and ", describe(m, other.c, touching));
      return false;
    }
  }
  // Among them, one whose closed contacts all push (a contact closed with lambda_N = 0 lifts off
  // at once), with the most contacts closed (a face's four corners share its weight; two of them
  // on a diagonal would let it turn about that diagonal) and then the most sticking.
  const auto rank = [](const Consistent& f) {
    return std::make_tuple(f.firm, std::popcount(f.c.closed), std::popcount(f.c.stick));
  };
  const Consistent& pick = *std::max_element(
      found.begin(), found.end(),
      [&](const Consistent& x, const Consistent& y) { return rank(x) < rank(y); });
  out = mode_of_sets(m, pick.c.closed, pick.c.stick, 0, mask);
  qdot_inout = pick.qd;
  if (trace != nullptr) {
    trace->closed = pick.c.closed;
    trace->stick = pick.c.stick;
    trace->onset = pick.c.onset;
  }
  return true;
}

DofVector<double> continued_velocity(const LagrangianModel& m, double t, const DofVector<double>& q,
                                     const DofVector<double>& qd, const SpatialChoiceTrace& trace,
                                     unsigned mask) {
  const DofVector<double> qd0 = resting_velocity(m, q, qd, trace.touching, trace.rest);
  DofVector<double> out;
  std::vector<std::array<double, kMaxSlipRows>> direction;
  if (!candidate_velocity(m, t, q, qd0, {trace.closed, trace.stick, trace.onset}, trace.onset_speed,
                          mask, out, direction)) {
    saltus::detail::throw_error("model '", m.name(), "': at t = ", t,
                                " a slip from rest has no force to slip against at a perturbed "
                                "state: the jump has no derivative there");
  }
  return out;
}

}  // namespace saltus::mech::detail
