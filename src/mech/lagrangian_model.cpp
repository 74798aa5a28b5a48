// Over 450 lines (about 510): LagrangianModel's members outside compile() (evaluations, the
// closing rule, the impact dispatch, validation), each short; the contact kinds' own details live
// in their files (spatial_*, compliant_*, index_set_*).
#include "saltus/mech/lagrangian_model.hpp"

#include <cmath>
#include <sstream>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "painleve_report.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"
#include "saltus/mech/mass_matrix_check.hpp"
#include "saltus/mech/newton_impact_map.hpp"
#include "saltus/mech/routh_impact_process.hpp"
#include "saltus/mech/spatial_impact_law.hpp"
#include "saltus/mech/spatial_routh_process.hpp"

namespace saltus::mech {

namespace detail {

std::string q_text(ConstVectorRef q) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}

}  // namespace detail

using detail::load;

const char* to_string(ClosedKind kind) {
  switch (kind) {
    case ClosedKind::None:
      return "none";
    case ClosedKind::Frictionless:
      return "closed";
    case ClosedKind::SlipPositive:
      return "slip+";
    case ClosedKind::SlipNegative:
      return "slip-";
    case ClosedKind::Stick:
      return "stick";
    case ClosedKind::PostZeno:
      return "post-zeno";
    case ClosedKind::SpatialSlip:
      return "slip";
    case ClosedKind::SpatialStick:
      return "stick";
    case ClosedKind::IndexSets:
      return "sets";
  }
  return "?";
}

LagrangianModel::LagrangianModel(std::string name, int n_dof) : name_(std::move(name)), n_(n_dof) {
  if (n_dof < 1 || n_dof > kMaxDof) {
    saltus::detail::throw_error("model '", name_, "': ", n_dof,
                                " generalised coordinates; supported 1 to ", kMaxDof);
  }
}

int LagrangianModel::push_contact(LagrangianContact c) {
  c.description = "model '" + name_ + "', body '" + c.body + "', contact '" + c.name + "'";
  if (c.model == ContactModel::Compliant) {
    if (static_cast<int>(compliant_.size()) >= kMaxCompliantContacts) {
      saltus::detail::throw_error(c.description, ": would be compliant contact number ",
                                  compliant_.size() + 1, "; at most ", kMaxCompliantContacts,
                                  " are supported (compile() builds a mode for every subset of "
                                  "active compliant contacts)");
    }
    compliant_.push_back(contact_count());
  }
  contacts_.push_back(std::move(c));
  return contact_count() - 1;
}

const LagrangianContact& LagrangianModel::contact(int i) const {
  if (i < 0 || i >= contact_count()) {
    saltus::detail::throw_error("model '", name_, "': no contact ", i, " (", contact_count(),
                                " contacts)");
  }
  return contacts_[i];
}

void LagrangianModel::set_contact_law(int i, ContactImpactLaw law) {
  if (!contact(i).rigid()) {
    saltus::detail::throw_error(describe_contact(i),
                                ": is compliant; set_contact_law sets a rigid impact law");
  }
  contacts_[i].law = law;
}

void LagrangianModel::set_contact_when(int i, Guard::Condition when, std::string when_text) {
  if (!contact(i).rigid()) {
    saltus::detail::throw_error(
        describe_contact(i), ": is compliant; a jump set (when) gates a rigid contact's impacts");
  }
  contacts_[i].when = std::move(when);
  contacts_[i].when_text = std::move(when_text);
}

bool LagrangianContact::may_be_hit(double t, ConstVectorRef q, ConstVectorRef qdot) const {
  if (!when) return true;
  // Fixed capacity: the impact paths that ask stay free of allocations.
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2 * kMaxDof, 1> x(q.size() + qdot.size());
  x << q, qdot;
  const Vector none;
  const double c = when(t, x, none);
  return !std::isnan(c) && c != 0.0;
}

