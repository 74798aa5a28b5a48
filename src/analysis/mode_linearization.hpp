// One mode linearised at a consistent point in the state-space form the integrators see:
// x' = phi(t, x) with z = z(t, x) from 0 = g(t, x, z), so dz/dx = -g_z^-1 g_x and
// dz/dt = -g_z^-1 g_t (implicit function theorem; index 1: g_z nonsingular). Also the guard
// gradient and its total derivatives through z. Analysis only: allocates freely.
#pragma once

#include <string>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/ode/flow_evaluator.hpp"

namespace saltus::analysis::detail {

struct ModeLinearization {
  Vector xdot;  // phi(t, x)
  Vector z;     // the consistent algebraic state
  Matrix dzdx;  // nz by nx
  Vector dzdt;  // nz
};

// False (with `failure`) when the algebraic equations cannot be solved from the guess `z`.
bool linearize_mode(const Flow& flow, double t, ConstVectorRef x, ConstVectorRef z,
                    ModeLinearization& out, std::string& failure);

// Total derivatives of guard p along z = z(t, x): P_x (row, nx) and the returned P_t.
double guard_total_gradient(const Guard& guard, double t, ConstVectorRef x, ConstVectorRef z,
                            const ModeLinearization& lin, Eigen::RowVectorXd& p_x);

}  // namespace saltus::analysis::detail
