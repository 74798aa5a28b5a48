#include "saltus/analysis/equilibrium_branch.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <functional>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

const char* to_string(EquilibriumEventKind kind) {
  switch (kind) {
    case EquilibriumEventKind::Fold:
      return "fold";
    case EquilibriumEventKind::Hopf:
      return "hopf";
    case EquilibriumEventKind::Boundary:
      break;
  }
  return "boundary";
}

namespace {

// The branch in scaled unknowns v = u / s (equilibrium_branch.hpp).
struct Tracker {
  const HybridSystem& system;
  const EquilibriumMode& mode;
  const EquilibriumOptions& options;
  const EquilibriumBranchOptions& branch;
  std::vector<int> rows, unknowns;
  Eigen::Index p_index = 0;  // the parameter's place in `unknowns`
  Vector scale, base;

  Vector state(const Vector& v) const {
    Vector x = base;
    for (size_t c = 0; c < unknowns.size(); ++c) {
      const auto k = static_cast<Eigen::Index>(c);
      x(unknowns[c]) = v(k) * scale(k);
    }
    return x;
  }
  Vector scaled(const Vector& x) const {
    Vector v(static_cast<Eigen::Index>(unknowns.size()));
    for (size_t c = 0; c < unknowns.size(); ++c) {
      const auto k = static_cast<Eigen::Index>(c);
      v(k) = x(unknowns[c]) / scale(k);
    }
    return v;
  }
  double parameter(const Vector& v) const { return v(p_index) * scale(p_index); }
  void equations(const Vector& v, Vector& g, Matrix& j) const {
    equilibrium_equations(system, mode, options.t, state(v), rows, unknowns, g, j);
    j = j * scale.asDiagonal();
  }
  // The null vector of G_v, oriented along `previous`; false off a one-dimensional null space.
  bool tangent(const Vector& v, const Vector& previous, Vector& t) const {
    Vector g;
    Matrix j;
    equations(v, g, j);
    if (!null_direction(j, t)) return false;
    if (t.dot(previous) < 0.0) t = -t;
    return true;
  }
  // Newton in least squares on [G(v); t . (v - predicted)] = 0.
  bool correct(const Vector& predicted, const Vector& t, Vector& v, int& iterations) const {
    v = predicted;
    Vector g;
    Matrix j;
    for (iterations = 1; iterations <= branch.max_corrector_iterations; ++iterations) {
      equations(v, g, j);
      if (!g.allFinite() || !j.allFinite()) return false;
      Matrix a(j.rows() + 1, j.cols());
      a << j, t.transpose();
      Vector rhs(g.size() + 1);
      rhs << -g, -t.dot(v - predicted);
      const Vector dv = a.colPivHouseholderQr().solve(rhs);
      if (!dv.allFinite()) return false;
      v += dv;
      if (dv.cwiseAbs().maxCoeff() <= branch.tolerance) return true;
    }
    return false;
  }
};

struct Point {
  Vector v, t;
  Equilibrium e;
};

// The real part of the complex pair nearest the imaginary axis (NaN: none), and how many
// complex eigenvalues lie right of it.
double hopf_test(const Equilibrium& e, int& unstable_complex, double& frequency) {
  unstable_complex = 0;
  double best = kNaN;
  frequency = kNaN;
  for (Eigen::Index i = 0; i < e.eigenvalues.size(); ++i) {
    const std::complex<double> l = e.eigenvalues(i);
    if (l.imag() == 0.0) continue;
    if (l.real() > 0.0) ++unstable_complex;
    if (l.imag() > 0.0 && !(std::abs(l.real()) >= std::abs(best))) {
      best = l.real();
      frequency = l.imag();
    }
  }
  return best;
}

}  // namespace

