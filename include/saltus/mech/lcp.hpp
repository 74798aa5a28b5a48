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
#pragma once

#include <string>
#include <string_view>

#include "saltus/core/types.hpp"

namespace saltus::mech {

// How an LCP solve ended. Each value says what LcpSolution::z holds.
enum class LcpStatus {
  NotRun,          // nothing solved yet; z and w are empty
  Solved,          // z solves the LCP; natural residual within the solver's tolerance
  RayTermination,  // Lemke stopped on a secondary ray: no solution was found. For a
                   // copositive-plus M this proves that no solution exists (Cottle-Pang-Stone
                   // Sec. 4.4); for other M it proves nothing. z holds the last basis.
  PivotCap,        // the pivot cap was reached (message gives cap and size); z is not a solution
  Inaccurate,      // Lemke ended in a complementary basis but the natural residual exceeds the
                   // tolerance (ill-conditioned basis); z is the best point found
};

std::string_view to_string(LcpStatus status);

// Result of one LCP solve. Sentinels say "not run" until a solver writes it.
struct LcpSolution {
  LcpStatus status = LcpStatus::NotRun;
  Vector z;                // n: the unknown (forces, impulses)
  Vector w;                // n: M z + q, recomputed from z at the end
  int pivots = -1;         // pivots performed (-1: not run)
  double residual = kNaN;  // ||min(z, w)||_inf / (1 + ||q||_inf)
  std::string message;     // empty when Solved; otherwise what failed, cap/size/value
  bool is_solution() const { return status == LcpStatus::Solved; }
};

// Throws saltus::Error when M is not square, q does not match, or an entry is not finite.
// `who` names the caller in the message ("Lemke", "LCP enumeration").
void check_lcp_input(ConstMatrixRef matrix, ConstVectorRef q, std::string_view who);

// ||min(z, M z + q)||_inf / (1 + ||q||_inf): the scaled natural residual, zero exactly at a
// solution. Computes w into `w` (resized if needed).
double natural_residual(ConstMatrixRef matrix, ConstVectorRef q, ConstVectorRef z, Vector& w);

}  // namespace saltus::mech
