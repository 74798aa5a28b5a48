// Matrix classes that decide what an LCP(M, q) answer means.
//
// Source: Cottle, Pang & Stone, "The Linear Complementarity Problem" (1992), Sec. 3.3
// (P-matrices: LCP(M, q) has exactly one solution for every q iff M is a P-matrix) and
// Sec. 3.8 / 4.4 (copositive-plus: Lemke's secondary ray proves that no solution exists);
// copositivity test: W. Kaplan, "A test for copositive matrices", Linear Algebra Appl. 313
// (2000) 203-206. Used to certify the contact LCPs of [LB] (2.9)-(2.10), (2.17)-(2.18)
// (FORMULAS.md sections 10.3-10.4).
//
// Definitions (S = (M + M^T)/2, the symmetric part; x^T M x = x^T S x):
//   positive (semi)definite : x^T M x > 0 (>= 0) for all x != 0      <=> S PD (PSD)
//   P-matrix                : every principal minor det(M_aa) > 0
//   copositive              : x^T M x >= 0 for all x >= 0
//   strictly copositive     : x^T M x > 0  for all x >= 0, x != 0
//   copositive-plus         : copositive, and x >= 0, x^T M x = 0  =>  (M + M^T) x = 0
//
// Scale first, then decide: every test runs on the equilibrated D M D (lcp_scaling.hpp;
// a congruence by a positive diagonal keeps all of the classes above), and its tolerances are
// relative to max |(D M D)_ij| (near 1). So diag(1e11, 1e-2) is decided as the identity.
//
// Decisions and their cost (n = size; all exponential tests refuse n > max_size):
//   positive_(semi)definite : Cholesky / eigenvalues of S, O(n^3).
//   p_matrix                : all 2^n - 1 principal minors by LU, O(2^n n^3). Yes at once when
//                             S is PD (then every principal minor is positive). A minor within
//                             tolerance * max|M'_ij|^k of zero gives Undecided.
//                             (Tsatsomeros-Li's recursive Schur test is O(2^n); not needed at
//                             the sizes of contact problems.)
//   copositive, strictly    : Kaplan's test: S is copositive iff no principal submatrix has an
//                             eigenvector v > 0 with eigenvalue < 0 (strictly: <= 0). One
//                             symmetric eigen-decomposition per principal submatrix,
//                             O(2^n n^3). Co-NP-complete in general, hence exponential. When a
//                             sign-deciding eigenvalue is repeated, the eigenvector basis is not
//                             unique and the answer is Undecided.
//   copositive_plus         : Yes when S is PSD or M is strictly copositive; No when M is not
//                             copositive; otherwise, for each support J with S_JJ singular PSD
//                             and a one-dimensional null space spanned by a v > 0, checks
//                             S_{J'J} v = 0; a null space of dimension > 1 gives Undecided.
//
// Symbol table: M -> matrix, S -> sym (symmetric part), a / J -> subset bit masks.
#pragma once

#include <string_view>

#include "saltus/core/types.hpp"

namespace saltus::lcp {

enum class Decision { Yes, No, Undecided };

std::string_view to_string(Decision d);

struct MatrixClassOptions {
  // Largest n for the O(2^n n^3) tests; above it they report Undecided (no exception).
  int max_size = 12;
  // Relative tolerance for deciding that a minor, an eigenvalue or an entry is zero.
  double tolerance = 1e-12;
};

struct MatrixClass {
  bool symmetric = false;                                // max |M' - M'^T| <= tol max|M'|
  Decision positive_definite = Decision::Undecided;      // S PD
  Decision positive_semidefinite = Decision::Undecided;  // S PSD
  Decision p_matrix = Decision::Undecided;
  Decision copositive = Decision::Undecided;
  Decision strictly_copositive = Decision::Undecided;
  Decision copositive_plus = Decision::Undecided;
};

// Classifies M (square, finite; else saltus::Error).
MatrixClass classify_matrix(ConstMatrixRef matrix, const MatrixClassOptions& options = {});

// The single tests, same conventions.
Decision is_p_matrix(ConstMatrixRef matrix, const MatrixClassOptions& options = {});
Decision is_copositive(ConstMatrixRef matrix, bool strict, const MatrixClassOptions& options = {});

}  // namespace saltus::lcp
