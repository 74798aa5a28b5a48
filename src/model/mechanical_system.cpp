#include "saltus/model/mechanical_system.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/nonholonomic_model.hpp"
#include "saltus/model/constrained_accelerations.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/model/tape.hpp"

namespace saltus::model {
namespace {

// The state x = (q, q') as a tape reads it (x[i]), from the separate q and q' vectors that the
// LagrangianModel passes; q' may be absent for functions of q alone.
template <class S, class Q = mech::DofVector<S>>
struct StateView {
  const Q& q;  // DofVector<S>, or a pointer to n entries (AccelerationFunction in doubles)
  const Q* qdot;
  int n;
  S operator[](int i) const { return i < n ? q[i] : (*qdot)[i - n]; }
};

struct MechanicalTapes {
  int n = 0;
  Tape mass;    // slot i + n j: M_ij
  Tape forces;  // slot i: h_i
  std::vector<Tape> gaps, tangents;
  std::vector<Tape> constraint_rows;  // slot i: eta^a_i
  // Models with constraints: the first-order flow x' = (qdot, qddot) of x = (q, qdot), slots
  // 0 .. 2n - 1, then the n + k pivots of the elimination as conditions (Tape::positive_from):
  // the native function writes x' in place and returns whether the elimination applies.
  Tape flow;
  // Models with constraints: slot i < n the projected velocity v_i, slot n its kinetic energy,
  // then the n + k pivots (constrained_accelerations.hpp).
  Tape velocity_projection;
  // Whether the tape reads only t, q, qdot and parameters and stores every slot: its native
  // function's output array is then read directly (all_slots).
  bool flow_read_in_place = false;
  bool velocity_projection_read_in_place = false;
  bool all_gaps_read_in_place = false;
  // Models with constraints: slot i < n d gap / d q_i of each contact (the walls' gradients).
  std::vector<Tape> gap_gradients;
  // Every gap in one tape (slot i: contact i): walls checked at the same q share their common
  // subexpressions, such as the heading's sine and cosine (wall_gap_in_place).
  Tape all_gaps;
  std::uint64_t id = 0;  // tells this model's entries in the per-thread memo from others'
};

// Whether the tape reads only t, x and parameters and stores every slot (all_slots).
bool readable_in_place(const Tape& tape) {
  return tape.loads_rate.empty() && tape.loads_z.empty() && tape.stores_every_slot();
}

// Every slot of `tape` (which reads only t, q, qdot and parameters) at x = (q, qdot) into out, by
// run() (or the interpreter alone, where the caller has already counted this evaluation toward
// the tape's compilation). Not inlined: its set-up would then run on all_slots' hot path too.
[[gnu::noinline]] void slots_by_tape(const Tape& tape, int n, double t, const double* q,
                                     const double* qdot, double* out, bool interpret_only) {
  for (int k = 0; k < tape.outputs; ++k) out[k] = 0.0;  // a slot not stored reads 0
  const auto sink = [out](int k, double v) { out[k] = v; };
  if (qdot == q + n) {
    // The compiled flow passes q and qdot as the two halves of its state: the tape reads x.
    if (interpret_only) {
      detail::interpret(tape, t, q, q, q, sink);
    } else {
      run(tape, t, q, q, q, sink);
    }
  } else {
    const StateView<double, const double*> x{q, &qdot, n};
    run(tape, t, x, x, x, sink);
  }
}

// Every slot of `tape` at (t, q, qdot) into out (tape.outputs entries). Where qdot follows q
// in memory (the compiled flow's state) and the tape is readable_in_place, the native function
// writes out directly: no sink per slot, no copy of x.
void all_slots(const Tape& tape, bool tape_readable_in_place, int n, double t, const double* q,
               const double* qdot, double* out) {
  const bool in_place = qdot == q + n && tape_readable_in_place;
  if (in_place) {
    if (const NativeFunction f = native_function_in_place(tape)) {
      f(t, q, nullptr, nullptr, native_parameters(tape), out);
      return;
    }
  }
  slots_by_tape(tape, n, t, q, qdot, out, in_place);
}

// Whether a and b hold the same n doubles bit for bit (a loop: memcmp is a call for a few words).
bool same_bits(const double* a, const double* b, int n) {
  for (int k = 0; k < n; ++k) {
    std::uint64_t x, y;
    std::memcpy(&x, a + k, sizeof x);
    std::memcpy(&y, b + k, sizeof y);
    if (x != y) return false;
  }
  return true;
}

// Gaps kept per thread for the last q (wall_gap_in_place); more contacts use their own tapes.
constexpr int kMemoGaps = 16;

// Gap i at the n doubles at q. The event locator checks every wall at each state it samples:
// the first wall computes all gaps with all_gaps, the others read them from a per-thread memo of
// the last (model, q), matched bit for bit. The values are those of the gap's own tape: the
// same graph nodes, computed by the same operations.
double wall_gap_in_place(const MechanicalTapes& tapes, const double* q, int i) {
  struct Memo {
    std::uint64_t id = 0;
    double q[mech::kMaxDof];
    double gaps[kMemoGaps];
  };
  thread_local Memo memo;
  const int n = tapes.n;
  if (memo.id != tapes.id || !same_bits(memo.q, q, n)) {
    memo.id = 0;  // invalid until every gap is written
    // The gaps read q only: q + n stands for qdot, which all_slots takes as "x in place".
    all_slots(tapes.all_gaps, tapes.all_gaps_read_in_place, n, 0.0, q, q + n, memo.gaps);
    for (int k = 0; k < n; ++k) memo.q[k] = q[k];
    memo.id = tapes.id;
  }
  return memo.gaps[i];
}

// Every gap at q (mech::AllWallGaps, context: the MechanicalTapes): the all-gaps tape, whose
// values wall_gap_in_place hands out one by one.
void all_gaps_in_place(const void* context, const double* q, double* h) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  // The gaps read q only: q + n stands for qdot, which all_slots takes as "x in place".
  all_slots(tapes.all_gaps, tapes.all_gaps_read_in_place, tapes.n, 0.0, q, q + tapes.n, h);
}

template <class V>
using Scalar = std::decay_t<decltype(std::declval<const V&>()[0])>;

// A function of q (gap or tangent): `tape` in any scalar, and in doubles `in_place` (null: the
// tape reading q in place; the wall guards pass the state's first half).
mech::ConfigurationFunction configuration_function(
    std::shared_ptr<const MechanicalTapes> tapes, const Tape* tape,
    mech::ConfigurationFunction::InPlaceFn in_place) {
  if (!in_place) {
    in_place = [tape](const double* q, int) { return evaluate(*tape, 0.0, q, q, q); };
  }
  return mech::ConfigurationFunction(
      [tapes = std::move(tapes), tape](const auto& q) {
        using S = Scalar<decltype(q)>;
        const StateView<S> x{q, nullptr, tapes->n};
        return evaluate(*tape, S(0.0), x, x, x);
      },
      std::move(in_place));
}

// Contact i's gap as a wall: in doubles from wall_gap_in_place.
mech::ConfigurationFunction wall_gap(const std::shared_ptr<const MechanicalTapes>& tapes, int i) {
  if (tapes->gaps.size() > static_cast<size_t>(kMemoGaps)) {
    return configuration_function(tapes, &tapes->gaps[static_cast<size_t>(i)], nullptr);
  }
  return configuration_function(
      tapes, &tapes->gaps[static_cast<size_t>(i)],
      [tapes, i](const double* q, int) { return wall_gap_in_place(*tapes, q, i); });
}

// The tapes of M, h, the gaps, tangents and constraint rows of a mechanical model.
std::shared_ptr<const MechanicalTapes> mechanical_tapes(const Model& model) {
  const ModelMechanics& m = *model.mechanics;
  const int n = m.dof;
  const ExpressionGraph& g = *model.graph;
  auto tapes = std::make_shared<MechanicalTapes>();
  tapes->n = n;
  std::vector<TapeOutput> mass, forces;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const NodeId Mij = m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)];
      if (!g.is_zero(Mij)) mass.push_back({Mij, i + n * j});
    }
    forces.push_back({m.forces[static_cast<size_t>(i)], i});
  }
  tapes->mass = compile_tape(g, mass);
  tapes->forces = compile_tape(g, forces);
  std::vector<TapeOutput> all_gaps;
  for (const ModelContact& c : m.contacts) {
    all_gaps.push_back({c.gap, static_cast<std::int32_t>(all_gaps.size())});
    tapes->gaps.push_back(compile_tape(g, {{c.gap, 0}}));
    tapes->tangents.push_back(c.tangent != kNoNode ? compile_tape(g, {{c.tangent, 0}}) : Tape{});
  }
  for (const std::vector<NodeId>& row : m.constraint_rows) {
    std::vector<TapeOutput> entries;
    for (int i = 0; i < n; ++i) {
      if (!g.is_zero(row[static_cast<size_t>(i)]))
        entries.push_back({row[static_cast<size_t>(i)], i});
    }
    tapes->constraint_rows.push_back(compile_tape(g, entries));
  }
  if (!m.constraint_rows.empty()) {
    // The elimination adds nodes: a copy of the graph (sharing the run-time parameter values).
    ExpressionGraph fused = g;
    const ConstrainedAccelerations acc =
        derive_constrained_accelerations(fused, m.mass, m.forces, m.constraint_rows);
    std::vector<TapeOutput> outputs;
    for (int i = 0; i < n; ++i) outputs.push_back({fused.state(n + i), i});
    for (int i = 0; i < n; ++i) outputs.push_back({acc.qddot[static_cast<size_t>(i)], n + i});
    for (size_t p = 0; p < acc.pivots.size(); ++p)
      outputs.push_back({acc.pivots[p], 2 * n + static_cast<std::int32_t>(p)});
    tapes->flow = compile_tape(fused, outputs);
    tapes->flow.positive_from = 2 * n;
    tapes->flow_read_in_place = readable_in_place(tapes->flow);
    const ConstrainedVelocity v = derive_constrained_velocity(fused, m.mass, m.constraint_rows);
    outputs.clear();
    for (int i = 0; i < n; ++i) outputs.push_back({v.qdot[static_cast<size_t>(i)], i});
    outputs.push_back({v.kinetic_energy, n});
    for (size_t p = 0; p < v.pivots.size(); ++p)
      outputs.push_back({v.pivots[p], n + 1 + static_cast<std::int32_t>(p)});
    tapes->velocity_projection = compile_tape(fused, outputs);
    tapes->velocity_projection_read_in_place = readable_in_place(tapes->velocity_projection);
    for (const ModelContact& c : m.contacts) {
      std::vector<TapeOutput> gradient;
      for (int i = 0; i < n; ++i)
        gradient.push_back({fused.derivative(c.gap, {OpCode::State, i}), i});
      tapes->gap_gradients.push_back(compile_tape(fused, gradient));
    }
  }
  tapes->all_gaps = compile_tape(g, all_gaps);
  tapes->all_gaps_read_in_place = readable_in_place(tapes->all_gaps);
  static std::atomic<std::uint64_t> next_id{1};
  tapes->id = next_id.fetch_add(1);
  std::vector<const Tape*> hot = {&tapes->mass, &tapes->forces, &tapes->flow,
                                  &tapes->velocity_projection, &tapes->all_gaps};
  for (const std::vector<Tape>* v :
       {&tapes->gaps, &tapes->tangents, &tapes->constraint_rows, &tapes->gap_gradients}) {
    for (const Tape& t : *v) hot.push_back(&t);
  }
  compile_together(hot);
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

