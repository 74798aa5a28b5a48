// Pseudo-arclength continuation of periodic orbits with fold, period-doubling, Neimark-Sacker
// and grazing detection (contract in include/saltus/analysis/orbit_continuation.hpp). (About
// 670 lines: the corrector, the step control, the bisection of test functions, the re-timing of
// a stroboscopic map, the hand-over to the grazing locator, and the naming and bisection of a
// change of event sequence share one state, the Continuation below; the test functions'
// location and the sequence change are the next pieces to move out.)
#include "saltus/analysis/orbit_continuation.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>
#include <vector>

#include "saltus/analysis/grazing_point.hpp"
#include "saltus/analysis/periodic_orbit.hpp"
#include "saltus/analysis/stroboscopic_phase.hpp"

namespace saltus::analysis {

const char* to_string(BifurcationKind kind) {
  switch (kind) {
    case BifurcationKind::Fold:
      return "fold";
    case BifurcationKind::PeriodDoubling:
      return "period doubling";
    case BifurcationKind::NeimarkSacker:
      return "Neimark-Sacker";
    case BifurcationKind::Grazing:
      return "grazing";
  }
  return "unknown";
}

const char* to_string(BranchStatus status) {
  switch (status) {
    case BranchStatus::NoOrbit:
      return "no orbit";
    case BranchStatus::Continued:
      return "continued";
    case BranchStatus::CorrectorFailed:
      return "corrector failed";
  }
  return "unknown";
}

namespace {

// u = (y, p): the state with the parameter moved to the end.
Matrix permutation(Eigen::Index n, int parameter) {
  Matrix perm = Matrix::Zero(n, n);
  Eigen::Index row = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (k != parameter) perm(row++, k) = 1.0;
  }
  perm(n - 1, parameter) = 1.0;
  return perm;
}

struct Evaluation {
  MapValue value;
  Vector F;  // P(x)_y - y
  Matrix J;  // dF/du, (n-1) by n
  Matrix M;  // DP_yy
};

class Continuation {
 public:
  Continuation(ReturnMap map, Eigen::Index n, const ContinuationOptions& o)
      : map_(std::move(map)), perm_(permutation(n, o.parameter)), n_(n), o_(o) {}

  // A stroboscopic map from t0 in `mode`, which rephase() may re-time (stroboscopic_phase.hpp).
  void allow_rephasing(const StroboscopicFamily& family, double t0, ModeId mode) {
    family_ = &family;
    t0_ = t0;
    mode_ = mode;
  }

  // When a reset of the orbit at u has come within T / (8 (resets + 1)) of the map's instant,
  // moves the instant to the middle of the widest gap between the resets: u and the tangent t
  // are carried along the orbit (the transit's Jacobian) and e is the new map's value there.
  // False (nothing changed) when not needed, not a stroboscopic map, or the transit failed.
  bool rephase(Vector& u, Evaluation& e, Vector& t) {
    if (!family_) return false;
    const double t1 = retiming_instant(e.value, t0_, family_->period);
    if (std::isnan(t1)) return false;
    const MapValue moved = family_->transit(state(u), t0_, t1, mode_);
    if (!moved.ok()) return false;
    ReturnMap before = std::move(map_);
    map_ = family_->map_at(t1, moved.mode);
    Evaluation at;
    const Vector u1 = perm_ * moved.x;
    if (!evaluate(u1, at)) {
      map_ = std::move(before);
      return false;
    }
    t = perm_ * (moved.jacobian * (perm_.transpose() * t));
    t /= t.norm();
    u = u1;
    e = std::move(at);
    t0_ = t1;
    mode_ = moved.mode;
    return true;
  }
  double instant() const { return t0_; }
  ModeId instant_mode() const { return mode_; }

