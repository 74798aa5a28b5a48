#include "saltus/systems/nonholonomic_billiards.hpp"

#include <cmath>

namespace saltus::systems {

namespace {

// h >= 0 inside the ellipse for the point (px, py).
template <class S>
S inside(const EllipticTable& t, const S& px, const S& py) {
  return 1.0 - px * px / (t.A * t.A) - py * py / (t.B * t.B);
}

// Walls "front" and "back" for the two ends (x, y) +/- r (cos q[heading], sin q[heading]) of a
// segment (the sleigh's blade and rear end, the disk's rim in its plane).
void add_end_walls(mech::NonholonomicModel& model, const EllipticTable& t, double r, int heading,
                   double restitution) {
  for (const double side : {1.0, -1.0}) {
    model.add_wall(
        side > 0.0 ? "front" : "back",
        [=](const auto& q) {
          using std::cos, std::sin;
          return inside(t, q[0] + side * r * cos(q[heading]), q[1] + side * r * sin(q[heading]));
        },
        restitution);
  }
}

}  // namespace

mech::NonholonomicModel chaplygin_sleigh(const ChaplyginSleigh& p,
                                         std::optional<EllipticTable> table, double restitution) {
  mech::NonholonomicModel model("chaplygin_sleigh", 3);
  const double m = p.m, I = p.I, a = p.a, L = p.L;
  // T = 1/2 [m (xd^2 + yd^2) + (I + m a^2) thd^2 + 2 m a thd (yd cos th - xd sin th)]
  model.set_mass_matrix([=](const auto& q, auto& M) {
    using std::cos, std::sin;
    M(0, 0) = M(1, 1) = m;
    M(0, 2) = M(2, 0) = -m * a * sin(q[2]);
    M(1, 2) = M(2, 1) = m * a * cos(q[2]);
    M(2, 2) = I + m * a * a;
  });
  // h = dT/dq - Mdot qdot: the centripetal pull of the offset centre of mass.
  model.set_forces([=](const auto&, const auto& q, const auto& qd, auto& h) {
    using std::cos, std::sin;
    h[0] = m * a * cos(q[2]) * qd[2] * qd[2];
    h[1] = m * a * sin(q[2]) * qd[2] * qd[2];
  });
  // The blade does not slip sideways: yd cos th - xd sin th = 0.
  model.add_constraint("blade", [](const auto& q, auto& row) {
    using std::cos, std::sin;
    row[0] = -sin(q[2]);
    row[1] = cos(q[2]);
  });
  if (table) add_end_walls(model, *table, L, 2, restitution);
  return model;
}

mech::NonholonomicModel rolling_ball(const RollingBall& p, std::optional<EllipticTable> table,
                                     double restitution) {
  mech::NonholonomicModel model("rolling_ball", 5);
  const double k2 = p.k2, r = p.r;
  // T = 1/2 (xd^2 + yd^2 + k^2 (thd^2 + phd^2 + psd^2 + 2 phd psd cos th)), q = (x, y, th, ph, psi)
  model.set_mass_matrix([=](const auto& q, auto& M) {
    using std::cos;
    M(0, 0) = M(1, 1) = 1.0;
    M(2, 2) = M(3, 3) = M(4, 4) = k2;
    M(3, 4) = M(4, 3) = k2 * cos(q[2]);
  });
  // h = dT/dq - Mdot qdot (only M(3, 4) depends on q, through th).
  model.set_forces([=](const auto&, const auto& q, const auto& qd, auto& h) {
    using std::sin;
    const auto s = sin(q[2]);
    h[2] = -k2 * s * qd[3] * qd[4];
    h[3] = k2 * s * qd[2] * qd[4];
    h[4] = k2 * s * qd[2] * qd[3];
  });
  // Rolling without slipping: xd = r w_y, yd = -r w_x (space angular velocity w).
  model.add_constraint("roll_x", [=](const auto& q, auto& row) {
    using std::cos, std::sin;
    row[0] = 1.0;
    row[2] = -r * sin(q[4]);
    row[3] = r * sin(q[2]) * cos(q[4]);
  });
  model.add_constraint("roll_y", [=](const auto& q, auto& row) {
    using std::cos, std::sin;
    row[1] = 1.0;
    row[2] = r * cos(q[4]);
    row[3] = r * sin(q[2]) * sin(q[4]);
  });
  if (table) {
    const EllipticTable t = *table;
    model.add_wall(
        "rim", [=](const auto& q) { return inside(t, q[0], q[1]); }, restitution);
  }
  return model;
}

mech::NonholonomicModel vertical_disk(const VerticalDisk& p, std::optional<EllipticTable> table,
                                      double restitution) {
  mech::NonholonomicModel model("vertical_disk", 4);
  const double m = p.m, R = p.R, I = p.I, J = p.J;
  // T = 1/2 m (xd^2 + yd^2) + 1/2 I thd^2 + 1/2 J phd^2, q = (x, y, th, ph); h = 0.
  model.set_mass_matrix([=](const auto&, auto& M) {
    M(0, 0) = M(1, 1) = m;
    M(2, 2) = I;
    M(3, 3) = J;
  });
  // Rolling without slipping: xd = R thd cos ph, yd = R thd sin ph.
  model.add_constraint("roll_x", [=](const auto& q, auto& row) {
    using std::cos;
    row[0] = 1.0;
    row[2] = -R * cos(q[3]);
  });
  model.add_constraint("roll_y", [=](const auto& q, auto& row) {
    using std::sin;
    row[1] = 1.0;
    row[2] = -R * sin(q[3]);
  });
  if (table) add_end_walls(model, *table, R, 3, restitution);
  return model;
}

Vector sleigh_state(double x, double y, double theta, double v, double omega) {
  Vector s(6);
  s << x, y, theta, v * std::cos(theta), v * std::sin(theta), omega;
  return s;
}

Vector rolling_ball_state(const RollingBall& p, double x, double y, double theta, double phi,
                          double psi, double theta_dot, double phi_dot, double psi_dot) {
  const double r = p.r;
  Vector s(10);
  s << x, y, theta, phi, psi,
      r * theta_dot * std::sin(psi) - r * phi_dot * std::sin(theta) * std::cos(psi),
      -r * theta_dot * std::cos(psi) - r * phi_dot * std::sin(theta) * std::sin(psi), theta_dot,
      phi_dot, psi_dot;
  return s;
}

Vector vertical_disk_state(const VerticalDisk& p, double x, double y, double theta, double phi,
                           double theta_dot, double phi_dot) {
  Vector s(8);
  s << x, y, theta, phi, p.R * theta_dot * std::cos(phi), p.R * theta_dot * std::sin(phi),
      theta_dot, phi_dot;
  return s;
}

double sleigh_speed(ConstVectorRef x) {
  return x[3] * std::cos(x[2]) + x[4] * std::sin(x[2]);
}

Eigen::Vector3d rolling_ball_spin(ConstVectorRef x) {
  const double th = x[2], psi = x[4], thd = x[7], phd = x[8], psd = x[9];
  return {thd * std::cos(psi) + phd * std::sin(psi) * std::sin(th),
          thd * std::sin(psi) - phd * std::cos(psi) * std::sin(th), psd + phd * std::cos(th)};
}

}  // namespace saltus::systems