// The flow tape at x = (q, qdot) (n entries each): x' into out[0, 2n) (out holds the tape's
// slots), and whether the elimination applies (every pivot > 0). Its native function reads x in
// place where qdot follows q, else a copy.
bool flow_slots(const MechanicalTapes& tapes, double t, const double* q, const double* qdot,
                double* out) {
  const int n = tapes.n;
  const Tape& tape = tapes.flow;
  const double* x = q;
  double joined[2 * mech::kMaxDof];
  if (qdot != q + n) {
    for (int i = 0; i < n; ++i) {
      joined[i] = q[i];
      joined[n + i] = qdot[i];
    }
    x = joined;
  }
  if (const NativeFunction f =
          tapes.flow_read_in_place ? native_function_in_place(tape) : nullptr) {
    return f(t, x, nullptr, nullptr, native_parameters(tape), out) != 0;
  }
  for (int k = 0; k < tape.outputs; ++k) out[k] = 0.0;  // a slot not stored reads 0
  detail::interpret(tape, t, x, x, x, [out](int k, double v) { out[k] = v; });
  for (int j = tape.positive_from; j < tape.outputs; ++j) {
    if (!(out[j] > 0.0)) return false;
  }
  return true;
}

// The fused accelerations in doubles from q and qdot, n entries each (the model's DoubleFn,
// context: the MechanicalTapes).
bool accelerations_in_place(const void* context, double t, const double* q, const double* qdot,
                            double* qddot) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  double out[kNativeMaxValues];
  const bool valid = flow_slots(tapes, t, q, qdot, out);
  for (int i = 0; i < tapes.n; ++i) qddot[i] = out[tapes.n + i];
  return valid;
}

