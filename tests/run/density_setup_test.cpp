// What `saltus density` integrates for a model file (run/density_setup.hpp, issue 34): the
// energy it reports is a first integral of the model's own equations. Without a potential the
// kinetic energy is kept by projection; with one (or a velocity-free term in T) nothing is
// projected and E = T + V is the reported energy; applied forces or explicit time are refused,
// naming the file and the term.
#include "saltus/run/density_setup.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/model_files.hpp"

namespace saltus::run {
namespace {

using saltus::testing::models_dir;

// models/chaplygin_sleigh.toml with `lines` added to its [mechanics] (and `kinetic` replacing
// its kinetic energy when given), written to a file of this test's own, its units left out: the
// lines added write their constants as bare numbers (a unit check would refuse them first).
std::string sleigh_file(const std::string& name, const std::string& lines,
                        const std::string& kinetic = "") {
  std::ifstream in(models_dir() / "chaplygin_sleigh.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = std::regex_replace(text.str(), std::regex(R"((,\s*)?\bunit\s*=\s*"[^"]*")"), "");
  s = std::regex_replace(s, std::regex(R"(\ntime_unit\s*=[^\n]*)"), "\n");
  const std::string t_key = "kinetic_energy = ";
  const size_t at = s.find(t_key);
  EXPECT_NE(at, std::string::npos);
  if (!kinetic.empty()) s.replace(at, s.find('\n', at) - at, t_key + kinetic);
  s.insert(s.find('\n', at) + 1, lines);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "saltus_density_setup";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream(path) << s;
  return path.string();
}

DensityArguments arguments(const std::string& model) {
  DensityArguments a;
  a.model = model;
  a.range = {-2.0, 2.0, -1.0, 1.0};
  a.trajectories = 2;
  return a;
}

std::string refusal(const std::string& model) {
  try {
    (void)model_density_setup(arguments(model));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

SimulationOptions tight() {
  SimulationOptions o;
  o.integrator = Integrator::Dop853;
  o.stepper.rtol = 1e-11;
  o.stepper.atol = 1e-13;
  return o;
}

TEST(DensitySetup, SleighWithoutPotentialKeepsItsKineticEnergyByProjection) {
  const DensitySetup s = model_density_setup(arguments(sleigh_file("plain.toml", "")));
  EXPECT_TRUE(s.projected);
  ASSERT_TRUE(s.system.mode(s.mode).projection.has_value());
  for (const Vector& x : s.starts) EXPECT_EQ(s.energy(x), s.kinetic_energy(x));
}

TEST(DensitySetup, PotentialIsNotProjectedAwayAndItsEnergyIsReported) {
  // The sleigh in a harmonic well V = (x^2 + y^2) / 2: its kinetic energy changes along the
  // run, T + V does not. Before issue 34 the run was projected onto the start's kinetic energy
  // (other physics: 2.4 away from the model's own equations after 3 s here) and T was reported.
  const std::string file = sleigh_file("well.toml", "potential_energy = \"0.5*(x^2 + y^2)\"\n");
  const DensitySetup s = model_density_setup(arguments(file));
  EXPECT_FALSE(s.projected);
  EXPECT_FALSE(s.system.mode(s.mode).projection.has_value());
  const auto model = std::make_shared<const model::Model>(model::load_model_file(file));
  const model::MechanicalSystem own = model::build_mechanical_system(model);
  const Vector& x0 = s.starts[0];
  const SimulationResult r = simulate(s.system, s.mode, 0.0, x0, 3.0, tight());
  const SimulationResult ref = simulate(own.system, own.initial_mode, 0.0, x0, 3.0, tight());
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  ASSERT_EQ(ref.termination(), Termination::EndTimeReached) << ref.summary.message;
  EXPECT_LT((r.x_final - ref.x_final).lpNorm<Eigen::Infinity>(), 1e-12);
  const double T0 = s.kinetic_energy(x0);
  EXPECT_GT(std::abs(s.kinetic_energy(r.x_final) - T0) / T0, 1e-2);  // T does change
  EXPECT_LT(std::abs(s.energy(r.x_final) - s.energy(x0)) / T0, 1e-8);
  const double V0 = 0.5 * (x0[0] * x0[0] + x0[1] * x0[1]);
  EXPECT_NEAR(s.energy(x0), T0 + V0, 1e-14 * (T0 + V0));
  // The second start has the first one's configuration and kinetic energy: the same E.
  EXPECT_NEAR(s.energy(s.starts[1]), s.energy(x0), 1e-12);

  // The same well written as a velocity-free term of T (T0 = -V): the same energy function.
  const DensitySetup t0 =
      model_density_setup(arguments(sleigh_file("well_in_t.toml", "",
                                                "\"0.5*(m*(x'^2 + y'^2) + (I + m*a^2)*theta'^2 + "
                                                "2*m*a*theta'*sideways) - 0.5*(x^2 + y^2)\"")));
  EXPECT_FALSE(t0.projected);
  EXPECT_NEAR(t0.energy(r.x_final), s.energy(r.x_final), 1e-12);
}

TEST(DensitySetup, ForcesAndExplicitTimeAreRefusedNamingFileAndTerm) {
  const std::string forced = sleigh_file("forced.toml", "forces = { theta = \"-0.1*theta'\" }\n");
  std::string e = refusal(forced);
  EXPECT_NE(e.find(forced), std::string::npos) << e;
  EXPECT_NE(e.find("[mechanics] forces gives a generalised force on 'theta'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("expected"), std::string::npos) << e;

  const std::string timed = sleigh_file("timed.toml", "potential_energy = \"0.5*x^2*cos(t)\"\n");
  e = refusal(timed);
  EXPECT_NE(e.find(timed), std::string::npos) << e;
  EXPECT_NE(e.find("[mechanics] potential_energy reads t"), std::string::npos) << e;

  const std::string moving = sleigh_file(
      "moving.toml", "",
      "\"0.5*(m*(x'^2 + y'^2) + (I + m*a^2)*theta'^2 + 2*m*a*theta'*sideways) + 0.1*t*x'\"");
  e = refusal(moving);
  EXPECT_NE(e.find("[mechanics] kinetic_energy reads t"), std::string::npos) << e;
}

}  // namespace
}  // namespace saltus::run
