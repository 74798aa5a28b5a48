// A tape: the straight-line register program that computes chosen nodes of an ExpressionGraph
// (expression_graph.hpp) and stores each into an output slot. One tape computes all equations of
// a mode's flow, or a whole Jacobian, so subexpressions shared between outputs are computed once.
//
// Layout: registers hold t, the x, x' and z components and run-time parameters the tape reads,
// its constants, then the intermediate values. compile_tape orders the operations depth-first from
// the outputs, stores every output as soon as it is computed (fused into the operation that
// computes it, so a store costs no dispatch), merges a product used once into the multiplication,
// addition or subtraction that reads it (Mul3, MulAdd, MulSub, SubMul: one dispatch instead of two,
// same roundings), and reuses a register once its value has no later reader, so a tape needs few
// registers (kStackRegisters live on the stack; a larger tape uses a per-thread buffer that grows
// once). Evaluation allocates nothing in steady state.
//
// run() evaluates in any scalar S with the operators and functions of operations.hpp: double,
// saltus::Dual (ceres::Jet), a higher-order jet found by argument-dependent lookup, or
// saltus::IntervalJet (enclosures over an interval of time, core/interval_jet.hpp).
#pragma once

#include <ceres/jet.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/native_tape.hpp"

namespace saltus::lang {

// Registers a tape may use before it switches from the stack to a per-thread buffer.
inline constexpr int kStackRegisters = 128;

struct TapeInstruction {
  OpCode op = OpCode::Const;  // an operation (never a leaf), or Store
  std::int32_t out = 0;       // destination register (Store: the output slot)
  std::int32_t a = 0, b = 0, c = 0;
  std::int32_t slot = -1;  // >= 0: the result is also output `slot` (a store fused into the op)
  double exponent = 0.0;   // PowConst
};

// An output of a tape: the value of `node` goes to slot `slot` (the caller decides what a slot
// means: a component of x', an entry of a Jacobian, a state of a reset).
struct TapeOutput {
  NodeId node = kNoNode;
  std::int32_t slot = 0;
};

struct TapeLoad {
  std::int32_t reg = 0;
  std::int32_t index = 0;
};

struct Tape {
  std::vector<TapeInstruction> code;
  std::vector<std::pair<std::int32_t, double>> constants;  // (register, value)
  std::vector<TapeLoad> loads_x, loads_rate, loads_z;      // (register, component)
  std::int32_t time_register = -1;                         // -1: does not read t
  // Run-time parameters (register, parameter index), read from `parameter_values` (the graph's,
  // shared: setting a parameter is a write there, not a recompile).
  std::vector<TapeLoad> loads_p;
  std::shared_ptr<const std::vector<double>> parameter_values;
  std::vector<TapeLoad> leaf_outputs;  // (register, slot): outputs that are a t, x, x', z or
                                       // constant, stored before the code runs
  int registers = 0;
  int outputs = 0;  // number of slots (one past the largest slot)
  // Slots from this one on (-1: none) are conditions, such as an elimination's pivots: the
  // native function stores none of them and returns whether each is > 0 (native_tape.hpp), so a
  // flow's tape can write x' in place and say whether it applies. The interpreter stores them as
  // any slot, and run() interprets such a tape.
  int positive_from = -1;
  // Compiled to machine code once evaluated often in doubles (native_tape.hpp); shared by copies.
  std::shared_ptr<NativeTape> native = std::make_shared<NativeTape>();

  bool empty() const { return code.empty() && leaf_outputs.empty(); }  // stores nothing
  bool reads_state_rate() const { return !loads_rate.empty(); }
  // Whether every slot below `outputs` is stored (a caller may then read them all from an array
  // filled by the native function, without a sink).
  bool stores_every_slot() const;
  // Number of operations (stores and loads excluded).
  int operation_count() const;
};

// Tape computing `outputs` (nodes of `graph`). Slots may repeat nodes; nodes may be leaves or
// constants. A tape reading a run-time parameter shares graph.parameter_values() (throws
// std::logic_error when the graph has none, or fewer than the parameter's index).
Tape compile_tape(const ExpressionGraph& graph, const std::vector<TapeOutput>& outputs);

namespace detail {

// Register storage that does not default-construct its entries (a Jet constructor zeroes its
// derivative part: doing that for every register on each call would cost more than the tape).
template <class S>
class RegisterFile {
 public:
  static_assert(std::is_trivially_destructible_v<S>);
  explicit RegisterFile(int n) {
    if (n <= kStackRegisters) {
      base_ = stack_;
    } else {
      thread_local std::vector<unsigned char> heap;  // grows once per thread and type
      const size_t bytes = static_cast<size_t>(n) * sizeof(S) + alignof(S);
      if (heap.size() < bytes) heap.resize(bytes);
      void* p = heap.data();
      size_t space = heap.size();
      base_ = static_cast<unsigned char*>(std::align(alignof(S), sizeof(S), p, space));
    }
  }
  const S& operator[](int i) const {
    return *std::launder(reinterpret_cast<const S*>(base_ + static_cast<size_t>(i) * sizeof(S)));
  }
  void set(int i, const S& v) { new (base_ + static_cast<size_t>(i) * sizeof(S)) S(v); }

