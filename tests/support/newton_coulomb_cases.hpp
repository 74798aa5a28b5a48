// The Newton-Coulomb impact law solved by its cases, independently of the LCP: every contact is
// off (no impulse), sticking (xi_N = xi_T = 0) or sliding with s = +-1 (xi_N = 0, Lambda_T =
// -mu s Lambda_N); each of the 4^k combinations is a linear system, kept when its signs hold.
// xi = gdot(t+) + E gdot(t-) as in include/saltus/mech/newton_coulomb_law.hpp (a separating
// contact's normal xi is gdot_N(t+)). For tests; small k only.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::testing {

struct NewtonCoulombCases {
  std::vector<Vector> motions;   // qdot+ of every consistent case, distinct to 1e-10 relative
  std::vector<Vector> impulses;  // (Lambda_N, Lambda_T) of each, same order
  bool unique() const { return motions.size() == 1; }
};

inline NewtonCoulombCases newton_coulomb_by_cases(const Matrix& M, const Matrix& W_N,
                                                  const Matrix& W_T, const Vector& qdot_minus,
                                                  const std::vector<double>& e,
                                                  const std::vector<double>& e_t,
                                                  const std::vector<double>& mu) {
  const Eigen::Index n = M.rows(), k = W_N.cols();
  Matrix W(n, 2 * k);
  W << W_N, W_T;
  const Matrix M_inv_W = M.ldlt().solve(W);
  const Matrix G = W.transpose() * M_inv_W;  // xi = G Lambda + b, Lambda = (Lambda_N, Lambda_T)
  Vector b(2 * k);
  for (Eigen::Index j = 0; j < k; ++j) {
    const double gn = W_N.col(j).dot(qdot_minus), gt = W_T.col(j).dot(qdot_minus);
    b[j] = gn < 0.0 ? (1.0 + e[j]) * gn : gn;
    b[k + j] = (1.0 + e_t[j]) * gt;
  }
  const double scale = qdot_minus.norm() + 1e-300;
  NewtonCoulombCases out;
  long combos = 1;
  for (Eigen::Index j = 0; j < k; ++j) combos *= 4;
  for (long c = 0; c < combos; ++c) {
    Matrix S = Matrix::Zero(2 * k, 2 * k);
    Vector r = Vector::Zero(2 * k);
    std::vector<int> state(k);
    long code = c;
    for (Eigen::Index j = 0; j < k; ++j, code /= 4) {
      state[j] = static_cast<int>(code % 4);  // 0 off, 1 stick, 2 slip+, 3 slip-
      if (state[j] == 0) {
        S(j, j) = 1.0;
        S(k + j, k + j) = 1.0;
        continue;
      }
      S.row(j) = G.row(j);  // xi_N = 0
      r[j] = -b[j];
      if (state[j] == 1) {
        S.row(k + j) = G.row(k + j);  // xi_T = 0
        r[k + j] = -b[k + j];
      } else {
        const double s = state[j] == 2 ? 1.0 : -1.0;
        S(k + j, k + j) = 1.0;  // Lambda_T + mu s Lambda_N = 0
        S(k + j, j) = mu[j] * s;
      }
    }
    Eigen::FullPivLU<Matrix> lu(S);
    if (lu.rank() < 2 * k) continue;
    const Vector L = lu.solve(r);
    const Vector xi = G * L + b;
    const double tol = 1e-10 * (L.cwiseAbs().maxCoeff() + scale);
    bool ok = true;
    for (Eigen::Index j = 0; j < k; ++j) {
      const double LN = L[j], LT = L[k + j];
      if (state[j] == 0) ok = ok && xi[j] >= -tol;
      if (state[j] == 1) ok = ok && LN >= -tol && std::abs(LT) <= mu[j] * LN + tol;
      if (state[j] >= 2) {
        const double s = state[j] == 2 ? 1.0 : -1.0;
        ok = ok && LN >= -tol && s * xi[k + j] >= -tol;
      }
    }
    if (!ok) continue;
    const Vector motion = qdot_minus + M_inv_W * L;
    bool known = false;
    for (const Vector& m : out.motions) known = known || (m - motion).norm() <= 1e-10 * scale;
    if (!known) {
      out.motions.push_back(motion);
      out.impulses.push_back(L);
    }
  }
  return out;
}

}  // namespace saltus::testing
