// Over 450 lines (about 690): most of it is the one contract comment below (every mode, guard and
// reset of the compiled system), kept whole beside the class it describes.
// A planar Lagrangian system with unilateral contacts, compiled into a saltus::HybridSystem.
//
// Sources: seed 000 eqs. (5.1)-(5.21) (compliant contact, impact map, mechanical hybrid system,
// Zeno and persistent contact); seed 001 [LB] (2.3)-(2.11) (closed contacts, Coulomb sliding and
// sticking, index sets); FORMULAS.md 0 (conventions), 1.2 (modes C_1, C_2 and guard D), 1.6
// (after a Zeno point), 3 (compliant laws), 4 (frictionless impact), 7-9 (frictional impact
// laws), 10.2-10.3 (what_N, contact forces), 11.1 (Painleve coefficient B).
//
// Model: M(q) qddot = h(t, q, qdot) + contact forces. h holds every smooth generalised force,
// including Coriolis/centrifugal terms and gravity (h = -c(q, qdot) - dV/dq + F). Contact i has
// a gap g_N,i(q) >= 0 and, for friction, a tangential coordinate s_T,i(q) (e.g. the contact
// point's position along the surface); their gradients are the COLUMNS w_N = dg_N/dq^T and
// w_T = ds_T/dq^T (column convention of planar_contact.hpp), obtained by automatic
// differentiation, and what_N = qdot^T (d^2 g_N/dq^2) qdot, what_T likewise, by the
// second-order jets of second_order_jet.hpp.
//
// Generic callables and the scalars they are instantiated with (write math as
// `using std::sin; sin(q[2])`, constants as doubles):
//   M(q)            fn(q, M):          double, Dual, ChunkDual
//   h(t, q, qdot)   fn(t, q, qdot, h): double, Dual, ChunkDual (t, q, qdot and h all of that
//                                      scalar)
//   g_N(q), s_T(q)  fn(q) -> scalar:   double, Dual, ChunkDual and the SecondOrderJetTpl of each
// q is a DofVector<S>, M a DofMatrix<S> preset to n x n zeros, h a DofVector<S> preset to zeros.
//
// A contact is either RIGID (add_contact: impact law ContactImpactLaw, persistent closed
// contact with Coulomb friction mu = law.mu) or COMPLIANT (add_compliant_contact: a force law
// CompliantContactLaw acting along w_N while the contact is active; at most
// kMaxCompliantContacts of them). A rigid contact is FRICTIONAL when its law kind is not
// NewtonFrictionless, mu > 0 and it has a tangential coordinate; its closed contact then slips
// (s = +1 or -1) or sticks. Frictionless contacts have one closed mode.
//
// Hybrid system built by compile(): one mode per (state of the rigid contacts, set of active
// compliant contacts). One closed rigid contact: the modes below; two or more (models with
// several rigid contacts): modes of kind IndexSets, see "Several closed contacts" below. Mode
// names: the rigid part, then "|<name>" per active compliant contact ("free", "slip+:tip|pad"):
//   "free"           x = (q, qdot), qdot' = M^-1 (h + sum_active f_j w_N,j)          (C_1 of 1.2)
//   "closed:<c>"     frictionless closed contact: g_N = gdot_N = 0 held by lambda_N (C_2)
//   "slip+:<c>", "slip-:<c>"  closed, sliding with s = sign(gdot_T) = +1 / -1:
//                    lambda_N = -(w_N^T M^-1 h + what_N)/B, B = w_N^T M^-1 (w_N - mu s w_T),
//                    lambda_T = -mu s lambda_N, qdot' = M^-1 (h + w_N lambda_N + w_T lambda_T)
//                    ([LB] (2.9)-(2.10) with one contact in I_N \ I_H; FORMULAS.md 10.3)
//   "stick:<c>"      closed and sticking: g_N = gdot_N = gdot_T = 0 held by (lambda_N,
//                    lambda_T) = -(W^T M^-1 W)^-1 (W^T M^-1 h + (what_N, what_T)), W = [w_N w_T]
//                    ([LB] (2.9) with the contact in I_H, equality branch)
//   "post-zeno:<c>"  instantaneous: entered by the Zeno hand-over of a frictional contact; its
//                    guard "index-sets:<c>" fires at once and picks slip+/slip-/stick/free
// Guards (all continuous functions located on the dense output; AD gradients throughout):
//   "impact:<d>"   p = -g_N,d rising, in every mode where d is not closed; the reset applies d's
//                  impact law (ContactImpactLaw) and reports impulse_t, impulse_n,
//                  energy_change. From a mode without a closed contact it continues in d's closed
//                  mode when the impact leaves gdot_N = 0 and the closed contact holds (below),
//                  else in the mode without a closed contact. Simultaneous impacts: when other
//                  rigid contacts touch (gap within 1e-10 max(1, |q|_inf)) and approach, or the
//                  mode holds one closed, all of them form I_S and are solved together by the
//                  impact LCP with Moreau's Newton law per contact (src/mech/
//                  multi_contact_impact.hpp; frictional contacts add Coulomb friction, e_T = 0;
//                  an LCP with no or several motions, or two contacts left closed end the run
//                  with ResetFailed naming the contacts); impulse_n is then d's share. d already
//                  separating (resolved with another contact's guard): no jump.
//   "lift-off:<c>" p = -lambda_N rising (closed, slip, stick) -> no closed contact
//   "stick:<c>"    p = -s gdot_T - 1e-12 (1 + |qdot|_inf) rising (slip s: the sliding speed
//                  reaches the rest level of close_contact) -> stick if the
//                  stick forces lie in the cone |lambda_T| <= mu lambda_N, else slip reversal
//                  (s' = -sign(lambda_T) = -s), or no closed contact if lambda_N <= 0
//   "slip+:<c>"    p = -lambda_T - mu lambda_N rising (stick: the force reaches the cone edge
//                  lambda_T = -mu lambda_N) -> slip+; "slip-:<c>" p = lambda_T - mu lambda_N ->
//                  slip-
//   "painleve:<c>" p = -B rising (slip): the Painleve coefficient reaches zero; see below
//   "touch:<j>"    p = -g_N,j rising (compliant j inactive) -> j active; for Kelvin-Voigt with
//                  ForceReturnsToZero p = min(-g_N,j, f_j), so a contact released with residual
//                  penetration restarts only when its force turns positive or after the gap opens
//   "release:<j>"  p = g_N,j rising (gap returns to zero) or p = -f_j rising (Kelvin-Voigt
//                  ForceReturnsToZero) -> j inactive
// Closing a contact (after an impact with gdot_N+ = 0, when slip stops, after a Zeno point): with
// gdot_T = 0 the stick forces decide (inside the cone: stick; outside: slip with
// s = -sign(lambda_T)); a sliding contact slips with s = sign(gdot_T); lambda_N <= 0: free.
// Zeno hand-over (models with one rigid contact; several: "post-zeno" above): from each mode
// without a closed contact to
// "closed:<c>" (frictionless) or "post-zeno:<c>" (frictional) at the accumulation time, the limit
// state projected onto g_N = 0 (q along M^-1 w_N) and gdot_N = 0 (qdot <- P(q, 0) qdot).
//
// Painleve (FORMULAS.md 11.1): a sliding contact with B <= 0 has no or two contact-force
// solutions. The run ends with a saltus::Error naming model, body, contact, time, s, B, mu and
// the critical mu at that configuration: when a slip mode would be entered with B <= 0, or when
// B reaches 0 while sliding (guard "painleve:<c>"). A jam of a Routh process during an impact
// (FORMULAS.md 9) makes the reset return NaN, which the engine reports as
// Termination::NonFiniteState naming the guard.
//
// Several closed contacts ([LB] Sec. 2; src/mech/index_set_modes.cpp, index_set_dynamics.hpp,
// index_set_choice.hpp): a mode of kind IndexSets holds the index sets I_N (closed_set), I_H
// (stick_set) and the slip direction of every sliding contact; named by its members,
// "slip+:trailing&stick:leading". Its flow keeps gddot_N = 0 on I_N and gddot_T = 0 on I_H;
// sticking contacts with equal w_T (two corners on flat ground) share one friction unknown (the
// normal forces stay unique). compile() builds these modes for every set of 2 to dof() rigid
// contacts (at most 4096 of them; at most kMaxDof contacts in such models). The next index sets
// are never enumerated locally: at every event that changes them (an impact leaving two or more
// contacts with gdot_N(t+) = 0, lift-off, stick, slip, the Zeno hand-over, initial_mode) the
// contact-force LCP (2.9)-(2.11) is solved over the closed contacts and its verdict decides:
// unique -> the next mode; none (inconsistent) or several (indeterminate) -> ResetFailed with a
// message naming the contacts, their states, t and the LCP's report. Guards of an IndexSets mode:
// "impact:<d>" for the open contacts (the closed ones join I_S), "lift-off:<c>" (lambda_N,c = 0
// -> LCP without c), "stick:<c>" (sliding c stops -> LCP with c and the contacts sharing its w_T
// in I_H), "slip+:<c>" / "slip-:<c>" (sticking c at the cone edge -> LCP with c's group sliding),
// "painleve:<set>" (the normalised determinant B of the closed-contact system reaches zero while
// something slides -> ResetFailed). Models with several rigid contacts also get, in every mode,
// "penetration:<d>" (g_N,d < -1e-9: an impact was missed -> ResetFailed instead of passing
// through the surface), and a Zeno hand-over from every mode to the instantaneous mode
// "post-zeno": the limit state is projected onto g_N = gdot_N = 0 of the closed contacts and of
// those within 1e-8 max(1, |q|_inf) of their surface, and the index-sets guard closes the touching
// contacts by the LCP, those with |gdot_T| <= 1e-9 of the scale as sticking candidates (their
// tangential rates removed like the normal ones). The single-contact modes, guards and messages are
// unchanged; the IndexSets resets allocate (they solve an LCP), the single-contact paths do not.
//
// Drilling friction adds the spin about the normal, scaled by a length l, as a third slip row in
// the same cone (a soft finger's ellipsoidal limit: |f_T|^2 + (tau_n / l)^2 <= (mu lambda_N)^2;
// sliding, the force and torque oppose (gamma, l w_n) together). It acts in the flow; impacts
// take the two tangent rows only (no drilling impulse).
// Rolling resistance (set_rolling_resistance; src/mech/spatial_rolling_dynamics.hpp,
// spatial_rolling_contact.cpp) adds the rolling rows rho_k = mu_r d((R w) . t_k)/dqdot with a cone
// of their own, |f_R| <= lambda_N (the rolling torque mu_r f_R), and a state of their own: held
// (LagrangianMode::roll_rest_set, modes "stick:<c>/rest", "slip:<c>/rest") or rolling against the
// torque at the cone's edge ("stick:<c>/rolling", "slip:<c>/rolling"); guards "roll-stop:<c>" and
// "roll:<c>" mirror "stick:<c>" and "slip:<c>". Built for a model's only rigid contact; impacts
// take no rolling impulse; a singular contact problem ("painleve:<c>") ends the run.
// Friction in space (add_spatial_contact; src/mech/spatial_friction_dynamics.hpp,
// spatial_contact_guards.cpp, spatial_impact_law.hpp): a rigid contact whose slip velocity is two
// velocity-level rows gamma = W_T^T qdot (W_T = [eta_1^T eta_2^T]) instead of a tangential
// coordinate. It slips along the turning direction d = gamma / |gamma| ("slip:<c>", kind
// SpatialSlip, friction -mu lambda_N W_T d) or sticks with both rows held ("stick:<c>", kind
// SpatialStick); guards "stick:<c>" (falling, the slip speed reaches rest), "slip:<c>" (the
// stick force reaches the cone), "lift-off:<c>", "painleve:<c>" (B reaches zero: Lecornu's impact
// without collision by Routh's process in space); impacts by Newton's law with Coulomb's cone or
// Routh's process in space. Built for a model's only contact (validate() refuses it beside
// another). Friction on compliant contacts (src/mech/compliant_friction_dynamics.hpp,
// compliant_contact_guards.cpp): a compliant contact with law.mu > 0 and a tangential coordinate
// (add_compliant_contact with a tangent) is FRICTIONAL. While active it carries, besides f w_N,
// a tangential force lambda_T w_T with the normal load f+ = max(f, 0): sliding with
// s = sign(gdot_T), lambda_T = -mu s f+; sticking (gdot_T = 0 held), lambda_T from
// w_T^T qddot + what_T = 0 (one row per sticking compliant contact,
// G lambda_T = -(W_T^T M^-1 h_total + what_T), G = W_T^T M^-1 W_T). The friction state is part
// of the mode (LagrangianMode::compliant_stick, compliant_slip_negative) and of its name:
// "free|slip+:pad", "free|slip-:pad", "free|stick:pad" (a frictionless compliant contact stays
// "|pad"). Guards, mirroring a closed rigid contact's (v_rest = 1e-12 (1 + sum_k |w_T,k qdot_k|),
// the speed that counts as zero):
//   "stick:<j>"   (j sliding with s) p = -s gdot_T - v_rest rising: the sliding speed reaches
//                 zero -> stick if the stick force lies in the cone |lambda_T| <= mu f+, else
//                 slip with s' = -sign(lambda_T) (reversal)
//   "slip+:<j>"   (j sticking) p = -lambda_T - mu f+ rising -> slip+; "slip-:<j>"
//                 p = lambda_T - mu f+ rising -> slip-
//   "touch:<j>"   -> active, sliding with s = sign(gdot_T) when |gdot_T| > 1e-12 (1 + |w_T|_1
//                 |qdot|_inf), else by the cone test; "release:<j>" ends the friction too.
// Cone test at the edge (|lambda_T| within 1e-9 of mu f+): stick only while d/dt (mu f+ -
// |lambda_T|) >= 0 along the stick flow (the force moves inward), else slip. A contact that starts
// sticking has its residual gdot_T (round-off of the located root) removed along M^-1 w_T; the
// flow then keeps gdot_T = 0 (no projection): to round-off for tangents linear in q (a linear
// invariant of every Runge-Kutta method), else to the integrator's tolerance. The stick multiplier
// needs independent w_T of the sticking compliant contacts (else an error naming them).
// Rigid contacts may share the model, but not a mode: the coupled forces of closed rigid contacts
// and frictional compliant ones are not built. Modes with a closed rigid contact exist only while
// no frictional compliant contact is active; an impact from a mode with compliant friction
// re-chooses the friction states from the new velocities (a sticking contact the impact set
// sliding slides); a rigid contact that would close there (plastic impact, touching at rest, a
// simultaneous impact leaving one closed), a frictional compliant contact touching while a rigid
// contact is closed, or such an initial state, ends the run (ResetFailed; an initial state:
// saltus::Error) naming both contacts; impacts accumulating there end as Termination::Zeno (no
// hand-over).
//
// Every mode supplies its Jacobian by forward AD (ChunkDual, ChunkSecondOrderJet: all 2 n
// directions of x in one pass up to n = 4), its guards their gradients and rates in Dual and
// DualSecondOrderJet, so all integrators, Radau5 included, run every mode. The compiled flows,
// guards and resets do not allocate (fixed capacity DofVector/DofMatrix, a fixed-capacity phase
// record in Routh's process).
//
// Bad input (saltus::Error naming model, body, contact and value): invalid e, e_t, mu, k, c, n
// (compile), frictional law without a tangential coordinate (compile), more than
// kMaxCompliantContacts compliant contacts (add_compliant_contact), M(q) not SPD (any evaluation
// during the run, or check_configuration), vanishing gap gradient (at an impact, or
// check_configuration), W = [w_N w_T] of rank < 2 in a stick mode.
//
// Symbol table (seed 000 / [LB] / FORMULAS.md -> code): M(q) -> mass_matrix, h -> forces,
// d(q) = g_N -> gap, w_n -> gap_gradient (column), w_T -> tangent_gradient, what_N ->
// gap_acceleration_offset, what_T -> tangent_acceleration_offset, lambda_N, lambda_T ->
// ContactDynamics::lambda_N, lambda_T, B -> sliding_coefficient, P(q, e) -> newton_impact,
// I_N / I_H -> ClosedKind.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/core/plain_function.hpp"
#include "saltus/mech/compliant_contact_law.hpp"
#include "saltus/mech/constraint_row.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/second_order_jet.hpp"

