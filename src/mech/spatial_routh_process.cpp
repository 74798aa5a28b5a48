// Routh's process for one contact in space; see include/saltus/mech/spatial_routh_process.hpp.
#include "saltus/mech/spatial_routh_process.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/events/brent.hpp"
#include "saltus/ode/dop853.hpp"

namespace saltus::mech {

const char* to_string(SpatialSlipPhase phase) {
  switch (phase) {
    case SpatialSlipPhase::Slip:
      return "slip";
    case SpatialSlipPhase::Stick:
      return "stick";
    case SpatialSlipPhase::RaySlip:
      return "ray-slip";
  }
  return "?";
}

namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

// A slip below this fraction of |v-| is finished along its direction: the error is that size
// times the direction's turn over the rest, far below the integration's.
constexpr double kStopFraction = 1e-10;
// A decelerating slip's step ends at most this fraction of the way to its predicted stop, so a
// step never samples the flow across |v_T| = 0, where the direction flips.
constexpr double kStepToStop = 0.5;
// The integration's tolerance, and the check of its work against the kinetic energy change.
constexpr double kRtol = 1e-13;
constexpr double kWorkCheck = 1e-9;
// Phases before the process is called endless (slip, stop, compression, stick or ray, end: a
// handful; each stop-and-restart of the slip adds two).
constexpr int kMaxSpatialPhases = 16;
// The scan for the restarting slip's direction, as spatial_impact_law.cpp scans its slip.
constexpr int kRayDirections = 720;
constexpr int kRayBisections = 50;

// The process's state at normal impulse p.
struct Point {
  double p = 0.0;
  Vec2 P_T = Vec2::Zero();
  double W_N = 0.0;  // int v_N dp
  double W_T = 0.0;  // int v_T . dP_T
};

class Process {
 public:
  // at_contact: started at v_N = 0 (an impact without collision), where a slip with
  // dv_N/dp <= jam_slope is a Painleve slip (v_N held near 0 or driven negative) and the
  // compression ends only where v_N grows beyond jam_slope p.
  Process(const SpatialImpactInput& in, double e, double mu, RouthTermination termination,
          bool at_contact = false, double jam_slope = 0.0)
      : A_(in.A),
        v_minus_(in.v_minus),
        e_(e),
        mu_(mu),
        termination_(termination),
        jam_slope_(jam_slope),
        at_contact_(at_contact) {
    a_ = A_.block<2, 1>(1, 0);
    c_ = A_.block<1, 2>(0, 1).transpose();
    B_ = A_.block<2, 2>(1, 1);
    const double speed = v_minus_.norm();
    stop_speed_ = kStopFraction * speed;
    const Vec3 eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(A_).eigenvalues();
    positive_ = eigenvalues[0] > 0.0;
    // The least impulse that changes v by |v-| (the integration's absolute tolerance), and 1000
    // times the most that the process could need.
    impulse_scale_ = positive_ ? speed / eigenvalues[2] : 0.0;
    p_max_ = positive_ ? 1e3 * (1.0 + e_) * speed / eigenvalues[0] : 0.0;
  }

  SpatialImpactResult run(SpatialRouthTrace& trace);

 private:
  Vec3 velocity(const Point& x) const { return v_minus_ + A_ * Vec3(x.p, x.P_T[0], x.P_T[1]); }
  // Crosses from < 0 to >= 0 where the process ends (after the compression).
  double termination_value(const Point& x) const {
    switch (termination_) {
      case RouthTermination::Newton:
        return velocity(x)[0] + e_ * v_minus_[0];
      case RouthTermination::Poisson:
        return x.p - (1.0 + e_) * P_c_;
      case RouthTermination::Stronge:
        return x.W_N - (1.0 - e_ * e_) * W_c_;
    }
    return kNaN;
  }
  PhaseEnd slip_phase(Point& x);
  PhaseEnd affine_phase(Point& x, const Vec2& k, double length = kInfinity);
  std::optional<Vec2> restart_direction();
  void fail(const std::string& what, const Point& x) {
    if (!jam_.empty()) return;
    const Vec3 v = velocity(x);
    jam_ = saltus::detail::text("Routh process in space (", to_string(termination_), ", e = ", e_,
                                ", mu = ", mu_, ", v- = (", v_minus_[0], ", ", v_minus_[1], ", ",
                                v_minus_[2], ")): ", what, " at P_N = ", x.p, " (v = (", v[0], ", ",
                                v[1], ", ", v[2], "))");
  }
  void compression_ended(const Point& x) {
    compressed_ = true;
    P_c_ = x.p;
    W_c_ = x.W_N;
  }

