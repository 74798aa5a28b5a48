// Super-elastic contacts in model files (issue 32, bad input): `superelastic = true` on a contact
// under law newton or newton_coulomb allows e > 1; without it e > 1 is an error at the line of the
// refused value naming the contact and the value, as are a negative e or e_t and mu < 0, and e > 1
// given later as a run-time parameter. Closed forms:
//   a ball dropped from h onto a floor with e > 1 (FORMULAS.md 5.1 with e > 1): first impact at
//     t_1 = sqrt(2 h / g) with speed v_1 = sqrt(2 g h), leaves the k-th impact with e^k v_1, flight
//     k lasts 2 e^k v_1 / g, and gains (e^2 - 1) (e^(k-1) v_1)^2 / 2 per unit mass;
//   Clark and Bloch's Example 4 (FORMULAS.md 5.5; oracle zeno.superelastic_interval) written with
//     two frictionless contacts: from the middle of [0, 1] at speed 1 the walls are hit at
//     t_k = 1.5 - alpha^(1-k) (alpha = 2), leaving with alpha^k; the same impacts as
//     models/superelastic_interval.toml.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

// A ball over a floor; `contact` is the [[contacts]] table's body (line 9 is its first key).
std::string ball(const std::string& contact, double t_end = 3.0) {
  return "[model]\nname = \"ball\"\n[parameters]\nrest = 1.1\n[coordinates]\n"  // lines 1-5
         "y = { initial = 1.0 }\nx = 0.0\n[[contacts]]\n" +                     // lines 6-8
         contact +                                                              // from line 9
         "[mechanics]\nkinetic_energy = \"0.5*(y'^2 + x'^2)\"\npotential_energy = \"9.81*y\"\n"
         "[solver]\nt_end = " +
         num(t_end) + "\nrtol = 1e-12\natol = 1e-14\n";
}

bool has(const std::vector<Diagnostic>& d, const std::string& what, int line,
         const std::string& file = "ball.toml") {
  for (const Diagnostic& x : d) {
    if (x.file == file && x.line == line && x.message.find(what) != std::string::npos) return true;
  }
  return false;
}

std::string all(const std::vector<Diagnostic>& d) {
  std::string out;
  for (const Diagnostic& x : d) out += x.format() + "\n";
  return out;
}

TEST(SuperelasticContactModel, BadCoefficientsAreErrorsAtTheirLineNamingContactAndValue) {
  struct Case {
    std::string contact;
    int line;
    std::vector<std::string> says;
  };
  const std::string floor = "name = \"floor\"\ngap = \"y\"\n";                      // lines 9, 10
  const std::string rough = floor + "tangent = \"x\"\nlaw = \"newton_coulomb\"\n";  // 11, 12
  for (const Case& c : std::vector<Case>{
           {floor + "e = 1.5\n", 11, {"contact 'floor'", "e = 1.5", "superelastic = true"}},
           {floor + "e = \"rest\"\n", 11, {"contact 'floor'", "e = 1.1", "superelastic = true"}},
           {floor + "e = -0.2\n", 11, {"contact 'floor'", "e = -0.2"}},
           {floor + "e = -0.2\nsuperelastic = true\n", 11, {"contact 'floor'", "e = -0.2"}},
           {rough + "e = 1.2\nmu = 0.3\n", 13, {"contact 'floor'", "newton_coulomb", "e = 1.2"}},
           {rough + "e = 0.5\nmu = -0.25\n", 14, {"contact 'floor'", "mu = -0.25"}},
           {rough + "e = 0.5\nmu = 0.3\ne_t = -0.1\n", 15, {"contact 'floor'", "e_t = -0.1"}},
           {rough + "e = 1.5\nmu = 0.3\ne_t = 1.5\nsuperelastic = true\n",
            15,
            {"contact 'floor'", "e_t = 1.5"}},
           {floor + "e = 1.5\nsuperelastic = \"yes\"\n",
            12,
            {"contact 'floor' superelastic is", "expected true or false"}},
           // Only the Newton laws read the key: the key check names the laws that read it.
           {floor + "tangent = \"x\"\nlaw = \"routh_poisson\"\ne = 1.5\nmu = 0.3\n"
                    "superelastic = true\n",
            15,
            {"contact 'floor'", "does not read 'superelastic'", "newton, newton_coulomb"}}}) {
    SCOPED_TRACE(c.contact);
    const std::vector<Diagnostic> d = check_model_text(ball(c.contact), "ball.toml");
    for (const std::string& s : c.says) EXPECT_TRUE(has(d, s, c.line)) << s << "\n" << all(d);
  }
  // The value given by --set: the diagnostic names the --set, the contact and the value.
  const auto d = check_model_text(ball(floor + "e = 0.5\n"), "ball.toml", {"contacts.floor.e=1.5"});
  EXPECT_TRUE(has(d, "'contacts.floor.e': ", 0, "--set")) << all(d);
  EXPECT_TRUE(has(d, "e = 1.5", 0, "--set")) << all(d);
  // A parameter of the file set by --set: at the contact's e line.
  const auto p = check_model_text(ball(floor + "e = \"rest\"\n"), "ball.toml", {"rest=1.3"});
  EXPECT_TRUE(has(p, "e = 1.3", 11)) << all(p);
}

