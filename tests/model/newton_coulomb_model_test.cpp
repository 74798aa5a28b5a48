// The Newton-Coulomb law in simulations (issue 32 item 1): a contact under it gets the same
// impact whether it is hit alone or with others, and the impact over several contacts agrees with
// the law solved by its cases (tests/support/newton_coulomb_cases.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "mech/multi_contact_impact.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/model_files.hpp"
#include "support/newton_coulomb_cases.hpp"

namespace saltus::model {
namespace {

using saltus::testing::num;

// Discs of radius r on a floor, each with its own rough contact: disc i has x_i, y_i, th_i, and
// its contact point slips at x_i' + r th_i'.
// Where the model is written: lengths in units of L metres, times in units of T seconds, x
// translated by x0 metres, the run started at t0 (in the model's time unit).
struct Frame {
  double L = 1.0, T = 1.0, x0 = 0.0, t0 = 0.0;
};

std::string discs_model(int count, double e, double e_t, double mu, const double* x_dot,
                        const double* spin, const Frame& f = {}) {
  std::string coords, T = "0", V = "0", contacts;
  const double v = f.T / f.L;  // a velocity in m/s, in the model's units
  for (int i = 1; i <= count; ++i) {
    const std::string s = std::to_string(i);
    coords += "x" + s + " = { initial = " + num((3.0 * i + f.x0) / f.L) +
              ", velocity = " + num(x_dot[i - 1] * v) + " }\ny" + s +
              " = { initial = " + num(0.3 / f.L) + ", velocity = " + num(-1.0 * v) + " }\nth" + s +
              " = { initial = 0.0, velocity = " + num(spin[i - 1] * f.T) + " }\n";
    T += " + 0.5*m*(x" + s + "'^2 + y" + s + "'^2) + 0.5*J*th" + s + "'^2";
    V += " + m*g*y" + s;
    contacts += "[[contacts]]\nname = \"floor" + s + "\"\ngap = \"y" + s + " - r\"\ntangent = \"x" +
                s + " + r*th" + s + "\"\nlaw = \"newton_coulomb\"\ne = " + num(e) +
                "\ne_t = " + num(e_t) + "\nmu = " + num(mu) + "\n";
  }
  return "[model]\nname = \"discs\"\n[parameters]\nm = 1.3\nr = " + num(0.2 / f.L) +
         "\nJ = " + num(0.02 / (f.L * f.L)) + "\ng = " + num(9.81 * f.T * f.T / f.L) +
         "\n[coordinates]\n" + coords + "[mechanics]\nkinetic_energy = \"" + T +
         "\"\npotential_energy = \"" + V + "\"\n" + contacts + "[initial]\nt = " + num(f.t0) +
         "\n[solver]\nt_end = " + num(f.t0 + 0.15 / f.T) +
         "\nrtol = 1e-12\natol = " + num(1e-14 / f.L) + "\n";
}

ModelRun run_text(const std::string& text) {
  return run_model(std::make_shared<const Model>(load_model_text(text, "discs.toml")));
}

// Two discs dropped from the same height land at the same instant: one simultaneous impact over
// both contacts. Each disc leaves with the velocities it gets when it lands alone (the law does
// not depend on the company), to round-off; random spins, slides and coefficients give sticking
// and sliding outcomes.
TEST(NewtonCoulombModel, AContactHitWithOthersGetsTheImpactItGetsAlone) {
  std::mt19937 rng(3203);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int simultaneous = 0;
  for (int k = 0; k < 20; ++k) {
    const double e = unit(rng), e_t = unit(rng) < 0.5 ? 0.0 : unit(rng), mu = 0.1 + unit(rng);
    const double x_dot[2] = {-2.0 + 4.0 * unit(rng), -2.0 + 4.0 * unit(rng)};
    const double spin[2] = {-10.0 + 20.0 * unit(rng), -10.0 + 20.0 * unit(rng)};
    SCOPED_TRACE("case " + std::to_string(k) + ": e = " + num(e) + ", e_t = " + num(e_t) +
                 ", mu = " + num(mu));
    const ModelRun both = run_text(discs_model(2, e, e_t, mu, x_dot, spin));
    const ModelRun alone = run_text(discs_model(1, e, e_t, mu, x_dot, spin));
    ASSERT_TRUE(both.succeeded()) << both.message();
    ASSERT_TRUE(alone.succeeded()) << alone.message();
    const EventLog& eb = both.result.events;
    const EventLog& ea = alone.result.events;
    ASSERT_GE(eb.size(), 1);
    ASSERT_GE(ea.size(), 1);
    // The first event of the pair is the simultaneous impact (one jump, both discs change).
    const auto before = eb.x_before(0), after = eb.x_after(0);
    const auto alone_after = ea.x_after(0);
    ASSERT_NE(after[10], before[10]) << "disc 2's y' changed at the same jump";
    ++simultaneous;
    EXPECT_NEAR(eb[0].t, ea[0].t, 1e-15);
    for (int i : {0, 1, 2}) {  // disc 1's velocities x1', y1', th1'
      EXPECT_NEAR(after[6 + i], alone_after[3 + i], 1e-13 * (1.0 + std::abs(alone_after[3 + i])))
          << "velocity " << i;
    }
    EXPECT_NEAR(eb.outputs(0)[0], ea.outputs(0)[0], 1e-13);  // disc 1's impulse_t
    EXPECT_NEAR(eb.outputs(0)[1], ea.outputs(0)[1], 1e-13);  // disc 1's impulse_n
  }
  EXPECT_EQ(simultaneous, 20);
}

// A rod lying flat on both ends, hit with a random motion: the simultaneous impact over its two
// rough contacts is the one motion the law's cases allow, or a status when they allow several.
TEST(NewtonCoulombModel, FlatRodImpactOverTwoContactsAgreesWithTheLawsCases) {
  const double ell = 0.5, m = 1.0, I_c = m * 4 * ell * ell / 12;
  const std::string text =
      "[model]\nname = \"rod\"\n[parameters]\nm = 1\nell = 0.5\nI_c = \"m*(2*ell)^2/12\"\n"
      "e = 0.5\ne_t = 0.2\nmu = 0.4\n[coordinates]\nx = { initial = 0 }\ny = { initial = 0 }\n"
      "theta = { initial = 0 }\n[mechanics]\nkinetic_energy = \"0.5*m*((x' - "
      "ell*sin(theta)*theta')^2 + (y' + ell*cos(theta)*theta')^2) + 0.5*I_c*theta'^2\"\n"
      "potential_energy = \"0\"\n"
      "[[contacts]]\nname = \"tip\"\ngap = \"y\"\ntangent = \"x\"\nlaw = \"newton_coulomb\"\n"
      "e = \"e\"\ne_t = \"e_t\"\nmu = \"mu\"\n"
      "[[contacts]]\nname = \"end\"\ngap = \"y + 2*ell*sin(theta)\"\n"
      "tangent = \"x + 2*ell*cos(theta)\"\nlaw = \"newton_coulomb\"\ne = \"e\"\ne_t = \"e_t\"\n"
      "mu = \"mu\"\n[solver]\nt_end = 1\n";
  const auto model = std::make_shared<const Model>(load_model_text(text, "rod.toml"));
  const mech::LagrangianModel rod = lagrangian_model(model);
  // Independent of the code under test: M and the contact gradients at theta = 0.
  Matrix M(3, 3);
  M << m, 0, 0, 0, m, m * ell, 0, m * ell, m * ell * ell + I_c;
  Matrix W_N(3, 2), W_T(3, 2);
  W_N << 0, 0, 1, 1, 0, 2 * ell;
  W_T << 1, 1, 0, 0, 0, 0;
  std::mt19937 rng(3204);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int compared = 0;
  for (int k = 0; k < 300; ++k) {
    const Eigen::Vector3d q(0.0, 0.0, 0.0);
    const Eigen::Vector3d qdot(-2 + 4 * unit(rng), -(0.1 + unit(rng)), -3 + 6 * unit(rng));
    const Vector gn = W_N.transpose() * qdot;
    if (!(gn[0] < 0.0 && gn[1] < 0.0)) continue;  // both approaching: no contact is dropped
    const auto cases = saltus::testing::newton_coulomb_by_cases(M, W_N, W_T, qdot, {0.5, 0.5},
                                                                {0.2, 0.2}, {0.4, 0.4});
    const auto imp = mech::detail::resolve_simultaneous_impact(rod, {0, 1}, 0.0, q, qdot);
    SCOPED_TRACE("qdot- = (" + num(qdot[0]) + ", " + num(qdot[1]) + ", " + num(qdot[2]) + ")");
    if (!cases.unique()) {
      EXPECT_FALSE(imp.resolved());
      continue;
    }
    ASSERT_TRUE(imp.resolved()) << imp.message;
    ASSERT_EQ(imp.contacts.size(), 2u);
    ++compared;
    EXPECT_LT((imp.qdot_plus - cases.motions[0]).norm(), 1e-12 * qdot.norm());
    // Both tangents are along x, so only the sum of the tangential impulses is determined.
    EXPECT_NEAR(imp.impulse_T.sum(), cases.impulses[0][2] + cases.impulses[0][3],
                1e-12 * qdot.norm());
  }
  EXPECT_GT(compared, 100);
}

// The pair of discs written in other units, translated to x = 1e6 m, started at t0 = 1e9: the
// same simultaneous impact at the same instant (to the resolution of t0 + tau), the same
// velocities and impulses once converted (1e-12 relative), the same number of events.
TEST(NewtonCoulombModel, TheSameImpactsInOtherUnitsTranslatedAndStartedLater) {
  const double x_dot[2] = {1.7, -0.4}, spin[2] = {-6.0, 2.5};
  const ModelRun si = run_text(discs_model(2, 0.6, 0.3, 0.5, x_dot, spin));
  ASSERT_TRUE(si.succeeded()) << si.message();
  ASSERT_GE(si.result.events.size(), 1);
  for (const Frame& f :
       {Frame{1e-3, 1.0, 0.0, 0.0}, Frame{1.0, 1e-3, 0.0, 0.0}, Frame{1.0, 1.0, 1e6, 0.0},
        Frame{1.0, 1.0, 0.0, 1e9}, Frame{0.0254, 0.37, 1e6, 1e5}}) {
    SCOPED_TRACE("L = " + num(f.L) + ", T = " + num(f.T) + ", x0 = " + num(f.x0) +
                 ", t0 = " + num(f.t0));
    const ModelRun other = run_text(discs_model(2, 0.6, 0.3, 0.5, x_dot, spin, f));
    ASSERT_TRUE(other.succeeded()) << other.message();
    const EventLog& a = si.result.events;
    const EventLog& b = other.result.events;
    ASSERT_EQ(a.size(), b.size());
    for (long i = 0; i < a.size(); ++i) {
      const double t_ulp = 4.0 * std::abs(f.t0) * 2.2e-16;
      EXPECT_NEAR((b[i].t - f.t0) * f.T, a[i].t, 1e-12 * a[i].t + t_ulp * f.T) << i;
      const auto va = a.x_after(i), vb = b.x_after(i);
      const double v = f.T / f.L;
      for (int d : {0, 1}) {  // disc d's x', y', th'
        for (int c : {0, 1}) {
          EXPECT_NEAR(vb[6 + 3 * d + c] / v, va[6 + 3 * d + c], 1e-12 * (1.0 + std::abs(va[6])));
        }
        EXPECT_NEAR(vb[8 + 3 * d] / f.T, va[8 + 3 * d], 1e-12 * (1.0 + std::abs(va[8 + 3 * d])));
      }
      if (a.outputs(i).size() == 3) {  // impulses in kg L / T
        for (int c : {0, 1}) {
          EXPECT_NEAR(b.outputs(i)[c] * f.L / f.T, a.outputs(i)[c],
                      1e-12 * (1.0 + std::abs(a.outputs(i)[1])));
        }
      }
    }
  }
}

// Bad coefficients are errors at the contact's line naming the contact, the law and the value.
// With e_t != e the law can gain energy (Kane's example; newton_coulomb_law.hpp), where the
// tangential impulse turns the body: a box landing flat on two corners below its centre. Where
// every case of the law gains energy, the simultaneous-impact path must not take one (issue 34:
// it returned such impulses) but say so, naming both contacts; elsewhere it takes the law's
// unique answer. Cases and M independent of the code under test.
TEST(NewtonCoulombModel, ASimultaneousImpactThatCanOnlyGainEnergyIsAStatus) {
  const double a = 0.2, b = 0.6, m = 1.0, I_c = m * (a * a + b * b) / 3.0;
  const std::string text =
      "[model]\nname = \"box\"\n[parameters]\nm = 1\na = 0.2\nb = 0.6\nI_c = \"m*(a^2 + "
      "b^2)/3\"\ne = 0.1\ne_t = 0.9\nmu = 2\n[coordinates]\nx = { initial = 0 }\n"
      "y = { initial = 0.6 }\ntheta = { initial = 0 }\n[mechanics]\nkinetic_energy = "
      "\"0.5*m*(x'^2 + y'^2) + 0.5*I_c*theta'^2\"\npotential_energy = \"0\"\n"
      "[[contacts]]\nname = \"left\"\ngap = \"y - b*cos(theta) - a*sin(theta)\"\n"
      "tangent = \"x - a*cos(theta) + b*sin(theta)\"\nlaw = \"newton_coulomb\"\ne = \"e\"\n"
      "e_t = \"e_t\"\nmu = \"mu\"\n"
      "[[contacts]]\nname = \"right\"\ngap = \"y - b*cos(theta) + a*sin(theta)\"\n"
      "tangent = \"x + a*cos(theta) + b*sin(theta)\"\nlaw = \"newton_coulomb\"\ne = \"e\"\n"
      "e_t = \"e_t\"\nmu = \"mu\"\n[solver]\nt_end = 1\n";
  Matrix M = Matrix::Zero(3, 3);
  M.diagonal() << m, m, I_c;
  Matrix W_N(3, 2), W_T(3, 2);
  W_N << 0, 0, 1, 1, -a, a;
  W_T << 1, 1, 0, 0, b, b;
  std::mt19937 rng(3405);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int gaining = 0, resolved = 0;
  for (int draw = 0; draw < 30; ++draw) {
    const double e = unit(rng), e_t = unit(rng), mu = 0.2 + 5.0 * unit(rng);
    const auto model = std::make_shared<const Model>(
        load_model_text(text, "box.toml", {"e=" + num(e), "e_t=" + num(e_t), "mu=" + num(mu)}));
    const mech::LagrangianModel box = lagrangian_model(model);
    for (int k = 0; k < 20; ++k) {
      const Eigen::Vector3d q(0.0, b, 0.0);
      const Eigen::Vector3d qdot(-3 + 6 * unit(rng), -(0.1 + unit(rng)), -3 + 6 * unit(rng));
      const Vector gn = W_N.transpose() * qdot;
      if (!(gn[0] < 0.0 && gn[1] < 0.0)) continue;  // both approaching
      const auto cases =
          saltus::testing::newton_coulomb_by_cases(M, W_N, W_T, qdot, {e, e}, {e_t, e_t}, {mu, mu});
      if (!cases.unique()) continue;
      SCOPED_TRACE("e = " + num(e) + ", e_t = " + num(e_t) + ", mu = " + num(mu) + ", qdot- = (" +
                   num(qdot[0]) + ", " + num(qdot[1]) + ", " + num(qdot[2]) + ")");
      const Vector& plus = cases.motions[0];
      const double T_minus = 0.5 * qdot.dot(M * qdot), T_plus = 0.5 * plus.dot(M * plus);
      const auto imp = mech::detail::resolve_simultaneous_impact(box, {0, 1}, 0.0, q, qdot);
      if (T_plus > T_minus * (1.0 + 1e-9)) {
        ++gaining;
        EXPECT_FALSE(imp.resolved());
        EXPECT_NE(imp.message.find("the only impulses found gain kinetic energy"),
                  std::string::npos)
            << imp.message;
        EXPECT_NE(imp.message.find("left"), std::string::npos) << imp.message;
        EXPECT_NE(imp.message.find("right"), std::string::npos) << imp.message;
      } else if (T_plus < T_minus * (1.0 - 1e-9)) {
        ++resolved;
        ASSERT_TRUE(imp.resolved()) << imp.message;
        EXPECT_LT((imp.qdot_plus - plus).norm(), 1e-10 * qdot.norm());
      }
    }
  }
  EXPECT_GT(gaining, 0) << "no landing of the sample gains energy under the law";
  EXPECT_GT(resolved, 20);
  RecordProperty("gaining", gaining);
  std::printf("newton_coulomb box landings: %d gain energy (status), %d resolved\n", gaining,
              resolved);
}

// Super-elastic contacts (superelastic = true, e > 1 allowed): two discs hit together get the
// impact each gets alone, e up to 1.8; and the box landings whose only answer gains energy (the
// test above) are taken when the model says its contacts are super-elastic, with the law's cases'
// motion.
TEST(NewtonCoulombModel, SuperelasticContactsTakeTheLawsAnswerAloneOrTogether) {
  const auto superelastic = [](std::string text) {
    const std::string law = "law = \"newton_coulomb\"\n";
    for (size_t at = text.find(law); at != std::string::npos; at = text.find(law, at + 1)) {
      text.insert(at + law.size(), "superelastic = true\n");
    }
    return text;
  };
  std::mt19937 rng(3208);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int gained = 0;
  for (int k = 0; k < 10; ++k) {
    const double e = 1.0 + 0.8 * unit(rng), e_t = unit(rng) < 0.5 ? 0.0 : unit(rng);
    const double mu = 0.1 + unit(rng);
    const double x_dot[2] = {-2.0 + 4.0 * unit(rng), -2.0 + 4.0 * unit(rng)};
    const double spin[2] = {-10.0 + 20.0 * unit(rng), -10.0 + 20.0 * unit(rng)};
    SCOPED_TRACE("case " + std::to_string(k) + ": e = " + num(e) + ", e_t = " + num(e_t) +
                 ", mu = " + num(mu));
    const ModelRun both = run_text(superelastic(discs_model(2, e, e_t, mu, x_dot, spin)));
    const ModelRun alone = run_text(superelastic(discs_model(1, e, e_t, mu, x_dot, spin)));
    ASSERT_TRUE(both.succeeded()) << both.message();
    ASSERT_TRUE(alone.succeeded()) << alone.message();
    const EventLog& eb = both.result.events;
    const EventLog& ea = alone.result.events;
    ASSERT_GE(eb.size(), 1);
    ASSERT_GE(ea.size(), 1);
    EXPECT_NEAR(eb[0].t, ea[0].t, 1e-15);
    const auto after = eb.x_after(0), alone_after = ea.x_after(0);
    for (int i : {0, 1, 2}) {
      EXPECT_NEAR(after[6 + i], alone_after[3 + i], 1e-13 * (1.0 + std::abs(alone_after[3 + i])));
    }
    EXPECT_NEAR(after[7], -e * eb.x_before(0)[7], 1e-12);  // y1'+ = -e y1'-
    if (ea.outputs(0)[2] > 0.0) ++gained;
  }
  EXPECT_GT(gained, 0);
}

TEST(NewtonCoulombModel, CoefficientsOutOfRangeAreErrorsNamingTheContact) {
  const double x_dot[1] = {0.0}, spin[1] = {0.0};
  struct Bad {
    double e, e_t, mu;
    const char* says;
  };
  for (const Bad& b : {Bad{-0.1, 0.0, 0.3, "e = -0.1"}, Bad{1.5, 0.0, 0.3, "e = 1.5"},
                       Bad{0.5, -0.2, 0.3, "e_t = -0.2"}, Bad{0.5, 0.0, -1.0, "mu = -1"}}) {
    try {
      load_model_text(discs_model(1, b.e, b.e_t, b.mu, x_dot, spin), "discs.toml");
      ADD_FAILURE() << "accepted " << b.says;
    } catch (const ModelError& err) {
      const std::string what = err.what();
      EXPECT_NE(what.find("discs.toml:"), std::string::npos) << what;
      EXPECT_NE(what.find("contact 'floor1'"), std::string::npos) << what;
      EXPECT_NE(what.find("newton_coulomb"), std::string::npos) << what;
      EXPECT_NE(what.find(b.says), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace saltus::model
