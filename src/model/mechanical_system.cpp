// Over 450 lines (about 485): the tapes of a mechanical model and the two models built from them
// (LagrangianModel, NonholonomicModel) with their start checks; they share the tape wrappers.
#include "saltus/model/mechanical_system.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "condition_tape.hpp"
#include "mechanical_tapes.hpp"
#include "saltus/bridge/bridged_run.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/constrained_accelerations.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/lang/tape_enclosure.hpp"
#include "saltus/mech/contact_alternatives.hpp"
#include "saltus/mech/nonholonomic_model.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/model/runtime_contact_laws.hpp"

namespace saltus::model {
namespace {

using detail::accelerations_in_place;
using detail::all_gaps_in_place;
using detail::flow_in_place;
using detail::kWallsInOneCall;
using detail::MechanicalTapes;
using detail::readable_in_place;
using detail::StateView;
using detail::velocity_projection_in_place;

template <class V>
using Scalar = std::decay_t<decltype(std::declval<const V&>()[0])>;

// f(q) by `tape` reading q in place (ConfigurationFunction::InPlaceFn, context: the tape).
double tape_in_place(const void* tape, const double* q, int) {
  return evaluate(*static_cast<const lang::Tape*>(tape), 0.0, q, q, q);
}

// A function of q with n entries (a gap or tangent; a Stribeck curve, n = 1): `tape` in any
// scalar, and in doubles the tape reading q in place (the wall guards pass the state's first
// half).
mech::ConfigurationFunction configuration_function(std::shared_ptr<const lang::Tape> tape, int n) {
  mech::ConfigurationFunction::InPlaceFn in_place{&tape_in_place, tape};
  // The tape in interval arithmetic, at t = 0 as above (a gap reads q alone).
  const Guard::Enclosure enclosure = lang::tape_enclosure(tape);
  mech::ConfigurationFunction f(
      [tape, n](const auto& q) {
        using S = Scalar<decltype(q)>;
        const StateView<S> x{q, nullptr, n};
        return evaluate(*tape, S(0.0), x, x, x);
      },
      std::move(in_place));
  if (enclosure) {
    std::vector<int> reads;
    for (const lang::TapeLoad& l : tape->loads_x) reads.push_back(l.index);
    f.set_enclosure(
        [enclosure](const IntervalJet* q, int n) { return enclosure(IntervalJet(0.0), q, n); },
        std::move(reads));
  }
  return f;
}

// One of `tapes`' functions of q (a gap or tangent).
mech::ConfigurationFunction tape_function(const std::shared_ptr<const MechanicalTapes>& tapes,
                                          const lang::Tape* tape) {
  return configuration_function(std::shared_ptr<const lang::Tape>(tapes, tape), tapes->n);
}

// The tapes of M, h, the gaps, tangents and constraint rows of a mechanical model.
std::shared_ptr<const MechanicalTapes> mechanical_tapes(const Model& model) {
  const ModelMechanics& m = *model.mechanics;
  const int n = m.dof;
  const lang::ExpressionGraph& g = *model.graph;
  auto tapes = std::make_shared<MechanicalTapes>();
  tapes->n = n;
  std::vector<lang::TapeOutput> mass, forces;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const lang::NodeId Mij = m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)];
      if (!g.is_zero(Mij)) mass.push_back({Mij, i + n * j});
    }
    forces.push_back({m.forces[static_cast<size_t>(i)], i});
  }
  tapes->mass = lang::compile_tape(g, mass);
  tapes->forces = lang::compile_tape(g, forces);
  std::vector<lang::TapeOutput> all_gaps;
  for (const ModelContact& c : m.contacts) {
    all_gaps.push_back({c.gap, static_cast<std::int32_t>(all_gaps.size())});
    tapes->gaps.push_back(lang::compile_tape(g, {{c.gap, 0}}));
    tapes->tangents.push_back(c.tangent != lang::kNoNode ? lang::compile_tape(g, {{c.tangent, 0}})
                                                         : lang::Tape{});
    std::array<lang::Tape, 3> rows;
    std::array<lang::Tape, 2> roll;
    if (c.slip[0] != lang::kNoNode) {
      // d gamma_k / dq'_i adds nodes: a copy of the graph (sharing the run-time parameters).
      lang::ExpressionGraph rates = g;
      const auto row_tape = [&rates, n](lang::NodeId velocity) {
        std::vector<lang::TapeOutput> entries;
        for (int i = 0; i < n; ++i) {
          const lang::NodeId e = rates.derivative(velocity, {lang::OpCode::State, n + i});
          if (!rates.is_zero(e)) entries.push_back({e, i});
        }
        return lang::compile_tape(rates, entries);
      };
      for (size_t k = 0; k < 3; ++k) {
        if (c.slip[k] != lang::kNoNode) rows[k] = row_tape(c.slip[k]);
      }
      for (size_t k = 0; k < 2; ++k) {
        if (c.roll[k] != lang::kNoNode) roll[k] = row_tape(c.roll[k]);
      }
    }
    tapes->slip_rows.push_back(std::move(rows));
    tapes->roll_rows.push_back(std::move(roll));
  }
  for (const std::vector<lang::NodeId>& row : m.constraint_rows) {
    std::vector<lang::TapeOutput> entries;
    for (int i = 0; i < n; ++i) {
      if (!g.is_zero(row[static_cast<size_t>(i)]))
        entries.push_back({row[static_cast<size_t>(i)], i});
    }
    tapes->constraint_rows.push_back(lang::compile_tape(g, entries));
  }
  if (!m.constraint_rows.empty()) {
    // The elimination adds nodes: a copy of the graph (sharing the run-time parameter values).
    lang::ExpressionGraph fused = g;
    const lang::ConstrainedAccelerations acc =
        lang::derive_constrained_accelerations(fused, m.mass, m.forces, m.constraint_rows);
    std::vector<lang::TapeOutput> outputs;
    for (int i = 0; i < n; ++i) outputs.push_back({fused.state(n + i), i});
    for (int i = 0; i < n; ++i) outputs.push_back({acc.qddot[static_cast<size_t>(i)], n + i});
    for (size_t p = 0; p < acc.pivots.size(); ++p)
      outputs.push_back({acc.pivots[p], 2 * n + static_cast<std::int32_t>(p)});
    tapes->flow = lang::compile_tape(fused, outputs);
    tapes->flow.positive_from = 2 * n;
    tapes->flow_read_in_place = readable_in_place(tapes->flow);
    const lang::ConstrainedVelocity v =
        lang::derive_constrained_velocity(fused, m.mass, m.constraint_rows);
    outputs.clear();
    for (int i = 0; i < n; ++i) outputs.push_back({v.qdot[static_cast<size_t>(i)], i});
    outputs.push_back({v.kinetic_energy, n});
    for (size_t p = 0; p < v.pivots.size(); ++p)
      outputs.push_back({v.pivots[p], n + 1 + static_cast<std::int32_t>(p)});
    tapes->velocity_projection = lang::compile_tape(fused, outputs);
    tapes->velocity_projection_read_in_place = readable_in_place(tapes->velocity_projection);
    for (const ModelContact& c : m.contacts) {
      std::vector<lang::TapeOutput> gradient;
      for (int i = 0; i < n; ++i)
        gradient.push_back({fused.derivative(c.gap, {lang::OpCode::State, i}), i});
      tapes->gap_gradients.push_back(lang::compile_tape(fused, gradient));
    }
  }
  tapes->all_gaps = lang::compile_tape(g, all_gaps);
  tapes->all_gaps_read_in_place = readable_in_place(tapes->all_gaps);
  std::vector<const lang::Tape*> hot = {&tapes->mass, &tapes->forces, &tapes->flow,
                                        &tapes->velocity_projection, &tapes->all_gaps};
  for (const std::vector<lang::Tape>* v :
       {&tapes->gaps, &tapes->tangents, &tapes->constraint_rows, &tapes->gap_gradients}) {
    for (const lang::Tape& t : *v) hot.push_back(&t);
  }
  lang::compile_together(hot);
  return tapes;
}

