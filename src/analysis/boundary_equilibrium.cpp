#include "saltus/analysis/boundary_equilibrium.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

const char* to_string(BoundaryKind kind) {
  switch (kind) {
    case BoundaryKind::Persistence:
      return "persistence";
    case BoundaryKind::NonsmoothFold:
      return "nonsmooth-fold";
    case BoundaryKind::Unclassified:
      break;
  }
  return "unclassified";
}

bool equilibrium_tangent(const HybridSystem& system, const EquilibriumMode& mode, const Vector& x,
                         int parameter, const EquilibriumOptions& options, Vector& dxdp) {
  std::vector<int> held;
  for (int i : options.held) {
    if (i != parameter) held.push_back(i);
  }
  const std::vector<int> rows = free_states(static_cast<int>(x.size()), options.held);
  const std::vector<int> unknowns = free_states(static_cast<int>(x.size()), held);
  Vector r;
  Matrix j;
  equilibrium_equations(system, mode, options.t, x, rows, unknowns, r, j);
  Vector null;
  if (!null_direction(j, null)) return false;
  const auto at = std::find(unknowns.begin(), unknowns.end(), parameter);
  const double tp = null(at - unknowns.begin());
  if (!(std::abs(tp) > 1e-12 * null.cwiseAbs().maxCoeff())) return false;
  dxdp = Vector::Zero(x.size());
  for (size_t c = 0; c < unknowns.size(); ++c) {
    dxdp(unknowns[c]) = null(static_cast<Eigen::Index>(c)) / tp;
  }
  return true;
}

BoundaryClassification classify_boundary_equilibrium(const HybridSystem& system,
                                                     const std::vector<EquilibriumMode>& modes,
                                                     const Vector& x_b, int parameter,
                                                     const EquilibriumOptions& options) {
  BoundaryClassification out;
  for (const EquilibriumMode& mode : modes) {
    const Mode& m = system.mode(mode.mode);
    if (m.flow.kind != FlowKind::Ode || m.flow.nz > 0) continue;
    // x_b itself is an equilibrium of the mode, to round-off (a root test in the equations'
    // own units: a state near 0 has no scale of its own to compare positions with).
    bool there = false;
    try {
      there = is_equilibrium(system, mode, x_b, options);
    } catch (const Error&) {  // the flow failed there
    }
    if (!there) continue;
    const Equilibrium e = describe_equilibrium(system, mode, x_b, options);
    BoundaryMeeting b;
    b.mode = mode.mode;
    b.pseudo = e.pseudo;
    b.attracting = e.attracting;
    b.stable = e.stable;
    bool has_tangent = false;
    try {
      has_tangent = equilibrium_tangent(system, mode, e.x, parameter, options, b.dxdp);
    } catch (const Error&) {  // the flow failed near the point: no slope there
    }
    if (!has_tangent) {
      b.side = 3;
      out.meeting.push_back(b);
      continue;
    }
    int sign = 0;  // 0: no guard on its surface yet
    bool outside = false, degenerate = false;
    const Vector z(0);
    for (const GuardSide& g : e.guards) {
      if (!g.on_surface) {
        outside = outside || !(g.inside > 0.0);
        continue;
      }
      const Guard& guard = m.guards[static_cast<size_t>(g.guard)];
      Vector dpdx(x_b.size()), dpdz(0);
      guard.gradient(options.t, e.x, z, dpdx, dpdz);
      const double orientation = guard.direction == Direction::Rising ? -1.0 : 1.0;
      const double slope = orientation * dpdx.dot(b.dxdp);
      if (!(std::abs(slope) > 1e-8 * dpdx.cwiseAbs().dot(b.dxdp.cwiseAbs()))) {
        degenerate = true;
        continue;
      }
      const int s = slope > 0.0 ? 1 : -1;
      sign = sign == 0 ? s : (sign == s ? s : 5);
    }
    b.side = degenerate ? 3 : outside || sign == 5 ? 0 : sign == 0 ? 2 : sign;
    out.meeting.push_back(b);
  }
  const auto describe = [&](const BoundaryMeeting& b) {
    std::string s = std::string(b.pseudo ? "pseudo-equilibrium" : "equilibrium") + " of '" +
                    system.mode(b.mode).name + "'";
    switch (b.side) {
      case 1:
        return s + " (admissible for p > p*)";
      case -1:
        return s + " (admissible for p < p*)";
      case 0:
        return s + " (admissible on neither side)";
      case 2:
        return s + " (admissible on both sides)";
      default:
        return s + " (degenerate: its guard's value or its branch is stationary in p there)";
    }
  };
  std::ostringstream message;
  if (out.meeting.size() == 2 && std::abs(out.meeting[0].side) == 1 &&
      std::abs(out.meeting[1].side) == 1) {
    const BoundaryMeeting &a = out.meeting[0], &b = out.meeting[1];
    if (a.side != b.side) {
      out.kind = BoundaryKind::Persistence;
      message << "persistence: the " << describe(a) << " continues as the " << describe(b);
    } else {
      out.kind = BoundaryKind::NonsmoothFold;
      message << "nonsmooth fold: the " << describe(a) << " and the " << describe(b)
              << " collide and vanish";
    }
  } else {
    message << "unclassified: " << out.meeting.size() << " equilibria meet there";
    for (const BoundaryMeeting& b : out.meeting) message << "; " << describe(b);
    if (out.meeting.size() == 1) {
      message << "; no other mode's equilibrium meets it (past p* it is virtual and the mode's "
                 "guard decides the motion)";
    }
  }
  out.message = message.str();
  return out;
}

}  // namespace saltus::analysis
