// Matrix classes: P-matrix, (strict) copositivity (Kaplan's test), copositive-plus.
#include "saltus/lcp/matrix_classes.hpp"

#include <gtest/gtest.h>

#include "saltus/core/error.hpp"

namespace saltus::lcp {
namespace {

TEST(MatrixClasses, PMatrixThatIsNotPositiveDefinite) {
  Matrix m(2, 2);
  m << 1, -3, 0, 1;  // principal minors 1, 1, 1; symmetric part indefinite
  const MatrixClass c = classify_matrix(m);
  EXPECT_EQ(c.p_matrix, Decision::Yes);
  EXPECT_EQ(c.positive_definite, Decision::No);
  EXPECT_EQ(c.copositive, Decision::No);  // x = (1, 1): 1 - 3 + 1 < 0
}

TEST(MatrixClasses, NotAPMatrix) {
  Matrix m(2, 2);
  m << 1, 2, 2, 1;  // det = -3
  EXPECT_EQ(is_p_matrix(m), Decision::No);
  EXPECT_EQ(is_p_matrix(Matrix::Zero(2, 2)), Decision::Undecided);  // minors exactly zero
}

TEST(MatrixClasses, NonnegativeMatrixCopositiveNotPlus) {
  Matrix m(2, 2);
  m << 0, 1, 1, 0;
  const MatrixClass c = classify_matrix(m);
  EXPECT_EQ(c.copositive, Decision::Yes);
  EXPECT_EQ(c.strictly_copositive, Decision::No);  // x = e1 gives 0
  EXPECT_EQ(c.copositive_plus, Decision::No);      // x = e1: (M + M^T) e1 != 0
  EXPECT_EQ(c.p_matrix, Decision::No);
}

TEST(MatrixClasses, PositiveSemidefiniteIsCopositivePlus) {
  Matrix b(3, 2);
  b << 1, 0, 1, 1, 0, 1;
  Matrix skew(3, 3);
  skew << 0, 1, -2, -1, 0, 3, 2, -3, 0;
  const MatrixClass c = classify_matrix(b * b.transpose() + skew);
  EXPECT_EQ(c.positive_semidefinite, Decision::Yes);
  EXPECT_EQ(c.positive_definite, Decision::No);
  EXPECT_EQ(c.copositive_plus, Decision::Yes);
  EXPECT_FALSE(c.symmetric);
}

TEST(MatrixClasses, StrictlyCopositiveButIndefinite) {
  Matrix m(2, 2);
  m << 1, 3, 0, 1;  // x^T M x = x1^2 + 3 x1 x2 + x2^2 > 0 on x >= 0, x != 0; S indefinite
  const MatrixClass c = classify_matrix(m);
  EXPECT_EQ(c.positive_semidefinite, Decision::No);
  EXPECT_EQ(c.strictly_copositive, Decision::Yes);
  EXPECT_EQ(c.copositive_plus, Decision::Yes);
}

TEST(MatrixClasses, HornMatrixIsNotRejected) {
  // The Horn matrix is copositive but neither PSD nor a sum of PSD and nonnegative matrices.
  Matrix h(5, 5);
  h << 1, -1, 1, 1, -1, -1, 1, -1, 1, 1, 1, -1, 1, -1, 1, 1, 1, -1, 1, -1, -1, 1, 1, -1, 1;
  EXPECT_NE(is_copositive(h, false), Decision::No);
  EXPECT_EQ(classify_matrix(h).positive_semidefinite, Decision::No);
  Matrix not_cop(2, 2);
  not_cop << 1, -2, -2, 1;
  EXPECT_EQ(is_copositive(not_cop, false), Decision::No);
}

TEST(MatrixClasses, SizeLimitGivesUndecidedAndBadInputThrows) {
  MatrixClassOptions o;
  o.max_size = 3;
  Matrix m = Matrix::Identity(5, 5);
  m(0, 1) = 5.0;  // not PD, so the exponential test is needed
  EXPECT_EQ(is_p_matrix(m, o), Decision::Undecided);
  EXPECT_THROW(classify_matrix(Matrix::Zero(2, 3)), saltus::Error);
  o.tolerance = 0.0;
  EXPECT_THROW(classify_matrix(Matrix::Identity(2, 2), o), saltus::Error);
}

}  // namespace
}  // namespace saltus::lcp
