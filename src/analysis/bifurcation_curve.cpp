// Two-parameter continuation of fold and period-doubling points (contract in
// include/saltus/analysis/bifurcation_curve.hpp).
#include "saltus/analysis/bifurcation_curve.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace saltus::analysis {

namespace {

// Relative step of the central differences of the test function: g's rounding (the map's
// tolerance, ~1e-11 relative) over 1e-6 leaves the gradient ~1e-5 relative, enough to steer
// Newton (the converged points are exact solutions whatever the gradient's error).
constexpr double kDifferenceStep = 1e-6;

struct CurveEvaluation {
  MapValue value;
  Vector F;  // P(x)_y - y (kept states: 0)
  Matrix J;  // dF/du, (n - 2) by n
  Matrix M;  // DP restricted to the free states
  double g = kNaN;
};

class CurveSystem {
 public:
  // `kept`: components other than p and q that the map keeps (their DP row is e_k): they are
  // held (equation u_k stays) and left out of M, whose trivial multiplier 1 would otherwise be
  // a permanent fold.
  CurveSystem(ReturnMap map, Eigen::Index n, const std::vector<int>& kept, BifurcationKind kind,
              const CurveOptions& o)
      : map_(std::move(map)), n_(n), o_(o), sign_(kind == BifurcationKind::Fold ? 1.0 : -1.0) {
    perm_ = Matrix::Zero(n, n);
    Eigen::Index row = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      const bool held = std::find(kept.begin(), kept.end(), k) != kept.end();
      if (k != o.first && k != o.second && !held) perm_(row++, k) = 1.0;
    }
    m_ = row;
    for (const int k : kept) perm_(row++, k) = 1.0;
    perm_(n - 2, o.first) = 1.0;
    perm_(n - 1, o.second) = 1.0;
    b_ = c_ = Vector::Unit(m_, 0);
  }

  void allow_rephasing(const StroboscopicFamily& family, double t0, ModeId mode) {
    family_ = &family;
    t0_ = t0;
    mode_ = mode;
  }

  Eigen::Index n() const { return n_; }
  Eigen::Index free_states() const { return m_; }
  Vector state(const Vector& u) const { return perm_.transpose() * u; }
  Vector coordinates(const Vector& x) const { return perm_ * x; }

  // The borders b, c: A's singular vectors of its smallest singular value.
  void set_borders(const Matrix& M) {
    const Eigen::JacobiSVD<Matrix> svd(shifted(M), Eigen::ComputeFullU | Eigen::ComputeFullV);
    b_ = svd.matrixU().col(m_ - 1);
    c_ = svd.matrixV().col(m_ - 1);
  }

  // The bordered test function g of A = M - s I (NaN when the bordered matrix is singular).
  double test(const Matrix& M) const {
    Matrix bordered = Matrix::Zero(m_ + 1, m_ + 1);
    bordered.topLeftCorner(m_, m_) = shifted(M);
    bordered.topRightCorner(m_, 1) = b_;
    bordered.bottomLeftCorner(1, m_) = c_.transpose();
    const Eigen::FullPivLU<Matrix> lu(bordered);
    if (!lu.isInvertible()) return kNaN;
    return lu.solve(Vector::Unit(m_ + 1, m_))[m_];
  }

  bool evaluate(const Vector& u, CurveEvaluation& e) const {
    e.value = map_(state(u));
    if (!e.value.ok()) return false;
    const Vector pu = perm_ * e.value.x;
    const Matrix dpu = perm_ * e.value.jacobian * perm_.transpose();
    e.F = pu.head(n_ - 2) - u.head(n_ - 2);
    e.J = dpu.topRows(n_ - 2);
    e.J.leftCols(n_ - 2) -= Matrix::Identity(n_ - 2, n_ - 2);
    for (Eigen::Index k = m_; k < n_ - 2; ++k) {
      e.F[k] = 0.0;  // a kept state stays
      e.J.row(k) = Vector::Unit(n_, k).transpose();
    }
    e.M = dpu.topLeftCorner(m_, m_);
    e.g = test(e.M);
    return std::isfinite(e.g);
  }