  bool evaluate(const Vector& u, Evaluation& e) const {
    e.value = map_(perm_.transpose() * u);
    if (!e.value.ok()) return false;
    const Vector pu = perm_ * e.value.x;
    const Matrix dpu = perm_ * e.value.jacobian * perm_.transpose();
    e.F = pu.head(n_ - 1) - u.head(n_ - 1);
    e.J = dpu.topRows(n_ - 1);
    e.J.leftCols(n_ - 1) -= Matrix::Identity(n_ - 1, n_ - 1);
    // Another state the map keeps (a second parameter kept as a state, row e_k of DP): its
    // equation is "u_k stays", else the Newton matrix has a zero row; M leaves it out (its
    // trivial multiplier 1 would make every orbit unstable), as find_fixed_point does.
    std::vector<Eigen::Index> free;
    for (Eigen::Index k = 0; k < n_ - 1; ++k) {
      if (e.J.row(k).isZero(0.0) && e.F[k] == 0.0) {
        e.J(k, k) = 1.0;
      } else {
        free.push_back(k);
      }
    }
    e.M = dpu(free, free);
    return true;
  }

  // Newton on F = 0 and row . (u - anchor) = h; `message` says why not.
  // `residual`: max(|F|, |arc|) at the last iterate (NaN when the map was undefined there).
  bool correct(Vector& u, const Vector& anchor, const Vector& row, double h, Evaluation& e,
               int& iterations, double& residual, std::string& message) const {
    residual = kNaN;
    for (iterations = 0; iterations <= o_.max_corrector_iterations; ++iterations) {
      if (!evaluate(u, e)) {
        residual = kNaN;
        message = std::string(to_string(e.value.status)) + ": " + e.value.message;
        return false;
      }
      const double arc = row.dot(u - anchor) - h;
      residual = std::max(e.F.lpNorm<Eigen::Infinity>(), std::abs(arc));
      if (residual <= o_.tolerance * (1.0 + u.lpNorm<Eigen::Infinity>())) return true;
      if (iterations == o_.max_corrector_iterations) break;
      Matrix a(n_, n_);
      a.topRows(n_ - 1) = e.J;
      a.row(n_ - 1) = row.transpose();
      Vector rhs(n_);
      rhs.head(n_ - 1) = -e.F;
      rhs[n_ - 1] = -arc;
      const Eigen::FullPivLU<Matrix> lu(a);
      if (!lu.isInvertible()) {
        message = "the continuation's Newton matrix is singular";
        return false;
      }
      u += lu.solve(rhs);
    }
    std::ostringstream os;
    os.precision(6);
    os << "the corrector did not converge in " << o_.max_corrector_iterations << " steps: residual "
       << residual;
    message = os.str();
    return false;
  }

  Vector tangent(const Evaluation& e, const Vector& previous) const {
    Matrix a(n_, n_);
    a.topRows(n_ - 1) = e.J;
    a.row(n_ - 1) = previous.transpose();
    Vector rhs = Vector::Zero(n_);
    rhs[n_ - 1] = 1.0;
    Vector t = Eigen::FullPivLU<Matrix>(a).solve(rhs);
    return t / t.norm();
  }

  BranchPoint point(const Vector& u, const Evaluation& e) const {
    BranchPoint p;
    p.x = perm_.transpose() * u;
    p.parameter = u[n_ - 1];
    p.multipliers = floquet_multipliers(e.M);
    p.stable = p.multipliers.size() == 0 || std::abs(p.multipliers[0]) < 1.0;
    p.resets = e.value.resets;
    p.min_crossing_rate = e.value.min_crossing_rate;
    p.closest_approach = e.value.closest_approach;
    p.period = e.value.return_time;
    p.t0 = t0_;
    return p;
  }

  Eigen::Index n() const { return n_; }
  const ReturnMap& map() const { return map_; }
  Vector state(const Vector& u) const { return perm_.transpose() * u; }

 private:
  ReturnMap map_;
  Matrix perm_;
  Eigen::Index n_;
  ContinuationOptions o_;
  const StroboscopicFamily* family_ = nullptr;
  double t0_ = kNaN;
  ModeId mode_ = kNoMode;
};

double doubling_test(const Evaluation& e) {
  return (e.M + Matrix::Identity(e.M.rows(), e.M.cols())).determinant();
}

// A multiplier counts as complex when its imaginary part is above this fraction of its modulus
// (a real multiplier's eigenvalue solver rounding is far below it).
constexpr double kComplexFraction = 1e-7;

bool is_complex(const std::complex<double>& m) {
  return m.imag() > kComplexFraction * std::abs(m);
}

int complex_outside(const Eigen::VectorXcd& m) {
  int count = 0;
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    if (is_complex(m[k]) && std::abs(m[k]) > 1.0) ++count;
  }
  return count;
}

