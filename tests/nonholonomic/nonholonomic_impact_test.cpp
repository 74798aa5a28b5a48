// The Clark-Bloch impact maps (Theorems 3 and 4, eq. (9)): every nonholonomic.theorem3.* and
// nonholonomic.theorem4.* case of oracles.json through the models of nonholonomic_billiards.hpp,
// and the properties of FORMULAS.md 12.2 on random states.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "json_values.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/newton_impact_map.hpp"
#include "saltus/mech/nonholonomic_impact.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/oracles.hpp"

namespace saltus {
namespace {

using mech::nonholonomic_impact;
using mech::NonholonomicImpact;
using saltus::testing::json_vector;
using saltus::testing::num;
using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;

void expect_vector(const std::string& what, const Vector& got, const nlohmann::json& expected,
                   const saltus::testing::OracleTolerance& tol) {
  const Vector e = json_vector(expected);
  ASSERT_EQ(got.size(), e.size()) << what;
  for (Eigen::Index i = 0; i < e.size(); ++i) {
    EXPECT_TRUE(oracle_near(what + "[" + std::to_string(i) + "]", got[i], e[i], tol));
  }
}

// Checks the optional scalar and vector fields an oracle case may carry for one impact.
void expect_impact(const nlohmann::json& c, const NonholonomicImpact& imp) {
  const auto tol = oracle_tolerance(c);
  const std::string id = c["id"];
  const auto& e = c["expected"];
  expect_vector(id + " qdot_plus", imp.qdot_plus, e["qdot_plus"], tol);
  if (e.contains("epsilon")) {
    EXPECT_TRUE(oracle_near(id + " epsilon", imp.epsilon, e["epsilon"], tol));
  }
  if (e.contains("lambda")) {
    expect_vector(id + " lambda", imp.lambda, e["lambda"], tol);
  }
  if (e.contains("denominator")) {
    EXPECT_TRUE(oracle_near(id + " D", imp.denominator, e["denominator"], tol));
  }
  if (e.contains("dh_qdot_minus")) {
    EXPECT_TRUE(oracle_near(id + " dh(qdot-)", imp.dh_minus, e["dh_qdot_minus"], tol));
  }
  if (e.contains("dh_qdot_plus")) {
    EXPECT_TRUE(oracle_near(id + " dh(qdot+)", imp.dh_plus, e["dh_qdot_plus"], tol));
  }
}

// The model's wall named by the case's "side" ("front"/"back").
int wall_index(const mech::NonholonomicModel& model, const std::string& side) {
  for (int w = 0; w < model.wall_count(); ++w) {
    if (model.wall(w).name == side) return w;
  }
  ADD_FAILURE() << "no wall " << side;
  return 0;
}

TEST(NonholonomicImpactOracles, Theorem3ParticleInEllipse) {
  const auto cases = oracle_cases("nonholonomic.theorem3.particle_ellipse");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    ASSERT_EQ(p["metric"], "identity");
    const double A = p["A"], B = p["B"];
    const Vector q = json_vector(p["point"]), qd = json_vector(p["qdot_minus"]);
    const Vector dh = Eigen::Vector2d(-2.0 * q[0] / (A * A), -2.0 * q[1] / (B * B));
    const NonholonomicImpact imp =
        nonholonomic_impact(Matrix::Identity(2, 2), dh, Matrix(0, 2), qd);
    expect_impact(c, imp);
    // Theorem 3 is the Newton map P(q, 1): the normal component reverses, the tangential stays.
    EXPECT_NEAR(imp.dh_plus, -imp.dh_minus, 1e-14 * std::abs(imp.dh_minus));
    EXPECT_NEAR(imp.energy_change, 0.0, 1e-14 * qd.squaredNorm());
  }
}

TEST(NonholonomicImpactOracles, Theorem4ChaplyginSleigh) {
  const auto cases = oracle_cases("nonholonomic.theorem4.chaplygin_sleigh");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const systems::ChaplyginSleigh s{num(p["m"]), num(p["I"]), num(p["a"]), num(p["L"])};
    const auto model =
        systems::chaplygin_sleigh(s, systems::EllipticTable{num(p["A"]), num(p["B"])});
    const Vector q = json_vector(p["q"]), qd = json_vector(p["qdot_minus"]);
    const int w = wall_index(model, p["side"]);
    EXPECT_NEAR(model.wall_value(w, q), 0.0, oracle_tolerance(c).abs) << c["id"];  // on the wall
    const NonholonomicImpact imp = model.impact(w, q, qd);
    expect_impact(c, imp);
    const auto tol = oracle_tolerance(c);
    const auto& e = c["expected"];
    Vector x(6);
    x << q, imp.qdot_plus;
    EXPECT_TRUE(oracle_near("v+", systems::sleigh_speed(x), e["v_plus"], tol));
    EXPECT_TRUE(oracle_near("omega+", imp.qdot_plus[2], e["omega_plus"], tol));
    EXPECT_TRUE(oracle_near("T", model.kinetic_energy(q, qd), e["kinetic_energy"], tol));
    EXPECT_TRUE(
        oracle_near("T+", model.kinetic_energy(q, imp.qdot_plus), e["kinetic_energy"], tol));
  }
}

