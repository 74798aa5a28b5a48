#include "saltus/mech/routh_impact_process.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::mech {

const char* to_string(RouthTermination termination) {
  switch (termination) {
    case RouthTermination::Newton:
      return "newton";
    case RouthTermination::Poisson:
      return "poisson";
    case RouthTermination::Stronge:
      return "stronge";
  }
  return "?";
}

bool is_routh(ImpactLawKind kind) {
  return kind == ImpactLawKind::RouthNewton || kind == ImpactLawKind::RouthPoisson ||
         kind == ImpactLawKind::RouthStronge;
}

RouthTermination routh_termination(ImpactLawKind kind) {
  switch (kind) {
    case ImpactLawKind::RouthNewton:
      return RouthTermination::Newton;
    case ImpactLawKind::RouthPoisson:
      return RouthTermination::Poisson;
    case ImpactLawKind::RouthStronge:
      return RouthTermination::Stronge;
    default:
      saltus::detail::throw_error("law ", to_string(kind), " is not one of Routh's processes");
  }
}

double routh_ending_increment(RouthTermination termination, double e, double v_n_minus, double P_n,
                              double v_n, double W, double a_n, double P_n_compression,
                              double W_compression) {
  switch (termination) {
    case RouthTermination::Newton: {
      const double target = -e * v_n_minus;
      if (v_n >= target) return 0.0;
      return a_n > 0.0 ? (target - v_n) / a_n : kInfinity;
    }
    case RouthTermination::Poisson:
      return std::max(0.0, (1.0 + e) * P_n_compression - P_n);
    case RouthTermination::Stronge: {
      const double R = (1.0 - e * e) * W_compression - W;  // work still to be done, >= 0
      if (R <= 0.0) return 0.0;
      const double disc = v_n * v_n + 2.0 * a_n * R;
      if (disc >= 0.0 && v_n + std::sqrt(disc) > 0.0) {
        return 2.0 * R / (v_n + std::sqrt(disc));  // root of v_n d + a_n d^2 / 2 = R
      }
      return kInfinity;
    }
  }
  return kInfinity;
}

namespace {

// Guards the loop; a planar impact has at most: stick or reversal (twice), compression,
// termination, so a handful of phases. Exceeding this is reported as a jam. Equal to the
// capacity of the in-place phase record (ImpactPhaseList).
constexpr int kMaxPhases = ImpactPhaseList::kMaxImpactPhases;

// `why` is the proof that no later event of the process can end it.
void jam(PlanarImpactResult& r, const char* what, double P_n, double v_n, double slope,
         const char* why) {
  std::ostringstream msg;
  msg.precision(17);
  msg << "Routh process: " << what << " at P_n = " << P_n << " (v_n = " << v_n
      << ", dv_n/dP_n = " << slope << "): " << why
      << "; the normal velocity cannot be reversed along this path (impact without collision / "
         "Painleve regime, FORMULAS.md 9 and 11)";
  r.status = ImpactStatus::Jam;
  r.message = msg.str();
}

}  // namespace

