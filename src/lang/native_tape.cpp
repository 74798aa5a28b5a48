// Tapes compiled to machine code by libgccjit (native_tape.hpp): each tape register becomes a
// local double, each instruction an assignment, each store a write to out[slot].
#include "saltus/lang/native_tape.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "saltus/lang/tape.hpp"

#ifdef SALTUS_HAVE_GCCJIT
#include <libgccjit.h>
#endif

namespace saltus::lang {

namespace {
// SALTUS_NATIVE_TAPE_THRESHOLD in the environment sets the initial value (benchmarks, or -1 to
// keep every tape interpreted).
long initial_threshold() {
  const char* text = std::getenv("SALTUS_NATIVE_TAPE_THRESHOLD");
  return text && *text ? std::strtol(text, nullptr, 10) : 100000;
}
std::atomic<long> threshold{initial_threshold()};
}  // namespace

long native_tape_threshold() {
  return threshold.load(std::memory_order_relaxed);
}
void set_native_tape_threshold(long evaluations) {
  threshold.store(evaluations, std::memory_order_relaxed);
}

std::string NativeTape::failure() const {
  return failed_.load(std::memory_order_acquire) ? failure_ : std::string();
}

void NativeTape::publish(NativeFunction f, std::vector<int> slots, std::shared_ptr<void> code) {
  code_ = std::move(code);
  slots_ = std::move(slots);
  function_.store(f, std::memory_order_release);
}

void NativeTape::fail(std::string why) {
  failure_ = std::move(why);
  failed_.store(true, std::memory_order_release);
}

#ifndef SALTUS_HAVE_GCCJIT

bool native_tapes_available() {
  return false;
}

NativeFunction NativeTape::compile(const Tape&) {
  std::call_once(once_, [this] { fail("saltus was built without libgccjit"); });
  return nullptr;
}

void compile_together(const std::vector<const Tape*>&) {}

#else

bool native_tapes_available() {
  return true;
}

namespace {

// Why `tape` cannot be generated ("" when it can), and the slots it stores in order.
std::string check(const Tape& tape, std::vector<int>& slots) {
  const auto too_large = [](const std::vector<TapeLoad>& loads) {
    return std::any_of(loads.begin(), loads.end(),
                       [](const TapeLoad& l) { return l.index >= kNativeMaxValues; });
  };
  if (too_large(tape.loads_x) || too_large(tape.loads_rate) || too_large(tape.loads_z) ||
      tape.outputs > kNativeMaxValues) {
    return "more than " + std::to_string(kNativeMaxValues) + " inputs or outputs";
  }
  const auto stored = [&tape](int slot) {
    return tape.positive_from < 0 || slot < tape.positive_from;
  };
  for (const TapeLoad& o : tape.leaf_outputs) {
    if (stored(o.index)) slots.push_back(o.index);
  }
  for (const TapeInstruction& in : tape.code) {
    if (is_comparison(in.op) || in.op == OpCode::Sign || in.op == OpCode::Min ||
        in.op == OpCode::Max || in.op == OpCode::If) {
      return "the tape has comparisons, if, min, max or sign";
    }
    if (in.op == OpCode::Store) {
      if (stored(in.out)) slots.push_back(in.out);
    } else if (in.slot >= 0 && stored(in.slot)) {
      slots.push_back(in.slot);
    }
  }
  return "";
}

// The generator: one context, the function `tape` under construction.
class Generator {
 public:
  Generator() : ctx_(gcc_jit_context_acquire()) {
    gcc_jit_context_set_int_option(ctx_, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 2);
    double_ = gcc_jit_context_get_type(ctx_, GCC_JIT_TYPE_DOUBLE);
    int_ = gcc_jit_context_get_type(ctx_, GCC_JIT_TYPE_INT);
  }
  ~Generator() { gcc_jit_context_release(ctx_); }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Adds the exported function `name` computing `tape`.
  void add(const Tape& tape, const std::string& name) {
    regs_.clear();
    gcc_jit_type* in = gcc_jit_type_get_pointer(gcc_jit_type_get_const(double_));
    gcc_jit_param* params[6] = {
        gcc_jit_context_new_param(ctx_, nullptr, double_, "t"),
        gcc_jit_context_new_param(ctx_, nullptr, in, "x"),
        gcc_jit_context_new_param(ctx_, nullptr, in, "rate"),
        gcc_jit_context_new_param(ctx_, nullptr, in, "z"),
        gcc_jit_context_new_param(ctx_, nullptr, in, "p"),
        gcc_jit_context_new_param(ctx_, nullptr, gcc_jit_type_get_pointer(double_), "out")};
    fn_ = gcc_jit_context_new_function(ctx_, nullptr, GCC_JIT_FUNCTION_EXPORTED, int_, name.c_str(),
                                       6, params, 0);
    block_ = gcc_jit_function_new_block(fn_, "body");
    positive_from_ = tape.positive_from;
    ok_ = gcc_jit_function_new_local(fn_, nullptr, int_, "ok");
    gcc_jit_block_add_assignment(block_, nullptr, ok_,
                                 gcc_jit_context_new_rvalue_from_int(ctx_, int_, 1));
    for (int i = 0; i < tape.registers; ++i) {
      std::string name = "r";  // not "r" + to_string: GCC 12 warns (-Wrestrict) on that
      name += std::to_string(i);
      regs_.push_back(gcc_jit_function_new_local(fn_, nullptr, double_, name.c_str()));
    }
    const auto param = [&](int k) { return gcc_jit_param_as_rvalue(params[k]); };
    if (tape.time_register >= 0) assign(tape.time_register, param(0));
    for (const TapeLoad& l : tape.loads_x) assign(l.reg, element(param(1), l.index));
    for (const TapeLoad& l : tape.loads_rate) assign(l.reg, element(param(2), l.index));
    for (const TapeLoad& l : tape.loads_z) assign(l.reg, element(param(3), l.index));
    for (const TapeLoad& l : tape.loads_p) assign(l.reg, element(param(4), l.index));
    for (const auto& [reg, value] : tape.constants) {
      assign(reg, gcc_jit_context_new_rvalue_from_double(ctx_, double_, value));
    }
    out_ = param(5);
    for (const TapeLoad& o : tape.leaf_outputs) store(o.index, reg(o.reg));
    for (const TapeInstruction& i : tape.code) {
      if (i.op == OpCode::Store) {
        store(i.out, reg(i.a));
        continue;
      }
      assign(i.out, operation(i));
      if (i.slot >= 0) store(i.slot, reg(i.out));
    }
    gcc_jit_block_end_with_return(block_, nullptr, gcc_jit_lvalue_as_rvalue(ok_));
  }
  gcc_jit_result* compile() { return gcc_jit_context_compile(ctx_); }
  std::string error() const {
    const char* e = gcc_jit_context_get_first_error(ctx_);
    return e ? e : "compile failed";
  }

