// Issue 14: where a sweep point's time goes for models/bouncing_ball.toml: loading the model
// from its text (done once per point, parameters folded) or from its file, and running it.
// Decides whether reading the file once per sweep matters and what run-time parameters
// (issue 14 item 1) save: the cost of setting one against one flow evaluation, and a point run
// on the model built once. Also the 100-value e sweep through run_sweep() against the
// hand-written C++ loop the issue compares with (2 threads, each loading and running its half).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/sweep.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace {

const std::filesystem::path kBall =
    std::filesystem::path(__FILE__).parent_path().parent_path() / "models" / "bouncing_ball.toml";

std::string ball_text() {
  std::ifstream in(kBall);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void LoadFromText(benchmark::State& state) {
  const std::string text = ball_text();
  for (auto _ : state) {
    benchmark::DoNotOptimize(saltus::model::load_model_text(text, kBall.string(), {"e=0.5"}));
  }
}
BENCHMARK(LoadFromText);

void LoadFromFile(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(saltus::model::load_model_file(kBall, {"e=0.5"}));
}
BENCHMARK(LoadFromFile);

void RunLoadedModel(benchmark::State& state) {
  auto m = std::make_shared<const saltus::model::Model>(
      saltus::model::load_model_file(kBall, {"e=0.5"}));
  for (auto _ : state) benchmark::DoNotOptimize(saltus::model::run_model(m));
}
BENCHMARK(RunLoadedModel);

// The ball loaded once with e at run time, built once.
struct BuiltBall {
  saltus::model::ModelRun run;
  saltus::model::ModelStart start;
  BuiltBall() {
    saltus::model::LoadOptions options;
    options.runtime_parameters = {"e"};
    start =
        saltus::model::prepare_model_run(std::make_shared<const saltus::model::Model>(
                                             saltus::model::load_model_file(kBall, {}, options)),
                                         run);
  }
};

void SetRuntimeParameter(benchmark::State& state) {
  BuiltBall ball;
  double e = 0.5;
  for (auto _ : state) {
    saltus::model::set_runtime_parameter(*ball.run.model, "e", e);
    e = e == 0.5 ? 0.6 : 0.5;
  }
}
BENCHMARK(SetRuntimeParameter);

// One evaluation of the flight mode's flow, as the integrator calls it.
void FlowEvaluation(benchmark::State& state) {
  BuiltBall ball;
  const saltus::Mode& flight = ball.run.system.mode(ball.start.mode);
  saltus::Vector x = ball.start.x0, dx(2);
  const saltus::Vector z(0);
  for (auto _ : state) {
    flight.flow.rhs(0.1, x, z, dx);
    benchmark::DoNotOptimize(dx.data());
  }
}
BENCHMARK(FlowEvaluation);

void RunBuiltModelAfterSet(benchmark::State& state) {
  BuiltBall ball;
  for (auto _ : state) {
    saltus::model::set_runtime_parameter(*ball.run.model, "e", 0.5);
    saltus::model::simulate_model_run(ball.run, ball.start);
    benchmark::DoNotOptimize(ball.run.result.summary.zeno_time);
  }
}
BENCHMARK(RunBuiltModelAfterSet);

// A C++ system built from the mech layer takes its parameters as a struct of numbers captured
// by its callables: a new value is a rebuild (no parsing, no tapes). Its cost, for the sleigh in
// its ellipse (model, walls, compiled modes).
void RebuildMechanicalCppSystem(benchmark::State& state) {
  const saltus::systems::EllipticTable table{2.0, 1.0};
  saltus::systems::ChaplyginSleigh sleigh{1.0, 0.1, 0.3, 0.3};
  for (auto _ : state) {
    sleigh.a = sleigh.a == 0.3 ? 0.31 : 0.3;
    const auto model = saltus::systems::chaplygin_sleigh(sleigh, table);
    benchmark::DoNotOptimize(model.compile());
  }
}
BENCHMARK(RebuildMechanicalCppSystem);

std::vector<double> e_values() {
  std::vector<double> e;
  for (int k = 0; k < 100; ++k) e.push_back(k == 99 ? 0.95 : 0.05 + 0.9 * k / 99);
  return e;
}

void SweepHundredValues(benchmark::State& state) {
  saltus::run::SweepSpec spec;
  spec.model_file = kBall;
  spec.axes = {saltus::run::parse_sweep_axis("e=0.05:0.95:100")};
  spec.collect = {"zeno_time"};
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(saltus::run::run_sweep(spec, threads));
}
BENCHMARK(SweepHundredValues)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void HandWrittenLoopHundredValues(benchmark::State& state) {
  const std::vector<double> e = e_values();
  for (auto _ : state) {
    std::vector<double> zeno(e.size());
    auto half = [&](size_t first) {
      for (size_t i = first; i < e.size(); i += 2) {
        char value[40];
        std::snprintf(value, sizeof value, "e=%.17g", e[i]);
        auto m = std::make_shared<const saltus::model::Model>(
            saltus::model::load_model_file(kBall, {value}));
        zeno[i] = saltus::model::run_model(m).result.summary.zeno_time;
      }
    };
    std::thread other(half, 1);
    half(0);
    other.join();
    benchmark::DoNotOptimize(zeno);
  }
}
BENCHMARK(HandWrittenLoopHundredValues)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