void LagrangianContact::check_stribeck() const {
  if (!stribeck) return;
  // At rest the curve meets the stick cone from inside: a slip that starts under mu_s
  // accelerates away from rest under mu_k(0) <= mu_s instead of turning back at once.
  const double mu_0 = sliding_mu(0.0);
  if (!(mu_0 >= 0.0 && mu_0 <= law.static_mu())) {
    saltus::detail::throw_error(description, ": Stribeck curve mu_k(0) = ", mu_0,
                                " is outside [0, mu_s = ", law.static_mu(),
                                "]; expected a sliding coefficient at rest between 0 and the "
                                "static one");
  }
}

void LagrangianModel::set_stribeck(int i, ConfigurationFunction mu_of_slip_speed) {
  if (!contact(i).frictional() && !contact(i).spatial_frictional()) {
    saltus::detail::throw_error(describe_contact(i),
                                ": is not a rigid frictional contact; a Stribeck curve needs one");
  }
  contacts_[i].stribeck = std::move(mu_of_slip_speed);
}

void LagrangianModel::set_compliant_law(int i, CompliantContactLaw law) {
  if (contact(i).rigid()) {
    saltus::detail::throw_error(describe_contact(i),
                                ": is rigid; set_compliant_law sets a compliant force law");
  }
  contacts_[i].compliant = law;
}

Matrix LagrangianModel::mass_matrix(ConstVectorRef q) const {
  DofMatrix<double> M = DofMatrix<double>::Zero(n_, n_);
  eval_mass(load<double>(q, 0, n_), M);
  check_mass_matrix(M, q, "model '" + name_ + "'");
  return M;
}

Vector LagrangianModel::forces(double t, ConstVectorRef q, ConstVectorRef qdot) const {
  DofVector<double> h = DofVector<double>::Zero(n_);
  eval_forces(t, load<double>(q, 0, n_), load<double>(qdot, 0, n_), h);
  return h;
}

double LagrangianModel::gap(int i, ConstVectorRef q) const {
  return contact(i).gap(load<double>(q, 0, n_));
}

Vector LagrangianModel::gap_gradient(int i, ConstVectorRef q) const {
  DofVector<double> w;
  detail::gradient(contact(i).gap, load<double>(q, 0, n_), w);
  return w;
}

Vector LagrangianModel::tangent_gradient(int i, ConstVectorRef q) const {
  const LagrangianContact& c = contact(i);
  if (!c.tangent) {
    saltus::detail::throw_error(describe_contact(i), ": no tangential coordinate was given");
  }
  DofVector<double> w;
  detail::gradient(c.tangent, load<double>(q, 0, n_), w);
  return w;
}

double LagrangianModel::gap_acceleration_offset(int i, ConstVectorRef q,
                                                ConstVectorRef qdot) const {
  return detail::along(contact(i).gap, load<double>(q, 0, n_), load<double>(qdot, 0, n_)).d2;
}

double LagrangianModel::tangent_acceleration_offset(int i, ConstVectorRef q,
                                                    ConstVectorRef qdot) const {
  const LagrangianContact& c = contact(i);
  if (!c.tangent) {
    saltus::detail::throw_error(describe_contact(i), ": no tangential coordinate was given");
  }
  return detail::along(c.tangent, load<double>(q, 0, n_), load<double>(qdot, 0, n_)).d2;
}

double LagrangianModel::kinetic_energy(ConstVectorRef q, ConstVectorRef qdot) const {
  return 0.5 * qdot.dot(mass_matrix(q) * qdot);
}

double LagrangianModel::compliant_force(int i, ConstVectorRef q, ConstVectorRef qdot) const {
  const LagrangianContact& c = contact(i);
  if (c.rigid()) saltus::detail::throw_error(describe_contact(i), ": is not compliant");
  return detail::compliant_force(c, load<double>(q, 0, n_), load<double>(qdot, 0, n_));
}

double LagrangianModel::sliding_coefficient(int i, ConstVectorRef q, ConstVectorRef qdot,
                                            double s) const {
  return detail::sliding_coefficient(*this, i, load<double>(q, 0, n_), load<double>(qdot, 0, n_),
                                     s);
}

