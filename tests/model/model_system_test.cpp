// A model file as a HybridSystem: the symbolic Jacobians of every flow and constraint, and the
// symbolic guard gradients, of every model in models/ equal forward-mode AD (saltus::Dual) of the
// same expressions evaluated through their tapes, at several states.
#include "saltus/model/model_system.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "saltus/core/autodiff.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/model/model_loader.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

// d out / d (x or x' or z) by AD through a tape of `nodes`: column k seeds component k of
// `which` (0: x, 1: x', 2: z).
Matrix ad_jacobian(const Model& m, const std::vector<lang::NodeId>& nodes, int which, double t,
                   const Vector& x, const Vector& xr, const Vector& z) {
  std::vector<lang::TapeOutput> out;
  for (size_t i = 0; i < nodes.size(); ++i) out.push_back({nodes[i], static_cast<int>(i)});
  const lang::Tape tape = lang::compile_tape(*m.graph, out);
  const Vector& seed = which == 0 ? x : (which == 1 ? xr : z);
  Matrix J(static_cast<Eigen::Index>(nodes.size()), seed.size());
  for (Eigen::Index k = 0; k < seed.size(); ++k) {
    DualVector xd(x.size()), rd(xr.size()), zd(z.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) xd[i] = Dual(x[i], which == 0 && i == k);
    for (Eigen::Index i = 0; i < xr.size(); ++i) rd[i] = Dual(xr[i], which == 1 && i == k);
    for (Eigen::Index i = 0; i < z.size(); ++i) zd[i] = Dual(z[i], which == 2 && i == k);
    run(tape, Dual(t), xd, rd, zd, [&](int row, const Dual& v) { J(row, k) = v.derivative(); });
  }
  return J;
}

TEST(ModelSystem, SymbolicDerivativesEqualAutomaticDifferentiation) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".toml") continue;
    const auto model = std::make_shared<const Model>(load_model_file(entry.path()));
    const HybridSystem sys = build_hybrid_system(model);
    const int nx = static_cast<int>(model->states.size());
    for (int trial = 0; trial < 3; ++trial) {
      const double t = 0.3 + 0.7 * trial;
      for (size_t mi = 0; mi < model->modes.size(); ++mi) {
        const ModelMode& mode = model->modes[mi];
        const Flow& f = sys.mode(static_cast<ModeId>(mi)).flow;
        const int nz = f.nz;
        const Vector x = Vector::LinSpaced(nx, 0.2 + 0.1 * trial, 1.3 - 0.2 * trial);
        const Vector xr = Vector::LinSpaced(nx, -0.4, 0.9 + trial);
        const Vector z = Vector::LinSpaced(nz, 0.6, 1.1);
        const std::string where = entry.path().filename().string() + " mode " + mode.name;
        Matrix jx(nx, nx), jr(nx, nx), jz(nx, nz);
        if (f.kind == FlowKind::ImplicitDae) {
          f.residual_jacobian(t, x, xr, z, jx, jr, jz);
          EXPECT_TRUE(jr.isApprox(ad_jacobian(*model, mode.flow, 1, t, x, xr, z), 1e-14)) << where;
        } else {
          f.rhs_jacobian(t, x, z, jx, jz);
        }
        const Vector& rate = f.kind == FlowKind::ImplicitDae ? xr : x;
        const Matrix ax = ad_jacobian(*model, mode.flow, 0, t, x, rate, z);
        const Matrix az = ad_jacobian(*model, mode.flow, 2, t, x, rate, z);
        EXPECT_LE((jx - ax).norm(), 1e-14 * (1 + ax.norm())) << where << "\n" << jx << "\n" << ax;
        EXPECT_LE((jz - az).norm(), 1e-14 * (1 + az.norm())) << where;
        if (nz > 0) {
          Matrix gx(nz, nx), gz(nz, nz);
          f.algebraic_jacobian(t, x, z, gx, gz);
          EXPECT_LE((gx - ad_jacobian(*model, mode.constraints, 0, t, x, x, z)).norm(), 1e-14)
              << where;
          EXPECT_LE((gz - ad_jacobian(*model, mode.constraints, 2, t, x, x, z)).norm(), 1e-14)
              << where;
        }
        // The mode's own guards (the system's first ones; sections' observers follow them).
        const auto& guards = sys.mode(static_cast<ModeId>(mi)).guards;
        ASSERT_GE(guards.size(), mode.guards.size()) << where;
        for (size_t k = 0; k < mode.guards.size(); ++k) {
          Vector dpdx(nx), dpdz(nz);
          const double dpdt = guards[k].gradient(t, x, z, dpdx, dpdz);
          const std::vector<lang::NodeId> p{mode.guards[k].value};
          EXPECT_LE((dpdx.transpose() - ad_jacobian(*model, p, 0, t, x, x, z)).norm(), 1e-14)
              << where << " guard " << guards[k].name;
          EXPECT_LE((dpdz.transpose() - ad_jacobian(*model, p, 2, t, x, x, z)).norm(), 1e-14)
              << where << " guard " << guards[k].name;
          // dp/dt through a Dual time.
          const lang::Tape tape = lang::compile_tape(*model->graph, {{p[0], 0}});
          DualVector xd(nx), zd(nz);
          for (int i = 0; i < nx; ++i) xd[i] = Dual(x[i]);
          for (int i = 0; i < nz; ++i) zd[i] = Dual(z[i]);
          EXPECT_NEAR(dpdt, evaluate(tape, Dual(t, 1.0), xd, zd).derivative(), 1e-14);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace saltus::model