// The complex multiplier with Im > 0 nearest the unit circle (index -1 when none).
Eigen::Index nearest_complex(const Eigen::VectorXcd& m) {
  Eigen::Index best = -1;
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    if (!is_complex(m[k])) continue;
    if (best < 0 || std::abs(std::abs(m[k]) - 1.0) < std::abs(std::abs(m[best]) - 1.0)) best = k;
  }
  return best;
}

// |lambda| - 1 of that multiplier (NaN when none).
double neimark_sacker_test(const Eigen::VectorXcd& m) {
  const Eigen::Index k = nearest_complex(m);
  return k < 0 ? kNaN : std::abs(m[k]) - 1.0;
}

double grazing_evidence(const MapValue& v) {
  return std::min(v.min_crossing_rate, v.closest_approach);
}

// The parameter index names a component and the parameter is a constant of the flow and the
// resets (a state of rate 0); otherwise the reason.
std::string check_parameter(const ReturnMap& map, const Vector& guess,
                            const ContinuationOptions& o) {
  const Eigen::Index n = guess.size();
  if (o.parameter < 0 || o.parameter >= n || n < 2) {
    return "the parameter index is not a state component (or the state is scalar)";
  }
  {
    // The parameter must be a constant of the flow and the resets (a state of rate 0).
    const MapValue first = map(guess);
    const double p0 = guess[o.parameter];
    // A state of rate 0 and no reset stays bit for bit; 1e-12 of itself allows round-off.
    if (first.ok() && !(std::abs(first.x[o.parameter] - p0) <= 1e-12 * std::abs(p0))) {
      std::ostringstream os;
      os.precision(17);
      os << "state " << o.parameter << " (the parameter) is not constant along the orbit: " << p0
         << " -> " << first.x[o.parameter] << "; give it rate 0 in every mode and no reset";
      return os.str();
    }
  }
  return "";
}

// Locates the grazing `b` (grazing_point.hpp) from the branch's last points on its event sequence
// at the map's current instant, and puts the located parameter, orbit and multipliers in it; its
// message says how, or why the branch's last point is kept.
// True when it was located.
bool refine_grazing(const Continuation& c, const Branch& branch, const ContinuationOptions& o,
                    BifurcationPoint& b) {
  std::vector<Vector> approach;
  for (auto p = branch.points.rbegin(); p != branch.points.rend() && approach.size() < 3; ++p) {
    const bool same_instant =
        p->t0 == c.instant() || (std::isnan(p->t0) && std::isnan(c.instant()));
    if (!same_instant || p->resets != branch.points.back().resets) break;
    approach.insert(approach.begin(), p->x);
  }
  GrazingOptions g;
  g.parameter = o.parameter;
  g.orbit_tolerance = o.tolerance;
  g.parameter_tolerance = o.tolerance;
  const GrazingPoint located = locate_grazing(c.map(), approach, g);
  if (!located.converged) {
    b.message += "; " + located.message;
    return false;
  }
  std::ostringstream os;
  os.precision(16);
  os << "grazing at parameter " << located.parameter << ", " << located.message
     << "; the continuation stopped " << b.parameter - located.parameter
     << " from it: " << b.message;
  b.parameter = located.parameter;
  b.x = located.x;
  b.multipliers = located.multipliers;
  b.test_value = located.nearest_evidence;
  b.message = os.str();
  return true;
}

