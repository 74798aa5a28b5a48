// The last resort of choose_spatial_sets (spatial_index_set_choice.cpp): where no candidate run
// through the flow's own dynamics is consistent, the contact forces of the contacts touching at
// rest are asked of the cone contact problem at the acceleration level
// (include/saltus/mech/cone_contact_problem.hpp) and its answer is continued; see
// compiled_lagrangian.hpp.
//
// The flow splits the forces of dependent contacts as springs would
// (spatial_index_set_dynamics.hpp) and takes a slip from rest against the force that held it; with
// two corners of an edge coming to rest together from a slightly different slip (an integrator's
// error at rtol 1e-8), each corner's share can point where its slip would not grow, and no
// candidate passes. The cone problem solves Coulomb's law at every contact at once: u = G r + b
// with u the contacts' accelerations (normal, and both slip rates for a contact at rest), r their
// forces, G = W^T M^-1 F (a sliding contact's column carries its friction -mu W_T d), b = W^T a +
// what. Its answer gives which contacts stay closed, which stick, and the direction each slip from
// rest starts in: that of its slip acceleration u_T. An answer the starts disagree on (several) or
// none ends the run as Painleve with the solver's message.
#include <Eigen/Cholesky>
#include <cmath>
#include <string>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/cone_contact_problem.hpp"

namespace saltus::mech::detail {

bool choose_by_cone_problem(const LagrangianModel& m, double t, const DofVector<double>& q,
                            DofVector<double>& qd, unsigned touching, unsigned rest,
                            const std::vector<double>& onset, unsigned mask, LagrangianMode& out,
                            std::string& failure) {
  const int n = m.dof();
  ConeContactProblem problem;
  std::vector<DofVector<double>> W, F;
  std::vector<double> what;
  std::vector<int> contact_of;  // per contact of the problem
  std::string drilling;         // a contact at rest with drilling friction (not posed here)
  for_each_bit(touching, [&](int i) {
    const LagrangianContact& c = m.contact(i);
    Kinematics<double> kn;
    kinematics(c.gap, q, qd, kn);
    W.push_back(kn.w);
    F.push_back(kn.w);
    what.push_back(kn.what);
    contact_of.push_back(i);
    if (!c.spatial_frictional()) {
      problem.contacts.push_back({ConeContactKind::Normal, 0.0});
      return;
    }
    SlipKinematics<double> kt;
    slip_kinematics(c, q, qd, kt);
    if ((rest >> i) & 1u) {
      if (kt.rows > 2) drilling = c.name;
      problem.contacts.push_back({ConeContactKind::Cone, c.law.static_mu()});
      for (size_t k = 0; k < 2; ++k) {
        W.push_back(kt.w[k]);
        F.push_back(kt.w[k]);
        what.push_back(kt.what[k]);
      }
      return;
    }
    // Sliding: its friction folded into its normal column.
    const double speed = std::sqrt(kt.speed2());
    const double mu = c.sliding_mu(speed);
    for (int k = 0; k < kt.rows; ++k) F.back() -= mu * (kt.gamma[k] / speed) * kt.w[k];
    problem.contacts.push_back({ConeContactKind::Normal, 0.0});
  });
  if (!drilling.empty()) {
    failure = saltus::detail::text("the cone contact problem of the contacts touching at rest ",
                                   "has no drilling row, and '", drilling,
                                   "' has drilling friction: it is not posed");
    return false;
  }
  const int rows = static_cast<int>(W.size());
  Matrix Wm(n, rows), Fm(n, rows);
  for (int r = 0; r < rows; ++r) {
    Wm.col(r) = W[static_cast<size_t>(r)];
    Fm.col(r) = F[static_cast<size_t>(r)];
  }
  const Vector a = m.dynamics({-1, ClosedKind::None, mask}, t, q, qd).qddot;
  problem.G = Wm.transpose() * m.mass_matrix(q).llt().solve(Fm);
  problem.b = Wm.transpose() * a + Eigen::Map<const Vector>(what.data(), rows);
  const ConeContactResult result = solve_cone_contact_problem(problem);
  if (!result.solved()) {
    failure = saltus::detail::text("the cone contact problem of the contacts touching at rest: ",
                                   to_string(result.status), ": ", result.message);
    return false;
  }
  unsigned closed = 0, stick = 0;
  RateRows start;
  for (size_t j = 0, r = 0; j < contact_of.size(); ++j) {
    const int i = contact_of[j];
    const ConeContactState state = result.states[j];
    if (state != ConeContactState::Open) closed |= 1u << i;
    start.add(W[r], W[r].dot(qd));
    if (problem.contacts[j].kind != ConeContactKind::Cone) {
      ++r;
      continue;
    }
    const double u1 = result.u[static_cast<Eigen::Index>(r + 1)],
                 u2 = result.u[static_cast<Eigen::Index>(r + 2)];
    if (state == ConeContactState::Stick) {
      stick |= 1u << i;
      start.add(W[r + 1], 0.0);
      start.add(W[r + 2], 0.0);
    } else if (state == ConeContactState::Slip) {
      // The slip from rest starts along its acceleration, at the level of the other starts.
      const double size = std::hypot(u1, u2), level = onset[static_cast<size_t>(i)];
      start.add(W[r + 1], level * u1 / size);
      start.add(W[r + 2], level * u2 / size);
    }
    r += 3;
  }
  qd = with_rates(m, q, qd, start);
  out = mode_of_sets(m, closed, stick, 0, mask);
  return true;
}

}  // namespace saltus::mech::detail
