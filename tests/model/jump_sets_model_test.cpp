// Jump sets (a guard's `when`) and shared flows (flow = "@mode"), docs/MODEL_FORMAT.md: a guard
// whose surface the flow crosses twice per period fires only at the crossing where its condition
// holds, against the closed form; a reset that leaves the state on that surface moving in while
// the condition is false is no failure (the same model without `when` fails); a NaN condition at
// a crossing stops the run naming the guard, its condition and the value.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::expect_load_refused;
using saltus::testing::num;

// A walker-like rotor: th' = w, w' = a (a > 0, so th keeps increasing). The guard sin(2 th)
// rises through zero at th = 0 and at th = pi (mod 2 pi): twice per turn. Only the second is a
// "strike" (cos(th) < 0); its reset takes th back by pi + delta and sets w = e w + c. With
// delta > 0 the flow crosses th = 0 (outside the jump set) every period; with delta = 0 the reset
// lands on the surface at th = 0 moving into the trigger side, outside the jump set.
constexpr const char* kRotor = R"toml([model]
name = "rotor"
[parameters]
a = 0.5
e = 0.8
c = 0.3
delta = 0.2
[states]
th = -0.3
w = 1.0
[modes.roll]
flow = ["th' = w", "w' = a"]
[[modes.roll.guards]]
name = "strike"
value = "sin(2*th)"
direction = "rising"
when = "cos(th) < 0"
reset = ["th = th - pi - delta", "w = e*w + c"]
[solver]
t_end = 20.0
rtol = 1e-12
atol = 1e-12
h_max = 0.2  # sin(2 th) turns within the long steps of a polynomial flow (ARCHITECTURE rule 1)
)toml";

struct Strike {
  double t, w_minus;
};

// The strikes of the rotor in closed form: from (t_k, th_k, w_k), th reaches pi after s with
// a/2 s^2 + w_k s + th_k - pi = 0.
std::vector<Strike> closed_form_strikes(double a, double e, double c, double delta, double th0,
                                        double w0, double t_end) {
  std::vector<Strike> out;
  double t = 0.0, th = th0, w = w0;
  for (;;) {
    const double s = (-w + std::sqrt(w * w - 2.0 * a * (th - std::numbers::pi))) / a;
    if (t + s > t_end) return out;
    t += s;
    const double w_minus = w + a * s;
    out.push_back({t, w_minus});
    th = -delta;
    w = e * w_minus + c;
  }
}

std::shared_ptr<const Model> rotor(const std::vector<std::string>& set,
                                   const std::string& text = kRotor) {
  return std::make_shared<const Model>(load_model_text(text, "rotor.toml", set));
}

std::string without_when(std::string text) {
  const std::string line = "when = \"cos(th) < 0\"\n";
  text.erase(text.find(line), line.size());
  return text;
}

void expect_closed_form(const ModelRun& run, double a, double e, double c, double delta, double th0,
                        double w0) {
  ASSERT_TRUE(run.succeeded()) << run.message();
  const std::vector<Strike> want = closed_form_strikes(a, e, c, delta, th0, w0, 20.0);
  const EventLog& log = run.result.events;
  ASSERT_EQ(log.size(), static_cast<long>(want.size())) << "a = " << a << ", delta = " << delta;
  for (long k = 0; k < log.size(); ++k) {
    const Strike& s = want[static_cast<size_t>(k)];
    // rtol 1e-12 over a few periods: event times to ~1e-10 (the closed form is exact).
    EXPECT_NEAR(log[k].t, s.t, 1e-9 * (1.0 + s.t)) << "strike " << k;
    EXPECT_NEAR(log.x_before(k)[0], std::numbers::pi, 1e-9) << "strike " << k;  // at th = pi
    EXPECT_NEAR(log.x_before(k)[1], s.w_minus, 1e-9) << "strike " << k;
    EXPECT_NEAR(log.x_after(k)[1], e * s.w_minus + c, 1e-9) << "strike " << k;
  }
}

TEST(JumpSets, OnlyTheCrossingInsideTheJumpSetFiresAtTheClosedFormTimes) {
  std::mt19937 rng(20330533);
  std::uniform_real_distribution<double> acc(0.1, 1.0), rest(0.5, 0.95), push(0.1, 0.5),
      back(0.05, 0.5), start(0.05, 0.5), speed(0.6, 2.0);
  for (int trial = 0; trial < 12; ++trial) {
    const double a = acc(rng), e = rest(rng), c = push(rng), delta = back(rng);
    const double th0 = -start(rng), w0 = speed(rng);
    const auto m = rotor({"a=" + num(a), "e=" + num(e), "c=" + num(c), "delta=" + num(delta),
                          "th=" + num(th0), "w=" + num(w0)});
    expect_closed_form(run_model(m), a, e, c, delta, th0, w0);
  }
}

TEST(JumpSets, ExampleModelStrikesAtTheClosedFormTimes) {
  const auto m = std::make_shared<const Model>(
      load_model_file(saltus::testing::models_dir() / "rotor_jump_set.toml"));
  expect_closed_form(run_model(m), 0.5, 0.8, 0.3, 0.2, -0.3, 1.0);
}

TEST(JumpSets, ResetOntoTheSurfaceOutsideTheJumpSetIsNoFailure) {
  // delta = 0: the strike's reset leaves th = pi - pi on the surface sin(2 th) = 0 moving in.
  const std::vector<std::string> set = {"delta=0"};
  expect_closed_form(run_model(rotor(set)), 0.5, 0.8, 0.3, 0.0, -0.3, 1.0);
  // Without the jump set the crossing at th = 0 fires, and its reset (to th = -pi with a new
  // rate) leaves the guard on its surface moving in: the walker's reset-failed of issue 33.
  const ModelRun plain = run_model(rotor(set, without_when(kRotor)));
  EXPECT_EQ(plain.result.termination(), Termination::ResetFailed) << plain.message();
  EXPECT_NEAR(plain.result.summary.t_final, (-1.0 + std::sqrt(1.0 + 2 * 0.5 * 0.3)) / 0.5, 1e-9);
}

