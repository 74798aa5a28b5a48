// What the compiled callables of a LagrangianModel share (internal to src/mech): the model and
// the table from LagrangianMode to ModeId; the guard builders split over several files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {

struct CompiledLagrangian {
  explicit CompiledLagrangian(const LagrangianModel& m) : model(m), n(m.dof()) {
    for (int c : m.compliant_contacts()) {
      place.push_back(configurations);
      configurations *= m.contact(c).compliant_frictional() ? 4u : 2u;
    }
    table.assign(static_cast<size_t>(m.contact_count() + 1) * kKinds * 2 * configurations, kNoMode);
  }
  static constexpr int kKinds = 8;  // ClosedKind values below IndexSets

  // The compliant contacts' states as one number in mixed radix: digit j is 0 (inactive) or 1
  // (active) for a frictionless compliant contact; 0, 1 (slip+), 2 (slip-) or 3 (stick) for a
  // frictional one. Without friction the code is compliant_mask itself. `configurations` when
  // the mode's compliant fields hold no such state.
  unsigned configuration(const LagrangianMode& mode) const {
    const unsigned count = static_cast<unsigned>(place.size());
    const unsigned friction = mode.compliant_stick | mode.compliant_slip_negative;
    if ((mode.compliant_mask >> count) != 0 || (friction & ~mode.compliant_mask) != 0 ||
        (mode.compliant_stick & mode.compliant_slip_negative) != 0) {
      return configurations;
    }
    unsigned code = 0;
    for (unsigned j = 0; j < count; ++j) {
      const unsigned bit = 1u << j;
      if (!(mode.compliant_mask & bit)) continue;
      const bool frictional = model.contact(model.compliant_contacts()[j]).compliant_frictional();
      if (!frictional && (friction & bit)) return configurations;
      const unsigned digit =
          (mode.compliant_stick & bit) ? 3u : ((mode.compliant_slip_negative & bit) ? 2u : 1u);
      code += digit * place[j];
    }
    return code;
  }
  // The mode without a closed rigid contact whose compliant contacts are in state `code`.
  LagrangianMode open_configuration(unsigned code) const {
    LagrangianMode mode{-1, ClosedKind::None, 0};
    for (size_t j = 0; j < place.size(); ++j) {
      const bool frictional = model.contact(model.compliant_contacts()[j]).compliant_frictional();
      const unsigned digit = (code / place[j]) % (frictional ? 4u : 2u), bit = 1u << j;
      if (digit != 0) mode.compliant_mask |= bit;
      if (digit == 2) mode.compliant_slip_negative |= bit;
      if (digit == 3) mode.compliant_stick |= bit;
    }
    return mode;
  }

  // The closed contact, its kind, whether its rolling is held (rolling resistance) and the
  // compliant contacts' states, in mixed radix.
  size_t key(const LagrangianMode& mode, unsigned code) const {
    return ((static_cast<size_t>(mode.closed_contact + 1) * kKinds +
             static_cast<size_t>(mode.kind)) *
                2 +
            (mode.rolling_held() ? 1u : 0u)) *
               configurations +
           code;
  }
  void add(const LagrangianMode& mode, ModeId id) {
    if (mode.kind == ClosedKind::IndexSets) {
      index_set_modes.push_back({mode, id});
    } else {
      table[key(mode, configuration(mode))] = id;
    }
  }
  ModeId find(const LagrangianMode& mode) const {
    const unsigned code = configuration(mode);
    if (mode.closed_contact < -1 || mode.closed_contact >= model.contact_count() ||
        code >= configurations) {
      return kNoMode;
    }
    if (mode.kind == ClosedKind::IndexSets) {
      for (const auto& [m, id] : index_set_modes) {
        if (m.closed_set == mode.closed_set && m.stick_set == mode.stick_set &&
            m.slip_negative_set == mode.slip_negative_set &&
            m.compliant_mask == mode.compliant_mask) {
          return id;
        }
      }
      return kNoMode;
    }
    return table[key(mode, code)];
  }
  ModeId open(unsigned mask) const { return find({-1, ClosedKind::None, mask}); }
  // What mode `id` holds (the inverse of find(); a relabel renames its contacts).
  LagrangianMode mode_of(ModeId id) const {
    for (const auto& [m, k] : index_set_modes) {
      if (k == id) return m;
    }
    for (size_t key = 0; key < table.size(); ++key) {
      if (table[key] != id) continue;
      LagrangianMode mode = open_configuration(static_cast<unsigned>(key % configurations));
      const size_t rest = key / configurations;
      mode.kind = static_cast<ClosedKind>((rest / 2) % kKinds);
      mode.closed_contact = static_cast<int>(rest / 2 / kKinds) - 1;
      if (rest % 2) mode.roll_rest_set = 1u << mode.closed_contact;
      return mode;
    }
    return {};
  }

