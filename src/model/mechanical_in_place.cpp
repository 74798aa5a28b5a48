// The plain entries in doubles of mechanical_tapes.hpp: native functions read q, qdot where the
// caller holds them and write their outputs in place where the layout allows.
#include <memory>
#include <utility>

#include "mechanical_tapes.hpp"
#include "saltus/lang/native_tape.hpp"

namespace saltus::model::detail {
namespace {

// Every slot of `tape` (which reads only t, q, qdot and parameters) at x = (q, qdot) into out, by
// run() (or the interpreter alone, where the caller has already counted this evaluation toward
// the tape's compilation). Not inlined: its set-up would then run on all_slots' hot path too.
[[gnu::noinline]] void slots_by_tape(const lang::Tape& tape, int n, double t, const double* q,
                                     const double* qdot, double* out, bool interpret_only) {
  for (int k = 0; k < tape.outputs; ++k) out[k] = 0.0;  // a slot not stored reads 0
  const auto sink = [out](int k, double v) { out[k] = v; };
  if (qdot == q + n) {
    // The compiled flow passes q and qdot as the two halves of its state: the tape reads x.
    if (interpret_only) {
      lang::detail::interpret(tape, t, q, q, q, sink);
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
[[gnu::always_inline]] inline void all_slots(const lang::Tape& tape, bool tape_readable_in_place,
                                             int n, double t, const double* q, const double* qdot,
                                             double* out) {
  const bool in_place = qdot == q + n && tape_readable_in_place;
  if (in_place) {
    if (const lang::NativeFunction f = lang::native_function_in_place(tape)) {
      f(t, q, nullptr, nullptr, lang::native_parameters(tape), out);
      return;
    }
  }
  slots_by_tape(tape, n, t, q, qdot, out, in_place);
}

// The flow tape at x = (q, qdot) (n entries each): x' into out[0, 2n) (out holds the tape's
// slots), and whether the elimination applies (every pivot > 0). Its native function reads x in
// place where qdot follows q, else a copy.
[[gnu::noinline]] bool flow_slots(const MechanicalTapes& tapes, double t, const double* q,
                                  const double* qdot, double* out) {
  const int n = tapes.n;
  const lang::Tape& tape = tapes.flow;
  const double* x = q;
  double joined[2 * mech::kMaxDof];
  if (qdot != q + n) {
    for (int i = 0; i < n; ++i) {
      joined[i] = q[i];
      joined[n + i] = qdot[i];
    }
    x = joined;
  }
  if (const lang::NativeFunction f =
          tapes.flow_read_in_place ? lang::native_function_in_place(tape) : nullptr) {
    return f(t, x, nullptr, nullptr, lang::native_parameters(tape), out) != 0;
  }
  for (int k = 0; k < tape.outputs; ++k) out[k] = 0.0;  // a slot not stored reads 0
  lang::detail::interpret(tape, t, x, x, x, [out](int k, double v) { out[k] = v; });
  for (int j = tape.positive_from; j < tape.outputs; ++j) {
    if (!(out[j] > 0.0)) return false;
  }
  return true;
}

}  // namespace

// Whether the tape reads only t, x and parameters and stores every slot (all_slots).
bool readable_in_place(const lang::Tape& tape) {
  return tape.loads_rate.empty() && tape.loads_z.empty() && tape.stores_every_slot();
}

// Every gap at q (mech::AllWallGaps, context: the MechanicalTapes): the all-gaps tape.
void all_gaps_in_place(const void* context, const double* q, double* h) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  // The gaps read q only: q + n stands for qdot, which all_slots takes as "x in place".
  all_slots(tapes.all_gaps, tapes.all_gaps_read_in_place, tapes.n, 0.0, q, q + tapes.n, h);
}

// The fused accelerations in doubles from q and qdot, n entries each (the model's DoubleFn,
// context: the MechanicalTapes).
bool accelerations_in_place(const void* context, double t, const double* q, const double* qdot,
                            double* qddot) {
  const auto& tapes = *static_cast<const MechanicalTapes*>(context);
  double out[lang::kNativeMaxValues];
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
  const lang::Tape& tape = tapes.flow;
  if (const lang::NativeFunction f =
          tapes.flow_read_in_place ? lang::native_function_in_place(tape) : nullptr) {
    return f(t, x, nullptr, nullptr, lang::native_parameters(tape), xdot) != 0;
  }
  double out[lang::kNativeMaxValues];
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
  double out[lang::kNativeMaxValues];
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
}  // namespace saltus::model::detail