  Eigen::Matrix3d A_;
  Vec3 v_minus_;
  Vec2 a_, c_;
  Eigen::Matrix2d B_;
  double e_, mu_;
  RouthTermination termination_;
  double jam_slope_;
  bool at_contact_;
  double stop_speed_ = 0.0, impulse_scale_ = 0.0, p_max_ = 0.0;
  bool positive_ = false;
  bool compressed_ = false;
  double P_c_ = kNaN, W_c_ = kNaN;
  std::string jam_;
};

// An affine stretch from x with dP_T/dp = k (stick, a ray, or a slip's last stretch) to its first
// event or `length`: exact, since v is affine in p along it.
PhaseEnd Process::affine_phase(Point& x, const Vec2& k, double length) {
  const Vec3 v = velocity(x);
  const double a_n = A_(0, 0) + c_.dot(k);
  const Vec2 a_T = a_ + B_ * k;
  double d_comp = kInfinity, d_term = kInfinity, d_back = kInfinity;
  if (!compressed_) {
    if (a_n > jam_slope_) d_comp = std::max(0.0, -v[0] / a_n);
  } else {
    d_term =
        routh_ending_increment(termination_, e_, v_minus_[0], x.p, v[0], x.W_N, a_n, P_c_, W_c_);
    if (a_n < 0.0) d_back = v[0] / -a_n;
  }
  const double d = std::min({d_comp, d_term, d_back, length});
  if (d == kInfinity) {
    fail(compressed_ ? "no event ends the restitution (v_N does not grow along this phase)"
                     : "the compression cannot end (v_N does not grow along this phase, and "
                       "nothing in it stops)",
         x);
    return PhaseEnd::Terminate;
  }
  x.W_N += v[0] * d + 0.5 * a_n * d * d;
  x.W_T += v.tail<2>().dot(k) * d + 0.5 * a_T.dot(k) * d * d;
  x.p += d;
  x.P_T += k * d;
  if (d == d_back && d < d_term) {
    fail("the normal velocity returns to zero during restitution", x);
    return PhaseEnd::Terminate;
  }
  if (d == d_term) return PhaseEnd::Terminate;
  if (d == d_comp) {
    compression_ended(x);
    return e_ == 0.0 ? PhaseEnd::Terminate : PhaseEnd::MaxCompression;
  }
  return PhaseEnd::StickOrReverse;  // the stretch's length: the slip has stopped
}

// The slip from x (|v_T| > 0) to its stop, the compression's end or the termination.
PhaseEnd Process::slip_phase(Point& x) {
  Flow flow;
  flow.nx = 4;
  flow.rhs = [this](double p, const ConstVectorRef& y, const ConstVectorRef&, VectorRef dy) {
    const Vec2 P_T(y[0], y[1]);
    const Vec2 v_T = v_minus_.tail<2>() + a_ * p + B_ * P_T;
    const double s = v_T.norm();
    const Vec2 d = s > 0.0 ? Vec2(v_T / s) : Vec2::Zero();
    dy[0] = -mu_ * d[0];
    dy[1] = -mu_ * d[1];
    dy[2] = v_minus_[0] + A_(0, 0) * p + c_.dot(P_T);
    dy[3] = -mu_ * s;
  };
  ode::StepperOptions options;
  options.rtol = kRtol;
  const double work_scale = impulse_scale_ * v_minus_.norm();
  options.atol_per_component = Vector(4);
  options.atol_per_component << impulse_scale_, impulse_scale_, work_scale, work_scale;
  options.atol_per_component *= kRtol;
  options.rtol_per_component = Vector::Constant(4, kRtol);
  ode::Dop853 stepper(options, 4, 0);
  stepper.set_flow(flow);
  const auto pack = [](const Point& x) {
    Vector y(4);
    y << x.P_T[0], x.P_T[1], x.W_N, x.W_T;
    return y;
  };
  const auto unpack = [](double p, const Vector& y) {
    return Point{p, Vec2(y[0], y[1]), y[2], y[3]};
  };
  if (stepper.restart(x.p, pack(x), Vector(), false) != ode::StepStatus::Accepted) {
    fail("the slip's integration could not start", x);
    return PhaseEnd::Terminate;
  }
  Vector buffer(4);
  // The event `value` (crossing from < 0 to >= 0) located on the last step's dense output.
  const auto locate = [&](const Point& from, const Point& to, const auto& value) {
    const auto at = [&](double p) {
      stepper.interpolate(p, buffer);
      return value(unpack(p, buffer));
    };
    const events::RootResult r =
        events::brent(at, from.p, value(from), to.p, value(to), events::RootOptions{});
    stepper.interpolate(r.after, buffer);
    return unpack(r.after, buffer);
  };
  for (;;) {
    const Vec3 v = velocity(x);
    const double s = v.tail<2>().norm();
    if (!(s > 0.0)) return PhaseEnd::StickOrReverse;
    const Vec2 d = v.tail<2>() / s;
    const double rate = d.dot(a_ - mu_ * (B_ * d));  // d|v_T|/dp
    if (s <= stop_speed_ && rate < 0.0) {
      const PhaseEnd end = affine_phase(x, -mu_ * d, s / -rate);
      return end;
    }
    double limit = p_max_;
    if (rate < 0.0) limit = std::min(limit, x.p + kStepToStop * s / -rate);
    if (compressed_ && termination_ == RouthTermination::Poisson) {
      limit = std::min(limit, (1.0 + e_) * P_c_);
    }
    const ode::StepStatus status = stepper.step(limit);
    if (status != ode::StepStatus::Accepted) {
      fail(saltus::detail::text("the slip's integration failed (", ode::to_string(status), ")"), x);
      return PhaseEnd::Terminate;
    }
    const Point next = unpack(stepper.time(), stepper.state());
    // At contact, v_N within jam_slope p of 0 is still the jam's Painleve slip.
    const auto normal_rate = [this](const Point& y) { return velocity(y)[0] - jam_slope_ * y.p; };
    if (!compressed_ && normal_rate(next) >= 0.0) {
      x = locate(x, next, normal_rate);
      compression_ended(x);
      return e_ == 0.0 ? PhaseEnd::Terminate : PhaseEnd::MaxCompression;
    }
    if (compressed_) {
      const auto ending = [this](const Point& y) { return termination_value(y); };
      if (ending(next) >= 0.0) {
        x = locate(x, next, ending);
        return PhaseEnd::Terminate;
      }
      if (normal_rate(next) < 0.0) {
        x = locate(x, next, [this](const Point& y) { return -velocity(y)[0]; });
        fail("the normal velocity returns to zero during restitution", x);
        return PhaseEnd::Terminate;
      }
    }
    x = next;
    if (x.p >= p_max_) {
      fail(saltus::detail::text("the process has not ended by P_N = ", p_max_,
                                " (1000 (1 + e) |v-| / lambda_min(A))"),
           x);
      return PhaseEnd::Terminate;
    }
  }
}

// The direction s* along which slip restarts from rest, a - mu B s* = k s* with k > 0 (one
// expected where stick cannot hold); none or several leave the process without an answer.
std::optional<Vec2> Process::restart_direction() {
  const auto at = [this](double th) {
    const Vec2 d(std::cos(th), std::sin(th));
    const Vec2 f = a_ - mu_ * (B_ * d);
    return std::pair<double, double>{f[0] * d[1] - f[1] * d[0], f.dot(d)};
  };
  const double two_pi = 2.0 * std::acos(-1.0);
  std::vector<Vec2> found;
  double prev = at(0.0).first;
  for (int k = 1; k <= kRayDirections; ++k) {
    double lo = two_pi * (k - 1) / kRayDirections, hi = two_pi * k / kRayDirections;
    const double next = at(hi).first;
    const bool bracket = (prev < 0.0) != (next < 0.0);
    prev = next;
    if (!bracket) continue;
    const bool lo_negative = at(lo).first < 0.0;
    for (int b = 0; b < kRayBisections; ++b) {
      const double mid = 0.5 * (lo + hi);
      ((at(mid).first < 0.0) == lo_negative ? lo : hi) = mid;
    }
    if (at(lo).second > 0.0) found.emplace_back(std::cos(lo), std::sin(lo));
  }
  if (found.size() == 1) return found.front();
  return std::nullopt;
}

SpatialImpactResult Process::run(SpatialRouthTrace& trace) {
  SpatialImpactResult r;
  r.v_plus = v_minus_;
  if (!at_contact_ && !(v_minus_[0] < 0.0)) return r;  // not approaching: no impulse
  Point x;
  if (at_contact_) {
    // Only a Painleve slip (dv_N/dp <= jam_slope along its direction) starts a process at v_N = 0.
    const Vec2 v_T = v_minus_.tail<2>();
    const double s = v_T.norm();
    if (!(s > stop_speed_) || !(A_(0, 0) - mu_ * c_.dot(v_T / s) <= jam_slope_)) return r;
  }
  if (!positive_) fail("the contact's A = W^T M^-1 W is not positive definite", x);
  std::optional<Vec2> ray;  // the restarted slip's direction, once it has restarted
  // At rest: the slip has stopped (its residual, the last stretch's error, is not a new slip).
  bool resting = velocity(x).tail<2>().norm() <= stop_speed_;
  bool sticks = false;
  for (int phase = 0; jam_.empty(); ++phase) {
    if (phase == kMaxSpatialPhases) {
      fail("too many phases", x);
      break;
    }
    SpatialSlipPhase kind;
    PhaseEnd end;
    if (ray) {
      kind = SpatialSlipPhase::RaySlip;
      end = affine_phase(x, -mu_ * *ray);
    } else if (!resting) {
      kind = SpatialSlipPhase::Slip;
      end = slip_phase(x);
      resting = end == PhaseEnd::StickOrReverse;
    } else {
      const Vec2 k = -B_.ldlt().solve(a_);
      if (k.norm() <= mu_ * (1.0 + 1e-12)) {
        kind = SpatialSlipPhase::Stick;
        end = affine_phase(x, k);
      } else {
        ray = restart_direction();
        if (!ray) {
          fail(
              "the slip restarts from rest in no single direction (|B^-1 a| > mu, and the "
              "directions s with a - mu B s along +s are not one)",
              x);
          break;
        }
        kind = SpatialSlipPhase::RaySlip;
        end = affine_phase(x, -mu_ * *ray);
      }
    }
    sticks = kind == SpatialSlipPhase::Stick;
    trace.phases.push_back({kind, x.p, end});
    if (end == PhaseEnd::Terminate) break;
  }
  const Vec3 P(x.p, x.P_T[0], x.P_T[1]);
  trace.P_N_compression = P_c_;
  trace.W_compression = W_c_;
  trace.W_restitution = compressed_ ? x.W_N - W_c_ : kNaN;
  trace.normal_work = x.W_N;
  trace.friction_work = x.W_T;
  r.impulse = P;
  r.v_plus = velocity(x);
  r.dT = P.dot(v_minus_) + 0.5 * P.dot(A_ * P);
  r.sticks = sticks;
  const double T_minus = 0.5 * v_minus_.dot(A_.ldlt().solve(v_minus_));
  if (jam_.empty() && !(std::abs(r.dT - (x.W_N + x.W_T)) <= kWorkCheck * T_minus)) {
    fail(saltus::detail::text("the process's work W_N + W_T = ", x.W_N + x.W_T,
                              " differs from the kinetic energy change ", r.dT,
                              " (inaccurate integration)"),
         x);
  }
  if (!jam_.empty()) {
    r.status = ImpactStatus::Jam;
    r.message = jam_;
  }
  return r;
}

}  // namespace

SpatialImpactResult spatial_routh_impact(const SpatialImpactInput& input, double e, double mu,
                                         RouthTermination termination, SpatialRouthTrace* trace) {
  SpatialRouthTrace local;
  return Process(input, e, mu, termination).run(trace != nullptr ? *trace : local);
}

SpatialImpactResult spatial_impact_without_collision(const SpatialImpactInput& input, double mu,
                                                     double jam_slope, SpatialRouthTrace* trace) {
  SpatialImpactInput at_contact = input;
  at_contact.v_minus[0] = 0.0;
  SpatialRouthTrace local;
  return Process(at_contact, 0.0, mu, RouthTermination::Newton, true, std::max(jam_slope, 0.0))
      .run(trace != nullptr ? *trace : local);
}

}  // namespace saltus::mech
