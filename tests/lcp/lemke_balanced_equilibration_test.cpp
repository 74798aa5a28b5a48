// The equilibration's shortcut for problems that need no Ruiz sweep (lcp_scaling.cpp,
// already_balanced): seeded random problems, n = 1..10 (the compile-time sizes 1..8 and the
// general code), well scaled (the shortcut) and the same problems made badly scaled by random
// powers of two D1 M D2, D1 q (the sweeps). Checked: the shortcut's output is what the general
// formulas give for R = C = I (a common power of two bringing max |M'| into [1/2, 2], exact
// copies), Lemke through it gives the z of Lemke without equilibration, and Lemke on the badly
// scaled copy gives the closed-form z~ = D2^-1 z (both to 1e-12 relative to ||z||_inf: the
// matrices are diagonally dominant and SPD, condition below about 100, so solutions carry
// errors near 100 n eps ~ 2e-13).
#include <gtest/gtest.h>

#include <cmath>

#include "lcp/lcp_test_problems.hpp"
#include "saltus/lcp/lcp_scaling.hpp"
#include "saltus/lcp/lemke.hpp"

namespace saltus::lcp {
namespace {

using lcp_problems::diagonally_dominant;
using lcp_problems::Generator;

constexpr int kProblemsPerSize = 400;
constexpr double kSameZ = 1e-12;

bool is_power_of_two(double x) {
  int e = 0;
  return x > 0.0 && std::frexp(x, &e) == 0.5;
}

double relative_difference(const Vector& a, const Vector& b) {
  const double size = std::max({a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), 1e-300});
  return (a - b).cwiseAbs().maxCoeff() / size;
}

TEST(LemkeBalancedEquilibration, ShortcutMatchesTheGeneralFormulasAndTheSweeps) {
  Generator g(20261126);
  LemkeOptions unequilibrated;
  unequilibrated.equilibrate = false;
  for (int n = 1; n <= 10; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    LemkeWorkspace ws(n), reference_ws(n);
    int shortcut = 0, swept = 0;
    for (int k = 0; k < kProblemsPerSize; ++k) {
      const Matrix m = diagonally_dominant(g, n, 0.5);
      const Vector q = g.matrix(n, 1, -1.0, 1.0);

      const LcpSolution& s = solve_lemke(m, q, ws);
      ASSERT_EQ(s.status, LcpStatus::Solved) << s.message;
      const Vector z = s.z;
      if (ws.scaling.iterations == 0) {
        ++shortcut;
        // R = p I with p a power of two, C = I; M' = p M, q' = p q / s exactly.
        const double p = ws.scaling.row(0);
        ASSERT_TRUE(is_power_of_two(p)) << p;
        for (int i = 0; i < n; ++i) {
          ASSERT_EQ(ws.scaling.row(i), p);
          ASSERT_EQ(ws.scaling.column(i), 1.0);
        }
        const double mmax = ws.scaled_matrix.cwiseAbs().maxCoeff();
        EXPECT_GE(mmax, 0.5);
        EXPECT_LE(mmax, 2.0);
        for (int j = 0; j < n; ++j) {
          for (int i = 0; i < n; ++i) ASSERT_EQ(ws.scaled_matrix(i, j), p * m(i, j));
        }
        ASSERT_TRUE(is_power_of_two(ws.scaling.q_scale));
        for (int i = 0; i < n; ++i) ASSERT_EQ(ws.scaled_q(i), p * q(i) / ws.scaling.q_scale);
        const double qmax = ws.scaled_q.cwiseAbs().maxCoeff();
        EXPECT_GE(qmax, 1.0);
        EXPECT_LT(qmax, 2.0);
        // Lemke through the shortcut and Lemke on the data as given: the unique solution.
        const LcpSolution& r = solve_lemke(m, q, reference_ws, unequilibrated);
        ASSERT_EQ(r.status, LcpStatus::Solved) << r.message;
        EXPECT_LE(relative_difference(z, r.z), kSameZ) << "k = " << k;
      }

      // Badly scaled copy: D1 M D2, D1 q with powers of two in [2^-20, 2^20] (exact), whose
      // unique solution is D2^-1 z.
      Vector d1(n), d2(n);
      for (int i = 0; i < n; ++i) {
        d1(i) = std::ldexp(1.0, g.integer(-20, 20));
        d2(i) = std::ldexp(1.0, g.integer(-20, 20));
      }
      const Matrix ms = d1.asDiagonal() * m * d2.asDiagonal();
      const Vector qs = d1.asDiagonal() * q;
      const LcpSolution& t = solve_lemke(ms, qs, ws);
      ASSERT_EQ(t.status, LcpStatus::Solved) << t.message;
      if (ws.scaling.iterations > 0) ++swept;
      const Vector mapped = d2.asDiagonal() * t.z;
      EXPECT_LE(relative_difference(mapped, z), kSameZ) << "k = " << k;
    }
    // Both paths are exercised: well-scaled problems mostly take the shortcut, the scaled
    // copies the sweeps (except n = 1, where one row norm is also the column norm).
    EXPECT_GE(shortcut, kProblemsPerSize * 3 / 4);
    if (n > 1) {
      EXPECT_GE(swept, kProblemsPerSize * 3 / 4);
    }
  }
}

}  // namespace
}  // namespace saltus::lcp