  // dg/du by central differences (one-sided where the map is undefined on one side).
  bool test_gradient(const Vector& u, double g, Vector& gradient, std::string& message) const {
    gradient.resize(n_);
    CurveEvaluation plus, minus;
    for (Eigen::Index k = 0; k < n_; ++k) {
      const double h = kDifferenceStep * std::max(1.0, std::abs(u[k]));
      Vector up = u, um = u;
      up[k] += h;
      um[k] -= h;
      const bool has_plus = evaluate(up, plus), has_minus = evaluate(um, minus);
      if (has_plus && has_minus) {
        gradient[k] = (plus.g - minus.g) / (2.0 * h);
      } else if (has_plus || has_minus) {
        gradient[k] = has_plus ? (plus.g - g) / h : (g - minus.g) / h;
      } else {
        std::ostringstream os;
        os.precision(10);
        os << "the test function's derivative in component " << k
           << " is undefined: the map fails on both sides (" << plus.value.message << ")";
        message = os.str();
        return false;
      }
    }
    return true;
  }

  // Newton on F = 0, g = 0 and row . (u - anchor) = h, with one more step once the residual is
  // within tolerance: the residual's scale depends on the units of the states (the table's
  // velocity in m/ms leaves A 1e-9 off at a residual of 1e-12), the step after it does not.
  bool correct(Vector& u, const Vector& anchor, const Vector& row, double h, CurveEvaluation& e,
               int& iterations, std::string& message) const {
    bool polished = false;
    for (iterations = 0; iterations <= o_.max_corrector_iterations; ++iterations) {
      if (!evaluate(u, e)) {
        message = e.value.ok() ? "the bordered test matrix is singular"
                               : std::string(to_string(e.value.status)) + ": " + e.value.message;
        return false;
      }
      const double arc = row.dot(u - anchor) - h;
      const double residual =
          std::max({e.F.lpNorm<Eigen::Infinity>(), std::abs(e.g), std::abs(arc)});
      const bool within = residual <= o_.tolerance * (1.0 + u.lpNorm<Eigen::Infinity>());
      if (within && polished) return true;
      polished = within;
      if (iterations == o_.max_corrector_iterations) {
        std::ostringstream os;
        os.precision(6);
        os << "the corrector did not converge in " << iterations << " steps: residual " << residual;
        message = os.str();
        return false;
      }
      Vector gradient;
      if (!test_gradient(u, e.g, gradient, message)) return false;
      Matrix a(n_, n_);
      a.topRows(n_ - 2) = e.J;
      a.row(n_ - 2) = gradient.transpose();
      a.row(n_ - 1) = row.transpose();
      Vector rhs(n_);
      rhs << -e.F, -e.g, -arc;
      const Eigen::FullPivLU<Matrix> lu(a);
      if (!lu.isInvertible()) {
        message = "the curve's Newton matrix is singular";
        return false;
      }
      u += lu.solve(rhs);
    }
    return false;
  }

  // The unit tangent at u with t . previous > 0 (empty when the gradient is undefined).
  Vector tangent(const Vector& u, const CurveEvaluation& e, const Vector& previous,
                 std::string& message) const {
    Vector gradient;
    if (!test_gradient(u, e.g, gradient, message)) return Vector();
    Matrix a(n_, n_);
    a.topRows(n_ - 2) = e.J;
    a.row(n_ - 2) = gradient.transpose();
    a.row(n_ - 1) = previous.transpose();
    const Vector t = Eigen::FullPivLU<Matrix>(a).solve(Vector::Unit(n_, n_ - 1));
    if (!t.allFinite() || !(t.norm() > 0.0)) {
      message = "the curve's tangent is undefined (a singular Newton matrix)";
      return Vector();
    }
    return t / t.norm();
  }

