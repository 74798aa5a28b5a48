// A planar Lagrangian system with unilateral contacts, compiled into a saltus::HybridSystem.
//
// Sources: seed 000 eqs. (5.13)-(5.21) (contact, impact map, mechanical hybrid system, Zeno and
// persistent contact); FORMULAS.md 0 (conventions), 1.2 (modes C_1, C_2 and guard D), 1.6 (after
// a Zeno point), 4 (frictionless impact), 7-9 (frictional laws), 10.2 (what_N).
//
// Model: M(q) qddot = h(t, q, qdot) (+ contact forces). h holds every smooth generalised force,
// including Coriolis/centrifugal terms and gravity (h = -c(q, qdot) - dV/dq + F). Contact i has a
// gap g_N,i(q) >= 0 and, for frictional laws, a tangential coordinate s_T,i(q) (e.g. the contact
// point's position along the surface); its gradients are the COLUMNS w_N = dg_N/dq^T and
// w_T = ds_T/dq^T (column convention of planar_contact.hpp), both by automatic differentiation.
// M, h, g_N and s_T are generic callables (auto parameters) evaluated with double, saltus::Dual
// and SecondOrderJet; write math as `using std::sin; sin(q[2])`.
//
// Hybrid system built by compile():
//   mode "free"          x = (q, qdot), qdot' = M^-1 h                (C_1 of 1.2)
//     guard "impact:<c>"  p = -g_N,c(q) rising; reset qdot+ by contact c's impact law
//                          (ContactImpactLaw); continues in "closed:<c>" when the impact leaves
//                          gdot_N = 0 (plastic) and the normal force there is positive, else "free"
//   mode "closed:<c>"    persistent contact of c (C_2 of 1.2): g_N = gdot_N = 0 kept by
//                          lambda_N = -(w_N^T M^-1 h + what_N)/(w_N^T M^-1 (w_N - mu s w_T)),
//                          qdot' = M^-1 (h + (w_N - mu s w_T) lambda_N), s = sign(gdot_T)
//                          (Coulomb sliding; s = 0 when not sliding: stick is not modelled)
//     guard "lift-off:<c>" p = -lambda_N rising -> "free" (opens when its normal force reaches 0)
//     guards "impact:<d>", d != c -> "free" after d's impact law
//   Zeno hand-over (models with one contact): "free" -> "closed:<c>" at the accumulation time,
//   the limit state projected onto g_N = 0 (q along M^-1 w_N) and gdot_N = 0 (qdot <- P(q, 0)
//   qdot).
// The closed mode supplies no Jacobian (what_N needs second derivatives): use Dopri5 or Dop853.
// A jam of a Routh process during a run (FORMULAS.md 9) makes the reset return NaN, which the
// engine reports as Termination::NonFiniteState naming the guard.
//
// Bad input (saltus::Error naming model, body, contact and value): invalid e, e_t, mu (compile),
// frictional law without a tangential coordinate (compile), M(q) not SPD (any evaluation during
// the run, or check_configuration), vanishing gap gradient (at an impact, or check_configuration).
//
// Symbol table (seed 000 / FORMULAS.md -> code): M(q) -> mass_matrix, h -> forces,
// d(q) = g_N -> gap, w_n -> gap_gradient (column), w_T -> tangent_gradient, what_N ->
// gap_acceleration_offset, lambda_N -> normal_force, P(q, e) -> newton_impact.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/second_order_jet.hpp"

namespace saltus::mech {

// Largest number of generalised coordinates (x = (q, qdot) must fit kMaxAutodiffSize).
inline constexpr int kMaxDof = 16;

template <class T>
using DofVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, kMaxDof, 1>;
template <class T>
using DofMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxDof>;

struct LagrangianContact {
  std::string name;
  std::string body;
  ContactImpactLaw law;
  std::function<double(const DofVector<double>&)> gap;
  std::function<Dual(const DofVector<Dual>&)> gap_dual;
  std::function<SecondOrderJet(const DofVector<SecondOrderJet>&)> gap_jet;
  std::function<double(const DofVector<double>&)> tangent;  // empty: frictionless only
  std::function<Dual(const DofVector<Dual>&)> tangent_dual;
};

// The outcome of one impact of a contact at (q, qdot-).
struct ContactImpact {
  Vector qdot_plus;
  PlanarImpactResult planar;  // impulses (P_t, P_n), v+, dT in contact space (P_t = 0 frictionless)
  double kinetic_energy_change = kNaN;  // T+ - T- from qdot
};

class LagrangianModel {
 public:
  LagrangianModel(std::string name, int n_dof);

  const std::string& name() const { return name_; }
  int dof() const { return n_; }

