// The grazing parameter by inverse interpolation of orbits in their grazing evidence (contract
// and derivation in include/saltus/analysis/grazing_point.hpp).
#include "saltus/analysis/grazing_point.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace saltus::analysis {

const char* to_string(GrazingSide side) {
  switch (side) {
    case GrazingSide::Impacting:
      return "impacting side";
    case GrazingSide::Smooth:
      return "smooth side";
  }
  return "unknown";
}

namespace {

struct Sample {
  double s = kNaN;  // the evidence
  Vector x;         // the fixed point, parameter included
  PeriodicOrbit orbit;
};

double evidence(const PeriodicOrbit& orbit, GrazingSide side) {
  return side == GrazingSide::Impacting ? orbit.min_crossing_rate : orbit.closest_approach;
}

// Lagrange weights at s of the last (at most three) samples: the polynomial through them.
std::vector<double> weights(const std::vector<Sample>& samples, double s, size_t& first) {
  first = samples.size() > 3 ? samples.size() - 3 : 0;
  std::vector<double> w;
  for (size_t i = first; i < samples.size(); ++i) {
    double l = 1.0;
    for (size_t j = first; j < samples.size(); ++j) {
      if (j != i) l *= (s - samples[j].s) / (samples[i].s - samples[j].s);
    }
    w.push_back(l);
  }
  return w;
}

Vector interpolate(const std::vector<Sample>& samples, double s) {
  size_t first = 0;
  const std::vector<double> w = weights(samples, s, first);
  Vector x = Vector::Zero(samples.back().x.size());
  for (size_t i = first; i < samples.size(); ++i) x += w[i - first] * samples[i].x;
  return x;
}

class Locator {
 public:
  Locator(const ReturnMap& map, const GrazingOptions& o) : map_(map), o_(o) {}

  // The orbit at the parameter of `guess` (kept fixed: a constant state), or why not.
  bool solve(const Vector& guess, Sample& out, std::string& why) {
    ShootingOptions shooting;
    shooting.tolerance = o_.orbit_tolerance;
    shooting.max_iterations = o_.orbit_iterations;
    ++orbits_;
    out.orbit = find_fixed_point(map_, guess, shooting);
    std::ostringstream os;
    os.precision(10);
    os << "the orbit at parameter " << guess[o_.parameter];
    if (!out.orbit.converged()) {
      os << " was not found: " << to_string(out.orbit.status) << ": " << out.orbit.message;
    } else if (out.orbit.events_per_period != resets_) {
      os << " has " << out.orbit.events_per_period << " resets per period, not " << resets_;
    } else if (!(evidence(out.orbit, side_) > 0.0) || !std::isfinite(evidence(out.orbit, side_))) {
      os << " has no grazing evidence on the " << to_string(side_);
    } else {
      out.x = out.orbit.x;
      out.s = evidence(out.orbit, side_);
      return true;
    }
    why = os.str();
    return false;
  }

  GrazingPoint run(const std::vector<Vector>& approach) {
    GrazingPoint g;
    if (approach.size() < 2) {
      g.message = "fewer than two orbits approach the grazing";
      return g;
    }
    std::string why;
    // The side, the resets and the evidence from the orbit nearest the grazing.
    {
      resets_ = -1;
      side_ = GrazingSide::Impacting;
      Sample last;
      ShootingOptions shooting;
      shooting.tolerance = o_.orbit_tolerance;
      shooting.max_iterations = o_.orbit_iterations;
      last.orbit = find_fixed_point(map_, approach.back(), shooting);
      ++orbits_;
      if (!last.orbit.converged()) {
        g.message = "the orbit nearest the grazing was not solved again: " +
                    std::string(to_string(last.orbit.status)) + ": " + last.orbit.message;
        return g;
      }
      resets_ = last.orbit.events_per_period;
      side_ = last.orbit.min_crossing_rate <= last.orbit.closest_approach ? GrazingSide::Impacting
                                                                          : GrazingSide::Smooth;
    }
    g.side = side_;
    std::vector<Sample> samples;
    const size_t from = approach.size() > 3 ? approach.size() - 3 : 0;
    for (size_t k = from; k < approach.size(); ++k) {
      Sample s;
      if (!solve(approach[k], s, why)) continue;  // a farther one is not needed
      if (!samples.empty() && !(s.s < samples.back().s)) continue;
      samples.push_back(std::move(s));
    }
    if (samples.size() < 2) {
      g.message = "fewer than two orbits with decreasing evidence approach the grazing" +
                  (why.empty() ? std::string() : ": " + why);
      return g;
    }
    const int p = o_.parameter;
    double estimate = interpolate(samples, 0.0)[p];
    double change = kInfinity;
    int failures = 0;
    double ratio = 0.1;  // the next orbit's evidence, relative to the last
    while (orbits_ < o_.max_orbits) {
      const double target = ratio * samples.back().s;
      Sample s;
      if (!solve(interpolate(samples, target), s, why) || !(s.s < samples.back().s)) {
        if (why.empty()) why = "the evidence did not decrease";
        if (++failures > 3) break;
        ratio = 0.5 * (ratio + 1.0);  // closer to the last orbit
        continue;
      }
      samples.push_back(std::move(s));
      why.clear();
      const double next = interpolate(samples, 0.0)[p];
      const double previous = change;
      change = std::abs(next - estimate);
      estimate = next;
      if (samples.size() >= 3 && change <= o_.parameter_tolerance * (1.0 + std::abs(estimate))) {
        g.converged = true;
        break;
      }
      // Nearer the grazing of an impact the orbits carry the runs' error times |DP| ~ 1 / s:
      // once the estimates stop settling, more orbits only add noise.
      if (change > previous) {
        why = "the estimates stopped settling";
        break;
      }
    }
    const Sample& nearest = samples.back();
    g.nearest_parameter = nearest.x[p];
    g.nearest_evidence = nearest.s;
    g.nearest_period = nearest.orbit.period;
    g.resets = resets_;
    g.multipliers = nearest.orbit.multipliers;
    g.change = change;
    g.orbits = orbits_;
    std::ostringstream os;
    os.precision(6);
    const char* what = side_ == GrazingSide::Impacting ? "crossing rate" : "closest approach";
    if (!g.converged) {
      os << "not refined: the " << what << " extrapolated over " << samples.size()
         << " orbits did not settle (last change " << change << " of the parameter, tolerance "
         << o_.parameter_tolerance << " (1 + |p|))" << (why.empty() ? "" : "; " + why);
      g.message = os.str();
      return g;
    }
    g.parameter = estimate;
    g.x = interpolate(samples, 0.0);
    g.x[p] = estimate;
    os << "located from the " << to_string(side_) << " by inverse interpolation of the parameter"
       << " in the " << what << " of " << samples.size() << " orbits (" << orbits_
       << " solved; nearest: " << what << " " << nearest.s << " at " << nearest.x[p] - estimate
       << " from it): the last two estimates differ by " << change;
    g.message = os.str();
    return g;
  }

 private:
  const ReturnMap& map_;
  GrazingOptions o_;
  long resets_ = -1;
  GrazingSide side_ = GrazingSide::Impacting;
  int orbits_ = 0;
};

}  // namespace

GrazingPoint locate_grazing(const ReturnMap& map, const std::vector<Vector>& approach,
                            const GrazingOptions& options) {
  return Locator(map, options).run(approach);
}

}  // namespace saltus::analysis
