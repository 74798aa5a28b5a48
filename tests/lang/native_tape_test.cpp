// Native tapes (lang/native_tape.hpp): the machine code libgccjit generates for a tape gives the
// interpreter's outputs bit for bit, on seeded random expression graphs over t, x, z and run-time
// parameters and on whole runs of model files; tapes it does not cover stay interpreted and say
// why.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/native_tape.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"
#include "support/random_expression.hpp"

namespace saltus::lang {
namespace {

// Sets the compile threshold for one scope.
class ScopedThreshold {
 public:
  explicit ScopedThreshold(long evaluations) : saved_(native_tape_threshold()) {
    set_native_tape_threshold(evaluations);
  }
  ~ScopedThreshold() { set_native_tape_threshold(saved_); }

 private:
  long saved_;
};

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

using testing::random_expression;

TEST(NativeTape, RandomTapesGiveTheInterpretersBits) {
  if (!native_tapes_available()) {  // under CI, which installs libgccjit, a failure
    ASSERT_EQ(std::getenv("CI"), nullptr) << "CI build without libgccjit";
    GTEST_SKIP() << "saltus was built without libgccjit";
  }
  const ScopedThreshold interpreted(-1);
  std::mt19937 rng(2026112601);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    ExpressionGraph g;
    auto params = std::make_shared<std::vector<double>>(std::vector<double>{0.7, -1.3});
    g.share_parameter_values(params);
    std::vector<NodeId> leaves = {g.time(), g.parameter(0), g.parameter(1), g.algebraic(0)};
    for (int i = 0; i < 6; ++i) leaves.push_back(g.state(i));
    std::vector<TapeOutput> outputs;
    for (int k = 0; k < 1 + trial % 7; ++k) {
      outputs.push_back({random_expression(g, rng, leaves, 2 + trial % 4), k});
    }
    outputs.push_back({leaves[4], static_cast<std::int32_t>(outputs.size())});  // a leaf output
    const Tape tape = compile_tape(g, outputs);
    Tape interpreted = tape;  // its own, never compiled state
    interpreted.native = std::make_shared<NativeTape>();
    ASSERT_NE(tape.native->compile(tape), nullptr) << tape.native->failure();
    for (int s = 0; s < 25; ++s) {
      // A parameter written after the compile is read by the native code too.
      (*params)[0] = value(rng);
      std::vector<double> x(6), z = {value(rng)};
      for (double& v : x) v = value(rng);
      const double t = value(rng);
      std::vector<double> expected(outputs.size(), 0.0), native(outputs.size(), 1.0);
      ASSERT_EQ(interpreted.native->function(interpreted), nullptr);
      run(interpreted, t, x, x, z, [&](int k, double v) { expected[static_cast<size_t>(k)] = v; });
      run(tape, t, x, x, z, [&](int k, double v) { native[static_cast<size_t>(k)] = v; });
      for (size_t k = 0; k < outputs.size(); ++k) {
        EXPECT_TRUE(same_bits(expected[k], native[k]))
            << "trial " << trial << " output " << k << ": " << expected[k] << " vs " << native[k];
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 40 * 25);
}

// Condition slots (Tape::positive_from, a flow's pivots): the native function stores the slots
// below them with the interpreter's bits, leaves the condition slots alone, and returns 1 exactly
// when the interpreter's value of every condition is > 0 (a NaN condition fails); run() gives
// every slot, conditions included, as the interpreter does.
TEST(NativeTape, ConditionSlotsAreTestedNotStored) {
  if (!native_tapes_available()) {  // under CI, which installs libgccjit, a failure
    ASSERT_EQ(std::getenv("CI"), nullptr) << "CI build without libgccjit";
    GTEST_SKIP() << "saltus was built without libgccjit";
  }
  const ScopedThreshold interpreted(-1);
  std::mt19937 rng(2026112602);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  int passed = 0, failed = 0, with_nan = 0;
  for (int trial = 0; trial < 30; ++trial) {
    ExpressionGraph g;
    auto params = std::make_shared<std::vector<double>>(std::vector<double>{0.7});
    g.share_parameter_values(params);
    std::vector<NodeId> leaves = {g.time(), g.parameter(0)};
    for (int i = 0; i < 4; ++i) leaves.push_back(g.state(i));
    std::vector<TapeOutput> outputs;
    const int stored = 1 + trial % 4, conditions = 1 + trial % 3;
    for (int k = 0; k < stored; ++k) {
      outputs.push_back({random_expression(g, rng, leaves, 2 + trial % 3), k});
    }
    for (int c = 0; c < conditions; ++c) {
      // Positive, negative, zero or NaN at random states: an offset expression, and sqrt of a
      // state that may be negative.
      const NodeId e = c == 2 ? g.make(OpCode::Sqrt, leaves[2])
                              : g.make(OpCode::Add, random_expression(g, rng, leaves, 2),
                                       g.constant(c == 0 ? 1.0 : 0.0));
      outputs.push_back({e, stored + c});
    }
    Tape tape = compile_tape(g, outputs);
    tape.positive_from = stored;
    Tape reference = tape;  // its own, never compiled state
    reference.native = std::make_shared<NativeTape>();
    const NativeFunction f = tape.native->compile(tape);
    ASSERT_NE(f, nullptr) << tape.native->failure();
    for (int s = 0; s < 25; ++s) {
      (*params)[0] = value(rng);
      std::vector<double> x(4);
      for (double& v : x) v = value(rng);
      const double t = value(rng);
      std::vector<double> expected(outputs.size(), 0.0), via_run(outputs.size(), 0.0);
      detail::interpret(reference, t, x, x, x,
                        [&](int k, double v) { expected[static_cast<size_t>(k)] = v; });
      run(tape, t, x, x, x, [&](int k, double v) { via_run[static_cast<size_t>(k)] = v; });
      constexpr double kUntouched = -12345.0;
      std::vector<double> out(outputs.size(), kUntouched);
      const int ok = f(t, x.data(), nullptr, nullptr, params->data(), out.data());
      bool all_positive = true;
      for (size_t k = 0; k < outputs.size(); ++k) {
        EXPECT_TRUE(same_bits(expected[k], via_run[k])) << "trial " << trial << " slot " << k;
        if (static_cast<int>(k) < stored) {
          EXPECT_TRUE(same_bits(expected[k], out[k])) << "trial " << trial << " slot " << k;
        } else {
          EXPECT_EQ(out[k], kUntouched) << "trial " << trial << " condition " << k;
          all_positive = all_positive && expected[k] > 0.0;
          with_nan += std::isnan(expected[k]) ? 1 : 0;
        }
      }
      EXPECT_EQ(ok, all_positive ? 1 : 0) << "trial " << trial << " sample " << s;
      (all_positive ? passed : failed) += 1;
    }
  }
  // Both answers, and NaN conditions, were exercised.
  EXPECT_GT(passed, 50);
  EXPECT_GT(failed, 50);
  EXPECT_GT(with_nan, 10);
}

TEST(NativeTape, TapesWithComparisonsStayInterpreted) {
  ExpressionGraph g;
  const NodeId x = g.state(0);
  const Tape tape = compile_tape(g, {{g.make(OpCode::Max, x, g.constant(0.0)), 0}});
  EXPECT_EQ(tape.native->compile(tape), nullptr);
  const std::string why = tape.native->failure();
  EXPECT_NE(why.find(native_tapes_available() ? "comparisons" : "without libgccjit"),
            std::string::npos)
      << why;
  const std::vector<double> at = {-2.0};
  EXPECT_EQ(evaluate(tape, 0.0, at, at), 0.0);  // still evaluated, by the interpreter
}

// A model's tapes are compiled together (one libgccjit compilation, compile_together): compiling
// one publishes every member that can be generated, each with the interpreter's bits; one that
// cannot stays interpreted and says why; the members may move after being grouped.
TEST(NativeTape, TapesCompiledTogetherArePublishedAtOnce) {
  if (!native_tapes_available()) {  // under CI, which installs libgccjit, a failure
    ASSERT_EQ(std::getenv("CI"), nullptr) << "CI build without libgccjit";
    GTEST_SKIP() << "saltus was built without libgccjit";
  }
  const ScopedThreshold interpreted_unless_compiled(-1);
  std::mt19937 rng(2026112602);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  ExpressionGraph g;
  std::vector<NodeId> leaves = {g.time(), g.algebraic(0)};
  for (int i = 0; i < 4; ++i) leaves.push_back(g.state(i));
  std::vector<Tape> tapes;
  for (int k = 0; k < 6; ++k) {
    tapes.push_back(compile_tape(
        g, {{random_expression(g, rng, leaves, 3), 0}, {random_expression(g, rng, leaves, 2), 1}}));
  }
  tapes.push_back(compile_tape(g, {{g.make(OpCode::Max, leaves[2], g.constant(0.0)), 0}}));
  std::vector<const Tape*> members;
  for (const Tape& t : tapes) members.push_back(&t);
  compile_together(members);
  // Interpreted copies, with states of their own, for the expected values.
  std::vector<Tape> reference = tapes;
  for (Tape& t : reference) t.native = std::make_shared<NativeTape>();
  // Grouped tapes moved elsewhere (the group keeps copies of their code).
  std::vector<Tape> moved = std::move(tapes);
  for (const Tape& t : moved) EXPECT_EQ(t.native->function(t), nullptr);
  ASSERT_NE(moved[2].native->compile(moved[2]), nullptr) << moved[2].native->failure();
  for (size_t k = 0; k + 1 < moved.size(); ++k) {
    EXPECT_NE(moved[k].native->function(moved[k]), nullptr) << "member " << k;
  }
  EXPECT_EQ(moved.back().native->function(moved.back()), nullptr);
  EXPECT_NE(moved.back().native->failure().find("comparisons"), std::string::npos)
      << moved.back().native->failure();
  int compared = 0;
  for (int s = 0; s < 50; ++s) {
    std::vector<double> x(4), z = {value(rng)};
    for (double& v : x) v = value(rng);
    const double t = value(rng);
    for (size_t k = 0; k < moved.size(); ++k) {
      double expected[2] = {0.0, 0.0}, got[2] = {1.0, 1.0};
      run(reference[k], t, x, x, z, [&](int i, double v) { expected[i] = v; });
      run(moved[k], t, x, x, z, [&](int i, double v) { got[i] = v; });
      for (int i = 0; i < (k + 1 < moved.size() ? 2 : 1); ++i) {
        EXPECT_TRUE(same_bits(expected[i], got[i])) << "tape " << k << " output " << i;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 50 * (6 * 2 + 1));
}

// Whole runs: every tape native from its first double evaluation against every tape interpreted.
TEST(NativeTape, ModelRunsAreBitIdentical) {
  if (!native_tapes_available()) {  // under CI, which installs libgccjit, a failure
    ASSERT_EQ(std::getenv("CI"), nullptr) << "CI build without libgccjit";
    GTEST_SKIP() << "saltus was built without libgccjit";
  }
  for (const std::string file : {"chaplygin_sleigh.toml", "bouncing_ball_drag.toml",
                                 "forced_damped_oscillator.toml", "bouncing_rod.toml"}) {
    SCOPED_TRACE(file);
    const auto run_with = [&](long threshold) {
      const ScopedThreshold scope(threshold);
      return model::run_model(std::make_shared<const model::Model>(
          model::load_model_file(saltus::testing::models_dir() / file)));
    };
    const model::ModelRun native = run_with(0), interpreted = run_with(-1);
    ASSERT_TRUE(interpreted.succeeded()) << interpreted.message();
    ASSERT_TRUE(native.succeeded()) << native.message();
    const EventLog& a = native.result.events;
    const EventLog& b = interpreted.result.events;
    ASSERT_EQ(a.size(), b.size());
    for (long i = 0; i < a.size(); ++i) {
      EXPECT_TRUE(same_bits(a[i].t, b[i].t)) << "event " << i;
      for (Eigen::Index j = 0; j < a.x_after(i).size(); ++j) {
        EXPECT_TRUE(same_bits(a.x_after(i)[j], b.x_after(i)[j])) << "event " << i;
      }
    }
    const Vector& xa = native.result.x_final;
    const Vector& xb = interpreted.result.x_final;
    for (Eigen::Index j = 0; j < xa.size(); ++j) EXPECT_TRUE(same_bits(xa[j], xb[j]));
  }
}

}  // namespace
}  // namespace saltus::lang
