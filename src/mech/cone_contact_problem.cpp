// Non-smooth Gauss-Seidel for the frictional contact problem in space; see
// include/saltus/mech/cone_contact_problem.hpp. Over 450 lines (about 690): one solver in its
// parts, in reading order (the exact local problem of one contact and its slip roots, the sweeps,
// the Newton step on the active equations, the residual check, the starts that find several
// answers); the local problem (about 230 lines) is the one piece that could stand in a file of its
// own, and does not yet.
#include "saltus/mech/cone_contact_problem.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>

#include "saltus/core/error.hpp"

namespace saltus::mech {

namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

// Stick is accepted when |r_T| <= mu r_N (1 + kConeSlack): a slip root on the cone's edge
// reproduces it to round-off, and the two are then one answer.
constexpr double kConeSlack = 1e-12;
// A local block whose smallest singular value (or G_NN) is below kSingular of its largest gets
// the proximal term prox (r_i - r_i_old), prox = kProximal times its largest: the local problem
// is then well posed, and a fixed point of the sweeps (r_i = r_i_old) is an exact answer.
constexpr double kSingular = 1e-10;
constexpr double kProximal = 1e-8;
// Local answers: open, stick, and up to 4 slip directions (roots of a quartic).
constexpr int kMaxLocal = 6;

struct Block {
  int offset = 0;
  bool cone = true;
  double mu = 0.0;
  double prox = 0.0;
  Eigen::Matrix3d G = Eigen::Matrix3d::Zero();  // G_ii + prox I (top-left 1 x 1 for Normal)
  Eigen::Matrix3d G_inv = Eigen::Matrix3d::Zero();
};

struct Workspace {
  std::vector<Block> blocks;
  double g = 1.0;  // ||G||_inf, 1 for G = 0: converts forces to velocity units
};

Vec3 project_onto_cone(const Vec3& x, double mu) {
  const double t = x.tail<2>().norm();
  if (t <= mu * x[0]) return x;
  if (mu * t <= -x[0]) return Vec3::Zero();
  const double n = (x[0] + mu * t) / (1.0 + mu * mu);
  if (t == 0.0) return Vec3(n, 0.0, 0.0);
  return Vec3(n, mu * n * x[1] / t, mu * n * x[2] / t);
}

struct LocalAnswers {
  std::array<Vec3, kMaxLocal> r{};
  int count = 0;
  void add(const Vec3& x) {
    for (int k = 0; k < count; ++k)
      if ((x - r[k]).norm() <= 1e-9 * std::max(x.norm(), r[k].norm())) return;
    if (count < kMaxLocal) r[count++] = x;
  }
  Vec3 nearest(const Vec3& current) const {
    int best = 0;
    for (int k = 1; k < count; ++k)
      if ((r[k] - current).norm() < (r[best] - current).norm()) best = k;
    return r[best];
  }
};

// f(th) = c0 + c1 cos th + s1 sin th + c2 cos 2th + s2 sin 2th.
struct TrigQuadratic {
  double c0, c1, s1, c2, s2;
  double at(double th) const {
    return c0 + c1 * std::cos(th) + s1 * std::sin(th) + c2 * std::cos(2 * th) +
           s2 * std::sin(2 * th);
  }
  double slope(double th) const {
    return -c1 * std::sin(th) + s1 * std::cos(th) - 2 * c2 * std::sin(2 * th) +
           2 * s2 * std::cos(2 * th);
  }
  double size() const {
    return std::abs(c0) + std::abs(c1) + std::abs(s1) + std::abs(c2) + std::abs(s2);
  }
};

// Real roots of f: with z = e^{i th}, z^2 f is a quartic in z whose roots on the unit circle are
// f's roots. Its companion matrix's eigenvalues give them to a few digits; Newton on f itself
// (well conditioned at simple roots) polishes each. At most 4 roots, in th.
int trig_roots(const TrigQuadratic& f, std::array<double, 4>& th) {
  using C = std::complex<double>;
  const std::array<C, 5> p = {C(f.c2, f.s2) / 2.0, C(f.c1, f.s1) / 2.0, C(f.c0, 0.0),
                              C(f.c1, -f.s1) / 2.0, C(f.c2, -f.s2) / 2.0};  // p[k] z^k
  std::array<C, 4> z;
  int nz = 0;
  const double big = f.size();
  if (big == 0.0) return 0;
  if (std::abs(p[4]) > 1e-10 * big) {
    Eigen::Matrix4cd companion = Eigen::Matrix4cd::Zero();
    companion(1, 0) = companion(2, 1) = companion(3, 2) = 1.0;
    for (int k = 0; k < 4; ++k) companion(k, 3) = -p[k] / p[4];
    const Eigen::ComplexEigenSolver<Eigen::Matrix4cd> eig(companion, false);
    for (int k = 0; k < 4; ++k) z[nz++] = eig.eigenvalues()[k];
  } else if (std::abs(p[3]) > 1e-10 * big) {
    // |p[0]| = |p[4]| is negligible too: z (p3 z^2 + p2 z + p1), roots by the stable formula.
    const C disc = std::sqrt(p[2] * p[2] - 4.0 * p[3] * p[1]);
    const C q = -0.5 * (p[2] + (std::real(std::conj(p[2]) * disc) >= 0.0 ? disc : -disc));
    z[nz++] = q / p[3];
    if (q != 0.0) z[nz++] = p[1] / q;
  }
  int n = 0;
  const double two_pi = 2.0 * std::acos(-1.0);
  for (int k = 0; k < nz; ++k) {
    if (std::abs(std::abs(z[k]) - 1.0) > 0.25) continue;
    double t = std::arg(z[k]);
    for (int it = 0; it < 40; ++it) {
      const double slope = f.slope(t);
      if (slope == 0.0) break;
      const double step = std::clamp(-f.at(t) / slope, -0.1, 0.1);
      t += step;
      if (std::abs(step) <= 1e-15) break;
    }
    if (!(std::abs(f.at(t)) <= 1e-11 * big)) continue;
    t = std::fmod(t, two_pi);
    if (t < 0.0) t += two_pi;
    bool seen = false;
    for (int j = 0; j < n; ++j) {
      const double gap = std::abs(t - th[j]);
      seen = seen || std::min(gap, two_pi - gap) <= 1e-9;
    }
    if (!seen) th[n++] = t;
  }
  return n;
}

// Slip answers of u = G r + q: r = r_N (1, -mu d), d = (cos th, sin th), u_N = 0 gives
// r_N = -q_N / (G_NN - mu G_NT d) (admissible where the denominator is > 0), and u_T must be
// parallel to d with a positive factor. With den = G_NN - mu G_NT d, den u_T = a0 + A1 d, so
// the cross product (a0 + A1 d) x d = 0 is a trigonometric polynomial f of degree 2 in th.
struct SlipEquation {
  const Block& c;
  const Vec3& q;
  TrigQuadratic f{};
  SlipEquation(const Block& block, const Vec3& offset) : c(block), q(offset) {
    const Vec2 a0 = c.G(0, 0) * q.tail<2>() - q[0] * c.G.block<2, 1>(1, 0);
    const Eigen::Matrix2d A1 =
        c.mu * (q[0] * c.G.block<2, 2>(1, 1) - q.tail<2>() * c.G.block<1, 2>(0, 1));
    f = {0.5 * (A1(0, 1) - A1(1, 0)), -a0[1], a0[0], -0.5 * (A1(0, 1) + A1(1, 0)),
         0.5 * (A1(0, 0) - A1(1, 1))};
  }
  // Adds the answer of the root th when it is admissible; false when it is not.
  bool add(double th, LocalAnswers& out) const {
    const Vec2 d(std::cos(th), std::sin(th));
    const double den = c.G(0, 0) - c.mu * c.G.block<1, 2>(0, 1).dot(d);
    if (!(den > 0.0)) return false;
    const double r_N = -q[0] / den;
    const Vec2 u_T =
        q.tail<2>() + r_N * (c.G.block<2, 1>(1, 0) - c.mu * (c.G.block<2, 2>(1, 1) * d));
    // u_T . d >= 0 up to round-off (u_T = 0 is the stick answer on the cone's edge).
    if (u_T.dot(d) < -1e-12 * (q.norm() + r_N * c.G.norm())) return false;
    out.add(Vec3(r_N, -c.mu * r_N * d[0], -c.mu * r_N * d[1]));
    return true;
  }
  void add_every_root(LocalAnswers& out) const {
    std::array<double, 4> th;
    const int n = trig_roots(f, th);
    for (int k = 0; k < n; ++k) add(th[k], out);
  }
  // Newton on f from the current slip direction: in the sweeps a slipping contact's direction
  // moves little, and this spares the eigenvalue solve (85% of a sweep's time otherwise). False
  // when the contact is not slipping or Newton does not land on an admissible root within
  // 0.2 rad.
  bool add_root_near(const Vec3& current, LocalAnswers& out) const {
    const Vec2 r_T = current.tail<2>();
    if (!(current[0] > 0.0) || r_T.norm() < c.mu * current[0] * (1.0 - 1e-6)) return false;
    const double th0 = std::atan2(-r_T[1], -r_T[0]);
    double th = th0, step = 1.0;
    for (int it = 0; it < 12 && std::abs(step) > 1e-14; ++it) {
      step = std::clamp(-f.at(th) / f.slope(th), -0.1, 0.1);
      th += step;
    }
    if (!(std::abs(th - th0) <= 0.2) || !(std::abs(f.at(th)) <= 1e-11 * f.size())) return false;
    return add(th, out);
  }
};

enum class Want {
  InOrder,  // open, else stick, else slip (the sweeps' preference)
  Nearest,  // open, stick and slip, to take the nearest (a start's branch kept)
  Every,    // every answer, every slip root enumerated (other answers at an answer)
};

// The answers of one Cone contact's problem u = G r + q. A slipping contact's slip answer is the
// root Newton reaches from its current direction, else every root (Want::Every: every root).
void local_answers(const Block& c, const Vec3& q, const Vec3& current, Want want,
                   LocalAnswers& out) {
  out.count = 0;
  if (q[0] >= 0.0) {
    out.add(Vec3::Zero());
    if (want == Want::InOrder) return;
  }
  if (c.mu == 0.0) {  // r_T = 0: one unilateral row
    if (q[0] < 0.0) out.add(Vec3(-q[0] / c.G(0, 0), 0.0, 0.0));
    return;
  }
  const Vec3 stick = -(c.G_inv * q);
  if (stick[0] >= 0.0 && stick.tail<2>().norm() <= c.mu * stick[0] * (1.0 + kConeSlack)) {
    out.add(stick);
    if (want == Want::InOrder) return;
  }
  if (q[0] < 0.0) {
    const SlipEquation slip(c, q);
    if (want == Want::Every || !slip.add_root_near(current, out)) slip.add_every_root(out);
  }
  // No answer (a singular or non-symmetric block): the stick force projected on the cone keeps
  // the sweeps going; the residual says whether they reach an answer.
  if (out.count == 0) out.add(project_onto_cone(stick, c.mu));
}

// q of contact c: b_i + sum_{j != i} G_ij r_j - prox r_i.
Vec3 local_offset(const ConeContactProblem& p, const Block& c, const Vector& r) {
  const int o = c.offset;
  return p.b.segment<3>(o) + p.G.middleRows<3>(o) * r - c.G * r.segment<3>(o);
}

void sweep(const ConeContactProblem& p, const Workspace& w, Want want, Vector& r) {
  LocalAnswers answers;
  for (const Block& c : w.blocks) {
    const int o = c.offset;
    if (!c.cone) {
      const double q = p.b[o] + p.G.row(o).dot(r) - c.G(0, 0) * r[o];
      r[o] = std::max(0.0, -q / c.G(0, 0));
      continue;
    }
    const Vec3 current = r.segment<3>(o);
    local_answers(c, local_offset(p, c, r), current, want, answers);
    r.segment<3>(o) = answers.nearest(current);
  }
}

struct Measure {
  double residual = kInfinity;
  int worst = -1;
  double scale_u = 0.0;
};

// The natural map of every contact (header comment), from r and u = G r + b.
Measure measure(const ConeContactProblem& p, const Workspace& w, const Vector& r, const Vector& u) {
  Measure m;
  if (w.blocks.empty()) {
    m.residual = 0.0;
    return m;
  }
  // |G r|, not ||G|| |r|: r may grow along G's null space (dependent contacts) without moving
  // anything, and must not loosen the scale as it grows.
  m.scale_u = std::max(p.b.cwiseAbs().maxCoeff(), (u - p.b).cwiseAbs().maxCoeff());
  if (!std::isfinite(m.scale_u) || !u.allFinite()) return m;
  m.residual = 0.0;
  for (int i = 0; i < static_cast<int>(w.blocks.size()); ++i) {
    const Block& c = w.blocks[i];
    double phi = 0.0;
    if (c.cone) {
      const Vec3 x = w.g * r.segment<3>(c.offset);
      const Vec3 u_i = u.segment<3>(c.offset);
      const Vec3 u_hat(u_i[0] + c.mu * u_i.tail<2>().norm(), u_i[1], u_i[2]);
      phi = (x - project_onto_cone(x - u_hat, c.mu)).norm();
    } else {
      const double x = w.g * r[c.offset];
      phi = std::abs(x - std::max(0.0, x - u[c.offset]));
    }
    const double res = m.scale_u > 0.0 ? phi / m.scale_u : phi;
    if (m.worst < 0 || res > m.residual) {
      m.residual = res;
      m.worst = i;
    }
  }
  return m;
}

Workspace make_workspace(const ConeContactProblem& p, bool factor) {
  Workspace w;
  w.g = p.G.size() > 0 ? p.G.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
  if (!(w.g > 0.0)) w.g = 1.0;
  int o = 0;
  for (const ConeContact& contact : p.contacts) {
    Block c;
    c.offset = o;
    c.cone = contact.kind == ConeContactKind::Cone;
    c.mu = contact.mu;
    o += c.cone ? 3 : 1;
    w.blocks.push_back(c);
  }
  if (!factor) return w;
  for (Block& c : w.blocks) {
    if (!c.cone) {
      const double g_NN = p.G(c.offset, c.offset);
      if (!(g_NN > kSingular * w.g)) c.prox = kProximal * w.g;
      c.G(0, 0) = g_NN + c.prox;
      continue;
    }
    const Eigen::Matrix3d G_ii = p.G.block<3, 3>(c.offset, c.offset);
    // Dynamic size: GCC 12 takes a fixed-size JacobiSVD's values for uninitialised.
    const Vector sigma = Eigen::JacobiSVD<Matrix>(Matrix(G_ii)).singularValues();
    const double largest = sigma[0];
    const double floor = kSingular * (largest > 0.0 ? largest : w.g);
    if (!(sigma[2] > floor) || !(G_ii(0, 0) > floor))
      c.prox = kProximal * (largest > 0.0 ? largest : w.g);
    c.G = G_ii + c.prox * Eigen::Matrix3d::Identity();
    c.G_inv = c.G.inverse();
  }
  return w;
}

std::string vector_text(const Vector& v) {
  std::string s = "(";
  for (int k = 0; k < v.size(); ++k) s += saltus::detail::text(k ? ", " : "", v[k]);
  return s + ")";
}

std::vector<ConeContactState> classify(const Workspace& w, const Vector& r, const Vector& u,
                                       double scale_u, double tol) {
  std::vector<ConeContactState> states;
  states.reserve(w.blocks.size());
  const double small = tol * scale_u;
  for (const Block& c : w.blocks) {
    const int size = c.cone ? 3 : 1;
    const double u_norm = u.segment(c.offset, size).norm();
    const double r_norm = w.g * r.segment(c.offset, size).norm();
    if (!c.cone) {
      const bool closed = u_norm <= small || r_norm > small;
      states.push_back(closed ? ConeContactState::Closed : ConeContactState::Open);
    } else if (u_norm <= small) {
      states.push_back(ConeContactState::Stick);
    } else {
      states.push_back(r_norm <= small ? ConeContactState::Open : ConeContactState::Slip);
    }
  }
  return states;
}

void validate(const ConeContactProblem& p) {
  int m = 0;
  for (size_t i = 0; i < p.contacts.size(); ++i) {
    const ConeContact& c = p.contacts[i];
    if (c.kind == ConeContactKind::Cone && !(c.mu >= 0.0 && std::isfinite(c.mu)))
      saltus::detail::throw_error("cone contact problem: contact ", i, " has mu = ", c.mu,
                                  " (must be finite and >= 0)");
    m += c.kind == ConeContactKind::Cone ? 3 : 1;
  }
  if (p.G.rows() != m || p.G.cols() != m || p.b.size() != m)
    saltus::detail::throw_error("cone contact problem: G is ", p.G.rows(), " x ", p.G.cols(),
                                " and b has ", p.b.size(), " rows; the contacts need ", m,
                                " (3 per Cone, 1 per Normal)");
  if (!p.G.allFinite() || !p.b.allFinite())
    saltus::detail::throw_error("cone contact problem: G or b has a non-finite entry");
}

struct Run {
  Vector r, u;
  Measure measure;
  int sweeps = 0;
  bool converged = false;
  const char* start = "";
};

// Every kActiveSetEvery sweeps, the active-set step below. Plain Gauss-Seidel creeps along the
// nearly singular directions of dependent contacts (1.4% of random bodies with 1-6 contacts
// needed 1000 to 55000 sweeps); once the sweeps have found which contacts stick, slip or open,
// a few Newton iterations on that state's equations land on the answer.
constexpr int kActiveSetEvery = 10;
constexpr int kNewtonIterations = 6;

// A contact carrying force, in the state read from r: Closed (Normal, or mu = 0: unknown r_N,
// equation u_N = 0), Stick (inside the cone: r_i, u_i = 0) or Slip (on the edge: r_N, the angle
// th of d and lambda, with r_i = r_N (1, -mu d) and u_N = 0, u_T = lambda d).
struct Active {
  int block = 0, col = 0;
  ConeContactState state = ConeContactState::Closed;
  double th = 0.0, lambda = 0.0;
  int size() const { return state == ConeContactState::Closed ? 1 : 3; }  // unknowns = equations
};

struct ActiveSet {  // buffers of active_set_step, kept across its calls within one solve
  std::vector<Active> active;
  Matrix D, GD, J;  // D = dr/dx (m x n), J = dF/dx (n x n)
  Vector F, dx, r, u;
  Eigen::CompleteOrthogonalDecomposition<Matrix> cod;
};

// Newton (minimum-norm steps: G may be singular) on the equations of the state that r shows; the
// result replaces run.r when its residual is lower. A wrong state only costs the try.
void active_set_step(const ConeContactProblem& p, const Workspace& w, ActiveSet& a, Run& run) {
  a.active.clear();
  int n = 0;
  for (int i = 0; i < static_cast<int>(w.blocks.size()); ++i) {
    const Block& c = w.blocks[i];
    const double r_N = run.r[c.offset];
    if (!(r_N > 0.0)) continue;
    Active x{i, n};
    if (c.cone && c.mu > 0.0) {
      const Vec2 r_T = run.r.segment<2>(c.offset + 1);
      x.state =
          r_T.norm() < c.mu * r_N * (1.0 - 1e-9) ? ConeContactState::Stick : ConeContactState::Slip;
      x.th = std::atan2(-r_T[1], -r_T[0]);
      x.lambda = run.u.segment<2>(c.offset + 1).dot(Vec2(std::cos(x.th), std::sin(x.th)));
    }
    n += x.size();
    a.active.push_back(x);
  }
  if (n == 0) return;
  a.r = run.r;
  for (int it = 0; it < kNewtonIterations; ++it) {
    a.u.noalias() = p.G * a.r;
    a.u += p.b;
    a.D.setZero(p.b.size(), n);
    for (const Active& x : a.active) {
      const Block& c = w.blocks[x.block];
      if (x.state == ConeContactState::Slip) {
        const Vec2 d(std::cos(x.th), std::sin(x.th)), d_perp(-d[1], d[0]);
        a.D.block<3, 1>(c.offset, x.col) = Vec3(1.0, -c.mu * d[0], -c.mu * d[1]);
        a.D.block<2, 1>(c.offset + 1, x.col + 1) = -c.mu * a.r[c.offset] * d_perp;
      } else {
        a.D.block(c.offset, x.col, x.size(), x.size()).setIdentity();
      }
    }
    a.GD.noalias() = p.G * a.D;
    a.J.resize(n, n);
    a.F.resize(n);
    for (const Active& x : a.active) {
      const int o = w.blocks[x.block].offset;
      a.J.middleRows(x.col, x.size()) = a.GD.middleRows(o, x.size());
      a.F.segment(x.col, x.size()) = a.u.segment(o, x.size());
      if (x.state != ConeContactState::Slip) continue;
      const Vec2 d(std::cos(x.th), std::sin(x.th)), d_perp(-d[1], d[0]);
      a.F.segment<2>(x.col + 1) -= x.lambda * d;
      a.J.block<2, 1>(x.col + 1, x.col + 1) -= x.lambda * d_perp;
      a.J.block<2, 1>(x.col + 1, x.col + 2) = -d;
    }
    if (a.F.cwiseAbs().maxCoeff() <= 1e-15 * run.measure.scale_u) break;  // round-off
    a.cod.compute(a.J);
    a.dx = -a.cod.solve(a.F);
    for (Active& x : a.active) {
      const Block& c = w.blocks[x.block];
      if (x.state != ConeContactState::Slip) {
        a.r.segment(c.offset, x.size()) += a.dx.segment(x.col, x.size());
        continue;
      }
      const double r_N = a.r[c.offset] + a.dx[x.col];
      x.th += a.dx[x.col + 1];
      x.lambda += a.dx[x.col + 2];
      a.r.segment<3>(c.offset) = r_N * Vec3(1.0, -c.mu * std::cos(x.th), -c.mu * std::sin(x.th));
    }
  }
  a.u.noalias() = p.G * a.r;
  a.u += p.b;
  const Measure candidate = measure(p, w, a.r, a.u);
  if (!(candidate.residual < run.measure.residual)) return;
  run.r.swap(a.r);
  run.u.swap(a.u);
  run.measure = candidate;
}

// Sweeps from run.r until the residual is below the tolerance, r stops being finite, or the
// sweeps run out. The residual is measured after every sweep (cheap beside the local solves).
void run_sweeps(const ConeContactProblem& p, const Workspace& w, const ConeContactOptions& options,
                Want want, ActiveSet& active, Run& run) {
  run.u.resize(run.r.size());
  for (run.sweeps = 1; run.sweeps <= options.max_sweeps; ++run.sweeps) {
    sweep(p, w, want, run.r);
    run.u.noalias() = p.G * run.r;
    run.u += p.b;
    run.measure = measure(p, w, run.r, run.u);
    if (run.sweeps % kActiveSetEvery == 0 && run.measure.residual > options.tolerance)
      active_set_step(p, w, active, run);
    run.converged = run.measure.residual <= options.tolerance;
    if (run.converged || !std::isfinite(run.measure.residual)) return;
  }
  run.sweeps = options.max_sweeps;
}

// Every contact sticking: the least-squares (minimum-norm) r of G r = -b, each contact's part
// projected on its cone.
Vector sticking_start(const ConeContactProblem& p, const Workspace& w) {
  Vector r = -p.G.completeOrthogonalDecomposition().solve(p.b);
  for (const Block& c : w.blocks) {
    if (c.cone)
      r.segment<3>(c.offset) = project_onto_cone(r.segment<3>(c.offset), c.mu);
    else
      r[c.offset] = std::max(0.0, r[c.offset]);
  }
  return r;
}

// Every friction contact sliding against its b_T: r = r_N (1, -mu b_T / |b_T|), r_N from the
// normal row alone.
Vector sliding_start(const ConeContactProblem& p, const Workspace& w) {
  Vector r = Vector::Zero(p.b.size());
  for (const Block& c : w.blocks) {
    const double r_N = std::max(0.0, -p.b[c.offset] / c.G(0, 0));
    r[c.offset] = r_N;
    if (!c.cone) continue;
    const Vec2 b_T = p.b.segment<2>(c.offset + 1);
    if (b_T.norm() > 0.0) r.segment<2>(c.offset + 1) = -c.mu * r_N * b_T / b_T.norm();
  }
  return r;
}

// Row where two answers' u differ most, or -1 when they agree within distinct_tolerance.
int differing_row(const Run& a, const Run& b, const ConeContactOptions& options) {
  Eigen::Index row = 0;
  const double gap = (a.u - b.u).cwiseAbs().maxCoeff(&row);
  const double scale = std::max(a.measure.scale_u, b.measure.scale_u);
  return gap > options.distinct_tolerance * scale ? static_cast<int>(row) : -1;
}

int contact_of_row(const Workspace& w, int row) {
  int i = 0;
  while (i + 1 < static_cast<int>(w.blocks.size()) && w.blocks[i + 1].offset <= row) ++i;
  return i;
}

std::string contact_text(const Workspace& w, const Run& run, int i) {
  const Block& c = w.blocks[i];
  const int size = c.cone ? 3 : 1;
  return saltus::detail::text("contact ", i, " (", c.cone ? "Cone, mu = " : "Normal",
                              c.cone ? saltus::detail::text(c.mu) : "",
                              "): r = ", vector_text(run.r.segment(c.offset, size)),
                              ", u = ", vector_text(run.u.segment(c.offset, size)));
}

}  // namespace