namespace saltus::mech {

// Largest number of compliant contacts: compile() builds modes for every subset of active ones.
inline constexpr int kMaxCompliantContacts = 6;

// A scalar function of the configuration, f(q), kept for every scalar saltus evaluates it with.
class ConfigurationFunction {
 public:
  template <class S>
  using Fn = std::function<S(const DofVector<S>&)>;

  // f(q) from the n doubles at q (a state vector's first half): no copy into a DofVector.
  using InPlaceFn = PlainFunction<double(const double* q, int n)>;

  ConfigurationFunction() = default;
  template <class F>
  explicit ConfigurationFunction(F f) : ConfigurationFunction(f, copying(f)) {}
  // With an in-place double evaluation of the same f (model files: the tape reads q in place).
  template <class F>
  ConfigurationFunction(F f, InPlaceFn in_place)
      : fns_(wrap<double>(f), wrap<Dual>(f), wrap<ChunkDual>(f), wrap<SecondOrderJet>(f),
             wrap<DualSecondOrderJet>(f), wrap<ChunkSecondOrderJet>(f), std::move(in_place)) {}

  template <class S>
  S operator()(const DofVector<S>& q) const {
    return std::get<Fn<S>>(fns_)(q);
  }
  double operator()(const double* q, int n) const { return std::get<InPlaceFn>(fns_).call(q, n); }
  explicit operator bool() const { return static_cast<bool>(std::get<0>(fns_)); }

