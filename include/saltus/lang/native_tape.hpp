// Native code for tapes: a tape evaluated often in doubles is compiled once, at run time, into a
// machine-code function by libgccjit (GCC's embedded compiler, Debian's libgccjit-12-dev), which
// then replaces the interpreter's dispatch loop (tape.hpp) for double evaluations. Jets (Dual,
// ChunkDual, second-order) stay interpreted.
//
// Same numbers: the function performs the tape's operations in the tape's order, each rounded
// once (no contraction into fused multiply-adds: the code is generated for the baseline x86-64
// instruction set, as the interpreter is compiled), and calls the same libm functions, so its
// outputs equal the interpreter's bit for bit (tests/lang/native_tape_test.cpp).
//
// When: after native_tape_threshold() double evaluations of one tape (default 100000, or the
// environment's SALTUS_NATIVE_TAPE_THRESHOLD; -1 never, 0 at once: a compile
// takes 30-90 ms, the break-even of a 40-operation tape is a few 10^5 evaluations), by the
// thread that crosses it; other threads keep interpreting until the code is published. Tapes
// with operations the generator does not cover (comparisons, if, min, max, sign), more than
// kNativeMaxValues inputs or outputs, or a failed compile stay interpreted for good.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace saltus::lang {

struct Tape;

// Inputs (t, x, x', z components, parameters) and outputs a native tape may have.
inline constexpr int kNativeMaxValues = 64;

// out[slot] for every slot the tape stores, from t and the dense arrays of x, x', z, p. Returns
// 1 when every condition slot of the tape (Tape::positive_from) is > 0 (not NaN), else 0; those
// slots are not stored. A tape without conditions returns 1.
using NativeFunction = int (*)(double t, const double* x, const double* rate, const double* z,
                               const double* p, double* out);

// True when saltus was built with libgccjit.
bool native_tapes_available();
// Evaluations before a tape is compiled; 0: at its first double evaluation; < 0: never.
long native_tape_threshold();
void set_native_tape_threshold(long evaluations);

class NativeTapeGroup;

// The compile-once state of one tape (shared by its copies).
class NativeTape {
 public:
  // The native function of `tape` once it exists, else nullptr; counts the call and compiles
  // when the count reaches the threshold.
  NativeFunction function(const Tape& tape) {
    if (NativeFunction f = function_.load(std::memory_order_acquire)) return f;
    if (failed_.load(std::memory_order_relaxed)) return nullptr;
    const long threshold = native_tape_threshold();
    if (threshold < 0) return nullptr;
    // A relaxed load and store, not an atomic increment: a lost count only delays the compile,
    // and threads evaluating the same tape do not contend on a locked instruction.
    const long count = evaluations_.load(std::memory_order_relaxed) + 1;
    evaluations_.store(count, std::memory_order_relaxed);
    if (count < threshold) return nullptr;
    return compile(tape);
  }
  // Compiles now (tests, benchmarks); nullptr where the tape stays interpreted.
  NativeFunction compile(const Tape& tape);
  // Why the tape stays interpreted ("" while it may still be compiled or when it was).
  std::string failure() const;
  // The slots the native function writes, in the order the interpreter stores them.
  const std::vector<int>& slots() const { return slots_; }

 private:
  friend class NativeTapeGroup;
  friend void compile_together(const std::vector<const Tape*>& tapes);
  void publish(NativeFunction f, std::vector<int> slots, std::shared_ptr<void> code);
  void fail(std::string why);

  std::atomic<NativeFunction> function_{nullptr};
  std::atomic<bool> failed_{false};
  std::atomic<long> evaluations_{0};
  std::once_flag once_;
  std::string failure_;
  std::vector<int> slots_;
  std::shared_ptr<void> code_;              // keeps the compiled code alive
  std::shared_ptr<NativeTapeGroup> group_;  // compiled with these tapes (compile_together)
};

// Marks `tapes` (a model's hot tapes) to be compiled together, in one libgccjit compilation, when
// the first of them is compiled. Each compilation runs the assembler and the linker as processes,
// ~55 ms whatever the tape: a model's twelve tapes took 0.67 s one by one. Tapes that cannot be
// generated stay interpreted (failure() says why). The tapes' code is copied: they may move.
void compile_together(const std::vector<const Tape*>& tapes);

}  // namespace saltus::lang
