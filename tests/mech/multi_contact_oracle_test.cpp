// The lcp.* and painleve.* oracle cases that describe a simulable situation, run through the
// compiled LagrangianModel (initial_mode picks the index sets by the contact-force LCP, the mode's
// flow gives the forces, the impact reset applies the impact LCP, the simulator runs on):
//   lcp.contact_forces.box_two_corners(_stick): box on both bottom corners, sliding or pushed;
//   lcp.impact.box_two_corners_e0: both corners in one impact set (the impact reset itself);
//   painleve.rod.contact_lcp: rod with BOTH ends as contacts, the lower one closed and sliding;
//   painleve.box.critical_mu: box sliding on two corners just below / above the critical mu.
// Expectations and tolerances come from each case (rel, abs of the oracle file); values the
// simulator computes through a different linear system are compared at max(rel, 1e-12).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "lagrangian_test_models.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/planar_rigid_body.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_tolerance;

// Planar body q = (x_G, y_G, theta), M = diag(m, m, m rho2), h = (push, -m g, 0); corners
// "c1", "c2", ... at body offsets (r_t, r_n) on the floor y = 0 with Coulomb mu.
LagrangianModel corner_body(double m, double rho2, double g, double push,
                            const std::vector<std::array<double, 2>>& corners, double mu) {
  LagrangianModel model("oracle_body", 3);
  model.set_mass_matrix([m, rho2](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
    M(2, 2) = m * rho2;
  });
  model.set_forces([m, g, push](const auto&, const auto&, const auto&, auto& h) {
    h[0] = push;
    h[1] = -m * g;
  });
  int k = 0;
  for (const auto& [r_t, r_n] : corners) {
    add_ground_point_contact(model, std::string("c").append(std::to_string(++k)), "body", r_t, r_n,
                             ContactImpactLaw{ImpactLawKind::RouthPoisson, 0.0, 0.0, mu});
  }
  return model;
}

bool near(double got, double want, const saltus::testing::OracleTolerance& tol) {
  return std::abs(got - want) <= std::max(tol.abs, std::max(tol.rel, 1e-12) * std::abs(want));
}

const std::string& name_of(const LagrangianModel::Compiled& c, ModeId id) {
  return c.system.modes()[static_cast<size_t>(id)].name;
}

TEST(MultiContactOracle, BoxTwoCornersContactForcesThroughTheModel) {
  for (const auto& oc : oracle_cases("lcp.contact_forces.box_two_corners")) {
    SCOPED_TRACE(oc.at("id").get<std::string>());
    const auto& p = oc.at("parameters");
    const auto tol = oracle_tolerance(oc);
    const double a = p.at("half_width_a"), b = p.at("half_height_b"), m = p.at("m");
    const auto h = p.at("h").get<std::vector<double>>();
    const auto qd = p.at("qdot").get<std::vector<double>>();
    ASSERT_EQ(h[2], 0.0);
    const auto model =
        corner_body(m, p.at("rho2"), -h[1] / m, h[0], {{-a, -b}, {a, -b}}, p.at("mu"));
    const auto c = model.compile();
    Vector x0(6);
    x0 << 0.0, b, 0.0, qd[0], qd[1], qd[2];
    const ModeId mode = c.initial_mode(0.0, x0);
    const auto& want = oc.at("expected").at("solutions").at(0);
    ASSERT_EQ(oc.at("expected").at("n_solutions").get<int>(), 1);
    const auto modes = want.at("modes").get<std::vector<std::string>>();
    const auto lN = want.at("lambda_N").get<std::vector<double>>();
    const auto lT = want.at("lambda_T").get<std::vector<double>>();
    const auto qdd = want.at("qddot").get<std::vector<double>>();
    const ContactDynamics d =
        model.dynamics(c.modes[static_cast<size_t>(mode)], 0.0, x0.head(3), x0.tail(3));
    std::vector<double> got_N(2, 0.0), got_T(2, 0.0);
    if (c.modes[static_cast<size_t>(mode)].kind == ClosedKind::IndexSets) {
      for (int i = 0; i < 2; ++i) got_N[i] = d.lambda_N_each[i], got_T[i] = d.lambda_T_each[i];
    } else {
      const int i = c.modes[static_cast<size_t>(mode)].closed_contact;
      got_N[i] = d.lambda_N;
      got_T[i] = d.lambda_T;
    }
    std::string want_name;
    for (int i = 0; i < 2; ++i) {
      if (modes[i].rfind("closed/", 0) != 0) continue;
      const std::string state = modes[i].substr(7) == "slide+"   ? "slip+"
                                : modes[i].substr(7) == "slide-" ? "slip-"
                                                                 : "stick";
      want_name += (want_name.empty() ? "" : "&") + state + ":c" + std::to_string(i + 1);
    }
    EXPECT_EQ(name_of(c, mode), want_name);
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(near(got_N[i], lN[i], tol)) << i << ": " << got_N[i] << " vs " << lN[i];
      EXPECT_TRUE(near(got_T[i], lT[i], tol)) << i << ": " << got_T[i] << " vs " << lT[i];
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(near(d.qddot[k], qdd[k], tol)) << k << ": " << d.qddot[k] << " vs " << qdd[k];
    }
    // The run goes on from there: over 0.01 s (before any event when both corners slide) the
    // motion is uniformly decelerated; a single closed corner rotates the box (not polynomial:
    // only that it runs).
    const double t1 = 0.01;
    const SimulationResult r = simulate(c.system, mode, 0.0, x0, t1, testing::tight_options());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    if (c.modes[static_cast<size_t>(mode)].kind == ClosedKind::IndexSets) {
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.x_final[k], x0[k] + x0[3 + k] * t1 + 0.5 * qdd[k] * t1 * t1, 1e-12);
      }
    }
  }
}

