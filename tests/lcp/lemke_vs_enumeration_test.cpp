// Lemke against exhaustive enumeration on 10^4 random problems per class (fixed seeds):
//   P-matrices (not necessarily PD), symmetric positive definite, copositive-plus (PSD with a
//   skew part, singular symmetric part; and nonnegative with positive diagonal, i.e. strictly
//   copositive; and skew-symmetric), degenerate (small integers, ties and zeros in q).
// Agreement means: for P / SPD / degenerate-P problems enumeration finds exactly one solution
// and Lemke returns it (|dz|_inf <= 1e-9 (1 + |z|_inf)); for copositive-plus problems Lemke
// solves iff enumeration finds a solution, and Lemke's point is one of the enumerated ones.
// Sizes n = 1..7. The generator draws doubles from raw 64-bit words (portable).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "lcp/lcp_test_problems.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"
#include "saltus/lcp/matrix_classes.hpp"

namespace saltus::lcp {
namespace {

constexpr int kProblemsPerClass = 10000;

using lcp_problems::Generator;
using lcp_problems::p_matrix;

struct Tally {
  int solved = 0;
  int no_solution = 0;
  int several = 0;
  int continua = 0;
  int max_pivots = 0;
};

bool same_point(const Vector& a, const Vector& b) {
  return (a - b).cwiseAbs().maxCoeff() <= 1e-9 * (1.0 + a.cwiseAbs().maxCoeff());
}

// Runs one class; `unique` says whether the class guarantees exactly one solution.
Tally cross_check(const std::string& name, std::uint64_t seed, bool unique,
                  const std::function<void(Generator&, int, int, Matrix&, Vector&)>& make) {
  Generator g(seed);
  Tally t;
  std::vector<LemkeWorkspace> ws;
  for (int n = 0; n <= 7; ++n) ws.emplace_back(n);
  for (int k = 0; k < kProblemsPerClass; ++k) {
    const int n = 1 + k % 7;
    Matrix m;
    Vector q;
    make(g, n, k, m, q);
    const LcpSolution& s = solve_lemke(m, q, ws[static_cast<std::size_t>(n)]);
    const LcpEnumerationResult e = enumerate_lcp_solutions(m, q);
    SCOPED_TRACE(name + " problem " + std::to_string(k) + " n = " + std::to_string(n));
    EXPECT_NE(s.status, LcpStatus::PivotCap) << s.message;
    EXPECT_NE(s.status, LcpStatus::Inaccurate) << s.message;
    t.max_pivots = std::max(t.max_pivots, s.pivots);
    for (const auto& sol : e.solutions) {
      Vector w;
      EXPECT_LE(natural_residual(m, q, sol.z, w), 1e-9);
    }
    if (unique) {
      EXPECT_EQ(e.solutions.size(), 1u);
      EXPECT_TRUE(e.singular_faces.empty());
    }
    if (!e.singular_faces.empty()) ++t.continua;
    if (e.solutions.size() > 1) ++t.several;
    if (!e.has_solution()) {
      ++t.no_solution;
      EXPECT_EQ(s.status, LcpStatus::RayTermination);
      continue;
    }
    EXPECT_EQ(s.status, LcpStatus::Solved) << s.message;
    if (s.status != LcpStatus::Solved) continue;
    ++t.solved;
    bool found = false;
    for (const auto& sol : e.solutions) found = found || same_point(sol.z, s.z);
    EXPECT_TRUE(found) << "Lemke's z = " << s.z.transpose() << " is not an enumerated solution";
    if (::testing::Test::HasFailure()) break;  // one detailed failure is enough
  }
  return t;
}

TEST(LemkeVsEnumeration, PMatrices) {
  const Tally t = cross_check("P", 1, true, [](Generator& g, int n, int k, Matrix& m, Vector& q) {
    m = p_matrix(g, n, k);
    q = g.matrix(n, 1, -1, 1);
  });
  EXPECT_EQ(t.solved, kProblemsPerClass);
  RecordProperty("max_pivots", t.max_pivots);
}

TEST(LemkeVsEnumeration, SymmetricPositiveDefinite) {
  const Tally t = cross_check("SPD", 2, true, [](Generator& g, int n, int, Matrix& m, Vector& q) {
    m = lcp_problems::symmetric_positive_definite(g, n);
    q = g.matrix(n, 1, -1, 1);
  });
  EXPECT_EQ(t.solved, kProblemsPerClass);
}

TEST(LemkeVsEnumeration, CopositivePlus) {
  const auto make = [](Generator& g, int n, int k, Matrix& m, Vector& q) {
    m = lcp_problems::copositive_plus(g, n, k);
    q = g.matrix(n, 1, -1, 1);
  };
  const Tally t = cross_check("copositive-plus", 3, false, make);
  // The class must exercise the interesting cases: no solution, several, continua.
  EXPECT_GT(t.no_solution, 0);
  EXPECT_GT(t.several, 0);
  EXPECT_EQ(t.solved + t.no_solution, kProblemsPerClass);
  RecordProperty("no_solution", t.no_solution);
  RecordProperty("several", t.several);
  RecordProperty("continua", t.continua);
}

TEST(LemkeVsEnumeration, DegenerateWithTiesInQ) {
  const Tally t =
      cross_check("degenerate", 4, true, [](Generator& g, int n, int k, Matrix& m, Vector& q) {
        m = lcp_problems::small_integer_p_matrix(g, n, k);
        q = lcp_problems::small_integer_q(g, n);
      });
  EXPECT_EQ(t.solved, kProblemsPerClass);
}

TEST(LemkeVsEnumeration, GeneratorsProduceTheirClass) {
  // Spot check of the generators with the (exponential) classifiers.
  Generator g(5);
  for (int k = 0; k < 200; ++k) {
    const int n = 1 + k % 6;
    EXPECT_EQ(is_p_matrix(p_matrix(g, n, k)), Decision::Yes);
  }
}

}  // namespace
}  // namespace saltus::lcp