  LagrangianModel model;
  int n;
  unsigned configurations = 1;  // number of compliant-contact states (see configuration())
  std::vector<unsigned> place;  // per compliant contact: the place value of its digit
  std::vector<ModeId> table;    // key(mode) -> ModeId (modes with at most one closed contact)
  std::vector<std::pair<LagrangianMode, ModeId>> index_set_modes;  // kind IndexSets
};

using Context = std::shared_ptr<const CompiledLagrangian>;

// `inner`, a reset of contact d's impacts, followed by d's relabel when the impact leaves d
// closed (contact_relabel.cpp): x+ renamed, the mode's contacts renamed.
Reset relabelled(const Context& ctx, int d, Reset inner);
// R(q) into q_plus and P = dR/dq (row i: the gradient of R_i) of a relabel at q.
void relabel_map(const std::vector<ConfigurationFunction>& R, const DofVector<double>& q,
                 DofVector<double>& q_plus, DofMatrix<double>& P);

// Whether contact c's impacts have an exact derivative (impact_jacobian.cpp): Newton's law, the
// Newton-Coulomb law, or any frictionless law (they coincide with Newton's).
bool has_exact_impact_jacobian(const LagrangianContact& c);
// dx+/dx- of contact d's impact from `from` (with its relabel), by AD of the solved active set;
// `apply`: the reset's own, whose answer the active set must reproduce (else saltus::Error).
Reset::Jacobian impact_jacobian(const Context& ctx, int d, const LagrangianMode& from,
                                Reset::Apply apply);

// Gives guard g, whose value is sign * g_N(q) of contact d, the gap's enclosure (the certified
// event search) when the contact's gap has one, and declares the coordinates it reads.
inline void enclose_gap_guard(Guard& g, const Context& ctx, int d, double sign) {
  const ConfigurationFunction& gap = ctx->model.contact(d).gap;
  if (!gap.encloses()) return;
  g.enclosure = [ctx, d, sign](const IntervalJet&, const IntervalJet* x, int) {
    const IntervalJet value = ctx->model.contact(d).gap.enclose(x, ctx->n);
    return sign < 0.0 ? -value : value;
  };
  g.reads_states = gap.reads();
}

// The friction state compliant contact number j (in compliant order) takes in `mode` at
// (t, q, qdot) (compliant_contact_guards.cpp): unchanged when it is inactive or frictionless;
// sliding with s = sign(gdot_T) when |gdot_T| > 1e-12 sum_k |w_T,k qdot_k| and not
// `tangential_rest`; else sticking when its stick force lies in the cone |lambda_T| <= mu f+,
// otherwise sliding with s = -sign(lambda_T).
LagrangianMode choose_compliant_friction(const LagrangianModel& m, LagrangianMode mode, size_t j,
                                         double t, ConstVectorRef q, ConstVectorRef qdot,
                                         bool tangential_rest);

// choose_compliant_friction for every compliant contact of `mode`, in order.
LagrangianMode choose_compliant_frictions(const LagrangianModel& m, LagrangianMode mode, double t,
                                          ConstVectorRef q, ConstVectorRef qdot);

// The name of the first active compliant contact with friction in `mode` ("" when none).
std::string first_frictional_compliant(const LagrangianModel& m, const LagrangianMode& mode);

// The mode without a closed rigid contact that follows a jump (an impact) from `from` to
// (q, qdot+): the same active compliant contacts, the frictional ones in the state the new
// velocities give (compliant_contact_guards.cpp).
ModeId open_after_jump(const CompiledLagrangian& ctx, const LagrangianMode& from, double t,
                       ConstVectorRef q, ConstVectorRef qdot_plus);

// True, with jump.failure naming rigid contact d and the frictional compliant contact, when
// `from` has an active compliant contact with friction: d may not close there
// (compliant_contact_guards.cpp).
bool refuse_closing(const CompiledLagrangian& ctx, const LagrangianMode& from, int d, double t,
                    Jump& jump);

