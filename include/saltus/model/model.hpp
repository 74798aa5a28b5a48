// A model read from a model file: parameters, states, modes (flows, guards, resets, post-Zeno
// hand-over), the initial condition, and how to simulate it (docs/MODEL_FORMAT.md).
//
// Every expression is already parsed into the model's ExpressionGraph (expression_graph.hpp) with
// the parameters folded in, so a Model is immutable once loaded, except for the values of its
// run-time parameters (LoadOptions::runtime_parameters, runtime_parameters.hpp), which its tapes
// read at each call; model_system.hpp derives the Jacobians symbolically and compiles tapes
// (tape.hpp) to build a HybridSystem.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "saltus/core/flow.hpp"
#include "saltus/core/guard.hpp"
#include "saltus/core/types.hpp"
#include "saltus/lang/expression_graph.hpp"
#include "saltus/mech/compliant_contact_law.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/model/drawing.hpp"
#include "saltus/sim/simulation_options.hpp"

namespace saltus::lang {
struct Tape;
}  // namespace saltus::lang

namespace saltus::model {

struct RuntimeContactLaws;  // runtime_contact_laws.hpp

// A named number with an optional unit: a parameter (value), a state (initial value) or an
// algebraic state (its guess for the first consistent initialisation).
struct Quantity {
  std::string name;
  double value = 0.0;
  std::string unit;  // free text, "" when not given; shown on plot axes
};

// x_state+ = value(t, x-, z-) in a reset.
struct Assignment {
  int state = 0;
  lang::NodeId value = lang::kNoNode;
};

// Where a guard's event continues: the target mode and the reset into it, taken when `when`
// holds at the pre-event state (kNoNode: always).
struct ModelTarget {
  lang::NodeId when = lang::kNoNode;  // a condition c(t, x-, z-): holds when its value is not 0
  std::string when_text;              // as written, for messages
  int target = -1;
  std::vector<Assignment> reset;  // states not listed keep their value
};

struct ModelGuard {
  std::string name;
  Direction direction = Direction::Rising;
  lang::NodeId value = lang::kNoNode;  // p(t, x, z)
  // The first target whose condition holds is taken; none: the run stops with a status naming
  // the guard and the state. A guard with `target`/`reset` keys has one target, unconditional.
  std::vector<ModelTarget> targets;
  // Its jump set (`when`): a condition c(t, x, z) that must hold where the guard would fire;
  // kNoNode: everywhere (core/guard.hpp Guard::when).
  lang::NodeId when = lang::kNoNode;
  std::string when_text;  // as written, for messages
  bool terminal = false;
  // Guards lowered from a mode's `jump_set` or `flow_set` fire wherever the state is inside
  // their set, at t0 and after jumps, not only at crossings (core/guard.hpp Guard::SetRule).
  Guard::SetRule set_rule = Guard::SetRule::Crossings;
  int exclusive_group = -1;  // the jump set's guards: one jump per round (Guard::exclusive_group)
  // Not empty: a guard lowered from a mode's `flow_set` (HyEQ's C) that fires where the state
  // leaves C outside D; its reset fails with this text (the run stops, ResetFailed).
  std::string stop_message;
  // Its `terminate` / `terminate_after`: index into Model::terminations (-1: none). The modes a
  // mode with switches is split into keep the index, so they share one count of events.
  int terminate = -1;
  // Values reported with each event (events.csv), functions of the pre-event state.
  std::vector<std::string> output_names;
  std::vector<lang::NodeId> outputs;
  // A level as a fraction of the guard's scale (core/guard.hpp Guard::scale_offset): the loader's
  // guards that watch a switching surface crossed by more than round-off.
  double scale_offset = 0.0;
};

struct ModelZenoHandover {
  int target = -1;
  std::vector<Assignment> reset;  // applied to the extrapolated limit state
};

// A jump of a flow that the model integrates as written (`[solver] switching = "smooth"`, or a
// sign() or comparison in a mechanical model's forces): its switching function, watched by the
// run for chattering (core/discontinuity.hpp).
struct ModelDiscontinuity {
  std::string text;  // the switch as written, e.g. "sign(v - vb)"
  lang::NodeId h = lang::kNoNode;
};

struct ModelMode {
  std::string name;
  FlowKind kind = FlowKind::Ode;
  // Ode and SemiExplicitDae: x'_i = flow[i]. ImplicitDae: 0 = flow[i] (reads x').
  std::vector<lang::NodeId> flow;
  std::vector<Quantity> algebraic;        // z of this mode (value: initial guess)
  std::vector<lang::NodeId> constraints;  // 0 = g_k(t, x, z), one per algebraic state
  std::vector<ModelGuard> guards;
  std::optional<ModelZenoHandover> zeno;
  std::vector<ModelDiscontinuity> discontinuities;
  // A sliding mode of a flow written with sign() (loader/switching_modes.cpp): its surface h = 0
  // and the regions on its two sides (h > 0: plus, h < 0: minus), for the equilibrium analysis
  // (analysis/equilibrium.hpp). Empty for every other mode.
  struct SlidingSurface {
    lang::NodeId h = lang::kNoNode;
    int plus = -1, minus = -1;
  };
  std::optional<SlidingSurface> sliding;
};

// A unilateral contact of a mechanical model ([[contacts]]).
struct ModelContact {
  std::string name;
  std::string body;
  lang::NodeId gap = lang::kNoNode;      // g_N(q) >= 0 (open)
  lang::NodeId tangent = lang::kNoNode;  // s_T(q), its gradient is w_T; kNoNode: frictionless
  bool compliant = false;  // true: compliant_law (a force in the flow); false: rigid impact law
  mech::ContactImpactLaw rigid_law;
  mech::CompliantContactLaw compliant_law;
  // A rigid law's e, mu, mu_s and e_t written as expressions of run-time parameters (kNoNode:
  // the number in rigid_law, fixed when loaded); they follow set_runtime_parameter
  // (runtime_contact_laws.hpp), rigid_law holds their values at load.
  lang::NodeId e_expression = lang::kNoNode;
  lang::NodeId mu_expression = lang::kNoNode;
  lang::NodeId mu_s_expression = lang::kNoNode;
  lang::NodeId e_t_expression = lang::kNoNode;
  // A rigid frictional contact's Stribeck curve: its sliding coefficient as a function of the slip
  // speed, state 0 of this tape (fixed when loaded); null: rigid_law.mu.
  std::shared_ptr<const lang::Tape> stribeck;
  // `when`: the contact's jump set, a condition of t, q and q' (mech::LagrangianContact::when);
  // kNoNode: always.
  lang::NodeId when = lang::kNoNode;
  std::string when_text;
  // `relabel`: the coordinates after an impact that leaves the contact closed, q_i+ =
  // relabel[i](q) in coordinate order (mech::LagrangianContact::relabel); empty: none.
  std::vector<lang::NodeId> relabel;
  // Lines in the model file (0: not written there, or given by --set) of the [[contacts]] table
  // and of its e, e_t, mu and mu_s, for the messages of values refused at run time.
  struct Lines {
    int table = 0, e = 0, e_t = 0, mu = 0, mu_s = 0, relabel = 0;
  } lines;
  // painleve = "bridge" (0) or "stop" (1); -1: not given, the model's [mechanics] painleve holds
  // (bridge/bridged_run.hpp).
  int painleve = -1;
  // A contact on a point of a [[bodies]] body (loader/body_point_gap.cpp): the point (body
  // axes), the plane n . x = d, a sphere's radius, a disk's rim and axis and an ellipsoid's
  // semi-axes (kNoNode: none), for drawing the body (run/body_frames.cpp).
  struct BodyPoint {
    std::array<lang::NodeId, 3> point{};
    std::array<lang::NodeId, 4> plane{};
    lang::NodeId radius = lang::kNoNode, rim = lang::kNoNode;
    std::array<lang::NodeId, 3> axis{};
    std::array<lang::NodeId, 3> ellipsoid{lang::kNoNode, lang::kNoNode, lang::kNoNode};
  };
  std::optional<BodyPoint> body_point;
  // A frictional contact on a body point (loader/body_point_slip.cpp): the contact point's slip
  // velocities gamma_1, gamma_2 (functions of q and q', linear in q') along two orthonormal
  // tangent directions of the plane, and with `drilling = l` a third, l times the body's spin
  // about the plane's normal; kNoNode: none (planar friction takes `tangent`).
  std::array<lang::NodeId, 3> slip{lang::kNoNode, lang::kNoNode, lang::kNoNode};
  lang::NodeId drilling = lang::kNoNode;  // l, the drilling radius (a length)
  // With `rolling = mu_r` (a length): the rolling rates mu_r (R w) . t_k about the same tangent
  // directions (rolling resistance, mech::LagrangianContact::roll); kNoNode: none.
  std::array<lang::NodeId, 2> roll{lang::kNoNode, lang::kNoNode};
  lang::NodeId rolling = lang::kNoNode;  // mu_r, the rolling resistance (a length)
};

// [coordinates], [mechanics] and [[contacts]]: a Lagrangian model M(q) q'' = h(t, q, q') + contact
// forces. The states are the coordinates q, then their velocities q' (named "q'"). M and h are
// derived symbolically from L = T - V when the file is loaded (docs/MODEL_FORMAT.md).
struct ModelMechanics {
  int dof = 0;
  lang::NodeId kinetic_energy = lang::kNoNode;
  lang::NodeId potential_energy = lang::kNoNode;
  std::vector<std::vector<lang::NodeId>> mass;  // M_ij = d^2 T / dq'_i dq'_j, functions of q
  std::vector<lang::NodeId> forces;  // h_i = dL/dq_i - (d/dq dL/dq'_i) q' - d/dt dL/dq'_i + Q_i
  // Q_i of [mechanics] forces as written (constant 0 where none is given); h includes them.
  std::vector<lang::NodeId> applied_forces;
  std::vector<ModelContact> contacts;
  // [[bodies]]: each spatial body's name and, for a free rotation (its three Euler angles
  // coordinates), the coordinate of theta (the ZXZ chart's pole is sin(theta) = 0, watched in
  // every mode: mechanical_system.cpp); -1 for a revolute joint or other given angles.
  struct Body {
    std::string name;
    int theta = -1;
    // Its centre of mass (world) and rotation (body axes to world), expressions of q
    // (run/body_frames.cpp writes them along a run for `saltus animate`).
    std::array<lang::NodeId, 3> centre{};
    std::array<std::array<lang::NodeId, 3>, 3> rotation{};
  };
  std::vector<Body> bodies;
  // Jumps of the forces (sign(), comparisons, if()), in every mode's flow.
  std::vector<ModelDiscontinuity> discontinuities;
  // [mechanics] painleve = "stop": a stop with no event-driven answer (Painleve, an impact
  // without a rigid answer, an event cap) ends the run as it is instead of going on through a
  // Moreau-Jean stretch ("bridge", the default; bridge/bridged_run.hpp).
  bool painleve_stop = false;
  // Constraints linear in the velocities, eta^a(q) q' = 0 ([mechanics] constraints): row a is
  // d(constraint a)/dq', functions of q. With any, the model is a mech::NonholonomicModel and
  // its contacts are walls with Clark and Bloch's impact map.
  std::vector<std::string> constraint_names;
  std::vector<std::vector<lang::NodeId>> constraint_rows;
};

// A Poincare section ([[sections]]): an observer added to every mode, recorded in the event log
// (guard = its name) once per crossing in its direction; no jump.
struct ModelSection {
  std::string name;
  Direction direction = Direction::Rising;
  lang::NodeId value =
      lang::kNoNode;    // s(t, x); a stroboscopic section: sin(2 pi (t - t_start) / period)
  double period = 0.0;  // > 0: stroboscopic, every period from t_start
};

// A guard's `terminate = "CONDITION"` and `terminate_after = N`: the run ends after the guard's
// event (its reset applied) where the condition holds at the state after the reset, or at the
// guard's N-th event (model_termination.hpp; read by the runs of run_model, not by analyses).
struct ModelTermination {
  std::string guard, mode;            // as written, for the status message
  lang::NodeId when = lang::kNoNode;  // c(t, x+); kNoNode: no condition
  std::string when_text;              // as written
  long after = 0;                     // N > 0, or 0: no count
};

// A named output ([outputs]): a column of trajectory.csv after the states, y(t, x) of t, the
// parameters, the states (discrete variables included) and the [let] names.
struct ModelOutput {
  std::string name;
  std::string unit;
  lang::NodeId value = lang::kNoNode;
};

// [initial] project = tol (mechanical models): the initial state as written violated contacts or
// velocity constraints by at most tol and was moved onto them when the model was loaded; its
// states' initial values are the projected ones.
struct InitialProjection {
  double tolerance = 0.0;  // 0: no projection asked for (a violation is refused)
  // What was violated, as "contact 'c'" or "constraint 'k'", and by how much (-g_N, |eta qdot|).
  std::vector<std::string> violated;
  std::vector<double> violation;
  Vector change;  // x0 projected minus x0 as written (0 when nothing was violated)
  double size() const { return change.size() ? change.lpNorm<Eigen::Infinity>() : 0.0; }
};

struct Model {
  std::string file;  // as given to the loader (used in messages)
  std::string name;
  std::string description;
  std::string time_unit = "s";
  // Every expression of the model (nodes below index it); shared subexpressions are one node.
  std::shared_ptr<const lang::ExpressionGraph> graph;
  std::vector<Quantity> parameters;
  std::vector<Quantity> states;  // value: initial value
  std::vector<ModelMode> modes;  // empty for a mechanical model (its modes come from mech)
  std::optional<ModelMechanics> mechanics;
  int initial_mode = 0;
  double t_start = 0.0;
  double t_end = 1.0;
  SimulationOptions options;
  std::vector<std::string> output_variables;  // state / algebraic names; empty: all
  std::optional<ModelDrawing> drawing;        // [drawing]: how `saltus animate` draws a run
  std::vector<ModelSection> sections;         // [[sections]]: Poincare sections (observers)
  InitialProjection initial_projection;       // [initial] project
  // What the loader chose for the model where the file left it open (a state's atol of 0):
  // printed in the run's report and summary.json "notes".
  std::vector<std::string> notes;
  // States that are parameters loaded as states (LoadOptions::parameters_as_states), in order.
  std::vector<int> parameter_states;
  // Discrete variables ([discrete]): states with rate 0 in every mode, changed only by resets
  // (and Zeno hand-overs), after the [states] and before the parameter states, in order.
  std::vector<int> discrete_states;
  std::vector<ModelTermination> terminations;  // guards' terminate / terminate_after
  std::vector<ModelOutput> outputs;            // [outputs]: trajectory.csv's named columns
  // Parameters kept at run time (LoadOptions::runtime_parameters): runtime_parameters[k] is the
  // index in `parameters` of Parameter leaf k, whose value is (*graph->parameter_values())[k].
  std::vector<int> runtime_parameters;
  // The compiled systems that follow contact coefficients read from run-time parameters
  // (runtime_contact_laws.hpp); null when no contact reads one. Shared, like the parameter
  // values, by copies of the model.
  std::shared_ptr<RuntimeContactLaws> runtime_contact_laws;

  int state_index(const std::string& state) const;  // -1 if none
  Vector initial_state() const;                     // x0: the states' initial values
  int mode_index(const std::string& mode) const;    // -1 if none
  // Parameter i's value now: a run-time parameter's current value, else the loaded one.
  double parameter_value(int i) const;
};

}  // namespace saltus::model
