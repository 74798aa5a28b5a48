// Renaming the coordinates after an impact (LagrangianContact::relabel): a walker's heel strike
// swaps its stance and swing legs, so that one step map is the gait's return map. The renaming
// q+ = R(q), qdot+ = P qdot (P = dR/dq) must be a symmetry of the model, checked when it is set;
// the mode continues with every contact k as contact relabel_contacts[k].
#include <cmath>
#include <string>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

namespace {

// |a - b| within round-off of the larger of the two (the same_to_round_off expression after
// renaming).
bool same_to_round_off(double a, double b, double scale) {
  return std::abs(a - b) <= 1e-10 * (1.0 + scale);
}

unsigned permuted_bits(unsigned bits, const std::vector<int>& to) {
  unsigned out = 0;
  for (size_t k = 0; k < to.size(); ++k) {
    if ((bits >> k) & 1u) out |= 1u << to[k];
  }
  return out;
}

}  // namespace

void LagrangianModel::set_relabel(int i, std::vector<ConfigurationFunction> coordinates,
                                  std::vector<int> contacts, const std::vector<Vector>& probes) {
  const LagrangianContact& fired = contact(i);
  const auto refuse = [&](const std::string& why) {
    saltus::detail::throw_error(fired.description, ": relabel ", why);
  };
  if (!fired.rigid()) refuse("is given on a compliant contact; expected a rigid contact");
  if (static_cast<int>(coordinates.size()) != n_) {
    refuse("gives " + std::to_string(coordinates.size()) + " coordinates; expected " +
           std::to_string(n_));
  }
  if (static_cast<int>(contacts.size()) != contact_count()) refuse("maps the wrong contacts");
  std::vector<int> hit(contacts.size(), 0);
  for (size_t k = 0; k < contacts.size(); ++k) {
    const int to = contacts[k];
    if (to < 0 || to >= contact_count() || hit[static_cast<size_t>(to)]++ != 0) {
      refuse("does not map the contacts one to one");
    }
    const LagrangianContact &a = contact(static_cast<int>(k)), &b = contact(to);
    if (a.rigid() != b.rigid() || (!a.rigid() && to != static_cast<int>(k))) {
      refuse("maps contact '" + a.name + "' to '" + b.name +
             "'; expected rigid contacts to rigid ones and compliant contacts to themselves");
    }
    if (a.law.kind != b.law.kind || a.law.e != b.law.e || a.law.mu != b.law.mu ||
        a.law.e_t != b.law.e_t || a.frictional() != b.frictional()) {
      refuse("maps contact '" + a.name + "' to '" + b.name + "', whose law differs");
    }
  }
  // The symmetry, at each probe q with a velocity that moves every coordinate.
  for (const Vector& probe : probes) {
    if (probe.size() != n_) refuse("probe has the wrong number of coordinates");
    const DofVector<double> q = detail::load<double>(probe, 0, n_);
    DofVector<double> q_plus, qdot(n_);
    DofMatrix<double> P;
    detail::relabel_map(coordinates, q, q_plus, P);
    for (int k = 0; k < n_; ++k) qdot[k] = 0.3 + 0.1 * k;
    const Vector qdot_plus = P * qdot;
    const Matrix M = mass_matrix(q), M_plus = mass_matrix(q_plus);
    const Matrix carried = P.transpose() * M_plus * P;
    if (!((carried - M).cwiseAbs().maxCoeff() <= 1e-10 * (1.0 + M.cwiseAbs().maxCoeff()))) {
      refuse("is not a symmetry of the kinetic energy at q = " + detail::q_text(probe) +
             ": P^T M(R(q)) P differs from M(q) by " +
             std::to_string((carried - M).cwiseAbs().maxCoeff()));
    }
    const Vector h = forces(0.0, q, qdot), h_plus = forces(0.0, q_plus, qdot_plus);
    const Vector h_carried = P.transpose() * h_plus;
    if (!((h_carried - h).cwiseAbs().maxCoeff() <= 1e-10 * (1.0 + h.cwiseAbs().maxCoeff()))) {
      refuse("is not a symmetry of the forces (potential energy, applied forces) at q = " +
             detail::q_text(probe) + ": P^T h(R(q), P q') differs from h(q, q') by " +
             std::to_string((h_carried - h).cwiseAbs().maxCoeff()));
    }
    for (size_t k = 0; k < contacts.size(); ++k) {
      const LagrangianContact &a = contact(static_cast<int>(k)), &b = contact(contacts[k]);
      const double g = a.gap(q), g_plus = b.gap(q_plus);
      bool ok = same_to_round_off(g, g_plus, std::abs(g));
      if (ok && a.tangent) {
        const Vector w = tangent_gradient(static_cast<int>(k), q),
                     w_plus = P.transpose() * tangent_gradient(contacts[k], q_plus);
        ok = (w - w_plus).cwiseAbs().maxCoeff() <= 1e-10 * (1.0 + w.cwiseAbs().maxCoeff());
      }
      if (!ok) {
        refuse("maps contact '" + a.name + "' to '" + b.name + "', but at q = " +
               detail::q_text(probe) + " the gap of '" + b.name + "' after the renaming (" +
               std::to_string(g_plus) + ") or its tangent is not that of '" + a.name + "' (" +
               std::to_string(g) + ") before it");
      }
    }
  }
  contacts_[static_cast<size_t>(i)].relabel = std::move(coordinates);
  contacts_[static_cast<size_t>(i)].relabel_contacts = std::move(contacts);
}

