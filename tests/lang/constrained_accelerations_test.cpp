// The fused Lagrange-d'Alembert accelerations of model files with velocity constraints (one tape
// from lang/constrained_accelerations.hpp) against the generic elimination of
// mech::NonholonomicModel (nonholonomic_dynamics.hpp), which is derived independently (numeric
// Cholesky of M, constraint rates by second-order jets): values and first derivatives at seeded
// random states of the sleigh and disk files and of randomly generated models; the flows'
// Jacobians against the C++ catalogue systems; dependent rows handed to the generic path's error.
// The fused velocity projection (the energy projection's) against the generic one.
// The walls' compiled gradients (d gap / d q on the same graph) against AD of the gap; the walls'
// gaps from one tape, one by one and as the compiled system's guard set, against each gap's own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mech/nonholonomic_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/core/guard.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/lang/native_tape.hpp"
#include "saltus/model/mechanical_system.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/ode/flow_evaluator.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/model_files.hpp"

namespace saltus::lang {
namespace {

using mech::DofVector;
using saltus::testing::models_dir;
using saltus::testing::num;

std::shared_ptr<const model::Model> file_model(const std::string& name) {
  return std::make_shared<const model::Model>(model::load_model_file(models_dir() / name));
}

// Fused and generic accelerations, values and the derivative along a random direction of
// (q, qdot), agree to rounding at `states` random states (not on the constraints: the equations
// hold on the whole of (q, qdot)).
void expect_fused_equals_generic(const mech::NonholonomicModel& m, std::mt19937& rng, int states) {
  ASSERT_TRUE(static_cast<bool>(m.accelerations()));
  const int n = m.dof();
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (int s = 0; s < states; ++s) {
    DofVector<double> q(n), qd(n), dq(n), dqd(n);
    for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), dq[i] = u(rng), dqd[i] = u(rng);
    const double t = 0.1 * s;
    DofVector<double> fused = DofVector<double>::Zero(n);
    ASSERT_TRUE(m.accelerations()(t, q, qd, fused));
    const Vector generic = m.dynamics(t, q, qd).qddot;
    const double scale = 1.0 + generic.cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i) EXPECT_NEAR(fused[i], generic[i], 1e-12 * scale) << "state " << s;

    DofVector<Dual> qj(n), qdj(n), fused_j = DofVector<Dual>::Constant(n, Dual(0.0));
    for (int i = 0; i < n; ++i) qj[i] = Dual(q[i], dq[i]), qdj[i] = Dual(qd[i], dqd[i]);
    ASSERT_TRUE(m.accelerations()(Dual(t), qj, qdj, fused_j));
    mech::detail::NonholonomicDynamicsT<Dual> generic_j;
    mech::detail::nonholonomic_dynamics(m, Dual(t), qj, qdj, generic_j);
    double dscale = 1.0;
    for (int i = 0; i < n; ++i) dscale = std::max(dscale, std::abs(generic_j.qdd[i].derivative()));
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(fused_j[i].derivative(), generic_j.qdd[i].derivative(), 1e-11 * dscale)
          << "state " << s;
    }
  }
}

TEST(ConstrainedAccelerations, SleighAndDiskFilesEqualTheGenericElimination) {
  std::mt19937 rng(20261126);
  expect_fused_equals_generic(model::nonholonomic_model(file_model("chaplygin_sleigh.toml")), rng,
                              100);
  expect_fused_equals_generic(model::nonholonomic_model(file_model("vertical_disk.toml")), rng,
                              100);
}

