// The rigid limit of equal compliance (cone_contact_closure.hpp): the answer it takes for cone
// contact problems with dependent contacts. Frictionless, it is the least impulse (the
// pseudo-inverse's, computed here by a complete orthogonal decomposition); with friction, where
// the solver alone reports several answers, it is an answer of the rigid problem (every
// contact's conditions checked here), the same whatever the order of the contacts and in other
// units; with independent contacts it is the solver's own answer.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "cone_contact_test_support.hpp"
#include "saltus/mech/cone_contact_closure.hpp"

namespace saltus::mech {
namespace {

// A body (6 dof, diagonal mass) with k contacts on the plane z = -0.5 at random points, pressed
// by a random force: the problem of its contact forces, and its W and M^-1.
struct PlanarBody {
  Matrix W, M_inv;
  ConeContactProblem problem;
};

PlanarBody planar_body(std::mt19937& rng, int k, double mu_max) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.5, 2.0), friction(0.0, 1.0);
  Eigen::Matrix<double, 6, 1> mass;
  mass << Eigen::Vector3d::Constant(positive(rng)), positive(rng), positive(rng), positive(rng);
  std::vector<Eigen::Vector3d> rho, n;
  PlanarBody b;
  for (int i = 0; i < k; ++i) {
    rho.emplace_back(unit(rng), unit(rng), -0.5);
    n.push_back(Eigen::Vector3d::UnitZ());
    b.problem.contacts.push_back({ConeContactKind::Cone, mu_max * friction(rng)});
  }
  b.W = body_jacobian(rho, n);
  b.M_inv = mass.cwiseInverse().asDiagonal();
  Eigen::Matrix<double, 6, 1> f;
  for (int a = 0; a < 6; ++a) f[a] = unit(rng);
  f[2] -= 2.0;  // pressed onto its contacts
  b.problem.G = b.W.transpose() * b.M_inv * b.W;
  b.problem.b = b.W.transpose() * b.M_inv * f;
  return b;
}

// The same problem with its contacts in the order `order`: contact i is the original order[i].
ConeContactProblem reordered(const ConeContactProblem& p, const std::vector<int>& order) {
  const auto k = static_cast<Eigen::Index>(order.size());
  ConeContactProblem out;
  out.G.resize(3 * k, 3 * k);
  out.b.resize(3 * k);
  for (Eigen::Index i = 0; i < k; ++i) {
    out.contacts.push_back(p.contacts[static_cast<size_t>(order[i])]);
    out.b.segment<3>(3 * i) = p.b.segment<3>(3 * order[i]);
    for (Eigen::Index j = 0; j < k; ++j) {
      out.G.block<3, 3>(3 * i, 3 * j) = p.G.block<3, 3>(3 * order[i], 3 * order[j]);
    }
  }
  return out;
}

// Rows of a reordered problem's answer back in the original order.
Vector in_original_order(const Vector& v, const std::vector<int>& order) {
  Vector out(v.size());
  for (size_t i = 0; i < order.size(); ++i) {
    out.segment<3>(3 * order[i]) = v.segment<3>(3 * static_cast<Eigen::Index>(i));
  }
  return out;
}

// Frictionless contacts of a face (four dependent normals, rank 3): the least impulse -G^+ b,
// where every entry of it presses (20 such bodies).
TEST(ConeContactClosure, FrictionlessDependentContactsTakeTheLeastImpulse) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int trial = 0; trial < 200 && checked < 20; ++trial) {
    const PlanarBody body = planar_body(rng, 4, 0.0);
    ConeContactProblem normal;  // the normal rows only
    const std::vector<Eigen::Index> rows{0, 3, 6, 9};
    normal.contacts = std::vector<ConeContact>(4, ConeContact{ConeContactKind::Normal, 0.0});
    normal.G = body.problem.G(rows, rows);
    normal.b = body.problem.b(rows);
    const Eigen::CompleteOrthogonalDecomposition<Matrix> cod(normal.G);
    const Vector least = -cod.pseudoInverse() * normal.b;
    bool presses = true;
    for (int i = 0; i < 4; ++i) presses = presses && least[i] > 1e-3 * least.norm();
    if (!presses) continue;
    ++checked;
    const ConeContactResult res = solve_in_the_compliant_limit(normal);
    ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
    // The last compliance's own offset from the limit, about c / (G's least nonzero eigenvalue)
    // = 1e-8 s / 1e-3 s: measured up to 5e-6 of the impulse.
    EXPECT_LE((res.r - least).cwiseAbs().maxCoeff(), 1e-5 * least.cwiseAbs().maxCoeff())
        << trial << ": " << res.r.transpose() << " against " << least.transpose();
  }
  EXPECT_GE(checked, 20);
}

