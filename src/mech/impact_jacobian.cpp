// The exact derivative of a rigid impact (Reset::jacobian of impact:<c>, impact_resets.cpp), for
// the saltation matrices of orbits and sensitivities: no central differences of the reset.
//
// Where the impact's outcome is locally one active set (each contact of I_S with a positive
// normal impulse sticks or slides, the others get none), Newton's and the Newton-Coulomb law are
// smooth: with C the rows held (w_N of every contact with impulse, w_T of those that stick), F
// the rows the impulses act along (w_N; w_T when sticking; w_N - mu s w_T when sliding with s),
// r their restitutions (e on approaching normals, 0 on separating ones; e_t on tangents),
//   M qdot+ - F^T lambda = M qdot-,  C qdot+ = -r C qdot-.
// That system, then the contact's relabel, is differentiated by the implicit function theorem,
// its entries (M(q), the gradients of gaps and tangents) by forward AD (Dual). The active set is
// read off the impact solved in doubles (lagrangian_model.cpp, multi_contact_impact.cpp), so the
// derivative is the one-sided derivative of the solved branch at a corner (an impulse that just
// vanishes, a stick at the cone's edge).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/LU>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "multi_contact_impact.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

namespace {

enum class ImpactRowKind { Normal, Tangent, SlidingNormal };

struct ImpactRow {
  int contact;
  ImpactRowKind kind;
  double restitution;
  double mu_s = 0.0;  // mu s of a sliding contact: F = w_N - mu s w_T
};

template <class S>
using ImpactSystem = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 3 * kMaxDof, 3 * kMaxDof>;
template <class S>
using ImpactSystemVector = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3 * kMaxDof, 1>;

// The impact equations of the active set `rows` at (q, qdot-), in the scalar S (double or Dual):
// K (qdot+, lambda) = rhs with K = [[M, -F^T], [C, 0]], rhs = (M qdot-, -r C qdot-).
template <class S>
void impact_equations(const LagrangianModel& m, const std::vector<ImpactRow>& rows,
                      const DofVector<S>& q, const DofVector<S>& qd, ImpactSystem<S>& K,
                      ImpactSystemVector<S>& rhs) {
  const int n = m.dof();
  const auto k = static_cast<Eigen::Index>(rows.size());
  K = ImpactSystem<S>::Zero(n + k, n + k);
  rhs = ImpactSystemVector<S>::Zero(n + k);
  DofMatrix<S> M = DofMatrix<S>::Zero(n, n);
  m.eval_mass(q, M);
  K.topLeftCorner(n, n) = M;
  for (int i = 0; i < n; ++i) {  // M qdot- (no Eigen product: a Jet scalar has no GEMV)
    S sum(0.0);
    for (int j = 0; j < n; ++j) sum += M(i, j) * qd[j];
    rhs[i] = sum;
  }
  DofVector<S> w_N, w_T, c_row, f_row;
  for (Eigen::Index r = 0; r < k; ++r) {
    const ImpactRow& row = rows[static_cast<size_t>(r)];
    const LagrangianContact& c = m.contact(row.contact);
    gradient(c.gap, q, w_N);
    if (row.kind != ImpactRowKind::Normal) gradient(c.tangent, q, w_T);
    c_row = row.kind == ImpactRowKind::Tangent ? w_T : w_N;
    f_row = row.kind == ImpactRowKind::Normal    ? w_N
            : row.kind == ImpactRowKind::Tangent ? w_T
                                                 : DofVector<S>(w_N - S(row.mu_s) * w_T);
    K.block(0, n + r, n, 1) = -f_row;
    K.block(n + r, 0, 1, n) = c_row.transpose();
    rhs[n + r] = S(-row.restitution) * c_row.dot(qd);
  }
}

// The rows of one contact that took normal impulse P_N and tangential impulse P_T, approaching
// at gdot_N- (restitution only then).
void add_impact_rows(const LagrangianContact& c, int index, double P_N, double P_T, double rate_N,
                     double scale, std::vector<ImpactRow>& rows) {
  if (!(P_N > 1e-12 * scale)) return;  // no impulse: the contact does not hold
  const bool frictional = c.frictional() && c.law.mu > 0.0;
  const double e = rate_N < 0.0 ? c.law.e : 0.0;
  const double e_t = c.law.kind == ImpactLawKind::NewtonCoulomb ? c.law.e_t : 0.0;
  if (!frictional) {
    rows.push_back({index, ImpactRowKind::Normal, e});
  } else if (std::abs(P_T) < c.law.mu * P_N * (1.0 - 1e-9)) {
    rows.push_back({index, ImpactRowKind::Normal, e});
    rows.push_back({index, ImpactRowKind::Tangent, e_t});
  } else {  // at the cone's edge: P_T = -mu s P_N
    rows.push_back({index, ImpactRowKind::SlidingNormal, e, c.law.mu * (P_T > 0.0 ? -1.0 : 1.0)});
  }
}

}  // namespace

bool has_exact_impact_jacobian(const LagrangianContact& c) {
  // Friction in space: differentiated numerically (its slip direction is found by a scan).
  return c.rigid() && !c.spatial_frictional() &&
         (c.law.kind == ImpactLawKind::NewtonFrictionless ||
          c.law.kind == ImpactLawKind::NewtonCoulomb || !c.frictional());
}