TEST(MultiContactOracle, BoxPushedAtRestStaysWithUniqueNormalForces) {
  for (const auto& oc : oracle_cases("lcp.contact_forces.box_two_corners_stick")) {
    SCOPED_TRACE(oc.at("id").get<std::string>());
    const auto& p = oc.at("parameters");
    const auto tol = oracle_tolerance(oc);
    const double a = p.at("half_width_a"), b = p.at("half_height_b"), m = p.at("m");
    const double rho2 = (a * a + b * b) / 3.0;  // not in the case; the forces do not depend on it
    const auto h = p.at("h").get<std::vector<double>>();
    const auto model = corner_body(m, rho2, -h[1] / m, h[0], {{-a, -b}, {a, -b}}, p.at("mu"));
    const auto c = model.compile();
    Vector x0 = Vector::Zero(6);
    x0[1] = b;
    const ModeId mode = c.initial_mode(0.0, x0);
    EXPECT_EQ(name_of(c, mode), "stick:c1&stick:c2");
    const ContactDynamics d =
        model.dynamics(c.modes[static_cast<size_t>(mode)], 0.0, x0.head(3), x0.tail(3));
    const auto lN = oc.at("expected").at("lambda_N").get<std::vector<double>>();
    EXPECT_TRUE(near(d.lambda_N_each[0], lN[0], tol)) << d.lambda_N_each[0];
    EXPECT_TRUE(near(d.lambda_N_each[1], lN[1], tol)) << d.lambda_N_each[1];
    EXPECT_TRUE(near(d.lambda_T_each[0] + d.lambda_T_each[1],
                     oc.at("expected").at("sum_lambda_T").get<double>(), tol));
    ASSERT_TRUE(oc.at("expected").at("stays_at_rest").get<bool>());
    const SimulationResult r = simulate(c.system, mode, 0.0, x0, 1.0, testing::tight_options());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    EXPECT_EQ(r.events.size(), 0);
    EXPECT_LE((r.x_final - x0).lpNorm<Eigen::Infinity>(), 1e-12);
  }
}

// The mode the simulator continues in after an impact with post-impact gap rates gN_plus and
// tangential rates gT_plus (the oracle's, per corner c1, c2): a corner whose gap rate is zero
// (within the case's tolerance) stays closed, sliding in the sign of its gT_plus (slip+ / slip-)
// or sticking when gT_plus is zero; one that separates is not in the name; none closed: "free".
std::string mode_after_impact(const std::vector<double>& gN, const std::vector<double>& gT,
                              const saltus::testing::OracleTolerance& tol) {
  const auto zero = [&tol](double v) { return std::abs(v) <= tol.abs; };
  std::string name;
  for (size_t i = 0; i < gN.size(); ++i) {
    if (!zero(gN[i])) continue;
    const std::string state = zero(gT[i]) ? "stick" : gT[i] > 0.0 ? "slip+" : "slip-";
    name += (name.empty() ? "" : "&") + state + ":c" + std::to_string(i + 1);
  }
  return name.empty() ? "free" : name;
}