 private:
  gcc_jit_rvalue* reg(int r) { return gcc_jit_lvalue_as_rvalue(regs_[static_cast<size_t>(r)]); }
  gcc_jit_rvalue* element(gcc_jit_rvalue* array, int index) {
    return gcc_jit_lvalue_as_rvalue(gcc_jit_context_new_array_access(
        ctx_, nullptr, array, gcc_jit_context_new_rvalue_from_int(ctx_, int_, index)));
  }
  void assign(int r, gcc_jit_rvalue* value) {
    gcc_jit_block_add_assignment(block_, nullptr, regs_[static_cast<size_t>(r)], value);
  }
  // out[slot] = value, or for a condition slot ok &= (value > 0): a NaN fails it, and the
  // bitwise and keeps the code free of branches.
  void store(int slot, gcc_jit_rvalue* value) {
    if (positive_from_ >= 0 && slot >= positive_from_) {
      gcc_jit_rvalue* zero = gcc_jit_context_new_rvalue_from_double(ctx_, double_, 0.0);
      gcc_jit_rvalue* positive = gcc_jit_context_new_cast(
          ctx_, nullptr,
          gcc_jit_context_new_comparison(ctx_, nullptr, GCC_JIT_COMPARISON_GT, value, zero), int_);
      gcc_jit_block_add_assignment(
          block_, nullptr, ok_,
          gcc_jit_context_new_binary_op(ctx_, nullptr, GCC_JIT_BINARY_OP_BITWISE_AND, int_,
                                        gcc_jit_lvalue_as_rvalue(ok_), positive));
      return;
    }
    gcc_jit_block_add_assignment(
        block_, nullptr,
        gcc_jit_context_new_array_access(ctx_, nullptr, out_,
                                         gcc_jit_context_new_rvalue_from_int(ctx_, int_, slot)),
        value);
  }
  gcc_jit_rvalue* binary(enum gcc_jit_binary_op op, gcc_jit_rvalue* a, gcc_jit_rvalue* b) {
    return gcc_jit_context_new_binary_op(ctx_, nullptr, op, double_, a, b);
  }
  // A libm function of one or two doubles (the interpreter's std:: overloads call the same).
  gcc_jit_rvalue* call(const char* name, gcc_jit_rvalue* a, gcc_jit_rvalue* b = nullptr) {
    const int n = b ? 2 : 1;
    gcc_jit_function*& f = imported_[name];  // declared once per context
    if (!f) {
      gcc_jit_param* p[2] = {gcc_jit_context_new_param(ctx_, nullptr, double_, "a"),
                             gcc_jit_context_new_param(ctx_, nullptr, double_, "b")};
      f = gcc_jit_context_new_function(ctx_, nullptr, GCC_JIT_FUNCTION_IMPORTED, double_, name, n,
                                       p, 0);
    }
    gcc_jit_rvalue* args[2] = {a, b};
    return gcc_jit_context_new_call(ctx_, nullptr, f, n, args);
  }
  // GCC's built-in sin, cos or sqrt: the same libm results (sqrt is exact; sin and cos of the
  // same register become one sincos call, which glibc computes bit-identically to sin and cos)
  // at about 3/4 of the cost of the two calls. Only these three: as a built-in, pow(x, 2) would
  // become x * x, which need not equal libm's pow in the last bit.
  gcc_jit_rvalue* builtin(const char* name, gcc_jit_rvalue* a) {
    gcc_jit_rvalue* args[1] = {a};
    return gcc_jit_context_new_call(ctx_, nullptr, gcc_jit_context_get_builtin_function(ctx_, name),
                                    1, args);
  }
  gcc_jit_rvalue* operation(const TapeInstruction& i) {
    gcc_jit_rvalue* a = reg(i.a);
    const auto b = [&] { return reg(i.b); };
    const auto c = [&] { return reg(i.c); };
    switch (i.op) {
      case OpCode::Neg:
        return gcc_jit_context_new_unary_op(ctx_, nullptr, GCC_JIT_UNARY_OP_MINUS, double_, a);
      case OpCode::Add:
        return binary(GCC_JIT_BINARY_OP_PLUS, a, b());
      case OpCode::Sub:
        return binary(GCC_JIT_BINARY_OP_MINUS, a, b());
      case OpCode::Mul:
        return binary(GCC_JIT_BINARY_OP_MULT, a, b());
      case OpCode::Div:
        return binary(GCC_JIT_BINARY_OP_DIVIDE, a, b());
      case OpCode::Square:
        return binary(GCC_JIT_BINARY_OP_MULT, a, a);
      case OpCode::Mul3:
        return binary(GCC_JIT_BINARY_OP_MULT, binary(GCC_JIT_BINARY_OP_MULT, a, b()), c());
      case OpCode::MulAdd:
        return binary(GCC_JIT_BINARY_OP_PLUS, binary(GCC_JIT_BINARY_OP_MULT, a, b()), c());
      case OpCode::MulSub:
        return binary(GCC_JIT_BINARY_OP_MINUS, binary(GCC_JIT_BINARY_OP_MULT, a, b()), c());
      case OpCode::SubMul:
        return binary(GCC_JIT_BINARY_OP_MINUS, c(), binary(GCC_JIT_BINARY_OP_MULT, a, b()));
      case OpCode::Pow:
        return call("pow", a, b());
      case OpCode::PowConst:
        return call("pow", a, gcc_jit_context_new_rvalue_from_double(ctx_, double_, i.exponent));
      case OpCode::Atan2:
        return call("atan2", a, b());
      case OpCode::Sqrt:
        return builtin("__builtin_sqrt", a);
      case OpCode::Exp:
        return call("exp", a);
      case OpCode::Log:
        return call("log", a);
      case OpCode::Sin:
        return builtin("__builtin_sin", a);
      case OpCode::Cos:
        return builtin("__builtin_cos", a);
      case OpCode::Tan:
        return call("tan", a);
      case OpCode::Asin:
        return call("asin", a);
      case OpCode::Acos:
        return call("acos", a);
      case OpCode::Atan:
        return call("atan", a);
      case OpCode::Sinh:
        return call("sinh", a);
      case OpCode::Cosh:
        return call("cosh", a);
      case OpCode::Tanh:
        return call("tanh", a);
      case OpCode::Abs:
        return call("fabs", a);
      default:  // excluded by check()
        return a;
    }
  }

