/* Siconos plugin for bench/peers/siconos_fbm.py: the Frictional Bounce Model of
 * models/frictional_bounce.toml (saltus's own construction, issue 11), q = (x, y, theta) of the
 * stick's centre of mass in the belt's frame, in the plugin signatures of Siconos 4.4. Compiled C
 * (not Python callbacks) so that Siconos' time is not that of the Python interpreter.
 *   tip contact (LagrangianScleronomousR): gap y - L sin(theta), tangent x - L cos(theta)
 *     (the model's contact), Jacobian rows (0, 1, -L cos theta) and (1, 0, L sin theta);
 *     column-major: J[i + ny * j] = d y_i / d q_j.
 *   external force of the holder (LagrangianLinearTIDS: M q'' + C q' + K q = fExt(t) + r, with
 *   K = diag(k_x, k_y, k_r), C = diag(c_x, c_y, c_r) set by the script), from the model's
 *   potential 0.5 k_x (x + v_b t)^2 + 0.5 k_y (y - L sin theta0 + press)^2 + 0.5 k_r (theta -
 *   theta0)^2 + m g y and force -c_x (x' + v_b):
 *     fExt = (-k_x v_b t - c_x v_b, -m g + k_y (L sin theta0 - press), k_r theta0),
 *   with z = (k_x, c_x, v_b, m g, k_y, L sin theta0 - press, k_r, theta0) set by the script. */
#include <math.h>

#ifndef LENGTH
#define LENGTH 0.5
#endif

void h_tip(unsigned nq, double* q, unsigned ny, double* y, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  y[0] = q[1] - LENGTH * sin(q[2]);
  if (ny > 1) y[1] = q[0] - LENGTH * cos(q[2]);
}

void jacobian_tip(unsigned nq, double* q, unsigned ny, double* J, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  for (unsigned k = 0; k < 3 * ny; ++k) J[k] = 0.0;
  J[0 + ny * 1] = 1.0;
  J[0 + ny * 2] = -LENGTH * cos(q[2]);
  if (ny > 1) {
    J[1 + ny * 0] = 1.0;
    J[1 + ny * 2] = LENGTH * sin(q[2]);
  }
}

void fext_holder(double time, unsigned n, double* f, unsigned nz, double* z) {
  (void)n, (void)nz;
  f[0] = -z[0] * z[2] * time - z[1] * z[2];
  f[1] = -z[3] + z[4] * z[5];
  f[2] = z[6] * z[7];
}
