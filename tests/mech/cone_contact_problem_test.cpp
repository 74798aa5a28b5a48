// The frictional contact problem in space (cone_contact_problem.hpp): against the one-contact
// Newton-Coulomb law in space, an enumerated LCP without friction, a cube on its face (weight,
// push below and above mu m g), an uncoupled sphere contact, random rigid bodies checked
// contact by contact by a check written here (not the solver's residual), and Painleve-like
// contacts whose several answers must be reported.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <cmath>
#include <random>
#include <string>

#include "cone_contact_test_support.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/cone_contact_problem.hpp"
#include "saltus/mech/spatial_impact_law.hpp"

namespace saltus::mech {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

// Cube of half side h and mass m on its face z = -h, corners (+-h, +-h, -h), gravity g, pushed
// at its centre by F (horizontal): G = W^T M^-1 W, b = W^T M^-1 f (the body at rest).
struct Cube {
  double m = 2.0, h = 0.5, g = 9.81;
  Matrix W, M_inv;
  ConeContactProblem problem(double mu, const Eigen::Vector3d& F) {
    std::vector<Eigen::Vector3d> rho, n;
    for (double x : {-h, h})
      for (double y : {-h, h}) {
        rho.emplace_back(x, y, -h);
        n.push_back(Eigen::Vector3d::UnitZ());
      }
    W = Matrix(6, 12);
    for (int i = 0; i < 4; ++i) {  // tangents e_x, e_y as in the brief
      W.col(3 * i) = body_row(rho[i], Eigen::Vector3d::UnitZ());
      W.col(3 * i + 1) = body_row(rho[i], Eigen::Vector3d::UnitX());
      W.col(3 * i + 2) = body_row(rho[i], Eigen::Vector3d::UnitY());
    }
    const double I = m * (2 * h) * (2 * h) / 6.0;  // cube: m s^2 / 6
    M_inv = Eigen::Matrix<double, 6, 1>(1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I).asDiagonal();
    Eigen::Matrix<double, 6, 1> f;
    f << F + Eigen::Vector3d(0, 0, -m * g), Eigen::Vector3d::Zero();
    return {cones(4, mu), W.transpose() * M_inv * W, W.transpose() * M_inv * f};
  }
};

TEST(ConeContactProblem, RejectsBadInput) {
  ConeContactProblem p{cones(1, 0.5), Matrix::Identity(3, 3), Vector::Zero(2)};
  EXPECT_THROW(solve_cone_contact_problem(p), Error);
  p.b = Vector::Zero(3);
  p.contacts[0].mu = -0.1;
  EXPECT_THROW(solve_cone_contact_problem(p), Error);
  p.contacts[0].mu = 0.1;
  ConeContactOptions options;
  options.max_sweeps = 0;
  EXPECT_THROW(solve_cone_contact_problem(p, options), Error);
  EXPECT_TRUE(solve_cone_contact_problem(p).solved());
  EXPECT_TRUE(solve_cone_contact_problem({{}, Matrix(0, 0), Vector(0)}).solved());
}

// Impulse form at one contact: G = A, b = (1 + e) v- (e_t = e), r = impulse, u = v+ + e v-.
// Where spatial_newton_coulomb_impact resolves (one answer) the solver returns that impulse;
// where it finds several answers the solver reports Several.
TEST(ConeContactProblem, OneContactImpactMatchesTheSpatialNewtonCoulombLaw) {
  std::mt19937 rng(20240611);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.0, 1.0);
  int resolved = 0, several = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    Eigen::Matrix3d B;
    for (int k = 0; k < 9; ++k) B(k / 3, k % 3) = unit(rng);
    const Eigen::Matrix3d A = B * B.transpose() + 0.05 * Eigen::Matrix3d::Identity();
    Eigen::Vector3d v(-0.1 - positive(rng), 2 * unit(rng), 2 * unit(rng));
    if (trial % 10 == 9) v[0] = 0.3 * positive(rng);  // separating: no impulse
    const double e = positive(rng), mu = 1.2 * positive(rng);
    const SpatialImpactResult law = spatial_newton_coulomb_impact({A, v}, e, e, mu, false);
    const ConeContactProblem p{cones(1, mu), A, (1.0 + e) * v};
    const ConeContactResult res = solve_cone_contact_problem(p);
    if (law.resolved()) {
      ++resolved;
      ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
      const double scale = std::max(law.impulse.norm(), p.b.norm() / A.norm());
      worst = std::max(worst, (res.r - law.impulse).norm() / scale);
      EXPECT_LE((res.r - law.impulse).norm(), 1e-9 * scale) << trial << ": " << res.message;
      EXPECT_LE((res.u - (law.v_plus + e * v)).norm(), 1e-9 * p.b.norm()) << trial;
    } else if (law.message.find("impulses satisfy") != std::string::npos) {
      ++several;
      EXPECT_EQ(res.status, ConeContactStatus::Several) << trial << ": " << law.message;
    }
  }
  EXPECT_GE(resolved, 45);
  std::printf(
      "[ cone ] one contact: %d resolved by the law (worst relative gap %.2e), %d several\n",
      resolved, worst, several);
}

