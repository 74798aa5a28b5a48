// The grazing curve by repeated location (contract in include/saltus/analysis/grazing_curve.hpp).
#include "saltus/analysis/grazing_curve.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/analysis/grazing_point.hpp"

namespace saltus::analysis {

namespace {

// The located point at q (held exactly: the interpolated orbit carries q's round-off).
CurvePoint grazing_curve_point(const GrazingPoint& g, double q, const CurveOptions& o) {
  CurvePoint c;
  c.x = g.x;
  c.x[o.second] = q;
  c.p = g.parameter;
  c.q = q;
  c.multipliers = g.multipliers;  // of the orbit nearest the grazing
  c.test = g.nearest_evidence;
  c.period = g.nearest_period;
  c.resets = g.resets;
  return c;
}

// The grazing at q, predicted at p_pred: located from orbits at p_pred + 2 d and p_pred + d on
// the branch's side (d doubled, up to three times, when the locator finds no two orbits there).
bool locate_grazing_at(const ReturnMap& map, const Vector& guess, double q, double p_pred,
                       double approach, const CurveOptions& o, GrazingPoint& out) {
  GrazingOptions g;
  g.parameter = o.first;
  g.orbit_tolerance = o.tolerance;
  g.parameter_tolerance = o.tolerance;
  // Not nearer than 1e-3 (1 + |p|): there the orbits of an impacting side have |DP| ~ 1 / d.
  double d = std::copysign(std::max(std::abs(approach), 1e-3 * (1.0 + std::abs(p_pred))), approach);
  for (int attempt = 0; attempt < 4; ++attempt, d *= 2.0) {
    std::vector<Vector> orbits(2, guess);
    for (int k = 0; k < 2; ++k) {
      orbits[static_cast<size_t>(k)][o.first] = p_pred + (2 - k) * d;
      orbits[static_cast<size_t>(k)][o.second] = q;
    }
    out = locate_grazing(map, orbits, g);
    if (out.converged) return true;
  }
  return false;
}

struct GrazingCurveSide {
  std::vector<CurvePoint> points;
  std::string stop_reason;
  bool failed = false;
};

GrazingCurveSide follow_grazing_side(const ReturnMap& map, const CurvePoint& start, long resets,
                                     double approach, double direction, const CurveOptions& o) {
  GrazingCurveSide side;
  CurvePoint last = start, before = start;
  bool has_before = false;
  double step = o.initial_step;
  const double end = direction > 0 ? o.q_max : o.q_min;
  std::ostringstream os;
  os.precision(10);
  while (static_cast<int>(side.points.size()) < o.max_points) {
    if (direction * (end - last.q) <= 0.0) {
      os << o.second_name << " reached " << end;
      side.stop_reason = os.str();
      return side;
    }
    const double q = direction * (end - last.q) <= step ? end : last.q + direction * step;
    const double slope = has_before ? (last.p - before.p) / (last.q - before.q) : 0.0;
    GrazingPoint g;
    const bool located =
        locate_grazing_at(map, last.x, q, last.p + slope * (q - last.q), approach, o, g);
    if (!located || g.resets != resets) {
      if (step * 0.5 < o.min_step) {
        os << "the grazing was not located at " << o.second_name << " = " << q << " with the "
           << o.second_name << " step at its minimum " << step << ": "
           << (located ? "its orbits have another number of resets" : g.message);
        side.stop_reason = os.str();
        side.failed = true;
        return side;
      }
      step *= 0.5;
      continue;
    }
    before = last;
    has_before = true;
    last = grazing_curve_point(g, q, o);
    side.points.push_back(last);
    step = std::min(1.5 * step, o.max_step);
  }
  os << "max_points (" << o.max_points << ") reached";
  side.stop_reason = os.str();
  return side;
}

}  // namespace

BifurcationCurve continue_grazing_curve(const ReturnMap& map, const BifurcationPoint& start,
                                        double approach, const CurveOptions& options) {
  BifurcationCurve curve;
  curve.kind = BifurcationKind::Grazing;
  const double q0 = start.x.size() > options.second ? start.x[options.second] : kNaN;
  if (start.kind != BifurcationKind::Grazing || !std::isfinite(start.parameter) ||
      !(std::abs(approach) > 0.0) || !(q0 >= options.q_min && q0 <= options.q_max)) {
    curve.message =
        "no grazing point to start from (a located grazing, its branch's side and q inside the "
        "range are needed)";
    return curve;
  }
  // The start located again with its own approach, for its orbits' resets and multipliers.
  GrazingPoint g;
  if (!locate_grazing_at(map, start.x, q0, start.parameter, approach, options, g)) {
    curve.message = "the grazing was not located again at the start: " + g.message;
    return curve;
  }
  const CurvePoint first = grazing_curve_point(g, q0, options);
  const GrazingCurveSide down = follow_grazing_side(map, first, g.resets, approach, -1.0, options);
  const GrazingCurveSide up = follow_grazing_side(map, first, g.resets, approach, +1.0, options);
  curve.points.assign(down.points.rbegin(), down.points.rend());
  curve.points.push_back(first);
  curve.points.insert(curve.points.end(), up.points.begin(), up.points.end());
  curve.stop_reason[0] = down.stop_reason;
  curve.stop_reason[1] = up.stop_reason;
  curve.status = down.failed || up.failed ? BranchStatus::CorrectorFailed : BranchStatus::Continued;
  return curve;
}

}  // namespace saltus::analysis
