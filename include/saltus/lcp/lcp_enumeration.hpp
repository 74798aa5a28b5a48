// All solutions of a small LCP(M, q) by enumerating its complementary bases.
//
// Source: Cottle, Pang & Stone, "The Linear Complementarity Problem" (1992), Sec. 1.3
// (complementary cones) and Sec. 3.3 (solution sets); used in [LB] Sec. 2 to decide whether
// the contact problems (2.9)-(2.10) and (2.17)-(2.18) have none, one or several solutions
// (FORMULAS.md sections 10.3-10.4, 11.1: "solved by enumeration for small sizes").
//
// Method. For every subset a of {0..n-1} (2^n "faces"), set z_i = 0 outside a and w_i = 0 on
// a. The points of face a form the polyhedron
//     P_a = { z_a >= 0 : M_aa z_a = -q_a,  M_{a'a} z_a + q_{a'} >= 0 },  a' = complement of a,
// and the solution set of the LCP is the union of the P_a.
//   * M_aa nonsingular: P_a is the single point z_a = -M_aa^-1 q_a (kept if feasible; one
//     step of iterative refinement after the LU solve).
//   * M_aa singular (smallest full-pivoting LU pivot <= singular_tolerance * matrix_scale):
//     P_a may be empty, one point or a continuum. A phase-1 simplex (Bland's rule, so it
//     terminates) decides whether it is empty and returns a vertex; if the caller passes an
//     `observable` matrix L, phase-2 simplex runs give the range of every row of L z over
//     P_a (e.g. the accelerations, to see whether the continuum moves the system).
// So the answer is complete: every non-empty face contributes at least one point, and a
// continuum is flagged, never silently reduced to one of its points.
//
// Scaling and tolerances (all relative, no absolute floors): the faces are solved on the
// equilibrated problem D M D, D q / s (lcp_scaling.hpp; same solution set, z = s D z'). A
// face's point is rejected when a basic z'_i < -feasibility_tolerance * ||z'||_inf; otherwise
// it is clamped to z >= 0, mapped back, and accepted only when certified_residual (lcp.hpp:
// w >= 0, w_i = 0 where z_i > 0, relative to each row's own magnitude) is <= feasibility_
// tolerance on the caller's M and q. So every returned point is a certified solution.
// Two points are one solution when ||z1' - z2'||_inf <= duplicate_tolerance *
// max(||z1'||_inf, ||z2'||_inf) on the equilibrated unknowns (a degenerate solution is found
// from several bases).
//
// Cost: 2^n faces, each an LU of size |a| <= n: O(2^n n^3) flops; n = 12 is 4096 LUs of at
// most 12 x 12 (about 1 ms). Hard limit kMaxEnumerationSize = 16 (fixed-capacity matrices,
// no heap traffic per face). Singular faces add a dense simplex each.
//
// Symbol table (book -> code):
//   a, a'      -> bit mask `basis` (bit i set: z_i basic, w_i = 0), its complement
//   M_aa, q_a  -> principal submatrix / subvector on the set bits
//   P_a        -> LcpFace (singular faces), LcpEnumeratedSolution (points)
#pragma once

#include <cstdint>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::lcp {

inline constexpr int kMaxEnumerationSize = 16;

struct LcpEnumerationOptions {
  // Largest n accepted (2^n faces); above it enumerate_lcp_solutions throws. At most
  // kMaxEnumerationSize.
  int max_size = 12;
  // Certificate tolerance for accepting a point (see the file comment).
  double feasibility_tolerance = 1e-10;
  // M'_aa (equilibrated) counts as singular when its smallest full-pivoting LU pivot is
  // <= singular_tolerance * matrix_scale'.
  double singular_tolerance = 1e-13;
  // Reference magnitude of M for the singularity test; 0: max |M_ij|. It is carried over to
  // the equilibrated matrix as matrix_scale' = matrix_scale * max|M'_ij| / max|M_ij|, so only
  // its ratio to max |M_ij| matters. Contact problems pass
  // the scale of their frictionless Delassus matrix so that a friction-induced near-zero
  // pivot (the Painleve boundary) is judged against the physics, not against itself.
  double matrix_scale = 0.0;
  // Relative distance below which two solutions are one (see the file comment).
  double duplicate_tolerance = 1e-9;
};

// Throws saltus::Error naming the field, value and rule when an option is invalid.
void validate(const LcpEnumerationOptions& options);

struct LcpEnumeratedSolution {
  Vector z;                         // n, >= 0
  Vector w;                         // n, M z + q
  std::uint32_t basis = 0;          // first face it was found on (bit i: z_i basic)
  bool degenerate = false;          // some basic z_i or non-basic w_i is zero (tolerance)
  bool from_singular_face = false;  // vertex of a singular face (see faces)
};

// A non-empty face whose M_aa is singular: its points form a polyhedron of dimension up to
// `nullity`, represented by one vertex and, when an observable L was given, by the range of
// L z over the face (+-infinity where unbounded).
struct LcpFace {
  std::uint32_t basis = 0;
  int nullity = 0;        // |a| - rank(M_aa)
  Vector vertex_z;        // n: one point of the face
  Vector observable_min;  // rows of L: min over the face (empty without L)
  Vector observable_max;  // rows of L: max over the face
};

struct LcpEnumerationResult {
  int size = 0;                                  // n
  std::vector<LcpEnumeratedSolution> solutions;  // distinct points, in face order
  std::vector<LcpFace> singular_faces;           // non-empty singular faces
  int faces_checked = 0;                         // 2^n
  int singular_faces_checked = 0;                // faces with singular M_aa (empty or not)
  bool has_solution() const { return !solutions.empty(); }
};

// Enumerates the solutions of LCP(M, q). `observable` (optional, k x n) is a linear map whose
// range over each non-empty singular face is reported. Throws saltus::Error for bad input
// (non-square M, size mismatch, non-finite entries, n > options.max_size, bad options).
LcpEnumerationResult enumerate_lcp_solutions(ConstMatrixRef matrix, ConstVectorRef q,
                                             const LcpEnumerationOptions& options = {},
                                             const Matrix* observable = nullptr);

}  // namespace saltus::lcp
