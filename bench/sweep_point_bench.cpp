// Issue 14: where a sweep point's time goes for models/bouncing_ball.toml: loading the model
// from its text (done once per point, parameters folded) or from its file, and running it.
// Decides whether reading the file once per sweep matters and what run-time parameters
// (issue 14 item 1) would save.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"

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

}  // namespace

BENCHMARK_MAIN();
