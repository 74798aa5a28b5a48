#include "saltus/mech/lagrangian_model.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"
#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/mass_matrix_check.hpp"
#include "saltus/mech/newton_impact_map.hpp"

namespace saltus::mech {

namespace {

template <class T, class V>
DofVector<T> load(const V& v, Eigen::Index from, int n) {
  DofVector<T> out(n);
  for (int i = 0; i < n; ++i) out[i] = T(v[from + i]);
  return out;
}

// M x = b by Gaussian elimination without pivoting (M SPD, so the pivots stay positive); used
// for the Dual instantiation, whose scalar has no ordering for Eigen's pivoting.
template <class S>
DofVector<S> solve_spd(DofMatrix<S> M, DofVector<S> b, int n) {
  for (int k = 0; k < n; ++k) {
    for (int i = k + 1; i < n; ++i) {
      const S f = S(M(i, k) / M(k, k));
      for (int j = k; j < n; ++j) M(i, j) = S(M(i, j) - f * M(k, j));
      b[i] = S(b[i] - f * b[k]);
    }
  }
  DofVector<S> x(n);
  for (int i = n - 1; i >= 0; --i) {
    S sum = b[i];
    for (int j = i + 1; j < n; ++j) sum = S(sum - M(i, j) * x[j]);
    x[i] = S(sum / M(i, i));
  }
  return x;
}

std::string format_q(ConstVectorRef q) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}

}  // namespace

LagrangianModel::LagrangianModel(std::string name, int n_dof) : name_(std::move(name)), n_(n_dof) {
  if (n_dof < 1 || n_dof > kMaxDof) {
    detail::throw_error("model '", name_, "': ", n_dof, " generalised coordinates; supported 1 to ",
                        kMaxDof);
  }
}

std::string LagrangianModel::describe_contact(int i) const {
  const LagrangianContact& c = contacts_.at(i);
  return "model '" + name_ + "', body '" + c.body + "', contact '" + c.name + "'";
}

Matrix LagrangianModel::mass_matrix(ConstVectorRef q) const {
  DofMatrix<double> M = DofMatrix<double>::Zero(n_, n_);
  mass_(load<double>(q, 0, n_), M);
  check_mass_matrix(M, q, "model '" + name_ + "'");
  return M;
}

Vector LagrangianModel::forces(double t, ConstVectorRef q, ConstVectorRef qdot) const {
  DofVector<double> h = DofVector<double>::Zero(n_);
  forces_(t, load<double>(q, 0, n_), load<double>(qdot, 0, n_), h);
  return h;
}

double LagrangianModel::gap(int i, ConstVectorRef q) const {
  return contacts_.at(i).gap(load<double>(q, 0, n_));
}

Vector LagrangianModel::gap_gradient(int i, ConstVectorRef q) const {
  DofVector<Dual> qd = load<Dual>(q, 0, n_);
  Vector w(n_);
  for (int k = 0; k < n_; ++k) {
    qd[k].v[0] = 1.0;
    w[k] = contacts_.at(i).gap_dual(qd).derivative();
    qd[k].v[0] = 0.0;
  }
  return w;
}

Vector LagrangianModel::tangent_gradient(int i, ConstVectorRef q) const {
  const LagrangianContact& c = contacts_.at(i);
  if (!c.tangent_dual) {
    detail::throw_error(describe_contact(i), ": no tangential coordinate was given");
  }
  DofVector<Dual> qd = load<Dual>(q, 0, n_);
  Vector w(n_);
  for (int k = 0; k < n_; ++k) {
    qd[k].v[0] = 1.0;
    w[k] = c.tangent_dual(qd).derivative();
    qd[k].v[0] = 0.0;
  }
  return w;
}

double LagrangianModel::gap_acceleration_offset(int i, ConstVectorRef q,
                                                ConstVectorRef qdot) const {
  DofVector<SecondOrderJet> qj(n_);
  for (int k = 0; k < n_; ++k) qj[k] = SecondOrderJet(q[k], qdot[k], 0.0);
  return contacts_.at(i).gap_jet(qj).d2;  // qdot^T (d^2 g_N/dq^2) qdot
}

