// frictional.*, rigid.*, and lcp.impact.single_contact_e0 cases of oracles.json reproduced by the
// impact laws of saltus::mech (tolerances from the file), plus unit checks of the laws'
// documented properties and bad input. (Just over 450 lines: one oracle family per section.)
#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/chatterjee_ruina_law.hpp"
#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"
#include "saltus/mech/naive_impact_law.hpp"
#include "saltus/mech/newton_impact_map.hpp"
#include "saltus/mech/routh_impact_process.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using nlohmann::json;
using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;
using saltus::testing::OracleTolerance;

void expect_vec(const std::string& what, const Eigen::VectorXd& got, const json& expected,
                const OracleTolerance& tol) {
  const auto e = expected.get<std::vector<double>>();
  ASSERT_EQ(static_cast<size_t>(got.size()), e.size()) << what;
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_TRUE(
        oracle_near(what + "[" + std::to_string(i) + "]", got[static_cast<long>(i)], e[i], tol));
  }
}

// The planar rigid body of FORMULAS.md 7.2 described by an oracle case.
struct BodyCase {
  Eigen::Matrix3d M;
  Eigen::Vector3d w_T, w_N, qdot_minus;
  Eigen::Matrix2d A;
  Eigen::Vector2d v_minus;
  double mu = 0.0, e = 0.0;

  explicit BodyCase(const json& p) {
    const double m = p["m"], rho2 = p["rho2"], r_t = p["r_t"], r_n = p["r_n"];
    M = Eigen::Vector3d(m, m, m * rho2).asDiagonal();
    w_T = {1.0, 0.0, -r_n};
    w_N = {0.0, 1.0, r_t};
    const auto qd = p["qdot_minus"].get<std::vector<double>>();
    qdot_minus = {qd[0], qd[1], qd[2]};
    A = collision_matrix(M, w_T, w_N);
    v_minus = {w_T.dot(qdot_minus), w_N.dot(qdot_minus)};
    mu = p["mu"];
    e = p["e"];
  }
  Eigen::Vector3d qdot_plus(const Eigen::Vector2d& P) const {
    return qdot_minus + M.inverse() * (w_T * P[0] + w_N * P[1]);
  }
  double kinetic_energy(const Eigen::Vector3d& qd) const { return 0.5 * qd.dot(M * qd); }
};

TEST(FrictionalOracles, CollisionMatrix) {
  const auto cases = oracle_cases("frictional.body.collision_matrix");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    const auto& x = c["expected"];
    const auto A = x["collision_matrix"].get<std::vector<std::vector<double>>>();
    const auto& p = c["parameters"];
    const Eigen::Matrix2d closed =
        rigid_body_collision_matrix(p["m"], p["rho2"], p["r_t"], p["r_n"]);
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        EXPECT_TRUE(oracle_near(id + " A", b.A(i, j), A[i][j], tol));
        EXPECT_TRUE(oracle_near(id + " A closed form", closed(i, j), A[i][j], tol));
      }
    }
    expect_vec(id + " v_minus", b.v_minus, x["v_minus"], tol);
    EXPECT_TRUE(oracle_near(id + " T_minus", b.kinetic_energy(b.qdot_minus), x["T_minus"], tol));
  }
}

TEST(FrictionalOracles, BodyChatterjeeRuina) {
  const auto cases = oracle_cases("frictional.body.chatterjee_ruina");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    const auto& x = c["expected"];
    const double e_t = c["parameters"]["e_t"];
    const auto r = chatterjee_ruina_impact({b.A, b.v_minus}, b.e, e_t, b.mu);
    expect_vec(id + " impulse", r.impulse, x["impulse"], tol);
    expect_vec(id + " v_plus", r.v_plus, x["v_plus"], tol);
    expect_vec(id + " qdot_plus", b.qdot_plus(r.impulse), x["qdot_plus"], tol);
    EXPECT_TRUE(oracle_near(id + " dT", r.dT, x["dT"], tol));
    EXPECT_TRUE(oracle_near(
        id + " dT from qdot",
        b.kinetic_energy(b.qdot_plus(r.impulse)) - b.kinetic_energy(b.qdot_minus), x["dT"], tol));
    expect_vec(id + " P_stick", r.P_stick, x["P_stick"], tol);
    expect_vec(id + " P_frictionless", r.P_frictionless, x["P_frictionless"], tol);
    expect_vec(id + " P_candidate", r.P_candidate, x["P_candidate"], tol);
    EXPECT_EQ(r.projected_onto_cone, x["projected_onto_cone"].get<bool>()) << id;
    EXPECT_TRUE(oracle_near(id + " kappa", r.kappa, x["kappa"], tol));
  }
}

