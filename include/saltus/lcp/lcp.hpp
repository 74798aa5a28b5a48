// The linear complementarity problem LCP(M, q) and the result type its solvers share.
//
// Source: [LB] Sec. 2 (the contact problems (2.9)-(2.10) and (2.17)-(2.18) are LCPs);
// FORMULAS.md sections 10.3-10.4. Standard form (Cottle, Pang & Stone, "The Linear
// Complementarity Problem", 1992, Sec. 1.1):
//
//     find z in R^n with   w = M z + q,   0 <= w  perp  z >= 0,
//
// i.e. w >= 0, z >= 0 and w_i z_i = 0 for every i.
//
// Assumptions: dense M (the contact problems are small and dense); no structure of M is
// assumed here: what is known about M lives in matrix_classes.hpp.
//
// Symbol table (paper / book -> code):
//   M, q, z, w        -> matrix, q, z, w (names kept; M is `matrix` in the solution)
//   ||min(z, w)||_inf -> natural_residual(): zero exactly at a solution
//   r_i, omega_i, c_i -> certified_residual(): the scale-invariant certificate below
//
// Certificate (what "solved" means for every solver here). For z, with w = M z + q,
//   r_i     = |q_i| + sum_j |M_ij| |z_j|           (row magnitude: what w_i is a sum of)
//   omega_i = w_i / r_i                            (0 where r_i = 0; |omega_i| <= 1)
//   c_j     = |z_j| max_i |M_ij| / r_i             (how much z_j moves any w; 1 if column j
//                                                   of M is zero and z_j != 0; c_j <= 1)
// and the residual is the largest of  max(0, -omega_i),  c_i for z_i < 0,  min(c_i, |omega_i|).
// It is zero exactly at a solution, lies in [0, 1], and does not change when M and q are
// multiplied by a positive number or M -> D1 M D2, q -> D1 q, z -> D2^-1 z with positive
// diagonal D1, D2: a solution is judged against its own data, not against absolute floors.
// Rounding in M z + q is about n * 1e-16 of it; a residual_tolerance of 1e-9 leaves room for
// the conditioning of the basis.
#pragma once

#include <string>
#include <string_view>

#include "saltus/core/types.hpp"

namespace saltus::lcp {

// How an LCP solve ended. Each value says what LcpSolution::z holds.
enum class LcpStatus {
  NotRun,          // nothing solved yet; z and w are empty
  Solved,          // z solves the LCP: certified_residual within the solver's tolerance
  RayTermination,  // Lemke stopped on a secondary ray: no solution was found. When
                   // classify_matrix(M).copositive_plus is Decision::Yes this proves that no
                   // solution exists (Cottle-Pang-Stone Sec. 4.4); otherwise it proves nothing.
                   // z holds the last basis.
  PivotCap,        // the pivot cap was reached (message gives cap and size); z is not a solution
  Inaccurate,      // Lemke ended in a complementary basis but certified_residual exceeds the
                   // tolerance (message gives both); z is the best point found, not a solution
};

std::string_view to_string(LcpStatus status);

// Result of one LCP solve. Sentinels say "not run" until a solver writes it.
struct LcpSolution {
  LcpStatus status = LcpStatus::NotRun;
  Vector z;                // n: the unknown (forces, impulses)
  Vector w;                // n: M z + q, recomputed from z at the end
  int pivots = -1;         // pivots performed (-1: not run)
  double residual = kNaN;  // certified_residual(M, q, z): scale-invariant, in [0, 1]
  std::string message;     // empty when Solved; otherwise what failed, cap/size/value
  bool is_solution() const { return status == LcpStatus::Solved; }
};

// Throws saltus::Error when M is not square, q does not match, or an entry is not finite.
// `who` names the caller in the message ("Lemke", "LCP enumeration").
void check_lcp_input(ConstMatrixRef matrix, ConstVectorRef q, std::string_view who);

// ||min(z, M z + q)||_inf / (1 + ||q||_inf): the natural residual, zero exactly at a
// solution. Depends on the units of M and q (the "1 +"); certified_residual does not.
// Computes w into `w` (resized if needed).
double natural_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w);

// The certificate of the file comment; computes w = M z + q into `w` (resized if needed, so
// no allocation for a sized w). Returns +infinity when M z + q overflows or is not finite.
double certified_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w);
// Same, with 1 / r_i (0 where r_i = 0) written into `inverse_row_magnitude` (no allocation
// when both vectors already have size n).
double certified_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w,
                          Vector& inverse_row_magnitude);

}  // namespace saltus::lcp