namespace detail {

// P = dR/dq at q (row i: the gradient of R_i) and R(q).
void relabel_map(const std::vector<ConfigurationFunction>& R, const DofVector<double>& q,
                 DofVector<double>& q_plus, DofMatrix<double>& P) {
  const Eigen::Index n = q.size();
  q_plus.resize(n);
  P.resize(n, n);
  DofVector<double> row;
  for (Eigen::Index i = 0; i < n; ++i) {
    q_plus[i] = R[static_cast<size_t>(i)](q);
    detail::gradient(R[static_cast<size_t>(i)], q, row);
    P.row(i) = row.transpose();
  }
}

LagrangianMode relabelled_mode(const LagrangianModel& m, int d, LagrangianMode mode) {
  const std::vector<int>& to = m.contact(d).relabel_contacts;
  if (mode.closed_contact >= 0) mode.closed_contact = to[static_cast<size_t>(mode.closed_contact)];
  mode.closed_set = permuted_bits(mode.closed_set, to);
  mode.stick_set = permuted_bits(mode.stick_set, to);
  mode.slip_negative_set = permuted_bits(mode.slip_negative_set, to);
  return mode;
}

Reset relabelled(const Context& ctx, int d, Reset inner) {
  Reset::Apply apply = inner.apply;
  inner.apply = [ctx, d, apply](double t, ConstVectorRef x, ConstVectorRef z, Jump& jump) {
    if (!apply(t, x, z, jump)) return false;
    const LagrangianModel& m = ctx->model;
    const LagrangianMode after = ctx->mode_of(jump.target);
    const bool closes = after.closed_contact == d || ((after.closed_set >> d) & 1u);
    if (!closes) return true;  // a bounce: the contact is open again, nothing to rename
    const int n = ctx->n;
    DofVector<double> q = load<double>(jump.x_plus, 0, n), q_plus;
    DofMatrix<double> P;
    relabel_map(m.contact(d).relabel, q, q_plus, P);
    const DofVector<double> qdot_plus = P * load<double>(jump.x_plus, n, n);
    jump.x_plus.head(n) = q_plus;
    jump.x_plus.segment(n, n) = qdot_plus;
    jump.target = ctx->find(relabelled_mode(m, d, after));
    if (jump.target == kNoMode) {
      jump.failure = saltus::detail::text(m.describe_contact(d), ": at t = ", t,
                                          ": no mode holds the contacts after the relabel");
      return false;
    }
    if (jump.note) {
      *jump.note += (jump.note->empty() ? "" : "; ") + std::string("coordinates renamed by '") +
                    m.contact(d).name + "''s relabel (the state after is the renamed one)";
    }
    return true;
  };
  return inner;
}

}  // namespace detail

}  // namespace saltus::mech