// The orbit a little past the located grazing `b` (direction: the branch's sign of dp), on the
// far side's own event sequence, and the change of sequence across it, named in `b`.
void name_the_sequence_change(const Continuation& c, const Branch& branch,
                              const ContinuationOptions& o, double direction, BifurcationPoint& b) {
  const MapValue near = c.map()(branch.points.back().x);
  if (!near.ok()) return;
  ShootingOptions s;
  s.tolerance = o.tolerance;
  s.max_iterations = o.first_orbit_iterations;
  for (const double d : {1e-4, 1e-3}) {
    Vector guess = b.x;
    guess[o.parameter] = b.parameter + direction * d * (1.0 + std::abs(b.parameter));
    const PeriodicOrbit far = find_fixed_point(c.map(), guess, s);
    if (!far.converged()) continue;
    const MapValue beyond = c.map()(far.x);
    if (beyond.sequence == near.sequence) continue;
    const SequenceChange change = classify_sequence_change(near.sequence, beyond.sequence);
    b.sliding = change.kind;
    b.sequence_change = change.description;
    std::ostringstream os;
    os.precision(10);
    os << "; at parameter " << guess[o.parameter] << " past it the orbit's events per period are "
       << change.description;
    b.message += os.str();
    return;
  }
}

// Where the orbit's events per period change between the fixed points x_lo (sequence `before`)
// and x_hi (another) when no evidence vanishes there (a crossing-sliding seen from the sliding
// side): bisection on the parameter, each midpoint's orbit solved at that parameter from the
// states halfway between; its sequence says which end it replaces. True with the bracket's
// middle in `b` once the bracket is within the tolerance.
bool bisect_sequence_change(const Continuation& c, const ContinuationOptions& o, Vector x_lo,
                            Vector x_hi, const std::vector<std::string>& before,
                            BifurcationPoint& b) {
  ShootingOptions s;
  s.tolerance = o.tolerance;
  s.max_iterations = o.first_orbit_iterations;
  const int k = o.parameter;
  for (int i = 0; i < 80; ++i) {
    if (std::abs(x_hi[k] - x_lo[k]) <= o.tolerance * (1.0 + std::abs(x_lo[k]))) {
      std::ostringstream os;
      os.precision(16);
      os << "; located at parameter " << 0.5 * (x_lo[k] + x_hi[k]) << " by bisection of the "
         << "event sequence (" << i << " orbits, bracket " << std::abs(x_hi[k] - x_lo[k]) << ")";
      b.parameter = 0.5 * (x_lo[k] + x_hi[k]);
      b.x = x_lo;
      b.message += os.str();
      return true;
    }
    const PeriodicOrbit mid = find_fixed_point(c.map(), 0.5 * (x_lo + x_hi), s);
    if (!mid.converged()) {
      b.message += "; not located by bisection of the event sequence: " + mid.message;
      return false;
    }
    (c.map()(mid.x).sequence == before ? x_lo : x_hi) = mid.x;
  }
  return false;
}

