#include "saltus/analysis/lyapunov.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

const char* to_string(LyapunovStatus status) {
  switch (status) {
    case LyapunovStatus::Ok:
      return "ok";
    case LyapunovStatus::Grazing:
      return "grazing";
    case LyapunovStatus::ZenoPoint:
      return "zeno point";
    case LyapunovStatus::NotDifferentiable:
      return "not differentiable";
    case LyapunovStatus::SimulationFailed:
      return "simulation failed";
    case LyapunovStatus::IntegrationFailed:
      return "integration failed";
    case LyapunovStatus::DimensionChanged:
      return "dimension changed";
  }
  return "unknown";
}

namespace {

LyapunovStatus from_sensitivity(SensitivityStatus s) {
  switch (s) {
    case SensitivityStatus::Ok:
      return LyapunovStatus::Ok;
    case SensitivityStatus::Grazing:
      return LyapunovStatus::Grazing;
    case SensitivityStatus::ZenoPoint:
      return LyapunovStatus::ZenoPoint;
    case SensitivityStatus::NotDifferentiable:
      return LyapunovStatus::NotDifferentiable;
    case SensitivityStatus::SimulationFailed:
      return LyapunovStatus::SimulationFailed;
    case SensitivityStatus::IntegrationFailed:
      return LyapunovStatus::IntegrationFailed;
  }
  return LyapunovStatus::SimulationFailed;
}

// M = J Q = Q' R with diag R > 0. In a window with a singular reset (`collapse`), a column whose
// R_ii is at most 1e-12 |J|_F is mapped (to rounding) into the span of those before it: it is
// removed and the rest factorised again, so that the kept columns span the image. |J|, not |M|:
// the directions lost before keep J's scale, so that the last direction left can collapse too
// (with one state, J = Phi S Phi is all there is: the singular reset takes it).
struct QrStep {
  Matrix q;
  Vector log_r;                 // log R_ii of the kept columns
  std::vector<int> kept;        // their indices among M's columns
  std::vector<int> dropped;     // the collapsed ones
  double smallest = kInfinity;  // min R_ii / |M|_F of the kept columns
};

QrStep orthonormalise(Matrix m, double j_norm, bool collapse) {
  QrStep out;
  out.kept.resize(static_cast<size_t>(m.cols()));
  std::iota(out.kept.begin(), out.kept.end(), 0);
  const double floor = 1e-12 * j_norm, scale = m.norm();
  const bool one_state = m.rows() == 1;
  while (m.cols() > 0) {
    const Eigen::HouseholderQR<Matrix> qr(m);
    const Matrix& r = qr.matrixQR();
    Eigen::Index bad = -1, least = 0;
    for (Eigen::Index i = 0; i < m.cols(); ++i) {
      if (std::abs(r(i, i)) < std::abs(r(least, least))) least = i;
      if (bad < 0 && collapse && (one_state || !(std::abs(r(i, i)) > floor))) bad = i;
    }
    if (bad < 0) {
      out.q = qr.householderQ() * Matrix::Identity(m.rows(), m.cols());
      out.log_r.resize(m.cols());
      for (Eigen::Index i = 0; i < m.cols(); ++i) {
        if (r(i, i) < 0.0) out.q.col(i) *= -1.0;
        out.log_r(i) = std::log(std::abs(r(i, i)));
      }
      out.smallest = std::abs(r(least, least)) / scale;
      return out;
    }
    out.dropped.push_back(out.kept[static_cast<size_t>(bad)]);
    out.kept.erase(out.kept.begin() + bad);
    Matrix rest(m.rows(), m.cols() - 1);
    rest << m.leftCols(bad), m.rightCols(m.cols() - 1 - bad);
    m = std::move(rest);
  }
  out.q.resize(m.rows(), 0);
  return out;
}

// The running exponents, decreasing: the sums over the averaging time, -inf where collapsed.
Vector estimates(const Vector& sums, const std::vector<bool>& lost, double elapsed) {
  Vector e(sums.size());
  for (Eigen::Index i = 0; i < sums.size(); ++i) {
    e(i) = lost[static_cast<size_t>(i)] ? -kInfinity : sums(i) / elapsed;
  }
  std::sort(e.data(), e.data() + e.size(), std::greater<double>());
  return e;
}

Vector spread_over_second_half(const LyapunovSpectrum& s, Eigen::Index n) {
  Vector lo = Vector::Constant(n, kInfinity), hi = Vector::Constant(n, -kInfinity);
  const double half = s.t_averaging + 0.5 * (s.t_reached - s.t_averaging);
  for (const LyapunovCheckpoint& c : s.checkpoints) {
    if (c.t < half) continue;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!std::isfinite(c.estimates(i))) continue;
      lo(i) = std::min(lo(i), c.estimates(i));
      hi(i) = std::max(hi(i), c.estimates(i));
    }
  }
  Vector spread(n);
  for (Eigen::Index i = 0; i < n; ++i) spread(i) = hi(i) >= lo(i) ? hi(i) - lo(i) : 0.0;
  return spread;
}

