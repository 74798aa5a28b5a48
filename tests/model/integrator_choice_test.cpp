// [solver] without `integrator`: DOP853 below rtol 1e-10, Dopri5 above; an explicit choice is kept.
// On the drag ball at rtol 1e-12 the automatic choice needs fewer flow evaluations than Dopri5 for
// the same impact times (counts, not timings).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

std::shared_ptr<const Model> drag_ball(const std::vector<std::string>& sets) {
  return std::make_shared<const Model>(
      load_model_file(models_dir() / "bouncing_ball_drag.toml", sets));
}

TEST(IntegratorChoice, ByToleranceUnlessGiven) {
  EXPECT_EQ(drag_ball({"rtol=1e-12"})->options.integrator, Integrator::Dop853);
  EXPECT_EQ(drag_ball({"rtol=1e-11"})->options.integrator, Integrator::Dop853);
  EXPECT_EQ(drag_ball({"rtol=1e-10"})->options.integrator, Integrator::Dopri5);
  EXPECT_EQ(drag_ball({"rtol=1e-8"})->options.integrator, Integrator::Dopri5);
  EXPECT_EQ(drag_ball({"rtol=1e-12", "solver.integrator=dopri5"})->options.integrator,
            Integrator::Dopri5);
  EXPECT_EQ(drag_ball({"rtol=1e-6", "solver.integrator=dop853"})->options.integrator,
            Integrator::Dop853);
}

TEST(IntegratorChoice, TightToleranceCostsFewerFlowEvaluations) {
  const ModelRun chosen = run_model(drag_ball({"rtol=1e-12", "atol=1e-14"}));
  const ModelRun dopri5 =
      run_model(drag_ball({"rtol=1e-12", "atol=1e-14", "solver.integrator=dopri5"}));
  ASSERT_TRUE(chosen.succeeded()) << chosen.message();
  ASSERT_TRUE(dopri5.succeeded()) << dopri5.message();
  ASSERT_EQ(chosen.result.events.size(), dopri5.result.events.size());
  for (long i = 0; i < chosen.result.events.size(); ++i) {
    EXPECT_NEAR(chosen.result.events[i].t, dopri5.result.events[i].t, 1e-10) << "impact " << i;
  }
  const long a = chosen.result.summary.stepper.rhs_evaluations;
  const long b = dopri5.result.summary.stepper.rhs_evaluations;
  EXPECT_LT(a, b) << "DOP853 " << a << " flow evaluations, Dopri5 " << b;
  std::printf("drag ball at rtol 1e-12: %ld flow evaluations (DOP853), %ld (Dopri5)\n", a, b);
}

}  // namespace
}  // namespace saltus::model
