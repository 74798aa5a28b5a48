// Regressions of issue 16: LCPs whose units broke Lemke, enumeration and the matrix classes
// (memory corruption, false "no solution", non-solutions returned). Each case names the
// reproduction it guards; the property tests over all scales are in lcp_scaling_property_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lcp_scaling.hpp"
#include "saltus/lcp/lemke.hpp"
#include "saltus/lcp/matrix_classes.hpp"

namespace saltus::lcp {
namespace {

double certificate(const Matrix& m, const Vector& q, const Vector& z) {
  Vector w;
  return certified_residual(m, q, z, w);
}

// Componentwise relative agreement, so that 1e-13 and 100 are both checked.
void expect_relatively_near(const Vector& got, const Vector& want, double rel) {
  ASSERT_EQ(got.size(), want.size());
  for (Eigen::Index i = 0; i < got.size(); ++i) {
    EXPECT_LE(std::abs(got(i) - want(i)), rel * std::abs(want(i)))
        << "component " << i << ": got " << got(i) << ", want " << want(i);
  }
}

TEST(LcpScaleRegression, HugeScalarNoLongerPivotsOnRowMinusOne) {
  // M = [[1e12]], q = [-1]: the first ratio test returned -1 ("free(): invalid pointer").
  const Matrix m = Matrix::Constant(1, 1, 1e12);
  const Vector q = Vector::Constant(1, -1.0);
  const LcpSolution s = solve_lemke(m, q);
  ASSERT_EQ(s.status, LcpStatus::Solved) << s.message;
  EXPECT_NEAR(s.z(0), 1e-12, 1e-27);
  EXPECT_LE(s.residual, 1e-15);
}

TEST(LcpScaleRegression, BadlyScaledDiagonalHasItsUniqueSolution) {
  // diag(1e11, 1e-2), q = (-1e-2, -1): ended in a ray "proving" no solution; true z =
  // (1e-13, 100). q = (-1, -1e-2): ended Inaccurate at (1e-11, 0); true (1e-11, 1).
  Matrix m = Matrix::Zero(2, 2);
  m(0, 0) = 1e11;
  m(1, 1) = 1e-2;
  const Vector q1 = Eigen::Vector2d(-1e-2, -1.0);
  const LcpSolution s1 = solve_lemke(m, q1);
  ASSERT_EQ(s1.status, LcpStatus::Solved) << s1.message;
  expect_relatively_near(s1.z, Eigen::Vector2d(1e-13, 100.0), 1e-14);
  const Vector q2 = Eigen::Vector2d(-1.0, -1e-2);
  const LcpSolution s2 = solve_lemke(m, q2);
  ASSERT_EQ(s2.status, LcpStatus::Solved) << s2.message;
  expect_relatively_near(s2.z, Eigen::Vector2d(1e-11, 1.0), 1e-14);
  for (const Vector& q : {q1, q2}) {
    const LcpEnumerationResult e = enumerate_lcp_solutions(m, q);
    ASSERT_EQ(e.solutions.size(), 1u);
  }
}

TEST(LcpScaleRegression, RayIsAProofOnlyWhenCopositivePlusIsCertain) {
  // The false proof of issue 16: diag(1e11, 1e-2) ended in a ray on a matrix classified
  // copositive-plus. Now it is solved, so nothing is "proved".
  Matrix d = Matrix::Zero(2, 2);
  d(0, 0) = 1e11;
  d(1, 1) = 1e-2;
  const Vector q = Eigen::Vector2d(-1e-2, -1.0);
  EXPECT_FALSE(proves_no_solution(solve_lemke(d, q), classify_matrix(d)));
  // M = 0 (PSD, copositive-plus for certain), q = (-1, 1): no solution, proved, at any scale.
  for (double scale : {1e-12, 1.0, 1e12}) {
    const Matrix zero = Matrix::Zero(2, 2);
    const Vector qs = scale * Eigen::Vector2d(-1, 1);
    EXPECT_TRUE(proves_no_solution(solve_lemke(zero, qs), classify_matrix(zero)));
    EXPECT_FALSE(enumerate_lcp_solutions(zero, qs).has_solution());
  }
  // A ray on a matrix that is not copositive-plus proves nothing: M = [[-1]], q = [-1] has no
  // solution, but Lemke's ray is not the proof (enumeration is).
  const Matrix neg = Matrix::Constant(1, 1, -1.0);
  const Vector qn = Vector::Constant(1, -1.0);
  const LcpSolution s = solve_lemke(neg, qn);
  EXPECT_EQ(s.status, LcpStatus::RayTermination) << s.message;
  EXPECT_EQ(classify_matrix(neg).copositive_plus, Decision::No);
  EXPECT_FALSE(proves_no_solution(s, classify_matrix(neg)));
  EXPECT_FALSE(enumerate_lcp_solutions(neg, qn).has_solution());
}

TEST(LcpScaleRegression, PositiveDiagonalIsClassifiedAsTheIdentity) {
  // classify_matrix called diag(1e11, 1e-2) copositive-plus but not PD, not strictly copositive.
  Matrix m = Matrix::Zero(2, 2);
  m(0, 0) = 1e11;
  m(1, 1) = 1e-2;
  const MatrixClass c = classify_matrix(m);
  EXPECT_TRUE(c.symmetric);
  EXPECT_EQ(c.positive_definite, Decision::Yes);
  EXPECT_EQ(c.positive_semidefinite, Decision::Yes);
  EXPECT_EQ(c.p_matrix, Decision::Yes);
  EXPECT_EQ(c.copositive, Decision::Yes);
  EXPECT_EQ(c.strictly_copositive, Decision::Yes);
  EXPECT_EQ(c.copositive_plus, Decision::Yes);
  for (double k : {1e-30, 1e30}) {  // tiny and huge diagonals alike
    const MatrixClass ck = classify_matrix(Matrix(k * Matrix::Identity(3, 3)));
    EXPECT_EQ(ck.positive_definite, Decision::Yes) << k;
    EXPECT_EQ(ck.p_matrix, Decision::Yes) << k;
    EXPECT_EQ(ck.strictly_copositive, Decision::Yes) << k;
  }
  // A tiny negative entry is still decided: diag(1e11, -1e-2) is neither P nor copositive.
  m(1, 1) = -1e-2;
  const MatrixClass n = classify_matrix(m);
  EXPECT_EQ(n.p_matrix, Decision::No);
  EXPECT_EQ(n.copositive, Decision::No);
  EXPECT_EQ(n.positive_semidefinite, Decision::No);
}

TEST(LcpScaleRegression, EmptyProblemIsAnsweredWithoutTouchingAnEmptyMatrix) {
  // Found by tests/mech/fuzz: classify_matrix ran an eigen-solver on the 0 x 0 matrix (an
  // Eigen assertion; undefined behaviour with NDEBUG).
  const Matrix m(0, 0);
  const Vector q(0);
  const MatrixClass c = classify_matrix(m);
  EXPECT_EQ(c.p_matrix, Decision::Yes);
  EXPECT_EQ(c.copositive_plus, Decision::Yes);
  EXPECT_EQ(is_copositive(m, true), Decision::Yes);
  EXPECT_EQ(solve_lemke(m, q).status, LcpStatus::Solved);
  EXPECT_EQ(enumerate_lcp_solutions(m, q).solutions.size(), 1u);
}

TEST(LcpScaleRegression, EnumerationFindsTheTrueSolutionOnly) {
  // diag(1e13, 1), q = (-1, -1): enumeration returned only (1e-13, 0) with w = (0, -1).
  Matrix m = Matrix::Zero(2, 2);
  m(0, 0) = 1e13;
  m(1, 1) = 1.0;
  const Vector q = Vector::Constant(2, -1.0);
  const LcpEnumerationResult e = enumerate_lcp_solutions(m, q);
  ASSERT_EQ(e.solutions.size(), 1u);
  expect_relatively_near(e.solutions[0].z, Eigen::Vector2d(1e-13, 1.0), 1e-15);
  EXPECT_LE(certificate(m, q, e.solutions[0].z), 1e-15);
  EXPECT_EQ(solve_lemke(m, q).status, LcpStatus::Solved);
}

// 4 x 4 with exactly three solutions: [[1, 2], [2, 1]] (z = (1, 0), (0, 1), (1/3, 1/3)) next to
// the identity (z = (1, 1)), q = -e.
TEST(LcpScaleRegression, ThreeSolutionsStayThreeAtEveryScale) {
  // Scaled by 1e8 it gave 5 "solutions", two with w_i = -0.25 max|q|.
  Matrix m = Matrix::Identity(4, 4);
  m(0, 1) = m(1, 0) = 2.0;
  const Vector q = Vector::Constant(4, -1.0);
  for (double scale : {1e-8, 1.0, 1e8}) {
    const LcpEnumerationResult e = enumerate_lcp_solutions(scale * m, scale * q);
    ASSERT_EQ(e.solutions.size(), 3u) << "scale " << scale;
    for (const auto& s : e.solutions) {
      EXPECT_LE(certificate(scale * m, scale * q, s.z), 1e-14) << "scale " << scale;
      EXPECT_GE(s.w.minCoeff(), -1e-15 * scale);
    }
    const LcpSolution l = solve_lemke(scale * m, scale * q);
    ASSERT_EQ(l.status, LcpStatus::Solved) << l.message;
  }
}

// 9 x 9 P-matrix (unique solution): scaled by 1e-8, enumeration yielded 112 "solutions".
TEST(LcpScaleRegression, UniqueSolutionStaysUniqueWhenScaledDown) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix a(9, 9);
  Vector q(9);
  for (int j = 0; j < 9; ++j) {
    q(j) = u(rng);
    for (int i = 0; i < 9; ++i) a(i, j) = u(rng);
  }
  const Matrix m = a * a.transpose() + 0.1 * Matrix::Identity(9, 9);
  const LcpEnumerationResult reference = enumerate_lcp_solutions(m, q);
  ASSERT_EQ(reference.solutions.size(), 1u);
  for (double scale : {1e-8, 1e8}) {
    const LcpEnumerationResult e = enumerate_lcp_solutions(scale * m, scale * q);
    ASSERT_EQ(e.solutions.size(), 1u) << "scale " << scale;
    EXPECT_LE((e.solutions[0].z - reference.solutions[0].z).cwiseAbs().maxCoeff(),
              1e-12 * reference.solutions[0].z.cwiseAbs().maxCoeff());
  }
}

TEST(LcpScaleRegression, RaisedPivotToleranceOnAStiffProblem) {
  // A stiff joint (1e6) beside light links, pivot_tolerance = 5e-6 (the old header advised
  // raising it for badly scaled M): the first ratio test compared the artificial column
  // (entries 1) with 5e-6 (1 + max|M|) and returned -1; the solver then pivoted on row -1.
  Matrix m(3, 3);
  m << 1e6, 2e2, 0, 2e2, 1, 0.1, 0, 0.1, 0.5;
  const Vector q = Eigen::Vector3d(-1e3, -1, -0.2);
  LemkeOptions o;
  o.pivot_tolerance = 5e-6;
  const LcpSolution s = solve_lemke(m, q, o);
  ASSERT_EQ(s.status, LcpStatus::Solved) << s.message;
  EXPECT_LE(s.residual, 1e-12);
  const LcpEnumerationResult e = enumerate_lcp_solutions(m, q);
  ASSERT_EQ(e.solutions.size(), 1u);
  EXPECT_LE((e.solutions[0].z - s.z).cwiseAbs().maxCoeff(), 1e-12 * s.z.cwiseAbs().maxCoeff());
}

// A 40 x 40 contact-sized problem (PSD plus skew part: copositive-plus) scaled by 1e-4: the cap
// message advised what could not help. Scaled or not, Lemke takes the same pivots (powers-of-two
// equilibration makes the scaled tableaux identical) and certifies the answer.
TEST(LcpScaleRegression, FortyByFortyScaledBy1e4TakesTheSamePivots) {
  std::mt19937_64 rng(40);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 40;
  Matrix b(n, n - 2), s(n, n);
  Vector q(n);
  for (int j = 0; j < n - 2; ++j) {
    for (int i = 0; i < n; ++i) b(i, j) = u(rng);
  }
  for (int j = 0; j < n; ++j) {
    q(j) = u(rng);
    for (int i = 0; i < n; ++i) s(i, j) = u(rng);
  }
  const Matrix m = b * b.transpose() + (s - s.transpose()) + 1e-3 * Matrix::Identity(n, n);
  const LcpSolution reference = solve_lemke(m, q);
  ASSERT_EQ(reference.status, LcpStatus::Solved) << reference.message;
  for (double scale : {1e-4, 1e4}) {
    const LcpSolution l = solve_lemke(scale * m, scale * q);
    ASSERT_EQ(l.status, LcpStatus::Solved) << l.message;
    EXPECT_EQ(l.pivots, reference.pivots);
    EXPECT_LE(l.residual, 1e-9);
    EXPECT_LE((l.z - reference.z).cwiseAbs().maxCoeff(), 1e-9 * reference.z.cwiseAbs().maxCoeff());
  }
}

TEST(LcpScaleRegression, InaccurateIsNeverReturnedAsSolved) {
  // A nearly singular P-matrix: whatever basis Lemke ends on, the status says Solved only when
  // the certificate on the caller's data passes; otherwise Inaccurate with the residual.
  Matrix m(2, 2);
  m << 1, 1, 1, 1 + 1e-15;
  const Vector q = Eigen::Vector2d(-1, -1 - 1e-9);
  LemkeOptions o;
  o.residual_tolerance = 1e-12;
  const LcpSolution s = solve_lemke(m, q, o);
  const double r = certificate(m, q, s.z);
  if (s.status == LcpStatus::Solved) {
    EXPECT_LE(r, 1e-12);
  } else {
    ASSERT_EQ(s.status, LcpStatus::Inaccurate) << s.message;
    EXPECT_GT(r, 1e-12);
    EXPECT_NE(s.message.find("certified residual"), std::string::npos) << s.message;
  }
}

TEST(LcpScaleRegression, CertificateIsScaleInvariantAndCatchesNonSolutions) {
  Matrix m = Matrix::Zero(2, 2);
  m(0, 0) = 1e13;
  m(1, 1) = 1.0;
  const Vector q = Vector::Constant(2, -1.0);
  // The old enumeration's answer: w = (0, -1), a sign violation of the full row magnitude.
  EXPECT_EQ(certificate(m, q, Eigen::Vector2d(1e-13, 0.0)), 1.0);
  // z_1 > 0 with w_1 = 1 > 0: complementarity fails by the whole row.
  EXPECT_GT(certificate(m, q, Eigen::Vector2d(2e-13, 1.0)), 0.3);
  const Vector z = Eigen::Vector2d(1e-13, 1.0);
  EXPECT_LE(certificate(m, q, z), 1e-16);
  const Eigen::Vector2d d1(1e-7, 3e5), d2(2e9, 1e-3);
  const Matrix ms = d1.asDiagonal() * m * d2.asDiagonal();
  const Vector qs = d1.asDiagonal() * q;
  const Vector zs = d2.cwiseInverse().asDiagonal() * Vector(Eigen::Vector2d(2e-13, 1.0));
  EXPECT_NEAR(certificate(ms, qs, zs), certificate(m, q, Eigen::Vector2d(2e-13, 1.0)), 1e-15);
}

TEST(LcpScaleRegression, EquilibrationIsExactAndUnitFree) {
  Matrix m(3, 3);
  m << 1e11, 3, 0, 3, 1e-2, 1e-5, 0, 1e-5, 7;
  const Vector q = Eigen::Vector3d(-1e-2, -1, 5);
  LcpScaling a, b;
  Matrix ma, mb;
  Vector qa, qb;
  equilibrate_lcp(m, q, a, ma, qa);
  equilibrate_lcp(1e8 * m, 1e8 * q, b, mb, qb);
  EXPECT_LE(ma.cwiseAbs().maxCoeff(), 2.0);
  EXPECT_GE(ma.cwiseAbs().maxCoeff(), 0.5);
  EXPECT_LE(qa.cwiseAbs().maxCoeff(), 2.0);
  EXPECT_GE(qa.cwiseAbs().maxCoeff(), 1.0);
  // The ratios of the factors do not depend on the units; each is a power of two.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.row(i) / a.row(0), b.row(i) / b.row(0));
    EXPECT_EQ(a.column(i) / a.column(0), b.column(i) / b.column(0));
    int exponent = 0;
    EXPECT_EQ(std::frexp(a.row(i), &exponent), 0.5);
    EXPECT_EQ(std::frexp(a.column(i), &exponent), 0.5);
  }
  // Mapping back is exact: R M C / (r_i c_j) reproduces M bit for bit.
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) EXPECT_EQ(ma(i, j) / (a.row(i) * a.column(j)), m(i, j));
  }
  // The congruence for the classification: one factor per index.
  LcpScaling c;
  Matrix mc;
  equilibrate_matrix(m, c, mc);
  EXPECT_EQ(c.row, c.column);
  EXPECT_LE(mc.cwiseAbs().maxCoeff(), 2.0);
}

}  // namespace
}  // namespace saltus::lcp