// True when a w = M z + q >= 0, z >= 0, z . w = 0 exists; z from trying every active set.
bool enumerate_lcp(const Matrix& M, const Vector& q, Vector& z) {
  const int n = static_cast<int>(q.size());
  const double scale = std::max(q.cwiseAbs().maxCoeff(), 1.0);
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> S;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) S.push_back(i);
    z = Vector::Zero(n);
    if (!S.empty()) {
      Matrix M_SS(S.size(), S.size());
      Vector q_S(S.size());
      for (size_t a = 0; a < S.size(); ++a) {
        q_S[a] = q[S[a]];
        for (size_t c = 0; c < S.size(); ++c) M_SS(a, c) = M(S[a], S[c]);
      }
      const Vector z_S = M_SS.completeOrthogonalDecomposition().solve(-q_S);
      if ((M_SS * z_S + q_S).norm() > 1e-10 * scale) continue;
      for (size_t a = 0; a < S.size(); ++a) z[S[a]] = z_S[a];
    }
    if (z.minCoeff() >= -1e-12 * scale && (M * z + q).minCoeff() >= -1e-10 * scale) return true;
  }
  return false;
}

// Without friction (Normal contacts and mu = 0 cones) the normal rows are an LCP with a symmetric
// positive semi-definite M; its w, hence u = G r + b, is unique. Random G = B B^T, some singular.
TEST(ConeContactProblem, FrictionlessMatchesAnEnumeratedLcp) {
  std::mt19937 rng(515);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int solvable = 0, unsolvable = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int k = 1 + trial % 4;
    ConeContactProblem p;
    std::vector<int> normal_rows;
    int m = 0;
    for (int i = 0; i < k; ++i) {
      const bool cone = (trial + i) % 3 != 0;
      p.contacts.push_back({cone ? ConeContactKind::Cone : ConeContactKind::Normal, 0.0});
      normal_rows.push_back(m);
      m += cone ? 3 : 1;
    }
    const int n = static_cast<int>(normal_rows.size());
    // One time in three the normal rows alone are dependent (rank n - 1): some b have no answer.
    const int rank = trial % 3 == 0 ? std::max(1, n - 1) : m;
    Matrix B(m, rank);
    for (int a = 0; a < m; ++a)
      for (int c = 0; c < rank; ++c) B(a, c) = unit(rng);
    p.G = B * B.transpose();
    p.b = Vector(m);
    for (int a = 0; a < m; ++a) p.b[a] = unit(rng);
    Matrix M(n, n);
    Vector q(n), z;
    for (int a = 0; a < n; ++a) {
      q[a] = p.b[normal_rows[a]];
      for (int c = 0; c < n; ++c) M(a, c) = p.G(normal_rows[a], normal_rows[c]);
    }
    const ConeContactResult res = solve_cone_contact_problem(p);
    if (!enumerate_lcp(M, q, z)) {
      ++unsolvable;
      EXPECT_EQ(res.status, ConeContactStatus::NotConverged) << trial << ": " << res.message;
      continue;
    }
    ++solvable;
    Vector r = Vector::Zero(m);
    for (int a = 0; a < n; ++a) r[normal_rows[a]] = z[a];
    const Vector u = p.G * r + p.b;
    ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
    EXPECT_LE((res.u - u).cwiseAbs().maxCoeff(), 1e-8 * std::max(1.0, r.norm() * p.G.norm()))
        << trial;
    EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << trial;
  }
  EXPECT_GE(solvable, 100);
  std::printf("[ cone ] frictionless: %d solvable LCPs agree, %d without answer\n", solvable,
              unsolvable);
}