  // As orbit_continuation's re-timing: the instant moves away from a reset that came near it;
  // u and t are carried along the orbit, the borders re-set for the new map's M.
  bool rephase(Vector& u, CurveEvaluation& e, Vector& t) {
    if (!family_) return false;
    const double t1 = retiming_instant(e.value, t0_, family_->period);
    if (std::isnan(t1)) return false;
    const MapValue moved = family_->transit(state(u), t0_, t1, mode_);
    if (!moved.ok()) return false;
    CurveSystem after = *this;
    after.map_ = family_->map_at(t1, moved.mode);
    const Vector u1 = perm_ * moved.x;
    CurveEvaluation at;
    if (!after.evaluate(u1, at)) return false;
    after.set_borders(at.M);
    at.g = after.test(at.M);
    after.t0_ = t1;
    after.mode_ = moved.mode;
    *this = std::move(after);
    t = perm_ * (moved.jacobian * (perm_.transpose() * t));
    t /= t.norm();
    u = u1;
    e = std::move(at);
    return true;
  }

  CurvePoint point(const Vector& u, const CurveEvaluation& e) const {
    CurvePoint p;
    p.x = state(u);
    p.p = u[n_ - 2];
    p.q = u[n_ - 1];
    p.multipliers = floquet_multipliers(e.M);
    p.test = e.g;
    p.period = e.value.return_time;
    p.resets = e.value.resets;
    p.t0 = t0_;
    return p;
  }

 private:
  Matrix shifted(const Matrix& M) const { return M - sign_ * Matrix::Identity(m_, m_); }

  ReturnMap map_;
  Matrix perm_;
  Eigen::Index n_, m_ = 0;
  CurveOptions o_;
  double sign_;
  Vector b_, c_;
  const StroboscopicFamily* family_ = nullptr;
  double t0_ = kNaN;
  ModeId mode_ = kNoMode;
};

struct Side {
  std::vector<CurvePoint> points;
  std::string stop_reason;
  bool failed = false;
  int rephasings = 0;
};

// Follows the curve from the corrected start (u, e) towards increasing (direction +1) or
// decreasing q.
Side follow_side(CurveSystem c, Vector u, CurveEvaluation e, double direction,
                 const CurveOptions& o) {
  Side side;
  const Eigen::Index n = c.n();
  std::ostringstream os;
  os.precision(10);
  std::string message;
  Vector t = c.tangent(u, e, direction * Vector::Unit(n, n - 1), message);
  if (t.size() == 0) {
    side.failed = true;
    side.stop_reason = message;
    return side;
  }
  const long resets = e.value.resets;
  double h = o.initial_step;
  bool grew = true;
  while (static_cast<int>(side.points.size()) < o.max_points) {
    Vector next = u + h * t;
    CurveEvaluation en;
    int iterations = 0;
    const bool converged = c.correct(next, u, t, h, en, iterations, message);
    const bool same_sequence = converged && en.value.resets == resets;
    if (!same_sequence && h > o.min_step) {
      h *= 0.5;
      grew = false;
      continue;
    }
    if (!same_sequence) {
      os.str("");
      if (converged) {
        // A legitimate end: the orbit grazes a guard there (the map is not smooth beyond).
        os << "the orbit's resets per period change from " << resets << " to " << en.value.resets
           << " after " << o.second_name << " = " << u[n - 1]
           << " (the orbit grazes a guard on the curve)";
      } else {
        side.failed = true;
        os << "the corrector failed after " << o.second_name << " = " << u[n - 1] << " (step " << h
           << " <= min_step " << o.min_step << "): " << message << "; the curve is partial";
      }
      side.stop_reason = os.str();
      return side;
    }
    const double q = next[n - 1];
    if (q > o.q_max || q < o.q_min) {
      // The last point with q at the range's end: arclength row e_q.
      const double end = q > o.q_max ? o.q_max : o.q_min;
      const double s = (end - u[n - 1]) / t[n - 1];
      Vector last = u + s * t;
      const Vector row = Vector::Unit(n, n - 1);
      os.str("");
      if (c.correct(last, u, row, end - u[n - 1], en, iterations, message)) {
        side.points.push_back(c.point(last, en));
        os << o.second_name << " reached " << end;
      } else {
        side.failed = true;
        os << "the point at " << o.second_name << " = " << end << " was not found: " << message;
      }
      side.stop_reason = os.str();
      return side;
    }
    const Vector t_next = c.tangent(next, en, t, message);
    if (t_next.size() == 0) {
      side.points.push_back(c.point(next, en));
      side.failed = true;
      side.stop_reason = message;
      return side;
    }
    u = next;
    e = std::move(en);
    t = t_next;
    if (c.rephase(u, e, t)) ++side.rephasings;
    c.set_borders(e.M);
    side.points.push_back(c.point(u, e));
    if (iterations <= 3 && grew) h = std::min(1.5 * h, o.max_step);
    grew = true;
  }
  side.stop_reason = "max_points reached";
  return side;
}