// Steps along the branch from the converged point u (evaluation e) with tangent t until it ends;
// points and bifurcations are appended to `branch`.
void follow(Continuation& c, Branch& branch, Vector u, Evaluation e, Vector t,
            const ContinuationOptions& o) {
  const Eigen::Index n = c.n();
  double h = o.initial_step;
  int iterations = 0;
  double residual = kNaN;
  std::string message;
  bool grew = true;  // false after a halving: keep the step until the next success
  std::ostringstream os;
  os.precision(10);
  while (static_cast<int>(branch.points.size()) < o.max_points) {
    const Vector anchor = u;
    const Evaluation at_anchor = e;
    const long resets = e.value.resets;
    Vector next = anchor + h * t;
    Evaluation en;
    const bool converged = c.correct(next, anchor, t, h, en, iterations, residual, message);
    const bool same_sequence = converged && en.value.resets == resets;
    if (!same_sequence && h > o.min_step) {
      h *= 0.5;  // towards the end of this event sequence: a bisection on the arclength
      grew = false;
      continue;
    }
    if (!same_sequence || grazing_evidence(en.value) < o.grazing_tolerance) {
      // The last point with this event sequence is the closest to grazing.
      const MapValue& last = same_sequence ? en.value : at_anchor.value;
      const double evidence = grazing_evidence(last);
      const bool grazing = evidence < o.grazing_tolerance || converged ||
                           en.value.status == SensitivityStatus::Grazing;
      if (same_sequence) branch.points.push_back(c.point(next, en));
      BifurcationPoint b;
      b.kind = BifurcationKind::Grazing;
      b.t0 = c.instant();
      b.mode = c.instant_mode();
      b.parameter = same_sequence ? next[n - 1] : anchor[n - 1];
      b.x = c.state(same_sequence ? next : anchor);
      b.after_point = static_cast<int>(branch.points.size()) - 1;
      b.multipliers = floquet_multipliers(same_sequence ? en.M : at_anchor.M);
      b.test_value = evidence;
      os.str("");
      os << "grazing at parameter " << b.parameter << ": smallest crossing rate "
         << last.min_crossing_rate << ", closest approach " << last.closest_approach;
      if (converged && !same_sequence) {
        os << "; a step of " << h << " further the orbit has " << en.value.resets
           << " resets per period, not " << resets;
      } else if (!converged) {
        os << "; a step of " << h << " further: " << message;
      }
      b.message = os.str();
      const std::string before_refining = b.message;
      bool located = (grazing || std::isfinite(evidence)) && refine_grazing(c, branch, o, b);
      std::string not_located;  // why no grazing explains a corrector failure
      if (!grazing && located && !((b.parameter - anchor[n - 1]) * t[n - 1] > 0.0)) {
        located = false;
        not_located = "; a grazing was located behind the branch, not ahead";
      } else if (!grazing && !located && b.message.size() > before_refining.size()) {
        not_located = "; no grazing located ahead" + b.message.substr(before_refining.size());
      }
      // The corrector may fail before the evidence falls below grazing_tolerance, an absolute
      // level in the guard's units (the impact oscillator in cm: 1.2e-5 before its grazing);
      // a grazing located ahead from the branch's last points (orbits solved on its event
      // sequence all the way) ends the branch there.
      if (!grazing && !located) {
        // A partial branch: neither an end of the parameter range nor a grazing point.
        branch.status = BranchStatus::CorrectorFailed;
        branch.failure.parameter = anchor[n - 1];
        branch.failure.step = h;
        branch.failure.iterations = iterations;
        branch.failure.residual = residual;
        branch.failure.message = message;
        os.str("");
        os << "the corrector failed after parameter " << anchor[n - 1] << " (step " << h
           << " <= min_step " << o.min_step << ", " << iterations << " iterations, residual "
           << residual << "): " << message << "; the branch is partial" << not_located;
        branch.stop_reason = os.str();
        return;
      }
      if (converged && !same_sequence && at_anchor.value.ok()) {
        // The step past it saw the other sequence: the change is read off the two orbits.
        const SequenceChange change =
            classify_sequence_change(at_anchor.value.sequence, en.value.sequence);
        b.sliding = change.kind;
        b.sequence_change = change.description;
        b.message += "; the orbit's events per period go " + change.description;
        if (!located) {
          bisect_sequence_change(c, o, c.state(anchor), c.state(next), at_anchor.value.sequence, b);
        }
      } else if (located) {
        name_the_sequence_change(c, branch, o, t[n - 1] >= 0.0 ? 1.0 : -1.0, b);
      }
      branch.bifurcations.push_back(b);
      branch.stop_reason = b.message;
      return;
    }
    const Vector t_next = c.tangent(en, t);
    const double p_next = next[n - 1];
    // A step that leaves the range is still searched: a bifurcation located inside the range
    // is kept (the walker's doubling was jumped over by the last step), one outside dropped.
    const bool leaves = p_next > o.p_max || p_next < o.p_min;
    const size_t found_before = branch.bifurcations.size();
    // Secant on the arclength h for test(evaluation) = 0, started from the bracket
    // (0, g0), (h, g1): the located point and its evaluation, and the test's last value.
    struct Located {
      Vector point;
      Evaluation evaluation;
      double test = 0.0;
    };
    auto locate = [&](double g0, double g1, const auto& test) {
      double ha = 0.0, ga = g0, hb = h, gb = g1;
      Located l{next, en, g1};
      for (int k = 0; k < o.secant_iterations && std::abs(gb - ga) > 0.0; ++k) {
        const double hc = hb - gb * (hb - ha) / (gb - ga);
        Vector trial = anchor + hc * t;
        Evaluation et;
        if (!c.correct(trial, anchor, t, hc, et, iterations, residual, message)) break;
        l.point = trial;
        l.evaluation = et;
        ha = hb;
        ga = gb;
        hb = hc;
        gb = test(et);
        l.test = gb;
        if (std::abs(gb) <= 1e-12) break;
      }
      return l;
    };
    auto record = [&](BifurcationKind kind, const Located& l, double test_value,
                      const std::string& what) {
      BifurcationPoint b;
      b.kind = kind;
      b.t0 = c.instant();
      b.mode = c.instant_mode();
      b.parameter = l.point[n - 1];
      b.x = c.state(l.point);
      b.after_point = static_cast<int>(branch.points.size()) - 1;
      b.multipliers = floquet_multipliers(l.evaluation.M);
      b.test_value = test_value;
      os.str("");
      os << what;
      b.message = os.str();
      branch.bifurcations.push_back(b);
    };
    if (t_next[n - 1] * t[n - 1] < 0.0) {
      // The tangent's parameter component = 0: the turning point.
      const Located l = locate(t[n - 1], t_next[n - 1],
                               [&](const Evaluation& et) { return c.tangent(et, t)[n - 1]; });
      std::ostringstream what;
      what << "fold at parameter " << l.point[n - 1]
           << ": the branch turns back (a multiplier at 1)";
      record(BifurcationKind::Fold, l, l.test, what.str());
    }
    const double g0 = doubling_test(at_anchor), g1 = doubling_test(en);
    if (g0 * g1 < 0.0) {
      // det(M + I) = 0: a multiplier at -1.
      const Located l = locate(g0, g1, [&](const Evaluation& et) { return doubling_test(et); });
      const double value = doubling_test(l.evaluation);
      std::ostringstream what;
      what << "period doubling at parameter " << l.point[n - 1] << " (det(M + I) = " << value
           << ")";
      record(BifurcationKind::PeriodDoubling, l, value, what.str());
    }
    const double n0 = neimark_sacker_test(floquet_multipliers(at_anchor.M));
    const double n1 = neimark_sacker_test(floquet_multipliers(en.M));
    if (complex_outside(floquet_multipliers(at_anchor.M)) !=
            complex_outside(floquet_multipliers(en.M)) &&
        n0 * n1 < 0.0) {
      // A complex pair crosses the unit circle: |lambda| - 1 = 0.
      const Located l = locate(n0, n1, [&](const Evaluation& et) {
        return neimark_sacker_test(floquet_multipliers(et.M));
      });
      const Eigen::VectorXcd m = floquet_multipliers(l.evaluation.M);
      const Eigen::Index k = nearest_complex(m);
      std::ostringstream what;
      what.precision(10);
      if (k >= 0) {
        what << "Neimark-Sacker at parameter " << l.point[n - 1] << ": multipliers "
             << std::abs(m[k]) << " exp(+-i " << std::arg(m[k]) << ") cross the unit circle";
      } else {
        what << "Neimark-Sacker at parameter " << l.point[n - 1]
             << ": the pair became real while it was located";
      }
      record(BifurcationKind::NeimarkSacker, l, k >= 0 ? std::abs(m[k]) - 1.0 : kNaN, what.str());
      branch.bifurcations.back().angle = k >= 0 ? std::arg(m[k]) : kNaN;
    }
    if (leaves) {
      const auto outside = [&o](const BifurcationPoint& b) {
        return b.parameter > o.p_max || b.parameter < o.p_min;
      };
      branch.bifurcations.erase(
          std::remove_if(branch.bifurcations.begin() + static_cast<std::ptrdiff_t>(found_before),
                         branch.bifurcations.end(), outside),
          branch.bifurcations.end());
      os.str("");
      os << "the parameter left [" << o.p_min << ", " << o.p_max << "]";
      branch.stop_reason = os.str();
      return;
    }
    u = next;
    e = en;
    t = t_next;
    if (c.rephase(u, e, t)) ++branch.rephasings;
    branch.points.push_back(c.point(u, e));
    if (iterations <= 3 && grew) h = std::min(1.5 * h, o.max_step);
    grew = true;
  }
  branch.stop_reason = "max_points reached";
}

