// Mechanical contacts' impacts cannot be missed either (issue 43): a rod spinning in free flight
// over a floor, one end a frictionless contact. Its centre falls on a parabola and it turns at a
// constant rate, so the integrator follows the flight exactly in long steps while the end's gap
//   G(t) = y0 + v0 t - g t^2 / 2 - ell sin(theta0 + w t)
// dips towards the floor every turn; the first dip that reaches it is the first impact. The
// contact's gap is a model-file expression, so its impact guard is enclosed (the gap's tape in
// interval arithmetic) and searched with the certificate. 100 seeded rods, each first impact
// against a certified root isolation of G (below), with each integrator.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

struct Rod {
  double y0, v0, theta0, w;
};
constexpr double kG = 9.81, kEll = 0.5;

double gap(const Rod& r, double t) {
  return r.y0 + r.v0 * t - 0.5 * kG * t * t - kEll * std::sin(r.theta0 + r.w * t);
}

// The first zero of G on [a, b] where G(a) > 0, or none. |G''| <= M = g + ell w^2, so on a
// piece of width d whose end values are above M d^2 / 8 (plus round-off) G has no zero: such
// pieces are skipped, others halved; a piece down to 1e-12 s with both values within round-off
// of 0 is a graze that doubles cannot decide (the case is skipped).
struct FirstZero {
  bool decided = true;
  std::optional<double> t;
};
FirstZero first_zero(const Rod& r, double a, double b) {
  const double M = kG + kEll * r.w * r.w, round_off = 1e-13;
  const double ga = gap(r, a), gb = gap(r, b);
  if (gb <= 0.0) {  // a sign change: bisect it, after checking [a, b] has no earlier one
    const double m = 0.5 * (a + b);
    if (b - a < 1e-13) return {true, b};
    const FirstZero left = first_zero(r, a, m);
    if (!left.decided || left.t) return left;
    if (gap(r, m) <= 0.0) return {true, m};
    return first_zero(r, m, b);
  }
  const double d = b - a;
  if (std::min(ga, gb) > M * d * d / 8.0 + round_off) return {true, std::nullopt};
  // At the resolution of t: a zero pair inside would be a graze of depth M d^2 / 8 < 1e-22,
  // below what doubles resolve; undecided only where G is flat at round-off (a true graze).
  if (d < 1e-12) return {std::max(ga, gb) > round_off, std::nullopt};
  const double m = 0.5 * (a + b);
  const FirstZero left = first_zero(r, a, m);
  if (!left.decided || left.t) return left;
  if (gap(r, m) <= 0.0) return {true, m};
  return first_zero(r, m, b);
}

std::string rod_model(const Rod& r, const std::string& integrator, double t_end) {
  return "[model]\nname = \"spinning_rod\"\ntime_unit = \"s\"\n"
         "[parameters]\nm = 1.0\nell = " +
         num(kEll) + "\nI_c = \"m*(2*ell)^2/12\"\ng = " + num(kG) +
         "\n[coordinates]\nx = { initial = 0.0, velocity = 0.0 }\n"
         "y = { initial = " +
         num(r.y0) + ", velocity = " + num(r.v0) + " }\ntheta = { initial = " + num(r.theta0) +
         ", velocity = " + num(r.w) +
         " }\n[mechanics]\n"
         "kinetic_energy = \"0.5*m*(x'^2 + y'^2) + 0.5*I_c*theta'^2\"\n"
         "potential_energy = \"m*g*y\"\n"
         "[[contacts]]\nname = \"end\"\nbody = \"rod\"\ngap = \"y - ell*sin(theta)\"\n"
         "law = \"newton\"\ne = 0.5\n"
         "[solver]\nt_end = " +
         num(t_end) + "\nintegrator = \"" + integrator + "\"\nrtol = 1e-10\natol = 1e-12\n";
}

TEST(MechanicalCertifiedEvents, ASpinningRodsFirstImpactIsNeverMissed) {
  std::mt19937_64 rng(4343);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double t_end = 1.5;
  int compared = 0, impacts = 0;
  for (int k = 0; k < 100; ++k) {
    Rod r{};
    r.theta0 = 2.0 * std::numbers::pi * U(rng);
    r.y0 = kEll * std::sin(r.theta0) + 0.05 + 1.0 * U(rng);  // the end starts above the floor
    r.v0 = -1.0 + 2.0 * U(rng);
    r.w = 5.0 + 35.0 * U(rng);
    const FirstZero ref = first_zero(r, 0.0, t_end);
    if (!ref.decided) continue;
    const std::string integrator = k % 3 == 0 ? "dopri5" : k % 3 == 1 ? "dop853" : "radau5";
    SCOPED_TRACE("rod " + std::to_string(k) + " (" + integrator + "): y0 " + num(r.y0) + ", v0 " +
                 num(r.v0) + ", theta0 " + num(r.theta0) + ", w " + num(r.w));
    const ModelRun run = run_model(
        std::make_shared<const Model>(load_model_text(rod_model(r, integrator, t_end), "rod")));
    ASSERT_TRUE(run.succeeded()) << run.message();
    const EventLog& log = run.result.events;
    ++compared;
    if (!ref.t) {
      EXPECT_EQ(log.size(), 0) << "an impact where the end never reaches the floor";
      continue;
    }
    ASSERT_GE(log.size(), 1) << "the impact at t = " << *ref.t << " was missed";
    const Mode& before = run.system.mode(log[0].mode_before);
    EXPECT_EQ(before.guards[static_cast<size_t>(log[0].guard)].name, "impact:end");
    EXPECT_NEAR(log[0].t, *ref.t, 1e-9);
    ++impacts;
  }
  EXPECT_GE(compared, 95);
  EXPECT_GE(impacts, 50);
  RecordProperty("first_impacts_checked", impacts);
}

}  // namespace
}  // namespace saltus::model