  // Optional: f and its time derivative enclosed over a step from enclosures of q (n entries)
  // along it. Model files give every gap one (the tape in interval arithmetic); the guards that
  // read a gap alone (impact, penetration, a compliant contact's touch and release) then get
  // Guard::enclosure, so the certified event search proves where they do not cross.
  // `reads`: the coordinates f reads (the search encloses those alone).
  using Enclosure = std::function<IntervalJet(const IntervalJet* q, int n)>;
  void set_enclosure(Enclosure e, std::vector<int> reads) {
    enclosure_ = std::move(e);
    reads_ = std::move(reads);
  }
  bool encloses() const { return static_cast<bool>(enclosure_); }
  IntervalJet enclose(const IntervalJet* q, int n) const { return enclosure_(q, n); }
  const std::vector<int>& reads() const { return reads_; }

 private:
  template <class S, class F>
  static Fn<S> wrap(F f) {
    return [f](const DofVector<S>& q) { return S(f(q)); };
  }
  template <class F>
  static double call_copying(const void* f, const double* q, int n) {
    return static_cast<double>(
        (*static_cast<const F*>(f))(DofVector<double>(Eigen::Map<const Vector>(q, n))));
  }
  template <class F>
  static InPlaceFn copying(F f) {
    return {&call_copying<F>, std::make_shared<const F>(std::move(f))};
  }
  std::tuple<Fn<double>, Fn<Dual>, Fn<ChunkDual>, Fn<SecondOrderJet>, Fn<DualSecondOrderJet>,
             Fn<ChunkSecondOrderJet>, InPlaceFn>
      fns_;
  Enclosure enclosure_;
  std::vector<int> reads_;
};

enum class ContactModel { Rigid, Compliant };

struct LagrangianContact {
  std::string name;
  std::string body;
  ContactModel model = ContactModel::Rigid;
  // Rigid: impact law; law.static_mu() is also the closed contact's stick cone, law.mu its
  // sliding coefficient unless a Stribeck curve is given.
  ContactImpactLaw law;
  CompliantContactLaw compliant;  // Compliant: force law along w_N while active
  ConfigurationFunction gap;      // g_N(q)
  ConfigurationFunction tangent;  // s_T(q); empty: frictionless only
  // A contact in space (add_spatial_contact): the rows eta_1(q), eta_2(q) of the slip velocity
  // gamma_k = eta_k(q) qdot of the contact point along two orthonormal tangent directions (W_T =
  // [eta_1^T eta_2^T]); empty: a planar contact (tangent) or a frictionless one. With drilling
  // friction a third row eta_3 = l d(w . n)/dqdot, the spin about the normal times the drilling
  // radius l: the slip is then (gamma_1, gamma_2, l w_n), in one cone (a soft finger's ellipsoid
  // |f_T|^2 + (tau_n / l)^2 <= (mu lambda_N)^2).
  std::array<ConstraintRow, 3> slip;
  // How many slip rows: 3 with drilling friction, else 2.
  int slip_rows() const { return slip[2] ? 3 : 2; }
  // Rolling resistance of a contact in space (set_rolling_resistance): the rows rho_k(q) =
  // mu_r d((R w) . t_k)/dqdot, the body's angular velocity about the two tangent directions times
  // the rolling resistance mu_r (a length); the rolling torque mu_r f_R lies in its own cone
  // |f_R| <= lambda_N, with a stick/slip state of its own ("Rolling resistance" in the header
  // comment). Empty: no rolling resistance.
  std::array<ConstraintRow, 2> roll;
  bool has_rolling_resistance() const { return static_cast<bool>(roll[0]); }
  // Optional Stribeck curve of a rigid frictional contact: the sliding coefficient mu_k(v) of
  // the slip speed v = |gdot_T| >= 0, given as entry 0 of its argument; empty: law.mu.
  ConfigurationFunction stribeck;
  // Optional (rigid): the contact can be hit only where when(t, x, z) != 0, x = (q, qdot): a
  // walker's swing foot, which passes through the ground behind the stance foot (Modelica's
  // `when`, HyEQ's jump set). It gates the impact and penetration guards, closing at the start
  // and the start's penetration check, and joining another contact's simultaneous impact; a
  // closed contact stays closed whatever it says. Empty: always.
  Guard::Condition when;
  std::string when_text;  // as written, for messages
  // Optional (rigid): after an impact of this contact that leaves it closed, the coordinates are
  // renamed, q+ = R(q) and qdot+ = dR/dq qdot (a walker's stance and swing legs swapped), and
  // every contact k continues as contact relabel_contacts[k]. R is a symmetry of the model
  // (LagrangianModel::set_relabel checks it). Empty: no renaming.
  std::vector<ConfigurationFunction> relabel;
  std::vector<int> relabel_contacts;
  std::string description;  // "model 'm', body 'b', contact 'c'" (for messages)