// The first orbit from `guess` with the parameter fixed, then the branch from it.
Branch start_and_follow(Continuation& c, const ReturnMap& map, const Vector& guess,
                        const ContinuationOptions& o) {
  Branch branch;
  branch.stop_reason = check_parameter(map, guess, o);
  if (!branch.stop_reason.empty()) return branch;
  const Eigen::Index n = guess.size();
  // The first orbit with the parameter fixed, by the damped Newton of `saltus orbit`: the
  // corrector's plain Newton from a guess that `saltus orbit` solves could overshoot into a
  // start on a guard's trigger side (issue 46, an impact oscillator's stop).
  ShootingOptions first;
  first.tolerance = o.tolerance;
  first.max_iterations = o.first_orbit_iterations;
  const PeriodicOrbit orbit = find_fixed_point(map, guess, first);
  if (!orbit.converged()) {
    branch.stop_reason = "the first orbit was not found: " + std::string(to_string(orbit.status)) +
                         ": " + orbit.message;
    return branch;
  }
  if (!orbit.corner.empty()) {
    // Found, but where the map has two one-sided derivatives: no tangent to follow.
    branch.stop_reason = "the first orbit lies on a corner of the map (" + orbit.corner +
                         "): continuation needs the map's derivative; start from a parameter "
                         "value off the corner";
    return branch;
  }
  Vector u = permutation(n, o.parameter) * orbit.x;
  // The first point, corrected once more with the arclength row e_p (h = 0): its evaluation.
  Vector e_p = Vector::Zero(n);
  e_p[n - 1] = 1.0;
  Evaluation e;
  int iterations = 0;
  double residual = kNaN;
  std::string message;
  if (!c.correct(u, u, e_p, 0.0, e, iterations, residual, message)) {
    branch.stop_reason = "the first orbit was not found: " + message;
    return branch;
  }
  branch.ok = true;
  branch.status = BranchStatus::Continued;
  Vector t = c.tangent(e, e_p) * (o.direction >= 0.0 ? 1.0 : -1.0);
  if (c.rephase(u, e, t)) ++branch.rephasings;
  branch.points.push_back(c.point(u, e));
  follow(c, branch, u, e, t, o);
  return branch;
}

}  // namespace