void check_routh(const std::string& model, RouthTermination termination) {
  const auto cases = oracle_cases(model);
  ASSERT_FALSE(cases.empty()) << model;
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    const auto& x = c["expected"];
    const auto r = routh_impact({b.A, b.v_minus}, b.e, b.mu, termination);
    ASSERT_TRUE(r.resolved()) << id << ": " << r.message;
    expect_vec(id + " impulse", r.impulse, x["impulse"], tol);
    expect_vec(id + " v_plus", r.v_plus, x["v_plus"], tol);
    expect_vec(id + " qdot_plus", b.qdot_plus(r.impulse), x["qdot_plus"], tol);
    EXPECT_TRUE(oracle_near(id + " dT", r.dT, x["dT"], tol));
    EXPECT_TRUE(oracle_near(id + " P_nc", r.P_n_compression, x["Pn_at_max_compression"], tol));
    EXPECT_TRUE(oracle_near(id + " W_c", r.W_compression, x["W_compression"], tol));
    EXPECT_TRUE(oracle_near(id + " W_r", r.W_restitution, x["W_restitution"], tol));
    const auto modes = x["phases"].get<std::vector<std::string>>();
    const auto ends = x["phase_end_Pn"].get<std::vector<double>>();
    const auto events = x["phase_end_events"].get<std::vector<std::string>>();
    ASSERT_EQ(r.phases.size(), modes.size()) << id;
    for (size_t i = 0; i < modes.size(); ++i) {
      EXPECT_EQ(to_string(r.phases[i].mode), modes[i]) << id << " phase " << i;
      EXPECT_EQ(to_string(r.phases[i].end), events[i]) << id << " phase " << i;
      EXPECT_TRUE(oracle_near(id + " phase end", r.phases[i].P_n_end, ends[i], tol));
    }
    // Equivalent coefficients of the three definitions (FORMULAS.md 9).
    const double e_newton = -r.v_plus[1] / b.v_minus[1];
    const double e_poisson = r.impulse[1] / r.P_n_compression - 1.0;
    const double e_energetic = std::sqrt(-r.W_restitution / r.W_compression);
    EXPECT_TRUE(oracle_near(id + " e_newton_equiv", e_newton, x["e_newton_equiv"], tol));
    EXPECT_TRUE(oracle_near(id + " e_poisson_equiv", e_poisson, x["e_poisson_equiv"], tol));
    EXPECT_TRUE(oracle_near(id + " e_energetic_equiv", e_energetic, x["e_energetic_equiv"], tol));
  }
}

TEST(FrictionalOracles, RouthNewton) {
  check_routh("frictional.body.routh_newton", RouthTermination::Newton);
}
TEST(FrictionalOracles, RouthPoisson) {
  check_routh("frictional.body.routh_poisson", RouthTermination::Poisson);
}
TEST(FrictionalOracles, RouthStronge) {
  check_routh("frictional.body.routh_stronge", RouthTermination::Stronge);
}

TEST(FrictionalOracles, PlasticStickingImpulse) {
  const auto cases = oracle_cases("frictional.body.plastic_sticking_impulse");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    const auto& x = c["expected"];
    const auto r = plastic_sticking_impulse(b.A, b.v_minus, b.mu);
    expect_vec(id + " impulse", r.impulse, x["impulse"], tol);
    expect_vec(id + " qdot_plus", b.qdot_plus(r.impulse), x["qdot_plus"], tol);
    EXPECT_TRUE(oracle_near(id + " dT", r.dT, x["dT"], tol));
    EXPECT_EQ(r.inside_friction_cone, x["inside_friction_cone"].get<bool>()) << id;
  }
}

