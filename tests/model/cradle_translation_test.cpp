// Whether two contacts touch is decided by the round-off of the gaps' own terms, not by how far
// the coordinates are from the origin (issue 44 item 1; mech/contact_state.hpp). A Newton's
// cradle of three equal balls on a line, the first moving at v onto the second, the third a gap d
// beyond: with d = 1 um the impacts are sequential and the velocities end (0, 0, v); with d below
// the round-off of the positions the two contacts form one impact set and Newton's law over it
// (e = 1) gives (-v/3, 2v/3, 2v/3). Before, the band was 1e-10 of the coordinates: the chain with
// d = 1 um translated to x = 5000 m was silently simultaneous.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <regex>
#include <string>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

// Balls of radius r (unit: 1 m = `unit` model units) at X0 + (0, 2 r + s, 4 r + s + d), the first
// moving at v; the run ends well after both impacts of the sequential answer.
std::string cradle(double X0, double d, double unit) {
  const double r = 0.05 * unit, s = 0.1 * unit, v = 1.0 * unit;
  const double x1 = X0, x2 = X0 + 2 * r + s, x3 = x2 + 2 * r + d;
  return "[model]\nname = \"cradle\"\ntime_unit = \"s\"\n[parameters]\nm = 1.0\nr = " + num(r) +
         "\n[coordinates]\nx1 = { initial = " + num(x1) + ", velocity = " + num(v) +
         " }\nx2 = { initial = " + num(x2) + ", velocity = 0.0 }\nx3 = { initial = " + num(x3) +
         ", velocity = 0.0 }\n"
         "[mechanics]\nkinetic_energy = \"0.5*m*(x1'^2 + x2'^2 + x3'^2)\"\n"
         "potential_energy = \"0\"\n"
         "[[contacts]]\nname = \"first\"\nbody = \"ball1\"\ngap = \"x2 - x1 - 2*r\"\n"
         "law = \"newton\"\ne = 1.0\n"
         "[[contacts]]\nname = \"second\"\nbody = \"ball2\"\ngap = \"x3 - x2 - 2*r\"\n"
         "law = \"newton\"\ne = 1.0\n"
         "[solver]\nt_end = 0.5\nrtol = 1e-10\n";
}

Vector final_velocities(double X0, double d, double unit) {
  const ModelRun r =
      run_model(std::make_shared<const Model>(load_model_text(cradle(X0, d, unit), "cradle.toml")));
  EXPECT_TRUE(r.succeeded()) << r.message();
  EXPECT_EQ(r.result.summary.t_final, 0.5);
  return r.result.x_final.tail(3) / unit;
}

void expect_velocities(const Vector& v, double a, double b, double c) {
  EXPECT_NEAR(v[0], a, 1e-9);
  EXPECT_NEAR(v[1], b, 1e-9);
  EXPECT_NEAR(v[2], c, 1e-9);
}

TEST(CradleTranslation, OneMicrometreIsSequentialAtEveryOffsetAndInMicrometres) {
  for (const double X0 : {0.0, 5e3, 1e4, 1e6, -1e6}) {
    SCOPED_TRACE("X0 = " + num(X0) + " m");
    expect_velocities(final_velocities(X0, 1e-6, 1.0), 0.0, 0.0, 1.0);
  }
  for (const double X0 : {0.0, 1e4}) {  // in micrometres: 1 um is one model unit
    SCOPED_TRACE("X0 = " + num(X0) + " m, in um");
    expect_velocities(final_velocities(X0 * 1e6, 1.0, 1e6), 0.0, 0.0, 1.0);
  }
}

TEST(CradleTranslation, GapsBelowTheRoundOffOfTheirTermsAreOneImpactAtEveryOffset) {
  for (const double X0 : {0.0, 5e3, 1e4, 1e6}) {
    // 0 and 4 ulps of the third ball's position: below the round-off of the gap's terms.
    const double ulp = std::nextafter(X0 + 0.4, kInfinity) - (X0 + 0.4);
    for (const double d : {0.0, 4.0 * ulp}) {
      SCOPED_TRACE("X0 = " + num(X0) + " m, d = " + num(d));
      expect_velocities(final_velocities(X0, d, 1.0), -1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0);
    }
  }
}

// The simultaneous answer's event row names the law and each contact's impulse and share of the
// energy change (issue 44 item 5; before, the first contact's row had the whole impulse and the
// second contact appeared nowhere): Newton's law over the LCP with e = 1 gives Lambda = (4/3,
// 2/3) m v, and neither contact does work (both rates reverse).
TEST(CradleTranslation, TheSimultaneousImpactsRowGivesEachContactsImpulse) {
  const ModelRun r = run_model(
      std::make_shared<const Model>(load_model_text(cradle(0.0, 0.0, 1.0), "cradle.toml")));
  ASSERT_TRUE(r.succeeded()) << r.message();
  ASSERT_GE(r.result.events.size(), 1);
  const std::string& note = r.result.events.note(0);
  const auto value = [&note](const std::string& contact, const std::string& what) {
    const std::smatch m = [&] {
      std::smatch out;
      std::regex_search(note, out, std::regex("'" + contact + "' [^;]*" + what + " ([-+0-9.e]+)"));
      return out;
    }();
    EXPECT_EQ(m.size(), 2u) << note;
    return m.size() == 2 ? std::stod(m[1].str()) : kNaN;
  };
  EXPECT_NE(note.find("simultaneous impact of 'first', 'second' (Newton's law"), std::string::npos)
      << note;
  EXPECT_NEAR(value("first", "impulse_n"), 4.0 / 3.0, 1e-9);
  EXPECT_NEAR(value("second", "impulse_n"), 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(value("first", "energy_change"), 0.0, 1e-9);
  EXPECT_NEAR(value("second", "energy_change"), 0.0, 1e-9);
}

}  // namespace
}  // namespace saltus::model