// The flow x' = (qdot, qddot) at x = (q, qdot) (AccelerationFunction::Fast, context: the
// MechanicalTapes): the native function reads x and writes x' where they are, and tests the
// pivots, without a layer of copies and checks between the stepper and it (~70 instructions of
// ~400 per evaluation, sleigh).
bool flow_in_place(const void* context, double t, const double* x, double* xdot) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  const Tape& tape = tapes.flow;
  if (const NativeFunction f =
          tapes.flow_read_in_place ? native_function_in_place(tape) : nullptr) {
    return f(t, x, nullptr, nullptr, native_parameters(tape), xdot) != 0;
  }
  double out[kNativeMaxValues];
  const bool valid = flow_slots(tapes, t, x, x + tapes.n, out);
  for (int i = 0; i < 2 * tapes.n; ++i) xdot[i] = out[i];
  return valid;
}

// The fused velocity projection (mech::VelocityProjection, context: the MechanicalTapes); false
// where a pivot is <= 0 or NaN.
bool velocity_projection_in_place(const void* context, const double* q, const double* qdot,
                                  double* v, double* kinetic_energy) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  const int n = tapes.n;
  double out[kNativeMaxValues];
  all_slots(tapes.velocity_projection, tapes.velocity_projection_read_in_place, n, 0.0, q, qdot,
            out);
  for (int j = 0; j < tapes.velocity_projection.outputs; ++j) {
    if (j < n) {
      v[j] = out[j];
    } else if (j == n) {
      *kinetic_energy = out[j];
    } else if (!(out[j] > 0.0)) {
      return false;
    }
  }
  return true;
}

}  // namespace

