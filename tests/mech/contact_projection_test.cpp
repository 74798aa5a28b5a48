// The one projection onto rigid contacts (detail::project_onto_contacts, src/mech/
// closed_contact_projection.cpp): the Zeno hand-over of one contact, the closed modes' projection
// after every step and the initial state's are the same Newton iteration with their own stopping
// rules. Checked bit for bit against the three separate implementations it replaced (written out
// below as they were), on one and on two contacts of a 4-dof model whose mass matrix and gaps
// depend on q; and a gap that cannot reach zero gives the failure and its message.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <string>
#include <vector>

#include "mech/compiled_lagrangian.hpp"
#include "mech/contact_dynamics.hpp"
#include "mech/contact_tolerances.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech::detail {
namespace {

// Two contacts on a 4-dof body with a configuration-dependent, coupled mass matrix; the third
// contact's gap stays >= 1 (no state reaches it).
LagrangianModel four_dof_model() {
  LagrangianModel model("projection", 4);
  model.set_mass_matrix([](const auto& q, auto& M) {
    using std::cos;
    for (int i = 0; i < 4; ++i) M(i, i) = 2.0 + 0.5 * cos(q[i]);
    M(0, 1) = M(1, 0) = 0.3 * cos(q[2]);
    M(2, 3) = M(3, 2) = 0.2;
  });
  model.set_forces([](const auto&, const auto&, const auto&, auto& h) { h[1] = -9.81; });
  ContactImpactLaw law;
  law.e = 0.0;
  model.add_contact(
      "curve", "body",
      [](const auto& q) {
        using std::sin;
        return q[1] - 0.1 * sin(q[0]) + 0.05 * q[3] * q[3];
      },
      [](const auto& q) { return q[0] + 0.2 * q[2]; }, law);
  model.add_contact(
      "cup", "body", [](const auto& q) { return q[3] + 0.2 * q[2] * q[2] - 0.5 + 0.1 * q[0]; },
      law);
  model.add_contact(
      "sky", "body", [](const auto& q) { return q[0] * q[0] + 1.0; }, law);
  return model;
}

Vector start_state() {
  Vector x(8);
  x << 0.3, -0.02, 0.4, 0.48, 1.1, -0.7, 0.2, -0.3;
  return x;
}

// The single-contact Zeno projection as it was (lagrangian_compile.cpp at f4e3d23).
bool zeno_projection_before(const LagrangianModel& m, int ci, ConstVectorRef x, VectorRef xp) {
  constexpr int kMaxSteps = 12;
  const int n = m.dof();
  const ConfigurationFunction& gap = m.contact(ci).gap;
  DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n), w, Mw;
  const ContactScales s = contact_scales(nullptr, x.head(n), x.tail(n));
  SpdFactor<double> M;
  const auto factor = [&] {
    factor_mass(m, q, M);
    gradient(gap, q, w);
    Mw = M.solve(w);
  };
  int steps = 0;
  for (factor(); steps < kMaxSteps; factor()) {
    const double g = gap(q);
    if (steps >= 3 && std::abs(g) <= kImpactGapBand * scale_along(w, s.q)) break;
    q -= Mw * (g / w.dot(Mw));
    ++steps;
  }
  if (!(std::abs(gap(q)) <= kImpactGapBand * scale_along(w, s.q))) return false;
  qd -= Mw * (w.dot(qd) / w.dot(Mw));
  xp.head(n) = q;
  xp.tail(n) = qd;
  return true;
}

// The general projection as it was (closed_contact_projection.cpp at f4e3d23, with each row's
// tolerance a fraction of its own scale sum_k |w_k q_k| as issue 34 made it), normal rows only.
bool projection_before(const LagrangianModel& m, const std::vector<int>& normal, VectorRef q,
                       VectorRef qdot) {
  const int n = m.dof(), k = static_cast<int>(normal.size());
  DofVector<double> qv = load<double>(q, 0, n), qdv = load<double>(qdot, 0, n);
  const auto gradients = [&](Matrix& W, Matrix& MW) {
    SpdFactor<double> factor;
    factor_mass(m, qv, factor);
    W.resize(n, k);
    MW.resize(n, k);
    DofVector<double> w;
    for (int j = 0; j < k; ++j) {
      gradient(m.contact(normal[j]).gap, qv, w);
      W.col(j) = w;
      factor.solve_in_place(w);
      MW.col(j) = w;
    }
  };
  const auto correction = [](const Matrix& W, const Matrix& MW, const Vector& e) {
    const Matrix G = W.transpose() * MW;
    const Vector y = Eigen::CompleteOrthogonalDecomposition<Matrix>(G).solve(e);
    return Vector(-(MW * y));
  };
  Matrix W, MW;
  Vector e(k), scale(k);
  for (int j = 0; j < k; ++j) {
    DofVector<double> w;
    gradient(m.contact(normal[j]).gap, qv, w);
    scale[j] = w.cwiseAbs().dot(qv.cwiseAbs());
  }
  const auto within = [&](double fraction) {
    for (int j = 0; j < k; ++j) {
      if (!(std::abs(e[j]) <= fraction * scale[j])) return false;
    }
    return true;
  };
  for (int it = 0; it < 6; ++it) {
    for (int j = 0; j < k; ++j) e[j] = m.contact(normal[j]).gap(qv);
    if (within(1e-15)) break;
    gradients(W, MW);
    qv += correction(W, MW, e);
  }
  for (int j = 0; j < k; ++j) e[j] = m.contact(normal[j]).gap(qv);
  if (!within(1e-10)) return false;
  gradients(W, MW);
  const Vector excess = W.transpose() * qdv;
  qdv += correction(W, MW, excess);
  q = qv;
  qdot = qdv;
  return true;
}