ContactDynamics LagrangianModel::dynamics(const LagrangianMode& mode, double t, ConstVectorRef q,
                                          ConstVectorRef qdot) const {
  if (mode.kind != ClosedKind::None && mode.kind != ClosedKind::PostZeno &&
      mode.kind != ClosedKind::IndexSets) {
    const LagrangianContact& c = contact(mode.closed_contact);
    const bool slips = mode.kind == ClosedKind::SlipPositive ||
                       mode.kind == ClosedKind::SlipNegative || mode.kind == ClosedKind::Stick;
    const bool slips_in_space =
        mode.kind == ClosedKind::SpatialSlip || mode.kind == ClosedKind::SpatialStick;
    if (!c.rigid() || (slips && !c.tangent) || (slips_in_space && !c.slip[0])) {
      saltus::detail::throw_error(describe_contact(mode.closed_contact), ": cannot be held ",
                                  to_string(mode.kind),
                                  " (compliant, or no tangential coordinate or slip rows)");
    }
  }
  detail::DynamicsT<double> d;
  detail::mode_dynamics(*this, mode, t, load<double>(q, 0, n_), load<double>(qdot, 0, n_), d);
  ContactDynamics out;
  out.qddot = d.qdd;
  out.lambda_N = d.lambda_N;
  out.lambda_T = d.lambda_T;
  out.lambda_T2 = d.lambda_T2;
  out.lambda_T3 = d.lambda_T3;
  out.lambda_R1 = d.lambda_R1;
  out.lambda_R2 = d.lambda_R2;
  out.B = mode.kind == ClosedKind::None || mode.kind == ClosedKind::PostZeno ? kNaN : d.B;
  if (mode.kind == ClosedKind::IndexSets) {
    out.lambda_N_each = d.lambda_N_of;
    out.lambda_T_each = d.lambda_T_of;
    out.lambda_T2_each = d.lambda_T2_of;
    out.lambda_T3_each = d.lambda_T3_of;
  } else if (detail::has_compliant_friction(*this, mode)) {
    out.lambda_T_each = d.lambda_T_of;
  }
  return out;
}

bool LagrangianModel::has_spatial_friction() const {
  for (const LagrangianContact& c : contacts_) {
    if (c.spatial_frictional()) return true;
  }
  return false;
}

LagrangianMode LagrangianModel::close_contact(int i, double t, ConstVectorRef q,
                                              ConstVectorRef qdot, unsigned compliant_mask,
                                              bool tangential_rest) const {
  const LagrangianContact& c = contact(i);
  const LagrangianMode open{-1, ClosedKind::None, compliant_mask};
  if (!c.rigid()) return open;
  if (c.spatial_frictional()) {
    return detail::close_spatial_contact(*this, i, t, q, qdot, compliant_mask, tangential_rest);
  }
  if (!c.frictional()) {
    const LagrangianMode closed{i, ClosedKind::Frictionless, compliant_mask};
    return dynamics(closed, t, q, qdot).lambda_N > 0.0 ? closed : open;
  }
  const DofVector<double> qv = load<double>(q, 0, n_), qdv = load<double>(qdot, 0, n_);
  DofVector<double> w_T;
  detail::gradient(c.tangent, qv, w_T);
  const double gdot_T = w_T.dot(qdv);
  // Round-off of gdot_T against the terms that sum to it (in its own units; issue 34).
  const double rest_tol = 1e-12 * w_T.cwiseAbs().dot(qdv.cwiseAbs());
  if (tangential_rest || std::abs(gdot_T) <= rest_tol) {
    // Sticking candidate: [LB] (2.9) with the contact in I_H. Inside the cone: stick; pushing
    // (lambda_N > 0) beyond it: slip against the force friction cannot supply (B > 0).
    const LagrangianMode stick{i, ClosedKind::Stick, compliant_mask};
    const ContactDynamics d = dynamics(stick, t, q, qdot);
    if (d.lambda_N > 0.0) {
      if (std::abs(d.lambda_T) <= c.law.static_mu() * d.lambda_N) return stick;
      const double s = d.lambda_T > 0.0 ? -1.0 : 1.0;
      const LagrangianMode slip{i, s > 0.0 ? ClosedKind::SlipPositive : ClosedKind::SlipNegative,
                                compliant_mask};
      if (sliding_coefficient(i, q, qdot, s) > 0.0 && dynamics(slip, t, q, qdot).lambda_N > 0.0) {
        return slip;
      }
    }
    // Otherwise stick, either slip direction and lift-off are all candidates and the
    // contact-force LCP decides (the stick forces alone would open a contact whose stick force
    // pulls although a slip reversal holds it and the free motion penetrates: an impact loop at
    // one instant). Also reports Painleve (none or several solutions) with the LCP's evidence.
    const unsigned bit = 1u << i;
    LagrangianMode next;
    std::string failure;
    if (!detail::choose_index_sets(*this, t, q, qdot, bit, bit, 0, compliant_mask, next, failure)) {
      throw ContactStopError(ContactStop::Painleve, failure);
    }
    return next;
  }
  const double s = gdot_T > 0.0 ? 1.0 : -1.0;
  const double B = sliding_coefficient(i, q, qdot, s);
  if (!(B > 0.0)) {
    detail::throw_painleve(*this, i, t, q, qdot, s, B, "a sliding closed contact would start");
  }
  const LagrangianMode slip{i, s > 0.0 ? ClosedKind::SlipPositive : ClosedKind::SlipNegative,
                            compliant_mask};
  return dynamics(slip, t, q, qdot).lambda_N > 0.0 ? slip : open;
}