TEST(FrictionalOracles, NewtonEnergyParadox) {
  const auto cases = oracle_cases("frictional.body.newton_energy_paradox");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    const auto& x = c["expected"];
    const auto rn = routh_impact({b.A, b.v_minus}, b.e, b.mu, RouthTermination::Newton);
    const auto rp = routh_impact({b.A, b.v_minus}, b.e, b.mu, RouthTermination::Poisson);
    const auto rs = routh_impact({b.A, b.v_minus}, b.e, b.mu, RouthTermination::Stronge);
    EXPECT_TRUE(oracle_near(id + " dT_newton", rn.dT, x["dT_newton"], tol));
    EXPECT_TRUE(oracle_near(id + " dT_poisson", rp.dT, x["dT_poisson"], tol));
    EXPECT_TRUE(oracle_near(id + " dT_stronge", rs.dT, x["dT_stronge"], tol));
    EXPECT_GT(rn.dT, 0.0) << "Routh-Newton must reproduce the energy gain";
    const auto modes = x["phases_newton"].get<std::vector<std::string>>();
    ASSERT_EQ(rn.phases.size(), modes.size());
    for (size_t i = 0; i < modes.size(); ++i) EXPECT_EQ(to_string(rn.phases[i].mode), modes[i]);
    EXPECT_TRUE(oracle_near(id + " T_minus", b.kinetic_energy(b.qdot_minus), x["T_minus"], tol));
  }
}

// lcp.impact.single_contact_e0 ([LB] (2.17)-(2.18), one contact, completely inelastic).
// Chatterjee-Ruina with e = e_t = 0 is that LCP's solution: the candidate is P_s (stick) and its
// projection lies on the c-line v_n+ = 0 and on the cone edge (slip). Routh's process with e = 0
// stops at the c-line (FORMULAS.md 9): the same impulse unless the slip stops or reverses during
// compression; then the instantaneous LCP (which only looks at the post-impact state) and the
// process differ (in body_F2 the LCP sticks, Routh reverses the slip before the c-line). Which
// cases stop their slip is derived from each case, not named: along the initial slip ray
// P = (-s mu, 1) P_n the tangential velocity reaches 0 before the normal one iff
// 0 <= P_n(v_t = 0) < P_n(v_n = 0) (FORMULAS.md 9).
bool slip_stops_before_c_line(const Eigen::Matrix2d& A, const Eigen::Vector2d& v_minus, double mu) {
  if (v_minus[0] == 0.0) return true;  // no slip to begin with
  const double s = v_minus[0] > 0.0 ? 1.0 : -1.0;
  const Eigen::Vector2d rate = A * Eigen::Vector2d(-s * mu, 1.0);  // dv/dP_n while slipping
  const double pn_stop = -v_minus[0] / rate[0], pn_c_line = -v_minus[1] / rate[1];
  return rate[0] != 0.0 && pn_stop >= 0.0 && pn_stop < pn_c_line;
}

TEST(FrictionalOracles, InelasticSingleContact) {
  const auto cases = oracle_cases("lcp.impact.single_contact_e0");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const BodyCase b(c["parameters"]);
    ASSERT_EQ(c["expected"]["n_solutions"].get<int>(), 1) << id;
    const auto& sol = c["expected"]["solutions"][0];
    const auto cr = chatterjee_ruina_impact({b.A, b.v_minus}, 0.0, 0.0, b.mu);
    expect_vec(id + " impulse (CR e = e_t = 0)", cr.impulse, sol["impulse"], tol);
    expect_vec(id + " qdot_plus (CR)", b.qdot_plus(cr.impulse), sol["qdot_plus"], tol);
    const double vt = cr.v_plus[0];
    const std::string mode = std::abs(vt) <= 1e-12 ? "stick" : (vt > 0 ? "slip+" : "slip-");
    EXPECT_EQ(mode, sol["mode"].get<std::string>()) << id;
    EXPECT_NEAR(cr.v_plus[1], 0.0, 1e-13) << id;

    bool reversal_or_stick = false;
    const auto r = routh_impact({b.A, b.v_minus}, 0.0, b.mu, RouthTermination::Poisson);
    ASSERT_TRUE(r.resolved()) << id << ": " << r.message;
    for (const auto& ph : r.phases) reversal_or_stick |= ph.end == PhaseEnd::StickOrReverse;
    EXPECT_EQ(r.phases.back().end, PhaseEnd::Terminate);
    for (auto term : {RouthTermination::Newton, RouthTermination::Stronge}) {
      const auto other = routh_impact({b.A, b.v_minus}, 0.0, b.mu, term);
      EXPECT_NEAR((other.impulse - r.impulse).norm(), 0.0, 1e-15) << id;
    }
    EXPECT_EQ(reversal_or_stick, slip_stops_before_c_line(b.A, b.v_minus, b.mu)) << id;
    if (!reversal_or_stick) {
      expect_vec(id + " impulse (Routh e = 0)", r.impulse, sol["impulse"], tol);
      EXPECT_EQ(to_string(r.phases.back().mode), sol["mode"].get<std::string>()) << id;
    } else if (to_string(r.phases.back().mode) != sol["mode"].get<std::string>()) {
      // The process ends in another mode than the LCP's post-impact solution: another impulse.
      EXPECT_GT((r.impulse - cr.impulse).norm(),
                tol.abs + tol.rel * cr.impulse.norm() + 1e-12 * cr.impulse.norm())
          << id << ": slip stopped/reversed before the c-line";
    }
  }
}

