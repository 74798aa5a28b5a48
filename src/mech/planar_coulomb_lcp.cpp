// Glocker-Pfeiffer LCP of planar Coulomb contact; see include/saltus/mech/planar_coulomb_lcp.hpp.
#include "saltus/mech/planar_coulomb_lcp.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"

#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"

namespace saltus::mech {

PlanarCoulombLcp build_planar_coulomb_lcp(const Matrix& m_inv, const PlanarContacts& c,
                                          const std::vector<int>& C, const std::vector<int>& H,
                                          const Vector& slide_sign, const Vector& b_N,
                                          const Vector& b_T) {
  PlanarCoulombLcp out;
  out.contacts = C;
  out.sticking = H;
  const auto n = m_inv.rows();
  const auto n_c = static_cast<Eigen::Index>(C.size());
  const auto n_h = static_cast<Eigen::Index>(H.size());
  const auto size = n_c + 2 * n_h;
  std::vector<Eigen::Index> pos_in_c(static_cast<std::size_t>(c.size()), -1);
  for (Eigen::Index k = 0; k < n_c; ++k) pos_in_c[static_cast<std::size_t>(C[k])] = k;
  std::vector<bool> is_stick(static_cast<std::size_t>(c.size()), false);
  for (int h : H) is_stick[static_cast<std::size_t>(h)] = true;

  Matrix wn(n, n_c), wt(n, n_c), weff(n, n_c), wh(n, n_h);
  Matrix mu_h = Matrix::Zero(n_h, n_c);
  for (Eigen::Index k = 0; k < n_c; ++k) {
    const int i = C[static_cast<std::size_t>(k)];
    wn.col(k) = c.W_N.col(i);
    wt.col(k) = c.W_T.col(i);
    const double slide = is_stick[static_cast<std::size_t>(i)] ? 0.0 : -c.mu(i) * slide_sign(i);
    weff.col(k) = c.W_N.col(i) + slide * c.W_T.col(i);  // [LB] W_N + W_G mu_G
  }
  for (Eigen::Index j = 0; j < n_h; ++j) {
    const int i = H[static_cast<std::size_t>(j)];
    wh.col(j) = c.W_T.col(i);
    mu_h(j, pos_in_c[static_cast<std::size_t>(i)]) = c.mu(i);
  }
  const Matrix minv_weff = m_inv * weff;
  const Matrix minv_wh = m_inv * wh;
  const Matrix g_n = wn.transpose() * minv_weff;
  const Matrix g_nh = wn.transpose() * minv_wh;
  const Matrix g_hn = wh.transpose() * minv_weff;
  const Matrix g_hh = wh.transpose() * minv_wh;

  out.matrix = Matrix::Zero(size, size);
  out.matrix.block(0, 0, n_c, n_c) = g_n - g_nh * mu_h;
  out.matrix.block(0, n_c, n_c, n_h) = g_nh;
  out.matrix.block(n_c, 0, n_h, n_c) = g_hn - g_hh * mu_h;
  out.matrix.block(n_c, n_c, n_h, n_h) = g_hh;
  out.matrix.block(n_c, n_c + n_h, n_h, n_h).setIdentity();
  out.matrix.block(n_c + n_h, 0, n_h, n_c) = 2.0 * mu_h;
  out.matrix.block(n_c + n_h, n_c, n_h, n_h) = -Matrix::Identity(n_h, n_h);
  out.q = Vector::Zero(size);
  for (Eigen::Index k = 0; k < n_c; ++k) out.q(k) = b_N(C[static_cast<std::size_t>(k)]);
  for (Eigen::Index j = 0; j < n_h; ++j) out.q(n_c + j) = b_T(H[static_cast<std::size_t>(j)]);

  // z -> (lambda_N, lambda_T) on C.
  out.force_map = Matrix::Zero(2 * n_c, size);
  out.force_map.block(0, 0, n_c, n_c).setIdentity();
  for (Eigen::Index k = 0; k < n_c; ++k) {
    const int i = C[static_cast<std::size_t>(k)];
    if (!is_stick[static_cast<std::size_t>(i)])
      out.force_map(n_c + k, k) = -c.mu(i) * slide_sign(i);
  }
  for (Eigen::Index j = 0; j < n_h; ++j) {
    const Eigen::Index k = pos_in_c[static_cast<std::size_t>(H[static_cast<std::size_t>(j)])];
    out.force_map(n_c + k, n_c + j) = 1.0;                              // + k+
    out.force_map(n_c + k, k) = -c.mu(H[static_cast<std::size_t>(j)]);  // - mu lambda_N
  }
  Matrix w_all(n, 2 * n_c);
  w_all << wn, wt;
  out.motion_map = m_inv * w_all * out.force_map;

  const Matrix delassus = w_all.transpose() * m_inv * w_all;
  out.delassus_scale = std::max(delassus.size() ? delassus.cwiseAbs().maxCoeff() : 0.0, 1e-300);
  return out;
}

namespace detail {

Matrix inverse_mass_matrix(const Matrix& mass, Eigen::Index n, const char* who) {
  if (mass.rows() != n || mass.cols() != n) {
    saltus::detail::throw_error(who, ": mass matrix is ", mass.rows(), " x ", mass.cols(),
                                " but the system has n = ", n, " coordinates");
  }
  if (!mass.allFinite()) {
    saltus::detail::throw_error(who, ": mass matrix has a non-finite entry");
  }
  const double asym = (mass - mass.transpose()).cwiseAbs().maxCoeff();
  const double scale = mass.cwiseAbs().maxCoeff();
  if (asym > 1e-12 * scale) {
    saltus::detail::throw_error(who, ": mass matrix is not symmetric (max |M - M^T| = ", asym, ")");
  }
  Eigen::LLT<Matrix> llt(mass);
  if (llt.info() != Eigen::Success) {
    saltus::detail::throw_error(who, ": mass matrix is not positive definite (Cholesky failed)");
  }
  return llt.solve(Matrix::Identity(n, n));
}

ContactOutcome decide_planar_coulomb(ContactProblemKind kind, const Matrix& mass,
                                     const PlanarContacts& c, const PlanarCoulombLcp& lcp,
                                     const Vector& slide_sign, const Vector& base_motion,
                                     const Vector& rate_offset_N, const Vector& rate_offset_T,
                                     const ContactIndexSets& sets, double time,
                                     const ContactSolveOptions& options) {
  ContactOutcome out;
  out.kind = kind;
  out.time = time;
  out.sets = sets;
  out.contacts = lcp.contacts;
  out.lcp_matrix = lcp.matrix;
  out.lcp_q = lcp.q;
  const auto size = lcp.q.size();
  const int n_c = c.size();
  const auto n_in = static_cast<Eigen::Index>(lcp.contacts.size());
  std::vector<bool> is_stick(static_cast<std::size_t>(n_c), false);
  for (int h : lcp.sticking) is_stick[static_cast<std::size_t>(h)] = true;

  std::vector<Vector> points;
  std::vector<lcp::LcpFace> faces;
  if (size <= options.enumeration.max_size) {
    lcp::LcpEnumerationOptions eo = options.enumeration;
    if (eo.matrix_scale == 0.0) eo.matrix_scale = lcp.delassus_scale;
    Matrix observable(lcp.motion_map.rows() + lcp.force_map.rows(), size);
    observable << lcp.motion_map, lcp.force_map;
    lcp::LcpEnumerationResult e = lcp::enumerate_lcp_solutions(lcp.matrix, lcp.q, eo, &observable);
    out.lcp_faces = e.faces_checked;
    for (auto& s : e.solutions) points.push_back(std::move(s.z));
    faces = std::move(e.singular_faces);
  } else {
    out.verdict = Verdict::Uncertified;
    const lcp::LcpSolution s = lcp::solve_lemke(lcp.matrix, lcp.q, options.lemke);
    if (s.is_solution()) points.push_back(s.z);
  }

  // The kinetic metric (ContactSolveOptions): each observable row's weight, and the motion scale
  // from the free motion and the solutions' motions (below).
  KineticScales scales;
  scales.mass = mass;
  scales.row_weight.resize(lcp.motion_map.rows() + lcp.force_map.rows());
  for (Eigen::Index k = 0; k < lcp.motion_map.rows(); ++k) {
    scales.row_weight(k) = std::sqrt(std::max(0.0, mass(k, k)));
  }
  const Eigen::LLT<Matrix> mass_factor(mass);
  Vector force_weight(2 * n_in);  // sqrt(w^T M^-1 w) of each contact's normal, then tangent
  for (Eigen::Index k = 0; k < n_in; ++k) {
    const int i = lcp.contacts[static_cast<std::size_t>(k)];
    force_weight(k) = std::sqrt(std::max(0.0, c.W_N.col(i).dot(mass_factor.solve(c.W_N.col(i)))));
    force_weight(n_in + k) =
        std::sqrt(std::max(0.0, c.W_T.col(i).dot(mass_factor.solve(c.W_T.col(i)))));
  }
  scales.row_weight.tail(2 * n_in) = force_weight;
  scales.motion_scale = scales.norm(base_motion);
  // A rate is zero to rate_tolerance of the problem's rates (every contact's free rate, one unit:
  // gaps are lengths) and of the terms that sum to it (ContactSolveOptions).
  const double free_rates = size ? lcp.q.cwiseAbs().maxCoeff() : 0.0;
  const auto rate_scale = [&](double offset, const Vector& w, const Vector& dmotion) {
    return free_rates + std::abs(offset) + w.cwiseAbs().dot(dmotion.cwiseAbs());
  };
  const double nan = std::nan("");
  for (const Vector& z : points) {
    ContactSolution s;
    s.lcp_z = z;
    const Vector f = lcp.force_map * z;
    const Vector dmotion = lcp.motion_map * z;
    s.motion = base_motion + dmotion;
    s.lambda_N = Vector::Zero(n_c);
    s.lambda_T = Vector::Zero(n_c);
    for (Eigen::Index k = 0; k < n_in; ++k) {
      const int i = lcp.contacts[static_cast<std::size_t>(k)];
      s.lambda_N(i) = f(k);
      s.lambda_T(i) = f(n_in + k);
    }
    // Same forces as an earlier solution (e.g. a+ and a- both positive on an open contact):
    // the same physical solution. Forces compared by the motion they make (kinetic metric).
    bool duplicate = false;
    for (const auto& other : out.solutions) {
      const double tol = options.force_tolerance *
                         (scales.motion_scale + scales.norm(s.motion) + scales.norm(other.motion));
      bool same = true;
      for (Eigen::Index k = 0; k < n_in && same; ++k) {
        const int i = lcp.contacts[static_cast<std::size_t>(k)];
        same = std::abs(other.lambda_N(i) - s.lambda_N(i)) * force_weight(k) <= tol &&
               std::abs(other.lambda_T(i) - s.lambda_T(i)) * force_weight(n_in + k) <= tol;
      }
      if (same) {
        duplicate = true;
        break;
      }
    }
    if (duplicate) continue;
    const Vector rn = c.W_N.transpose() * dmotion;
    const Vector rt = c.W_T.transpose() * dmotion;
    s.rate_N = Vector::Constant(n_c, nan);
    s.rate_T = Vector::Constant(n_c, nan);
    s.modes.assign(static_cast<std::size_t>(n_c), ContactMode{});
    s.next_sets.I_S = sets.I_S;
    for (Eigen::Index k = 0; k < n_in; ++k) {
      const int i = lcp.contacts[static_cast<std::size_t>(k)];
      s.rate_N(i) = rate_offset_N(i) + rn(i);
      s.rate_T(i) = rate_offset_T(i) + rt(i);
      const double rate_tol_N =
          options.rate_tolerance * rate_scale(rate_offset_N(i), c.W_N.col(i), dmotion);
      const double rate_tol =
          options.rate_tolerance * rate_scale(rate_offset_T(i), c.W_T.col(i), dmotion);
      ContactMode& m = s.modes[static_cast<std::size_t>(i)];
      m.normal = s.rate_N(i) > rate_tol_N ? NormalState::Open : NormalState::Closed;
      if (!is_stick[static_cast<std::size_t>(i)]) {
        m.tangential =
            slide_sign(i) > 0 ? TangentialState::SlidePositive : TangentialState::SlideNegative;
      } else if (s.rate_T(i) > rate_tol) {
        m.tangential = TangentialState::SlidePositive;
      } else if (s.rate_T(i) < -rate_tol) {
        m.tangential = TangentialState::SlideNegative;
      } else {
        m.tangential = TangentialState::Stick;
      }
      if (m.normal == NormalState::Closed) {
        s.next_sets.I_N.push_back(i);
        if (m.tangential == TangentialState::Stick) s.next_sets.I_H.push_back(i);
      }
    }
    s.energy = kind == ContactProblemKind::Impact ? 0.5 * s.motion.dot(mass * s.motion)
                                                  : 0.5 * dmotion.dot(mass * dmotion);
    out.solutions.push_back(std::move(s));
  }
  double largest_motion = 0.0;  // S = |free motion|_M + the largest |motion|_M
  for (const ContactSolution& s : out.solutions) {
    largest_motion = std::max(largest_motion, scales.norm(s.motion));
  }
  scales.motion_scale += largest_motion;
  finalize_outcome(out, faces, static_cast<int>(lcp.motion_map.rows()), scales, options);
  return out;
}

}  // namespace detail
}  // namespace saltus::mech