// Normal rows with friction folded in by the caller make G non-symmetric; with G a P-matrix
// (here diagonally dominant) the LCP has one answer, found by enumeration.
TEST(ConeContactProblem, NonSymmetricNormalRowsMatchAnEnumeratedLcp) {
  std::mt19937 rng(808);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 2 + trial % 3;
    ConeContactProblem p{std::vector<ConeContact>(n, {ConeContactKind::Normal, 0.0}), Matrix(n, n),
                         Vector(n)};
    for (int a = 0; a < n; ++a) {
      for (int c = 0; c < n; ++c) p.G(a, c) = 0.4 * unit(rng) + (a < c ? 0.3 : -0.3);
      p.G(a, a) = 1.0 + std::abs(unit(rng)) + 0.7 * (n - 1);
      p.b[a] = unit(rng);
    }
    Vector z;
    ASSERT_TRUE(enumerate_lcp(p.G, p.b, z));
    const ConeContactResult res = solve_cone_contact_problem(p);
    ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
    EXPECT_LE((res.r - z).cwiseAbs().maxCoeff(), 1e-9) << trial;
  }
}

// A cube at rest on its face: rank-6 G of size 12, the split of its weight over the corners is
// not unique, but sum r_N = m g and u = 0 are.
TEST(ConeContactProblem, CubeOnItsFaceCarriesItsWeight) {
  Cube cube;
  const ConeContactProblem p = cube.problem(0.5, Eigen::Vector3d::Zero());
  const ConeContactResult res = solve_cone_contact_problem(p);
  ASSERT_TRUE(res.solved()) << res.message;
  EXPECT_LE(res.u.cwiseAbs().maxCoeff(), 1e-9 * cube.g);
  const double total = res.r[0] + res.r[3] + res.r[6] + res.r[9];
  EXPECT_NEAR(total, cube.m * cube.g, 1e-9 * cube.m * cube.g);
  for (ConeContactState s : res.states) EXPECT_EQ(s, ConeContactState::Stick);
  EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "");
  EXPECT_EQ(res.starts, 3) << "zero, every contact sticking, every contact sliding";
  ConeContactOptions one_start;
  one_start.check_uniqueness = false;
  const ConeContactResult first = solve_cone_contact_problem(p, one_start);
  EXPECT_EQ(first.starts, 1);
  EXPECT_LE((first.u - res.u).cwiseAbs().maxCoeff(), 1e-9 * cube.g);
}

// Pushed at its centre by F: it sticks for F < mu m g (u = 0, the friction balances F) and slides
// along F with acceleration (F - mu m g) / m for F > mu m g, without turning (u_T the same at
// every corner). F < m g and mu < 1: the cube does not tip.
TEST(ConeContactProblem, PushedCubeSticksBelowMuMgAndSlidesAbove) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> angle(0.0, 2 * kPi), coefficient(0.2, 0.6);
  Cube cube;
  for (int trial = 0; trial < 20; ++trial) {
    const double mu = coefficient(rng), phi = angle(rng);
    const double ratio = trial % 2 == 0 ? 0.3 + 0.6 * trial / 20.0 : 1.05 + trial / 20.0;
    const double F = ratio * mu * cube.m * cube.g;
    const Eigen::Vector3d d(std::cos(phi), std::sin(phi), 0.0);
    const ConeContactProblem p = cube.problem(mu, F * d);
    const ConeContactResult res = solve_cone_contact_problem(p);
    ASSERT_TRUE(res.solved()) << trial << ": " << res.message;
    EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << trial;
    const Eigen::Vector3d a = std::max(0.0, (F - mu * cube.m * cube.g) / cube.m) * d;
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
    for (int i = 0; i < 4; ++i) {
      force += res.r.segment<3>(3 * i);
      EXPECT_NEAR(res.u[3 * i], 0.0, 1e-9 * cube.g) << trial << " corner " << i;
      EXPECT_NEAR(res.u[3 * i + 1], a[0], 1e-9 * cube.g) << trial << " corner " << i;
      EXPECT_NEAR(res.u[3 * i + 2], a[1], 1e-9 * cube.g) << trial << " corner " << i;
      EXPECT_EQ(res.states[i], ratio < 1.0 ? ConeContactState::Stick : ConeContactState::Slip)
          << trial << " corner " << i;
    }
    EXPECT_NEAR(force[0], cube.m * cube.g, 1e-9 * cube.m * cube.g) << trial;
    const double friction = ratio < 1.0 ? F : mu * cube.m * cube.g;
    EXPECT_NEAR(force[1], -friction * d[0], 1e-9 * cube.m * cube.g) << trial;
    EXPECT_NEAR(force[2], -friction * d[1], 1e-9 * cube.m * cube.g) << trial;
  }
}