// M(q) and h(t, q, q') for a LagrangianModel or a NonholonomicModel.
template <class Model>
void set_dynamics(Model& target, const std::shared_ptr<const MechanicalTapes>& tapes) {
  target.set_mass_matrix([tapes](const auto& q, auto& M) {
    using S = Scalar<decltype(q)>;
    const StateView<S> x{q, nullptr, tapes->n};
    const int rows = tapes->n;
    run(tapes->mass, S(0.0), x, x, x, [&M, rows](int k, const S& v) { M(k % rows, k / rows) = v; });
  });
  target.set_forces([tapes](const auto& t, const auto& q, const auto& qdot, auto& h) {
    using S = Scalar<decltype(q)>;
    const StateView<S> x{q, &qdot, tapes->n};
    run(tapes->forces, S(t), x, x, x, [&h](int k, const S& v) { h[k] = v; });
  });
}

}  // namespace

double initial_gap_band(const mech::LagrangianModel& lm, int i, const Vector& q0,
                        double guard_tolerance) {
  return guard_tolerance * lm.gap_gradient(i, q0).cwiseAbs().dot(q0.cwiseAbs());
}

// A model with [mechanics] constraints: Lagrange-d'Alembert with its contacts as walls.
mech::NonholonomicModel nonholonomic_model(std::shared_ptr<const Model> model_ptr) {
  const Model& model = *model_ptr;
  if (!model.mechanics || model.mechanics->constraint_rows.empty()) {
    saltus::detail::throw_error("model '", model.name,
                                "' has no [mechanics] constraints: it is not a NonholonomicModel");
  }
  const ModelMechanics& m = *model.mechanics;
  const auto tapes = mechanical_tapes(model);
  // The flow's fused accelerations; a pivot <= 0 (or NaN) hands the state to the generic
  // elimination, which names it.
  const auto accelerations = [tapes](const auto& t, const auto& q, const auto& qdot, auto& qddot) {
    using S = Scalar<decltype(q)>;
    using Q = std::decay_t<decltype(q)>;
    if constexpr (std::is_pointer_v<Q>) {
      return accelerations_in_place(tapes.get(), t, q, qdot, qddot);
    } else {
      const int n = tapes->n;
      bool valid = true;
      const StateView<S, Q> x{q, &qdot, n};
      run(tapes->flow, S(t), x, x, x, [&](int k, const S& v) {
        using lang::ops::scalar_value;
        if (k >= 2 * n) {
          valid = valid && scalar_value(v) > 0.0;
        } else if (k >= n) {
          qddot[k - n] = v;
        }
      });
      return valid;
    }
  };
  mech::NonholonomicPlainEntries entries;
  entries.accelerations = mech::AccelerationFunction(accelerations, {&flow_in_place, tapes});
  entries.velocity_projection = {&velocity_projection_in_place, tapes};
  // Event location samples every wall at once (the walls' gaps come from the same tape).
  if (m.contacts.size() <= static_cast<size_t>(kWallsInOneCall)) {
    entries.all_wall_gaps = {&all_gaps_in_place, tapes};
    entries.all_wall_gaps_walls = static_cast<int>(m.contacts.size());
  }
  mech::NonholonomicModel nm(model.name.empty() ? "model" : model.name, m.dof, std::move(entries));
  set_dynamics(nm, tapes);
  for (size_t a = 0; a < m.constraint_rows.size(); ++a) {
    const lang::Tape* tape = &tapes->constraint_rows[a];
    nm.add_constraint(m.constraint_names[a], [tapes, tape](const auto& q, auto& row) {
      using S = Scalar<decltype(q)>;
      const StateView<S> x{q, nullptr, tapes->n};
      run(*tape, S(0.0), x, x, x, [&row](int k, const S& v) { row[k] = v; });
    });
  }
  for (size_t i = 0; i < m.contacts.size(); ++i) {
    const lang::Tape* gradient = &tapes->gap_gradients[i];
    nm.add_wall(m.contacts[i].name, tape_function(tapes, &tapes->gaps[i]),
                m.contacts[i].rigid_law.e, [tapes, gradient](const double* q, double* dh) {
                  for (int k = 0; k < tapes->n; ++k) dh[k] = 0.0;  // no stale slot
                  run(*gradient, 0.0, q, q, q, [dh](int k, double v) { dh[k] = v; });
                });
  }
  return nm;
}

