#include "saltus/analysis/equilibrium.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

namespace {

const Flow& ode_flow(const HybridSystem& system, ModeId mode) {
  if (mode < 0 || mode >= system.mode_count()) {
    throw Error("equilibrium: no mode " + std::to_string(mode));
  }
  const Mode& m = system.mode(mode);
  if (m.flow.kind != FlowKind::Ode || m.flow.nz > 0) {
    throw Error("equilibrium: mode '" + m.name +
                "' has algebraic states; equilibria are solved for explicit flows only");
  }
  return m.flow;
}

Vector rate(const Flow& flow, double t, const Vector& x) {
  Vector xdot(flow.nx);
  const Vector z(0);
  flow.rhs(t, x, z, xdot);
  return xdot;
}

// grad h . f + dh/dt at x.
double surface_rate(const Guard& h, double t, const Vector& x, const Vector& f) {
  Vector dpdx(x.size()), dpdz(0);
  const Vector z(0);
  const double dpdt = h.gradient(t, x, z, dpdx, dpdz);
  return dpdx.dot(f) + dpdt;
}

Vector floors(const EquilibriumOptions& o, Eigen::Index nx) {
  if (o.floor.size() == nx) return o.floor;
  return Vector::Constant(nx, 1e-12);
}

}  // namespace

bool null_direction(const Matrix& j, Vector& out) {
  const Eigen::Index n = j.cols();
  if (n < 1 || !j.allFinite()) return false;
  // Columns equilibrated first, so the rank test does not depend on the unknowns' units (a
  // state whose scale is its atol has a column 1e9 times smaller): null(J D) = D^-1 null(J).
  Vector d = j.colwise().norm().transpose();
  for (Eigen::Index i = 0; i < n; ++i) d(i) = d(i) > 0.0 ? 1.0 / d(i) : 1.0;
  Eigen::JacobiSVD<Matrix> svd(j * d.asDiagonal(), Eigen::ComputeFullV);
  const Vector& s = svd.singularValues();
  if (n >= 2 && !(s(n - 2) > 1e-10 * s(0))) return false;
  out = d.asDiagonal() * svd.matrixV().col(n - 1);
  out.normalize();
  return true;
}

std::vector<int> free_states(int nx, const std::vector<int>& held) {
  std::vector<int> out;
  for (int i = 0; i < nx; ++i) {
    if (std::find(held.begin(), held.end(), i) == held.end()) out.push_back(i);
  }
  return out;
}

void equilibrium_equations(const HybridSystem& system, const EquilibriumMode& mode, double t,
                           const Vector& x, const std::vector<int>& rows,
                           const std::vector<int>& unknowns, Vector& residual, Matrix& jacobian) {
  const Flow& flow = ode_flow(system, mode.mode);
  const Vector f = rate(flow, t, x);
  Matrix dfdx(flow.nx, flow.nx), dfdz(flow.nx, 0);
  const Vector z(0);
  flow.rhs_jacobian(t, x, z, dfdx, dfdz);
  const Eigen::Index m = static_cast<Eigen::Index>(rows.size()) + (mode.surface ? 1 : 0);
  const Eigen::Index n = static_cast<Eigen::Index>(unknowns.size());
  residual.resize(m);
  jacobian.resize(m, n);
  for (size_t r = 0; r < rows.size(); ++r) {
    residual(static_cast<Eigen::Index>(r)) = f(rows[r]);
    for (size_t c = 0; c < unknowns.size(); ++c) {
      jacobian(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) =
          dfdx(rows[r], unknowns[c]);
    }
  }
  if (!mode.surface) return;
  Vector dpdx(x.size()), dpdz(0);
  residual(m - 1) = mode.surface->h.value(t, x, z);
  mode.surface->h.gradient(t, x, z, dpdx, dpdz);
  for (size_t c = 0; c < unknowns.size(); ++c) {
    jacobian(m - 1, static_cast<Eigen::Index>(c)) = dpdx(unknowns[c]);
  }
}

