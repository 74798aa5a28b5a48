// Coulomb friction on compliant contacts in model files ([[contacts]] with a compliant law, `mu`
// and `tangent`; docs/MODEL_FORMAT.md): models/compliant_stick_slip.toml run through run_model
// slips backwards, sticks and slips forwards at the closed-form times and along the closed form
// (through two momentary rests at the cone's edge), with the friction state in the mode names
// and the friction force in the contact-force columns; bad friction input is reported with its
// line and the contact's name.
//
// Tolerances: event times to 1e-9 s at the file's rtol 1e-12 (Dop853); forces to 1e-8 of mu m g.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/contact_force_columns.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

const std::string& guard_name(const ModelRun& r, long i) {
  const EventRecord& ev = r.result.events[i];
  return r.system.mode(ev.mode_before).guards[ev.guard].name;
}

TEST(CompliantFrictionModel, StickSlipFileFollowsTheClosedForm) {
  const auto model =
      std::make_shared<const Model>(load_model_file(models_dir() / "compliant_stick_slip.toml"));
  const ModelRun r = run_model(model);
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  // The file's parameters: m 1, g 9.81, k_s 10, v_d 0.1, mu 0.3, v0 0.5.
  const double m = 1.0, g = 9.81, k_s = 10.0, v_d = 0.1, mu = 0.3, v0 = 0.5;
  const double w = std::sqrt(k_s / m), A = -mu * g / (w * w), B = -(v0 + v_d) / w;
  auto v_back = [&](double t) { return v_d - A * w * std::sin(w * t) + B * w * std::cos(w * t); };
  double lo = 0.0, hi = 0.5 * M_PI / w;
  for (int i = 0; i < 200 && hi - lo > 1e-16; ++i) {
    const double mid = 0.5 * (lo + hi);
    (v_back(mid) < 0.0 ? lo : hi) = mid;
  }
  const double t_stop = 0.5 * (lo + hi);
  const double x_stop =
      v_d * t_stop + mu * g / (w * w) + A * std::cos(w * t_stop) + B * std::sin(w * t_stop);
  const double t_slip = x_stop / v_d + mu * m * g / (k_s * v_d);

  EXPECT_EQ(r.system.mode(r.result.events[0].mode_before).name, "free|slip-:floor");
  ASSERT_EQ(r.result.events.size(), 2);
  EXPECT_EQ(guard_name(r, 0), "stick:floor");
  EXPECT_EQ(r.system.mode(r.result.events[0].mode_after).name, "free|stick:floor");
  EXPECT_NEAR(r.result.events[0].t, t_stop, 1e-9);
  EXPECT_EQ(guard_name(r, 1), "slip+:floor");
  EXPECT_EQ(r.system.mode(r.result.events[1].mode_after).name, "free|slip+:floor");
  EXPECT_NEAR(r.result.events[1].t, t_slip, 1e-9);

  // Friction force column: -mu s m g while sliding, minus the spring force while sticking.
  const run::ContactForceColumns f = run::contact_force_columns(r);
  ASSERT_EQ(f.names.size(), 2u);
  EXPECT_EQ(f.names[1], "lambda_T:floor");
  const Trajectory& tr = r.result.trajectory;
  const double F_max = mu * m * g;
  for (long i = 0; i < tr.size(); ++i) {
    const double t = tr.t(i), x = tr.x(i)[0];
    const std::string& mode = r.system.mode(tr.mode(i)).name;
    EXPECT_NEAR(f.values(i, 0), m * g, 1e-8 * m * g);
    const double expected = mode == "free|slip-:floor"   ? F_max
                            : mode == "free|slip+:floor" ? -F_max
                                                         : -k_s * (v_d * t - x);
    EXPECT_NEAR(f.values(i, 1), expected, 1e-8 * F_max) << mode << " t = " << t;
    if (mode == "free|slip+:floor") {  // over two periods: x = v_d t - mu g/w^2 - v_d/w sin
      const double x_forward = v_d * t - mu * g / (w * w) - (v_d / w) * std::sin(w * (t - t_slip));
      EXPECT_NEAR(x, x_forward, 1e-8 * v0 / w) << "t = " << t;
    }
  }
}

std::vector<Diagnostic> check(const std::string& text) {
  return check_model_text(text, "bad.toml");
}

bool has(const std::vector<Diagnostic>& d, const std::string& what, int line) {
  for (const Diagnostic& x : d) {
    if (x.message.find(what) != std::string::npos && x.line == line) return true;
  }
  return false;
}

std::string all(const std::vector<Diagnostic>& d) {
  std::string out;
  for (const Diagnostic& x : d) out += std::to_string(x.line) + ": " + x.message + "\n";
  return out;
}

TEST(CompliantFrictionModel, BadFrictionInputIsReportedWithItsLineAndContact) {
  // Line numbers count from 1 at "[parameters]"; the [[contacts]] table starts at line 8.
  const std::string head = R"toml([parameters]
m = 1.0
[coordinates]
y = { initial = 1.0 }
x = 0.0
[mechanics]
kinetic_energy = "0.5*m*(y'^2 + x'^2)"
[[contacts]]
name = "pad"
gap = "y"
law = "kelvin_voigt"
k = 1000.0
)toml";
  const std::string solver = "[solver]\nt_end = 1\n";
  auto d = check(head + "tangent = \"x\"\nmu = -0.2\n" + solver);
  EXPECT_TRUE(has(d, "contact 'pad'", 8)) << all(d);
  EXPECT_TRUE(has(d, "mu = -0.2", 8)) << all(d);
  EXPECT_TRUE(has(d, "must be >= 0", 8)) << all(d);
  d = check(head + "mu = 0.3\n" + solver);
  EXPECT_TRUE(has(d, "contact 'pad' (law kelvin_voigt) has mu = 0.3", 13)) << all(d);
  EXPECT_TRUE(has(d, "but no tangent", 13)) << all(d);
  d = check(head + "tangent = \"y'\"\nmu = 0.3\n" + solver);
  EXPECT_TRUE(has(d, "tangent depends on the velocity y'", 13)) << all(d);
  // Beside a rigid contact: accepted (a closing rigid contact ends the run at run time).
  d = check(head + "tangent = \"x\"\nmu = 0.3\n" +
            "[[contacts]]\nname = \"wall\"\ngap = \"1 - x\"\ne = 0.5\n" + solver);
  EXPECT_TRUE(d.empty()) << all(d);
  d = check(head + "tangent = \"x\"\nmu = 0.3\nrelease = \"gap\"\n" + solver);
  EXPECT_TRUE(d.empty()) << all(d);
  d = check(head + "tangent = \"x\"\nmu = 0.3\ne = 0.5\n" + solver);  // a rigid key
  EXPECT_TRUE(has(d, "e", 15)) << all(d);
}

}  // namespace
}  // namespace saltus::model