TEST(NonholonomicImpactOracles, Theorem4VerticalDisk) {
  const auto cases = oracle_cases("nonholonomic.theorem4.vertical_disk");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const systems::VerticalDisk d{num(p["m"]), num(p["R"]), num(p["I"]), num(p["J"])};
    const auto model = systems::vertical_disk(d, systems::EllipticTable{num(p["A"]), num(p["B"])});
    const Vector q = json_vector(p["q"]), qd = json_vector(p["qdot_minus"]);
    const int w = wall_index(model, p["side"]);
    EXPECT_NEAR(model.wall_value(w, q), 0.0, oracle_tolerance(c).abs) << c["id"];  // on the wall
    const NonholonomicImpact imp = model.impact(w, q, qd);
    expect_impact(c, imp);
    const auto tol = oracle_tolerance(c);
    EXPECT_TRUE(oracle_near("T+", model.kinetic_energy(q, imp.qdot_plus),
                            c["expected"]["kinetic_energy"], tol));
  }
}

TEST(NonholonomicImpactOracles, Theorem4RollingBallAtAStraightWall) {
  const auto cases = oracle_cases("nonholonomic.theorem4.rolling_ball");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto& p = c["parameters"];
    const systems::RollingBall ball{num(p["k2"]), num(p["r"])};
    // The case's wall is the line x = x_w met by the centre moving towards it: h = x_w - x (the
    // map depends on dh only, so x_w and the centre's position drop out).
    mech::NonholonomicModel model = systems::rolling_ball(ball);
    const Vector qd = json_vector(p["qdot_minus"]);
    const double sign = qd[0] > 0.0 ? 1.0 : -1.0;
    model.add_wall("line", [sign](const auto& q) { return sign * (0.0 - q[0]); });
    const Vector angles = json_vector(p["q_angles"]);
    Vector q(5);
    q << 0.0, 0.0, angles;
    EXPECT_LT(model.constraint_values(q, qd).norm(), 1e-14);
    const NonholonomicImpact imp = model.impact(0, q, qd);
    expect_impact(c, imp);
    const auto tol = oracle_tolerance(c);
    Vector x_minus(10), x_plus(10);
    x_minus << q, qd;
    x_plus << q, imp.qdot_plus;
    expect_vector("spin-", systems::rolling_ball_spin(x_minus), c["expected"]["omega_space_minus"],
                  tol);
    expect_vector("spin+", systems::rolling_ball_spin(x_plus), c["expected"]["omega_space_plus"],
                  tol);
  }
}