LyapunovSpectrum& fail(LyapunovSpectrum& s, LyapunovStatus status, double a, double b,
                       const std::string& why) {
  s.status = status;
  s.message = saltus::detail::text("window [", a, ", ", b, "]: ", why);
  s.exponents.resize(0);
  s.spread.resize(0);
  return s;
}

// The resets of a window that take a dimension away (|det S| <= tol; det S is dimensionless):
// their number in `count`, and the first named (guard, mode, t, det S) for the message.
std::string singular_resets(const HybridSystem& system, const std::vector<EventSensitivity>& events,
                            double tol, int& count) {
  std::string first;
  for (const EventSensitivity& e : events) {
    if (std::abs(e.hybrid_jacobian) > tol) continue;
    if (count++ == 0) {
      first = saltus::detail::text(
          "guard '", system.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name,
          "' of mode '", system.mode(e.mode_before).name, "' at t = ", e.t,
          " (det S = ", e.hybrid_jacobian, ")");
    }
  }
  return first;
}

void check_input(const HybridSystem& system, ModeId mode, double t0, ConstVectorRef x0,
                 double t_end, const LyapunovOptions& o) {
  if (mode < 0 || mode >= system.mode_count()) saltus::detail::throw_error("unknown mode ", mode);
  if (x0.size() != system.mode(mode).flow.nx) {
    saltus::detail::throw_error("x0 has ", x0.size(), " components; mode '", system.mode(mode).name,
                                "' has ", system.mode(mode).flow.nx, " states");
  }
  if (!(o.window > 0.0) || !std::isfinite(o.window)) {
    saltus::detail::throw_error("window = ", o.window, " must be a positive time");
  }
  if (o.max_events_per_window < 1) {
    saltus::detail::throw_error("max_events_per_window = ", o.max_events_per_window,
                                " must be >= 1");
  }
  if (!(o.transient >= 0.0) || !std::isfinite(o.transient)) {
    saltus::detail::throw_error("transient = ", o.transient, " must be a time >= 0");
  }
  if (!std::isfinite(t0) || !std::isfinite(t_end) || !(t_end > t0 + o.transient)) {
    saltus::detail::throw_error("t_end = ", t_end,
                                " must be after t0 + transient = ", t0 + o.transient, " (t0 = ", t0,
                                ", transient = ", o.transient, ")");
  }
}

}  // namespace

