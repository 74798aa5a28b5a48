// A Moreau-Jean stretch takes its step from the contact's own time scale (issue 44 item 4;
// mech/contact_time_scale.hpp), so it is the same wherever the floor is, in any units and for any
// t_end. The classical Painleve rod (m = l = 1, J = 1/3, g = 9.81, tan th = 2, mu = 1.5 > 4/3)
// put on a floor at height Y0 at rest normally, its tip sliding in -x at 1 m/s with thdot = 1 rad/s
// (b = sin th - g < 0: no consistent motion) starts with a stretch. Before, the step was
// sqrt(rtol) sqrt(S / a) with S the coordinates' magnitude: the floor at 1e6 m took a step 1000
// times coarser, and the final state moved by 1.5e-4; without a scale the step was 1e-6 t_end.
// Here the floor is at 0, 1e3 and 1e6 m, the model in metres and millimetres, t_end 0.2, 2 and
// 20: the same stretches with the same step, the same events and the same final state relative
// to the floor.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "saltus/bridge/bridged_run.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using namespace saltus::bridge;

using saltus::testing::num;

// Lengths in units of 1/U m (U = 1: metres, U = 1000: millimetres).
std::string rod_on_floor(double Y0, double U, double t_end, double lift = 0.0) {
  const double th = std::atan(2.0), thdot = 1.0, v_t = -1.0;
  return "[model]\nname = \"painleve_rod\"\ntime_unit = \"s\"\n[parameters]\nm = 1.0\nl = " +
         num(U) + "\nJ = \"m*l^2/3\"\ng = " + num(9.81 * U) + "\nmu = 1.5\nY0 = " + num(Y0) +
         "\n[coordinates]\nx = { initial = 0.0, velocity = " +
         num(U * (v_t - std::sin(th) * thdot)) + " }\ny = { initial = \"Y0 + l*sin(" + num(th) +
         ") + " + num(lift) + "\", velocity = " + num(U * std::cos(th) * thdot) +
         " }\ntheta = { initial = " + num(th) + ", velocity = " + num(thdot) +
         " }\n"
         "[mechanics]\nkinetic_energy = \"0.5*m*(x'^2 + y'^2) + 0.5*J*theta'^2\"\n"
         "potential_energy = \"m*g*y\"\n"
         "[[contacts]]\nname = \"tip\"\nbody = \"rod\"\ngap = \"y - Y0 - l*sin(theta)\"\n"
         "tangent = \"x - l*cos(theta)\"\nlaw = \"routh_poisson\"\ne = 0.0\nmu = \"mu\"\n"
         "[solver]\nt_end = " +
         num(t_end) + "\nintegrator = \"dop853\"\nrtol = 1e-12\natol = 1e-14\n";
}

struct RodRun {
  ModelRun run;
  double Y0, U;
};

RodRun run_rod(double Y0, double U, double t_end, double lift = 0.0) {
  return {run_model(std::make_shared<const Model>(
              load_model_text(rod_on_floor(Y0, U, t_end, lift), "painleve_rod.toml"))),
          Y0, U};
}

// The state in metres relative to the floor.
Vector in_metres(const RodRun& r, const Vector& x) {
  Vector out = x;
  out[0] /= r.U;
  out[1] = (x[1] - r.Y0) / r.U;
  out[3] /= r.U;
  out[4] /= r.U;
  return out;
}

void expect_same(const RodRun& ref, const RodRun& other, double tol) {
  const ModelRun &a = ref.run, &b = other.run;
  ASSERT_TRUE(b.succeeded()) << b.message();
  ASSERT_EQ(b.bridge_log.stretches.size(), a.bridge_log.stretches.size());
  for (size_t k = 0; k < a.bridge_log.stretches.size(); ++k) {
    EXPECT_EQ(b.bridge_log.stretches[k].steps, a.bridge_log.stretches[k].steps) << k;
    EXPECT_NEAR(b.bridge_log.stretches[k].step, a.bridge_log.stretches[k].step,
                1e-9 * a.bridge_log.stretches[k].step)
        << k;
    EXPECT_NEAR(b.bridge_log.stretches[k].t_end, a.bridge_log.stretches[k].t_end, 1e-9) << k;
  }
  const EventLog &ea = a.result.events, &eb = b.result.events;
  ASSERT_EQ(eb.size(), ea.size());
  for (long i = 0; i < ea.size(); ++i) {
    EXPECT_EQ(eb[i].guard, ea[i].guard) << i;
    EXPECT_NEAR(eb[i].t, ea[i].t, 1e-9) << i;
  }
  const Vector xa = in_metres(ref, a.result.x_final), xb = in_metres(other, b.result.x_final);
  for (Eigen::Index k = 0; k < xa.size(); ++k) EXPECT_NEAR(xb[k], xa[k], tol) << k;
}