TEST(JumpSets, StartOnTheTriggerSideOutsideTheJumpSetWaits) {
  // th0 = 0.3: sin(0.6) > 0 is the trigger side, cos(0.3) > 0 is outside the jump set.
  expect_closed_form(run_model(rotor({"th=0.3"})), 0.5, 0.8, 0.3, 0.2, 0.3, 1.0);
  const ModelRun plain = run_model(rotor({"th=0.3"}, without_when(kRotor)));
  EXPECT_EQ(plain.result.termination(), Termination::InvalidInput) << plain.message();
}

TEST(JumpSets, NanConditionAtACrossingNamesGuardConditionAndValue) {
  // sqrt(2 - th) < 0 is false at th = 0 (the crossing passes) and NaN at th = pi.
  std::string text = kRotor;
  const std::string from = "when = \"cos(th) < 0\"";
  text.replace(text.find(from), from.size(), "when = \"sqrt(2 - th) < 0\"");
  const ModelRun run = run_model(rotor({}, text));
  EXPECT_EQ(run.result.termination(), Termination::NonFiniteState);
  const std::string m = run.message();
  for (const char* part : {"guard 'strike'", "mode 'roll'", "sqrt(2 - th) < 0", "is nan"}) {
    EXPECT_NE(m.find(part), std::string::npos) << part << " not in: " << m;
  }
  const std::vector<Strike> want = closed_form_strikes(0.5, 0.8, 0.3, 0.2, -0.3, 1.0, 20.0);
  EXPECT_NEAR(run.result.summary.t_final, want.front().t, 1e-9);
  EXPECT_EQ(run.result.events.size(), 0);
}

TEST(JumpSets, MalformedConditionsAreRefusedWithTheirLine) {
  auto with = [](const std::string& when) {
    std::string text = kRotor;
    const std::string from = "when = \"cos(th) < 0\"";
    text.replace(text.find(from), from.size(), "when = " + when);
    return text;
  };
  expect_load_refused(with("\"th\""), "guard 'strike' of mode 'roll' when 'th' is not a condition");
  expect_load_refused(with("\"cos(th) + 1\""), "is not a condition");
  expect_load_refused(with("\"foo < 0\""), "unknown symbol 'foo'");
  expect_load_refused(with("3"), "when is an integer; expected a condition (a string)");
  try {
    (void)load_model_text(with("\"th\""), "bad.toml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.toml:17:"), std::string::npos) << e.what();
  }
}

// The rotor as two modes that share one flow: the scuff (th crossing 0) switches to "swing",
// whose strike (th crossing pi) returns to "stance" (the two-mode way of saying a jump set).
constexpr const char* kTwoModes = R"toml([parameters]
a = 0.5
e = 0.8
c = 0.3
delta = 0.2
[states]
th = -0.3
w = 1.0
[initial]
mode = "stance"
[modes.stance]
flow = ["th' = w", "w' = a"]
[[modes.stance.guards]]
name = "scuff"
value = "th"
target = "swing"
[modes.swing]
flow = "@stance"
[[modes.swing.guards]]
name = "strike"
value = "th - pi"
target = "stance"
reset = ["th = th - pi - delta", "w = e*w + c"]
[solver]
t_end = 20.0
rtol = 1e-12
atol = 1e-12
h_max = 0.2  # sin(2 th) turns within the long steps of a polynomial flow (ARCHITECTURE rule 1)
)toml";

TEST(SharedFlows, ModeWithAnotherModesFlowRunsAsWrittenOut) {
  std::string written = kTwoModes;
  const std::string from = "flow = \"@stance\"";
  written.replace(written.find(from), from.size(), "flow = [\"th' = w\", \"w' = a\"]");
  const ModelRun shared = run_model(std::make_shared<const Model>(load_model_text(kTwoModes, "s")));
  const ModelRun plain = run_model(std::make_shared<const Model>(load_model_text(written, "p")));
  ASSERT_TRUE(shared.succeeded()) << shared.message();
  ASSERT_EQ(shared.result.events.size(), plain.result.events.size());
  ASSERT_GT(shared.result.events.size(), 4);
  for (long k = 0; k < shared.result.events.size(); ++k) {
    EXPECT_EQ(shared.result.events[k].t, plain.result.events[k].t) << k;  // bit for bit
  }
  EXPECT_EQ(shared.result.x_final, plain.result.x_final);
}

TEST(SharedFlows, BadReferencesAreRefused) {
  auto with = [](const std::string& flow, const std::string& extra = "") {
    std::string text = kTwoModes;
    const std::string from = "flow = \"@stance\"";
    text.replace(text.find(from), from.size(), "flow = " + flow + extra);
    return text;
  };
  expect_load_refused(with("\"@walk\""), "mode 'swing' flow '@walk' names no mode");
  expect_load_refused(with("\"@swing\""), "names the mode itself");
  expect_load_refused(with("\"stance\""), "expected the equations");
  expect_load_refused(with("\"@stance\"", "\nalgebraic = [\"z\"]"),
                      "mode 'swing' has 'algebraic' and shares the flow of 'stance'");
  // A mode that shares a sharing mode's flow.
  std::string chain = kTwoModes;
  const std::string own = "flow = [\"th' = w\", \"w' = a\"]";
  chain.replace(chain.find(own), own.size(), "flow = \"@swing\"");
  expect_load_refused(chain, "mode 'swing' shares a flow itself");
}

}  // namespace
}  // namespace saltus::model
