// nonholonomic.chaplygin_sleigh.free_motion and nonholonomic.billiard.* cases of oracles.json run
// through saltus::simulate on the compiled models of nonholonomic_billiards.hpp. Horizons, states
// and tolerances come from each case; a guard (this file's last test) fails when a
// nonholonomic.* case has a kind no test here reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "json_values.hpp"
#include "saltus/sim/simulator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/oracles.hpp"
#include "support/solver_options.hpp"

namespace saltus {
namespace {

using saltus::testing::json_vector;
using saltus::testing::num;
using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

// The oracles' flows are exact (disk arcs) or 30-digit Taylor series (sleigh). Each impact
// amplifies earlier errors: measured on the disk case, the 6th impact's y moves by 7e-10 at
// DOP853 rtol 1e-13 and by < 1e-10 at 1e-14 (its tolerance is 3.4e-10), so we run at 1e-14.
SimulationOptions tight() {
  return saltus::testing::solver_options(1e-14, 1e-16, Integrator::Dop853);
}

// Runs a billiard to half an impact gap past the case's last impact and checks every listed
// impact: time, wall, configuration before, and (via `after`) the post-impact rates.
template <class After>
void expect_billiard(const nlohmann::json& c, const mech::NonholonomicModel& model,
                     const Vector& x0, After after) {
  const auto tol = oracle_tolerance(c);
  const std::string id = c["id"];
  const auto& e = c["expected"];
  const auto times = e["impact_times"].get<std::vector<double>>();
  ASSERT_FALSE(times.empty());
  double gap = times.front();
  for (size_t i = 1; i < times.size(); ++i) gap = std::min(gap, times[i] - times[i - 1]);
  const auto compiled = model.compile();
  const int n = model.dof();
  const SimulationResult r = simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0,
                                      times.back() + 0.5 * gap, tight());
  ASSERT_TRUE(r.summary.ok()) << r.summary.message;
  // A later impact may fall before t_end: only the listed ones are compared.
  ASSERT_GE(r.events.size(), static_cast<long>(times.size())) << id;
  const double T0 = model.kinetic_energy(x0.head(n), x0.tail(n));
  EXPECT_TRUE(oracle_near(id + " T", T0, num(e["kinetic_energy"]), tol));
  for (long i = 0; i < static_cast<long>(times.size()); ++i) {
    const std::string at = id + " impact " + std::to_string(i);
    EXPECT_TRUE(oracle_near(at + " t", r.events[i].t, times[i], tol));
    const Mode& mode = compiled.system.mode(r.events[i].mode_before);
    EXPECT_EQ(mode.guards[r.events[i].guard].name, e["sides"][i].get<std::string>()) << at;
    const Vector q_expected = json_vector(e["q_at_impact"][i]);
    const Vector q = r.events.x_before(i).head(n);
    for (int k = 0; k < n; ++k) {
      EXPECT_TRUE(oracle_near(at + " q" + std::to_string(k), q[k], q_expected[k], tol));
    }
    after(at, i, Vector(r.events.x_after(i)), tol);
    // The reset's outputs: epsilon, lambda per constraint, D, T+ - T- of the wall's map.
    const Vector out = r.events.outputs(i);
    const int k = model.constraint_count();
    ASSERT_EQ(out.size(), 3 + k) << at;
    const mech::NonholonomicImpact imp =
        model.impact(r.events[i].guard, q, r.events.x_before(i).tail(n));
    EXPECT_EQ(out[0], imp.epsilon) << at;
    for (int a = 0; a < k; ++a) EXPECT_EQ(out[1 + a], imp.lambda[a]) << at;
    EXPECT_EQ(out[1 + k], imp.denominator) << at;
    EXPECT_TRUE(oracle_near(at + " T+ - T-", out[2 + k], 0.0, tol));
    // Energy and constraints after the impact (elastic walls).
    const Vector xp = r.events.x_after(i);
    EXPECT_TRUE(oracle_near(at + " T+", model.kinetic_energy(xp.head(n), xp.tail(n)), T0, tol));
    EXPECT_LT(model.constraint_values(xp.head(n), xp.tail(n)).norm(), tol.abs);
  }
}

TEST(NonholonomicBilliardOracles, ChaplyginSleighInEllipse) {
  const auto cases = oracle_cases("nonholonomic.billiard.chaplygin_sleigh_ellipse");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const auto& s0 = p["initial_state"];
    const auto model =
        systems::chaplygin_sleigh({num(p["m"]), num(p["I"]), num(p["a"]), num(p["L"])},
                                  systems::EllipticTable{num(p["A"]), num(p["B"])});
    const Vector x0 = systems::sleigh_state(num(s0["x"]), num(s0["y"]), num(s0["theta"]),
                                            num(s0["v"]), num(s0["omega"]));
    const auto& e = c["expected"];
    expect_billiard(
        c, model, x0,
        [&](const std::string& at, long i, const Vector& xp,
            const saltus::testing::OracleTolerance& tol) {
          EXPECT_TRUE(oracle_near(at + " v+", systems::sleigh_speed(xp), num(e["v_plus"][i]), tol));
          EXPECT_TRUE(oracle_near(at + " omega+", xp[5], num(e["omega_plus"][i]), tol));
        });
  }
}

