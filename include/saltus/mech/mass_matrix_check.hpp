// Checks that a mass matrix M(q) is symmetric positive definite, with an error that names where.
//
// Source: FORMULAS.md section 0 (M(q) SPD, T = 1/2 qdot^T M qdot); bad-input rule of issue 4.
// Symmetry: |M_ij - M_ji| <= 1e-12 (1 + max |M|). Definiteness: LDL^T pivots all > 0 (the message
// gives the smallest eigenvalue found by a symmetric eigen-solver when it fails).
#pragma once

#include <Eigen/Cholesky>
#include <string>

#include "saltus/core/types.hpp"

namespace saltus::mech {

// Throws saltus::Error "<who>: mass matrix is not symmetric positive definite at q = (...):
// smallest eigenvalue ... " when M is not square n x n, has a non-finite entry, is not
// symmetric or not positive definite. `q` may be empty (then not printed).
void check_mass_matrix(ConstMatrixRef M, ConstVectorRef q, const std::string& who);

}  // namespace saltus::mech