namespace {

// Contact k's image under the renaming R: the contact whose gap at R(q) is k's gap at q at
// every probe (the leg swap carries the swing foot's gap into the stance foot's); -1 when none.
int relabelled_contact(const mech::LagrangianModel& lm, int k,
                       const std::vector<mech::ConfigurationFunction>& R,
                       const std::vector<Vector>& probes) {
  for (int to = 0; to < lm.contact_count(); ++to) {
    bool all = lm.contact(to).rigid() == lm.contact(k).rigid();
    for (size_t p = 0; all && p < probes.size(); ++p) {
      const mech::DofVector<double> q = probes[p];
      mech::DofVector<double> q_plus(q.size());
      for (Eigen::Index i = 0; i < q.size(); ++i) q_plus[i] = R[static_cast<size_t>(i)](q);
      const double g = lm.contact(k).gap(q), g_plus = lm.contact(to).gap(q_plus);
      all = std::abs(g - g_plus) <= 1e-10 * (1.0 + std::abs(g));
    }
    if (all) return to;
  }
  return -1;
}

// Each rigid contact's `when` and `relabel` (ModelContact) given to `lm`; a relabel that is not a
// symmetry of the model is an error at its line. The symmetry is probed at the initial
// configuration and at three configurations moved off it in every coordinate.
void add_when_and_relabel(mech::LagrangianModel& lm, const Model& model) {
  const ModelMechanics& m = *model.mechanics;
  const int n = m.dof;
  for (size_t i = 0; i < m.contacts.size(); ++i) {
    const ModelContact& c = m.contacts[i];
    if (c.when == lang::kNoNode) continue;
    auto tape = std::make_shared<const lang::Tape>(detail::condition_tape(*model.graph, c.when));
    lm.set_contact_when(
        static_cast<int>(i),
        [tape](double t, const ConstVectorRef& x, const ConstVectorRef& z) {
          return detail::evaluate_condition(*tape, t, x, z);
        },
        c.when_text);
  }
  const Vector q0 = model.initial_state().head(n);
  std::vector<Vector> probes{q0};
  for (int p = 1; p <= 3; ++p) {
    Vector q = q0;
    for (int k = 0; k < n; ++k) q[k] += 0.05 * p * ((k + p) % 2 == 0 ? 1.0 : -0.7) * (1 + k % 3);
    probes.push_back(q);
  }
  for (size_t i = 0; i < m.contacts.size(); ++i) {
    const ModelContact& c = m.contacts[i];
    if (c.relabel.empty()) continue;
    std::vector<mech::ConfigurationFunction> R;
    for (int k = 0; k < n; ++k) {
      const lang::NodeId node = c.relabel[static_cast<size_t>(k)];
      if (node == lang::kNoNode) {
        R.emplace_back([k](const auto& q) { return q[k]; });
      } else {
        R.push_back(configuration_function(
            std::make_shared<const lang::Tape>(lang::compile_tape(*model.graph, {{node, 0}})), n));
      }
    }
    const std::string at = model.file + ":" + std::to_string(c.lines.relabel) + ": ";
    std::vector<int> contacts;
    for (int k = 0; k < lm.contact_count(); ++k) {
      contacts.push_back(relabelled_contact(lm, k, R, probes));
      if (contacts.back() < 0) {
        saltus::detail::throw_error(at, lm.describe_contact(static_cast<int>(i)),
                                    ": relabel carries the gap of contact '", lm.contact(k).name,
                                    "' into no contact's gap; expected a renaming of the "
                                    "coordinates under which the contacts trade places (a leg "
                                    "swap: the swing foot's gap becomes the stance foot's)");
      }
    }
    try {
      lm.set_relabel(static_cast<int>(i), std::move(R), std::move(contacts), probes);
    } catch (const Error& e) {
      saltus::detail::throw_error(at, e.what());
    }
  }
}

}  // namespace