 private:
  alignas(S) unsigned char stack_[kStackRegisters * sizeof(S)];
  unsigned char* base_ = nullptr;
};

// run() without native code: the tape's operations one by one in S.
template <class S, class X, class XRate, class Z, class Sink>
void interpret(const Tape& tape, const S& t, const X& x, const XRate& xrate, const Z& z,
               Sink&& sink) {
  using ceres::abs, ceres::acos, ceres::asin, ceres::atan, ceres::atan2, ceres::cos, ceres::cosh,
      ceres::exp, ceres::log, ceres::pow, ceres::sin, ceres::sinh, ceres::sqrt, ceres::tan,
      ceres::tanh;
  using std::abs, std::acos, std::asin, std::atan, std::atan2, std::cos, std::cosh, std::exp,
      std::log, std::pow, std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
  RegisterFile<S> r(tape.registers);
  if (tape.time_register >= 0) r.set(tape.time_register, t);
  for (const TapeLoad& l : tape.loads_x) r.set(l.reg, S(x[l.index]));
  for (const TapeLoad& l : tape.loads_rate) r.set(l.reg, S(xrate[l.index]));
  for (const TapeLoad& l : tape.loads_z) r.set(l.reg, S(z[l.index]));
  if (!tape.loads_p.empty()) {
    const double* p = tape.parameter_values->data();
    for (const TapeLoad& l : tape.loads_p) r.set(l.reg, S(p[l.index]));
  }
  for (const auto& [reg, value] : tape.constants) r.set(reg, S(value));
  for (const TapeLoad& o : tape.leaf_outputs) sink(static_cast<int>(o.index), r[o.reg]);
  for (const TapeInstruction& in : tape.code) {
    const S& a = r[in.a];
    switch (in.op) {
      case OpCode::Store:
        sink(static_cast<int>(in.out), a);
        continue;
      case OpCode::Neg:
        r.set(in.out, S(-a));
        break;
      case OpCode::Add:
        r.set(in.out, S(a + r[in.b]));
        break;
      case OpCode::Sub:
        r.set(in.out, S(a - r[in.b]));
        break;
      case OpCode::Mul:
        r.set(in.out, S(a * r[in.b]));
        break;
      case OpCode::Div:
        r.set(in.out, S(a / r[in.b]));
        break;
      case OpCode::Pow:
        r.set(in.out, S(pow(a, r[in.b])));
        break;
      case OpCode::PowConst:
        r.set(in.out, S(pow(a, in.exponent)));
        break;
      case OpCode::Square:
        r.set(in.out, S(a * a));
        break;
      case OpCode::Sqrt:
        r.set(in.out, S(sqrt(a)));
        break;
      case OpCode::Exp:
        r.set(in.out, S(exp(a)));
        break;
      case OpCode::Log:
        r.set(in.out, S(log(a)));
        break;
      case OpCode::Sin:
        r.set(in.out, S(sin(a)));
        break;
      case OpCode::Cos:
        r.set(in.out, S(cos(a)));
        break;
      case OpCode::Tan:
        r.set(in.out, S(tan(a)));
        break;
      case OpCode::Asin:
        r.set(in.out, S(asin(a)));
        break;
      case OpCode::Acos:
        r.set(in.out, S(acos(a)));
        break;
      case OpCode::Atan:
        r.set(in.out, S(atan(a)));
        break;
      case OpCode::Atan2:
        r.set(in.out, S(atan2(a, r[in.b])));
        break;
      case OpCode::Sinh:
        r.set(in.out, S(sinh(a)));
        break;
      case OpCode::Cosh:
        r.set(in.out, S(cosh(a)));
        break;
      case OpCode::Tanh:
        r.set(in.out, S(tanh(a)));
        break;
      case OpCode::Abs:
        r.set(in.out, S(abs(a)));
        break;
      case OpCode::Sign:
        r.set(in.out, ops::sign(a));
        break;
      case OpCode::Min:
        r.set(in.out, ops::min(a, r[in.b]));
        break;
      case OpCode::Max:
        r.set(in.out, ops::max(a, r[in.b]));
        break;
      case OpCode::Less:
      case OpCode::LessEqual:
      case OpCode::Greater:
      case OpCode::GreaterEqual:
      case OpCode::Equal:
      case OpCode::NotEqual:
        r.set(in.out, ops::compare(in.op, a, r[in.b]));
        break;
      case OpCode::If:
        r.set(in.out, ops::choose(a, r[in.b], r[in.c]));
        break;
      case OpCode::Mul3:
        r.set(in.out, S(S(a * r[in.b]) * r[in.c]));
        break;
      case OpCode::MulAdd:
        r.set(in.out, S(S(a * r[in.b]) + r[in.c]));
        break;
      case OpCode::MulSub:
        r.set(in.out, S(S(a * r[in.b]) - r[in.c]));
        break;
      case OpCode::SubMul:
        r.set(in.out, S(r[in.c] - S(a * r[in.b])));
        break;
      default:  // leaves never appear as instructions
        break;
    }
    if (in.slot >= 0) sink(static_cast<int>(in.slot), r[in.out]);
  }
}

}  // namespace detail

// Evaluates `tape` at (t, x, x', z) and calls sink(slot, value) for each output. The vectors may
// hold S or double (read through S(v[i])); their sizes were checked when the tape was built.
template <class S, class X, class XRate, class Z, class Sink>
void run(const Tape& tape, const S& t, const X& x, const XRate& xrate, const Z& z, Sink&& sink) {
  if constexpr (std::is_same_v<S, double>) {
    if (NativeFunction native =
            tape.native && tape.positive_from < 0 ? tape.native->function(tape) : nullptr) {
      double xs[kNativeMaxValues], rates[kNativeMaxValues], zs[kNativeMaxValues];
      double out[kNativeMaxValues];
      // x given as a pointer to contiguous doubles is read in place (the flow's state).
      const double* x_in = xs;
      if constexpr (std::is_pointer_v<X>) {
        x_in = x;
      } else {
        for (const TapeLoad& l : tape.loads_x) xs[l.index] = x[l.index];
      }
      for (const TapeLoad& l : tape.loads_rate) rates[l.index] = xrate[l.index];
      for (const TapeLoad& l : tape.loads_z) zs[l.index] = z[l.index];
      const double* p = tape.loads_p.empty() ? nullptr : tape.parameter_values->data();
      native(t, x_in, rates, zs, p, out);
      for (int slot : tape.native->slots()) sink(slot, out[slot]);
      return;
    }
  }
  detail::interpret(tape, t, x, xrate, z, sink);
}

// For callers that hold x as contiguous doubles and read the output slots themselves (hot flows):
// the tape's native function when it is compiled (this call counts toward compiling it, as in
// run()), else nullptr (then detail::interpret). The tape must read no x' or z, so
// f(t, x, nullptr, nullptr, native_parameters(tape), out) is a complete call. For a tape with
// conditions (Tape::positive_from) f stores only the slots below them and returns their test.
inline NativeFunction native_function_in_place(const Tape& tape) {
  return tape.native ? tape.native->function(tape) : nullptr;
}
inline const double* native_parameters(const Tape& tape) {
  return tape.loads_p.empty() ? nullptr : tape.parameter_values->data();
}

// The value of a one-output tape (slot 0).
template <class S, class X, class XRate, class Z>
S evaluate(const Tape& tape, const S& t, const X& x, const XRate& xrate, const Z& z) {
  S out = S(0.0);
  run(tape, t, x, xrate, z, [&out](int, const S& v) { out = v; });
  return out;
}
template <class S, class X, class Z>
S evaluate(const Tape& tape, const S& t, const X& x, const Z& z) {
  return evaluate(tape, t, x, x, z);
}

}  // namespace saltus::lang