const char* to_string(ConeContactStatus status) {
  switch (status) {
    case ConeContactStatus::Solved:
      return "solved";
    case ConeContactStatus::NotConverged:
      return "not_converged";
    case ConeContactStatus::Several:
      return "several";
  }
  return "?";
}

const char* to_string(ConeContactState state) {
  switch (state) {
    case ConeContactState::Open:
      return "open";
    case ConeContactState::Closed:
      return "closed";
    case ConeContactState::Stick:
      return "stick";
    case ConeContactState::Slip:
      return "slip";
  }
  return "?";
}

ConeContactResult solve_cone_contact_problem(const ConeContactProblem& p,
                                             const ConeContactOptions& options) {
  validate(p);
  if (!(options.tolerance > 0.0) || options.max_sweeps < 1 || !(options.distinct_tolerance > 0.0) ||
      options.max_alternative_starts < 0 || !(options.state_tolerance > 0.0))
    saltus::detail::throw_error("cone contact problem: options out of range (tolerance = ",
                                options.tolerance, ", max_sweeps = ", options.max_sweeps,
                                ", distinct_tolerance = ", options.distinct_tolerance,
                                ", max_alternative_starts = ", options.max_alternative_starts,
                                ", state_tolerance = ", options.state_tolerance,
                                "; each must be > 0, max_alternative_starts >= 0)");
  const Workspace w = make_workspace(p, true);
  const Eigen::Index m = p.b.size();
  ConeContactResult result;
  Run answer, other, best;  // the first converged run, one that differs, the least residual
  bool found = false, several = false;
  ActiveSet active;
  const auto try_start = [&](Vector r0, Want want, const char* name) {
    if ((found && !options.check_uniqueness) || several) return;
    Run run;
    run.r = std::move(r0);
    run.start = name;
    run_sweeps(p, w, options, want, active, run);
    ++result.starts;
    if (!run.converged) {
      if (best.r.size() == 0 || run.measure.residual < best.measure.residual) best = run;
    } else if (!found) {
      answer = run;
      found = true;
    } else if (differing_row(answer, run, options) >= 0) {
      other = run;
      several = true;
    }
  };
  if (m == 0) {
    answer.measure.residual = 0.0;
    answer.converged = found = true;
  }
  // Starts: none pressed (the sweeps' preference open, stick, slip), then each keeping its own
  // branch: every contact sticking, every friction contact sliding against its b_T.
  if (options.start.size() > 0) {
    if (options.start.size() != m || !options.start.allFinite())
      saltus::detail::throw_error("cone contact problem: the given start has ",
                                  options.start.size(), " entries (", m,
                                  " rows expected) or one that is not finite");
    try_start(options.start, Want::Nearest, "given");
  }
  const bool own_starts = options.start.size() == 0;
  if (m > 0 && own_starts) try_start(Vector::Zero(m), Want::InOrder, "zero");
  if (m > 0 && own_starts) try_start(sticking_start(p, w), Want::Nearest, "every-contact-sticking");
  if (m > 0 && own_starts) try_start(sliding_start(p, w), Want::Nearest, "every-contact-sliding");
  // Then the other local answers of each contact at the answer, the rest held: starts on
  // another branch of one contact (a Painleve-like contact has a stick and a slip answer).
  int alternatives = 0;
  for (size_t i = 0;
       found && !several && options.check_uniqueness && own_starts && i < w.blocks.size(); ++i) {
    const Block& c = w.blocks[i];
    if (!c.cone) continue;
    LocalAnswers local;
    const Vec3 taken = answer.r.segment<3>(c.offset);
    local_answers(c, local_offset(p, c, answer.r), taken, Want::Every, local);
    for (int k = 0; k < local.count && alternatives < options.max_alternative_starts; ++k) {
      if ((local.r[k] - taken).norm() <= 1e-9 * std::max(local.r[k].norm(), taken.norm())) continue;
      Vector r0 = answer.r;
      r0.segment<3>(c.offset) = local.r[k];
      ++alternatives;
      try_start(std::move(r0), Want::Nearest, "other-local-answer");
    }
  }

  const Run& kept = found ? answer : best;
  result.r = kept.r;
  result.u = kept.u;
  result.sweeps = kept.sweeps;
  result.residual = kept.measure.residual;
  result.states = classify(w, kept.r, kept.u, kept.measure.scale_u, options.state_tolerance);
  if (several) {
    result.status = ConeContactStatus::Several;
    result.other_r = other.r;
    result.other_u = other.u;
    const int row = differing_row(answer, other, options);
    result.message = saltus::detail::text(
        "cone contact problem: two answers move the system differently (from the ", answer.start,
        " start and the ", other.start, " start; u differ by ",
        std::abs(answer.u[row] - other.u[row]), " at row ", row, ", beyond ",
        options.distinct_tolerance, " times the scale ",
        std::max(answer.measure.scale_u, other.measure.scale_u), "): u = ", vector_text(answer.u),
        " and u = ", vector_text(other.u), "; at contact ", contact_of_row(w, row), ": ",
        contact_text(w, answer, contact_of_row(w, row)), " against ",
        contact_text(w, other, contact_of_row(w, row)));
  } else if (found) {
    result.status = ConeContactStatus::Solved;
    result.message = saltus::detail::text(
        "cone contact problem solved: residual ", result.residual, " <= ", options.tolerance,
        " after ", result.sweeps, " sweeps from the ", answer.start, " start; ", result.starts,
        " starts, every converged one with the same u");
  } else {
    result.status = ConeContactStatus::NotConverged;
    const int worst = std::max(best.measure.worst, 0);
    result.message = saltus::detail::text("cone contact problem: no start reached the tolerance ",
                                          options.tolerance, " within ", options.max_sweeps,
                                          " sweeps (", result.starts, " starts); least residual ",
                                          result.residual, " from the ", best.start,
                                          " start, worst at ", contact_text(w, best, worst));
  }
  return result;
}

ConeContactCheck check_cone_contact_answer(const ConeContactProblem& p, const Vector& r,
                                           double state_tolerance) {
  validate(p);
  if (r.size() != p.b.size())
    saltus::detail::throw_error("cone contact answer check: r has ", r.size(),
                                " rows, the problem ", p.b.size());
  const Workspace w = make_workspace(p, false);
  ConeContactCheck check;
  check.u = p.G * r + p.b;
  const Measure m = measure(p, w, r, check.u);
  check.residual = m.residual;
  check.worst = m.worst;
  check.scale_u = m.scale_u;
  check.states = classify(w, r, check.u, m.scale_u, state_tolerance);
  return check;
}

}  // namespace saltus::mech