Reset::Jacobian impact_jacobian(const Context& ctx, int d, const LagrangianMode& from,
                                Reset::Apply apply) {
  return [ctx, d, from, apply](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef d_dx,
                               MatrixRef d_dz, VectorRef d_dt) {
    const LagrangianModel& m = ctx->model;
    const int n = ctx->n;
    d_dx.setIdentity();
    d_dz.setZero();
    d_dt.setZero();
    const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
    DofVector<double> w_N;
    gradient(m.contact(d).gap, q, w_N);
    const double before = w_N.dot(qd);
    const double rest = kEventRestRate * w_N.cwiseAbs().dot(qd.cwiseAbs());
    std::vector<ImpactRow> rows;
    const std::vector<int> set =
        simultaneous_impact_set(m, t, d, closed_bits(from), x.head(n), x.tail(n));
    if (before > rest) return;  // already separating: no jump
    if (set.size() > 1) {
      const SimultaneousImpact imp = resolve_simultaneous_impact(m, set, t, x.head(n), x.tail(n));
      if (!imp.resolved()) {
        saltus::detail::throw_error(m.describe_contact(d), ": impact at t = ", t,
                                    " has no derivative: ", imp.message);
      }
      const double scale = imp.impulse_N.cwiseAbs().maxCoeff();
      for (size_t j = 0; j < imp.contacts.size(); ++j) {
        const int c = imp.contacts[j];
        DofVector<double> w;
        gradient(m.contact(c).gap, q, w);
        add_impact_rows(m.contact(c), c, imp.impulse_N[static_cast<Eigen::Index>(j)],
                        imp.impulse_T[static_cast<Eigen::Index>(j)], w.dot(qd), scale, rows);
      }
    } else if (before < -rest) {
      const ContactImpact imp = m.resolve_impact(d, x.head(n), x.tail(n));
      add_impact_rows(m.contact(d), d, imp.planar.impulse[1], imp.planar.impulse[0], before,
                      std::abs(imp.planar.impulse[1]), rows);
    }
    const LagrangianContact& c = m.contact(d);
    // K0 y0 = rhs0 in doubles; along each seeded input, K0 dy = drhs - dK y0 (the implicit
    // function theorem: only the entries of K and rhs are differentiated, by AD).
    ImpactSystem<double> K0;
    ImpactSystemVector<double> rhs0;
    impact_equations<double>(m, rows, q, qd, K0, rhs0);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(K0);
    const Eigen::VectorXd y0 = lu.solve(Eigen::VectorXd(rhs0));
    const DofVector<double> qdot_plus = y0.head(n);
    // The law's own answer (the reset's apply, its relabel included) says whether the
    // coordinates were renamed, and checks the active set read off the impact: the derivative
    // of another branch than the one the run took would be silently wrong.
    Vector buffer(2 * n), outputs(3);
    std::string failure;
    Jump jump{kNoMode, buffer, outputs, failure, nullptr};
    if (!apply(t, x, z, jump)) {
      saltus::detail::throw_error(m.describe_contact(d), ": impact at t = ", t,
                                  " has no post-event state: ", failure);
    }
    DofVector<double> renamed_q = q, renamed_qdot = qdot_plus;
    if (!c.relabel.empty()) {
      DofMatrix<double> P;
      relabel_map(c.relabel, q, renamed_q, P);
      renamed_qdot = P * qdot_plus;
    }
    const auto off = [&](const DofVector<double>& q_plus, const DofVector<double>& v_plus) {
      return std::max((buffer.head(n) - q_plus).cwiseAbs().maxCoeff(),
                      (buffer.segment(n, n) - v_plus).cwiseAbs().maxCoeff());
    };
    const double plain = off(q, qdot_plus);
    const bool relabel = !c.relabel.empty() && off(renamed_q, renamed_qdot) < plain;
    const double miss = relabel ? off(renamed_q, renamed_qdot) : plain;
    if (!(miss <= 1e-8 * (1.0 + buffer.head(2 * n).cwiseAbs().maxCoeff()))) {
      saltus::detail::throw_error(m.describe_contact(d), ": impact at t = ", t,
                                  ": its derivative's active set does not reproduce the law's "
                                  "answer (off by ",
                                  miss,
                                  "): the contacts' impulses were read as another active set than "
                                  "the law's");
    }
    DofVector<Dual> qj(n), qdj(n);
    for (int k = 0; k < n; ++k) {
      qj[k] = Dual(q[k]);
      qdj[k] = Dual(qd[k]);
    }
    ImpactSystem<Dual> K;
    ImpactSystemVector<Dual> rhs;
    for (int k = 0; k < 2 * n; ++k) {
      (k < n ? qj[k] : qdj[k - n]).v[0] = 1.0;
      impact_equations<Dual>(m, rows, qj, qdj, K, rhs);
      Eigen::VectorXd drhs(rhs.size());
      Eigen::MatrixXd dK(K.rows(), K.cols());
      for (Eigen::Index i = 0; i < rhs.size(); ++i) drhs[i] = rhs[i].derivative();
      for (Eigen::Index i = 0; i < K.rows(); ++i) {
        for (Eigen::Index j = 0; j < K.cols(); ++j) dK(i, j) = K(i, j).derivative();
      }
      const Eigen::VectorXd dy = lu.solve(drhs - dK * y0);
      DofVector<Dual> q_out = qj, qd_out(n);
      for (int i = 0; i < n; ++i) qd_out[i] = Dual(qdot_plus[i], dy[i]);
      if (relabel) {
        DofVector<Dual> grad, renamed(n), carried(n);
        for (int i = 0; i < n; ++i) {
          renamed[i] = c.relabel[static_cast<size_t>(i)](qj);
          gradient(c.relabel[static_cast<size_t>(i)], qj, grad);
          carried[i] = grad.dot(qd_out);
        }
        q_out = renamed;
        qd_out = carried;
      }
      for (int i = 0; i < n; ++i) {
        d_dx(i, k) = q_out[i].derivative();
        d_dx(n + i, k) = qd_out[i].derivative();
      }
      (k < n ? qj[k] : qdj[k - n]).v[0] = 0.0;
    }
  };
}

}  // namespace saltus::mech::detail
