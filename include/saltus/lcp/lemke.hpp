// Lemke's complementary pivoting method for LCP(M, q): w = M z + q, 0 <= w perp z >= 0.
//
// Source: C. E. Lemke, "Bimatrix equilibrium points and mathematical programming",
// Management Science 11 (1965); Cottle, Pang & Stone, "The Linear Complementarity Problem"
// (1992), Sec. 4.4 (Algorithm 4.4.5, scheme I with covering vector d = e), Sec. 4.9
// (lexicographic degeneracy resolution). Used for the contact LCPs of [LB] (2.9)-(2.10) and
// (2.17)-(2.18); FORMULAS.md sections 10.3-10.4.
//
// Scaling: the problem is first equilibrated (lcp_scaling.hpp) and every tolerance is relative
// to the equilibrated data, so M = [[1e12]] and M = [[1]] take the same pivots. Every answer is
// certified on the caller's data (certified_residual, lcp.hpp) before it is called Solved.
//
// Method: augment to w = M z + d z0 + q with d = (1, ..., 1). Start from the basis of all w,
// bring z0 in at the row of the most negative q_i, then repeatedly bring in the complement of
// the variable that just left, choosing the leaving row by the minimum-ratio test. Stop when
// z0 leaves (solution) or the entering column has no positive entry (secondary ray).
//
// Degeneracy: ties in the ratio test are broken lexicographically on the rows of
// (B^-1 q, B^-1) divided by the pivot column (B^-1 is read from the tableau columns of the
// w variables, which start as the identity). Every row of that matrix stays lexicographically
// positive, so no basis repeats and the method cannot cycle (Cottle-Pang-Stone Sec. 4.9). If
// z0's row is among the tied rows it is chosen (that ends the run). The textbook rule
// "first tied row", kept as LemkeTieBreak::FirstRow for tests, may cycle.
//
// Where Lemke's answer is a proof (Cottle-Pang-Stone Sec. 4.4): for a P-matrix it
// always ends in the unique solution; for a copositive-plus M a secondary ray proves that no
// solution exists. For other M a ray proves nothing: use lcp_enumeration.hpp (small n).
//
// Cost: each pivot is a rank-one update of the n x (2n + 2) tableau, at most 2 n (2n + 2)
// flops (for n > 4 columns whose pivot-row entry is zero are skipped); typically O(n)
// pivots. Sizes n <= 8 (contact sets) run code compiled for their size. Equilibration and the
// certificate add O(n^2) each (bench/run_lcp_bench.sh, docs/benchmarks_lcp.md). The workspace is
// sized once; repeated solves of the same size do not allocate (tests/lcp/lemke_test.cpp). Only a
// failure message allocates.
//
// Symbol table (book -> code):
//   M, q, z, w        -> matrix, q, solution.z, solution.w
//   z0, d             -> artificial variable (tableau column 2n), covering vector (all ones)
//   B^-1              -> tableau columns 0..n-1 (those of w)
//   alpha = {i: z_i basic} -> rows whose basis entry is in [n, 2n)
#pragma once

#include <vector>

#include "saltus/core/types.hpp"
#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_scaling.hpp"
#include "saltus/lcp/matrix_classes.hpp"