// FORMULAS.md 12.2 on random sleigh, disk and ball states: constraints and energy kept,
// dh(qdot+) = -dh(qdot-); off the constraint (eq. (9)) each eta^a(qdot) kept and the admissible
// part mapped by Theorem 4, the rest unchanged; with restitution e,
// dh(qdot+) = -e dh(qdot-) and T+ - T- = -(1 - e^2) dh(qdot-)^2 / (2 D).
TEST(NonholonomicImpactProperties, RandomStatesOfTheThreeSystems) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const systems::EllipticTable table{2.0, 1.0};
  const mech::NonholonomicModel models[] = {systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table),
                                            systems::vertical_disk({1.0, 0.2, 0.02, 0.01}, table),
                                            systems::rolling_ball({0.4, 1.0}, table)};
  int checked = 0;
  for (const auto& model : models) {
    const int n = model.dof();
    for (int trial = 0; trial < 200; ++trial) {
      Vector q(n), v(n);
      for (int i = 0; i < n; ++i) q[i] = u(rng);
      if (model.name() == "rolling_ball") q[2] = 1.2 + 0.8 * u(rng);  // away from the chart edge
      for (int i = 0; i < n; ++i) v[i] = 2.0 * u(rng);
      const Vector qd = model.project_velocity(q, v);
      const int w = trial % model.wall_count();
      const Vector dh = model.wall_gradient(w, q);
      if (dh.dot(qd) >= 0.0) continue;  // not an impact
      const double scale = qd.norm() * (1.0 + dh.norm());
      const NonholonomicImpact imp = model.impact(w, q, qd);
      EXPECT_LT(model.constraint_values(q, imp.qdot_plus).norm(), 1e-13 * scale);
      const double T = model.kinetic_energy(q, qd);
      EXPECT_NEAR(model.kinetic_energy(q, imp.qdot_plus), T, 1e-13 * T);
      EXPECT_NEAR(imp.dh_plus, -imp.dh_minus, 1e-13 * scale);
      EXPECT_NEAR(imp.S, 0.0, 1e-13 * scale);

      // Off the constraint: the global version keeps every eta^a(qdot).
      const Vector off = qd + 0.3 * v;
      const NonholonomicImpact g =
          mech::nonholonomic_impact(model.mass_matrix(q), dh, model.constraint_matrix(q), off);
      EXPECT_LT((model.constraint_values(q, g.qdot_plus) - model.constraint_values(q, off)).norm(),
                1e-13 * (off.norm() * (1.0 + dh.norm())));
      EXPECT_NEAR(g.dh_plus, -g.dh_minus + 2.0 * g.S, 1e-13 * scale);
      // ... and is Theorem 4's map of the admissible part (the M-orthogonal projection onto the
      // distribution), the rest passing unchanged.
      const Vector admissible = model.project_velocity(q, off);
      const Vector expected = model.impact(w, q, admissible).qdot_plus + (off - admissible);
      EXPECT_LT((g.qdot_plus - expected).norm(), 1e-13 * (off.norm() * (1.0 + dh.norm())));

      // Restitution (our extension).
      const double e = 0.5 * (1.0 + u(rng));
      const NonholonomicImpact r =
          mech::nonholonomic_impact(model.mass_matrix(q), dh, model.constraint_matrix(q), qd, e);
      EXPECT_NEAR(r.dh_plus, -e * r.dh_minus, 1e-13 * scale);
      EXPECT_NEAR(r.energy_change, -(1.0 - e * e) * r.dh_minus * r.dh_minus / (2.0 * r.denominator),
                  1e-13 * T);
      EXPECT_LT(model.constraint_values(q, r.qdot_plus).norm(), 1e-13 * scale);
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
}

// Without constraints the map is Theorem 3, i.e. the Newton map P(q, e) of seed 000 (5.18)
// (FORMULAS.md 12.1), here against mech::newton_impact for random SPD M, walls and velocities.
TEST(NonholonomicImpactProperties, WithoutConstraintsItIsTheNewtonMap) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 2 + trial % 5;
    Matrix R(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) R(i, j) = u(rng);
    }
    const Matrix M = R * R.transpose() + 0.5 * Matrix::Identity(n, n);
    Vector dh(n), qd(n);
    for (int i = 0; i < n; ++i) {
      dh[i] = u(rng);
      qd[i] = u(rng);
    }
    if (dh.dot(qd) > 0.0) qd = -qd;
    const double e = trial % 2 ? 1.0 : 0.5 * (1.0 + u(rng));
    const NonholonomicImpact ours = nonholonomic_impact(M, dh, Matrix(0, n), qd, e);
    const mech::NewtonImpact newton = mech::newton_impact(M, dh, qd, e);
    EXPECT_LT((ours.qdot_plus - newton.qdot_plus).norm(), 1e-13 * (1.0 + qd.norm()));
    EXPECT_NEAR(ours.epsilon, newton.impulse, 1e-13 * (1.0 + std::abs(newton.impulse)));
  }
}

TEST(NonholonomicImpactBadInput, DependentRowsAndTrivialImpactAreNamed) {
  const Matrix M = Matrix::Identity(3, 3);
  Matrix eta(2, 3);
  eta << 1.0, 0.0, 0.0, 2.0, 0.0, 0.0;
  const Vector qd = Eigen::Vector3d(0.0, -1.0, 0.0);
  try {
    nonholonomic_impact(M, Eigen::Vector3d(0.0, 1.0, 0.0), eta, qd, 1.0, "wall 'w'");
    FAIL() << "dependent rows accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("wall 'w': the constraint rows are dependent"),
              std::string::npos)
        << err.what();
  }
  // The wall's normal lies in the span of the constraint rows: no admissible velocity moves
  // towards it, D = 0.
  try {
    nonholonomic_impact(M, Eigen::Vector3d(1.0, 0.0, 0.0), eta.topRows(1),
                        Eigen::Vector3d(-1.0, 0.0, 0.0), 1.0, "wall 'w'");
    FAIL() << "trivial impact accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("wall 'w': trivial impact: D = "), std::string::npos)
        << err.what();
  }
  EXPECT_THROW(nonholonomic_impact(M, Eigen::Vector3d(0.0, 1.0, 0.0), Matrix(0, 3), qd, 1.5),
               Error);
}

}  // namespace
}  // namespace saltus
