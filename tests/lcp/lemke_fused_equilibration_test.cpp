// solve_lemke for n <= 8 equilibrates a problem that needs no Ruiz sweep inside Lemke's
// tableau set-up (src/lcp/lemke.cpp, LemkeRun::set_up<true>; the factors from
// src/lcp/lcp_balanced_scaling.hpp) instead of calling equilibrate_lcp first. That fusion must
// change no bit: on seeded random problems, n = 1..8, solve_lemke is compared with
// solve_lemke_unfused_path (the same compile-time-size code, every problem through
// equilibrate_lcp) on everything the caller can read, bit for bit: status, pivots, message, z,
// w, the certified residual, and the workspace's scaling (R, C, s, sweeps) and scaled copy
// (M', q'). Problems: well scaled (diagonally dominant SPD, P-matrices, degenerate small
// integers, indefinite: rays too), badly scaled copies (they take the sweeps in both), and
// extreme magnitudes (M times 2^+-(50..1000), q with subnormal and zero entries, q = 0), where
// the order of the products p q_i and 1 / s matters. Both paths must occur often.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "lcp/lcp_general_paths.hpp"
#include "lcp/lcp_test_problems.hpp"
#include "saltus/lcp/lemke.hpp"

namespace saltus::lcp {
namespace {

using lcp_problems::diagonally_dominant;
using lcp_problems::Generator;

constexpr int kProblemsPerSize = 1200;  // x 8 sizes

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Bit-for-bit equality of two matrices or vectors (NaN payloads and the sign of zero
// included).
template <class A, class B>
bool same_entry_bits(const A& a, const B& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      if (!same_bits(a(i, j), b(i, j))) return false;
    }
  }
  return true;
}

// Problem k of size n; the class cycles with k.
void make_problem(Generator& g, int n, int k, Matrix& m, Vector& q) {
  q = g.matrix(n, 1, -1.0, 1.0);
  switch (k % 5) {
    case 0:
      m = diagonally_dominant(g, n, 0.1);
      break;
    case 1:
      m = lcp_problems::p_matrix(g, n, k / 5);
      break;
    case 2:
      m = lcp_problems::small_integer_p_matrix(g, n, k / 5);
      q = lcp_problems::small_integer_q(g, n);
      break;
    case 3:
      m = g.matrix(n, n, -1.0, 1.0);  // indefinite: rays and solutions
      break;
    default:
      m = lcp_problems::symmetric_positive_definite(g, n);
      break;
  }
  switch (k % 7) {
    case 0: {  // badly scaled: the Ruiz sweeps, in both paths
      Vector d1(n), d2(n);
      for (int i = 0; i < n; ++i) {
        d1(i) = std::pow(10.0, g.uniform(-6, 6));
        d2(i) = std::pow(10.0, g.uniform(-6, 6));
      }
      m = d1.asDiagonal() * m * d2.asDiagonal();
      q = d1.asDiagonal() * q;
      break;
    }
    case 1: {  // extreme but balanced: p far from 1, some q_i subnormal or zero
      const int e = g.integer(50, 1000) * (g.integer(0, 1) == 0 ? 1 : -1);
      m *= std::ldexp(1.0, e);
      for (int i = 0; i < n; ++i) {
        const int kind = g.integer(0, 3);
        if (kind == 0) q(i) = std::ldexp(q(i), -1060);  // subnormal
        if (kind == 1) q(i) = 0.0;
        if (kind == 2) q(i) = std::ldexp(q(i), g.integer(-1000, 1000));
      }
      break;
    }
    case 2:
      q.setZero();
      break;
    default:
      break;
  }
}

TEST(LemkeFusedEquilibration, SameBitsAsEquilibratingFirst) {
  Generator g(20261127);
  int fused = 0, swept = 0, solved = 0, rays = 0, compared = 0;
  for (int n = 1; n <= 8; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    LemkeWorkspace ws(n), reference(n);
    Matrix m;
    Vector q;
    for (int k = 0; k < kProblemsPerSize; ++k) {
      make_problem(g, n, k, m, q);
      SCOPED_TRACE("k = " + std::to_string(k));
      const LcpSolution& a = solve_lemke(m, q, ws);
      const LcpSolution& b = solve_lemke_unfused_path(m, q, reference);
      ASSERT_EQ(a.status, b.status) << a.message << " | " << b.message;
      ASSERT_EQ(a.pivots, b.pivots);
      ASSERT_EQ(a.message, b.message);
      ASSERT_TRUE(same_entry_bits(a.z, b.z)) << a.z.transpose() << " | " << b.z.transpose();
      ASSERT_TRUE(same_entry_bits(a.w, b.w)) << a.w.transpose() << " | " << b.w.transpose();
      ASSERT_TRUE(same_bits(a.residual, b.residual)) << a.residual << " | " << b.residual;
      ASSERT_EQ(ws.scaling.iterations, reference.scaling.iterations);
      ASSERT_TRUE(same_entry_bits(ws.scaling.row, reference.scaling.row));
      ASSERT_TRUE(same_entry_bits(ws.scaling.column, reference.scaling.column));
      ASSERT_TRUE(same_bits(ws.scaling.q_scale, reference.scaling.q_scale));
      ASSERT_TRUE(same_entry_bits(ws.scaled_matrix, reference.scaled_matrix));
      ASSERT_TRUE(same_entry_bits(ws.scaled_q, reference.scaled_q))
          << ws.scaled_q.transpose() << " | " << reference.scaled_q.transpose();
      ++compared;
      (ws.scaling.iterations == 0 ? fused : swept) += 1;
      solved += a.status == LcpStatus::Solved ? 1 : 0;
      rays += a.status == LcpStatus::RayTermination ? 1 : 0;
    }
  }
  // Both ways through the equilibration, and both outcomes, occur often.
  EXPECT_GT(fused, compared / 2);
  EXPECT_GT(swept, compared / 10);
  EXPECT_GT(solved, compared / 2);
  EXPECT_GT(rays, compared / 50);
  std::printf(
      "fused vs unfused Lemke: %d compared (%d without sweeps, %d with), %d solved, %d rays\n",
      compared, fused, swept, solved, rays);
}

}  // namespace
}  // namespace saltus::lcp