namespace saltus::lcp {

// How ties in Lemke's minimum-ratio test are broken.
enum class LemkeTieBreak {
  Lexicographic,  // default; cannot cycle (see the file comment)
  FirstRow,       // textbook rule: the first tied row; may cycle on degenerate problems
};

struct LemkeOptions {
  // Pivots before the run ends with LcpStatus::PivotCap. 0: automatic, 50 (n + 1). The
  // lexicographic rule terminates without a cap; the cap guards against rounding.
  int max_pivots = 0;
  // A tableau entry a_i of the entering column may be a pivot when
  // a_i > pivot_tolerance * max_i |a_i|; a column whose max_i |a_i| is <= pivot_tolerance *
  // max|B^-1| * max|original column| (the size of its rounding) counts as zero (secondary
  // ray). Both are relative: the units of M do not matter.
  double pivot_tolerance = 1e-12;
  // Two ratios r1 <= r2 tie when r2 - r1 <= tie_tolerance * (1 + |r1|); on the equilibrated
  // data max |q'_i| is in [1, 2), so the 1 is the size of q, not an absolute floor.
  double tie_tolerance = 1e-12;
  // certified_residual (lcp.hpp; scale-invariant) above which a complementary basis ends
  // LcpStatus::Inaccurate instead of Solved.
  double residual_tolerance = 1e-9;
  // At the end, re-solve M_aa z_a = -q_a (a = basic z) by LU with partial pivoting and keep
  // it if its certificate is not worse: removes pivoting round-off.
  bool refine = true;
  // Pivot on the equilibrated problem D M D, D q / s (lcp_scaling.hpp; exact powers of two)
  // and map z back. This is Lemke on (M, q) with the covering vector d = (s D)^-1 e > 0, for
  // which the theorems quoted above hold as for d = e. Off: pivot on M, q as given.
  bool equilibrate = true;
  LemkeTieBreak tie_break = LemkeTieBreak::Lexicographic;
};

// Throws saltus::Error naming the field, value and rule when an option is invalid.
void validate(const LemkeOptions& options);

// Scratch and result of solve_lemke for one problem size n; sized by the constructor or
// resize(), never inside solve_lemke for a matching n. One per thread.
struct LemkeWorkspace {
  explicit LemkeWorkspace(int n = 0) { resize(n); }
  void resize(int n);
  int size() const { return n_; }

  // Written by solve_lemke; valid until the next call.
  Matrix tableau;                // n x (2n + 2): [w | z | z0 | rhs]
  std::vector<int> basis;        // n: variable basic in each row (w_i: i, z_i: n + i, z0: 2n)
  Vector column;                 // n: copy of the entering column (n > 4; else on the stack)
  std::vector<int> ties;         // n: scratch for tie breaking (n > 8; n <= 8: on the stack)
  Matrix lu;                     // n x n: refinement LU of M_aa
  Vector rhs;                    // n: refinement right-hand side
  Vector z_refined;              // n: refined candidate
  std::vector<int> index;        // n: a (basic z indices)
  std::vector<int> permutation;  // n: LU row permutation
  LcpScaling scaling;            // D and s of the equilibration
  Matrix scaled_matrix;          // n x n: D M D
  Vector scaled_q;               // n: D q / s
  Vector row_magnitude;          // n: certificate scratch (n > 8; n <= 8: on the stack)
  Vector ratio;                  // n: ratio-test quotients (n > 8; n <= 8: on the stack)
  Vector column_max;             // n: max |M'_ij| per column j
  Vector binv_column_max;        // n: max |(B^-1)_ij| per column j (n > 4)
  LcpSolution solution;          // the result

 private:
  int n_ = 0;
};

// Solves LCP(M, q) by Lemke's method into ws.solution and returns it. Throws saltus::Error for
// bad input (non-square M, size mismatch with q or with ws.size(), non-finite entries, invalid
// options). Run outcomes (ray, cap, inaccurate) are statuses with a message, not exceptions.
const LcpSolution& solve_lemke(ConstMatrixRef matrix, ConstVectorRef q, LemkeWorkspace& ws,
                               const LemkeOptions& options = {});

// Convenience overload with its own workspace (allocates).
LcpSolution solve_lemke(ConstMatrixRef matrix, ConstVectorRef q, const LemkeOptions& options = {});

// True when `solution` (from solve_lemke on M) proves that LCP(M, q) has no solution: a
// secondary ray on an M that classify_matrix found copositive-plus for certain (Decision::Yes,
// decided on the equilibrated M; Undecided proves nothing). Cottle-Pang-Stone Sec. 4.4, for
// any positive covering vector, so the equilibration does not weaken it.
bool proves_no_solution(const LcpSolution& solution, const MatrixClass& classes);

}  // namespace saltus::lcp
