// Enumeration of complementary bases: several solutions, none, continua on singular faces,
// degenerate duplicates, bad input.
#include "saltus/lcp/lcp_enumeration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "lcp/lcp_test_problems.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp.hpp"

namespace saltus::lcp {
namespace {

TEST(LcpEnumeration, TwoSolutionsOfANegativeScalar) {
  // w = -z + 1: z = 0 (w = 1) and z = 1 (w = 0): the Painleve "several" shape (B < 0, b > 0).
  const LcpEnumerationResult e =
      enumerate_lcp_solutions(Matrix::Constant(1, 1, -1.0), Vector::Constant(1, 1.0));
  ASSERT_EQ(e.solutions.size(), 2u);
  EXPECT_EQ(e.solutions[0].z(0), 0.0);
  EXPECT_EQ(e.solutions[1].z(0), 1.0);
  EXPECT_EQ(e.faces_checked, 2);
  EXPECT_TRUE(e.singular_faces.empty());
}

TEST(LcpEnumeration, NoSolution) {
  // B < 0, b < 0: the Painleve "none" shape.
  const LcpEnumerationResult e =
      enumerate_lcp_solutions(Matrix::Constant(1, 1, -0.2), Vector::Constant(1, -9.81));
  EXPECT_FALSE(e.has_solution());
}

TEST(LcpEnumeration, ContinuaOnSingularFacesAreReportedWithTheirRange) {
  // M = [[0, 0], [1, -1]], q = (0, -1). Solutions: z = (z1, 0) with z1 >= 1 (face {1}) and
  // z = (1 + t, t), t >= 0 (face {1, 2}, w = 0). Both faces have a singular M_aa, so a search
  // over nonsingular bases finds nothing at all.
  Matrix m(2, 2);
  m << 0, 0, 1, -1;
  const Vector q = Eigen::Vector2d(0, -1);
  Matrix observable(2, 2);
  observable << 1, 0, 1, -1;  // z1 and z1 - z2
  const LcpEnumerationResult e = enumerate_lcp_solutions(m, q, {}, &observable);
  ASSERT_TRUE(e.has_solution());
  ASSERT_EQ(e.singular_faces.size(), 2u);
  const LcpFace& f1 = e.singular_faces[0];
  EXPECT_EQ(f1.basis, 1u);  // z1 basic, w1 = 0
  EXPECT_EQ(f1.nullity, 1);
  EXPECT_NEAR(f1.observable_min(0), 1.0, 1e-12);
  EXPECT_EQ(f1.observable_max(0), kInfinity);  // unbounded continuum
  const LcpFace& f2 = e.singular_faces[1];
  EXPECT_EQ(f2.basis, 3u);
  EXPECT_EQ(f2.nullity, 1);
  EXPECT_NEAR(f2.observable_min(1), 1.0, 1e-12);  // z1 - z2 = 1 on the whole face
  EXPECT_NEAR(f2.observable_max(1), 1.0, 1e-12);
  EXPECT_EQ(f2.observable_max(0), kInfinity);
  for (const auto& s : e.solutions) {
    Vector w;
    EXPECT_LE(natural_residual(m, q, s.z, w), 1e-14);
    EXPECT_TRUE(s.from_singular_face);
  }
}

TEST(LcpEnumeration, DegenerateSolutionIsListedOnce) {
  // q = 0: z = 0 is a solution on every face of a P-matrix problem; it is listed once.
  Matrix m(3, 3);
  m << 2, 1, 0, 0, 2, 1, 1, 0, 2;
  const LcpEnumerationResult e = enumerate_lcp_solutions(m, Vector::Zero(3));
  ASSERT_EQ(e.solutions.size(), 1u);
  EXPECT_TRUE(e.solutions[0].degenerate);
  EXPECT_EQ(e.solutions[0].z, Vector::Zero(3));
}

TEST(LcpEnumeration, BadInput) {
  const auto message_of = [](const auto& f) { return lcp_problems::error_message(f); };
  EXPECT_NE(message_of([] {
              enumerate_lcp_solutions(Matrix::Identity(13, 13), Vector::Zero(13));
            }).find("n = 13 exceeds LcpEnumerationOptions::max_size = 12"),
            std::string::npos);
  LcpEnumerationOptions o;
  o.max_size = 40;
  EXPECT_NE(message_of([&] {
              enumerate_lcp_solutions(Matrix::Identity(2, 2), Vector::Zero(2), o);
            }).find("max_size = 40"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              enumerate_lcp_solutions(Matrix::Identity(2, 2), Vector::Zero(3));
            }).find("q has size 3"),
            std::string::npos);
  Matrix observable(1, 3);
  EXPECT_THROW(enumerate_lcp_solutions(Matrix::Identity(2, 2), Vector::Zero(2), {}, &observable),
               saltus::Error);
}

}  // namespace
}  // namespace saltus::lcp