// A model with [mechanics] constraints: Lagrange-d'Alembert with its contacts as walls.
mech::NonholonomicModel nonholonomic_model(std::shared_ptr<const Model> model_ptr) {
  const Model& model = *model_ptr;
  if (!model.mechanics || model.mechanics->constraint_rows.empty()) {
    saltus::detail::throw_error("model '", model.name,
                                "' has no [mechanics] constraints: it is not a NonholonomicModel");
  }
  const ModelMechanics& m = *model.mechanics;
  const auto tapes = mechanical_tapes(model);
  mech::NonholonomicModel nm(model.name.empty() ? "model" : model.name, m.dof);
  set_dynamics(nm, tapes);
  for (size_t a = 0; a < m.constraint_rows.size(); ++a) {
    const Tape* tape = &tapes->constraint_rows[a];
    nm.add_constraint(m.constraint_names[a], [tapes, tape](const auto& q, auto& row) {
      using S = Scalar<decltype(q)>;
      const StateView<S> x{q, nullptr, tapes->n};
      run(*tape, S(0.0), x, x, x, [&row](int k, const S& v) { row[k] = v; });
    });
  }
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
        using ops::scalar_value;
        if (k >= 2 * n) {
          valid = valid && scalar_value(v) > 0.0;
        } else if (k >= n) {
          qddot[k - n] = v;
        }
      });
      return valid;
    }
  };
  nm.set_accelerations(accelerations, &flow_in_place, tapes);
  nm.set_velocity_projection(&velocity_projection_in_place, tapes);
  for (size_t i = 0; i < m.contacts.size(); ++i) {
    const int w = nm.add_wall(m.contacts[i].name, wall_gap(tapes, static_cast<int>(i)),
                              m.contacts[i].rigid_law.e);
    const Tape* gradient = &tapes->gap_gradients[i];
    nm.set_wall_gradient(w, [tapes, gradient](const double* q, double* dh) {
      for (int k = 0; k < tapes->n; ++k) dh[k] = 0.0;  // no stale entry if a slot is not stored
      run(*gradient, 0.0, q, q, q, [dh](int k, double v) { dh[k] = v; });
    });
  }
  // Event location samples every wall at once (the walls' gaps come from the same tape).
  if (m.contacts.size() <= static_cast<size_t>(kMemoGaps)) {
    nm.set_all_wall_gaps(&all_gaps_in_place, tapes);
  }
  return nm;
}

