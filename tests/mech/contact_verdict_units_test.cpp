// The verdict of a contact problem must not depend on the units (issue 34): the same box on two
// corners, written with lengths in units of 1/L metres, masses of 1/Mu kilograms and times of
// 1/T seconds, must give the same verdict, the same solutions with the same contact modes, and
// forces, impulses and motions that are the SI ones times their unit factors. Every tolerance of
// the verdict (ContactSolveOptions) is a fraction of the problem's own scales; before, rates and
// motions were compared with 1e-9 (1 + |x|_inf), which fixed a unit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "saltus/mech/contact_force_problem.hpp"
#include "saltus/mech/impact_problem.hpp"
#include "saltus/mech/planar_contact.hpp"

namespace saltus::mech {
namespace {

struct Units {
  double L = 1.0, Mu = 1.0, T = 1.0;  // a length l m is l L units, and so on
};

struct Box {
  double m, rho2, a, b, mu;
  Eigen::Vector3d qdot;  // (x', y', theta')
  Eigen::Vector3d h;     // (F_x, F_y, torque)
};

// The box's two bottom corners on the floor, in units u.
PlanarContacts corners(const Box& box, const Units& u, const Eigen::Vector3d& qdot) {
  return rigid_body_ground_contacts(
      {Eigen::Vector2d(-box.a * u.L, -box.b * u.L), Eigen::Vector2d(box.a * u.L, -box.b * u.L)},
      qdot, Vector::Constant(2, box.mu));
}
Eigen::Vector3d velocity_in(const Eigen::Vector3d& v, const Units& u) {
  return {v[0] * u.L / u.T, v[1] * u.L / u.T, v[2] / u.T};
}

ContactOutcome forces_in(const Box& box, const Units& u) {
  ContactForceProblem p;
  p.mass = rigid_body_mass_matrix(box.m * u.Mu, box.rho2 * u.L * u.L);
  const double force = u.Mu * u.L / (u.T * u.T), torque = force * u.L;
  p.h = Eigen::Vector3d(box.h[0] * force, box.h[1] * force, box.h[2] * torque);
  p.contacts = corners(box, u, velocity_in(box.qdot, u));
  p.sets = compute_index_sets(p.contacts);
  return solve_contact_forces(p);
}

ContactOutcome impact_in(const Box& box, const Units& u) {
  ImpactProblem p;
  p.mass = rigid_body_mass_matrix(box.m * u.Mu, box.rho2 * u.L * u.L);
  p.qdot_minus = velocity_in(box.qdot, u);
  p.contacts = corners(box, u, velocity_in(box.qdot, u));
  p.sets = compute_index_sets(p.contacts);
  return solve_impact(p);
}

// Outcome b (units u) is outcome a (SI): the same verdict and solutions, the contacts' forces
// scaled by `force` and the motions by (L, L, 1) times `rate` (1/T^2 or 1/T).
void expect_same(const ContactOutcome& a, const ContactOutcome& b, const Units& u, double force,
                 double rate) {
  ASSERT_EQ(b.verdict, a.verdict) << a.message << "\n" << b.message;
  ASSERT_EQ(b.solutions.size(), a.solutions.size()) << a.message << "\n" << b.message;
  EXPECT_EQ(b.motions, a.motions);
  EXPECT_EQ(b.motion_continuum, a.motion_continuum);
  for (size_t s = 0; s < a.solutions.size(); ++s) {
    const ContactSolution &sa = a.solutions[s], &sb = b.solutions[s];
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(to_string(sb.modes[static_cast<size_t>(i)], a.kind),
                to_string(sa.modes[static_cast<size_t>(i)], a.kind));
      const double scale = sa.lambda_N.cwiseAbs().maxCoeff() + sa.lambda_T.cwiseAbs().maxCoeff();
      EXPECT_NEAR(sb.lambda_N(i) / force, sa.lambda_N(i), 1e-9 * scale);
      EXPECT_NEAR(sb.lambda_T(i) / force, sa.lambda_T(i), 1e-9 * scale);
    }
    const Eigen::Vector3d back(sb.motion(0) / (u.L * rate), sb.motion(1) / (u.L * rate),
                               sb.motion(2) / rate);
    EXPECT_LE((back - sa.motion).norm(), 1e-9 * (1.0 + sa.motion.norm()));
  }
}

// Seeded random boxes resting, sliding (Painleve's box for large mu: no solution or several) and
// landing flat, each in three random unit systems.
TEST(ContactVerdictUnits, RandomBoxesGetTheSameVerdictInAnyUnits) {
  std::mt19937_64 rng(34034);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto log_uniform = [&](double lo, double hi) {
    return std::exp(std::log(lo) + u01(rng) * (std::log(hi) - std::log(lo)));
  };
  int verdicts[4] = {0, 0, 0, 0};  // unique, several, none, other
  for (int k = 0; k < 300; ++k) {
    Box box;
    box.m = log_uniform(0.1, 10.0);
    box.a = log_uniform(0.05, 1.0);
    box.b = log_uniform(0.05, 1.0);
    box.rho2 = (box.a * box.a + box.b * box.b) / 3.0;
    box.mu = log_uniform(0.05, 3.0);
    const int kind = k % 3;  // resting, sliding, landing
    const double v = (u01(rng) < 0.5 ? -1.0 : 1.0) * log_uniform(0.01, 3.0);
    box.qdot = kind == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(v, 0.0, 0.0);
    if (kind == 2) box.qdot[1] = -log_uniform(0.01, 3.0);
    box.h = Eigen::Vector3d(box.m * 9.81 * (u01(rng) - 0.5), -box.m * 9.81,
                            box.m * 9.81 * box.a * (u01(rng) - 0.5));
    const ContactOutcome si = kind == 2 ? impact_in(box, Units{}) : forces_in(box, Units{});
    verdicts[si.verdict == Verdict::Unique    ? 0
             : si.verdict == Verdict::Several ? 1
             : si.verdict == Verdict::None    ? 2
                                              : 3] += 1;
    for (int j = 0; j < 3; ++j) {
      const Units u{log_uniform(1e-3, 1e3), log_uniform(1e-3, 1e3), log_uniform(1e-2, 1e2)};
      SCOPED_TRACE(testing::Message()
                   << "box " << k << " (kind " << kind << ", mu " << box.mu << ") in units L "
                   << u.L << ", Mu " << u.Mu << ", T " << u.T);
      if (kind == 2) {
        expect_same(si, impact_in(box, u), u, u.Mu * u.L / u.T, 1.0 / u.T);
      } else {
        expect_same(si, forces_in(box, u), u, u.Mu * u.L / (u.T * u.T), 1.0 / (u.T * u.T));
      }
    }
  }
  // The cases reach the verdicts that carry the decisions: unique and Painleve's two.
  EXPECT_GE(verdicts[0], 100);
  EXPECT_GE(verdicts[1] + verdicts[2], 5);
  std::printf("contact verdict in other units: unique %d, several %d, none %d, other %d\n",
              verdicts[0], verdicts[1], verdicts[2], verdicts[3]);
}

}  // namespace
}  // namespace saltus::mech