  bool rigid() const { return model == ContactModel::Rigid; }
  // A compliant contact with Coulomb friction: mu > 0 and a tangential coordinate.
  bool compliant_frictional() const {
    return !rigid() && compliant.mu > 0.0 && static_cast<bool>(tangent);
  }
  // A rigid contact whose closed state slips or sticks (see the header comment) along its one
  // tangent (planar friction).
  bool frictional() const {
    return rigid() && law.kind != ImpactLawKind::NewtonFrictionless && law.static_mu() > 0.0 &&
           static_cast<bool>(tangent);
  }
  // A rigid contact with Coulomb friction in space: its closed state slips along a turning
  // direction or sticks in both tangent directions ("Friction in space" in the header comment).
  bool spatial_frictional() const {
    return rigid() && law.kind != ImpactLawKind::NewtonFrictionless && law.static_mu() > 0.0 &&
           static_cast<bool>(slip[0]);
  }
  // The coefficient a closed contact slides with at slip speed v >= 0: the Stribeck curve's
  // mu_k(v), or law.mu (read now: it may follow a run-time parameter).
  template <class S>
  S sliding_mu(const S& slip_speed) const {
    if (!stribeck) return S(law.mu);
    DofVector<S> v(1);
    v[0] = slip_speed;
    return stribeck(v);
  }
  // Whether the contact can be hit at (t, q, qdot): `when` holds there, or there is none. A NaN
  // condition counts as false.
  bool may_be_hit(double t, ConstVectorRef q, ConstVectorRef qdot) const;
  // Throws saltus::Error naming the contact when the Stribeck curve at rest, mu_k(0), lies
  // outside [0, law.static_mu()].
  void check_stribeck() const;
};

// The state of the rigid contact a mode keeps closed.
// IndexSets: two or more rigid contacts closed at once; the sets of LagrangianMode say which
// (src/mech/index_set_dynamics.hpp).
enum class ClosedKind {
  None,
  Frictionless,
  SlipPositive,
  SlipNegative,
  Stick,
  PostZeno,
  SpatialSlip,   // closed, sliding in space along d = gamma / |gamma| ("slip:<c>")
  SpatialStick,  // closed, gamma_1 = gamma_2 = 0 held ("stick:<c>")
  IndexSets
};
const char* to_string(ClosedKind kind);

// What a mode of the compiled system holds: the closed rigid contact (if any), its state, and
// the active compliant contacts (bit j = j-th compliant contact in declaration order).
struct LagrangianMode {
  int closed_contact = -1;  // contact index; -1 with ClosedKind::None; IndexSets: the first
  ClosedKind kind = ClosedKind::None;
  unsigned compliant_mask = 0;
  // Kind IndexSets only (bit i = contact i): I_N (closed), I_H (sticking, within I_N), and the
  // sliding frictional contacts of I_N \ I_H with s = -1 (the others slide with s = +1 or are
  // frictionless). Zero for the other kinds.
  unsigned closed_set = 0;
  unsigned stick_set = 0;
  unsigned slip_negative_set = 0;
  // Friction state of the active frictional compliant contacts (bit j = j-th compliant contact,
  // as compliant_mask): sticking, or sliding with s = -1; an active frictional compliant contact
  // in neither set slides with s = +1. Zero for frictionless compliant contacts.
  unsigned compliant_stick = 0;
  unsigned compliant_slip_negative = 0;
  // Kinds SpatialSlip and SpatialStick of a contact with rolling resistance (bit i = contact i):
  // its rolling is held at rest (rho q' = 0, the mode named ".../rest"); clear, it rolls against
  // the rolling torque at the cone's edge (".../rolling").
  unsigned roll_rest_set = 0;
  bool rolling_held() const {
    return closed_contact >= 0 && ((roll_rest_set >> closed_contact) & 1u);
  }
};

// The outcome of one impact of a contact at (q, qdot-) (fixed capacity: no allocation).
struct ContactImpact {
  DofVector<double> qdot_plus;
  PlanarImpactResult planar;  // impulses (P_t, P_n), v+, dT in contact space (P_t = 0 frictionless)
  double kinetic_energy_change = kNaN;  // T+ - T- from qdot
};

// Accelerations and contact forces of a mode at (t, q, qdot), in double.
struct ContactDynamics {
  DofVector<double> qddot;
  double lambda_N = 0.0;   // normal force of the closed contact (0 without one)
  double lambda_T = 0.0;   // tangential force (-mu s lambda_N when slipping); in space: along t_1
  double lambda_T2 = 0.0;  // in space: the tangential force along t_2 (0 for planar contacts)
  double lambda_T3 = 0.0;  // in space with drilling: the drilling torque over l (0 without)
  // With rolling resistance: the rolling rows' multipliers f_R (the rolling torque about t_1, t_2
  // over mu_r; 0 without).
  double lambda_R1 = 0.0, lambda_R2 = 0.0;
  double B = kNaN;  // w_N^T M^-1 (w_N - mu s w_T) (closed, slip; s = 0 frictionless);
                    // w_N^T M^-1 w_N in stick; NaN without a closed contact; kind
                    // IndexSets: the normalised determinant of index_set_dynamics.hpp
  // Kind IndexSets: lambda_N, lambda_T of every contact (index = contact; 0 when not closed).
  // Modes with frictional compliant contacts: lambda_T_each[c] is the friction force of
  // compliant contact c along w_T (0 when inactive); lambda_N_each is then empty.
  DofVector<double> lambda_N_each, lambda_T_each;
  // Kind IndexSets with friction in space: each contact's tangential force along t_2, and its
  // drilling torque over l.
  DofVector<double> lambda_T2_each, lambda_T3_each;
};

// Every contact's force in a mode at (t, q, qdot), by contact index: the normal force (a closed
// rigid contact's multiplier, an active compliant contact's law force) and the tangential one
// (Coulomb friction; a contact in space: along its tangent t_1, and along t_2 in tangential_2);
// 0 where the contact carries none.
struct ContactForces {
  Vector normal, tangential, tangential_2;
  Vector drilling;  // with drilling friction: the drilling row's force (torque about n over l)
  // With rolling resistance: the rolling rows' forces f_R (torque about t_1, t_2 over mu_r).
  Vector rolling_1, rolling_2;
};

class LagrangianModel {
 public:
  LagrangianModel(std::string name, int n_dof);