TEST(PainleveStretchInvariance, TheFloorsHeightAndTheUnitsChangeNothing) {
  const RodRun ref = run_rod(0.0, 1.0, 0.2);
  ASSERT_TRUE(ref.run.succeeded()) << ref.run.message();
  ASSERT_GE(ref.run.bridge_log.stretches.size(), 1u);
  EXPECT_EQ(ref.run.bridge_log.stretches[0].t_start, 0.0);
  for (const double Y0 : {1e3, 1e6}) {
    SCOPED_TRACE("Y0 = " + num(Y0));
    // The round-off of y at Y0 (ulp(1e6) = 1.2e-10 m) is what remains: 6.5e-12 m at 1e3 and
    // 4.4e-10 m at 1e6 (before: 1.3e-5 and 1.5e-4).
    expect_same(ref, run_rod(Y0, 1.0, 0.2), 1e-14 * Y0 + 1e-12);
  }
  SCOPED_TRACE("millimetres");
  expect_same(ref, run_rod(0.0, 1000.0, 0.2), 1e-12);
}

TEST(PainleveStretchInvariance, TheRunsLengthChangesNothing) {
  const RodRun ref = run_rod(0.0, 1.0, 0.2);
  ASSERT_TRUE(ref.run.succeeded()) << ref.run.message();
  ASSERT_GE(ref.run.bridge_log.stretches.size(), 1u);
  for (const double t_end : {2.0, 20.0}) {
    SCOPED_TRACE("t_end = " + num(t_end));
    const RodRun longer = run_rod(0.0, 1.0, t_end);
    ASSERT_TRUE(longer.run.succeeded()) << longer.run.message();
    ASSERT_GE(longer.run.bridge_log.stretches.size(), 1u);
    const BridgeStretch &a = ref.run.bridge_log.stretches[0],
                        &b = longer.run.bridge_log.stretches[0];
    EXPECT_EQ(b.step, a.step);
    EXPECT_EQ(b.steps, a.steps);
    EXPECT_EQ(b.t_end, a.t_end);
    EXPECT_EQ(b.handed_back_to, a.handed_back_to);
  }
}

// A tip 1e-13 m above the floor (within the engine's guard band of the gap, so its impact guard
// fires at t0, where the impact has no answer) starts the same way wherever the floor is: before,
// the start's touching band was 1e-8 of the coordinates, and the rod started free with the floor
// at 0 and with a Painleve stretch with the floor at 5.
TEST(PainleveStretchInvariance, ATipJustAboveTheFloorStartsTheSameAtAnyHeight) {
  const RodRun ref = run_rod(0.0, 1.0, 0.05, 1e-13);
  ASSERT_TRUE(ref.run.succeeded()) << ref.run.message();
  ASSERT_GE(ref.run.bridge_log.stretches.size(), 1u);
  SCOPED_TRACE("Y0 = 5");
  const RodRun raised = run_rod(5.0, 1.0, 0.05, 1e-13);
  EXPECT_GT(raised.run.model->initial_state()[1] - 5.0 - std::sin(std::atan(2.0)), 0.0);
  expect_same(ref, raised, 1e-12);
  EXPECT_EQ(raised.run.bridge_log.stretches[0].reason, ref.run.bridge_log.stretches[0].reason);
  EXPECT_EQ(raised.run.bridge_log.stretches[0].t_start, ref.run.bridge_log.stretches[0].t_start);
}

}  // namespace
}  // namespace saltus::model