mech::LagrangianModel lagrangian_model(std::shared_ptr<const Model> model, bool check_start) {
  const ModelMechanics& m = *model->mechanics;
  const int n = m.dof;
  if (!m.constraint_rows.empty()) {
    saltus::detail::throw_error("model '", model->name,
                                "' has velocity constraints: it is a NonholonomicModel, not a "
                                "LagrangianModel");
  }
  const auto tapes = mechanical_tapes(*model);
  mech::LagrangianModel lm(model->name.empty() ? "model" : model->name, n);
  set_dynamics(lm, tapes);
  for (size_t i = 0; i < m.contacts.size(); ++i) {
    const ModelContact& c = m.contacts[i];
    const auto gap = tape_function(tapes, &tapes->gaps[i]);
    const auto tangent = tape_function(tapes, &tapes->tangents[i]);
    if (c.compliant && c.tangent != lang::kNoNode) {
      lm.add_compliant_contact(c.name, c.body, gap, tangent, c.compliant_law);
    } else if (c.compliant) {
      lm.add_compliant_contact(c.name, c.body, gap, c.compliant_law);
    } else if (c.slip[0] != lang::kNoNode) {
      const std::array<lang::Tape, 3>& rows = tapes->slip_rows[i];
      const auto row = [&tapes](const lang::Tape* tape) {
        return [tapes, tape](const auto& q, auto& out) {
          using S = Scalar<decltype(q)>;
          const StateView<S> x{q, nullptr, tapes->n};
          run(*tape, S(0.0), x, x, x, [&out](int k, const S& v) { out[k] = v; });
        };
      };
      const mech::ContactImpactLaw law = current_rigid_law(*model, static_cast<int>(i));
      const int k =
          c.slip[2] != lang::kNoNode
              ? lm.add_spatial_contact(c.name, c.body, gap, row(&rows[0]), row(&rows[1]),
                                       row(&rows[2]), law)
              : lm.add_spatial_contact(c.name, c.body, gap, row(&rows[0]), row(&rows[1]), law);
      if (c.stribeck) lm.set_stribeck(k, configuration_function(c.stribeck, 1));
      if (c.roll[0] != lang::kNoNode) {
        const std::array<lang::Tape, 2>& roll = tapes->roll_rows[i];
        lm.set_rolling_resistance(k, row(&roll[0]), row(&roll[1]));
      }
    } else if (c.tangent != lang::kNoNode) {
      const int k = lm.add_contact(c.name, c.body, gap, tangent,
                                   current_rigid_law(*model, static_cast<int>(i)));
      if (c.stribeck) lm.set_stribeck(k, configuration_function(c.stribeck, 1));
    } else {
      lm.add_contact(c.name, c.body, gap, current_rigid_law(*model, static_cast<int>(i)));
    }
  }
  add_when_and_relabel(lm, *model);
  // The initial configuration: M(q0) SPD, every gap gradient non-zero, no rigid contact
  // penetrated (a compliant contact with g_N < 0 starts active). A gap within the simulator's
  // guard band of zero is touching, not penetrating (a gap from a trigonometric formula is
  // -5.6e-17 where it should be 0): guard_tolerance times the gap's scale sum_j |dg/dq_j| |q0_j|
  // (event_options.hpp; the run's scales start at q0).
  if (!check_start) return lm;
  const Vector q0 = model->initial_state().head(n);
  lm.check_configuration(q0);
  for (int i = 0; i < lm.contact_count(); ++i) {
    // A contact that cannot be hit there (its `when` fails: a foot behind the stance foot) may
    // lie below its surface.
    if (m.contacts[static_cast<size_t>(i)].compliant ||
        !lm.contact(i).may_be_hit(model->t_start, q0, model->initial_state().tail(n))) {
      continue;
    }
    const double band = initial_gap_band(lm, i, q0, model->options.events.guard_tolerance);
    const double gap0 = lm.gap(i, q0);
    if (gap0 < -band) {
      std::ostringstream q;
      q.precision(17);
      for (int k = 0; k < n; ++k) q << (k ? ", " : "") << q0[k];
      saltus::detail::throw_error(lm.describe_contact(i), ": the initial configuration q = (",
                                  q.str(), ") penetrates the contact (g_N = ", gap0,
                                  " < 0 beyond the guard band ", band,
                                  "); expected an initial state with every gap >= 0, or "
                                  "[initial] project = <tolerance> to move it onto the contact");
    }
  }
  return lm;
}

