// solve_lemke's compile-time-size code for n <= 8 (unrolled loops; for n <= 4 the pivot that
// updates every column without a branch; the balanced shortcut of the equilibration in
// registers; the input checks in their cheap form) against the run-time-size code of the same
// implementation (solve_lemke_general_path, src/lcp/lcp_general_paths.hpp), on seeded random
// problems, n = 1..8: well scaled (diagonally dominant SPD, P-matrices), badly scaled
// (D1 M D2, D1 q with D1, D2 spanning 2^+-20, and non-powers of two), degenerate (small
// integers with ties and zeros in q), and problems without a solution or on which Lemke ends
// on a ray (skew-symmetric and other copositive-plus, random indefinite). Both paths must
// agree on everything the caller reads: status, pivots, z and w, the certified residual and
// so the verdict (Solved or Inaccurate). The arithmetic is the same operation by operation
// (the branch-free pivot changes only the sign of zeros), so z agrees to 1e-13 relative to
// ||z||_inf; both outcomes (solved and ray) must occur. Also: non-finite input is rejected by
// the cheap check with check_lcp_input's message, whatever the entry, and huge finite input is
// not.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "lcp/lcp_general_paths.hpp"
#include "lcp/lcp_test_problems.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lcp/lemke.hpp"

namespace saltus::lcp {
namespace {

using lcp_problems::diagonally_dominant;
using lcp_problems::Generator;

constexpr int kProblemsPerSize = 1500;  // x 8 sizes x 2 option sets = 24000 comparisons
constexpr double kSameZ = 1e-13;

// Problem k of size n: the class cycles with k, a third of them badly scaled.
void make_problem(Generator& g, int n, int k, Matrix& m, Vector& q) {
  q = g.matrix(n, 1, -1.0, 1.0);
  switch (k % 6) {
    case 0:
      m = diagonally_dominant(g, n, 0.1);
      break;
    case 1:
      m = lcp_problems::p_matrix(g, n, k / 6);
      break;
    case 2:
      m = lcp_problems::small_integer_p_matrix(g, n, k / 6);
      q = lcp_problems::small_integer_q(g, n);
      break;
    case 3:
      m = lcp_problems::copositive_plus(g, n, k / 6);
      break;
    case 4:
      m = g.matrix(n, n, -1.0, 1.0);  // indefinite: rays and solutions
      break;
    default:
      m = lcp_problems::symmetric_positive_definite(g, n);
      q(g.integer(0, n - 1)) = 0.0;
      break;
  }
  if (k % 3 == 0) {
    Vector d1(n), d2(n);
    for (int i = 0; i < n; ++i) {
      const bool power_of_two = k % 2 == 0;
      d1(i) = power_of_two ? std::ldexp(1.0, g.integer(-20, 20)) : std::pow(10.0, g.uniform(-6, 6));
      d2(i) = power_of_two ? std::ldexp(1.0, g.integer(-20, 20)) : std::pow(10.0, g.uniform(-6, 6));
    }
    m = d1.asDiagonal() * m * d2.asDiagonal();
    q = d1.asDiagonal() * q;
  }
}

double relative_difference(const Vector& a, const Vector& b) {
  const double size = std::max({a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), 1e-300});
  return (a - b).cwiseAbs().maxCoeff() / size;
}

TEST(LemkeSizedPaths, CompileTimeSizesAgreeWithTheGeneralCode) {
  Generator g(20261126);
  int solved = 0, rays = 0, inaccurate = 0, swept = 0, bit_identical = 0, compared = 0;
  for (int n = 1; n <= 8; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    LemkeWorkspace sized(n), general(n);
    Matrix m;
    Vector q;
    for (int k = 0; k < kProblemsPerSize; ++k) {
      make_problem(g, n, k, m, q);
      for (const bool equilibrate : {true, false}) {
        LemkeOptions o;
        o.equilibrate = equilibrate;
        const LcpSolution& a = solve_lemke(m, q, sized, o);
        const int a_sweeps = sized.scaling.iterations;
        const LcpSolution& b = solve_lemke_general_path(m, q, general, o);
        SCOPED_TRACE("k = " + std::to_string(k) + ", equilibrate = " + std::to_string(equilibrate));
        ASSERT_EQ(a.status, b.status) << a.message << " | " << b.message;
        ASSERT_EQ(a.pivots, b.pivots);
        ASSERT_EQ(a.is_solution(), b.is_solution());
        EXPECT_LE(relative_difference(a.z, b.z), kSameZ);
        EXPECT_LE(relative_difference(a.w, b.w), kSameZ);
        EXPECT_NEAR(a.residual, b.residual, 1e-14);
        EXPECT_EQ(a.message.empty(), b.message.empty());
        if (equilibrate) {
          EXPECT_EQ(a_sweeps, general.scaling.iterations);
          swept += a_sweeps > 0 ? 1 : 0;
        }
        ++compared;
        bit_identical += a.z == b.z ? 1 : 0;
        solved += a.status == LcpStatus::Solved ? 1 : 0;
        rays += a.status == LcpStatus::RayTermination ? 1 : 0;
        inaccurate += a.status == LcpStatus::Inaccurate ? 1 : 0;
      }
    }
  }
  // Every outcome the fast code can take is exercised: solutions, rays, the shortcut and the
  // Ruiz sweeps.
  EXPECT_GT(solved, compared / 2);
  EXPECT_GT(rays, compared / 50);
  EXPECT_GT(swept, compared / 10);
  RecordProperty("compared", compared);
  RecordProperty("bit_identical_z", bit_identical);
  RecordProperty("inaccurate", inaccurate);
  std::printf(
      "sized vs general Lemke: %d compared, %d solved, %d rays, %d inaccurate, %d with "
      "Ruiz sweeps, %d bit-identical z\n",
      compared, solved, rays, inaccurate, swept, bit_identical);
}

TEST(LemkeSizedPaths, NonFiniteInputIsRejectedWithTheEntryNamed) {
  Generator g(7);
  const auto message_of = [](const auto& f) { return lcp_problems::error_message(f); };
  const double bad_values[] = {std::numeric_limits<double>::quiet_NaN(), kInfinity, -kInfinity};
  for (int n = 1; n <= 10; ++n) {
    LemkeWorkspace ws(n);
    for (int k = 0; k < 60; ++k) {
      Matrix m = diagonally_dominant(g, n, 0.1);
      Vector q = g.matrix(n, 1, -1.0, 1.0);
      const double bad = bad_values[k % 3];
      const int i = g.integer(0, n - 1), j = g.integer(0, n - 1);
      std::string expected;
      if (k % 2 == 0) {
        m(i, j) = bad;
        expected = "M(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      } else {
        q(i) = bad;
        expected = "q(" + std::to_string(i) + ")";
      }
      EXPECT_NE(message_of([&] { solve_lemke(m, q, ws); }).find(expected), std::string::npos)
          << "n = " << n << ", k = " << k;
      EXPECT_NE(message_of([&] { solve_lemke_general_path(m, q, ws); }).find(expected),
                std::string::npos);
    }
    // Huge but finite entries pass the check (and the equilibration brings them to 1).
    Matrix m = diagonally_dominant(g, n, 0.1) * 1e300;
    const Vector q = g.matrix(n, 1, -1.0, 1.0) * 1e300;
    EXPECT_EQ(solve_lemke(m, q, ws).status, LcpStatus::Solved) << "n = " << n;
  }
}

}  // namespace
}  // namespace saltus::lcp
