#include "saltus/mech/nonholonomic_model.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "contact_dynamics.hpp"
#include "nonholonomic_dynamics.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech {

using detail::load;

NonholonomicModel::NonholonomicModel(std::string name, int n_dof, NonholonomicPlainEntries entries)
    : unconstrained_(std::move(name), n_dof), entries_(std::move(entries)) {
  // No applied forces until set_forces says otherwise (free rolling and skating).
  unconstrained_.set_forces([](const auto&, const auto&, const auto&, auto&) {});
}

const NonholonomicConstraint& NonholonomicModel::constraint(int a) const {
  if (a < 0 || a >= constraint_count()) {
    saltus::detail::throw_error("model '", name(), "': no constraint ", a, " (", constraint_count(),
                                " constraints)");
  }
  return constraints_[a];
}

const NonholonomicWall& NonholonomicModel::wall(int w) const {
  if (w < 0 || w >= wall_count()) {
    saltus::detail::throw_error("model '", name(), "': no wall ", w, " (", wall_count(), " walls)");
  }
  return walls_[w];
}

std::string NonholonomicModel::describe_constraint(int a) const {
  return "model '" + name() + "', constraint '" + constraint(a).name + "'";
}

std::string NonholonomicModel::describe_wall(int w) const {
  return "model '" + name() + "', wall '" + wall(w).name + "'";
}

int NonholonomicModel::push_constraint(NonholonomicConstraint c) {
  if (constraint_count() >= kMaxConstraints || constraint_count() + 1 >= dof()) {
    saltus::detail::throw_error("model '", name(), "', constraint '", c.name,
                                "': would be constraint number ", constraint_count() + 1, " of ",
                                dof(), " coordinates; at most min(", kMaxConstraints,
                                ", coordinates - 1) are supported");
  }
  constraints_.push_back(std::move(c));
  return constraint_count() - 1;
}

int NonholonomicModel::push_wall(NonholonomicWall w) {
  walls_.push_back(std::move(w));
  return wall_count() - 1;
}

void NonholonomicModel::set_wall_restitution(int w, double restitution) {
  wall(w);
  walls_[w].restitution = restitution;
}

Matrix NonholonomicModel::constraint_matrix(ConstVectorRef q) const {
  const int n = dof();
  const DofVector<double> qv = load<double>(q, 0, n);
  Matrix eta(constraint_count(), n);
  DofVector<double> row;
  for (int a = 0; a < constraint_count(); ++a) {
    constraints_[a].row(qv, row);
    eta.row(a) = row.transpose();
  }
  return eta;
}

Vector NonholonomicModel::constraint_values(ConstVectorRef q, ConstVectorRef qdot) const {
  return constraint_matrix(q) * qdot;
}

double NonholonomicModel::wall_value(int w, ConstVectorRef q) const {
  return wall(w).h(load<double>(q, 0, dof()));
}

Vector NonholonomicModel::wall_gradient(int w, ConstVectorRef q) const {
  DofVector<double> g;
  detail::gradient(wall(w).h, load<double>(q, 0, dof()), g);
  return g;
}

NonholonomicDynamics NonholonomicModel::dynamics(double t, ConstVectorRef q,
                                                 ConstVectorRef qdot) const {
  const int n = dof();
  detail::NonholonomicDynamicsT<double> d;
  detail::nonholonomic_dynamics(*this, t, load<double>(q, 0, n), load<double>(qdot, 0, n), d);
  NonholonomicDynamics out;
  out.qddot = d.qdd;
  out.lambda = d.lambda;
  out.constraint_force = constraint_matrix(q).transpose() * out.lambda;
  return out;
}