namespace {

// Bodies' Euler charts: where sin(theta) falls to kChartPole the ZXZ chart is near its pole (the
// mass matrix singular at sin(theta) = 0, phi' and psi' unbounded near it) and no chart is
// switched to yet: the run ends there with status reset-failed naming the body, t and theta.
constexpr double kChartPole = 1e-3;

void watch_chart_poles(HybridSystem& system, const Model& model) {
  for (const ModelMechanics::Body& b : model.mechanics->bodies) {
    if (b.theta < 0) continue;  // not a free rotation: its Euler map is regular
    const int theta = b.theta;
    const std::string name = b.name, file = model.file;
    for (ModeId mode = 0; mode < system.mode_count(); ++mode) {
      Guard g = make_guard(
          "chart-pole:" + name, Direction::Rising,
          [theta](const auto&, const auto& x, const auto&) {
            using std::sin;
            const auto s = sin(x[theta]);
            return kChartPole * kChartPole - s * s;
          },
          Reset::custom(
              mode, false,
              [name, file, theta](double t, ConstVectorRef x, ConstVectorRef, Jump& jump) {
                jump.failure = saltus::detail::text(
                    file, ": body '", name, "': at t = ", t, " its Euler angle theta = ", x[theta],
                    " reaches the ZXZ chart's pole (|sin(theta)| = ", kChartPole,
                    "): the chart is singular there and saltus does not switch to "
                    "another chart; a body that tumbles takes a quaternion instead "
                    "(quaternion = [\"q0\", \"q1\", \"q2\", \"q3\"]: no pole)");
                return false;
              }));
      system.add_guard(mode, std::move(g));
    }
  }
}

}  // namespace