  const std::string& name() const { return name_; }
  int dof() const { return n_; }

  // M(q): fn(q, M) with M preset to n x n zeros; generic in the scalar (double, Dual,
  // ChunkDual).
  template <class MassFn>
  void set_mass_matrix(MassFn fn) {
    mass_ = {mass_fn<double>(fn), mass_fn<Dual>(fn), mass_fn<ChunkDual>(fn)};
  }
  // h(t, q, qdot): fn(t, q, qdot, h) with h preset to zeros; generic in the scalar (double, Dual,
  // ChunkDual).
  template <class ForceFn>
  void set_forces(ForceFn fn) {
    forces_ = {force_fn<double>(fn), force_fn<Dual>(fn), force_fn<ChunkDual>(fn)};
  }
  // A rigid contact with gap g_N(q) and tangential coordinate s_T(q); returns its index.
  template <class Gap, class Tangent>
  int add_contact(std::string name, std::string body, Gap gap, Tangent tangent,
                  ContactImpactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.law = law;
    c.tangent = ConfigurationFunction(tangent);
    return push_contact(std::move(c));
  }
  // A rigid contact in space: gap g_N(q) and the rows eta_1(q), eta_2(q) of its slip velocity
  // along two orthonormal tangent directions of the surface (gamma_k = eta_k(q) qdot, the contact
  // point's velocity relative to the surface; generic callables fn(q, row) as ConstraintRow).
  template <class Gap, class Row1, class Row2>
  int add_spatial_contact(std::string name, std::string body, Gap gap, Row1 eta_1, Row2 eta_2,
                          ContactImpactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.law = law;
    c.slip = {ConstraintRow(eta_1), ConstraintRow(eta_2), ConstraintRow()};
    return push_contact(std::move(c));
  }
  // The same with drilling friction: eta_3 = l d(w . n)/dqdot (LagrangianContact::slip).
  template <class Gap, class Row1, class Row2, class Row3>
  int add_spatial_contact(std::string name, std::string body, Gap gap, Row1 eta_1, Row2 eta_2,
                          Row3 eta_3, ContactImpactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.law = law;
    c.slip = {ConstraintRow(eta_1), ConstraintRow(eta_2), ConstraintRow(eta_3)};
    return push_contact(std::move(c));
  }
  // Gives rigid contact i in space with friction rolling resistance: rho_k = mu_r d((R w) . t_k)
  // /dqdot (LagrangianContact::roll; generic callables fn(q, row) as ConstraintRow). validate()
  // refuses it on a contact without friction in space, or beside another rigid contact.
  template <class Row1, class Row2>
  void set_rolling_resistance(int i, Row1 rho_1, Row2 rho_2) {
    contact(i);  // throws for a bad index
    contacts_[static_cast<size_t>(i)].roll = {ConstraintRow(rho_1), ConstraintRow(rho_2)};
  }
  // A frictionless rigid contact (law kind NewtonFrictionless, or mu = 0 with any kind).
  template <class Gap>
  int add_contact(std::string name, std::string body, Gap gap, ContactImpactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.law = law;
    return push_contact(std::move(c));
  }
  // A compliant contact: push-out force f(delta, deltadot) along w_N while active, delta = -g_N,
  // deltadot = -w_N^T qdot (FORMULAS.md 3). Throws saltus::Error beyond kMaxCompliantContacts.
  template <class Gap>
  int add_compliant_contact(std::string name, std::string body, Gap gap, CompliantContactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.model = ContactModel::Compliant;
    c.compliant = law;
    return push_contact(std::move(c));
  }
  // A compliant contact with Coulomb friction law.mu along w_T = ds_T/dq^T (see the header
  // comment, "Friction on compliant contacts").
  template <class Gap, class Tangent>
  int add_compliant_contact(std::string name, std::string body, Gap gap, Tangent tangent,
                            CompliantContactLaw law) {
    LagrangianContact c = make_contact(std::move(name), std::move(body), gap);
    c.model = ContactModel::Compliant;
    c.compliant = law;
    c.tangent = ConfigurationFunction(tangent);
    return push_contact(std::move(c));
  }

