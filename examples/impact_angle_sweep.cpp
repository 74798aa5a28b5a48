// A planar rigid body (uniform rod, half-length 1, lower end in contact, axis at 45 deg) strikes
// the ground with unit speed at incidence angles from grazing to normal and back, under every
// frictional impact law (FORMULAS.md 6-9). Writes CSV to stdout:
//   law,angle_deg,v_t_minus,v_n_minus,v_t_plus,v_n_plus,P_t,P_n,dT,T_minus,status
// Plot with scripts/plot_impact_sweep.py. Usage: impact_angle_sweep [e] [e_t] [mu] > sweep.csv
#include <Eigen/LU>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "saltus/mech/collision_matrix.hpp"
#include "saltus/mech/impact_law.hpp"

int main(int argc, char** argv) {
  using namespace saltus::mech;
  const double e = argc > 1 ? std::atof(argv[1]) : 0.5;
  const double e_t = argc > 2 ? std::atof(argv[2]) : 0.0;
  const double mu = argc > 3 ? std::atof(argv[3]) : 0.3;
  const double pi = 3.141592653589793;
  const Eigen::Matrix2d A =
      rigid_body_collision_matrix(1.0, 1.0 / 3.0, -std::sqrt(0.5), -std::sqrt(0.5));
  std::printf("law,angle_deg,v_t_minus,v_n_minus,v_t_plus,v_n_plus,P_t,P_n,dT,T_minus,status\n");
  for (ImpactLawKind kind : frictional_impact_laws()) {
    for (int i = 1; i < 180; ++i) {
      const double angle = i * pi / 180.0;  // angle between the velocity and the +t axis
      const Eigen::Vector2d v(std::cos(angle), -std::sin(angle));
      const double T_minus = 0.5 * v.dot(A.inverse() * v);
      const auto r = solve_planar_impact({A, v}, {kind, e, e_t, mu});
      std::printf("%s,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s\n", to_string(kind), i,
                  v[0], v[1], r.v_plus[0], r.v_plus[1], r.impulse[0], r.impulse[1], r.dT, T_minus,
                  to_string(r.status));
    }
  }
  return 0;
}