MechanicalSystem build_mechanical_system(std::shared_ptr<const Model> model,
                                         bool project_invariants, bool painleve_start) {
  if (!model->mechanics->constraint_rows.empty()) {
    const mech::NonholonomicModel::Compiled compiled =
        nonholonomic_model(model).compile({project_invariants});
    MechanicalSystem m{compiled.system, compiled.initial_mode(model->initial_state()), nullptr, {}};
    add_sections(m.system, *model);
    add_discontinuities(m.system, *model);
    return m;
  }
  auto compiled =
      std::make_shared<mech::LagrangianModel::Compiled>(lagrangian_model(model).compile());
  follow_runtime_contact_laws(*model, compiled->contact_law_setter());
  ModeId initial = kNoMode;
  try {
    initial = compiled->initial_mode(model->t_start, model->initial_state());
  } catch (const Error&) {
    if (!painleve_start ||
        !mech::painleve_situation(compiled->model(), model->t_start, model->initial_state(),
                                  bridge::kStopRestRate)) {
      throw;
    }
  }
  // initial_mode reads the shared context only (the system moves out below).
  std::shared_ptr<const mech::LagrangianModel::Compiled> modes = compiled;
  MechanicalSystem m{std::move(compiled->system), initial, modes,
                     [modes](double t, const Vector& x) { return modes->initial_mode(t, x); }};
  add_sections(m.system, *model);
  add_discontinuities(m.system, *model);
  watch_chart_poles(m.system, *model);
  return m;
}

}  // namespace saltus::model