  int contact_count() const { return static_cast<int>(contacts_.size()); }
  // Whether a rigid contact has Coulomb friction in space (LagrangianContact::spatial_frictional).
  bool has_spatial_friction() const;
  const LagrangianContact& contact(int i) const;
  // Indices of the compliant contacts in declaration order (bit j of a compliant mask = entry j).
  const std::vector<int>& compliant_contacts() const { return compliant_; }
  // Changes a rigid contact's impact law (e.g. to run one scene under every law); validated by
  // compile(). Throws for a compliant contact.
  void set_contact_law(int i, ContactImpactLaw law);
  // Gives rigid frictional contact i a Stribeck curve: its sliding coefficient mu_k(v) of the
  // slip speed v (LagrangianContact::stribeck); validated by compile(). Throws for another
  // contact.
  void set_stribeck(int i, ConfigurationFunction mu_of_slip_speed);
  // Gives rigid contact i a jump set (LagrangianContact::when). Throws for a compliant contact.
  void set_contact_when(int i, Guard::Condition when, std::string when_text);
  // Renames the coordinates after rigid contact i's impacts that leave it closed
  // (LagrangianContact::relabel): q+ = R(q) (one function per coordinate) and contact k becomes
  // contacts[k]. Throws saltus::Error naming the contact unless R is a symmetry of the model at
  // the `probes` configurations: contacts a permutation, R(R(q)) = q, M and h invariant
  // (P^T M(R q) P = M(q), P^T h(t, R q, P qdot) = h(t, q, qdot) with P = dR/dq), and every
  // contact's gap and tangent carried into its image's.
  void set_relabel(int i, std::vector<ConfigurationFunction> coordinates, std::vector<int> contacts,
                   const std::vector<Vector>& probes);
  // Changes a compliant contact's force law. Throws for a rigid contact.
  void set_compliant_law(int i, CompliantContactLaw law);