  gcc_jit_context* ctx_;
  gcc_jit_type* double_ = nullptr;
  gcc_jit_type* int_ = nullptr;
  gcc_jit_function* fn_ = nullptr;
  gcc_jit_block* block_ = nullptr;
  gcc_jit_rvalue* out_ = nullptr;
  gcc_jit_lvalue* ok_ = nullptr;  // the conditions' test (Tape::positive_from)
  int positive_from_ = -1;
  std::vector<gcc_jit_lvalue*> regs_;
  std::map<std::string, gcc_jit_function*> imported_;
};

}  // namespace

// Tapes compiled in one libgccjit compilation (compile_together): copies of their code, and
// their compile states, published when the first of them is compiled.
class NativeTapeGroup {
 public:
  void add(const Tape& tape, const std::weak_ptr<NativeTape>& state) {
    Tape code = tape;
    code.native.reset();  // the group must not own the states that own it
    members_.push_back({std::move(code), state});
  }

  // Compiles the members whose states still exist, once.
  void compile() {
    std::call_once(once_, [this] {
      std::vector<std::shared_ptr<NativeTape> > alive;  // held while compiling
      std::vector<Job> jobs;
      for (const Member& m : members_) {
        if (std::shared_ptr<NativeTape> state = m.state.lock()) {
          jobs.push_back({&m.code, state.get()});
          alive.push_back(std::move(state));
        }
      }
      compile_jobs(jobs);
    });
  }