TEST(SuperelasticContactModel, ValidSuperelasticContactsLoad) {
  const std::string floor = "name = \"floor\"\ngap = \"y\"\n";
  for (const std::string& c :
       {floor + "e = 1.5\nsuperelastic = true\n", floor + "e = 0.5\nsuperelastic = true\n",
        floor + "tangent = \"x\"\nlaw = \"newton_coulomb\"\ne = 2.0\nmu = 0.3\ne_t = 0.5\n"
                "superelastic = true\n",
        floor + "e = 0.9\nsuperelastic = false\n"}) {
    const auto d = check_model_text(ball(c), "ball.toml");
    EXPECT_TRUE(d.empty()) << c << all(d);
  }
  // --set may make a contact super-elastic.
  const auto d = check_model_text(ball(floor + "e = 1.5\n"), "ball.toml",
                                  {"contacts.floor.superelastic=true"});
  EXPECT_TRUE(d.empty()) << all(d);
  // Not a wall of a model with velocity constraints (Clark and Bloch's map takes e in [0, 1]).
  const auto sleigh = check_model_file(models_dir() / "chaplygin_sleigh.toml",
                                       {"contacts.front.superelastic=true", "e=1.5"});
  EXPECT_TRUE(has(sleigh,
                  "'contacts.front.superelastic': contact 'front' in a model with velocity "
                  "constraints has superelastic = true",
                  0, "--set"))
      << all(sleigh);
}

// e given by a run-time parameter: 1.5 is refused at the line of the contact's e, naming the
// contact and the value, unless the contact is super-elastic.
TEST(SuperelasticContactModel, EAboveOneAsARunTimeParameterNeedsTheModelToSaySo) {
  const std::string floor = "name = \"floor\"\ngap = \"y\"\ne = \"rest\"\n";  // e at line 11
  LoadOptions options;
  options.runtime_parameters = {"rest"};
  {
    const auto model = std::make_shared<const Model>(
        load_model_text(ball(floor, 1.0), "ball.toml", {"rest=0.5"}, options));
    try {
      set_runtime_parameter(*model, "rest", 1.5);
      ADD_FAILURE() << "e = 1.5 taken without superelastic";
    } catch (const Error& err) {
      const std::string what = err.what();
      EXPECT_NE(what.find("ball.toml:11: "), std::string::npos) << what;
      EXPECT_NE(what.find("contact 'floor'"), std::string::npos) << what;
      EXPECT_NE(what.find("e = 1.5"), std::string::npos) << what;
      EXPECT_NE(what.find("superelastic = true"), std::string::npos) << what;
    }
    try {
      set_runtime_parameter(*model, "rest", -0.5);
      ADD_FAILURE() << "e = -0.5 taken";
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find("ball.toml:11: "), std::string::npos) << err.what();
      EXPECT_NE(std::string(err.what()).find("e = -0.5"), std::string::npos) << err.what();
    }
  }
  const auto model = std::make_shared<const Model>(load_model_text(
      ball(floor + "superelastic = true\n", 1.0), "ball.toml", {"rest=0.5"}, options));
  EXPECT_NO_THROW(set_runtime_parameter(*model, "rest", 1.5));
  const ModelRun r = run_model(model);
  ASSERT_TRUE(r.succeeded()) << r.message();
  const double v1 = std::sqrt(2.0 * 9.81);
  ASSERT_GE(r.result.events.size(), 1);
  EXPECT_NEAR(r.result.events.x_after(0)[2], 1.5 * v1, 1e-9);  // y' after the first impact
}