// Both corners touching with qdot-: the impact reset of "impact:c1" in mode free (what the
// simulator applies when the guard fires) forms I_S = {c1, c2} and solves the impact LCP. Each
// case is also run mirrored in x (x -> -x, theta -> -theta: c1 and c2 swap, so "impact:c2"
// fires, and every tangential rate changes sign), so both slip directions are checked whatever
// the file holds; the expected mode is derived from the (mirrored) case's own gN_plus, gT_plus.
TEST(MultiContactOracle, BoxTwoCornerImpactThroughTheReset) {
  for (const auto& oc : oracle_cases("lcp.impact.box_two_corners_e0")) {
    const auto& p = oc.at("parameters");
    const auto tol = oracle_tolerance(oc);
    const double a = p.at("half_width_a"), b = p.at("half_height_b");
    const auto model =
        corner_body(p.at("m"), p.at("rho2"), 9.81, 0.0, {{-a, -b}, {a, -b}}, p.at("mu"));
    const auto c = model.compile();
    ASSERT_EQ(oc.at("expected").at("n_solutions").get<int>(), 1);
    const auto& want = oc.at("expected").at("solutions").at(0);
    const Mode& free = c.system.modes()[static_cast<size_t>(c.free)];
    for (const bool mirrored : {false, true}) {
      SCOPED_TRACE(oc.at("id").get<std::string>() + (mirrored ? " mirrored" : ""));
      // The guard that fires: c1's, whose mirror image is c2.
      const size_t fired = mirrored ? 1 : 0;
      const Guard* guard = nullptr;
      for (const Guard& g : free.guards) {
        if (g.name == "impact:c" + std::to_string(fired + 1)) guard = &g;
      }
      ASSERT_NE(guard, nullptr);
      const double s = mirrored ? -1.0 : 1.0;  // x and theta change sign
      const auto swap = [mirrored](std::vector<double> v) {
        if (mirrored) std::reverse(v.begin(), v.end());  // corner i is the mirror of 3 - i
        return v;
      };
      auto qd = p.at("qdot_minus").get<std::vector<double>>();
      auto qdp = want.at("qdot_plus").get<std::vector<double>>();
      ASSERT_EQ(qd.size(), 3u);
      ASSERT_EQ(qdp.size(), 3u);
      for (auto* v : {&qd, &qdp}) (*v)[0] *= s, (*v)[2] *= s;
      const auto lN = swap(want.at("Lambda_N").get<std::vector<double>>());
      const auto gN = swap(want.at("gN_plus").get<std::vector<double>>());
      auto gT = swap(want.at("gT_plus").get<std::vector<double>>());
      for (double& v : gT) v *= s;
      ASSERT_EQ(lN.size(), 2u);
      ASSERT_EQ(gN.size(), 2u);
      ASSERT_EQ(gT.size(), 2u);
      Vector x(6), xp = Vector::Zero(6), outputs = Vector::Zero(3);
      x << 0.0, b, 0.0, qd[0], qd[1], qd[2];
      std::string failure;
      const std::vector<int> nx(c.system.modes().size(), 6);
      Jump jump{c.free, xp, outputs, failure, nx.data()};
      ASSERT_TRUE(guard->reset.apply(0.0, x, Vector(), jump)) << failure;
      for (int k = 0; k < 3; ++k) {
        EXPECT_TRUE(near(xp[3 + k], qdp[k], tol)) << k << ": " << xp[3 + k] << " vs " << qdp[k];
      }
      // The reset's impulse_n output: the fired contact's normal impulse.
      EXPECT_TRUE(near(outputs[1], lN[fired], tol)) << outputs[1] << " vs " << lN[fired];
      EXPECT_EQ(name_of(c, jump.target), mode_after_impact(gN, gT, tol))
          << "gN_plus " << gN[0] << ", " << gN[1] << "; gT_plus " << gT[0] << ", " << gT[1];
    }
  }
}