TEST(FrictionalOracles, ParticleNaiveLaw) {
  const auto cases = oracle_cases("frictional.particle.naive_law");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const auto& p = c["parameters"];
    const double m = p["m"];
    const PlanarImpactInput in{Eigen::Matrix2d::Identity() / m,
                               Eigen::Vector2d(p["v_minus_t"], p["v_minus_n"])};
    const auto r = naive_impact(in, p["e"], p["mu"]);
    const auto& x = c["expected"];
    expect_vec(id + " impulse", r.impulse, x["impulse_t_n"], tol);
    expect_vec(id + " v_plus", r.v_plus, x["v_plus_t_n"], tol);
    EXPECT_TRUE(oracle_near(id + " dT", r.dT, x["dT"], tol));
    EXPECT_EQ(r.dT > 0.0, x["energy_created"].get<bool>()) << id;
    // FORMULAS.md 6.3 closed form 2 m V^2 mu (mu - eps) for e = 1.
    const double V = -in.v_minus[1], eps = in.v_minus[0] / V, mu = p["mu"];
    EXPECT_TRUE(oracle_near(id + " 2mV^2mu(mu-eps)", 2 * m * V * V * mu * (mu - eps),
                            x["dT_formula_2mV2mu(mu-eps)"], tol));
  }
}

TEST(FrictionalOracles, ParticleChatterjeeRuina) {
  const auto cases = oracle_cases("frictional.particle.chatterjee_ruina");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const auto& p = c["parameters"];
    const double m = p["m"];
    const auto v = p["v_minus"].get<std::vector<double>>();
    const auto r = chatterjee_ruina_impact({Eigen::Matrix2d::Identity() / m, {v[0], v[1]}}, p["e"],
                                           p["e_t"], p["mu"]);
    const auto& x = c["expected"];
    expect_vec(id + " impulse", r.impulse, x["impulse"], tol);
    expect_vec(id + " v_plus", r.v_plus, x["v_plus"], tol);
    EXPECT_TRUE(oracle_near(id + " dT", r.dT, x["dT"], tol));
    EXPECT_EQ(r.projected_onto_cone, x["projected_onto_cone"].get<bool>()) << id;
    EXPECT_TRUE(oracle_near(id + " kappa", r.kappa, x["kappa"], tol));
  }
}

// The particle's impulse process (FORMULAS.md 6.4) is Routh's process with A = I/m; Newton,
// Poisson and Stronge coincide there.
TEST(FrictionalOracles, ParticleImpulseProcess) {
  const auto cases = oracle_cases("frictional.particle.impulse_process");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const auto& p = c["parameters"];
    const double m = p["m"];
    const auto v = p["v_minus"].get<std::vector<double>>();
    const auto& x = c["expected"];
    for (auto term :
         {RouthTermination::Newton, RouthTermination::Poisson, RouthTermination::Stronge}) {
      const auto r =
          routh_impact({Eigen::Matrix2d::Identity() / m, {v[0], v[1]}}, p["e"], p["mu"], term);
      ASSERT_TRUE(r.resolved()) << r.message;
      expect_vec(id + " impulse (" + to_string(term) + ")", r.impulse, x["impulse"], tol);
      expect_vec(id + " v_plus", r.v_plus, x["v_plus"], tol);
      bool sticks = false;
      double pn_stick = kNaN;
      for (const auto& ph : r.phases) {
        if (ph.end == PhaseEnd::StickOrReverse) {
          sticks = true;
          pn_stick = ph.P_n_end;
        }
      }
      EXPECT_EQ(sticks, x["sticks_before_end"].get<bool>()) << id;
      if (sticks) {
        EXPECT_TRUE(oracle_near(id + " Pn_at_stick", pn_stick, x["Pn_at_stick"], tol));
      }
    }
  }
}