// Guards of the compliant contacts in a mode (compliant_contact_guards.cpp): "touch:<j>" /
// "release:<j>", and for the active frictional ones "stick:<j>" while sliding, "slip+:<j>" /
// "slip-:<j>" while sticking.
void add_compliant_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode);

// The impact guard "impact:<d>" of rigid contact d open in `from`, with its reset: d's impact law
// alone, or several contacts' impacts as one jump, and the contact closing when it comes to rest
// (impact_resets.cpp).
Guard impact_guard(const Context& ctx, int d, const LagrangianMode& from);

// The reset of the dynamic jam of contact ci sliding with s: Lecornu's impact without collision,
// then the contact closes by its forces (impact_resets.cpp).
Reset lecornu_reset(const Context& ctx, int ci, double s, const LagrangianMode& from);
// The same for a contact sliding in space (impact_resets.cpp).
Reset spatial_lecornu_reset(const Context& ctx, int ci, unsigned mask);

// Guards of a mode holding one rigid contact closed (closed_contact_guards.cpp): "painleve:<c>"
// while sliding, "lift-off:<c>", "stick:<c>" while sliding, "slip+:<c>" / "slip-:<c>" while
// sticking; in "post-zeno:<c>" the one guard "index-sets:<c>" that closes c by its forces.
void add_closed_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                               const LagrangianMode& mode);

// One rigid contact with friction in space (spatial_contact_guards.cpp): the closed state it takes
// at (t, q, qdot), assumed at g_N = gdot_N = 0 (stick when at rest, or `at_rest`, and the stick
// forces lie in the cone; else slip; open when lambda_N <= 0; a slip with B <= 0 throws
// ContactStopError naming it; with rolling resistance close_rolling_contact decides, its rolling
// at rest when `roll_at_rest` or within round-off); the guards of its sliding and sticking modes;
// the projection of a mode that holds rows (g_N, gdot_N and the held slip and rolling rates kept).
LagrangianMode close_spatial_contact(const LagrangianModel& m, int i, double t, ConstVectorRef q,
                                     ConstVectorRef qdot, unsigned mask, bool at_rest,
                                     bool roll_at_rest = false);
void add_spatial_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                const LagrangianMode& mode);
InvariantProjection spatial_contact_projection(const Context& ctx, const LagrangianMode& mode);

// Shared by the guards of one contact in space (spatial_contact_guards.cpp):
// "stick:<c>" (the slip speed falls to rest: the slip removed, then close_spatial_contact);
// "slip:<c>" (the stick force reaches the cone: into `slip`, started by start_from_rest);
// stop_reset: the slip's (or with `rolling`, the rolling's) rates removed, then the contact closed
// by close_spatial_contact with them at rest (and the other part at rest where the mode holds it);
// start_from_rest: the jump into `target` of the slip (or with `rolling`, the rolling) from rest,
// started at a small speed along minus the force that `held` gave it (onset_slip_speed).
void add_slip_stop_guard(HybridSystem& sys, ModeId id, const Context& ctx,
                         const LagrangianMode& mode);
void add_slip_onset_guard(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode, ModeId slip);
Reset stop_reset(const Context& ctx, ModeId id, const LagrangianMode& mode, bool rolling);
Reset start_from_rest(const Context& ctx, int ci, const LagrangianMode& held, ModeId target,
                      bool rolling);

// A contact in space with rolling resistance (spatial_rolling_contact.cpp): its closed state at
// (t, q, qdot), the slip and the rolling each held or moving, by the first consistent candidate
// (header comment there); and the guards of its four modes.
LagrangianMode close_rolling_contact(const LagrangianModel& m, int i, double t, ConstVectorRef q,
                                     ConstVectorRef qdot, unsigned mask, bool slip_at_rest,
                                     bool roll_at_rest);
void add_rolling_contact_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                const LagrangianMode& mode);

// Several rigid contacts in a model with friction in space (spatial_index_set_choice.cpp): the
// next closed, sticking and sliding contacts after an event, by the flow's own dynamics, and the
// velocity they start from (the resting contacts' residual slip removed; a slip from rest started
// along -lambda_T). `closed`: the contacts the event leaves closed; every other rigid contact
// touching at rest joins. must_open: contacts that lift off; must_slip: contacts whose stick force
// reached the cone; at_rest: contacts whose slip reached rest; held: contacts the mode before held
// sticking. False with `failure` (Painleve: no
// consistent state, or two that move the system differently).
// Rows whose rates a velocity change sets (targets for w . qdot), and the smallest change in the
// kinetic metric that sets them: qdot + M^-1 W G^+ (target - W^T qdot), G = W^T M^-1 W by complete
// orthogonal decomposition (dependent rows of a face's corners; spatial_index_set_choice.cpp).
struct RateRows {
  std::vector<DofVector<double>> w;
  std::vector<double> target;
  void add(const DofVector<double>& row, double value) {
    w.push_back(row);
    target.push_back(value);
  }
};
DofVector<double> with_rates(const LagrangianModel& m, const DofVector<double>& q,
                             DofVector<double> qd, const RateRows& rows);

