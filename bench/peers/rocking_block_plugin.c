/* Siconos plugin for bench/peers/siconos_rocking_block.py: the gap and tangent of a bottom corner
 * of the rectangular block (half-width HALF_WIDTH, half-height HALF_HEIGHT, q = (x, y, theta) of
 * the centre) and their Jacobian, in the LagrangianScleronomousR plugin signature of Siconos 4.4.
 * Compiled C (not Python callbacks) so that Siconos' time is not that of the Python interpreter.
 * Same expressions as the contacts of models/rocking_block.toml:
 *   gap     y + s a sin(theta) - h cos(theta)
 *   tangent x + s a cos(theta) + h sin(theta),   s = -1 left corner, +1 right corner.
 * Siconos matrices are column-major: J[i + ny * j] = d y_i / d q_j. */
#include <math.h>

#ifndef HALF_WIDTH
#define HALF_WIDTH 0.25
#endif
#ifndef HALF_HEIGHT
#define HALF_HEIGHT 0.5
#endif

static void corner_h(double s, const double* q, unsigned ny, double* y) {
  y[0] = q[1] + s * HALF_WIDTH * sin(q[2]) - HALF_HEIGHT * cos(q[2]);
  if (ny > 1) y[1] = q[0] + s * HALF_WIDTH * cos(q[2]) + HALF_HEIGHT * sin(q[2]);
}

static void corner_jacobian(double s, const double* q, unsigned ny, double* J) {
  for (unsigned k = 0; k < 3 * ny; ++k) J[k] = 0.0;
  J[0 + ny * 1] = 1.0;
  J[0 + ny * 2] = s * HALF_WIDTH * cos(q[2]) + HALF_HEIGHT * sin(q[2]);
  if (ny > 1) {
    J[1 + ny * 0] = 1.0;
    J[1 + ny * 2] = -s * HALF_WIDTH * sin(q[2]) + HALF_HEIGHT * cos(q[2]);
  }
}

void h_left(unsigned nq, double* q, unsigned ny, double* y, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  corner_h(-1.0, q, ny, y);
}
void h_right(unsigned nq, double* q, unsigned ny, double* y, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  corner_h(1.0, q, ny, y);
}
void jacobian_left(unsigned nq, double* q, unsigned ny, double* J, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  corner_jacobian(-1.0, q, ny, J);
}
void jacobian_right(unsigned nq, double* q, unsigned ny, double* J, unsigned nz, double* z) {
  (void)nq, (void)nz, (void)z;
  corner_jacobian(1.0, q, ny, J);
}
