// Hamiltonian models ([hamiltonian]): Hamilton's equations and the cotangent impact map agree
// with the Lagrangian form of the same bouncing rod; Example 3 of seed 003 (refraction into a
// disc with another metric, models/refraction_sphere.toml) keeps the energy of each side at every
// crossing, reflects totally where the crossing map has no real root, and never produces NaN;
// malformed Hamiltonians are refused with file:line and cause.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

// The rod of models/bouncing_rod.toml with a frictionless Newton tip, in both forms. Its mass
// matrix, from T: M = [[m, 0, -m l s], [0, m, m l c], [-m l s, m l c, m l^2 + I]].
constexpr const char* kRodLagrangian = R"toml([parameters]
m = 1.0
ell = 0.5
I_c = "m*(2*ell)^2/12"
g = 9.81
[coordinates]
x = { initial = 0.0, velocity = 0.5 }
y = { initial = 0.5, velocity = 0.0 }
theta = { initial = 1.0, velocity = 0.0 }
[mechanics]
kinetic_energy = "0.5*m*((x' - ell*sin(theta)*theta')^2 + (y' + ell*cos(theta)*theta')^2) + 0.5*I_c*theta'^2"
potential_energy = "m*g*(y + ell*sin(theta))"
[[contacts]]
name = "tip"
gap = "y"
law = "newton"
e = 0.8
[solver]
t_end = 1.5
integrator = "dop853"
rtol = 1e-13
atol = 1e-15
)toml";

constexpr const char* kRodHamiltonian = R"toml([parameters]
m = 1.0
ell = 0.5
I_c = "m*(2*ell)^2/12"
g = 9.81
[coordinates]
x = { initial = 0.0, momentum = "PX" }
y = { initial = 0.5, momentum = 0.0 }
theta = { initial = 1.0, momentum = "PT" }
[hamiltonian]
metric = [["m", "0", "-m*ell*sin(theta)"],
          ["0", "m", "m*ell*cos(theta)"],
          ["-m*ell*sin(theta)", "m*ell*cos(theta)", "m*ell^2 + I_c"]]
potential = "m*g*(y + ell*sin(theta))"
[[contacts]]
name = "tip"
gap = "y"
e = 0.8
[solver]
t_end = 1.5
integrator = "dop853"
rtol = 1e-13
atol = 1e-15
)toml";

Eigen::Matrix3d rod_mass(double theta) {
  const double m = 1.0, ell = 0.5, I = m * 1.0 / 12.0;
  Eigen::Matrix3d M;
  M << m, 0, -m * ell * std::sin(theta), 0, m, m * ell * std::cos(theta),
      -m * ell * std::sin(theta), m * ell * std::cos(theta), m * ell * ell + I;
  return M;
}

std::string with_initial_momenta(std::string text) {
  // p = M(q0) q'0 with q'0 = (0.5, 0, 0).
  const Eigen::Vector3d p = rod_mass(1.0) * Eigen::Vector3d(0.5, 0.0, 0.0);
  const auto put = [&text](const std::string& key, double v) {
    text.replace(text.find('"' + key + '"'), key.size() + 2, num(v));
  };
  put("PX", p[0]);
  put("PT", p[2]);
  return text;
}

TEST(HamiltonianModel, RodAgreesWithItsLagrangianFormThroughImpacts) {
  const ModelRun lag =
      run_model(std::make_shared<const Model>(load_model_text(kRodLagrangian, "rod_l.toml")));
  const ModelRun ham = run_model(std::make_shared<const Model>(
      load_model_text(with_initial_momenta(kRodHamiltonian), "rod_h.toml")));
  ASSERT_TRUE(lag.succeeded()) << lag.message();
  ASSERT_TRUE(ham.succeeded()) << ham.message();
  const EventLog& a = lag.result.events;
  const EventLog& b = ham.result.events;
  ASSERT_GE(a.size(), 3) << "the rod must bounce several times in 1.5 s";
  ASSERT_EQ(a.size(), b.size());
  for (long i = 0; i < a.size(); ++i) {
    // Both forms integrate at rtol 1e-13: the same trajectory to ~1e-12.
    EXPECT_NEAR(a[i].t, b[i].t, 1e-12) << "impact " << i;
    const auto xa = a.x_after(i), xb = b.x_after(i);
    const Eigen::Vector3d q = xa.head(3), p_from_l = rod_mass(q[2]) * xa.tail(3);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(xb[k], q[k], 1e-12) << "impact " << i << ", coordinate " << k;
      EXPECT_NEAR(xb[3 + k], p_from_l[k], 1e-12) << "impact " << i << ", momentum " << k;
    }
  }
}

// Example 3: H_out = |p|^2 / 2 outside the circle r = 1/2, H_in = p^T M^-1 p / 2 inside.
double h_out(const Eigen::Vector2d& p) {
  return 0.5 * p.squaredNorm();
}
double h_in(const Eigen::Vector2d& q, const Eigen::Vector2d& p) {
  const double x = q[0], y = q[1], D = 1 - x * x - y * y;
  Eigen::Matrix2d M;
  M << 1 - x * x / D, x * y / D, x * y / D, 1 - y * y / D;
  return 0.5 * p.dot(M.inverse() * p);
}