struct SpatialSetsEvent {
  unsigned closed = 0, must_open = 0, must_slip = 0, at_rest = 0;
  unsigned held = 0;  // contacts the mode before held sticking (at rest whatever their round-off)
};
// The decisions choose_spatial_sets took: the contacts taking part and those at rest in the
// tangent plane, the chosen closed, sticking and slipping-from-rest ones with each start's speed,
// and whether the cone contact problem chose (its velocity is not rebuilt from these).
struct SpatialChoiceTrace {
  unsigned touching = 0, rest = 0, closed = 0, stick = 0, onset = 0;
  std::vector<double> onset_speed;
  bool by_cone_problem = false;
};
bool choose_spatial_sets(const LagrangianModel& m, double t, ConstVectorRef q, VectorRef qdot,
                         const SpatialSetsEvent& event, unsigned mask, const double* state_scales,
                         const double* state_atol, LagrangianMode& out, std::string& failure,
                         SpatialChoiceTrace* trace = nullptr);
// The velocity choose_spatial_sets leaves at (q, qd) with the decisions of `trace` held (not one
// of the cone contact problem): the resting contacts' slip removed, the touching normal rates
// kept, the slips from rest started. For the derivative of the jump (spatial_index_set_guards.cpp).
DofVector<double> continued_velocity(const LagrangianModel& m, double t, const DofVector<double>& q,
                                     const DofVector<double>& qd, const SpatialChoiceTrace& trace,
                                     unsigned mask);
// Where no candidate of choose_spatial_sets is consistent (spatial_contact_problem_choice.cpp):
// the closed, sticking and sliding contacts among `touching` (those of `rest` at rest in the
// tangent plane) from the cone contact problem at the acceleration level, qd changed as
// choose_spatial_sets changes it (onset: per contact, the slip speed a slip from rest starts at,
// onset_slip_speed). False with `failure` when that problem has no answer or several.
bool choose_by_cone_problem(const LagrangianModel& m, double t, const DofVector<double>& q,
                            DofVector<double>& qd, unsigned touching, unsigned rest,
                            const std::vector<double>& onset, unsigned mask, LagrangianMode& out,
                            std::string& failure);
// The guards of a mode of kind IndexSets in such a model (spatial_index_set_guards.cpp):
// "painleve:<set>" while a contact slides, "lift-off:<c>", "stick:<c>" for a sliding contact,
// "slip:<c>" for a sticking one; and the projection of its closed and sticking contacts.
void add_spatial_index_set_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                                  const LagrangianMode& mode);
InvariantProjection spatial_index_set_projection(const Context& ctx, const LagrangianMode& mode);
// An event's jump continued by choose_spatial_sets from jump.x_plus (its velocity changed as it
// chooses), into the chosen mode; false with a failure (cause Painleve) when none is consistent or
// the chosen contacts have no mode. And a reset that does so from x unchanged.
bool continue_spatial_sets(const CompiledLagrangian& ctx, double t, ConstVectorRef q,
                           const SpatialSetsEvent& event, unsigned mask, Jump& jump);
Reset spatial_sets_reset(const Context& ctx, ModeId self, const SpatialSetsEvent& event,
                         unsigned mask);

// The rigid contacts a mode holds closed, as bits (contact i: bit i).
inline unsigned closed_bits(const LagrangianMode& mode) {
  if (mode.kind == ClosedKind::IndexSets) return mode.closed_set;
  if (mode.kind == ClosedKind::None || mode.kind == ClosedKind::PostZeno) return 0;
  return 1u << mode.closed_contact;
}

// The modes of kind IndexSets for the rigid contacts `rigid` and one compliant mask: every set of
// two or more of them up to dof() members, each frictional member sticking or sliding either way
// (index_set_modes.cpp). Throws beyond 4096 such modes.
void add_index_set_modes(const LagrangianModel& m, const std::vector<int>& rigid, unsigned mask,
                         std::vector<LagrangianMode>& modes);