// Rod of painleve.rod.contact_lcp with both ends as contacts: end A (closed) sliding with s, end
// B in the air. unique -> A's slip mode with the oracle's lambda_N (or free when lambda_N = 0);
// none / several -> initial_mode refuses with a message naming inconsistent / indeterminate, B,
// b and the critical mu.
TEST(MultiContactOracle, PainleveRodWithBothEndsAsContacts) {
  for (const auto& oc : oracle_cases("painleve.rod.contact_lcp")) {
    SCOPED_TRACE(oc.at("id").get<std::string>());
    const auto& p = oc.at("parameters");
    const auto tol = oracle_tolerance(oc);
    const double m = p.at("m"), l = p.at("l"), J = p.at("J"), g = p.at("g");
    const double th = p.at("theta_deg").get<double>() * M_PI / 180.0, om = p.at("thetadot");
    const double s = p.at("slip_direction_s");
    const auto model = corner_body(m, J / m, g, 0.0, {{-l, 0.0}, {l, 0.0}}, p.at("mu"));
    const auto c = model.compile();
    // A = G - l (cos th, sin th) on the floor, A's velocity (s, 0).
    Vector x0(6);
    x0 << 0.0, l * std::sin(th), th, s - l * std::sin(th) * om, l * std::cos(th) * om, om;
    ASSERT_NEAR(model.gap(0, x0.head(3)), 0.0, 1e-15);
    ASSERT_NEAR(model.gap_gradient(0, x0.head(3)).dot(x0.tail(3)), 0.0, 1e-14);
    const auto& e = oc.at("expected");
    const std::string cls = e.at("classification");
    const auto solutions = e.at("lambda_N_solutions").get<std::vector<double>>();
    EXPECT_TRUE(near(model.sliding_coefficient(0, x0.head(3), x0.tail(3), s), e.at("B"), tol));
    if (cls == "unique") {
      const ModeId mode = c.initial_mode(0.0, x0);
      if (solutions[0] == 0.0) {
        EXPECT_EQ(mode, c.free);
      } else {
        EXPECT_EQ(mode, s > 0 ? c.slip_positive[0] : c.slip_negative[0]);
        const ContactDynamics d =
            model.dynamics(c.modes[static_cast<size_t>(mode)], 0.0, x0.head(3), x0.tail(3));
        EXPECT_TRUE(near(d.lambda_N, solutions[0], tol)) << d.lambda_N;
      }
      const SimulationResult r = simulate(c.system, mode, 0.0, x0, 1e-3, testing::tight_options());
      EXPECT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
      continue;
    }
    try {
      c.initial_mode(0.0, x0);
      ADD_FAILURE() << "no error";
    } catch (const Error& err) {
      const std::string msg = err.what();
      const bool none = cls.rfind("none", 0) == 0;
      EXPECT_NE(msg.find(none ? "inconsistent" : "indeterminate"), std::string::npos) << msg;
      EXPECT_NE(msg.find("critical mu"), std::string::npos) << msg;
      EXPECT_NE(msg.find("'c1'"), std::string::npos) << msg;
      if (!none) {  // the second solution's value is in the message
        char value[64];
        std::snprintf(value, sizeof value, "%g", solutions.back());
        EXPECT_NE(msg.find(std::string(value).substr(0, 5)), std::string::npos) << msg;
      }
    }
  }
}

// The box of painleve.box.critical_mu sliding forward on both bottom corners from rest
// vertically (b = -g < 0): mu_c > a / b in these cases, so the trailing corner lifts and the
// leading corner carries the box alone; below mu_c it slides (B > 0), above it no contact force
// exists (verdict none: inconsistent) and the run cannot start. mu_c (1 -/+ 1e-4): closer, the
// normal force -b / B grows as 1 / (mu_c - mu) and the LCP's rate tolerance (1e-9 of its scale)
// no longer separates closed from open.
TEST(MultiContactOracle, PainleveBoxOnTwoCornersAroundTheCriticalMu) {
  for (const auto& oc : oracle_cases("painleve.box.critical_mu")) {
    SCOPED_TRACE(oc.at("id").get<std::string>());
    const auto& p = oc.at("parameters");
    const double a = p.at("half_width_a"), b = p.at("half_height_b"), rho2 = p.at("rho2");
    const double mu_c = oc.at("expected").at("mu_critical");
    ASSERT_GT(mu_c * b / a, 1.0);
    Vector x0(6);
    x0 << 0.0, b, 0.0, 1.0, 0.0, 0.0;
    for (const double factor : {1.0 - 1e-4, 1.0 + 1e-4}) {
      const auto model = corner_body(1.0, rho2, 9.81, 0.0, {{-a, -b}, {a, -b}}, mu_c * factor);
      const auto c = model.compile();
      if (factor < 1.0) {
        EXPECT_EQ(c.initial_mode(0.0, x0), c.slip_positive[1]);
        continue;
      }
      try {
        c.initial_mode(0.0, x0);
        ADD_FAILURE() << "no error above the critical mu";
      } catch (const Error& err) {
        const std::string msg = err.what();
        EXPECT_NE(msg.find("inconsistent"), std::string::npos) << msg;
        EXPECT_NE(msg.find("'c2'"), std::string::npos) << msg;
      }
    }
  }
}

}  // namespace
}  // namespace saltus::mech
