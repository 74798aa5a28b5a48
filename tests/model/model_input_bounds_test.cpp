// Bounded inputs (issue 9, item 5): a model path that is not a regular file is refused without
// blocking, an oversized file without reading it all, every count in [solver] above its limit is
// refused at its line with the limit named, and `saltus check` (check_model_*) refuses what
// `saltus run` would fail on at t0.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_loader.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("saltus_input_bounds_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

// The one problem found; fails the test unless there is exactly one.
Diagnostic only_problem(const std::vector<Diagnostic>& problems) {
  EXPECT_EQ(problems.size(), 1u) << format_diagnostics(problems);
  return problems.empty() ? Diagnostic{} : problems.front();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kBall = R"toml([parameters]
g = 9.81
[states]
x = 1.0
v = 0.0
[modes.flight]
flow = ["x' = v", "v' = -g"]
[[modes.flight.guards]]
name = "impact"
value = "-x"
reset = ["v = -0.8*v"]
[solver]
t_end = 1.0
)toml";

// Regression: a FIFO as the model file blocked `saltus run` and `saltus check` forever.
TEST(ModelInputBounds, FifoModelFileIsRefusedWithoutBlocking) {
  const auto fifo = scratch("model.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Diagnostic d = only_problem(check_model_file(fifo));
  EXPECT_EQ(d.file, fifo.string());
  EXPECT_TRUE(contains(d.message, "FIFO")) << d.format();
  EXPECT_THROW(load_model_file(fifo), ModelError);
  std::filesystem::remove(fifo);
}

// Regression: /dev/zero as the model file was read until memory ran out (4 GB).
TEST(ModelInputBounds, DevZeroModelFileIsRefused) {
  const Diagnostic d = only_problem(check_model_file("/dev/zero"));
  EXPECT_EQ(d.file, "/dev/zero");
  EXPECT_TRUE(contains(d.message, "character device")) << d.format();
}

TEST(ModelInputBounds, FolderAsModelFileIsRefused) {
  const Diagnostic d = only_problem(check_model_file(models_dir()));
  EXPECT_TRUE(contains(d.message, "folder")) << d.format();
}

TEST(ModelInputBounds, ModelFileAboveTheSizeCapIsRefused) {
  const auto big = scratch("big.toml");
  { std::ofstream out(big); }
  // Sparse: no disk space needed for the test.
  std::filesystem::resize_file(big, kMaxModelFileBytes + 1);
  const Diagnostic d = only_problem(check_model_file(big));
  EXPECT_TRUE(contains(d.message, "limit is 16 MiB")) << d.format();
  std::filesystem::resize_file(big, kMaxModelFileBytes);  // at the cap: read, then parsed
  for (const Diagnostic& p : check_model_file(big)) {
    EXPECT_FALSE(contains(p.message, "limit")) << p.format();
  }
  std::filesystem::remove(big);
}

// Regression: guard_samples = 1e9 ended in bad_alloc and 2^31 was printed as -2147483648.
TEST(ModelInputBounds, GuardSamplesAboveItsLimitNamedAtItsLine) {
  for (const std::string value : {"1e9", "2147483648", "1001"}) {
    const std::string text = std::string(kBall) + "guard_samples = " + value + "\n";
    const Diagnostic d = only_problem(check_model_text(text, "gs.toml"));
    EXPECT_EQ(d.file, "gs.toml");
    EXPECT_EQ(d.line, 14) << d.format();
    EXPECT_TRUE(contains(d.message, "guard_samples")) << d.format();
    EXPECT_TRUE(contains(d.message, "exceeds the limit of 1000")) << d.format();
    EXPECT_FALSE(contains(d.message, "-2147483648")) << d.format();
  }
  EXPECT_TRUE(check_model_text(std::string(kBall) + "guard_samples = 1000\n", "gs.toml").empty());
}

TEST(ModelInputBounds, EveryCountInSolverHasALimit) {
  for (const std::string key : {"max_events", "zeno_cycles", "guard_samples"}) {
    const std::string text = std::string(kBall) + key + " = 1e14\n";
    const Diagnostic d = only_problem(check_model_text(text, "n.toml"));
    EXPECT_EQ(d.line, 14) << d.format();
    EXPECT_TRUE(contains(d.message, key + " = 100000000000000 exceeds the limit of")) << d.format();
  }
}

// Regression: `saltus check` accepted models that fail at once when run.
TEST(ModelInputBounds, CheckRefusesAnInfiniteEndTime) {
  std::string text = kBall;
  text.replace(text.find("t_end = 1.0"), 11, "t_end = inf");
  const Diagnostic d = only_problem(check_model_text(text, "inf.toml"));
  EXPECT_EQ(d.file, "inf.toml");
  EXPECT_TRUE(contains(d.message, "t_end = inf is not finite")) << d.format();
  EXPECT_THROW(load_model_text(text, "inf.toml"), ModelError);
}

TEST(ModelInputBounds, CheckRefusesANonFiniteParameter) {
  std::string text = kBall;
  text.replace(text.find("g = 9.81"), 8, "g = \"1/0\"");
  const Diagnostic d = only_problem(check_model_text(text, "p.toml"));
  EXPECT_TRUE(contains(d.message, "parameter 'g' = inf is not finite")) << d.format();
  EXPECT_THROW(load_model_text(text, "p.toml"), ModelError);
}

TEST(ModelInputBounds, CheckEvaluatesTheFlowAtTheInitialState) {
  std::string text = kBall;
  text.replace(text.find("\"v' = -g\""), 9, "\"v' = -g*sqrt(x - 2)\"");  // NaN at x = 1
  const Diagnostic d = only_problem(check_model_text(text, "nan.toml"));
  EXPECT_TRUE(contains(d.message, "non-finite-state")) << d.format();
  EXPECT_TRUE(contains(d.message, "flight")) << d.format();
}

TEST(ModelInputBounds, CheckEvaluatesTheAlgebraicStatesAtTheStart) {
  const auto file =
      std::filesystem::path(__FILE__).parent_path() / "data" / "inconsistent_algebraic.toml";
  const Diagnostic d = only_problem(check_model_file(file));
  EXPECT_EQ(d.file, file.string());
  EXPECT_TRUE(contains(d.message, "newton-failure")) << d.format();
}

TEST(ModelInputBounds, CheckRefusesAMassMatrixNotPositiveDefiniteAtQ0) {
  const auto problems = check_model_file(models_dir() / "bouncing_rod.toml", {"m=-1"});
  ASSERT_FALSE(problems.empty());
  EXPECT_TRUE(contains(format_diagnostics(problems), "bouncing_rod.toml"))
      << format_diagnostics(problems);
}

TEST(ModelInputBounds, CheckAcceptsEveryShippedModel) {
  for (const auto& e : std::filesystem::directory_iterator(models_dir())) {
    if (e.path().extension() != ".toml") continue;
    EXPECT_TRUE(check_model_file(e.path()).empty())
        << format_diagnostics(check_model_file(e.path()));
  }
}

}  // namespace
}  // namespace saltus::model