// The compiled flows (fused, from the files) and the catalogue's (generic, C++): the same x' and
// the same AD Jacobian, whose chunked passes run through the fused tape.
TEST(ConstrainedAccelerations, FlowsAndJacobiansEqualTheCatalogueSystems) {
  const systems::EllipticTable table{2.0, 1.0};
  const std::vector<std::pair<std::string, mech::NonholonomicModel>> cases = {
      {"chaplygin_sleigh.toml", systems::chaplygin_sleigh({1.0, 0.1, 0.3, 0.3}, table)},
      {"vertical_disk.toml", systems::vertical_disk({1.0, 0.2, 0.02, 0.01}, table)}};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& [file, catalogue] : cases) {
    SCOPED_TRACE(file);
    const auto fused = model::nonholonomic_model(file_model(file)).compile();
    const auto generic = catalogue.compile();
    const Flow& a = fused.system.mode(fused.mode).flow;
    const Flow& b = generic.system.mode(generic.mode).flow;
    ASSERT_EQ(a.nx, b.nx);
    for (int s = 0; s < 20; ++s) {
      Vector x(a.nx);
      for (int i = 0; i < a.nx; ++i) x[i] = u(rng);
      const Vector z;
      Vector fa(a.nx), fb(a.nx);
      a.rhs(0.0, x, z, fa);
      b.rhs(0.0, x, z, fb);
      EXPECT_LE((fa - fb).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + fb.cwiseAbs().maxCoeff()));
      Matrix ja(a.nx, a.nx), jb(a.nx, a.nx), unused(a.nx, 0);
      a.rhs_jacobian(0.0, x, z, ja, unused);
      b.rhs_jacobian(0.0, x, z, jb, unused);
      EXPECT_LE((ja - jb).cwiseAbs().maxCoeff(), 1e-11 * (1.0 + jb.cwiseAbs().maxCoeff()));
    }
  }
}

// A random model: n coordinates with a configuration-dependent, diagonally dominant (so SPD)
// mass matrix, a potential, and k random rows eta^a_i = alpha + beta cos(q_j), started at rest
// (which every row admits).
std::string random_model_text(std::mt19937& rng, int n, int k) {
  std::uniform_real_distribution<double> mass(1.0, 2.0), coupling(-0.3, 0.3), coef(-1.0, 1.0);
  std::uniform_int_distribution<int> pick(0, n - 1);
  const auto q = [](int i) {
    std::string name = "q";  // not "q" + to_string: GCC 12 warns (-Wrestrict) on that
    return name += std::to_string(i);
  };
  std::ostringstream t;
  t << "[coordinates]\n";
  for (int i = 0; i < n; ++i) t << q(i) << " = { initial = " << num(0.3 * coef(rng)) << " }\n";
  t << "[mechanics]\nkinetic_energy = \"0.5*(";
  for (int i = 0; i < n; ++i) t << (i ? " + " : "") << num(mass(rng)) << "*" << q(i) << "'^2";
  for (int i = 0; i + 1 < n; ++i) {
    t << " + 2*" << num(coupling(rng)) << "*cos(" << q(pick(rng)) << ")*" << q(i) << "'*"
      << q(i + 1) << "'";
  }
  t << ")\"\npotential_energy = \"";
  for (int i = 0; i < n; ++i) t << (i ? " + " : "") << num(mass(rng)) << "*" << q(i) << "^2";
  t << " + " << num(coef(rng)) << "*sin(" << q(0) << ")\"\nconstraints = { ";
  for (int a = 0; a < k; ++a) {
    t << (a ? ", " : "") << "c" << a << " = \"";
    for (int i = 0; i < n; ++i) {
      t << (i ? " + " : "") << "(" << num(coef(rng)) << " + " << num(coef(rng)) << "*cos("
        << q(pick(rng)) << "))*" << q(i) << "'";
    }
    t << "\"";
  }
  t << " }\n[solver]\nt_end = 1.0\n";
  return t.str();
}

TEST(ConstrainedAccelerations, RandomModelsEqualTheGenericElimination) {
  std::mt19937 rng(42);
  int models = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 3 + trial % 3;        // 3..5 coordinates
    const int k = 1 + trial % (n - 1);  // 1..n-1 rows
    const std::string text = random_model_text(rng, n, k);
    SCOPED_TRACE(text);
    const auto model =
        std::make_shared<const model::Model>(model::load_model_text(text, "random.toml"));
    expect_fused_equals_generic(model::nonholonomic_model(model), rng, 10);
    ++models;
  }
  EXPECT_EQ(models, 30);
}