Equilibrium describe_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                                 const Vector& x, const EquilibriumOptions& options) {
  const Flow& flow = ode_flow(system, mode.mode);
  const Mode& m = system.mode(mode.mode);
  const std::vector<int> y = free_states(flow.nx, options.held);
  const Vector floor = floors(options, flow.nx);
  Equilibrium e;
  e.found = true;
  e.mode = mode.mode;
  e.pseudo = mode.surface.has_value();
  e.x = x;
  Vector residual;
  Matrix jacobian;
  equilibrium_equations(system, mode, options.t, x, y, y, residual, jacobian);
  e.residual = residual.size() ? residual.cwiseAbs().maxCoeff() : 0.0;

  // The linearisation on the free states (on the surface, for a pseudo-equilibrium).
  Matrix a = jacobian.topRows(static_cast<Eigen::Index>(y.size()));
  if (mode.surface && !y.empty()) {
    const Vector g = jacobian.row(jacobian.rows() - 1).transpose();
    Eigen::HouseholderQR<Matrix> qr(g);
    const Matrix q = qr.householderQ() * Matrix::Identity(g.size(), g.size());
    const Matrix basis = q.rightCols(g.size() - 1);
    a = basis.transpose() * a * basis;
  }
  if (a.rows() > 0) {
    e.eigenvalues = Eigen::EigenSolver<Matrix>(a, false).eigenvalues();
    std::sort(e.eigenvalues.data(), e.eigenvalues.data() + e.eigenvalues.size(),
              [](const std::complex<double>& l, const std::complex<double>& r) {
                return l.real() > r.real() || (l.real() == r.real() && l.imag() > r.imag());
              });
  }
  e.stable = e.eigenvalues.size() == 0 || e.eigenvalues(0).real() < 0.0;

  if (mode.surface) {
    const EquilibriumMode::Surface& s = *mode.surface;
    e.a = surface_rate(s.h, options.t, x, rate(ode_flow(system, s.plus), options.t, x));
    e.b = surface_rate(s.h, options.t, x, rate(ode_flow(system, s.minus), options.t, x));
    e.weight = e.b / (e.b - e.a);
    e.attracting = e.a < 0.0 && e.b > 0.0;
    e.stable = e.stable && e.attracting;
  }

  e.admissible = true;
  const Vector z(0);
  for (size_t k = 0; k < m.guards.size(); ++k) {
    const Guard& guard = m.guards[k];
    if (guard.observe_only || guard.direction == Direction::Either || guard.period > 0.0) continue;
    GuardSide side;
    side.guard = static_cast<GuardId>(k);
    side.name = guard.name;
    const double p = guard.value(options.t, x, z);
    side.inside = guard.direction == Direction::Rising ? -p : p;
    if (guard.gradient) {
      Vector dpdx(x.size()), dpdz(0);
      guard.gradient(options.t, x, z, dpdx, dpdz);
      side.scale = dpdx.cwiseAbs().dot(x.cwiseAbs().cwiseMax(floor));
      side.on_surface = std::abs(side.inside) <= options.boundary_tolerance * side.scale;
    } else {
      side.on_surface = side.inside == 0.0;
    }
    e.admissible = e.admissible && side.inside > 0.0 && !side.on_surface;
    e.guards.push_back(side);
  }
  return e;
}

