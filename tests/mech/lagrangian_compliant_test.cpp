// Compliant contacts of a LagrangianModel (add_compliant_contact), run THROUGH compile() and the
// simulator: a point particle dropped on each compliant law reproduces the compliant.* oracle
// values (contact duration, maximum penetration and its time, exit speed / restitution, force
// and penetration at release; FORMULAS.md 3, seed 000 (5.1)-(5.12)), a rod with a compliant tip
// keeps its horizontal centre-of-mass velocity and, with a linear spring, its total energy, and
// its stiff-spring bounce tends to the rigid impact map P(q, 1) at the rate k^-1/2.
//
// Tolerances: the oracle's flow-derived class (rel 1e-7, abs 1e-9) at Dop853 rtol 1e-12 (as
// analysis::analyze_compliant_impact); invariants to 1e-9 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "lagrangian_test_models.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/mech/compliant_closed_forms.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/oracles.hpp"

namespace saltus::mech {
namespace {

using saltus::testing::oracle_cases;
using saltus::testing::oracle_near;
using saltus::testing::oracle_tolerance;
using saltus::testing::OracleTolerance;

constexpr double kPi = 3.141592653589793238462643383279502884;

// A point mass above the ground y = 0 with one compliant contact, no gravity (a pure impact).
LagrangianModel compliant_particle(double m, const CompliantContactLaw& law) {
  LagrangianModel p("compliant_particle", 2);
  p.set_mass_matrix([m](const auto&, auto& M) {
    M(0, 0) = m;
    M(1, 1) = m;
  });
  p.set_forces([](const auto&, const auto&, const auto&, auto&) {});
  p.add_compliant_contact(
      "ground", "particle", [](const auto& q) { return q[1]; }, law);
  return p;
}

double contact_time_scale(const CompliantContactLaw& law, double m, double v0) {
  const double n = law.kind == CompliantLawKind::HuntCrossley ? law.n : 1.0;
  return compliant_contact_time_scale(m, law.k, n, v0);
}

// One impact measured from the event log: contact from "touch:ground" to "release:ground", the
// deepest point by an observer (ydot rising through 0) added to the active mode.
struct MeasuredImpact {
  double duration = kNaN, t_max = kNaN, delta_max = kNaN, exit_velocity = kNaN;
  double delta_at_release = kNaN, force_at_release = kNaN;
  SimulationSummary summary;
};

MeasuredImpact drop(const CompliantContactLaw& law, double m, double v0) {
  const LagrangianModel particle = compliant_particle(m, law);
  auto c = particle.compile();
  const ModeId active = c.find({-1, ClosedKind::None, 1u});
  EXPECT_EQ(c.system.mode(active).name, "free|ground");
  c.system.add_guard(active,
                     make_observer("deepest", Direction::Rising,
                                   [](const auto&, const auto& x, const auto&) { return x[3]; }));
  const double t_scale = contact_time_scale(law, m, v0), t_lead = 0.02 * t_scale;
  SimulationOptions o = testing::tight_options();
  o.stepper.atol = 1e-3 * o.stepper.rtol * v0 * t_scale;
  Vector x0(4);
  x0 << 0.0, v0 * t_lead, 0.0, -v0;
  const SimulationResult r = simulate(c.system, c.free, 0.0, x0, t_lead + 10.0 * t_scale, o);
  MeasuredImpact out;
  out.summary = r.summary;
  double t_touch = kNaN;
  for (long i = 0; i < r.events.size(); ++i) {
    const EventRecord& ev = r.events[i];
    const std::string& name = c.system.mode(ev.mode_before).guards[ev.guard].name;
    const Vector x = r.events.x_before(i);
    if (name == "touch:ground" && std::isnan(t_touch)) {
      t_touch = ev.t;
      EXPECT_NEAR(ev.t, t_lead, 1e-12 * t_scale);
    } else if (name == "deepest" && std::isnan(out.t_max)) {
      out.t_max = ev.t - t_touch;
      out.delta_max = -x[1];
    } else if (name == "release:ground" && std::isnan(out.duration)) {
      out.duration = ev.t - t_touch;
      out.exit_velocity = x[3];
      out.delta_at_release = -x[1];
      out.force_at_release = particle.compliant_force(0, x.head(2), x.tail(2));
    }
  }
  return out;
}

TEST(LagrangianCompliant, LinearSpringOracles) {
  for (const auto& oc : oracle_cases("compliant.linear_spring")) {
    const std::string id = oc["id"];
    const double m = oc["parameters"]["m"], k = oc["parameters"]["k"], v0 = oc["parameters"]["v0"];
    const auto& x = oc["expected"];
    const OracleTolerance flow{1e-7, 1e-9};
    const MeasuredImpact r = drop(CompliantContactLaw::linear_spring(k), m, v0);
    ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;
    EXPECT_TRUE(oracle_near(id + " duration", r.duration, x["contact_duration"], flow));
    EXPECT_TRUE(oracle_near(id + " delta_max", r.delta_max, x["delta_max"], flow));
    EXPECT_TRUE(oracle_near(id + " f_max", k * r.delta_max, x["f_max"], flow));
    EXPECT_TRUE(oracle_near(id + " exit", r.exit_velocity, x["exit_velocity"], flow));
    EXPECT_TRUE(oracle_near(id + " impulse", m * (r.exit_velocity + v0), x["impulse"], flow));
  }
}

TEST(LagrangianCompliant, KelvinVoigtGapReleaseOracles) {
  for (const auto& oc : oracle_cases("compliant.kelvin_voigt.kinematic_release")) {
    const std::string id = oc["id"];
    const auto& p = oc["parameters"];
    const double m = p["m"], k = p["k"], c = p["c"], v0 = p["v0"];
    const auto& x = oc["expected"];
    const auto tol = oracle_tolerance(oc);
    const MeasuredImpact r =
        drop(CompliantContactLaw::kelvin_voigt(k, c, ReleaseCondition::GapReturnsToZero), m, v0);
    EXPECT_TRUE(oracle_near(id + " e", r.exit_velocity / v0, x["e"], tol));
    EXPECT_TRUE(oracle_near(id + " duration", r.duration, x["contact_duration"], tol));
    EXPECT_TRUE(oracle_near(id + " t_max", r.t_max, x["t_max_penetration"], tol));
    EXPECT_TRUE(oracle_near(id + " delta_max", r.delta_max, x["delta_max"], tol));
    EXPECT_TRUE(oracle_near(id + " f/m at release", r.force_at_release / m,
                            x["force_per_mass_at_release"], tol));
    EXPECT_LT(r.force_at_release, 0.0);  // tensile at a kinematic release
  }
}

TEST(LagrangianCompliant, KelvinVoigtForceReleaseOracles) {
  for (const auto& oc : oracle_cases("compliant.kelvin_voigt.force_release")) {
    const std::string id = oc["id"];
    const auto& p = oc["parameters"];
    const double m = p["m"], k = p["k"], c = p["c"], v0 = p["v0"];
    const auto& x = oc["expected"];
    const auto tol = oracle_tolerance(oc);
    const MeasuredImpact r =
        drop(CompliantContactLaw::kelvin_voigt(k, c, ReleaseCondition::ForceReturnsToZero), m, v0);
    EXPECT_TRUE(oracle_near(id + " e", r.exit_velocity / v0, x["e"], tol));
    EXPECT_TRUE(oracle_near(id + " duration", r.duration, x["contact_duration"], tol));
    EXPECT_TRUE(oracle_near(id + " delta_r", r.delta_at_release, x["delta_at_release"], tol));
    EXPECT_NEAR(r.force_at_release, 0.0, 1e-9 * k * r.delta_max);
  }
}

TEST(LagrangianCompliant, HuntCrossleyOracles) {
  for (const auto& oc : oracle_cases("compliant.hunt_crossley")) {
    const std::string id = oc["id"];
    const auto& p = oc["parameters"];
    const double m = p["m"], k = p["k"], c = p["c"], n = p["n"], v0 = p["v0"];
    const auto& x = oc["expected"];
    const auto tol = oracle_tolerance(oc);
    const MeasuredImpact r = drop(CompliantContactLaw::hunt_crossley(k, c, n), m, v0);
    EXPECT_TRUE(oracle_near(id + " e", r.exit_velocity / v0, x["e"], tol));
    EXPECT_TRUE(oracle_near(id + " duration", r.duration, x["contact_duration"], tol));
    EXPECT_TRUE(oracle_near(id + " delta_max", r.delta_max, x["delta_max"], tol));
  }
  for (const auto& oc : oracle_cases("compliant.hunt_crossley.damping_design")) {
    const std::string id = oc["id"];
    const auto& p = oc["parameters"];
    const double m = p["m"], k = p["k"], n = p["n"], v0 = p["v0"];
    const auto& x = oc["expected"];
    const auto tol = oracle_tolerance(oc);
    const double c_hc = hunt_crossley_1975_damping(k, p["e_target"], v0);
    const MeasuredImpact r = drop(CompliantContactLaw::hunt_crossley(k, c_hc, n), m, v0);
    EXPECT_TRUE(oracle_near(id + " e with c_HC", r.exit_velocity / v0,
                            x["e_achieved_with_c_hunt_crossley"], tol));
  }
}

// Regression: the drop's horizon came from the linear-spring time pi sqrt(m/k), which is not a
// time for n != 1 (for n = 2.5 the run ended mid-contact and the duration read NaN). Exponents
// beyond the oracle's 3/2, m = 1, k = 1e6, c = 2e5, v0 = 1, against the separable integral
// delta^(n+1) = (n+1)(m/c)[(v0 - v) - (k/c) ln((k + c v0)/(k + c v))], T = int m dv /
// (delta^n (k + c v)) from -e v0 to v0, evaluated with mpmath (40 digits, tanh-sinh) outside
// saltus. hunt_crossley_contact_duration was 1.3e-6 off for n = 2.5 (0.0629573609: the
// quadrature recomputed v0 - v from v and lost it to round-off near the contact's ends).
TEST(LagrangianCompliant, HuntCrossleyDropHorizonHoldsForAnyExponent) {
  struct Reference {
    double n, duration, delta_max;
  };
  const double m = 1.0, k = 1e6, c = 2e5, v0 = 1.0, e = 0.88218998624730638;
  const OracleTolerance flow{1e-9, 1e-12};
  for (const Reference& ref : {Reference{1.0, 0.0031462225560110088, 0.00094017134624613438},
                               Reference{2.5, 0.062957444029890572, 0.021869731380688293}}) {
    SCOPED_TRACE(ref.n);
    const MeasuredImpact r = drop(CompliantContactLaw::hunt_crossley(k, c, ref.n), m, v0);
    ASSERT_EQ(r.summary.termination, Termination::EndTimeReached) << r.summary.message;
    EXPECT_TRUE(oracle_near("duration", r.duration, ref.duration, flow));
    EXPECT_TRUE(oracle_near("delta_max", r.delta_max, ref.delta_max, flow));
    EXPECT_TRUE(oracle_near("delta_max closed form", r.delta_max,
                            hunt_crossley_max_penetration(m, k, c, ref.n, v0), flow));
    EXPECT_TRUE(oracle_near("e", r.exit_velocity / v0, e, flow));
    EXPECT_NEAR(hunt_crossley_contact_duration(m, k, c, ref.n, v0), ref.duration,
                1e-11 * ref.duration);
  }
}

// Kelvin-Voigt with force release under gravity: after a release with residual penetration the
// contact restarts either where the gap closes again from above (light damping) or, if the
// particle falls back before leaving, where the force turns positive while still penetrating
// (heavy damping; touch guard p = min(-g_N, f)). Both end at rest on the contact at
// delta = m g / k, with no beating.
TEST(LagrangianCompliant, KelvinVoigtForceReleaseRestartsAndComesToRest) {
  const double m = 1.0, g = 9.81, k = 1e4;
  for (const double c : {60.0, 180.0}) {
    LagrangianModel p("kv_particle", 2);
    p.set_mass_matrix([m](const auto&, auto& M) {
      M(0, 0) = m;
      M(1, 1) = m;
    });
    p.set_forces([m, g](const auto&, const auto&, const auto&, auto& h) { h[1] = -m * g; });
    p.add_compliant_contact(
        "ground", "particle", [](const auto& q) { return q[1]; },
        CompliantContactLaw::kelvin_voigt(k, c, ReleaseCondition::ForceReturnsToZero));
    const auto cc = p.compile();
    Vector x0(4);
    x0 << 0.0, 0.2, 0.0, 0.0;
    const SimulationResult r = simulate(cc.system, cc.free, 0.0, x0, 3.0, testing::tight_options());
    ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
    ASSERT_GE(r.events.size(), 3);
    bool restarted_inside = false;
    for (long i = 0; i < r.events.size(); ++i) {
      const Vector x = r.events.x_before(i);
      const std::string& name =
          cc.system.mode(r.events[i].mode_before).guards[r.events[i].guard].name;
      const double f = p.compliant_force(0, x.head(2), x.tail(2));
      if (name == "release:ground") {
        EXPECT_NEAR(f, 0.0, 1e-9) << "c = " << c;
        EXPECT_LT(x[1], 0.0);  // residual penetration
      } else {
        ASSERT_EQ(name, "touch:ground");
        const bool at_surface = std::abs(x[1]) < 1e-12;
        restarted_inside |= !at_surface;
        EXPECT_TRUE(at_surface || std::abs(f) < 1e-9) << "c = " << c << " y = " << x[1];
      }
    }
    EXPECT_EQ(restarted_inside, c > 100.0);
    EXPECT_EQ(r.final_mode, cc.find({-1, ClosedKind::None, 1u}));
    EXPECT_NEAR(r.x_final[1], -m * g / k, 1e-10);
  }
}

// ---------------------------------------------------------------- rod with a compliant tip

// The bouncing rod of seed 000 with its tip on a compliant contact (gap y, force along
// w_N = (0, 1, 0)): no horizontal force acts, so xdot - ell thetadot sin theta is constant.
LagrangianModel compliant_rod(const BouncingRodParameters& p, const CompliantContactLaw& law) {
  LagrangianModel out("compliant_rod", 3);
  set_bouncing_rod_dynamics(out, p);
  out.add_compliant_contact(
      "tip", "rod", [](const auto& q) { return q[1]; }, law);
  return out;
}

double rod_energy(const LagrangianModel& rod, const BouncingRodParameters& p, double k,
                  const Vector& x) {
  const double y_G = x[1] + p.ell * std::sin(x[2]);
  const double delta = std::max(0.0, -x[1]);
  return rod.kinetic_energy(x.head(3), x.tail(3)) + p.m * p.g * y_G + 0.5 * k * delta * delta;
}

TEST(LagrangianCompliant, RodWithSpringTipKeepsEnergyAndHorizontalMomentum) {
  BouncingRodParameters p;
  const double k = 1e5;
  const LagrangianModel rod = compliant_rod(p, CompliantContactLaw::linear_spring(k));
  const auto c = rod.compile();
  Vector x0(6);
  x0 << 0.0, 0.3, 0.9, 0.4, 0.0, 1.5;
  const double E0 = rod_energy(rod, p, k, x0),
               vc0 = bouncing_rod_com_horizontal_velocity(p.ell, x0);
  SimulationOptions o = testing::tight_options();
  o.output.sample_times.clear();
  for (int i = 1; i <= 150; ++i) o.output.sample_times.push_back(0.01 * i);
  const SimulationResult r = simulate(c.system, c.initial_mode(0.0, x0), 0.0, x0, 1.5, o);
  ASSERT_EQ(r.termination(), Termination::EndTimeReached) << r.summary.message;
  int touches = 0;
  for (long i = 0; i < r.events.size(); ++i) {
    touches += c.system.mode(r.events[i].mode_before).guards[r.events[i].guard].name == "touch:tip";
  }
  EXPECT_GE(touches, 2);
  for (long i = 0; i < r.trajectory.size(); ++i) {
    const Vector x = r.trajectory.x(i);
    EXPECT_NEAR(rod_energy(rod, p, k, x), E0, 1e-9 * std::abs(E0)) << "t = " << r.trajectory.t(i);
    EXPECT_NEAR(bouncing_rod_com_horizontal_velocity(p.ell, x), vc0, 1e-11);
  }
}

// Stiff-spring limit: the velocities after the first compliant bounce tend to the rigid
// frictionless map qdot+ = P(q, 1) qdot- at the touch state, the error ~ contact time ~ k^-1/2.
TEST(LagrangianCompliant, StiffSpringTipTendsToRigidImpactMap) {
  BouncingRodParameters p;
  p.law.e = 1.0;
  const LagrangianModel rigid = bouncing_rod_model(p);
  Vector x0(6);
  x0 << 0.0, 0.2, 0.7, 0.3, -1.0, 2.0;
  double errors[2];
  const double ks[2] = {1e6, 1e8};
  for (int i = 0; i < 2; ++i) {
    const LagrangianModel rod = compliant_rod(p, CompliantContactLaw::linear_spring(ks[i]));
    const auto c = rod.compile();
    const SimulationResult r = simulate(c.system, c.free, 0.0, x0, 0.5, testing::tight_options());
    ASSERT_GE(r.events.size(), 2) << r.summary.message;
    const Vector touch = r.events.x_before(0), release = r.events.x_before(1);
    const ContactImpact imp = rigid.resolve_impact(0, touch.head(3), touch.tail(3));
    errors[i] = (release.tail(3) - imp.qdot_plus).norm() / touch.tail(3).norm();
  }
  EXPECT_LT(errors[1], 2e-3);
  EXPECT_NEAR(errors[0] / errors[1], 10.0, 2.0) << errors[0] << " " << errors[1];
}

// ---------------------------------------------------------------- modes and bad input

TEST(LagrangianCompliant, ModesForEverySubsetOfActiveCompliantContacts) {
  BouncingRodParameters p;
  p.law = {ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.3};
  LagrangianModel rod = bouncing_rod_model(p);
  const double l = p.ell;
  rod.add_compliant_contact(
      "top", "rod",
      [l](const auto& q) {
        using std::sin;
        return q[1] + 2.0 * l * sin(q[2]);
      },
      CompliantContactLaw::hunt_crossley(1e6, 1e4));
  rod.add_compliant_contact(
      "wall", "rod", [](const auto& q) { return 2.0 - q[0]; },
      CompliantContactLaw::linear_spring(1e5));
  const auto c = rod.compile();
  // 4 compliant subsets x (free, slip+, slip-, stick, post-zeno).
  EXPECT_EQ(c.system.mode_count(), 20);
  const ModeId id = c.find({0, ClosedKind::Stick, 3u});
  ASSERT_NE(id, kNoMode);
  EXPECT_EQ(c.system.mode(id).name, "stick:tip|top|wall");
  EXPECT_EQ(c.modes[id].compliant_mask, 3u);
  EXPECT_EQ(rod.compliant_contacts(), (std::vector<int>{1, 2}));
}

TEST(LagrangianCompliant, TooManyCompliantContactsNamed) {
  LagrangianModel m("many_feet", 1);
  for (int i = 0; i < kMaxCompliantContacts; ++i) {
    m.add_compliant_contact(
        "foot" + std::to_string(i), "walker", [](const auto& q) { return q[0]; },
        CompliantContactLaw::linear_spring(1e4));
  }
  try {
    m.add_compliant_contact(
        "foot6", "walker", [](const auto& q) { return q[0]; },
        CompliantContactLaw::linear_spring(1e4));
    ADD_FAILURE();
  } catch (const Error& err) {
    const std::string msg = err.what();
    EXPECT_NE(msg.find("model 'many_feet', body 'walker', contact 'foot6'"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("at most 6"), std::string::npos) << msg;
  }
  LagrangianModel bad("bad_spring", 1);
  bad.set_mass_matrix([](const auto&, auto& M) { M(0, 0) = 1.0; });
  bad.set_forces([](const auto&, const auto&, const auto&, auto&) {});
  bad.add_compliant_contact(
      "pad", "block", [](const auto& q) { return q[0]; }, CompliantContactLaw::linear_spring(-5.0));
  try {
    bad.compile();
    ADD_FAILURE();
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("contact 'pad'"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("k = -5"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace saltus::mech
