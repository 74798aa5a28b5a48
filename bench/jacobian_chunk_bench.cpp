// Cost of one flow Jacobian by automatic differentiation (core/flow.hpp, issue 13): chunked
// passes (ChunkDual, kJacobianChunk directions per pass) against one Dual pass per column
// (JacobianPasses::OneDirection), for flows of 2 to 10 states, from a trivial ODE to the rolling
// ball's Lagrange-d'Alembert dynamics. Medians of 5 x 15 batches of 2000 calls. Where the chunks
// pay decides detail::chunked_jacobian_pays (src/core/autodiff.cpp).
//
//   jacobian_chunk_bench     prints one line per flow: n, ns per Jacobian each way, their ratio
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "saltus/core/flow.hpp"
#include "saltus/mech/bouncing_rod.hpp"
#include "saltus/systems/bouncing_ball.hpp"
#include "saltus/systems/nonholonomic_billiards.hpp"

namespace {

using namespace saltus;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double nanoseconds_per_jacobian(const Flow& f, const Vector& x, bool by_columns) {
  Matrix J(f.nx, f.nx), Jz(f.nx, 0);
  const Vector z(0);
  const ScopedJacobianPasses passes(by_columns ? JacobianPasses::OneDirection
                                               : JacobianPasses::Chunked);
  std::vector<double> batches;
  for (int r = 0; r < 15; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 2000; ++i) {
      f.rhs_jacobian(0.1, x, z, J, Jz);
    }
    const auto stop = std::chrono::steady_clock::now();
    batches.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / 2000);
  }
  return median(batches);
}

void report(const char* name, const Flow& f, const Vector& x) {
  std::vector<double> chunked, columns;
  for (int k = 0; k < 5; ++k) {  // interleaved
    chunked.push_back(nanoseconds_per_jacobian(f, x, false));
    columns.push_back(nanoseconds_per_jacobian(f, x, true));
  }
  const double a = median(chunked), b = median(columns);
  std::printf("%-32s n = %2d  chunked %8.0f ns  by columns %8.0f ns  columns / chunked %5.2f\n",
              name, f.nx, a, b, b / a);
}

}  // namespace

int main() {
  systems::BouncingBall ball;
  ball.drag = 0.5;
  const HybridSystem ball_system = ball.build();
  report("ball with drag", ball_system.mode(ball.flight).flow, (Vector(2) << 1.0, 0.0).finished());
  const Flow toy3 = ode_flow(3, [](const auto& t, const auto& x, auto& xdot) {
    using std::sin;
    xdot[0] = x[1];
    xdot[1] = x[2] * sin(x[0]);
    xdot[2] = -x[0] * x[1] + t;
  });
  report("3-state polynomial and sine", toy3, (Vector(3) << 1.0, 0.2, 0.3).finished());
  const Flow toy4 = ode_flow(4, [](const auto& t, const auto& x, auto& xdot) {
    using std::sin;
    xdot[0] = x[1];
    xdot[1] = x[2] * sin(x[0]);
    xdot[2] = -x[0] * x[3] + t;
    xdot[3] = x[2] * x[1];
  });
  report("4-state polynomial and sine", toy4, (Vector(4) << 1.0, 0.2, 0.3, 0.4).finished());

  // A point mass on a rough floor: 2 coordinates, the smallest mechanical model.
  mech::LagrangianModel point("point", 2);
  point.set_mass_matrix([](const auto&, auto& M) {
    M(0, 0) = 1.0;
    M(1, 1) = 1.0;
  });
  point.set_forces([](const auto&, const auto&, const auto& qd, auto& h) {
    h[0] = -0.1 * qd[0];
    h[1] = -9.81 - 0.1 * qd[1];
  });
  point.add_contact(
      "floor", "point", [](const auto& q) { return q[1]; }, [](const auto& q) { return q[0]; },
      mech::ContactImpactLaw{mech::ImpactLawKind::RouthPoisson, 0.5, 0.0, 0.3});
  const auto p = point.compile();
  const Vector xp = (Vector(4) << 0.0, 0.0, 1.0, 0.0).finished();
  report("point mass, free", p.system.mode(p.free).flow, xp);
  report("point mass, sliding on the floor", p.system.mode(p.slip_positive[0]).flow, xp);

  const auto rod = mech::bouncing_rod_model(mech::BouncingRodParameters{}).compile();
  Vector x_rod(6);
  x_rod << 0.0, 0.2, 0.7, 0.3, -1.0, 2.0;
  report("rod, free", rod.system.mode(rod.free).flow, x_rod);
  report("rod, closed tip", rod.system.mode(rod.closed[0]).flow, x_rod);

  const systems::RollingBall rb;
  const auto rolling = systems::rolling_ball(rb).compile();
  report("rolling ball", rolling.system.mode(0).flow,
         systems::rolling_ball_state(rb, 0.3, -0.2, 1.1, 0.4, 0.2, 0.5, -0.7, 0.9));
  return 0;
}