mech::LagrangianModel lagrangian_model(std::shared_ptr<const Model> model) {
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
    const auto gap = configuration_function(tapes, &tapes->gaps[i], nullptr);
    const auto tangent = configuration_function(tapes, &tapes->tangents[i], nullptr);
    if (c.compliant && c.tangent != kNoNode) {
      lm.add_compliant_contact(c.name, c.body, gap, tangent, c.compliant_law);
    } else if (c.compliant) {
      lm.add_compliant_contact(c.name, c.body, gap, c.compliant_law);
    } else if (c.tangent != kNoNode) {
      lm.add_contact(c.name, c.body, gap, tangent, c.rigid_law);
    } else {
      lm.add_contact(c.name, c.body, gap, c.rigid_law);
    }
  }
  // The initial configuration: M(q0) SPD, every gap gradient non-zero, no rigid contact
  // penetrated (a compliant contact with g_N < 0 starts active). A gap within the simulator's
  // guard band of zero is touching, not penetrating (a gap from a trigonometric formula is
  // -5.6e-17 where it should be 0).
  const Vector q0 = model->initial_state().head(n);
  lm.check_configuration(q0);
  const double band = model->options.events.guard_tolerance *
                      std::max(1.0, q0.size() ? q0.lpNorm<Eigen::Infinity>() : 0.0);
  for (int i = 0; i < lm.contact_count(); ++i) {
    if (m.contacts[static_cast<size_t>(i)].compliant) continue;
    const double gap0 = lm.gap(i, q0);
    if (gap0 < -band) {
      std::ostringstream q;
      q.precision(17);
      for (int k = 0; k < n; ++k) q << (k ? ", " : "") << q0[k];
      saltus::detail::throw_error(lm.describe_contact(i), ": the initial configuration q = (",
                                  q.str(), ") penetrates the contact (g_N = ", gap0,
                                  " < 0 beyond the guard band ", band,
                                  "); expected an initial state with every gap >= 0");
    }
  }
  return lm;
}

MechanicalSystem build_mechanical_system(std::shared_ptr<const Model> model,
                                         bool project_invariants) {
  if (!model->mechanics->constraint_rows.empty()) {
    const mech::NonholonomicModel::Compiled compiled =
        nonholonomic_model(model).compile({project_invariants});
    MechanicalSystem m{compiled.system, compiled.initial_mode(model->initial_state())};
    add_sections(m.system, *model);
    return m;
  }
  const mech::LagrangianModel::Compiled compiled = lagrangian_model(model).compile();
  MechanicalSystem m{compiled.system,
                     compiled.initial_mode(model->t_start, model->initial_state())};
  add_sections(m.system, *model);
  return m;
}

}  // namespace saltus::model
