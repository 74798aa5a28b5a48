// One rigid contact in space with Coulomb friction and rolling resistance held closed
// (compiled_lagrangian.hpp): the closed state it takes, and the guards of its four modes. The
// dynamics are in spatial_rolling_dynamics.hpp.
//
// Modes: the slip held ("stick:<c>") or sliding ("slip:<c>"), and the rolling held (".../rest")
// or moving against the rolling torque at its cone's edge (".../rolling"): a ball rolling without
// slip and slowing down is in "stick:<c>/rolling".
// Transitions:
//   every mode: "lift-off:<c>" lambda_N = 0 -> open
//   slip or rolling: "painleve:<c>" B / normal_metric reaches kJamMargin -> the run ends
//       (ContactStop::Painleve): no impact without collision is built with rolling resistance
//   slip: "stick:<c>" the slip speed falls to rest -> the slip removed, then closed again
//   stick: "slip:<c>" |f_T| reaches mu_s lambda_N -> slip from rest, the rolling's state kept
//   rolling: "roll-stop:<c>" the rolling speed falls to rest -> its rates removed, closed again
//   rest: "roll:<c>" |f_R| reaches lambda_N -> rolling from rest, the slip's state kept
// Closing (close_rolling_contact): a part that moves (beyond round-off, and not declared at rest)
// keeps moving; a part at rest is held or starts to move. The candidates, most held first:
// (stick, rest), (stick, rolling), (slip, rest), (slip, rolling), those the velocities allow. The
// first consistent one is taken: lambda_N > 0, the held forces inside their cones (|f_T| <= mu_s
// lambda_N, |f_R| <= lambda_N), a part started from rest speeding up against its force, B > 0.
// The first candidate pulling (lambda_N <= 0): open. None consistent: ContactStopError
// (Painleve) naming the contact, t and every candidate's forces.
#include <cmath>
#include <string>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "mode_quantity.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"