// With friction, bodies on 4 to 6 coplanar contacts where the solver alone finds answers that
// move the body differently: the closure's answer meets every contact's conditions, is the
// same (u to 1e-6 of its scale) with the contacts reversed and in units 1000 times larger (G
// and b scaled as impulses in other units scale them), and most of them are closed so.
TEST(ConeContactClosure, SeveralAnswersOfDependentContactsAreClosedCanonically) {
  std::mt19937 rng(4848);
  int several = 0, closed = 0;
  for (int trial = 0; trial < 400 && several < 30; ++trial) {
    const int k = 4 + trial % 3;
    const PlanarBody body = planar_body(rng, k, 1.0);
    const ConeContactResult plain = solve_cone_contact_problem(body.problem);
    if (plain.status != ConeContactStatus::Several) continue;
    ++several;
    const ConeContactResult res = solve_in_the_compliant_limit(body.problem);
    if (!res.solved()) {
      EXPECT_NE(res.message, "") << trial;
      continue;
    }
    ++closed;
    EXPECT_EQ(violated_conditions(body.problem, res.r, 1e-9), "") << trial << ": " << res.message;
    const double scale =
        std::max(body.problem.b.cwiseAbs().maxCoeff(), res.u.cwiseAbs().maxCoeff());
    // Reversed contacts.
    std::vector<int> order(static_cast<size_t>(k));
    std::iota(order.rbegin(), order.rend(), 0);
    const ConeContactResult back = solve_in_the_compliant_limit(reordered(body.problem, order));
    ASSERT_TRUE(back.solved()) << trial << ": " << back.message;
    EXPECT_LE((in_original_order(back.u, order) - res.u).cwiseAbs().maxCoeff(), 1e-6 * scale)
        << trial;
    // Other units: velocities 1000 times larger for the same impulses (a G and b of another
    // length unit).
    ConeContactProblem units = body.problem;
    units.G *= 1e3;
    units.b *= 1e3;
    const ConeContactResult big = solve_in_the_compliant_limit(units);
    ASSERT_TRUE(big.solved()) << trial << ": " << big.message;
    EXPECT_LE((big.u / 1e3 - res.u).cwiseAbs().maxCoeff(), 1e-6 * scale) << trial;
  }
  std::printf("[ closure ] %d problems with several answers, %d closed\n", several, closed);
  EXPECT_GE(several, 10);
  EXPECT_GE(closed, several * 9 / 10);
}

// Independent contacts (at most 3 on a plane, in general position): the closure's answer is the
// solver's.
TEST(ConeContactClosure, IndependentContactsKeepTheSolversAnswer) {
  std::mt19937 rng(11);
  int compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const PlanarBody body = planar_body(rng, 1 + trial % 3, 1.0);
    const ConeContactResult plain = solve_cone_contact_problem(body.problem);
    if (!plain.solved()) continue;
    const ConeContactResult res = solve_in_the_compliant_limit(body.problem);
    ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
    const double scale =
        std::max(body.problem.b.cwiseAbs().maxCoeff(), res.u.cwiseAbs().maxCoeff());
    EXPECT_LE((res.u - plain.u).cwiseAbs().maxCoeff(), 1e-7 * scale) << trial;
    ++compared;
  }
  EXPECT_GE(compared, 50);
}

TEST(ConeContactClosure, RoundOffThatNoImpulseReachesIsLeftOut) {
  // A cube's edge (along x) landing gently on a rough floor: two corners, 6 rows of rank 5 (the
  // corners' slips along the edge are equal). b = W^T qdot- comes from contact velocities that
  // cancel (a spinning body landing gently: a random drop's b was 1e-7 from terms near 1), so
  // its round-off, here 1e-9 of b along the edge's null combination, is no motion any impulse
  // can give or remove, and the rigid problem has no answer within the solver's tolerance (the
  // drop stopped so, with 1.6e-10). The closure leaves that part out (below 1e-8 of b), says so,
  // and its answer meets every contact's conditions on the rest.
  const double h = 0.1, m = 1.0, I = 2.0 / 3.0 * m * h * h, mu = 0.9;
  const std::vector<Eigen::Vector3d> rho = {{-h, -h, -h}, {h, -h, -h}};
  const std::vector<Eigen::Vector3d> n(2, Eigen::Vector3d::UnitZ());
  const Matrix W = body_jacobian(rho, n);
  const Matrix M_inv =
      Eigen::Matrix<double, 6, 1>(1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I).asDiagonal();
  Eigen::Matrix<double, 6, 1> qdot;
  qdot << 1e-4, 2e-4, -1e-3, 0.0, 1e-3, 0.0;  // landing gently, both corners sticking
  ConeContactProblem p{cones(2, mu), W.transpose() * M_inv * W, W.transpose() * qdot};
  for (int i = 0; i < 2; ++i) p.b[3 * i] *= 1.5;  // Newton's e = 0.5 on the normals
  const Eigen::SelfAdjointEigenSolver<Matrix> eig(p.G);
  ASSERT_LT(std::abs(eig.eigenvalues()[0]), 1e-14 * eig.eigenvalues()[5]);
  const Vector null = eig.eigenvectors().col(0);
  for (const double part : {1e-9, 3e-9}) {
    ConeContactProblem q = p;
    q.b += part * q.b.cwiseAbs().maxCoeff() * null;
    const ConeContactResult plain = solve_cone_contact_problem(q);
    EXPECT_FALSE(plain.solved()) << part << ": the rigid problem alone, " << plain.message;
    const ConeContactResult res = solve_in_the_compliant_limit(q);
    ASSERT_TRUE(res.solved()) << part << ": " << res.message;
    EXPECT_NE(res.message.find("left out"), std::string::npos) << res.message;
    const double scale = q.b.cwiseAbs().maxCoeff();
    EXPECT_LE((q.G * res.r + q.b - res.u).cwiseAbs().maxCoeff(), 1.01 * part * scale) << part;
    EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << part;
  }
  // A part beyond 1e-8 of b is not round-off: kept, and the problem stays without an answer.
  ConeContactProblem far = p;
  far.b += 1e-6 * far.b.cwiseAbs().maxCoeff() * null;
  EXPECT_FALSE(solve_in_the_compliant_limit(far).solved());
}

}  // namespace
}  // namespace saltus::mech
