// Mechanical model files ([coordinates], [mechanics], [[contacts]]): M(q) and h(t, q, q') derived
// symbolically from T and V equal the hand-derived bouncing rod of FORMULAS.md 4.2; the rod's
// impact map reproduces rigid.frictionless_impact_map.bouncing_rod; the rod scene runs through
// run_model (the library entry point of `saltus run`) under every impact law chosen in the file,
// with impulses and energy change in the event outputs; the particle scene reproduces the
// compliant.* oracles under every compliant law; bad mechanical input is reported with its line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/run_outputs.hpp"
#include "support/model_files.hpp"
#include "support/oracles.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

std::shared_ptr<const Model> load(const std::string& file, const std::vector<std::string>& set) {
  return std::make_shared<const Model>(load_model_file(models_dir() / file, set));
}

const std::string& guard_name(const ModelRun& r, long i) {
  static const std::string zeno = "zeno-handover";
  const EventRecord& ev = r.result.events[i];
  return ev.guard == kZenoHandoverGuard ? zeno
                                        : r.system.mode(ev.mode_before).guards[ev.guard].name;
}

TEST(MechanicalModel, RodMassMatrixAndForcesEqualTheHandDerivedOnes) {
  const auto model = load("bouncing_rod.toml", {"contacts.tip.law=newton"});
  const mech::LagrangianModel from_file = lagrangian_model(model);
  mech::BouncingRodParameters p;  // same m, ell, I_c = m (2 ell)^2 / 12, g as the file
  p.I_c = 1.0 / 12.0;
  const mech::LagrangianModel by_hand = mech::bouncing_rod_model(p);
  for (int k = 0; k < 20; ++k) {
    const Eigen::Vector3d q(0.1 * k, -0.3 + 0.05 * k, -2.0 + 0.37 * k);
    const Eigen::Vector3d qd(1.0 - 0.1 * k, 0.3 * k - 2.0, std::sin(k));
    const Matrix M1 = from_file.mass_matrix(q), M2 = by_hand.mass_matrix(q);
    EXPECT_LE((M1 - M2).norm(), 1e-15 * M2.norm()) << "q = " << q.transpose();
    const Vector h1 = from_file.forces(0.3, q, qd), h2 = by_hand.forces(0.3, q, qd);
    EXPECT_LE((h1 - h2).norm(), 2e-15 * (1 + h2.norm())) << "q = " << q.transpose();
  }
}

TEST(MechanicalModel, RodImpactMapReproducesOracles) {
  for (const auto& c : oracle_cases("rigid.frictionless_impact_map.bouncing_rod")) {
    const auto& p = c["parameters"];
    const auto model = load("bouncing_rod.toml",
                            {"contacts.tip.law=newton", "m=" + num(p["m"]), "ell=" + num(p["ell"]),
                             "I_c=" + num(p["I_c"]), "e=" + num(p["e"])});
    const mech::LagrangianModel rod = lagrangian_model(model);
    const Eigen::Vector3d q(0.0, 0.0, double(p["theta_c_deg"]) * M_PI / 180.0);
    const auto qd = p["qdot_minus"].get<std::vector<double>>();
    const auto imp = rod.resolve_impact(0, q, Eigen::Vector3d(qd[0], qd[1], qd[2]));
    const auto tol = oracle_tolerance(c);
    const auto expected = c["expected"]["qdot_plus"].get<std::vector<double>>();
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(
          oracle_near(c["id"].get<std::string>() + " qdot+", imp.qdot_plus[i], expected[i], tol));
    }
    EXPECT_TRUE(oracle_near("impulse", imp.planar.impulse[1], c["expected"]["impulse"], tol));
  }
}

// Horizontal velocity of the centre of mass, x' - ell theta' sin(theta).
double com_vx(const Eigen::Ref<const Vector>& x, double ell) {
  return x[3] - ell * x[5] * std::sin(x[2]);
}

