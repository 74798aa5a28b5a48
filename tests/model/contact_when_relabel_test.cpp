// A rigid contact's `when` (where it can be hit) and `relabel` (coordinates renamed after an
// impact that leaves it closed), docs/MODEL_FORMAT.md "Walkers" (issue 47 item 4): a ledge that
// exists only beyond x = L is hit only there, in closed form, over seeded random throws; a start
// below a contact that cannot be hit there is allowed, below one that can is refused; a relabel
// that is no symmetry of the model, or that renames a velocity, is refused at its line.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::num;

// A ball thrown from (0, h) with speed v along x over a floor y = 0 that exists for x > L only.
std::string ledge(double h, double v, double L, double e) {
  return R"toml(
[model]
name = "ledge"
[parameters]
g = 9.81
[coordinates]
x = { initial = 0.0, velocity = )toml" +
         num(v) + R"toml( }
y = { initial = )toml" +
         num(h) + R"toml(, velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*(x'^2 + y'^2)"
potential_energy = "g*y"
[[contacts]]
name = "ledge"
gap = "y"
law = "newton"
e = )toml" +
         num(e) +
         R"toml(
when = "x > )toml" +
         num(L) + R"toml("
[solver]
t_end = 3.0
integrator = "dop853"
rtol = 1e-12
atol = 1e-14
)toml";
}

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "ledge.toml")));
}

TEST(ContactWhen, ALedgeIsHitOnlyWhereItsWhenHolds) {
  std::mt19937 rng(47);
  std::uniform_real_distribution<double> height(0.2, 2.0), speed(0.5, 3.0), wall(0.1, 3.0);
  const double g = 9.81;
  int hits = 0, misses = 0;
  for (int draw = 0; draw < 24; ++draw) {
    const double h = height(rng), v = speed(rng), L = wall(rng), e = 0.6;
    const double t1 = std::sqrt(2.0 * h / g), x1 = v * t1;
    if (std::abs(x1 - L) < 0.05) continue;  // too near the ledge's edge to say which
    SCOPED_TRACE("h " + num(h) + " v " + num(v) + " L " + num(L));
    const ModelRun r = run_text(ledge(h, v, L, e));
    ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
    const EventLog& ev = r.result.events;
    if (x1 > L) {
      // Lands on the ledge at t1 and bounces with e: the next landings follow in closed form.
      ++hits;
      ASSERT_GE(ev.size(), 1);
      EXPECT_NEAR(ev[0].t, t1, 1e-10 * t1);
      EXPECT_NEAR(ev.x_after(0)[3], e * g * t1, 1e-9 * g * t1);
      if (ev.size() >= 2) {
        EXPECT_NEAR(ev[1].t, t1 + 2.0 * e * t1, 1e-9 * t1);
      }
    } else {
      // Falls past the edge: y passes zero where the ledge is not, and nothing happens after,
      // even when x passes L below the surface (the contact waits for y to come back up).
      ++misses;
      EXPECT_EQ(ev.size(), 0);
      EXPECT_NEAR(r.result.x_final[1], h - 0.5 * g * 9.0, 1e-8 * g * 9.0);
    }
  }
  EXPECT_GT(hits, 3);
  EXPECT_GT(misses, 3);
}

TEST(ContactWhen, AStartBelowAContactIsRefusedOnlyWhereItCanBeHit) {
  // y = -0.1 below the floor: beside the ledge (x = 0 < L = 1) a start, on it an error.
  const std::string below = ledge(-0.1, 1.0, 1.0, 0.5);
  const ModelRun r = run_text(below);
  EXPECT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
  std::string on = below;
  on.replace(on.find("x > 1"), 5, "x > -1");
  try {
    (void)run_text(on);
    ADD_FAILURE() << "a start 0.1 below a contact that can be hit there was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("penetrates the contact"), std::string::npos) << e.what();
  }
}

TEST(ContactWhen, BadWhenAndRelabelAreRefusedAtTheirLines) {
  const std::string base = ledge(1.0, 1.0, 0.5, 0.5);
  std::string text = base;
  text.replace(text.find("when = \"x > 0.5\""), 16, "when = \"x - 0.5\"");
  expect_load_refused(text, "is not a condition");
  text = base;
  text.replace(text.find("when = "), 0, "relabel = [\"x' = y'\"]\n");
  expect_load_refused(text, "relabel: left side 'x' ' has the wrong form");
  text = base;
  text.replace(text.find("when = "), 0, "relabel = [\"x = y'\"]\n");
  expect_load_refused(text, "relabel of 'x' depends on the velocity y'");
}

TEST(ContactRelabel, ARenamingThatIsNoSymmetryIsRefusedNamingTheLine) {
  // x <-> y on the ledge: the floor's gap y would become x, no contact's gap.
  std::string text = ledge(1.0, 1.0, 0.5, 0.5);
  text.replace(text.find("when = "), 0, "relabel = [\"x = y\", \"y = x\"]\n");
  try {
    (void)run_text(text);
    ADD_FAILURE() << "a relabel that is no symmetry was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ledge.toml:17:"), std::string::npos) << what;
    EXPECT_NE(what.find("contact 'ledge': relabel carries the gap"), std::string::npos) << what;
  }
  // Two contacts that trade places but a kinetic energy that is not symmetric: the legs of a
  // walker of unequal masses.
  const std::string legs = R"toml(
[model]
name = "legs"
[parameters]
g = 9.81
[coordinates]
a = { initial = 0.3, velocity = 0.0 }
b = { initial = -0.3, velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*a'^2 + 0.7*b'^2"
potential_energy = "-g*(cos(a) + cos(b))"
[[contacts]]
name = "one"
gap = "1 + sin(a)"
law = "newton"
e = 0.0
[[contacts]]
name = "two"
gap = "1 + sin(b)"
law = "newton"
e = 0.0
relabel = ["a = b", "b = a"]
[solver]
t_end = 1.0
)toml";
  try {
    (void)run_text(legs);
    ADD_FAILURE() << "an asymmetric relabel was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ledge.toml:22:"), std::string::npos) << what;
    EXPECT_NE(what.find("is not a symmetry of the kinetic energy"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace saltus::model