TEST(NonholonomicBilliardOracles, VerticalDiskInEllipse) {
  const auto cases = oracle_cases("nonholonomic.billiard.vertical_disk_ellipse");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const auto& s0 = p["initial_state"];
    const systems::VerticalDisk disk{num(p["m"]), num(p["R"]), num(p["I"]), num(p["J"])};
    const auto model =
        systems::vertical_disk(disk, systems::EllipticTable{num(p["A"]), num(p["B"])});
    const Vector x0 =
        systems::vertical_disk_state(disk, num(s0["x"]), num(s0["y"]), num(s0["theta"]),
                                     num(s0["phi"]), num(s0["thetadot"]), num(s0["phidot"]));
    const auto& e = c["expected"];
    expect_billiard(c, model, x0,
                    [&](const std::string& at, long i, const Vector& xp,
                        const saltus::testing::OracleTolerance& tol) {
                      const Vector rates = json_vector(e["rates_plus"][i]);
                      EXPECT_TRUE(oracle_near(at + " thetadot+", xp[6], rates[0], tol));
                      EXPECT_TRUE(oracle_near(at + " phidot+", xp[7], rates[1], tol));
                    });
  }
}

TEST(NonholonomicBilliardOracles, FreeChaplyginSleigh) {
  const auto cases = oracle_cases("nonholonomic.chaplygin_sleigh.free_motion");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const auto tol = oracle_tolerance(c);
    const std::string id = c["id"];
    const auto model = systems::chaplygin_sleigh({num(p["m"]), num(p["I"]), num(p["a"]), 0.0});
    const Vector x0 = systems::sleigh_state(num(p["x0"]), num(p["y0"]), num(p["theta0"]),
                                            num(p["v0"]), num(p["omega0"]));
    SimulationOptions o = tight();
    o.output.sample_times = p["times"].get<std::vector<double>>();
    const auto compiled = model.compile();
    const SimulationResult r = simulate(compiled.system, compiled.initial_mode(x0), 0.0, x0,
                                        o.output.sample_times.back(), o);
    ASSERT_TRUE(r.summary.ok()) << r.summary.message;
    ASSERT_EQ(r.trajectory.size(), static_cast<long>(o.output.sample_times.size()));
    const auto& e = c["expected"];
    for (long i = 0; i < r.trajectory.size(); ++i) {
      const Vector x = r.trajectory.x(i).head(6);
      const std::string at = id + " t=" + std::to_string(r.trajectory.t(i));
      EXPECT_TRUE(oracle_near(at + " v", systems::sleigh_speed(x), num(e["v"][i]), tol));
      EXPECT_TRUE(oracle_near(at + " omega", x[5], num(e["omega"][i]), tol));
      EXPECT_TRUE(oracle_near(at + " theta", x[2], num(e["theta"][i]), tol));
      EXPECT_TRUE(oracle_near(at + " x", x[0], num(e["x"][i]), tol));
      EXPECT_TRUE(oracle_near(at + " y", x[1], num(e["y"][i]), tol));
    }
  }
}

// Every nonholonomic.* kind in the oracle file is read by a test of this folder.
TEST(NonholonomicOracles, EveryKindIsCovered) {
  const std::set<std::string> known = {"nonholonomic.theorem3.particle_ellipse",
                                       "nonholonomic.theorem4.chaplygin_sleigh",
                                       "nonholonomic.theorem4.vertical_disk",
                                       "nonholonomic.theorem4.rolling_ball",
                                       "nonholonomic.chaplygin_sleigh.free_motion",
                                       "nonholonomic.billiard.chaplygin_sleigh_ellipse",
                                       "nonholonomic.billiard.vertical_disk_ellipse"};
  const auto cases = oracle_cases("nonholonomic.", true);
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    EXPECT_TRUE(known.count(c["model"].get<std::string>()))
        << c["id"] << ": model " << c["model"] << " is read by no test";
  }
}

}  // namespace
}  // namespace saltus