// A sphere on a plane: G_NT = 0 and G_TT = c I. Sliding, the friction is exactly opposite b_T.
TEST(ConeContactProblem, UncoupledContactSlidesExactlyAgainstItsTangentialOffset) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.1, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double m = positive(rng), R = positive(rng), mu = positive(rng);
    const double c = 1.0 / m + R * R / (0.4 * m * R * R);
    const Eigen::Vector3d diag(1.0 / m, c, c);
    const Eigen::Vector3d b(-positive(rng), 5 * unit(rng), 5 * unit(rng));
    const ConeContactProblem p{cones(1, mu), diag.asDiagonal().toDenseMatrix(), b};
    const ConeContactResult res = solve_cone_contact_problem(p);
    ASSERT_TRUE(res.solved()) << res.message;
    const double r_N = -b[0] * m;
    EXPECT_NEAR(res.r[0], r_N, 1e-14 * r_N);
    const Eigen::Vector2d r_T = res.r.tail<2>(), b_T = b.tail<2>();
    if (b_T.norm() > c * mu * r_N) {  // the stick force would leave the cone
      EXPECT_EQ(res.states[0], ConeContactState::Slip);
      EXPECT_LE((r_T + mu * r_N * b_T.normalized()).norm(), 1e-14 * r_N) << trial;
    } else {
      EXPECT_EQ(res.states[0], ConeContactState::Stick);
      EXPECT_LE((r_T + b_T / c).norm(), 1e-14 * r_N) << trial;
    }
  }
}

// Random rigid bodies with 1-6 contacts (on a plane, or at random points with random normals),
// random kinds and mu in [0, 1], b = W^T M^-1 f for a random f. Every solve ends with a status;
// a Solved answer meets every contact's conditions (checked here, not by the solver's residual);
// both answers of a Several do, and they move the body differently.
TEST(ConeContactProblem, RandomRigidBodiesAreSolvedRightOrReported) {
  std::mt19937 rng(4242);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.5, 2.0), friction(0.0, 1.0);
  int counts[3] = {0, 0, 0};
  for (int trial = 0; trial < 300; ++trial) {
    const int k = 1 + trial % 6;
    const bool plane = (trial / 6) % 2 == 0;
    Eigen::Matrix<double, 6, 1> mass;
    mass << Eigen::Vector3d::Constant(positive(rng)), positive(rng), positive(rng), positive(rng);
    std::vector<Eigen::Vector3d> rho, n;
    ConeContactProblem p;
    for (int i = 0; i < k; ++i) {
      rho.emplace_back(unit(rng), unit(rng), plane ? -0.5 : unit(rng));
      n.push_back(plane ? Eigen::Vector3d::UnitZ() : random_unit(rng));
      const bool normal = (trial + i) % 5 == 0;
      p.contacts.push_back(
          {normal ? ConeContactKind::Normal : ConeContactKind::Cone, normal ? 0.0 : friction(rng)});
    }
    const Matrix W_full = body_jacobian(rho, n);
    Matrix W(6, 0);
    for (int i = 0; i < k; ++i) {  // a Normal contact keeps its normal column only
      const int cols = p.contacts[i].kind == ConeContactKind::Cone ? 3 : 1;
      W.conservativeResize(6, W.cols() + cols);
      W.rightCols(cols) = W_full.middleCols(3 * i, cols);
    }
    const Matrix M_inv = mass.cwiseInverse().asDiagonal();
    Eigen::Matrix<double, 6, 1> f;
    for (int a = 0; a < 6; ++a) f[a] = unit(rng);
    f[2] -= 2.0;  // mostly pressed onto its contacts
    p.G = W.transpose() * M_inv * W;
    p.b = W.transpose() * M_inv * f;
    const ConeContactResult res = solve_cone_contact_problem(p);
    ++counts[static_cast<int>(res.status)];
    const ConeContactCheck check = check_cone_contact_answer(p, res.r);
    EXPECT_EQ(check.residual, res.residual) << trial;
    switch (res.status) {
      case ConeContactStatus::Solved:
        EXPECT_LE(res.residual, 1e-10) << trial;
        EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << trial << ": " << res.message;
        break;
      case ConeContactStatus::Several:
        EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << trial << ": " << res.message;
        EXPECT_EQ(violated_conditions(p, res.other_r, 1e-9), "") << trial << ": " << res.message;
        EXPECT_GT((res.u - res.other_u).cwiseAbs().maxCoeff(), 1e-6 * p.b.cwiseAbs().maxCoeff());
        break;
      case ConeContactStatus::NotConverged:
        EXPECT_GT(res.residual, 1e-10) << trial;
        break;
    }
  }
  EXPECT_GE(counts[0], 240);
  EXPECT_LE(counts[1], 2);  // NotConverged: the Newton step makes it rare (0.1% in 9000 trials)
  // A body on a plane with 4 or more contacts that slides and turns has a continuum of motions
  // (the weight's split is free and the friction follows it): the starts must see it.
  EXPECT_GE(counts[2], 10);
  std::printf("[ cone ] random bodies: %d solved, %d not converged, %d several\n", counts[0],
              counts[1], counts[2]);
}