EquilibriumBranch continue_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                                       const std::vector<EquilibriumMode>& modes,
                                       const Equilibrium& start, const EquilibriumOptions& options,
                                       const EquilibriumBranchOptions& branch) {
  const int nx = static_cast<int>(start.x.size());
  const int ip = branch.parameter;
  if (ip < 0 || ip >= nx ||
      std::find(options.held.begin(), options.held.end(), ip) == options.held.end()) {
    throw Error("equilibrium continuation: the parameter must be a held state");
  }
  if (!(branch.to != branch.from) || !std::isfinite(branch.to - branch.from)) {
    throw Error("equilibrium continuation: an empty or infinite parameter range");
  }
  Tracker tr{system, mode, options, branch, {}, {}, 0, {}, start.x};
  tr.rows = free_states(nx, options.held);
  std::vector<int> held;
  for (int i : options.held) {
    if (i != ip) held.push_back(i);
  }
  tr.unknowns = free_states(nx, held);
  tr.p_index = std::find(tr.unknowns.begin(), tr.unknowns.end(), ip) - tr.unknowns.begin();
  const double range = std::abs(branch.to - branch.from);
  const Vector floor = options.floor.size() == nx ? options.floor : Vector::Constant(nx, 1e-12);
  Vector dxdp;
  const bool has_slope = equilibrium_tangent(system, mode, start.x, ip, options, dxdp);
  tr.scale.resize(static_cast<Eigen::Index>(tr.unknowns.size()));
  for (size_t c = 0; c < tr.unknowns.size(); ++c) {
    const int i = tr.unknowns[c];
    tr.scale(static_cast<Eigen::Index>(c)) =
        i == ip ? range
                : std::max({std::abs(start.x(i)), has_slope ? std::abs(dxdp(i)) * range : 0.0,
                            1e3 * floor(i)});
  }

  EquilibriumBranch out;
  out.mode = mode.mode;
  const double direction = branch.to > branch.from ? 1.0 : -1.0;
  const double lo = std::min(branch.from, branch.to), hi = std::max(branch.from, branch.to);
  Point current;
  current.v = tr.scaled(start.x);
  current.e = start;
  {
    Vector seed = Vector::Zero(current.v.size());
    seed(tr.p_index) = direction;
    if (!tr.tangent(current.v, seed, current.t)) {
      out.message =
          "no branch through the start: the equilibrium equations' Jacobian has no "
          "one-dimensional null space there";
      out.points.push_back(start);
      return out;
    }
  }
  out.points.push_back(start);

  // The corrected point at arclength sigma from `from` along its tangent, with its tangent.
  // A flow that throws there (a singular mass matrix) fails the point; the last such message
  // is kept for the branch's end.
  std::string flow_failure;
  const auto point_at = [&](const Point& from, double sigma, Point& p, int& iterations) {
    try {
      if (!tr.correct(from.v + sigma * from.t, from.t, p.v, iterations)) return false;
      if (!tr.tangent(p.v, from.t, p.t)) return false;
      p.e = describe_equilibrium(system, mode, tr.state(p.v), options);
    } catch (const Error& e) {
      flow_failure = e.what();
      return false;
    }
    return true;
  };
  // Illinois regula falsi for phi(sigma) = 0 on (0, h), phi(0) = f0, phi(h) = f1 of opposite
  // signs; the located point.
  // Root: the bracket closed on the root (within 1e-12 of the step) or phi = 0 there; Near:
  // `found` is the last corrected point, the bracket still open (a corrector failed); None.
  enum class Located { None, Near, Root };
  const auto locate = [&](const Point& from, double h, double f0, double f1,
                          const std::function<double(const Point&)>& phi, Point& found) {
    double a = 0.0, b = h, fa = f0, fb = f1;
    int kept = 0;
    bool any = false;
    for (int it = 0; it < 80 && b - a > 1e-15 * h; ++it) {
      const double sigma = (a * fb - b * fa) / (fb - fa);
      Point p;
      int iterations = 0;
      if (!(sigma > a && sigma < b) || !point_at(from, sigma, p, iterations)) break;
      found = p;
      any = true;
      const double f = phi(p);
      if (f == 0.0) return Located::Root;
      if (!std::isfinite(f)) break;
      if ((f > 0.0) == (fa > 0.0)) {
        a = sigma;
        fa = f;
        if (kept == -1) fb *= 0.5;
        kept = -1;
      } else {
        b = sigma;
        fb = f;
        if (kept == 1) fa *= 0.5;
        kept = 1;
      }
    }
    return !any ? Located::None : b - a <= 1e-12 * h ? Located::Root : Located::Near;
  };

  double h = branch.initial_step;
  while (static_cast<int>(out.points.size()) < branch.max_points) {
    Point next;
    int iterations = 0;
    if (!point_at(current, h, next, iterations) || std::abs(next.t.dot(current.t)) < 0.8) {
      h *= 0.5;
      if (h < branch.min_step) {
        out.message = "the corrector failed at the smallest step (" +
                      std::to_string(branch.min_step) +
                      ") after p = " + std::to_string(tr.parameter(current.v)) +
                      (flow_failure.empty() ? "" : "; the flow failed: " + flow_failure);
        return out;
      }
      continue;
    }
    double step = h;
    // The range's end: the point on it.
    const double p_next = tr.parameter(next.v);
    bool last = false;
    if (p_next > hi || p_next < lo) {
      const double bound = p_next > hi ? hi : lo;
      const double f0 = tr.parameter(current.v) - bound, f1 = p_next - bound;
      Point end;
      if (f0 == 0.0 ||
          locate(
              current, h, f0, f1, [&](const Point& p) { return tr.parameter(p.v) - bound; }, end) ==
              Located::None) {
        out.message = "the branch left the range at p = " + std::to_string(bound);
        return out;
      }
      next = end;
      step = next.t.dot(next.v - current.v);
      last = true;
      out.reached_end = true;
      out.message = bound == branch.to ? "reached the range's end"
                                       : "turned back and left the range at its start";
    }

    // Bifurcations between current and next, in the order of the arclength.
    std::vector<std::pair<double, EquilibriumEvent>> found;
    const auto add = [&](EquilibriumEventKind kind, const Point& p, double sigma) {
      EquilibriumEvent ev;
      ev.kind = kind;
      ev.at = p.e;
      ev.parameter = tr.parameter(p.v);
      ev.after_point = static_cast<int>(out.points.size()) - 1;
      found.emplace_back(sigma, ev);
      return &found.back().second;
    };
    const auto sigma_of = [&](const Point& p) { return current.t.dot(p.v - current.v); };
    // A sign change is always reported: where it is not located, at the last point found (or
    // the step's end) with located = false.
    const auto place = [&](EquilibriumEventKind kind, double f0, double f1,
                           const std::function<double(const Point&)>& phi, Point& p) {
      p = next;
      const Located how = locate(current, step, f0, f1, phi, p);
      EquilibriumEvent* ev = add(kind, p, sigma_of(p));
      ev->located = how == Located::Root;
      return ev;
    };
    const double t0 = current.t(tr.p_index), t1 = next.t(tr.p_index);
    if (t0 * t1 < 0.0) {
      Point p;
      place(
          EquilibriumEventKind::Fold, t0, t1, [&](const Point& q) { return q.t(tr.p_index); }, p);
    }
    int u0 = 0, u1 = 0;
    double w0 = kNaN, w1 = kNaN;
    const double r0 = hopf_test(current.e, u0, w0), r1 = hopf_test(next.e, u1, w1);
    if (u0 != u1 && r0 * r1 < 0.0) {
      Point p;
      const auto phi = [&](const Point& q) {
        int u = 0;
        double w = kNaN;
        return hopf_test(q.e, u, w);
      };
      EquilibriumEvent* ev = place(EquilibriumEventKind::Hopf, r0, r1, phi, p);
      int u = 0;
      hopf_test(p.e, u, ev->frequency);
    }
    for (size_t k = 0; k < current.e.guards.size() && k < next.e.guards.size(); ++k) {
      const double g0 = current.e.guards[k].inside, g1 = next.e.guards[k].inside;
      if (!(g0 * g1 < 0.0)) continue;
      // Guards with the same value (cross:h, slide:h, past:h) are one boundary.
      bool seen = false;
      for (size_t j = 0; j < k; ++j) {
        seen = seen || (current.e.guards[j].inside == g0 && next.e.guards[j].inside == g1);
      }
      if (seen) continue;
      Point p;
      EquilibriumEvent* ev = place(
          EquilibriumEventKind::Boundary, g0, g1,
          [&](const Point& q) { return q.e.guards[k].inside; }, p);
      ev->guards.push_back(p.e.guards[k].name);
      for (size_t j = 0; j < p.e.guards.size(); ++j) {
        if (j != k && p.e.guards[j].on_surface) ev->guards.push_back(p.e.guards[j].name);
      }
      ev->boundary = classify_boundary_equilibrium(system, modes, p.e.x, ip, options);
    }
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& f : found) out.events.push_back(std::move(f.second));

    out.points.push_back(next.e);
    current = next;
    if (last) return out;
    if (iterations <= 3) h = std::min(1.5 * h, branch.max_step);
  }
  out.message = "stopped after " + std::to_string(branch.max_points) + " points";
  return out;
}

}  // namespace saltus::analysis