TEST(MechanicalModel, RodUnderEveryLawThroughRunModel) {
  const std::vector<std::string> laws = {"newton",       "naive",         "chatterjee_ruina",
                                         "routh_newton", "routh_poisson", "routh_stronge"};
  for (const std::string& law : laws) {
    // The same scene written in C++ (bouncing_rod.hpp) with the same law and options.
    const auto model = load("bouncing_rod.toml", {"contacts.tip.law=" + law, "t_end=0.8"});
    const ModelRun r = run_model(model);
    ASSERT_TRUE(r.succeeded()) << law << ": " << r.result.summary.message;
    long impacts = 0;
    for (long i = 0; i < r.result.events.size(); ++i) {
      if (guard_name(r, i) != "impact:tip") continue;
      ++impacts;
      const auto before = r.result.events.x_before(i), after = r.result.events.x_after(i);
      const auto out = r.result.events.outputs(i);
      ASSERT_EQ(out.size(), 3) << law;  // impulse_t, impulse_n, energy_change
      EXPECT_GT(out[1], 0.0) << law;
      // The impulse changes the momentum of the centre of mass: m dv = P.
      const double dvx = com_vx(after, 0.5) - com_vx(before, 0.5);
      EXPECT_NEAR(dvx, out[0] / 1.0, 1e-12 * (1 + std::abs(out[0]))) << law;
      const double dT =
          0.5 *
          (after.tail(3).dot(lagrangian_model(model).mass_matrix(after.head(3)) * after.tail(3)) -
           before.tail(3).dot(lagrangian_model(model).mass_matrix(before.head(3)) *
                              before.tail(3)));
      EXPECT_NEAR(out[2], dT, 1e-12) << law;
      if (law == "newton") {
        EXPECT_EQ(out[0], 0.0);
      }
      if (law == "chatterjee_ruina" || law == "routh_poisson" || law == "routh_stronge") {
        EXPECT_LE(out[2], 1e-12) << law << ": an energy-consistent law gained energy";
      }
    }
    EXPECT_GE(impacts, 1) << law;
    // events.csv carries the impulses.
    const std::string csv = run::model_events_csv(r);
    EXPECT_NE(csv.find("impulse_n"), std::string::npos) << law;
  }
}

TEST(MechanicalModel, RodMatchesTheHandWrittenRodRun) {
  for (const std::string law : {"newton", "chatterjee_ruina", "routh_stronge"}) {
    const auto model = load("bouncing_rod.toml", {"contacts.tip.law=" + law, "t_end=0.8"});
    const ModelRun r = run_model(model);
    ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
    mech::BouncingRodParameters p;
    p.I_c = 1.0 / 12.0;
    p.law = model->mechanics->contacts[0].rigid_law;
    const HybridSystem sys = mech::bouncing_rod_model(p).compile().system;
    const Vector x0 = model->initial_state();
    SimulationResult c;
    Simulator(sys, model->options).run(0, 0.0, x0, Vector(0), 0.8, c);
    ASSERT_EQ(c.events.size(), r.result.events.size()) << law;
    for (long i = 0; i < c.events.size(); ++i) {
      EXPECT_NEAR(c.events[i].t, r.result.events[i].t, 1e-9) << law << " event " << i;
      EXPECT_LE((c.events.x_after(i) - r.result.events.x_after(i)).norm(), 1e-8) << law;
    }
  }
}

TEST(MechanicalModel, NewtonImpactsConserveTheHorizontalMomentumAndPlasticImpactCloses) {
  const auto model = load("bouncing_rod.toml", {"contacts.tip.law=newton", "t_end=0.6"});
  const ModelRun r = run_model(model);
  ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
  for (long i = 0; i < r.result.events.size(); ++i) {
    EXPECT_NEAR(com_vx(r.result.events.x_before(i), 0.5), com_vx(r.result.events.x_after(i), 0.5),
                1e-12);
  }
  // e = 0, falling nearly upright: the impact leaves the tip on the table with a positive normal
  // force, so the contact stays closed (the frictionless tip slides while the rod falls over).
  const ModelRun plastic =
      run_model(load("bouncing_rod.toml", {"contacts.tip.law=newton", "e=0", "theta0=1.5"}));
  ASSERT_TRUE(plastic.succeeded()) << plastic.result.summary.message;
  ASSERT_GE(plastic.result.events.size(), 1);
  EXPECT_EQ(guard_name(plastic, 0), "impact:tip");
  EXPECT_NEAR(plastic.result.events.x_after(0)[4], 0.0, 1e-12);  // y' = 0 after the impact
  EXPECT_EQ(plastic.system.mode(plastic.result.events[0].mode_after).name, "closed:tip");
  EXPECT_EQ(plastic.system.mode(plastic.result.final_mode).name, "closed:tip");
  EXPECT_LT(std::abs(plastic.result.x_final[1]), 1e-12);  // the tip is still on the table
}