TEST(RigidOracles, BouncingRodImpactMap) {
  const auto cases = oracle_cases("rigid.frictionless_impact_map.bouncing_rod");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string id = c["id"];
    const auto tol = oracle_tolerance(c);
    const auto& p = c["parameters"];
    const double m = p["m"], I_c = p["I_c"], l = p["ell"], e = p["e"];
    const double th = double(p["theta_c_deg"]) * M_PI / 180.0;
    Eigen::Matrix3d M;  // FORMULAS.md 4.2
    M << m, 0, -m * l * std::sin(th), 0, m, m * l * std::cos(th), -m * l * std::sin(th),
        m * l * std::cos(th), I_c + m * l * l;
    const Eigen::Vector3d w_N(0, 1, 0);
    const auto qd = p["qdot_minus"].get<std::vector<double>>();
    const Eigen::Vector3d qdot(qd[0], qd[1], qd[2]);
    const auto r = newton_impact(M, w_N, qdot, e);
    const auto& x = c["expected"];
    EXPECT_TRUE(oracle_near(id + " W M^-1 W^T", r.delassus, x["W_Minv_WT"], tol));
    EXPECT_TRUE(oracle_near(id + " impulse", r.impulse, x["impulse"], tol));
    expect_vec(id + " qdot_plus", r.qdot_plus, x["qdot_plus"], tol);
    const auto P = x["P"].get<std::vector<std::vector<double>>>();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) EXPECT_TRUE(oracle_near(id + " P", r.map(i, j), P[i][j], tol));
    }
    EXPECT_TRUE(oracle_near(id + " T-", r.kinetic_energy_minus, x["kinetic_energy_minus"], tol));
    EXPECT_TRUE(oracle_near(id + " T+", r.kinetic_energy_plus, x["kinetic_energy_plus"], tol));
    const double vc_minus = qdot[0] - l * qdot[2] * std::sin(th);
    const double vc_plus = r.qdot_plus[0] - l * r.qdot_plus[2] * std::sin(th);
    EXPECT_TRUE(oracle_near(id + " vx_G-", vc_minus, x["com_horizontal_velocity_minus"], tol));
    EXPECT_TRUE(oracle_near(id + " vx_G+", vc_plus, x["com_horizontal_velocity_plus"], tol));
    const auto elastic = newton_impact(M, w_N, qdot, 1.0);
    expect_vec(id + " theorem 3", elastic.qdot_plus, x["theorem3_elastic_qdot_plus"], tol);
    // Energy loss (FORMULAS.md 4.1).
    const double gdot = w_N.dot(qdot);
    EXPECT_NEAR(r.kinetic_energy_minus - r.kinetic_energy_plus,
                (1 - e * e) * gdot * gdot / (2 * r.delassus), 1e-13);
  }
}

// ---------------------------------------------------------------- documented properties

// Diagonal A (contact below the centre of mass): Routh-Newton, -Poisson and -Stronge coincide.
TEST(RouthProcess, DiagonalCollisionMatrixTerminationsCoincide) {
  const Eigen::Matrix2d A = rigid_body_collision_matrix(2.0, 0.4, 0.0, -1.0);
  for (double vt : {-3.0, -0.5, 0.0, 0.2, 4.0}) {
    const PlanarImpactInput in{A, {vt, -1.3}};
    const auto n = routh_impact(in, 0.7, 0.25, RouthTermination::Newton);
    const auto p = routh_impact(in, 0.7, 0.25, RouthTermination::Poisson);
    const auto s = routh_impact(in, 0.7, 0.25, RouthTermination::Stronge);
    EXPECT_NEAR((n.impulse - p.impulse).norm(), 0.0, 1e-14) << vt;
    EXPECT_NEAR((n.impulse - s.impulse).norm(), 0.0, 1e-14) << vt;
  }
}

// A stick phase that cannot hold (|A_tn| > mu A_tt) restarts slipping with s = sign(A_tn).
TEST(RouthProcess, SlipReversal) {
  const Eigen::Matrix2d A =
      rigid_body_collision_matrix(1.0, 1.0 / 3.0, -std::sqrt(0.5), -std::sqrt(0.5));
  const auto r = routh_impact({A, {0.3, -1.0}}, 0.5, 0.1, RouthTermination::Poisson);
  ASSERT_TRUE(r.resolved());
  bool reversed = false;
  for (size_t i = 1; i < r.phases.size(); ++i) {
    reversed |= r.phases[i - 1].mode == SlipMode::SlipPositive &&
                r.phases[i].mode == SlipMode::SlipNegative;
  }
  EXPECT_TRUE(reversed);
  EXPECT_LT(r.v_plus[0], 0.0);
}

