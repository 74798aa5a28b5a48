// The Jacobians of flows computed in chunks of kJacobianChunk directions per forward pass
// (ChunkDual, core/flow.hpp) against the column-by-column reference (one Dual pass per column),
// both forced by ScopedJacobianPasses, at seeded random states, for every mode of: the bouncing
// ball (ODE and semi-explicit DAE, t-dependent), a semi-explicit and an implicit DAE with 9 and 10
// differentiated inputs (chunk boundaries), the C++ rod under every impact law (free, closed, slip,
// stick modes) and with a compliant frictional top, the model files bouncing_rod.toml,
// box_sliding_two_corners (index-set modes: two closed contacts) and chaplygin_sleigh.toml
// (constraint tapes), and the rolling ball on a table (NonholonomicModel, 10 states: a chunk of 8
// and one of 2).
//
// Both compute the same products and sums in the same order per direction, so they agree to
// rounding; compared at 1e-14 relative to the reference's largest entry (+1), and every case
// must have evaluated some states.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "saltus/core/flow.hpp"
#include "saltus/core/hybrid_system.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"
#include "support/model_files.hpp"

namespace saltus {
namespace {

constexpr double kRelative = 1e-14;

struct Jacobians {
  Matrix dx, dz, dxdot;  // dxdot: implicit flows only
};

// The Jacobians of a flow's callables at (t, x, xdot, z), by the current Jacobian setting.
Jacobians evaluate(const Flow& f, double t, const Vector& x, const Vector& xdot, const Vector& z) {
  Jacobians j;
  const int n_out = f.nx;
  j.dx = Matrix::Zero(n_out, f.nx);
  j.dz = Matrix::Zero(n_out, f.nz);
  if (f.kind == FlowKind::ImplicitDae) {
    j.dxdot = Matrix::Zero(f.nx, f.nx);
    f.residual_jacobian(t, x, xdot, z, j.dx, j.dxdot, j.dz);
  } else {
    f.rhs_jacobian(t, x, z, j.dx, j.dz);
  }
  if (f.nz > 0) {
    Matrix gx = Matrix::Zero(f.nz, f.nx), gz = Matrix::Zero(f.nz, f.nz);
    f.algebraic_jacobian(t, x, z, gx, gz);
    j.dx.conservativeResize(n_out + f.nz, Eigen::NoChange);
    j.dx.bottomRows(f.nz) = gx;
    j.dz.conservativeResize(n_out + f.nz, Eigen::NoChange);
    j.dz.bottomRows(f.nz) = gz;
  }
  return j;
}

double largest(const Matrix& m) {
  return m.size() ? m.cwiseAbs().maxCoeff() : 0.0;
}

// Compares the two settings at `states` random states around x0 (spread `spread`, z and xdot
// around zero by 1) for every mode; returns the number of states evaluated (a state where the
// double rhs throws, as a stick mode with dependent directions, or gives a non-finite Jacobian is
// skipped: the setting cannot matter there).
int compare_modes(const HybridSystem& sys, const Vector& x0, double spread, std::mt19937& rng,
                  int states = 12) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int evaluated = 0;
  for (int id = 0; id < sys.mode_count(); ++id) {
    const Mode& mode = sys.mode(id);
    const Flow& f = mode.flow;
    if (f.nx != x0.size()) continue;
    for (int s = 0; s < states; ++s) {
      const double t = 0.5 + u(rng);
      Vector x = x0, xdot(f.nx), z(f.nz);
      for (int i = 0; i < f.nx; ++i) x[i] += spread * u(rng);
      for (int i = 0; i < f.nx; ++i) xdot[i] = u(rng);
      for (int i = 0; i < f.nz; ++i) z[i] = u(rng);
      Jacobians chunked, reference;
      try {
        {
          const ScopedJacobianPasses passes(JacobianPasses::Chunked);
          chunked = evaluate(f, t, x, xdot, z);
        }
        const ScopedJacobianPasses passes(JacobianPasses::OneDirection);
        reference = evaluate(f, t, x, xdot, z);
      } catch (const Error&) {
        continue;
      }
      if (!reference.dx.allFinite() || !reference.dz.allFinite()) continue;
      const double scale =
          1.0 + std::max({largest(reference.dx), largest(reference.dz), largest(reference.dxdot)});
      const double diff =
          std::max({largest(chunked.dx - reference.dx), largest(chunked.dz - reference.dz),
                    largest(chunked.dxdot - reference.dxdot)});
      EXPECT_LE(diff, kRelative * scale)
          << "mode '" << mode.name << "' at x = " << x.transpose() << "\nchunked:\n"
          << chunked.dx << "\nby columns:\n"
          << reference.dx;
      EXPECT_GT(std::max(largest(reference.dx), largest(reference.dz)), 0.0) << mode.name;
      ++evaluated;
    }
  }
  return evaluated;
}

TEST(ChunkedJacobian, BouncingBallOdeAndDae) {
  std::mt19937 rng(13001);
  systems::BouncingBall ball;
  ball.drag = 0.3;
  ball.lift_rate = 0.7;  // t enters the flow and the algebraic equation
  const HybridSystem sys = ball.build();
  EXPECT_EQ(compare_modes(sys, (Vector(2) << 1.0, -0.5).finished(), 1.0, rng), 24);
}

TEST(ChunkedJacobian, DaesAcrossChunkBoundaries) {
  std::mt19937 rng(13002);
  // Semi-explicit: nx = 5, nz = 4 (9 inputs: chunks of 8 and 1), coupled nonlinearly.
  HybridSystem semi;
  semi.add_mode("semi", semi_explicit_flow(
                            5, 4,
                            [](const auto& t, const auto& x, const auto& z, auto& xdot) {
                              using std::cos;
                              using std::exp;
                              using std::sin;
                              for (int i = 0; i < 5; ++i) {
                                xdot[i] = sin(x[(i + 1) % 5] * z[i % 4]) + t * x[i] * x[i] -
                                          exp(0.1 * z[(i + 2) % 4]) * cos(x[i]);
                              }
                            },
                            [](const auto& t, const auto& x, const auto& z, auto& g) {
                              using std::atan;
                              for (int a = 0; a < 4; ++a) {
                                g[a] = z[a] * (2.0 + x[a] * x[a]) - atan(x[a + 1] * t) +
                                       0.3 * z[(a + 1) % 4] * x[4];
                              }
                            }));
  EXPECT_EQ(compare_modes(semi, Vector::Constant(5, 0.2), 1.0, rng), 12);
  // Implicit: nx = 6, nz = 4 ((x, z): 10 inputs; x': 6).
  HybridSystem implicit;
  implicit.add_mode(
      "implicit", implicit_flow(
                      6, 4,
                      [](const auto& t, const auto& x, const auto& xdot, const auto& z, auto& res) {
                        using std::sin;
                        using std::sqrt;
                        for (int i = 0; i < 6; ++i) {
                          res[i] =
                              (1.5 + x[i] * x[(i + 2) % 6]) * xdot[i] - sin(z[i % 4] + t * x[i]) +
                              sqrt(1.0 + xdot[(i + 1) % 6] * xdot[(i + 1) % 6]) * x[(i + 3) % 6];
                        }
                      },
                      [](const auto&, const auto& x, const auto& z, auto& g) {
                        using std::cos;
                        for (int a = 0; a < 4; ++a)
                          g[a] = z[a] * cos(x[a]) + x[a + 2] * z[(a + 3) % 4];
                      }));
  EXPECT_EQ(compare_modes(implicit, Vector::Constant(6, -0.1), 1.0, rng), 12);
}

TEST(ChunkedJacobian, RodUnderEveryImpactLaw) {
  std::mt19937 rng(13003);
  Vector x0(6);
  x0 << 0.0, 0.2, 0.7, 0.3, -1.0, 2.0;
  for (const mech::ImpactLawKind kind : mech::all_impact_laws()) {
    SCOPED_TRACE(mech::to_string(kind));
    mech::BouncingRodParameters p;
    p.law = {kind, 0.6, 0.3, 0.4};
    const auto rod = mech::bouncing_rod_model(p).compile();
    EXPECT_GE(compare_modes(rod.system, x0, 0.5, rng), 2 * 12);  // free, closed (slip, stick)
  }
}

TEST(ChunkedJacobian, RodWithCompliantFrictionalTop) {
  std::mt19937 rng(13004);
  mech::BouncingRodParameters p;
  p.law = {mech::ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.4};
  mech::LagrangianModel rod = mech::bouncing_rod_model(p);
  const double l = p.ell;
  mech::CompliantContactLaw top_law = mech::CompliantContactLaw::hunt_crossley(2e3, 0.5);
  top_law.mu = 0.3;  // frictional: the compliant friction modes (stick, slip +-)
  rod.add_compliant_contact(
      "top", "rod",
      [l](const auto& q) {
        using std::sin;
        return 0.9 - (q[1] + 2.0 * l * sin(q[2]));
      },
      [l](const auto& q) {
        using std::cos;
        return q[0] + 2.0 * l * cos(q[2]);
      },
      top_law);
  const auto c = rod.compile();
  Vector x0(6);
  x0 << 0.0, 0.25, 0.7, 0.3, -1.0, 2.0;
  EXPECT_GE(compare_modes(c.system, x0, 0.3, rng), 6 * 12);
}

TEST(ChunkedJacobian, MechanicalModelFiles) {
  std::mt19937 rng(13005);
  for (const char* file :
       {"bouncing_rod.toml", "box_sliding_two_corners.toml", "chaplygin_sleigh.toml"}) {
    SCOPED_TRACE(file);
    auto m = std::make_shared<const model::Model>(
        model::load_model_file(saltus::testing::models_dir() / file));
    model::ModelRun run;
    const model::ModelStart start = model::prepare_model_run(m, run);
    EXPECT_GE(compare_modes(run.system, start.x0, 0.3, rng), 12);
  }
}

TEST(ChunkedJacobian, RollingBallOnTableTwoChunks) {
  std::mt19937 rng(13006);
  const systems::RollingBall p;
  const mech::NonholonomicModel ball = systems::rolling_ball(p, systems::EllipticTable{});
  const auto c = ball.compile();
  const Vector x0 = systems::rolling_ball_state(p, 0.3, -0.2, 1.1, 0.4, 0.2, 0.5, -0.7, 0.9);
  ASSERT_EQ(x0.size(), 10);
  EXPECT_EQ(compare_modes(c.system, x0, 0.3, rng), 12);
}

}  // namespace
}  // namespace saltus