  // Evaluations at double precision. mass_matrix throws saltus::Error when M(q) is not SPD.
  Matrix mass_matrix(ConstVectorRef q) const;
  Vector forces(double t, ConstVectorRef q, ConstVectorRef qdot) const;
  double gap(int i, ConstVectorRef q) const;
  Vector gap_gradient(int i, ConstVectorRef q) const;      // w_N (column)
  Vector tangent_gradient(int i, ConstVectorRef q) const;  // w_T (column)
  double gap_acceleration_offset(int i, ConstVectorRef q, ConstVectorRef qdot) const;  // what_N
  double tangent_acceleration_offset(int i, ConstVectorRef q,
                                     ConstVectorRef qdot) const;  // what_T
  double kinetic_energy(ConstVectorRef q, ConstVectorRef qdot) const;
  // Push-out force f(delta, deltadot) of compliant contact i (as if active).
  double compliant_force(int i, ConstVectorRef q, ConstVectorRef qdot) const;
  // B = w_N^T M^-1 (w_N - mu s w_T) of rigid contact i sliding with s at (q, qdot), mu its
  // sliding coefficient at the slip speed (FORMULAS.md 11.1: the coefficient of lambda_N in
  // gddot_N); B <= 0 is a Painleve situation.
  double sliding_coefficient(int i, ConstVectorRef q, ConstVectorRef qdot, double s) const;
  // Accelerations and forces of a mode (LagrangianMode: closed contact, state, compliant set).
  ContactDynamics dynamics(const LagrangianMode& mode, double t, ConstVectorRef q,
                           ConstVectorRef qdot) const;
  // Every contact's force in a mode, from dynamics() and the compliant laws (contact_forces.cpp):
  // the one place the forces of a state are read out (the force columns of a run's outputs).
  ContactForces contact_forces(const LagrangianMode& mode, double t, ConstVectorRef q,
                               ConstVectorRef qdot) const;
  // The closed state rigid contact i would take at (t, q, qdot), assumed at g_N = gdot_N = 0,
  // with the compliant contacts of compliant_mask active (closing rule of the header comment;
  // kind None when it would lift off). tangential_rest: treat gdot_T as zero (the sliding speed
  // has just reached zero); otherwise |gdot_T| <= 1e-12 (1 + |w_T|_1 |qdot|_inf) counts as zero.
  // Throws the Painleve error (saltus::Error) when it would slip with B <= 0.
  LagrangianMode close_contact(int i, double t, ConstVectorRef q, ConstVectorRef qdot,
                               unsigned compliant_mask = 0, bool tangential_rest = false) const;
  // Normal force and qddot of rigid contact i held closed at (t, q, qdot), no compliant contact
  // active: frictionless, sliding with s = sign(gdot_T), or sticking when gdot_T = 0.
  double normal_force(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const;
  Vector closed_acceleration(int i, double t, ConstVectorRef q, ConstVectorRef qdot) const;

  // Applies rigid contact i's impact law at (q, qdot-); no heap allocation. Throws saltus::Error
  // for a vanishing gap gradient or a mass matrix that is not SPD; a jam is returned in
  // planar.status. WithoutCollision: Lecornu's impact without collision of the contact sliding
  // at gdot_N = 0 in the Painleve regime (routh_impact_process.hpp, impact_without_collision),
  // whatever the contact's law; no impulse for a frictionless contact.
  enum class ImpactKind { Collision, WithoutCollision };
  ContactImpact resolve_impact(int i, ConstVectorRef q, ConstVectorRef qdot_minus,
                               ImpactKind kind = ImpactKind::Collision) const;

  // Throws saltus::Error (model, body, contact, value) for invalid coefficients, a frictional
  // law without a tangential coordinate (rigid, or compliant with mu > 0), or missing M / h.
  void validate() const;
  // validate() plus: M(q) SPD and every gap gradient non-zero at q.
  void check_configuration(ConstVectorRef q) const;
  // x = (q, qdot) moved to the nearest state in the kinetic metric on g_N,i(q) = 0 of the rigid
  // contacts `contacts`, their normal rates w_N,i . qdot kept (the projection that keeps closed
  // contacts closed, closed_contact_projection.cpp): a start slightly inside a contact. Empty
  // when it converged; else why not, naming the contact ("... the initial state could not be
  // projected onto the contact's surface: gap ... after ... Newton steps").
  std::string project_onto_contacts(const std::vector<int>& contacts, VectorRef x) const;

  // "model 'm', body 'b', contact 'c'" for messages.
  const std::string& describe_contact(int i) const { return contact(i).description; }

  // Generic evaluations (S = double, Dual or ChunkDual) used by the compiled flows.
  template <class S>
  void eval_mass(const DofVector<S>& q, DofMatrix<S>& M) const {
    std::get<MassFn<S>>(mass_)(q, M);
  }
  template <class S>
  void eval_forces(const S& t, const DofVector<S>& q, const DofVector<S>& qdot,
                   DofVector<S>& h) const {
    std::get<ForceFn<S>>(forces_)(t, q, qdot, h);
  }

  struct Compiled;
  Compiled compile() const;

 private:
  template <class S>
  using MassFn = std::function<void(const DofVector<S>&, DofMatrix<S>&)>;
  template <class S>
  using ForceFn =
      std::function<void(const S&, const DofVector<S>&, const DofVector<S>&, DofVector<S>&)>;
  template <class S, class F>
  static MassFn<S> mass_fn(F fn) {
    return [fn](const DofVector<S>& q, DofMatrix<S>& M) { fn(q, M); };
  }
  template <class S, class F>
  static ForceFn<S> force_fn(F fn) {
    return [fn](const S& t, const DofVector<S>& q, const DofVector<S>& qd, DofVector<S>& h) {
      fn(t, q, qd, h);
    };
  }

  template <class Gap>
  LagrangianContact make_contact(std::string name, std::string body, Gap gap) const {
    LagrangianContact c;
    c.name = std::move(name);
    c.body = std::move(body);
    c.gap = ConfigurationFunction(gap);
    return c;
  }
  int push_contact(LagrangianContact c);
  // validate() of rigid contact i in space: its law is newton or newton_coulomb, and with
  // friction it is the model's only contact.
  void validate_spatial_contact(int i) const;

  std::string name_;
  int n_ = 0;
  std::vector<LagrangianContact> contacts_;
  std::vector<int> compliant_;
  std::tuple<MassFn<double>, MassFn<Dual>, MassFn<ChunkDual>> mass_;
  std::tuple<ForceFn<double>, ForceFn<Dual>, ForceFn<ChunkDual>> forces_;
};

namespace detail {
struct CompiledLagrangian;  // shared by the compiled callables (src/mech/compiled_lagrangian.hpp)
}

// The hybrid system of a model and its mode table.
struct LagrangianModel::Compiled {
  HybridSystem system;
  ModeId free = kNoMode;              // no closed contact, no compliant contact active
  std::vector<ModeId> closed;         // per contact: frictionless closed mode (else kNoMode)
  std::vector<ModeId> slip_positive;  // per contact: frictional closed modes (else kNoMode)
  std::vector<ModeId> slip_negative;
  std::vector<ModeId> stick;
  std::vector<LagrangianMode> modes;  // what each ModeId holds
  std::shared_ptr<detail::CompiledLagrangian> context;

