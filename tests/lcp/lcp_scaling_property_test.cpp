// Property tests of issue 16: the LCP layer answers the same whatever the units. Seeded random
// problems of each class (P, symmetric positive definite, copositive-plus, degenerate with
// ties, general with none or several solutions) are solved as given, scaled by 10^k for
// k = -10..10, and scaled by random positive diagonals (D1 M D2, D1 q: solutions z -> D2^-1 z;
// D M D, D q for the classification, which only a congruence keeps). Checked each time: the
// same verdict, the same solutions mapped back, and every returned solution certified
// (certified_residual on the data it was returned for).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lcp/lcp_test_problems.hpp"
#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"
#include "saltus/lcp/matrix_classes.hpp"

namespace saltus::lcp {
namespace {

using lcp_problems::Generator;

constexpr int kProblemsPerClass = 600;
constexpr double kCertified = 1e-9;  // LemkeOptions / LcpEnumerationOptions defaults or below
constexpr double kSamePoint = 1e-8;  // relative to the larger ||z||_inf

enum class Kind { P, SymmetricPositiveDefinite, CopositivePlus, Degenerate, General };

struct Problem {
  Matrix m;
  Vector q;
};

Problem make(Generator& g, Kind kind, int n, int k) {
  switch (kind) {
    case Kind::P:
      return {lcp_problems::p_matrix(g, n, k), g.matrix(n, 1, -1, 1)};
    case Kind::SymmetricPositiveDefinite:
      return {lcp_problems::symmetric_positive_definite(g, n), g.matrix(n, 1, -1, 1)};
    case Kind::CopositivePlus:
      return {lcp_problems::copositive_plus(g, n, k), g.matrix(n, 1, -1, 1)};
    case Kind::Degenerate:
      return {lcp_problems::small_integer_p_matrix(g, n, k), lcp_problems::small_integer_q(g, n)};
    case Kind::General:
      break;
  }
  return {g.matrix(n, n, -1, 1), g.matrix(n, 1, -1, 1)};  // no structure: 0, 1 or more
}

bool same_point(const Vector& a, const Vector& b) {
  const double size = std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() <= kSamePoint * size;
}

double certificate(const Matrix& m, const Vector& q, const Vector& z) {
  Vector w;
  return certified_residual(m, q, z, w);
}

// The reference answers of one problem, as given.
struct Reference {
  LcpSolution lemke;
  std::vector<Vector> solutions;
};

struct Tally {
  int none = 0;
  int several = 0;
};

// Solves (ms, qs) = (D1 M D2, D1 q) (or t M, t q: d1 = d2 = t, unmapped) and compares with the
// reference, mapping z = D2 z_s. `same_path`: Lemke must take the same pivots (a scalar
// factor does not change the equilibrated problem).
void check_scaled(const Reference& ref, Kind kind, const Matrix& ms, const Vector& qs,
                  const Vector& d2, bool same_path, const std::string& what) {
  SCOPED_TRACE(what);
  const LcpEnumerationResult e = enumerate_lcp_solutions(ms, qs);
  ASSERT_EQ(e.solutions.size(), ref.solutions.size()) << "enumeration verdict changed";
  for (const auto& s : e.solutions) {
    EXPECT_LE(certificate(ms, qs, s.z), kCertified);
    const Vector z = d2.asDiagonal() * s.z;
    bool found = false;
    for (const Vector& r : ref.solutions) found = found || same_point(r, z);
    EXPECT_TRUE(found) << "enumerated z = " << z.transpose() << " is not a reference solution";
  }
  const LcpSolution l = solve_lemke(ms, qs);
  if (l.is_solution()) {
    EXPECT_LE(certificate(ms, qs, l.z), kCertified);
  }
  EXPECT_NE(l.status, LcpStatus::PivotCap) << l.message;
  const bool guaranteed = kind != Kind::General;  // P-matrices and copositive-plus M
  if (same_path || guaranteed) {
    EXPECT_EQ(l.status, ref.lemke.status) << l.message;
  }
  if (l.is_solution()) {
    const Vector z = d2.asDiagonal() * l.z;
    bool found = false;
    for (const Vector& r : ref.solutions) found = found || same_point(r, z);
    EXPECT_TRUE(found) << "Lemke's z = " << z.transpose() << " is not a reference solution";
    if (same_path && ref.lemke.is_solution()) {
      EXPECT_EQ(l.pivots, ref.lemke.pivots);
      EXPECT_TRUE(same_point(z, ref.lemke.z));
    }
  }
}

Tally check_class(Kind kind, std::uint64_t seed) {
  Generator g(seed);
  Tally tally;
  for (int k = 0; k < kProblemsPerClass; ++k) {
    const int n = 1 + k % 6;
    const Problem p = make(g, kind, n, k);
    SCOPED_TRACE("problem " + std::to_string(k) + ", n = " + std::to_string(n));
    Reference ref;
    ref.lemke = solve_lemke(p.m, p.q);
    const LcpEnumerationResult e = enumerate_lcp_solutions(p.m, p.q);
    for (const auto& s : e.solutions) {
      EXPECT_LE(certificate(p.m, p.q, s.z), kCertified);
      ref.solutions.push_back(s.z);
    }
    if (ref.solutions.empty()) ++tally.none;
    if (ref.solutions.size() > 1) ++tally.several;
    if (kind != Kind::CopositivePlus && kind != Kind::General) {
      EXPECT_EQ(ref.solutions.size(), 1u) << "a P-matrix problem has one solution";
    }
    if (kind != Kind::General) {  // Lemke decides P and copositive-plus problems
      EXPECT_EQ(ref.lemke.is_solution(), !ref.solutions.empty()) << ref.lemke.message;
    }
    for (int power = -10; power <= 10; ++power) {
      const double t = std::pow(10.0, power);
      check_scaled(ref, kind, t * p.m, t * p.q, Vector::Ones(n), true,
                   "scaled by 1e" + std::to_string(power));
    }
    for (int r = 0; r < 3; ++r) {
      Vector d1(n), d2(n);
      for (int i = 0; i < n; ++i) {
        d1(i) = std::pow(10.0, g.uniform(-6, 6));
        d2(i) = std::pow(10.0, g.uniform(-6, 6));
      }
      const Matrix ms = d1.asDiagonal() * p.m * d2.asDiagonal();
      check_scaled(ref, kind, ms, d1.asDiagonal() * p.q, d2, false,
                   "diagonal scaling " + std::to_string(r));
    }
    if (n <= 4 && k % 4 == 0) {  // classification: exponential, so a subset
      const MatrixClass c = classify_matrix(p.m);
      Vector d(n);
      for (int i = 0; i < n; ++i) d(i) = std::pow(10.0, g.uniform(-8, 8));
      for (const Matrix& ms : {Matrix(1e-10 * p.m), Matrix(1e10 * p.m),
                               Matrix(d.asDiagonal() * p.m * d.asDiagonal())}) {
        const MatrixClass cs = classify_matrix(ms);
        EXPECT_EQ(cs.p_matrix, c.p_matrix);
        EXPECT_EQ(cs.positive_definite, c.positive_definite);
        EXPECT_EQ(cs.positive_semidefinite, c.positive_semidefinite);
        EXPECT_EQ(cs.copositive, c.copositive);
        EXPECT_EQ(cs.strictly_copositive, c.strictly_copositive);
        EXPECT_EQ(cs.copositive_plus, c.copositive_plus);
      }
      if (kind == Kind::P || kind == Kind::Degenerate) {
        EXPECT_EQ(c.p_matrix, Decision::Yes);
      }
      if (kind == Kind::CopositivePlus) {
        EXPECT_NE(c.copositive_plus, Decision::No);
      }
    }
    if (::testing::Test::HasFailure()) break;  // one detailed failure is enough
  }
  return tally;
}

TEST(LcpScalingProperty, PMatrices) {
  check_class(Kind::P, 11);
}

TEST(LcpScalingProperty, SymmetricPositiveDefinite) {
  check_class(Kind::SymmetricPositiveDefinite, 12);
}

TEST(LcpScalingProperty, CopositivePlusWithAndWithoutSolutions) {
  const Tally t = check_class(Kind::CopositivePlus, 13);
  EXPECT_GT(t.none, 0);
  EXPECT_GT(t.several, 0);
}

TEST(LcpScalingProperty, DegenerateWithTies) {
  check_class(Kind::Degenerate, 14);
}

TEST(LcpScalingProperty, GeneralWithNoneAndSeveralSolutions) {
  const Tally t = check_class(Kind::General, 15);
  EXPECT_GT(t.none, 0);
  EXPECT_GT(t.several, 0);
}

}  // namespace
}  // namespace saltus::lcp