// A super-elastic ball climbs: every impact and flight against the closed form, and
// energy_change in the event log is the gain (e^2 - 1) v^2 / 2.
TEST(SuperelasticContactModel, SuperelasticBallMatchesItsClosedForm) {
  const double e = 1.1, g = 9.81, h = 1.0;
  const ModelRun r = run_model(std::make_shared<const Model>(load_model_text(
      ball("name = \"floor\"\ngap = \"y\"\ne = 1.1\nsuperelastic = true\n", 3.5), "ball.toml")));
  ASSERT_EQ(r.result.termination(), Termination::EndTimeReached) << r.message();
  const EventLog& ev = r.result.events;
  double t = std::sqrt(2.0 * h / g), v = std::sqrt(2.0 * g * h);  // time and speed of impact 1
  int impacts = 0;
  for (long i = 0; i < ev.size(); ++i) {
    SCOPED_TRACE("impact " + std::to_string(impacts + 1));
    EXPECT_NEAR(ev[i].t, t, 1e-9 * (1.0 + t));
    EXPECT_NEAR(ev.x_after(i)[2], e * v, 1e-9 * v);
    EXPECT_NEAR(ev.outputs(i)[2], 0.5 * (e * e - 1.0) * v * v, 1e-8 * v * v);
    ++impacts;
    v *= e;
    t += 2.0 * v / g;
  }
  EXPECT_EQ(impacts, 3);  // 0.45, 1.44, 2.53, then 3.73 > t_end
}

// Clark and Bloch's super-elastic walls as a mechanical model, from q = 0.5 at speed 1: walls at
// t_k = 1.5 - 2^(1-k) (alpha = 2) with speed 2^k after the k-th, the same impacts as the hybrid
// automaton models/superelastic_interval.toml from the same state. (Run to t = 1.49, 7 impacts:
// near the Zeno point t = 1.5 the models with several rigid contacts stop on their penetration
// safeguard, whose level is below the distance the walls cover within the event time resolution.)
TEST(SuperelasticContactModel, SuperelasticWallsMatchTheHybridAutomaton) {
  const double alpha = 2.0;
  const std::string text =
      "[model]\nname = \"walls\"\n[coordinates]\nq = { initial = 0.5, velocity = 1.0 }\n"
      "[mechanics]\nkinetic_energy = \"0.5*q'^2\"\n"
      "[[contacts]]\nname = \"left\"\ngap = \"q\"\ne = 2.0\nsuperelastic = true\n"
      "[[contacts]]\nname = \"right\"\ngap = \"1 - q\"\ne = 2.0\nsuperelastic = true\n"
      "[solver]\nt_end = 1.49\nrtol = 1e-12\natol = 1e-14\n";
  const ModelRun walls = run_model(std::make_shared<const Model>(load_model_text(text, "w.toml")));
  const ModelRun automaton = run_model(std::make_shared<const Model>(
      load_model_file(models_dir() / "superelastic_interval.toml",
                      {"alpha=" + num(alpha), "q=0.5", "t_end=1.49"})));
  ASSERT_EQ(walls.result.termination(), Termination::EndTimeReached) << walls.message();
  ASSERT_EQ(automaton.result.termination(), Termination::EndTimeReached) << automaton.message();
  const EventLog& a = walls.result.events;
  const EventLog& b = automaton.result.events;
  ASSERT_EQ(a.size(), 7);
  ASSERT_EQ(b.size(), 7);
  for (long i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("impact " + std::to_string(i + 1));
    const double t_k = 1.5 - std::pow(2.0, -static_cast<double>(i));
    const double v_k = std::pow(alpha, static_cast<double>(i + 1));
    EXPECT_NEAR(a[i].t, t_k, 1e-12);
    EXPECT_NEAR(a[i].t, b[i].t, 1e-12);
    EXPECT_NEAR(std::abs(a.x_after(i)[1]), v_k, 1e-12 * v_k);
    EXPECT_NEAR(a.x_after(i)[1], b.x_after(i)[1], 1e-12 * v_k);
    EXPECT_NEAR(a.outputs(i)[2], 0.5 * (v_k * v_k - v_k * v_k / (alpha * alpha)), 1e-9 * v_k * v_k);
  }
}

}  // namespace
}  // namespace saltus::model