namespace {
// The closed kind contact i takes now at (q, qdot) with no compliant contact active.
LagrangianMode current_closed_mode(const LagrangianModel& m, int i, ConstVectorRef q,
                                   ConstVectorRef qdot) {
  const LagrangianContact& c = m.contact(i);
  if (c.spatial_frictional()) {
    const DofVector<double> qv = load<double>(q, 0, m.dof()), qdv = load<double>(qdot, 0, m.dof());
    detail::SlipKinematics<double> kt;
    detail::slip_kinematics(c, qv, qdv, kt);
    const bool rests = std::sqrt(kt.speed2()) <= detail::kSlipRestFraction * kt.terms;
    LagrangianMode mode{i, rests ? ClosedKind::SpatialStick : ClosedKind::SpatialSlip, 0};
    if (c.has_rolling_resistance()) {
      detail::roll_kinematics(c, qv, qdv, kt);
      if (std::sqrt(kt.speed2()) <= detail::kSlipRestFraction * kt.terms) {
        mode.roll_rest_set = 1u << i;
      }
    }
    return mode;
  }
  if (!c.frictional()) return {i, ClosedKind::Frictionless, 0};
  const double gdot_T = m.tangent_gradient(i, q).dot(qdot);
  if (gdot_T > 0.0) return {i, ClosedKind::SlipPositive, 0};
  if (gdot_T < 0.0) return {i, ClosedKind::SlipNegative, 0};
  return {i, ClosedKind::Stick, 0};
}
}  // namespace