TEST(MechanicalModel, RunsStartInTheModeTheInitialStateIsConsistentWith) {
  // The rod standing still on its tip: the contact starts closed (frictionless) or stuck
  // (Routh-Poisson with mu = 0.3) and holds for the short run.
  for (const std::string law : {"newton", "routh_poisson"}) {
    const ModelRun r =
        run_model(load("bouncing_rod.toml", {"contacts.tip.law=" + law, "y=0", "x'=0",
                                             "theta0=" + num(M_PI / 2), "t_end=0.05"}));
    ASSERT_TRUE(r.succeeded()) << r.result.summary.message;
    EXPECT_EQ(r.system.mode(r.result.final_mode).name,
              law == "newton" ? "closed:tip" : "stick:tip");
    EXPECT_TRUE(r.result.events.empty());
    EXPECT_LT(std::abs(r.result.x_final[1]), 1e-12);
  }
  // The particle resting in its compliant surface at the static penetration m g / k.
  const ModelRun p =
      run_model(load("compliant_particle.toml", {"contacts.surface.law=linear_spring",
                                                 "h0=" + num(-9.81 / 1e4), "t_end=0.1"}));
  ASSERT_TRUE(p.succeeded()) << p.result.summary.message;
  EXPECT_EQ(p.system.mode(p.result.final_mode).name, "free|surface");
  EXPECT_NEAR(p.result.x_final[0], -9.81e-4, 1e-12);
}

// The particle scene: one impact at speed v0 with gravity off, under each compliant law.
struct ParticleImpact {
  double contact_duration = NAN, restitution = NAN;
};

// The run lasts twice the case's contact duration after the touch-down, whatever it is.
ParticleImpact particle_impact(const std::vector<std::string>& set, double v0,
                               double contact_duration) {
  std::vector<std::string> all = set;
  // Start just above the surface, moving down at v0, no gravity: the impact is the oracle's.
  all.insert(all.end(), {"g=0", "h0=" + num(1e-4 * v0), "y'=" + num(-v0), "rtol=1e-12",
                         "atol=1e-15", "t_end=" + num(1e-4 + 2.0 * contact_duration)});
  const ModelRun r = run_model(load("compliant_particle.toml", all));
  EXPECT_TRUE(r.succeeded()) << r.result.summary.message;
  ParticleImpact out;
  double t_touch = NAN;
  for (long i = 0; i < r.result.events.size(); ++i) {
    const std::string& g = guard_name(r, i);
    if (g == "touch:surface" && std::isnan(t_touch)) t_touch = r.result.events[i].t;
    if (g == "release:surface" && std::isnan(out.restitution)) {
      out.contact_duration = r.result.events[i].t - t_touch;
      out.restitution = r.result.events.x_after(i)[1] / v0;
    }
  }
  return out;
}