namespace {

// The largest size of the equations' linear terms at x, sum_j |df_i/dx_j| max(|x_j|, 1e3
// floor_j) over the rows i: a root leaves |f| at round-off of it.
double linear_terms(const Matrix& j, const Vector& x, const std::vector<int>& y,
                    const Vector& floor) {
  double terms = 0.0;
  for (Eigen::Index i = 0; i < j.rows(); ++i) {
    double row = 0.0;
    for (size_t c = 0; c < y.size(); ++c) {
      const int k = y[c];
      row +=
          std::abs(j(i, static_cast<Eigen::Index>(c))) * std::max(std::abs(x(k)), 1e3 * floor(k));
    }
    terms = std::max(terms, row);
  }
  return terms;
}

// A root to round-off: max |f| within 1e-8 of the equations' largest linear terms.
bool at_root(const Vector& r, const Matrix& j, const Vector& x, const std::vector<int>& y,
             const Vector& floor) {
  return r.size() == 0 ||
         (r.allFinite() && r.cwiseAbs().maxCoeff() <= 1e-8 * linear_terms(j, x, y, floor));
}

// Damped Newton (least squares) from x; true at a root, else `why` says what stopped it.
bool newton(const HybridSystem& system, const EquilibriumMode& mode,
            const EquilibriumOptions& options, const std::vector<int>& y, const Vector& floor,
            Vector& x, int& iterations, double& residual, std::string& why) {
  Vector r;
  Matrix j;
  const auto norm_at = [&](const Vector& at) {
    Vector rr;
    Matrix jj;
    equilibrium_equations(system, mode, options.t, at, y, y, rr, jj);
    return rr.allFinite() ? rr.norm() : kInfinity;
  };
  for (iterations = 1; iterations <= options.max_iterations; ++iterations) {
    equilibrium_equations(system, mode, options.t, x, y, y, r, j);
    residual = r.size() ? r.cwiseAbs().maxCoeff() : 0.0;
    if (!r.allFinite() || !j.allFinite()) {
      why = "the flow is not finite at a Newton iterate";
      return false;
    }
    const Vector step = -j.completeOrthogonalDecomposition().solve(r);
    // A full step within the tolerance is the last one: at round-off the residual's norm no
    // longer falls, so it is not asked to.
    bool small = step.allFinite();
    for (size_t c = 0; c < y.size() && small; ++c) {
      const int i = y[c];
      small =
          std::abs(step(static_cast<Eigen::Index>(c))) <= options.rtol * std::abs(x(i)) + floor(i);
    }
    double lambda = 1.0;
    const double before = r.norm();
    Vector next = x;
    for (int halving = 0; halving < 30; ++halving) {
      next = x;
      for (size_t c = 0; c < y.size(); ++c) {
        next(y[c]) += lambda * step(static_cast<Eigen::Index>(c));
      }
      if (small || before == 0.0 || norm_at(next) <= before) break;
      lambda *= 0.5;
    }
    x = next;
    if (!small) continue;
    // Steps also stall where the residual has no root (a constant rate, an inconsistent
    // least-squares system). A sliding flow's rate across its surface is 0 identically: its
    // row has no terms, hence the largest over the rows.
    equilibrium_equations(system, mode, options.t, x, y, y, r, j);
    residual = r.size() ? r.cwiseAbs().maxCoeff() : 0.0;
    if (at_root(r, j, x, y, floor)) return true;
    why = "Newton did not reach a root";
    return false;
  }
  why = "Newton did not reach a root in " + std::to_string(options.max_iterations) + " iterations";
  return false;
}

}  // namespace

bool is_equilibrium(const HybridSystem& system, const EquilibriumMode& mode, const Vector& x,
                    const EquilibriumOptions& options) {
  const Flow& flow = ode_flow(system, mode.mode);
  const std::vector<int> y = free_states(flow.nx, options.held);
  Vector r;
  Matrix j;
  equilibrium_equations(system, mode, options.t, x, y, y, r, j);
  return at_root(r, j, x, y, floors(options, flow.nx));
}

Equilibrium find_equilibrium(const HybridSystem& system, const EquilibriumMode& mode,
                             const Vector& guess, const EquilibriumOptions& options) {
  const Flow& flow = ode_flow(system, mode.mode);
  const std::string name = system.mode(mode.mode).name;
  if (guess.size() != flow.nx) {
    throw Error("equilibrium: a guess of " + std::to_string(guess.size()) + " states for mode '" +
                name + "' of " + std::to_string(flow.nx));
  }
  const std::vector<int> y = free_states(flow.nx, options.held);
  const Vector floor = floors(options, flow.nx);
  Equilibrium e;
  e.mode = mode.mode;
  e.pseudo = mode.surface.has_value();
  e.x = guess;
  std::string why;
  bool root = false;
  try {
    root = newton(system, mode, options, y, floor, e.x, e.iterations, e.residual, why);
    // A flow that reads t rests at x at this instant only.
    for (const double later : {0.37, 0.71}) {
      if (!root || !(options.time_span > 0.0)) break;
      EquilibriumOptions at = options;
      at.t = options.t + later * options.time_span;
      Vector r;
      Matrix j;
      equilibrium_equations(system, mode, at.t, e.x, y, y, r, j);
      const double moved = r.size() ? r.cwiseAbs().maxCoeff() : 0.0;
      if (!at_root(r, j, e.x, y, floor)) {
        root = false;
        std::ostringstream m;
        m.precision(6);
        m << "the flow depends on t: the state at rest at t = " << options.t
          << " moves at t = " << at.t << " (max |f| = " << moved << ")";
        why = m.str();
      }
    }
    if (root) {
      const int iterations = e.iterations;
      e = describe_equilibrium(system, mode, e.x, options);
      e.iterations = iterations;
      return e;
    }
  } catch (const Error& error) {
    why = std::string("the flow failed: ") + error.what();
  }
  std::ostringstream residual;
  residual.precision(3);
  residual << e.residual;
  e.message = "no " + std::string(e.pseudo ? "pseudo-equilibrium" : "equilibrium") + " of mode '" +
              name + "' found from the guess: " + why;
  if (why.rfind("Newton", 0) == 0) e.message += " (max |f| = " + residual.str() + ")";
  return e;
}

}  // namespace saltus::analysis
