// Contact forces as trajectory columns (contact_force_columns.hpp): the box sliding on two
// corners has the closed-form normal forces (m g / 2)(1 -/+ mu b / a) and friction -mu lambda_N
// while it slides, m g / 2 on each corner and no net friction once it sticks; a free body has
// zero forces; trajectory.csv carries the same columns.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/contact_force_columns.hpp"
#include "saltus/run/run_outputs.hpp"
#include "support/model_files.hpp"

namespace saltus::run {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

int column(const ContactForceColumns& f, const std::string& name) {
  for (size_t k = 0; k < f.names.size(); ++k) {
    if (f.names[k] == name) return static_cast<int>(k);
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST(ContactForceColumns, SlidingBoxHasTheClosedFormForcesThenSticks) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> friction(0.2, 0.8), speed(1.0, 3.0);
  for (int trial = 0; trial < 5; ++trial) {
    const double mu = friction(rng), v0 = speed(rng);
    const model::ModelRun run =
        model::run_model(std::make_shared<const model::Model>(model::load_model_file(
            models_dir() / "box_sliding_two_corners.toml",
            {"mu=" + num(mu), "v0=" + num(v0), "t_end=" + num(1.5 * v0 / (mu * 9.81) + 0.1)})));
    ASSERT_TRUE(run.succeeded()) << run.message();
    const ContactForceColumns f = contact_force_columns(run);
    ASSERT_EQ(f.names.size(), 4u);
    const int nt = column(f, "lambda_N:trailing"), tt = column(f, "lambda_T:trailing");
    const int nl = column(f, "lambda_N:leading"), tl = column(f, "lambda_T:leading");
    const double m = 2.0, g = 9.81, a = 0.5, b = 0.25, stop = v0 / (mu * g);
    const double half = m * g / 2, tol = 1e-9 * m * g;
    const Trajectory& tr = run.result.trajectory;
    int sliding = 0, sticking = 0;
    for (long i = 0; i < tr.size(); ++i) {
      if (tr.t(i) < stop - 1e-6) {
        ++sliding;
        EXPECT_NEAR(f.values(i, nt), half * (1 - mu * b / a), tol) << "t = " << tr.t(i);
        EXPECT_NEAR(f.values(i, nl), half * (1 + mu * b / a), tol) << "t = " << tr.t(i);
        EXPECT_NEAR(f.values(i, tt), -mu * f.values(i, nt), tol);
        EXPECT_NEAR(f.values(i, tl), -mu * f.values(i, nl), tol);
      } else if (tr.t(i) > stop + 1e-6) {
        ++sticking;
        EXPECT_NEAR(f.values(i, nt), half, tol) << "t = " << tr.t(i);
        EXPECT_NEAR(f.values(i, nl), half, tol) << "t = " << tr.t(i);
        EXPECT_NEAR(f.values(i, tt) + f.values(i, tl), 0.0, tol);  // only the sum is unique
      }
    }
    EXPECT_GT(sliding, 10);
    EXPECT_GT(sticking, 5);
    // trajectory.csv: the same names after the states, contacts in the order of their names
    // (the file declares trailing first).
    const std::string csv = model_trajectory_csv(run);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(header.substr(header.size() - 69),
              "lambda_N:leading,lambda_T:leading,lambda_N:trailing,lambda_T:trailing");
  }
}

TEST(ContactForceColumns, FreeFlightHasNoForceAndModelsWithoutContactsNoColumns) {
  const model::ModelRun rod =
      model::run_model(std::make_shared<const model::Model>(model::load_model_file(
          models_dir() / "bouncing_rod.toml", {"contacts.tip.law=newton", "t_end=0.2"})));
  ASSERT_TRUE(rod.succeeded()) << rod.message();
  ASSERT_TRUE(rod.result.events.size() == 0) << "the rod must still be in flight at 0.2 s";
  const ContactForceColumns f = contact_force_columns(rod);
  ASSERT_EQ(f.names, std::vector<std::string>{"lambda_N:tip"});  // newton: frictionless
  EXPECT_EQ(f.values.cwiseAbs().maxCoeff(), 0.0);
  const model::ModelRun ball = model::run_model(std::make_shared<const model::Model>(
      model::load_model_file(models_dir() / "bouncing_ball.toml")));
  EXPECT_TRUE(contact_force_columns(ball).names.empty());  // explicit modes: its own lambda
}

}  // namespace
}  // namespace saltus::run