LyapunovSpectrum lyapunov_spectrum(const HybridSystem& system, ModeId mode, double t0,
                                   ConstVectorRef x0, double t_end,
                                   const SimulationOptions& options,
                                   const LyapunovOptions& lyapunov, ConstVectorRef z0) {
  check_input(system, mode, t0, x0, t_end, lyapunov);
  LyapunovSpectrum out;
  const Eigen::Index n = x0.size();
  const size_t max_events = static_cast<size_t>(lyapunov.max_events_per_window);
  out.t_averaging = t0 + lyapunov.transient;
  out.t_reached = t0;
  SimulationOptions o = options;  // the windows need no samples, only their end states
  o.output.sample_times.clear();
  o.output.record_steps = false;
  Matrix q = Matrix::Identity(n, n);
  std::vector<int> slot(static_cast<size_t>(n));  // the exponent each column of q estimates
  std::iota(slot.begin(), slot.end(), 0);
  std::vector<bool> lost(static_cast<size_t>(n), false);
  Vector sums = Vector::Zero(n);
  ModeId m = mode;
  Vector x = x0, z = z0;
  double t = t0;
  long k = 0;  // the grid window t0 + k tau holding t
  while (t < t_end) {
    while (t0 + static_cast<double>(k + 1) * lyapunov.window <= t) ++k;
    double b = std::min(t0 + static_cast<double>(k + 1) * lyapunov.window, t_end);
    if (t < out.t_averaging && out.t_averaging < b) b = out.t_averaging;
    FlowMapSensitivity f;
    while (true) {
      f = flow_map_sensitivity(system, m, t, x, b, o, z, lyapunov.saltation);
      if (!f.ok()) return fail(out, from_sensitivity(f.status), t, b, f.message);
      if (f.events.size() <= max_events) break;
      // More than K saltation matrices in one tangent map: end the window between two events.
      const double cut = 0.5 * (f.events[max_events - 1].t + f.events[max_events].t);
      if (!(cut > t)) {
        return fail(out, LyapunovStatus::ZenoPoint, t, b,
                    saltus::detail::text("more than ", max_events, " resets at t = ", t));
      }
      b = cut;
      ++out.cut_windows;
    }
    if (f.run.termination() == Termination::TerminalEvent) {
      return fail(out, LyapunovStatus::SimulationFailed, t, b,
                  "the run stopped at a terminal event before t_end: " + f.run.summary.message);
    }
    const Matrix& J = f.flow_map_jacobian;
    if (J.rows() != n || J.cols() != n) {
      std::string where = saltus::detail::text("mode '", system.mode(f.run.final_mode).name, "'");
      for (const EventSensitivity& e : f.events) {
        if (system.mode(e.mode_after).flow.nx != n) {
          where = saltus::detail::text("mode '", system.mode(e.mode_after).name, "' (",
                                       system.mode(e.mode_after).flow.nx, " states) at t = ", e.t);
          break;
        }
      }
      return fail(out, LyapunovStatus::DimensionChanged, t, b,
                  "the run entered " + where + "; the spectrum needs one state size (" +
                      std::to_string(n) + ")");
    }
    if (!J.allFinite()) {
      return fail(out, LyapunovStatus::IntegrationFailed, t, b,
                  "the tangent map of the window is not finite: shorten the window");
    }
    int singular = 0;
    const std::string first_singular =
        singular_resets(system, f.events, lyapunov.singular_event_tolerance, singular);
    const QrStep step = orthonormalise(J * q, J.norm(), singular > 0);
    if (!(step.smallest > 64.0 * std::numeric_limits<double>::epsilon())) {
      return fail(out, LyapunovStatus::IntegrationFailed, t, b,
                  saltus::detail::text(
                      "the tangent map is singular to rounding (R_ii / |J Q| = ", step.smallest,
                      singular > 0 ? ") beyond what its singular resets take"
                                   : ") though no reset in the window is singular",
                      ": shorten the window, or an impact nearly grazes"));
    }
    ++out.qr_steps;
    const bool averaging = t >= out.t_averaging;
    std::vector<int> next(step.kept.size());
    for (size_t c = 0; c < step.kept.size(); ++c) {
      next[c] = slot[static_cast<size_t>(step.kept[c])];
      if (averaging) sums(next[c]) += step.log_r(static_cast<Eigen::Index>(c));
    }
    for (int d : step.dropped) {
      lost[static_cast<size_t>(slot[static_cast<size_t>(d)])] = true;
      if (out.collapsed++ == 0) {
        out.message = "a direction collapsed at the singular reset of " + first_singular +
                      " (a plastic impact, or sliding onto a switching surface): its exponent "
                      "is -inf";
      }
    }
    slot = std::move(next);
    q = step.q;
    if (averaging) {
      out.events += static_cast<long>(f.events.size());
      for (const EventSensitivity& e : f.events) {
        out.impact_log_volume += std::log(std::abs(e.hybrid_jacobian));
      }
    }
    if (!(f.run.t_final > t)) {
      return fail(out, LyapunovStatus::SimulationFailed, t, b, "the run did not advance");
    }
    t = f.run.t_final;
    m = f.run.final_mode;
    x = f.run.x_final;
    z = f.run.z_final;
    out.t_reached = t;
    if (averaging) {
      out.checkpoints.push_back({t, m, x, estimates(sums, lost, t - out.t_averaging)});
    }
  }
  out.exponents = estimates(sums, lost, t_end - out.t_averaging);
  out.spread = spread_over_second_half(out, n);
  out.status = LyapunovStatus::Ok;
  return out;
}

}  // namespace saltus::analysis