TEST(HamiltonianModel, RefractionKeepsEachSidesEnergyAndReflectsTotallyWithoutRealRoot) {
  int refractions = 0, total_reflections = 0;
  for (int k = 0; k < 10; ++k) {
    const double y0 = -0.48 + 0.96 * k / 9.0;  // ten incidences across the disc
    const ModelRun run = run_model(std::make_shared<const Model>(
        load_model_file(models_dir() / "refraction_sphere.toml", {"y0=" + num(y0), "t_end=4"})));
    ASSERT_TRUE(run.succeeded()) << run.message();
    const EventLog& log = run.result.events;
    ASSERT_GE(log.size(), 1) << "y0 = " << y0;
    double energy = 0.5;  // p = (1, 0) outside
    for (long i = 0; i < log.size(); ++i) {
      const auto before = log.x_before(i), after = log.x_after(i);
      ASSERT_TRUE(after.allFinite());
      const Eigen::Vector2d q = after.head(2), pm = before.tail(2), pp = after.tail(2);
      EXPECT_NEAR((before.head(2) - q).norm(), 0.0, 0.0);  // a jump in momentum only
      EXPECT_NEAR(q.squaredNorm(), 0.25, 1e-12);           // on the circle
      const std::string from = run.system.mode(log[i].mode_before).name;
      const std::string to = run.system.mode(log[i].mode_after).name;
      const auto out = log.outputs(i);  // discriminant, eps_refraction, eps_reflection
      const Eigen::Vector2d d = 2 * q;  // dh
      if (from != to) {
        ++refractions;
        EXPECT_GE(out[0], 0.0);
        const double e_new = to == "inside" ? h_in(q, pp) : h_out(pp);
        EXPECT_NEAR(e_new, energy, 1e-12) << "refraction keeps the energy of the new side";
        // The other root of (12) has the new side's energy too but points back across.
        const Eigen::Vector2d p_other = pm + out[2] * d;
        EXPECT_NEAR(to == "inside" ? h_in(q, p_other) : h_out(p_other), energy, 1e-12);
        const double h_from_other = from == "inside" ? h_in(q, p_other) : h_out(p_other);
        EXPECT_GT(std::abs(h_from_other - energy), 1e-6) << "reflection keeps the wrong energy";
        energy = e_new;
      } else {
        ++total_reflections;
        EXPECT_LT(out[0], 0.0) << "reflection only where the crossing map has no real root";
        EXPECT_NEAR(from == "inside" ? h_in(q, pp) : h_out(pp), energy, 1e-12);
        EXPECT_NEAR(d.dot(pp), -d.dot(pm), 1e-12);  // flat side: specular
      }
    }
  }
  EXPECT_GE(refractions, 8);
  EXPECT_GE(total_reflections, 2);
}

TEST(HamiltonianModel, MalformedHamiltoniansNameFileLineAndCause) {
  const std::string coords = "[coordinates]\nx = { initial = 1.0, momentum = 0.5 }\n";
  const std::string solver = "[solver]\nt_end = 1.0\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[hamiltonian]\nH = \"-0.5*p_x^2\"\n", "not convex in the momenta"},
      {"[hamiltonian]\nH = \"0.25*p_x^4\"\n", "not quadratic in the momenta"},
      {"[hamiltonian]\nH = \"0.5*p_y^2\"\n", "unknown symbol 'p_y'"},
      {"[hamiltonian]\nmetric = [[\"p_x\"]]\n", "metric depends on the momentum p_x"},
      {"[hamiltonian]\nmetric = [[\"1\", \"0\"]]\n", "entries; expected 1"},
      {"[hamiltonian]\nsurface = \"x - 2\"\noutside = \"0.5*p_x^2\"\n", "no inside"},
      {"[hamiltonian]\nsurface = \"x - 1\"\noutside = \"0.5*p_x^2\"\ninside = \"p_x^2\"\n",
       "at the initial state"},
      {"[hamiltonian]\nsurface = \"p_x\"\noutside = \"0.5*p_x^2\"\ninside = \"p_x^2\"\n",
       "surface depends on the momentum p_x"},
      {"[hamiltonian]\nH = \"0.5*p_x^2\"\n[[contacts]]\ngap = \"x\"\ne = 2\n", "0 <= e <= 1"},
      {"[hamiltonian]\nH = \"0.5*p_x^2\"\n[[contacts]]\ngap = \"x\"\nmu = 0.3\n",
       "unknown key 'mu'"},
      {"[hamiltonian]\nH = \"0.5*p_x^2\"\n[mechanics]\nkinetic_energy = \"x'^2\"\n",
       "in a Hamiltonian model"},
  };
  for (const auto& [text, cause] : cases)
    saltus::testing::expect_load_refused(coords + text + solver, cause);
}

}  // namespace
}  // namespace saltus::model