// The components other than p and q that `value` keeps (DP row e_k, P(x)_k = x_k).
std::vector<int> kept_states(const MapValue& value, const Vector& x, const CurveOptions& o) {
  std::vector<int> kept;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (k == o.first || k == o.second) continue;
    if (value.x[k] == x[k] && value.jacobian.row(k) == Vector::Unit(x.size(), k).transpose()) {
      kept.push_back(static_cast<int>(k));
    }
  }
  return kept;
}

BifurcationCurve follow_curve(const ReturnMap& map, const BifurcationPoint& start,
                              const CurveOptions& o, const StroboscopicFamily* family) {
  BifurcationCurve curve;
  curve.kind = start.kind;
  const Eigen::Index n = start.x.size();
  if (start.kind != BifurcationKind::Fold && start.kind != BifurcationKind::PeriodDoubling) {
    curve.message = "only folds and period doublings are continued in two parameters";
    return curve;
  }
  if (o.first < 0 || o.second < 0 || o.first >= n || o.second >= n || o.first == o.second) {
    curve.message = "the two parameters must be two different state components";
    return curve;
  }
  const MapValue first = map(start.x);
  if (!first.ok()) {
    curve.message = "the map is undefined at the bifurcation point: " + first.message;
    return curve;
  }
  for (const int k : {o.first, o.second}) {
    if (!(first.x[k] == start.x[k])) {
      curve.message = "a parameter is not constant along the orbit (give it rate 0 and no reset)";
      return curve;
    }
  }
  const std::vector<int> kept = kept_states(first, start.x, o);
  if (n - 2 - static_cast<Eigen::Index>(kept.size()) < 1) {
    curve.message = "the orbit has no state besides its parameters";
    return curve;
  }
  CurveSystem c(map, n, kept, start.kind, o);
  if (family) c.allow_rephasing(*family, start.t0, start.mode);
  Vector u = c.coordinates(start.x);
  CurveEvaluation e;
  if (!c.evaluate(u, e)) {
    curve.message = "the bordered test matrix is singular at the start";
    return curve;
  }
  c.set_borders(e.M);
  // The start refined with q fixed (row e_q, h = 0).
  int iterations = 0;
  std::string message;
  const Vector e_q = Vector::Unit(n, n - 1);
  if (!c.correct(u, u, e_q, 0.0, e, iterations, message)) {
    curve.message = "the bifurcation point was not refined in two parameters: " + message;
    return curve;
  }
  const Side down = follow_side(c, u, e, -1.0, o);
  const Side up = follow_side(c, u, e, 1.0, o);
  curve.points.assign(down.points.rbegin(), down.points.rend());
  curve.points.push_back(c.point(u, e));
  curve.points.insert(curve.points.end(), up.points.begin(), up.points.end());
  curve.stop_reason[0] = down.stop_reason;
  curve.stop_reason[1] = up.stop_reason;
  curve.rephasings = down.rephasings + up.rephasings;
  curve.status = down.failed || up.failed ? BranchStatus::CorrectorFailed : BranchStatus::Continued;
  return curve;
}

}  // namespace

BifurcationCurve continue_bifurcation_curve(const ReturnMap& map, const BifurcationPoint& start,
                                            const CurveOptions& options) {
  return follow_curve(map, start, options, nullptr);
}

BifurcationCurve continue_stroboscopic_bifurcation_curve(const StroboscopicFamily& family,
                                                         const BifurcationPoint& start,
                                                         const CurveOptions& options) {
  return follow_curve(family.map_at(start.t0, start.mode), start, options, &family);
}

}  // namespace saltus::analysis
