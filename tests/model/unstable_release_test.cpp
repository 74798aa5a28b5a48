// A body released next to an unstable equilibrium between two walls (issue 44): its coordinate
// grows by orders of magnitude before the first impact, and the contacts' penetration levels
// (Guard::scale_offset, a fraction of the gap's scale) must grow with it. They were refreshed
// only when a scale doubled within one step, so from x0 <= 1e-4 they stayed at the start's
// scale and the run stopped at its first wall with reset-failed "penetrates by -2.9e-15" (an
// open gap). Released at 1e-3 .. 1e-8 and at 0 (the equilibrium: no motion), every run reaches
// t_end; the particle's first impact is at its closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

std::string between_walls(const std::string& coordinate, const std::string& potential, double start,
                          double wall, double t_end) {
  return "[model]\nname = \"released\"\ntime_unit = \"s\"\n[parameters]\nm = 1.0\n"
         "[coordinates]\n" +
         coordinate + " = { initial = " + num(start) +
         ", velocity = 0.0 }\n"
         "[mechanics]\nkinetic_energy = \"0.5*m*" +
         coordinate + "'^2\"\npotential_energy = \"" + potential +
         "\"\n"
         "[[contacts]]\nname = \"right\"\nbody = \"b\"\ngap = \"" +
         num(wall) + " - " + coordinate +
         "\"\nlaw = \"newton\"\ne = 0.9\n"
         "[[contacts]]\nname = \"left\"\nbody = \"b\"\ngap = \"" +
         num(wall) + " + " + coordinate +
         "\"\nlaw = \"newton\"\ne = 0.9\n"
         "[solver]\nt_end = " +
         num(t_end) + "\nrtol = 1e-10\natol = 1e-22\n";
}

std::string first_guard(const ModelRun& r) {
  const EventLog& log = r.result.events;
  if (log.size() == 0 || log[0].guard < 0) return "";
  return r.system.mode(log[0].mode_before).guards[static_cast<size_t>(log[0].guard)].name;
}

// x'' = x from x0 > 0: x = x0 cosh t reaches the wall at 1 at t = acosh(1 / x0). (atol 1e-22:
// states from 1e-8 are controlled relative to their size, as a user starting there would ask.)
TEST(UnstableRelease, AParticleOnXddotEqualsXBouncesToTheEnd) {
  for (const double x0 : {1e-3, 1e-4, 1e-6, 1e-8, 0.0}) {
    SCOPED_TRACE("x0 = " + num(x0));
    const double t_end = 25.0;
    const ModelRun r = run_model(std::make_shared<const Model>(
        load_model_text(between_walls("x", "-0.5*m*x^2", x0, 1.0, t_end), "particle.toml")));
    ASSERT_TRUE(r.succeeded()) << r.message();
    EXPECT_EQ(r.result.summary.t_final, t_end);
    if (x0 == 0.0) {
      EXPECT_EQ(r.result.events.size(), 0);  // at the equilibrium: no motion
      continue;
    }
    ASSERT_GE(r.result.events.size(), 1);
    EXPECT_EQ(first_guard(r), "impact:right");
    EXPECT_NEAR(r.result.events[0].t, std::acosh(1.0 / x0), 1e-7);
  }
}

// theta'' = (g / l) sin theta (an inverted pendulum, m l^2 = 1) between stops at +-0.5 rad.
TEST(UnstableRelease, AnInvertedPendulumBetweenStopsBouncesToTheEnd) {
  for (const double theta0 : {1e-3, 1e-4, 1e-8, 0.0}) {
    SCOPED_TRACE("theta0 = " + num(theta0));
    const double t_end = 20.0;
    const ModelRun r = run_model(std::make_shared<const Model>(load_model_text(
        between_walls("theta", "9.81*m*cos(theta)", theta0, 0.5, t_end), "pendulum.toml")));
    ASSERT_TRUE(r.succeeded()) << r.message();
    EXPECT_EQ(r.result.summary.t_final, t_end);
    if (theta0 == 0.0) {
      EXPECT_EQ(r.result.events.size(), 0);
      continue;
    }
    ASSERT_GE(r.result.events.size(), 1);
    EXPECT_EQ(first_guard(r), "impact:right");
  }
}

}  // namespace
}  // namespace saltus::model