// Guards of a mode of kind IndexSets: lift-off, stick, slip and Painleve per closed contact
// (index_set_modes.cpp).
void add_index_set_guards(HybridSystem& sys, ModeId id, const Context& ctx,
                          const LagrangianMode& mode);

// A safeguard of models with several rigid contacts (index_set_modes.cpp): "penetration:<d>",
// p = -g_N,d rising past kPenetrationLimit of its scale (Guard::scale_offset: sum_k |w_N,k| S_q,k
// from the run's state scales; it was 1e-9 m, a length in any unit), ends the run with a status
// naming the contact, t and the gap: an impact of d was missed (a guard that started a hair inside
// its surface, at the noise level of a Zeno point) and the run would otherwise go on through the
// surface.
inline constexpr double kPenetrationLimit = 1e-9;
Guard penetration_guard(const Context& ctx, int d, ModeId self);

// Zeno hand-over of a model with several rigid contacts (closed_contact_projection.cpp): the limit
// state projected onto g_N = 0, gdot_N = 0 of the contacts of `closed` and of every rigid contact
// whose gap at the limit state is below kPostZenoGapBand of its scale (contact_tolerances.hpp;
// project_onto_contacts below). A limit state with
// a contact deeper than that band is left unchanged, and the index-sets guard ends the run naming
// it (the engine's extrapolation of a "pattern" of events at one instant can be far off).
ZenoHandover::Apply post_zeno_projection(const Context& ctx, unsigned closed);

// Zeno hand-over of a model with one rigid contact ci (closed_contact_projection.cpp): the limit
// state projected onto g_N = 0 and gdot_N = 0 of ci; no post-Zeno state (a failure naming the
// contact) when the gap does not come within kImpactGapBand of its scale.
ZenoHandover::Apply zeno_projection(const Context& ctx, int ci);

// The guard "index-sets" of "post-zeno" (entered by the Zeno hand-over): fires at once and closes
// the rigid contacts touching at rest (g_N <= kImpactGapBand, |gdot_N| <= kPostZenoRestRate of
// their scales, contact_tolerances.hpp) by the contact-force LCP over them, those with |gdot_T| <=
// kPostZenoRestRate of its scale as sticking candidates.
void add_index_sets_guard(HybridSystem& sys, ModeId id, const Context& ctx, unsigned mask);

struct ContactScales;

// How project_onto_contacts' Newton steps on the positions stop and when they have converged: at
// least min_steps and at most max_steps, stopping once every gap is within its band of its
// target. The band: with `scales`, kImpactGapBand of the gap's scale (contact_tolerances.hpp), to
// stop and to accept; without, 1e-15 of the row's own scale sum_k |w_k q_k| (+ |target|) to stop
// and 1e-10 of it to accept. With min_steps = 0 a state already on the contacts (to 1e-15 of
// those scales, the rates to 1e-15 of sum_k |w_k qdot_k|) is returned unchanged.
struct ProjectionSteps {
  int min_steps = 0;
  int max_steps = 6;
  const ContactScales* scales = nullptr;
};

// The one projection onto rigid contacts (closed_contact_projection.cpp): the closed modes' after
// every step, the Zeno hand-overs', the initial state's. Moves (q, qdot) to the nearest state in
// the kinetic metric with g_N,i(q) = g_target over the `normal` contacts (Newton steps along
// M^-1 W_N) and V^T qdot = rate_target, V = [W_N of `normal`, W_T of `tangential`] (one linear
// step). One row is solved in closed form; several, dependent ones included (two sticking corners
// on flat ground), by complete orthogonal decomposition. False when the positions do not
// converge (q and qdot unchanged) or the result is not finite, with *failure (when given) naming
// the contact furthest from its target, its gap and the steps taken ("<contact>: <what> could not
// be projected onto the contact's surface: gap ... after ... Newton steps").
bool project_onto_contacts(const LagrangianModel& m, const std::vector<int>& normal,
                           const std::vector<int>& tangential, ConstVectorRef g_target,
                           ConstVectorRef rate_target, VectorRef q, VectorRef qdot,
                           const ProjectionSteps& rule = {}, std::string* failure = nullptr,
                           const char* what = "the state");

// The invariants of a mode holding rigid contacts closed, kept by projection after every
// accepted step: g_N and gdot_N of each closed contact, gdot_T of each sticking one.
InvariantProjection closed_contact_projection(const Context& ctx, const LagrangianMode& mode);

}  // namespace saltus::mech::detail