namespace {

// The process from v_minus; `at_contact`: started at v_n = 0 (an impact without collision), where
// a Painleve slip (dv_n/dP_n <= jam_slope, >= 0) drives v_n negative (or leaves it at 0 to
// jam_slope) and the process runs as for an approach, and any other slip ends it at once with no
// impulse.
PlanarImpactResult routh_process(const PlanarImpactInput& input, double e, double mu,
                                 RouthTermination termination, bool at_contact,
                                 double jam_slope = 0.0) {
  const Eigen::Matrix2d& A = input.A;
  const Eigen::Vector2d& v_minus = input.v_minus;
  const double A_tt = A(0, 0), A_tn = A(0, 1), A_nn = A(1, 1);
  PlanarImpactResult r;
  r.v_plus = v_minus;
  if (!at_contact && !(v_minus[1] < 0.0)) return r;  // not approaching: no impulse

  Eigen::Vector2d P = Eigen::Vector2d::Zero();
  Eigen::Vector2d v = v_minus;
  double W = 0.0;  // int_0^{P_n} v_n dP_n
  bool compressed = false;
  const double v_zero = 1e-15 * v_minus.cwiseAbs().maxCoeff();

  for (int phase = 0; phase < kMaxPhases; ++phase) {
    // Phase selection (FORMULAS.md 9).
    SlipMode mode;
    double k;
    if (std::abs(v[0]) > v_zero) {
      const double s = v[0] > 0.0 ? 1.0 : -1.0;
      mode = s > 0.0 ? SlipMode::SlipPositive : SlipMode::SlipNegative;
      k = -mu * s;
    } else {
      v[0] = 0.0;
      if (std::abs(A_tn) <= mu * A_tt) {
        mode = SlipMode::Stick;
        k = -A_tn / A_tt;
      } else {
        const double s = A_tn > 0.0 ? 1.0 : -1.0;  // slip restarts (reversal) with s = sign(A_tn)
        mode = s > 0.0 ? SlipMode::SlipPositive : SlipMode::SlipNegative;
        k = -mu * s;
      }
    }
    const double a_t = mode == SlipMode::Stick ? 0.0 : A_tt * k + A_tn;
    const double a_n = A_tn * k + A_nn;

    // Increments of P_n to each event of this phase.
    double d_stick = kInfinity, d_comp = kInfinity, d_term = kInfinity, d_back = kInfinity;
    if (mode != SlipMode::Stick && a_t * v[0] < 0.0) d_stick = -v[0] / a_t;
    if (!compressed) {
      // dv_n/dP_n <= 0: this phase cannot end the compression, but a slip that decelerates
      // stops first and the process goes on in stick or reverse slip (the Painleve landings of
      // seed 001). Only a slip that never stops leaves the compression without an end.
      if (a_n > jam_slope) {
        // max: a slip taken at the jam (0 < a_n <= jam_slope) leaves v_n up to jam_slope P_n > 0
        d_comp = std::max(0.0, -v[1] / a_n);
      } else if (d_stick == kInfinity) {
        jam(r, "compression cannot end", P[1], v[1], a_n,
            mode == SlipMode::Stick
                ? "the contact sticks and v_n does not grow with P_n"
                : "the slip does not decelerate (dv_t/dP_n has the sign of v_t), so it never "
                  "stops and v_n never grows with P_n");
        break;
      }
    } else {
      d_term = routh_ending_increment(termination, e, v_minus[1], P[1], v[1], W, a_n,
                                      r.P_n_compression, r.W_compression);
      if (a_n < 0.0) d_back = v[1] / -a_n;  // v_n would return to 0 during restitution
    }
    const double d = std::min({d_stick, d_comp, d_term, d_back});
    if (d == kInfinity) {
      jam(r, "no event ends the restitution phase", P[1], v[1], a_n,
          "the slip never stops and no termination is reached along this phase");
      break;
    }
    if (d_back < d_term && d_back <= d_stick) {
      // Advance to v_n = 0 for the record, then report.
      W += v[1] * d_back + 0.5 * a_n * d_back * d_back;
      P += Eigen::Vector2d(k * d_back, d_back);
      v = v_minus + A * P;
      jam(r, "normal velocity returns to zero during restitution", P[1], v[1], a_n,
          "the slip does not stop before it and v_n keeps decreasing after it");
      break;
    }

    // Advance exactly along the phase (v is affine in P).
    W += v[1] * d + 0.5 * a_n * d * d;
    P += Eigen::Vector2d(k * d, d);
    v = v_minus + A * P;
    if (mode == SlipMode::Stick) v[0] = 0.0;

    PhaseEnd end;
    if (d == d_term) {
      end = PhaseEnd::Terminate;
    } else if (d == d_comp) {
      end = PhaseEnd::MaxCompression;
      v[1] = 0.0;
      compressed = true;
      r.P_n_compression = P[1];
      r.W_compression = W;
      if (e == 0.0) end = PhaseEnd::Terminate;  // all three terminations stop at the c-line
    } else {
      end = PhaseEnd::StickOrReverse;
      v[0] = 0.0;
    }
    r.phases.push_back({mode, P[1], end});
    if (end == PhaseEnd::Terminate) break;
    if (phase + 1 == kMaxPhases) {
      jam(r, "too many phases", P[1], v[1], a_n, "the phase record is full");
    }
  }
  r.impulse = P;
  r.v_plus = v_minus + A * P;
  if (!r.phases.empty() && r.phases.back().end == PhaseEnd::Terminate) {
    // Keep the exact values the events set (stick: v_t = 0; e = 0: v_n = 0).
    r.v_plus = v;
  }
  r.dT = impact_energy_change(A, v_minus, P);
  if (compressed) r.W_restitution = W - r.W_compression;
  return r;
}

}  // namespace

PlanarImpactResult routh_impact(const PlanarImpactInput& input, double e, double mu,
                                RouthTermination termination) {
  return routh_process(input, e, mu, termination, false);
}

PlanarImpactResult impact_without_collision(const PlanarImpactInput& input, double mu,
                                            double jam_slope) {
  PlanarImpactInput at_contact = input;
  at_contact.v_minus[1] = 0.0;
  return routh_process(at_contact, 0.0, mu, RouthTermination::Newton, true,
                       std::max(jam_slope, 0.0));
}

}  // namespace saltus::mech