// dv_n/dP_n <= 0 while approaching: reported as a jam, not an exception (FORMULAS.md 9, 11).
// With a positive definite A the process always ends (routh_painleve_landing_test.cpp); an
// indefinite A (not a collision matrix) whose slip never stops while v_n keeps decreasing is the
// one way it cannot, and the message says why.
TEST(RouthProcess, JamIsReportedWithItsProof) {
  Eigen::Matrix2d A;
  A << 1.0, 2.0, 2.0, 1.0;  // slip s = +1, mu = 1: dv_t/dP_n = 1 > 0, dv_n/dP_n = -1
  const auto r = routh_impact({A, {1.0, -1.0}}, 0.5, 1.0, RouthTermination::Poisson);
  EXPECT_EQ(r.status, ImpactStatus::Jam);
  EXPECT_NE(r.message.find("dv_n/dP_n"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("never stops"), std::string::npos) << r.message;
}

TEST(ImpactLaw, DispatchMatchesDirectCalls) {
  const Eigen::Matrix2d A = rigid_body_collision_matrix(1.0, 1.0 / 3.0, -0.5, -0.8660254037844386);
  const PlanarImpactInput in{A, {3.0, -1.0}};
  for (ImpactLawKind kind : all_impact_laws()) {
    ContactImpactLaw law{kind, 0.9, 0.0, 0.3};
    const auto r = solve_planar_impact(in, law);
    EXPECT_TRUE(r.resolved()) << to_string(kind);
    EXPECT_NEAR(r.dT, impact_energy_change(A, in.v_minus, r.impulse), 1e-14);
    if (kind == ImpactLawKind::NewtonFrictionless) {
      EXPECT_EQ(r.impulse[0], 0.0);
      EXPECT_NEAR(r.v_plus[1], 0.9, 1e-14);
    }
  }
}

// ---------------------------------------------------------------- bad input

TEST(ImpactLawBadInput, CoefficientsOutOfRange) {
  const PlanarImpactInput in{Eigen::Matrix2d::Identity(), {0.0, -1.0}};
  auto expect_error = [&](ContactImpactLaw law, const std::string& needle) {
    try {
      solve_planar_impact(in, law, "body 'disk', contact 'rim'");
      ADD_FAILURE() << "no error for " << needle;
    } catch (const Error& err) {
      const std::string msg = err.what();
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
      EXPECT_NE(msg.find("contact 'rim'"), std::string::npos) << msg;
    }
  };
  expect_error({ImpactLawKind::RouthPoisson, -0.1, 0.0, 0.3}, "e = -0.1");
  expect_error({ImpactLawKind::RouthPoisson, 1.5, 0.0, 0.3}, "e = 1.5");
  expect_error({ImpactLawKind::ChatterjeeRuina, 0.5, 1.2, 0.3}, "e_t = 1.2");
  expect_error({ImpactLawKind::ChatterjeeRuina, 0.5, -1.5, 0.3}, "e_t = -1.5");
  expect_error({ImpactLawKind::Naive, 0.5, 0.0, -0.2}, "mu = -0.2");
}

TEST(ImpactLawBadInput, CollisionMatrixAndMassMatrix) {
  Eigen::Matrix2d A;
  A << 1.0, 2.0, 2.0, 1.0;  // indefinite
  EXPECT_THROW(solve_planar_impact({A, {0.0, -1.0}}, {}), Error);
  Eigen::Matrix3d M = Eigen::Vector3d(1.0, 1.0, -0.2).asDiagonal();
  try {
    newton_impact(M, Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, -1, 0), 0.5, "body 'rod'");
    ADD_FAILURE();
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("smallest eigenvalue -0.2"), std::string::npos)
        << err.what();
  }
  M = Eigen::Matrix3d::Identity();
  try {
    newton_impact(M, Eigen::Vector3d::Zero(), Eigen::Vector3d(0, -1, 0), 0.5, "contact 'tip'");
    ADD_FAILURE();
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("gap gradient"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace saltus::mech