Branch continue_orbit(const ReturnMap& map, const Vector& guess, const ContinuationOptions& o) {
  Continuation c(map, guess.size(), o);
  return start_and_follow(c, map, guess, o);
}

Branch continue_stroboscopic_orbit(const StroboscopicFamily& family, double t0, ModeId mode,
                                   const Vector& guess, const ContinuationOptions& o) {
  const ReturnMap map = family.map_at(t0, mode);
  Continuation c(map, guess.size(), o);
  c.allow_rephasing(family, t0, mode);
  return start_and_follow(c, map, guess, o);
}

Branch continue_orbit_along(const ReturnMap& map, const Vector& start, const Vector& direction,
                            const ContinuationOptions& o) {
  Branch branch;
  branch.stop_reason = check_parameter(map, start, o);
  if (!branch.stop_reason.empty()) return branch;
  const Eigen::Index n = start.size();
  std::ostringstream os;
  os.precision(6);
  if (direction.size() != n || !(direction.norm() > 0.0) || !direction.allFinite()) {
    branch.stop_reason = "the starting direction is not a nonzero state-sized vector";
    return branch;
  }
  Continuation c(map, n, o);
  const Matrix perm = permutation(n, o.parameter);
  const Vector u = perm * start;
  Evaluation e;
  if (!c.evaluate(u, e)) {
    branch.stop_reason =
        "the map is undefined at the start: " + std::string(to_string(e.value.status)) + ": " +
        e.value.message;
    return branch;
  }
  const double residual = e.F.lpNorm<Eigen::Infinity>();
  if (!(residual <= 100.0 * o.tolerance * (1.0 + u.lpNorm<Eigen::Infinity>()))) {
    os << "the start is not a fixed point of the map: residual " << residual;
    branch.stop_reason = os.str();
    return branch;
  }
  branch.ok = true;
  branch.status = BranchStatus::Continued;
  branch.points.push_back(c.point(u, e));
  const Vector t = perm * direction;
  follow(c, branch, u, e, t / t.norm(), o);
  return branch;
}

}  // namespace saltus::analysis
