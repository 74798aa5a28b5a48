// Equilibration of LCP(M, q) by positive diagonal scalings, so that the solvers' tolerances
// are relative to the data whatever its units.
//
// Source: D. Ruiz, "A scaling algorithm to equilibrate both rows and columns norms in
// matrices", RAL-TR-2001-034 (2001), Sec. 2 (sweeps r_i <- r_i / sqrt(max-norm of row i),
// c_j <- c_j / sqrt(max-norm of column j)); the LCP's invariance under it: Cottle, Pang &
// Stone, "The Linear Complementarity Problem" (1992), Sec. 1.1.
//
// Two-sided, for the solvers. With R = diag(row), C = diag(column) > 0 and s > 0,
//     M' = R M C,   q' = R q / s,   z = s C z',   w = s R^-1 w',
// and z solves LCP(M, q) iff z' solves LCP(M', q'): the solution set maps exactly. Lemke on
// (M', q') with covering vector e is Lemke on (M, q) with covering vector R^-1 e > 0 (the
// tableaux differ by row and column factors only), so its theorems for P-matrices and
// copositive-plus M hold for the original M.
//
// Symmetric, for the classification (equilibrate_matrix): R = C = D, a congruence D M D, which
// keeps every class that matters: symmetric, positive (semi)definite, P-matrix, copositive,
// strictly copositive, copositive-plus (x >= 0 iff D x >= 0). A two-sided R M C keeps the
// P-matrix property but not copositivity.
//
// Every factor is a power of two, so scaling and mapping back are exact (no rounding) as long
// as nothing over- or underflows. The exponents are taken relative to the largest factor, so
// multiplying M and q by a positive number changes the factors by a common power only: the
// scaled problem, and so every pivot and every tie, is the same (up to the rounding of M, q
// themselves).
//
// Symbol table: R, C -> LcpScaling::row, column; s -> q_scale; M', q' -> the scaled outputs.
#pragma once

#include "saltus/core/types.hpp"

namespace saltus::lcp {

struct LcpScaling {
  Vector row;            // n: the diagonal of R (powers of two)
  Vector column;         // n: the diagonal of C (powers of two)
  double q_scale = 1.0;  // s (a power of two)
  int iterations = 0;    // Ruiz sweeps used
};

// Computes R, C and s for (matrix, q) and writes M' = R M C into scaled_matrix, q' = R q / s
// into scaled_q (max |M'_ij| in [1/2, 2] unless M = 0, max |q'_i| in [1, 2) unless q = 0).
// Allocation-free when `scaling` and the outputs already have size n. Inputs must be checked
// (check_lcp_input) beforehand.
// By reference: a copy of an Eigen::Ref<const> builds and frees an empty matrix.
void equilibrate_lcp(const ConstMatrixRef& matrix, const ConstVectorRef& q, LcpScaling& scaling,
                     Matrix& scaled_matrix, Vector& scaled_q);

// The congruence D M D (row = column = D, s = 1), for classifying M.
void equilibrate_matrix(const ConstMatrixRef& matrix, LcpScaling& scaling, Matrix& scaled_matrix);

// z = s C z'  (in place).
void unscale_z(const LcpScaling& scaling, VectorRef z);

}  // namespace saltus::lcp