// Sets the native-code threshold for one scope.
class ScopedThreshold {
 public:
  explicit ScopedThreshold(long evaluations) : saved_(native_tape_threshold()) {
    set_native_tape_threshold(evaluations);
  }
  ~ScopedThreshold() { set_native_tape_threshold(saved_); }
  ScopedThreshold(const ScopedThreshold&) = delete;
  ScopedThreshold& operator=(const ScopedThreshold&) = delete;

 private:
  long saved_;
};

// The cases of the bit-for-bit tests: the sleigh and disk files (their names) and 6 random
// models (their texts).
std::vector<std::string> bit_case_texts(std::mt19937& rng) {
  std::vector<std::string> texts = {"chaplygin_sleigh.toml", "vertical_disk.toml"};
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 3 + trial % 3;
    texts.push_back(random_model_text(rng, n, 1 + trial % (n - 1)));
  }
  return texts;
}

std::shared_ptr<const model::Model> bit_case_model(const std::string& text) {
  if (text.ends_with(".toml")) return file_model(text);
  return std::make_shared<const model::Model>(model::load_model_text(text, "random.toml"));
}

// A model file's compiled flow has a fast path (DirectRhs), on which the integrators read the
// accelerations tape's outputs from its native function's array in place. Its x' equals the
// interpreter's bit for bit (native code performs the interpreter's operations): the same model
// loaded twice, one copy never compiled and one compiled at its first evaluation, evaluated
// through FlowEvaluator as the integrators call it, at random states of the sleigh, the disk and
// random models.
TEST(ConstrainedAccelerations, FlowFastPathGivesTheInterpretersBits) {
  std::mt19937 rng(2026);
  const std::vector<std::string> texts = bit_case_texts(rng);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int compared = 0;
  for (size_t c = 0; c < texts.size(); ++c) {
    const auto load = [&] { return bit_case_model(texts[c]); };
    const auto interpreted = model::nonholonomic_model(load()).compile();
    const auto native = model::nonholonomic_model(load()).compile();
    const Flow& fi = interpreted.system.mode(interpreted.mode).flow;
    const Flow& fn = native.system.mode(native.mode).flow;
    ASSERT_NE(fn.rhs.target<DirectRhs>(), nullptr) << "case " << c;
    ode::FlowEvaluator ei(fi.nx, 0, ode::NewtonOptions{}), en(fn.nx, 0, ode::NewtonOptions{});
    ei.set_flow(fi);
    en.set_flow(fn);
    for (int s = 0; s < 40; ++s) {
      Vector x(fi.nx), xi(fi.nx), xn(fi.nx);
      for (int i = 0; i < fi.nx; ++i) x[i] = u(rng);
      {
        const ScopedThreshold never(-1);
        ASSERT_TRUE(ei.derivative(0.1 * s, x, xi));
      }
      {
        const ScopedThreshold at_once(0);
        ASSERT_TRUE(en.derivative(0.1 * s, x, xn));
      }
      EXPECT_EQ(std::memcmp(xi.data(), xn.data(), sizeof(double) * static_cast<size_t>(fi.nx)), 0)
          << "case " << c << " state " << s << ": " << xi.transpose() << " vs " << xn.transpose();
      ++compared;
    }
  }
  EXPECT_EQ(compared, 8 * 40);
}

