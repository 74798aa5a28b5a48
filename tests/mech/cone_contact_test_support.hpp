// Helpers of the cone contact problem's tests (cone_contact_problem_test.cpp,
// cone_contact_closure_test.cpp): contact kinds, rigid-body contact rows, and a check of every
// contact's conditions written independently of the solver.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/error.hpp"
#include "saltus/mech/cone_contact_problem.hpp"

namespace saltus::mech {

inline std::vector<ConeContact> cones(int k, double mu) {
  return std::vector<ConeContact>(k, ConeContact{ConeContactKind::Cone, mu});
}

// Each contact's conditions, checked from r alone with u = G r + b recomputed here, to eps of the
// problem's scale: s_r = |r|_inf, s_u = max(|b|_inf, |G r|_inf). Slip is checked in the form
// |u_T| r_T + mu r_N u_T = 0, which holds for stick (u_T = 0) and slip alike and needs no
// direction of a tiny u_T. Returns the first violation, empty when every condition holds.
inline std::string violated_conditions(const ConeContactProblem& p, const Vector& r, double eps) {
  const Vector u = p.G * r + p.b;
  const double s_r = r.cwiseAbs().maxCoeff();
  const double s_u = std::max(p.b.cwiseAbs().maxCoeff(), (p.G * r).cwiseAbs().maxCoeff());
  int o = 0;
  for (size_t i = 0; i < p.contacts.size(); ++i) {
    const auto fail = [&](const char* what, double value, double bound) {
      return saltus::detail::text("contact ", i, ": ", what, " = ", value, " beyond ", bound);
    };
    const double r_N = r[o], u_N = u[o];
    if (r_N < -eps * s_r) return fail("-r_N", -r_N, eps * s_r);
    if (u_N < -eps * s_u) return fail("-u_N", -u_N, eps * s_u);
    if (std::abs(r_N * u_N) > eps * s_r * s_u) return fail("|r_N u_N|", r_N * u_N, eps);
    if (p.contacts[i].kind == ConeContactKind::Cone) {
      const double mu = p.contacts[i].mu;
      const Eigen::Vector2d r_T = r.segment<2>(o + 1), u_T = u.segment<2>(o + 1);
      if (r_T.norm() - mu * r_N > eps * s_r) return fail("|r_T| - mu r_N", r_T.norm(), mu * r_N);
      const double slip = (u_T.norm() * r_T + mu * r_N * u_T).norm();
      if (slip > eps * s_r * s_u) return fail("||u_T| r_T + mu r_N u_T|", slip, eps * s_r * s_u);
    }
    o += p.contacts[i].kind == ConeContactKind::Cone ? 3 : 1;
  }
  return "";
}

// Contact rows of one rigid body (6 dof: velocity of the centre, angular velocity, both in a
// body-aligned frame): a point at lever arm rho along direction n has the row (n, rho x n).
inline Eigen::Matrix<double, 6, 1> body_row(const Eigen::Vector3d& rho, const Eigen::Vector3d& n) {
  Eigen::Matrix<double, 6, 1> w;
  w << n, rho.cross(n);
  return w;
}

// W (6 x 3k) for contacts at rho[i] with normal n[i] and tangents completing a frame.
inline Matrix body_jacobian(const std::vector<Eigen::Vector3d>& rho,
                            const std::vector<Eigen::Vector3d>& n) {
  Matrix W(6, 3 * rho.size());
  for (size_t i = 0; i < rho.size(); ++i) {
    const Eigen::Vector3d t1 = n[i].unitOrthogonal(), t2 = n[i].cross(t1);
    W.col(3 * i) = body_row(rho[i], n[i]);
    W.col(3 * i + 1) = body_row(rho[i], t1);
    W.col(3 * i + 2) = body_row(rho[i], t2);
  }
  return W;
}

inline Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::Vector3d n(normal(rng), normal(rng), normal(rng));
  return n.normalized();
}

}  // namespace saltus::mech