  // Sets rigid contact i's impact law in this compiled system and in every copy of it (their
  // callables read the law from `context` at each impact and closed-contact evaluation): a
  // model's coefficient that follows a run-time parameter (model/runtime_contact_laws.hpp).
  // Set it between runs. The setter returns false once the system is gone; it throws
  // saltus::Error, changing nothing, for a compliant contact, an invalid law, or a law that
  // would make a frictional contact frictionless or the reverse (the modes depend on it).
  using ContactLawSetter = std::function<bool(int, const ContactImpactLaw&)>;
  ContactLawSetter contact_law_setter() const;

  // The mode holding `mode`, or kNoMode.
  ModeId find(const LagrangianMode& mode) const;
  // A mode consistent with the state x = (q, qdot) at t: compliant contacts with g_N < 0 (and,
  // for force release, f > 0) active, frictional ones sliding with s = sign(gdot_T), or by the
  // cone test at gdot_T = 0; the first rigid contact with |g_N| and |gdot_N| below
  // 1e-12 (1 + |x|) closed by close_contact(); else no closed contact. Throws saltus::Error
  // when two or more rigid contacts would close (no mode holds them yet).
  ModeId initial_mode(double t, ConstVectorRef x) const;
  // The mode of x at t with every rigid contact open (compliant contacts as initial_mode takes
  // them): where several motions are consistent at a Painleve situation and the free motion is
  // one of them, the motion the compliant limit selects (bridge/bridged_run.hpp).
  ModeId open_mode(double t, ConstVectorRef x) const;
  // The model compiled (shared with the compiled callables).
  const LagrangianModel& model() const;
};

}  // namespace saltus::mech