double LagrangianModel::kinetic_energy(ConstVectorRef q, ConstVectorRef qdot) const {
  return 0.5 * qdot.dot(mass_matrix(q) * qdot);
}

namespace {
// Normal-force direction of a closed contact: w_N - mu s w_T (FORMULAS.md 10.3, one contact).
Vector closed_direction(const LagrangianModel& m, int i, ConstVectorRef q, ConstVectorRef qdot) {
  const LagrangianContact& c = m.contact(i);
  Vector u = m.gap_gradient(i, q);
  if (c.law.mu > 0.0 && c.tangent_dual) {
    const Vector w_T = m.tangent_gradient(i, q);
    const double gdot_T = w_T.dot(qdot);
    const double s = gdot_T > 0.0 ? 1.0 : (gdot_T < 0.0 ? -1.0 : 0.0);
    u -= c.law.mu * s * w_T;
  }
  return u;
}
}  // namespace

double LagrangianModel::normal_force(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const {
  const Matrix M = mass_matrix(q);
  const Eigen::LLT<Matrix> llt(M);
  const Vector w_N = gap_gradient(i, q);
  const Vector u = closed_direction(*this, i, q, qdot);
  const Vector h = forces(t, q, qdot);
  // 0 = gddot_N = w_N^T M^-1 (h + u lambda) + what_N
  return -(w_N.dot(llt.solve(h)) + gap_acceleration_offset(i, q, qdot)) / w_N.dot(llt.solve(u));
}

Vector LagrangianModel::closed_acceleration(int i, double t, ConstVectorRef q,
                                            ConstVectorRef qdot) const {
  const Matrix M = mass_matrix(q);
  const Eigen::LLT<Matrix> llt(M);
  const Vector w_N = gap_gradient(i, q);
  const Vector u = closed_direction(*this, i, q, qdot);
  const Vector h = forces(t, q, qdot);
  const Vector Minv_h = llt.solve(h), Minv_u = llt.solve(u);
  const double lambda = -(w_N.dot(Minv_h) + gap_acceleration_offset(i, q, qdot)) / w_N.dot(Minv_u);
  return Minv_h + Minv_u * lambda;
}

ContactImpact LagrangianModel::resolve_impact(int i, ConstVectorRef q,
                                              ConstVectorRef qdot_minus) const {
  const LagrangianContact& c = contacts_.at(i);
  const std::string who = describe_contact(i);
  const Matrix M = mass_matrix(q);
  const Vector w_N = gap_gradient(i, q);
  if (!(w_N.norm() > 0.0) || !w_N.allFinite()) {
    detail::throw_error(who, ": the gap gradient vanishes at q = ", format_q(q),
                        " (|w_N| = ", w_N.norm(), "): the contact normal is undefined");
  }
  ContactImpact out;
  if (c.law.kind == ImpactLawKind::NewtonFrictionless || !c.tangent_dual) {
    const NewtonImpact ni = newton_impact(M, w_N, qdot_minus, c.law.e, who);
    out.qdot_plus = ni.qdot_plus;
    out.planar.impulse = {0.0, ni.impulse};
    out.planar.v_plus = {kNaN, w_N.dot(ni.qdot_plus)};
    out.planar.dT = ni.kinetic_energy_plus - ni.kinetic_energy_minus;
  } else {
    const Vector w_T = tangent_gradient(i, q);
    const Eigen::Matrix2d A = collision_matrix(M, w_T, w_N, who);
    const Eigen::Vector2d v(w_T.dot(qdot_minus), w_N.dot(qdot_minus));
    out.planar = solve_planar_impact({A, v}, c.law, who);
    out.qdot_plus =
        qdot_minus + M.llt().solve(w_T * out.planar.impulse[0] + w_N * out.planar.impulse[1]);
  }
  out.kinetic_energy_change =
      0.5 * out.qdot_plus.dot(M * out.qdot_plus) - 0.5 * qdot_minus.dot(M * qdot_minus);
  return out;
}

void LagrangianModel::validate() const {
  if (!mass_ || !mass_dual_) detail::throw_error("model '", name_, "': no mass matrix M(q) set");
  if (!forces_ || !forces_dual_) {
    detail::throw_error("model '", name_, "': no generalised forces h(t, q, qdot) set");
  }
  for (int i = 0; i < contact_count(); ++i) {
    const LagrangianContact& c = contacts_[i];
    c.law.validate(describe_contact(i));
    if (c.law.kind != ImpactLawKind::NewtonFrictionless && !c.tangent_dual) {
      detail::throw_error(describe_contact(i), ": law ", to_string(c.law.kind),
                          " needs a tangential coordinate s_T(q); give one to add_contact or use "
                          "newton_frictionless");
    }
  }
}

void LagrangianModel::check_configuration(ConstVectorRef q) const {
  validate();
  if (q.size() != n_) {
    detail::throw_error("model '", name_, "': q has ", q.size(), " entries, expected ", n_);
  }
  mass_matrix(q);
  for (int i = 0; i < contact_count(); ++i) {
    const Vector w = gap_gradient(i, q);
    if (!(w.norm() > 0.0) || !w.allFinite()) {
      detail::throw_error(describe_contact(i), ": the gap gradient vanishes at q = ", format_q(q),
                          " (|w_N| = ", w.norm(), ")");
    }
  }
}

LagrangianModel::Compiled LagrangianModel::compile() const {
  validate();
  const auto model = std::make_shared<const LagrangianModel>(*this);
  const int n = n_;
  Compiled out;

  // Free flight: qdot' = M^-1 h (generic: Jacobian by AD).
  out.free = out.system.add_mode(
      "free", ode_flow(2 * n, [model, n](const auto& t, const auto& x, auto& xdot) {
        using S = std::decay_t<decltype(x[0])>;
        const DofVector<S> q = load<S>(x, 0, n), qd = load<S>(x, n, n);
        DofMatrix<S> M = DofMatrix<S>::Zero(n, n);
        DofVector<S> h = DofVector<S>::Zero(n), qdd(n);
        if constexpr (std::is_same_v<S, double>) {
          model->mass_(q, M);
          model->forces_(t, q, qd, h);
          Eigen::LLT<DofMatrix<double>> llt(M);
          if (llt.info() != Eigen::Success) model->mass_matrix(x.head(n));  // throws, names q
          qdd = llt.solve(h);
        } else {
          model->mass_dual_(q, M);
          model->forces_dual_(S(t), q, qd, h);
          qdd = solve_spd(M, h, n);
        }
        for (int i = 0; i < n; ++i) {
          xdot[i] = qd[i];
          xdot[n + i] = qdd[i];
        }
      }));

  // Closed modes: explicit normal force, double only (no Jacobian).
  for (int i = 0; i < contact_count(); ++i) {
    Flow flow;
    flow.kind = FlowKind::Ode;
    flow.nx = 2 * n;
    flow.rhs = [model, n, i](double t, ConstVectorRef x, ConstVectorRef, VectorRef xdot) {
      const Vector q = x.head(n), qd = x.tail(n);
      xdot.head(n) = qd;
      xdot.tail(n) = model->closed_acceleration(i, t, q, qd);
    };
    out.closed.push_back(out.system.add_mode("closed:" + contacts_[i].name, std::move(flow)));
  }

  // Impact guards and resets.
  const ModeId free = out.free;
  const std::vector<ModeId> closed = out.closed;
  auto impact_map = [model, n](int i) {
    return [model, n, i](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
      const Vector q = x.head(n), qd = x.tail(n);
      const ContactImpact imp = model->resolve_impact(i, q, qd);
      xp.head(n) = q;
      if (imp.planar.resolved()) {
        xp.tail(n) = imp.qdot_plus;
      } else {
        xp.tail(n).setConstant(kNaN);  // jam: reported by the engine as NonFiniteState
      }
    };
  };
  auto impact_guard = [&](int i, bool may_close) {
    const std::string name = "impact:" + contacts_[i].name;
    auto p = [model, n, i](const auto&, const auto& x, const auto&) {
      using S = std::decay_t<decltype(x[0])>;
      const DofVector<S> q = load<S>(x, 0, n);
      if constexpr (std::is_same_v<S, double>) {
        return -model->contact(i).gap(q);
      } else {
        return Dual(-model->contact(i).gap_dual(q));
      }
    };
    Reset reset;
    if (may_close) {
      reset = Reset::chosen(
          [model, n, i, free, closed](double t, ConstVectorRef x, ConstVectorRef) -> ModeId {
            const Vector q = x.head(n), qd = x.tail(n);
            const ContactImpact imp = model->resolve_impact(i, q, qd);
            if (!imp.planar.resolved()) return free;
            const Vector w_N = model->gap_gradient(i, q);
            const double before = w_N.dot(qd), after = w_N.dot(imp.qdot_plus);
            if (std::abs(after) <= 1e-12 * (1.0 + std::abs(before)) &&
                model->normal_force(i, t, q, imp.qdot_plus) > 0.0) {
              return closed[i];
            }
            return free;
          },
          impact_map(i));
    } else {
      reset = Reset::to(free, impact_map(i));
    }
    // The impact law's impulse (P_t, P_n) and kinetic-energy change, reported with the event
    // (event log, on_event, events.csv columns of these names).
    reset.output_names = {"impulse_t", "impulse_n", "energy_change"};
    reset.outputs = [model, n, i](double, ConstVectorRef x, ConstVectorRef, ConstVectorRef,
                                  VectorRef out) {
      const Vector q = x.head(n), qd = x.tail(n);
      const ContactImpact imp = model->resolve_impact(i, q, qd);
      out[0] = imp.planar.impulse[0];
      out[1] = imp.planar.impulse[1];
      out[2] = imp.planar.dT;
    };
    return make_guard(name, Direction::Rising, p, std::move(reset));
  };
  for (int i = 0; i < contact_count(); ++i) out.system.add_guard(free, impact_guard(i, true));
  for (int c = 0; c < contact_count(); ++c) {
    Guard lift;
    lift.name = "lift-off:" + contacts_[c].name;
    lift.direction = Direction::Rising;
    lift.value = [model, n, c](double t, ConstVectorRef x, ConstVectorRef) {
      const Vector q = x.head(n), qd = x.tail(n);
      return -model->normal_force(c, t, q, qd);
    };
    lift.reset = Reset::to(free);
    out.system.add_guard(closed[c], std::move(lift));
    for (int d = 0; d < contact_count(); ++d) {
      if (d != c) out.system.add_guard(closed[c], impact_guard(d, false));
    }
  }

  // Zeno hand-over (one contact): project the limit state onto g_N = 0, gdot_N = 0.
  if (contact_count() == 1) {
    out.system.set_zeno_handover(
        free,
        ZenoHandover{closed[0], [model, n](double, ConstVectorRef x, ConstVectorRef, VectorRef xp) {
                       Vector q = x.head(n), qd = x.tail(n);
                       for (int it = 0; it < 3; ++it) {
                         const Matrix M = model->mass_matrix(q);
                         const Vector w = model->gap_gradient(0, q);
                         const Vector Minv_w = M.llt().solve(w);
                         q -= Minv_w * (model->gap(0, q) / w.dot(Minv_w));
                       }
                       const Matrix M = model->mass_matrix(q);
                       const Vector w = model->gap_gradient(0, q);
                       const Vector Minv_w = M.llt().solve(w);
                       qd -= Minv_w * (w.dot(qd) / w.dot(Minv_w));  // P(q, 0) qdot
                       xp.head(n) = q;
                       xp.tail(n) = qd;
                     }});
  }
  return out;
}

}  // namespace saltus::mech