TEST(MechanicalModel, ParticleReproducesCompliantOraclesUnderEveryLaw) {
  int checked = 0;
  for (const auto& c : oracle_cases("compliant.linear_spring")) {
    const auto& p = c["parameters"];
    const ParticleImpact r = particle_impact(
        {"contacts.surface.law=linear_spring", "m=" + num(p["m"]), "k=" + num(p["k"])}, p["v0"],
        c["expected"]["contact_duration"]);
    // The exit speed equals v0 and the duration pi sqrt(m/k), to the integration tolerance.
    const double v0 = p["v0"], exit = c["expected"]["exit_velocity"];
    EXPECT_NEAR(r.restitution, exit / v0, 1e-9) << c["id"];
    EXPECT_NEAR(r.contact_duration, double(c["expected"]["contact_duration"]),
                1e-9 * double(c["expected"]["contact_duration"]))
        << c["id"];
    ++checked;
  }
  // Kelvin-Voigt (gap and force release) and Hunt-Crossley: e and contact duration.
  std::vector<nlohmann::json> damped = oracle_cases("compliant.kelvin_voigt", true);
  for (const auto& c : oracle_cases("compliant.hunt_crossley")) damped.push_back(c);
  for (const auto& c : damped) {
    const auto& p = c["parameters"];
    const std::string model = c["model"];
    std::vector<std::string> set = {"m=" + num(p["m"]), "k=" + num(p["k"]), "c=" + num(p["c"])};
    if (model == "compliant.hunt_crossley") {
      set.insert(set.end(),
                 {"contacts.surface.law=hunt_crossley", "contacts.surface.n=" + num(p["n"])});
    } else {
      const bool force = model == "compliant.kelvin_voigt.force_release";
      set.insert(set.end(), {"contacts.surface.law=kelvin_voigt",
                             std::string("contacts.surface.release=") + (force ? "force" : "gap")});
    }
    const ParticleImpact r = particle_impact(set, p["v0"], c["expected"]["contact_duration"]);
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(
        oracle_near(c["id"].get<std::string>() + " e", r.restitution, c["expected"]["e"], tol));
    EXPECT_TRUE(oracle_near(c["id"].get<std::string>() + " duration", r.contact_duration,
                            c["expected"]["contact_duration"], tol));
    ++checked;
  }
  EXPECT_GT(checked, 0);
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

TEST(MechanicalModel, BadMechanicalInputIsReportedWithItsLine) {
  const std::string head = R"([parameters]
m = 1.0
[coordinates]
y = { initial = 1.0 }
x = 0.0
)";
  const std::string solver = "[solver]\nt_end = 1\n";
  // Line numbers below count from 1 at "[parameters]".
  auto d = check(head + "[mechanics]\nkinetic_energy = \"0.5*m*y'^2 + 0.1*x'^4\"\n" + solver);
  EXPECT_TRUE(has(d, "not quadratic in the velocities", 7)) << d.size();
  d = check(head + "[mechanics]\nkinetic_energy = \"0.5*m*y'^2\"\n" + solver);
  EXPECT_TRUE(has(d, "does not depend on the velocity x'", 7));
  const std::string ok_mech = "[mechanics]\nkinetic_energy = \"0.5*m*(y'^2 + x'^2)\"\n";
  d = check(head + ok_mech + "[[contacts]]\nname = \"floor\"\ngap = \"y\"\ne = 1.5\n" + solver);
  EXPECT_TRUE(
      has(d, "contact 'floor'", 11));  // e outside [0, 1] at its line, named with the contact
  d = check(head + ok_mech +
            "[[contacts]]\nname = \"floor\"\ngap = \"y\"\nlaw = \"routh_poisson\"\n" +
            "e = 0.5\nmu = -0.2\ntangent = \"x\"\n" + solver);
  EXPECT_TRUE(has(d, "mu = -0.2", 13));
  d = check(head + ok_mech + "[[contacts]]\nname = \"floor\"\ngap = \"2\"\ne = 0.5\n" + solver);
  EXPECT_TRUE(has(d, "does not depend on the coordinates", 10));
  d = check(head + ok_mech +
            "[[contacts]]\nname = \"floor\"\ngap = \"y\"\nlaw = \"chatterjee_ruina\"\n" +
            "e = 0.5\nmu = 0.2\n" + solver);
  EXPECT_TRUE(has(d, "has no tangent", 8));
  d = check(head + ok_mech + "[[contacts]]\nname = \"floor\"\ngap = \"y*y'\"\ne = 0.5\n" + solver);
  EXPECT_TRUE(has(d, "depends on the velocity y'", 10));
  d = check(head + ok_mech + "[[contacts]]\nname = \"floor\"\ngap = \"y\"\nlaw = \"bounce\"\n" +
            solver);
  EXPECT_TRUE(has(d, "expected one of newton", 11));
  // A mass matrix that is not positive definite at the initial configuration: a run-time error
  // naming the model.
  const auto model = std::make_shared<const Model>(load_model_text(
      head + "[mechanics]\nkinetic_energy = \"0.5*(y'^2 + (1 - y)*x'^2)\"\n" + solver, "spd.toml"));
  try {
    run_model(model);
    ADD_FAILURE() << "expected an error for M(q0) not positive definite";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("positive definite"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace saltus::model