double LagrangianModel::normal_force(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const {
  return dynamics(current_closed_mode(*this, i, q, qdot), t, q, qdot).lambda_N;
}

Vector LagrangianModel::closed_acceleration(int i, double t, ConstVectorRef q,
                                            ConstVectorRef qdot) const {
  return dynamics(current_closed_mode(*this, i, q, qdot), t, q, qdot).qddot;
}

ContactImpact LagrangianModel::resolve_impact(int i, ConstVectorRef q, ConstVectorRef qdot_minus,
                                              ImpactKind kind) const {
  const LagrangianContact& c = contact(i);
  if (!c.rigid()) {
    saltus::detail::throw_error(describe_contact(i), ": is compliant; it has no impact law");
  }
  const DofVector<double> qv = load<double>(q, 0, n_), qd = load<double>(qdot_minus, 0, n_);
  DofMatrix<double> M = DofMatrix<double>::Zero(n_, n_);
  eval_mass(qv, M);
  detail::SpdFactor<double> factor;
  if (!factor.compute(M)) mass_matrix(q);  // throws, naming q
  DofVector<double> w_N;
  detail::gradient(c.gap, qv, w_N);
  if (!(w_N.norm() > 0.0) || !w_N.allFinite()) {
    saltus::detail::throw_error(c.description,
                                ": the gap gradient vanishes at q = ", detail::q_text(q),
                                " (|w_N| = ", w_N.norm(), "): the contact normal is undefined");
  }
  c.law.validate(c.description);
  const DofVector<double> Mn = factor.solve(w_N);
  ContactImpact out;
  if (c.spatial_frictional()) {
    // The tangent plane's two rows (spatial_impact_law.hpp); impulse_t is |P_T|.
    std::array<DofVector<double>, 3> W{w_N, {}, {}}, MW{Mn, {}, {}};
    c.slip[0](qv, W[1]);
    c.slip[1](qv, W[2]);
    SpatialImpactInput input;
    for (size_t i = 1; i < 3; ++i) MW[i] = factor.solve(W[i]);
    for (int i = 0; i < 3; ++i) {
      input.v_minus[i] = W[static_cast<size_t>(i)].dot(qd);
      for (int j = 0; j < 3; ++j)
        input.A(i, j) = W[static_cast<size_t>(i)].dot(MW[static_cast<size_t>(j)]);
    }
    input.A = (0.5 * (input.A + input.A.transpose())).eval();
    SpatialImpactResult r;
    if (kind == ImpactKind::WithoutCollision) {
      // The guard fires at B = kJamMargin A_NN (contact_tolerances.hpp): such a slip is the jam's.
      r = spatial_impact_without_collision(input, c.law.mu,
                                           2.0 * detail::kJamMargin * input.A(0, 0));
    } else {
      r = c.law.kind == ImpactLawKind::NewtonCoulomb
              ? spatial_newton_coulomb_impact(input, c.law.e, c.law.e_t, c.law.mu,
                                              c.law.superelastic)
              : spatial_routh_impact(input, c.law.e, c.law.mu, routh_termination(c.law.kind));
    }
    out.qdot_plus = qd;
    for (size_t i = 0; i < 3; ++i) out.qdot_plus += MW[i] * r.impulse[static_cast<Eigen::Index>(i)];
    out.planar.status = r.status;
    out.planar.message = r.message;
    out.planar.impulse = {r.impulse.tail<2>().norm(), r.impulse[0]};
    out.planar.v_plus = {r.v_plus.tail<2>().norm(), r.v_plus[0]};
    out.planar.dT = r.dT;
  } else if (c.law.kind == ImpactLawKind::NewtonFrictionless || !c.tangent) {
    // Seed 000 (5.15)-(5.17): Lambda = -(1 + e) gdot_N- / (w_N^T M^-1 w_N).
    const double impulse = kind == ImpactKind::WithoutCollision
                               ? 0.0
                               : newton_impulse(w_N.dot(qd), w_N.dot(Mn), c.law.e);
    out.qdot_plus = qd + Mn * impulse;
    out.planar.impulse = {0.0, impulse};
    out.planar.v_plus = {kNaN, w_N.dot(out.qdot_plus)};
  } else {
    DofVector<double> w_T;
    detail::gradient(c.tangent, qv, w_T);
    const DofVector<double> Mt = factor.solve(w_T);
    PlanarImpactInput input;  // A = W^T M^-1 W, W = [w_T w_N] (FORMULAS.md 7.1)
    input.A << w_T.dot(Mt), w_T.dot(Mn), w_N.dot(Mt), w_N.dot(Mn);
    input.A(1, 0) = input.A(0, 1);  // symmetric up to rounding: use one value
    input.v_minus = {w_T.dot(qd), w_N.dot(qd)};
    if (kind == ImpactKind::WithoutCollision) {
      mech::validate(input, c.description);
      // The guard fires at B = kJamMargin A_nn (contact_tolerances.hpp): such a slip is the jam's.
      out.planar =
          impact_without_collision(input, c.law.mu, 2.0 * detail::kJamMargin * input.A(1, 1));
    } else {
      out.planar = solve_planar_impact(input, c.law, c.description);
    }
    out.qdot_plus = qd + Mt * out.planar.impulse[0] + Mn * out.planar.impulse[1];
  }
  out.kinetic_energy_change = 0.5 * out.qdot_plus.dot(M * out.qdot_plus) - 0.5 * qd.dot(M * qd);
  if (c.law.kind == ImpactLawKind::NewtonFrictionless || (!c.tangent && !c.slip[0])) {
    out.planar.dT = out.kinetic_energy_change;
  }
  return out;
}

void LagrangianModel::validate() const {
  if (!std::get<0>(mass_) || !std::get<1>(mass_)) {
    saltus::detail::throw_error("model '", name_, "': no mass matrix M(q) set");
  }
  if (!std::get<0>(forces_) || !std::get<1>(forces_)) {
    saltus::detail::throw_error("model '", name_, "': no generalised forces h(t, q, qdot) set");
  }
  for (int i = 0; i < contact_count(); ++i) {
    const LagrangianContact& c = contacts_[i];
    if (c.has_rolling_resistance() && !c.spatial_frictional()) {
      saltus::detail::throw_error(c.description, ": rolling resistance without friction in space; ",
                                  "the rolling torque is bounded through the normal force and ",
                                  "needs a rigid contact in space with mu > 0 (newton_coulomb or ",
                                  "routh_*)");
    }
    if (!c.rigid()) {
      c.compliant.validate(c.description);
      if (c.compliant.mu > 0.0 && !c.tangent) {
        saltus::detail::throw_error(c.description, ": friction coefficient mu = ", c.compliant.mu,
                                    " needs a tangential coordinate s_T(q); give one to "
                                    "add_compliant_contact or set mu = 0");
      }
      continue;
    }
    c.law.validate(c.description);
    c.check_stribeck();
    if (c.slip[0]) {
      validate_spatial_contact(i);
      continue;
    }
    if (c.law.kind != ImpactLawKind::NewtonFrictionless && !c.tangent) {
      saltus::detail::throw_error(c.description, ": law ", to_string(c.law.kind),
                                  " needs a tangential coordinate s_T(q); give one to add_contact "
                                  "or use newton_frictionless");
    }
  }
}

void LagrangianModel::validate_spatial_contact(int i) const {
  const LagrangianContact& c = contacts_[i];
  if (c.law.kind != ImpactLawKind::NewtonFrictionless &&
      c.law.kind != ImpactLawKind::NewtonCoulomb && !is_routh(c.law.kind)) {
    saltus::detail::throw_error(c.description, ": law ", to_string(c.law.kind),
                                " in space; expected newton (frictionless), newton_coulomb "
                                "(Newton and Coulomb's cone) or routh_newton, routh_poisson, "
                                "routh_stronge (Routh's process with the cone): the other laws "
                                "are planar");
  }
  if (!c.spatial_frictional()) return;
  for (int k = 0; k < contact_count(); ++k) {
    if (k != i && c.has_rolling_resistance() && contacts_[k].rigid()) {
      saltus::detail::throw_error(
          c.description, ": rolling resistance beside rigid contact '", contacts_[k].name,
          "'; it is built for a model's only rigid contact (several contacts with rolling "
          "resistance need its rows in the index-set problem, not built)");
    }
    const LagrangianContact& other = contacts_[k];
    if (k == i || (other.rigid() && !other.frictional())) continue;
    saltus::detail::throw_error(
        c.description, ": friction in space beside contact '", other.name, "', which is ",
        other.rigid() ? "rigid with planar friction (a tangent coordinate)" : "compliant",
        "; friction in space shares a model only with rigid contacts in space");
  }
}

void LagrangianModel::check_configuration(ConstVectorRef q) const {
  validate();
  if (q.size() != n_) {
    saltus::detail::throw_error("model '", name_, "': q has ", q.size(), " entries, expected ", n_);
  }
  mass_matrix(q);
  for (int i = 0; i < contact_count(); ++i) {
    const Vector w = gap_gradient(i, q);
    if (!(w.norm() > 0.0) || !w.allFinite()) {
      saltus::detail::throw_error(describe_contact(i),
                                  ": the gap gradient vanishes at q = ", detail::q_text(q),
                                  " (|w_N| = ", w.norm(), ")");
    }
  }
}

}  // namespace saltus::mech