  // M(q): fn(q, M) with M preset to n x n zeros; generic in the scalar.
  template <class MassFn>
  void set_mass_matrix(MassFn fn) {
    mass_ = [fn](const DofVector<double>& q, DofMatrix<double>& M) { fn(q, M); };
    mass_dual_ = [fn](const DofVector<Dual>& q, DofMatrix<Dual>& M) { fn(q, M); };
  }
  // h(t, q, qdot): fn(t, q, qdot, h) with h preset to zeros; generic in the scalar.
  template <class ForceFn>
  void set_forces(ForceFn fn) {
    forces_ = [fn](double t, const DofVector<double>& q, const DofVector<double>& qd,
                   DofVector<double>& h) { fn(t, q, qd, h); };
    forces_dual_ = [fn](const Dual& t, const DofVector<Dual>& q, const DofVector<Dual>& qd,
                        DofVector<Dual>& h) { fn(t, q, qd, h); };
  }
  // A contact with gap g_N(q) and tangential coordinate s_T(q); returns its index.
  template <class Gap, class Tangent>
  int add_contact(std::string name, std::string body, Gap gap, Tangent tangent,
                  ContactImpactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap, law);
    c.tangent = [tangent](const DofVector<double>& q) { return double(tangent(q)); };
    c.tangent_dual = [tangent](const DofVector<Dual>& q) { return Dual(tangent(q)); };
    contacts_.push_back(std::move(c));
    return static_cast<int>(contacts_.size()) - 1;
  }
  // A frictionless contact (law kind NewtonFrictionless, or mu = 0 with any kind).
  template <class Gap>
  int add_contact(std::string name, std::string body, Gap gap, ContactImpactLaw law) {
    contacts_.push_back(make_contact(std::move(name), std::move(body), gap, law));
    return static_cast<int>(contacts_.size()) - 1;
  }

  int contact_count() const { return static_cast<int>(contacts_.size()); }
  const LagrangianContact& contact(int i) const { return contacts_.at(i); }
  // Changes a contact's law (e.g. to run one scene under every law); validated by compile().
  void set_contact_law(int i, ContactImpactLaw law) { contacts_.at(i).law = law; }

  // Evaluations at double precision. mass_matrix throws saltus::Error when M(q) is not SPD.
  Matrix mass_matrix(ConstVectorRef q) const;
  Vector forces(double t, ConstVectorRef q, ConstVectorRef qdot) const;
  double gap(int i, ConstVectorRef q) const;
  Vector gap_gradient(int i, ConstVectorRef q) const;      // w_N (column)
  Vector tangent_gradient(int i, ConstVectorRef q) const;  // w_T (column)
  double gap_acceleration_offset(int i, ConstVectorRef q, ConstVectorRef qdot) const;  // what_N
  double kinetic_energy(ConstVectorRef q, ConstVectorRef qdot) const;
  // Normal force of contact i held closed at (t, q, qdot) (mode "closed:<c>").
  double normal_force(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const;
  // qddot of the closed mode of contact i.
  Vector closed_acceleration(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const;

  // Applies contact i's impact law at (q, qdot-). Throws saltus::Error for a vanishing gap
  // gradient or a mass matrix that is not SPD; a jam is returned in planar.status.
  ContactImpact resolve_impact(int i, ConstVectorRef q, ConstVectorRef qdot_minus) const;

  // Throws saltus::Error (model, body, contact, value) for invalid coefficients or a frictional
  // law without a tangential coordinate, or missing M / h.
  void validate() const;
  // validate() plus: M(q) SPD and every gap gradient non-zero at q.
  void check_configuration(ConstVectorRef q) const;

  // "model 'm', body 'b', contact 'c'" for messages.
  std::string describe_contact(int i) const;

  // Mode ids of a compiled model.
  struct Compiled {
    HybridSystem system;
    ModeId free = kNoMode;
    std::vector<ModeId> closed;  // per contact
  };
  Compiled compile() const;

 private:
  template <class Gap>
  static LagrangianContact make_contact(std::string name, std::string body, Gap gap,
                                        ContactImpactLaw law) {
    LagrangianContact c;
    c.name = std::move(name);
    c.body = std::move(body);
    c.law = law;
    c.gap = [gap](const DofVector<double>& q) { return double(gap(q)); };
    c.gap_dual = [gap](const DofVector<Dual>& q) { return Dual(gap(q)); };
    c.gap_jet = [gap](const DofVector<SecondOrderJet>& q) { return SecondOrderJet(gap(q)); };
    return c;
  }

 public:
  // Type-erased callables (public for the compiled flows; treat as read-only).
  std::function<void(const DofVector<double>&, DofMatrix<double>&)> mass_;
  std::function<void(const DofVector<Dual>&, DofMatrix<Dual>&)> mass_dual_;
  std::function<void(double, const DofVector<double>&, const DofVector<double>&,
                     DofVector<double>&)>
      forces_;
  std::function<void(const Dual&, const DofVector<Dual>&, const DofVector<Dual>&, DofVector<Dual>&)>
      forces_dual_;

 private:
  std::string name_;
  int n_ = 0;
  std::vector<LagrangianContact> contacts_;
};

}  // namespace saltus::mech