// The fused velocity projection (one tape, L D L^T on the graph) against the generic
// NonholonomicModel::project_velocity (Eigen LLT and LDLT): v to rounding, T = 1/2 v^T M v by
// kinetic_energy, eta v = 0; and the native function's outputs read in place (q and qdot
// contiguous, as in the integrators' state) equal the interpreter's bit for bit. Sleigh, disk and
// random models at random states off the constraints.
TEST(ConstrainedAccelerations, VelocityProjectionEqualsTheGenericProjection) {
  std::mt19937 rng(515);
  const std::vector<std::string> texts = bit_case_texts(rng);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int compared = 0;
  for (size_t c = 0; c < texts.size(); ++c) {
    const auto load = [&] { return bit_case_model(texts[c]); };
    const mech::NonholonomicModel interpreted = model::nonholonomic_model(load());
    const mech::NonholonomicModel native = model::nonholonomic_model(load());
    const int n = interpreted.dof();
    for (int s = 0; s < 40; ++s) {
      Vector x(2 * n);
      for (int i = 0; i < 2 * n; ++i) x[i] = u(rng);
      const Vector q = x.head(n), qd = x.tail(n);
      Vector vi(n), vn(n);
      double ti = 0.0, tn = 0.0;
      {
        const ScopedThreshold never(-1);
        ASSERT_TRUE(interpreted.fused_velocity_projection(x.data(), x.data() + n, vi.data(), &ti));
      }
      {
        const ScopedThreshold at_once(0);
        ASSERT_TRUE(native.fused_velocity_projection(x.data(), x.data() + n, vn.data(), &tn));
      }
      const Vector generic = interpreted.project_velocity(q, qd);
      const double scale = 1.0 + qd.cwiseAbs().maxCoeff();
      EXPECT_LE((vi - generic).cwiseAbs().maxCoeff(), 1e-12 * scale) << "case " << c << " " << s;
      const double T = interpreted.kinetic_energy(q, generic);
      EXPECT_NEAR(ti, T, 1e-12 * (1.0 + T)) << "case " << c << " state " << s;
      const Vector violation = interpreted.constraint_matrix(q) * vi;
      EXPECT_LE(violation.cwiseAbs().maxCoeff(), 1e-12 * scale) << "case " << c << " " << s;
      EXPECT_EQ(std::memcmp(vi.data(), vn.data(), sizeof(double) * static_cast<size_t>(n)), 0)
          << "case " << c << " state " << s;
      EXPECT_EQ(std::memcmp(&ti, &tn, sizeof(double)), 0) << "case " << c << " state " << s;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 8 * 40);
}

// Rows x' and cos(theta) x' + sin(theta) y' are dependent at theta = 0: the fused tape's pivot is
// 0 there, it declines, and the flow reports the generic elimination's error.
TEST(ConstrainedAccelerations, DependentRowsAreReportedByTheGenericElimination) {
  const std::string text =
      "[model]\nname = \"dependent\"\n[coordinates]\nx = { initial = 0.0 }\ny = { initial = 0.0 }\n"
      "theta = { initial = 0.5 }\n[mechanics]\nkinetic_energy = \"0.5*(x'^2 + y'^2 + theta'^2)\"\n"
      "constraints = { a = \"x'\", b = \"cos(theta)*x' + sin(theta)*y'\" }\n[solver]\nt_end = 1\n";
  const auto model =
      std::make_shared<const model::Model>(model::load_model_text(text, "dependent.toml"));
  const mech::NonholonomicModel m = model::nonholonomic_model(model);
  DofVector<double> q = DofVector<double>::Zero(3), qd = DofVector<double>::Zero(3);
  DofVector<double> qdd = DofVector<double>::Zero(3);
  EXPECT_FALSE(m.accelerations()(0.0, q, qd, qdd));
  DofVector<double> v(3);
  double T = 0.0;
  EXPECT_FALSE(m.fused_velocity_projection(q.data(), qd.data(), v.data(), &T));
  q[2] = 0.5;
  EXPECT_TRUE(m.accelerations()(0.0, q, qd, qdd));
  EXPECT_TRUE(m.fused_velocity_projection(q.data(), qd.data(), v.data(), &T));
  const auto compiled = m.compile();
  const Flow& flow = compiled.system.mode(compiled.mode).flow;
  Vector x = Vector::Zero(6), xdot(6);
  try {
    flow.rhs(0.0, x, Vector(), xdot);
    ADD_FAILURE() << "dependent rows accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("model 'dependent'"), std::string::npos) << what;
    EXPECT_NE(what.find("dependent"), std::string::npos) << what;
  }
  // The same through the integrators' fast path, which declines and hands the state over.
  ode::FlowEvaluator eval(6, 0, ode::NewtonOptions{});
  eval.set_flow(flow);
  try {
    eval.derivative(0.0, x, xdot);
    ADD_FAILURE() << "dependent rows accepted by the fast path";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model 'dependent'"), std::string::npos) << e.what();
  }
}

// The walls of model files carry a compiled dh/dq (NonholonomicWall::gradient), which their
// guards use for the gradient and the rate instead of AD: both equal AD of -h(q) (the guard's
// value) through the gap's own tape at random states, including angles far from 0.
TEST(ConstrainedAccelerations, WallGradientsEqualAutomaticDifferentiationOfTheGap) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.5, 1.5), angle(-40.0, 40.0);
  int checked = 0;
  for (const std::string file : {"chaplygin_sleigh.toml", "vertical_disk.toml"}) {
    SCOPED_TRACE(file);
    const mech::NonholonomicModel m = model::nonholonomic_model(file_model(file));
    const auto compiled = m.compile(mech::NonholonomicModel::CompileOptions{true});
    const Mode& mode = compiled.system.mode(compiled.mode);
    const int n = m.dof(), nx = 2 * n;
    ASSERT_EQ(static_cast<int>(mode.guards.size()), m.wall_count());
    for (int w = 0; w < m.wall_count(); ++w) {
      ASSERT_TRUE(static_cast<bool>(m.wall(w).gradient));
      const Guard& g = mode.guards[static_cast<size_t>(w)];
      const auto p = [&m, w, n](const auto&, const auto& x, const auto&) {
        using S = std::decay_t<decltype(x[0])>;
        DofVector<S> q(n);
        for (int i = 0; i < n; ++i) q[i] = x[i];
        return S(-m.wall(w).h(q));
      };
      for (int s = 0; s < 200; ++s) {
        Vector x(nx), xdot(nx);
        for (int i = 0; i < nx; ++i)
          x[i] = (i == 2 || i == 3 ? angle(rng) : u(rng)), xdot[i] = u(rng);
        const Vector z;
        Vector dpdx(nx), dpdx_ad(nx), dpdz, dpdz_ad;
        EXPECT_EQ(g.gradient(0.0, x, z, dpdx, dpdz), 0.0);
        saltus::detail::autodiff_guard_gradient(p, 0.0, x, z, dpdx_ad, dpdz_ad);
        const double scale = 1.0 + dpdx_ad.cwiseAbs().maxCoeff();
        for (int i = 0; i < nx; ++i) EXPECT_NEAR(dpdx[i], dpdx_ad[i], 1e-13 * scale) << i;
        const double rate = g.rate(0.0, x, z, xdot, z);
        const double rate_ad = saltus::detail::autodiff_guard_rate(p, 0.0, x, z, xdot, z);
        EXPECT_NEAR(rate, rate_ad, 1e-13 * scale * (1.0 + xdot.cwiseAbs().sum()));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 800);  // two walls each
}

// The walls' gaps in doubles come from one tape of all gaps, kept per thread for the last q: each
// must be the gap's own value bit for bit, whatever the order of the walls, with q repeated or
// changed, and with another model's walls evaluated in between on the same thread.
TEST(ConstrainedAccelerations, WallGapsFromTheSharedTapeAreEachGapsOwnBits) {
  const mech::NonholonomicModel sleigh =
      model::nonholonomic_model(file_model("chaplygin_sleigh.toml"));
  const mech::NonholonomicModel disk = model::nonholonomic_model(file_model("vertical_disk.toml"));
  const mech::NonholonomicModel sleigh_again =
      model::nonholonomic_model(file_model("chaplygin_sleigh.toml"));
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-1.5, 1.5), angle(-40.0, 40.0);
  std::uniform_int_distribution<int> pick(0, 2);
  const mech::NonholonomicModel* models[3] = {&sleigh, &disk, &sleigh_again};
  std::vector<double> q_prev;
  int checked = 0;
  for (int s = 0; s < 600; ++s) {
    const mech::NonholonomicModel& m = *models[pick(rng)];
    const int n = m.dof();
    // Half the time the previous q again, or its first n entries: a memo hit for this model, or
    // another model's q (which must not be taken for this one's).
    std::vector<double> q(static_cast<size_t>(n));
    const bool again = s % 2 == 1 && static_cast<int>(q_prev.size()) >= n;
    for (int i = 0; i < n; ++i) {
      q[static_cast<size_t>(i)] =
          again ? q_prev[static_cast<size_t>(i)] : (i == 2 ? angle(rng) : u(rng));
    }
    if (!again) q_prev = q;
    DofVector<double> qv(n);
    for (int i = 0; i < n; ++i) qv[i] = q[static_cast<size_t>(i)];
    for (int k = 0; k < m.wall_count(); ++k) {
      const int w = s % 3 == 0 ? m.wall_count() - 1 - k : k;  // both orders
      const double own = m.wall(w).h(qv);                     // the gap's own tape
      const double shared = m.wall(w).h(q.data(), n);
      EXPECT_EQ(std::memcmp(&own, &shared, sizeof(double)), 0)
          << "state " << s << " wall " << w << ": " << own << " vs " << shared;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 600 * 2);  // two walls each
}

// The compiled system samples its walls through one guard set (the model's all-gaps function):
// each value equals the wall's guard value and -h from the gap's own tape, bit for bit, at
// random states of the sleigh and the disk.
TEST(ConstrainedAccelerations, TheWallGuardSetGivesEachGuardsBits) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.5, 1.5), angle(-40.0, 40.0);
  int checked = 0;
  for (const char* file : {"chaplygin_sleigh.toml", "vertical_disk.toml"}) {
    const mech::NonholonomicModel m = model::nonholonomic_model(file_model(file));
    ASSERT_NE(m.all_wall_gaps(), nullptr) << file;
    const mech::NonholonomicModel::Compiled compiled = m.compile();
    const Mode& mode = compiled.system.mode(compiled.mode);
    ASSERT_TRUE(mode.guard_set.has_value()) << file;
    const int n = m.dof(), walls = m.wall_count();
    ASSERT_EQ(static_cast<int>(mode.guards.size()), walls) << file;
    for (int s = 0; s < 300; ++s) {
      Vector x(2 * n);
      for (int i = 0; i < 2 * n; ++i) x[i] = i == 2 || i == 3 ? angle(rng) : u(rng);
      const Vector z;
      std::vector<double> values(static_cast<size_t>(walls), 0.0);
      mode.guard_set->fast(mode.guard_set->context.get(), 0.0, x.data(), z.data(), values.data());
      DofVector<double> q = x.head(n);
      for (int w = 0; w < walls; ++w) {
        const double set = values[static_cast<size_t>(w)];
        const double guard = mode.guards[static_cast<size_t>(w)].value(0.0, x, z);
        const double own = -m.wall(w).h(q);
        EXPECT_EQ(std::memcmp(&set, &guard, sizeof(double)), 0)
            << file << " state " << s << " wall " << w << ": " << set << " vs " << guard;
        EXPECT_EQ(std::memcmp(&set, &own, sizeof(double)), 0)
            << file << " state " << s << " wall " << w << ": " << set << " vs " << own;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2 * 300 * 2);  // two walls each
}

}  // namespace
}  // namespace saltus::lang
