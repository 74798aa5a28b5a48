// Planar contacts and index sets; see include/saltus/mech/planar_contact.hpp.
#include "saltus/mech/planar_contact.hpp"

#include <algorithm>
#include <cmath>

#include "saltus/core/error.hpp"

namespace saltus::mech {
namespace {

void check_vector(const Vector& v, int n_c, const char* name, const char* who) {
  if (v.size() != n_c) {
    saltus::detail::throw_error(who, ": contacts.", name, " has size ", v.size(), " but there are ",
                                n_c, " contacts (columns of W_N)");
  }
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v(i))) {
      saltus::detail::throw_error(who, ": contacts.", name, "(", i, ") = ", v(i), " is not finite");
    }
  }
}

void check_matrix(const Matrix& m, int n_dof, int n_c, const char* name, const char* who) {
  if (m.rows() != n_dof || m.cols() != n_c) {
    saltus::detail::throw_error(who, ": contacts.", name, " is ", m.rows(), " x ", m.cols(),
                                " but must be n x n_c = ", n_dof, " x ", n_c,
                                " (columns are force directions, [LB] (2.3))");
  }
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      if (!std::isfinite(m(i, j))) {
        saltus::detail::throw_error(who, ": contacts.", name, "(", i, ", ", j, ") = ", m(i, j),
                                    " is not finite");
      }
    }
  }
}

}  // namespace

void validate(const PlanarContacts& c, int n_dof, const char* who) {
  const int n_c = c.size();
  check_matrix(c.W_N, n_dof, n_c, "W_N", who);
  check_matrix(c.W_T, n_dof, n_c, "W_T", who);
  check_vector(c.g_N, n_c, "g_N", who);
  check_vector(c.gdot_N, n_c, "gdot_N", who);
  check_vector(c.gdot_T, n_c, "gdot_T", who);
  check_vector(c.w_hat_N, n_c, "w_hat_N", who);
  check_vector(c.w_hat_T, n_c, "w_hat_T", who);
  check_vector(c.mu, n_c, "mu", who);
  for (int i = 0; i < n_c; ++i) {
    if (c.mu(i) < 0.0) {
      saltus::detail::throw_error(who, ": friction coefficient mu(", i, ") = ", c.mu(i),
                                  " is negative; Coulomb's law needs mu >= 0");
    }
  }
}

void validate(const ContactIndexSets& s, int n_c, const char* who) {
  const auto check = [&](const std::vector<int>& set, const char* name) {
    for (std::size_t k = 0; k < set.size(); ++k) {
      if (set[k] < 0 || set[k] >= n_c) {
        saltus::detail::throw_error(who, ": index set ", name, " holds contact ", set[k],
                                    " outside [0, ", n_c, ")");
      }
      if (k > 0 && set[k] <= set[k - 1]) {
        saltus::detail::throw_error(who, ": index set ", name,
                                    " must be sorted without repeats, got ", set[k - 1], " before ",
                                    set[k]);
      }
    }
  };
  const auto subset = [&](const std::vector<int>& a, const std::vector<int>& b, const char* na,
                          const char* nb) {
    for (int i : a) {
      if (!std::binary_search(b.begin(), b.end(), i)) {
        saltus::detail::throw_error(who, ": contact ", i, " is in ", na, " but not in ", nb,
                                    " ([LB] (2.1) needs I_H in I_N in I_S)");
      }
    }
  };
  check(s.I_S, "I_S");
  check(s.I_N, "I_N");
  check(s.I_H, "I_H");
  subset(s.I_N, s.I_S, "I_N", "I_S");
  subset(s.I_H, s.I_N, "I_H", "I_N");
}

ContactIndexSets compute_index_sets(const PlanarContacts& c, const IndexSetTolerances& tol) {
  validate(c, static_cast<int>(c.W_N.rows()), "compute_index_sets");
  ContactIndexSets s;
  for (int i = 0; i < c.size(); ++i) {
    if (std::abs(c.g_N(i)) > tol.gap) continue;
    s.I_S.push_back(i);
    if (std::abs(c.gdot_N(i)) > tol.velocity) continue;
    s.I_N.push_back(i);
    if (std::abs(c.gdot_T(i)) <= tol.velocity) s.I_H.push_back(i);
  }
  return s;
}

PlanarContacts rigid_body_ground_contacts(const std::vector<Eigen::Vector2d>& offsets,
                                          const Eigen::Vector3d& qdot, ConstVectorRef mu) {
  const int n_c = static_cast<int>(offsets.size());
  if (mu.size() != n_c) {
    saltus::detail::throw_error("rigid_body_ground_contacts: mu has size ", mu.size(),
                                " but there are ", n_c, " contact points");
  }
  PlanarContacts c;
  c.W_N.resize(3, n_c);
  c.W_T.resize(3, n_c);
  c.g_N = Vector::Zero(n_c);
  c.w_hat_N.resize(n_c);
  c.w_hat_T.resize(n_c);
  const double om2 = qdot(2) * qdot(2);
  for (int i = 0; i < n_c; ++i) {
    const auto& r = offsets[static_cast<std::size_t>(i)];
    c.W_N.col(i) = rigid_body_normal_direction(r(0));
    c.W_T.col(i) = rigid_body_tangent_direction(r(1));
    c.w_hat_N(i) = -om2 * r(1);
    c.w_hat_T(i) = -om2 * r(0);
  }
  c.gdot_N = c.W_N.transpose() * qdot;
  c.gdot_T = c.W_T.transpose() * qdot;
  c.mu = mu;
  validate(c, 3, "rigid_body_ground_contacts");
  return c;
}

Eigen::Matrix3d rigid_body_mass_matrix(double m, double rho2) {
  if (!(std::isfinite(m) && m > 0.0)) {
    saltus::detail::throw_error("rigid_body_mass_matrix: mass m = ", m, " must be finite and > 0");
  }
  if (!(std::isfinite(rho2) && rho2 > 0.0)) {
    saltus::detail::throw_error("rigid_body_mass_matrix: rho^2 = ", rho2,
                                " must be finite and > 0");
  }
  return Eigen::Vector3d(m, m, m * rho2).asDiagonal();
}

}  // namespace saltus::mech