TEST(ContactProjection, OneContactZenoRuleGivesTheClosedFormBitForBit) {
  const LagrangianModel m = four_dof_model();
  const Vector x = start_state();
  Vector before = x, after = x;
  ASSERT_TRUE(zeno_projection_before(m, 0, x, before));
  const ContactScales s = contact_scales(nullptr, x.head(4), x.tail(4));
  const Eigen::Matrix<double, 1, 1> zero = Eigen::Matrix<double, 1, 1>::Zero();
  std::string failure;
  ASSERT_TRUE(project_onto_contacts(m, {0}, {}, zero, zero, after.head(4), after.tail(4),
                                    {3, 12, &s}, &failure, "the Zeno limit state"));
  EXPECT_TRUE(failure.empty());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(after[i], before[i]) << i;
  EXPECT_LE(std::abs(m.gap(0, after.head(4))), 1e-14);
}

TEST(ContactProjection, OneAndTwoContactsGiveTheProjectionOfBeforeBitForBit) {
  const LagrangianModel m = four_dof_model();
  for (const std::vector<int>& set : {std::vector<int>{0}, std::vector<int>{1}, {0, 1}}) {
    Vector before = start_state(), after = start_state();
    ASSERT_TRUE(projection_before(m, set, before.head(4), before.tail(4)));
    const Vector zeros = Vector::Zero(static_cast<Eigen::Index>(set.size()));
    ASSERT_TRUE(project_onto_contacts(m, set, {}, zeros, zeros, after.head(4), after.tail(4)));
    for (int i = 0; i < 8; ++i) EXPECT_EQ(after[i], before[i]) << "contacts " << set.size();
    for (int c : set) EXPECT_LE(std::abs(m.gap(c, after.head(4))), 1e-14);
  }
}

TEST(ContactProjection, AStateAlreadyOnTheContactsIsLeftAlone) {
  const LagrangianModel m = four_dof_model();
  Vector x = start_state();
  const Vector zeros = Vector::Zero(2);
  ASSERT_TRUE(project_onto_contacts(m, {0, 1}, {}, zeros, zeros, x.head(4), x.tail(4)));
  const Vector on = x;
  ASSERT_TRUE(project_onto_contacts(m, {0, 1}, {}, zeros, zeros, x.head(4), x.tail(4)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(x[i], on[i]);
}

TEST(ContactProjection, AGapThatCannotCloseFailsWithTheOneMessage) {
  const LagrangianModel m = four_dof_model();
  const Vector x = start_state();
  for (const bool zeno : {false, true}) {
    Vector y = x;
    const ContactScales s = contact_scales(nullptr, x.head(4), x.tail(4));
    const Eigen::Matrix<double, 1, 1> zero = Eigen::Matrix<double, 1, 1>::Zero();
    const ProjectionSteps rule = zeno ? ProjectionSteps{3, 12, &s} : ProjectionSteps{};
    std::string failure;
    EXPECT_FALSE(project_onto_contacts(m, {2}, {}, zero, zero, y.head(4), y.tail(4), rule, &failure,
                                       "the test state"));
    EXPECT_EQ(y, x);  // unchanged
    EXPECT_NE(failure.find("contact 'sky': the test state could not be projected onto the "
                           "contact's surface: gap "),
              std::string::npos)
        << failure;
    EXPECT_NE(failure.find(zeno ? " after 12 Newton steps" : " after 6 Newton steps"),
              std::string::npos)
        << failure;
  }
  // The public entry (the initial state's projection) says the same.
  Vector y = x;
  const std::string failure = m.project_onto_contacts({0, 2}, y);
  EXPECT_NE(failure.find("contact 'sky': the initial state could not be projected"),
            std::string::npos)
      << failure;
  EXPECT_TRUE(m.project_onto_contacts({0, 1}, y).empty());
}

}  // namespace
}  // namespace saltus::mech::detail