// On the event path: M, dh and eta in bounded storage, dh from the wall's compiled gradient where
// it has one, and the wall's description made only for a message.
NonholonomicImpact NonholonomicModel::impact(int w, ConstVectorRef q,
                                             ConstVectorRef qdot_minus) const {
  const int n = dof(), k = constraint_count();
  const NonholonomicWall& target = wall(w);
  const DofVector<double> qv = load<double>(q, 0, n);
  DofMatrix<double> M = DofMatrix<double>::Zero(n, n);
  unconstrained_.eval_mass(qv, M);
  DofVector<double> dh(n);
  if (target.gradient) {
    target.gradient(qv.data(), dh.data());
  } else {
    detail::gradient(target.h, qv, dh);
  }
  DofMatrix<double> eta(k, n);
  DofVector<double> row;
  for (int a = 0; a < k; ++a) {
    constraints_[a].row(qv, row);
    eta.row(a) = row.transpose();
  }
  return nonholonomic_impact(M, dh, eta, qdot_minus, target.restitution,
                             [this, w] { return describe_wall(w); });
}

Vector NonholonomicModel::project_velocity(ConstVectorRef q, ConstVectorRef qdot) const {
  if (constraint_count() == 0) return qdot;
  const Matrix M = mass_matrix(q), eta = constraint_matrix(q);
  const Eigen::LLT<Matrix> chol(M);
  const Matrix W = chol.solve(eta.transpose());
  const Vector mult = (eta * W).ldlt().solve(eta * qdot);
  return qdot - W * mult;
}

void NonholonomicModel::validate() const {
  unconstrained_.validate();
  for (int w = 0; w < wall_count(); ++w) {
    const double e = walls_[w].restitution;
    if (!(e >= 0.0 && e <= 1.0)) {
      saltus::detail::throw_error(describe_wall(w), ": restitution e = ", e, " is outside [0, 1]");
    }
  }
}

bool NonholonomicModel::velocity_admissible(int a, ConstVectorRef q, ConstVectorRef qdot) const {
  const Vector eta = constraint_matrix(q).row(a).transpose();
  return std::abs(eta.dot(qdot)) <= 1e-10 * eta.cwiseAbs().dot(qdot.cwiseAbs());
}

void NonholonomicModel::check_state(ConstVectorRef q, ConstVectorRef qdot) const {
  validate();
  const int n = dof();
  if (q.size() != n || qdot.size() != n) {
    saltus::detail::throw_error("model '", name(), "': state has ", q.size(), " + ", qdot.size(),
                                " entries, expected ", n, " + ", n, " (q, qdot)");
  }
  const Matrix M = mass_matrix(q);  // throws when not SPD, naming q and the smallest eigenvalue
  const Matrix eta = constraint_matrix(q);
  if (constraint_count() > 0) {
    const Matrix m_up = eta * M.llt().solve(eta.transpose());
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(m_up);
    const double lo = eig.eigenvalues().minCoeff(), hi = eig.eigenvalues().maxCoeff();
    if (!(lo > 1e-12 * hi)) {
      // Name the row that depends on the ones before it.
      int dependent = constraint_count() - 1;
      for (int a = 1; a < constraint_count(); ++a) {
        const Eigen::FullPivLU<Matrix> lu(eta.topRows(a + 1));
        if (lu.rank() <= a) {
          dependent = a;
          break;
        }
      }
      saltus::detail::throw_error(
          describe_constraint(dependent),
          ": depends on the constraints before it at q = ", detail::q_text(q),
          " (eta M^-1 eta^T has eigenvalues ", lo, " and ", hi, ")");
    }
  }
  for (int a = 0; a < constraint_count(); ++a) {
    if (!velocity_admissible(a, q, qdot)) {
      saltus::detail::throw_error(describe_constraint(a), ": the initial velocity violates it: ",
                                  "eta qdot = ", eta.row(a).dot(qdot),
                                  " at q = ", detail::q_text(q), ", qdot = ", detail::q_text(qdot),
                                  " (project_velocity gives the nearest admissible one)");
    }
  }
  for (int w = 0; w < wall_count(); ++w) {
    const double h = wall_value(w, q);
    if (!(h >= 0.0)) {
      saltus::detail::throw_error(describe_wall(w), ": the start is outside it: h = ", h,
                                  " < 0 at q = ", detail::q_text(q));
    }
  }
}

}  // namespace saltus::mech