  struct Job {
    const Tape* code;
    NativeTape* state;
  };
  // Generates every job's tape that can be, compiles them in one compilation, and publishes each
  // one's function (or why it stays interpreted).
  static void compile_jobs(const std::vector<Job>& jobs) {
    Generator g;
    struct Generated {
      NativeTape* state;
      std::string name;
      std::vector<int> slots;
    };
    std::vector<Generated> generated;
    for (size_t k = 0; k < jobs.size(); ++k) {
      std::vector<int> slots;
      const std::string why = check(*jobs[k].code, slots);
      if (!why.empty()) {
        jobs[k].state->fail(why);
        continue;
      }
      std::string name = "tape";  // not "tape" + to_string: GCC 12 warns (-Wrestrict)
      name += std::to_string(k);
      g.add(*jobs[k].code, name);
      generated.push_back({jobs[k].state, std::move(name), std::move(slots)});
    }
    if (generated.empty()) return;
    gcc_jit_result* result = g.compile();
    if (!result) {
      for (Generated& m : generated) m.state->fail(g.error());
      return;
    }
    const std::shared_ptr<void> code(
        result, [](void* r) { gcc_jit_result_release(static_cast<gcc_jit_result*>(r)); });
    for (Generated& m : generated) {
      void* f = gcc_jit_result_get_code(result, m.name.c_str());
      if (f) {
        m.state->publish(reinterpret_cast<NativeFunction>(f), std::move(m.slots), code);
      } else {
        m.state->fail(g.error());
      }
    }
  }

 private:
  struct Member {
    Tape code;
    std::weak_ptr<NativeTape> state;
  };
  std::vector<Member> members_;
  std::once_flag once_;
};

NativeFunction NativeTape::compile(const Tape& tape) {
  if (group_) {
    group_->compile();
  } else {
    std::call_once(once_, [this, &tape] { NativeTapeGroup::compile_jobs({{&tape, this}}); });
  }
  return function_.load(std::memory_order_acquire);
}

void compile_together(const std::vector<const Tape*>& tapes) {
  auto group = std::make_shared<NativeTapeGroup>();
  for (const Tape* t : tapes) {
    NativeTape* state = t->native.get();
    // Already compiled (or refused): its code may be running, leave it alone.
    if (!state || state->group_ || state->function_.load() || state->failed_.load()) continue;
    group->add(*t, t->native);
    state->group_ = group;
  }
}

#endif

}  // namespace saltus::lang