namespace saltus::mech::detail {

namespace {

// Relative slack of the consistency tests at a closing (round-off of forces and accelerations).
constexpr double kRollingConsistency = 1e-9;

LagrangianMode rolling_mode(int i, bool slip_held, bool roll_held, unsigned mask) {
  LagrangianMode mode{i, slip_held ? ClosedKind::SpatialStick : ClosedKind::SpatialSlip, mask};
  if (roll_held) mode.roll_rest_set = 1u << i;
  return mode;
}

// Whether rows `kin` started from rest along minus the force f speed up under qddot:
// d/dt |gamma| = (W qddot + what) . (-f / |f|) >= 0 within round-off.
bool speeds_up(const SlipKinematics<double>& kin, const DofVector<double>& qddot,
               const std::array<double, kMaxSlipRows>& f) {
  double force2 = 0.0;
  for (int k = 0; k < kin.rows; ++k) force2 += f[k] * f[k];
  if (!(force2 > 0.0)) return true;
  const double force = std::sqrt(force2);
  double rate = 0.0, scale = 0.0;
  for (int k = 0; k < kin.rows; ++k) {
    const double a = kin.w[k].dot(qddot);
    rate += (a + kin.what[k]) * (-f[k] / force);
    scale += std::abs(a) + std::abs(kin.what[k]);
  }
  return rate >= -kRollingConsistency * scale;
}

double rolling_norm(double a, double b, double c = 0.0) {
  return std::sqrt(a * a + b * b + c * c);
}

}  // namespace

LagrangianMode close_rolling_contact(const LagrangianModel& m, int i, double t, ConstVectorRef q,
                                     ConstVectorRef qdot, unsigned mask, bool slip_at_rest,
                                     bool roll_at_rest) {
  const LagrangianContact& c = m.contact(i);
  const DofVector<double> qv = load<double>(q, 0, m.dof());
  DofVector<double> qdv = load<double>(qdot, 0, m.dof());
  SlipKinematics<double> kt, kr;
  slip_kinematics(c, qv, qdv, kt);
  roll_kinematics(c, qv, qdv, kr);
  const bool slip_rest = slip_at_rest || std::sqrt(kt.speed2()) <= kSlipRestFraction * kt.terms;
  const bool roll_rest = roll_at_rest || std::sqrt(kr.speed2()) <= kSlipRestFraction * kr.terms;
  if (slip_rest || roll_rest) {  // their round-off removed, as the flow holds or starts them
    const std::array<double, kMaxSlipRows> no_slip{};
    const std::array<double, 2> no_roll{};
    set_contact_rates(m, i, qv, qdv, slip_rest ? &no_slip : nullptr,
                      roll_rest ? &no_roll : nullptr);
    slip_kinematics(c, qv, qdv, kt);
    roll_kinematics(c, qv, qdv, kr);
  }
  const double mu_s = c.law.static_mu();
  std::string tried;
  bool first = true;
  for (const bool slip_held : {true, false}) {
    if (slip_held && !slip_rest) continue;
    for (const bool roll_held : {true, false}) {
      if (roll_held && !roll_rest) continue;
      const LagrangianMode mode = rolling_mode(i, slip_held, roll_held, mask);
      const ContactDynamics d = m.dynamics(mode, t, qv, qdv);
      if (first && !(d.lambda_N > 0.0)) return {-1, ClosedKind::None, mask};
      first = false;
      const double slip_force = rolling_norm(d.lambda_T, d.lambda_T2, d.lambda_T3);
      const double roll_force = rolling_norm(d.lambda_R1, d.lambda_R2);
      const double slack = kRollingConsistency * d.lambda_N;
      const bool consistent =
          d.lambda_N > 0.0 && d.B > 0.0 &&
          (!slip_held || slip_force <= mu_s * d.lambda_N + slack) &&
          (!roll_held || roll_force <= d.lambda_N + slack) &&
          (slip_held || !slip_rest ||
           speeds_up(kt, d.qddot, {d.lambda_T, d.lambda_T2, d.lambda_T3})) &&
          (roll_held || !roll_rest || speeds_up(kr, d.qddot, {d.lambda_R1, d.lambda_R2, 0.0}));
      if (consistent) return mode;
      tried += saltus::detail::text(
          tried.empty() ? "" : "; ", slip_held ? "stick" : "slip", "/",
          roll_held ? "rest" : "rolling", ": lambda_N = ", d.lambda_N, ", |f_T| = ", slip_force,
          " (mu_s lambda_N = ", mu_s * d.lambda_N, "), |f_R| = ", roll_force, ", B = ", d.B);
    }
  }
  throw ContactStopError(
      ContactStop::Painleve,
      saltus::detail::text(c.description, ": at t = ", t,
                           " no state of its slip and rolling is consistent (", tried,
                           "): Painleve; lower mu or the rolling resistance, or change the "
                           "geometry"));
}

void add_rolling_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                const LagrangianMode& mode) {
  const int ci = mode.closed_contact;
  const unsigned mask = mode.compliant_mask;
  const std::string& name = ctx->model.contact(ci).name;
  const bool slip_held = mode.kind == ClosedKind::SpatialStick, roll_held = mode.rolling_held();
  if (!slip_held || !roll_held) {
    // A moving part's force, folded into the normal's column, makes the contact problem singular.
    Reset jam =
        Reset::custom(id, true, [ctx, ci](double t, ConstVectorRef, ConstVectorRef, Jump& jump) {
          jump.failure = saltus::detail::text(
              ctx->model.describe_contact(ci), ": at t = ", t,
              " the contact problem with the sliding friction and rolling torque folded into the "
              "normal force became singular (B = 0, Painleve); no impact without collision is "
              "built "
              "with rolling resistance");
          jump.cause = code(ContactStop::Painleve);
          return false;
        });
    sys.add_guard(
        id,
        make_guard("painleve:" + name, Direction::Rising,
                   of_dynamics(ctx, mode,
                               [](const auto& d) { return -(d.B / d.normal_metric) + kJamMargin; }),
                   std::move(jam)));
  }
  sys.add_guard(id, make_guard("lift-off:" + name, Direction::Rising,
                               of_dynamics(ctx, mode, [](const auto& d) { return -d.lambda_N; }),
                               Reset::to(ctx->open(mask))));
  if (slip_held) {
    add_slip_onset_guard(sys, id, ctx, mode, ctx->find(rolling_mode(ci, false, roll_held, mask)));
  } else {
    add_slip_stop_guard(sys, id, ctx, mode);
  }
  if (roll_held) {
    // The rolling torque reaches its cone's edge: rolling from rest along it.
    sys.add_guard(
        id, make_guard("roll:" + name, Direction::Rising,
                       of_dynamics(ctx, mode,
                                   [](const auto& d) {
                                     using std::sqrt;
                                     return sqrt(d.lambda_R1 * d.lambda_R1 +
                                                 d.lambda_R2 * d.lambda_R2) -
                                            d.lambda_N;
                                   }),
                       start_from_rest(ctx, ci, mode,
                                       ctx->find(rolling_mode(ci, slip_held, false, mask)), true)));
  } else {
    // The rolling speed falls to the level counted as rest (falling: it never crosses zero).
    Guard g = make_guard("roll-stop:" + name, Direction::Falling,
                         of_dynamics(ctx, mode, [](const auto& d) { return d.roll_speed; }),
                         stop_reset(ctx, id, mode, true));
    g.scale_offset = kStickGuardOffset;
    g.steps_land_on_crossing = true;  // the rolling direction turns over at zero speed
    sys.add_guard(id, std::move(g));
  }
}

}  // namespace saltus::mech::detail