// Painleve-like contacts: a strongly coupled A and a large mu, where the one-contact law in space
// finds several impulses (its Jam with "impulses satisfy"; found by scanning a seeded stream).
// Alone, with an uncoupled second contact, and with a weakly coupled one, the solver must not
// return one of them as the answer: it reports Several, both answers meeting the conditions.
TEST(ConeContactProblem, PainleveLikeContactsReportSeveralAnswers) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.0, 1.0);
  int found = 0, several[3] = {0, 0, 0};
  for (int trial = 0; trial < 5000 && found < 10; ++trial) {
    Eigen::Matrix3d B;
    for (int k = 0; k < 9; ++k) B(k / 3, k % 3) = unit(rng);
    const Eigen::Matrix3d A = B * B.transpose() + 0.01 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d v(-0.1 - positive(rng), 2 * unit(rng), 2 * unit(rng));
    const double e = positive(rng), mu = 1.0 + 2.0 * positive(rng);
    const SpatialImpactResult law = spatial_newton_coulomb_impact({A, v}, e, e, mu, false);
    if (law.resolved() || law.message.find("impulses satisfy") == std::string::npos) continue;
    ++found;
    for (int variant = 0; variant < 3; ++variant) {
      ConeContactProblem p{cones(variant == 0 ? 1 : 2, mu), Matrix::Zero(3, 3), (1.0 + e) * v};
      if (variant == 0) {
        p.G = A;
      } else {  // a second, sphere-like contact pressed by b_N = -1
        Matrix W = Matrix::Zero(6, 6);
        W.topLeftCorner<3, 3>() = A.llt().matrixU();  // W^T W = A
        W.bottomRightCorner<3, 3>() = Eigen::Matrix3d::Identity();
        if (variant == 2) W(3, 0) = W(4, 1) = 0.05;  // weak coupling through a shared dof
        p.G = W.transpose() * W;
        p.b = Vector(6);
        p.b << (1.0 + e) * v, -1.0, 0.2, -0.1;
        p.contacts[1].mu = 0.5;
      }
      const ConeContactResult res = solve_cone_contact_problem(p);
      if (res.status == ConeContactStatus::Several) {
        ++several[variant];
        EXPECT_EQ(violated_conditions(p, res.other_r, 1e-9), "") << trial << " " << variant;
      }
      if (variant < 2) {
        EXPECT_EQ(res.status, ConeContactStatus::Several) << trial << ": " << res.message;
      }
      if (res.status != ConeContactStatus::NotConverged) {
        EXPECT_EQ(violated_conditions(p, res.r, 1e-9), "") << trial << " " << variant;
      }
    }
  }
  EXPECT_EQ(found, 10);
  std::printf("[ cone ] Painleve-like: %d cases, Several alone %d, uncoupled %d, coupled %d\n",
              found, several[0], several[1], several[2]);
}

}  // namespace
}  // namespace saltus::mech
