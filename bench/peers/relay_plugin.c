/* Siconos plugin for bench/peers/siconos_relay.py: the time-dependent drift b(t) = a t of the
 * relay x' = -v sign(x) + a t (models/relay_sign.toml), written as a FirstOrderLinearDS
 * x' = A x + b(t) + r with A = 0, in the b plugin signature of Siconos 4.4. z = (a), set by the
 * script. Compiled C (not a Python callback) so that Siconos' time is not that of the Python
 * interpreter, as for the other Siconos peers. */

void b_ramp(double time, unsigned n, double* b, unsigned nz, double* z) {
  (void)n, (void)nz;
  b[0] = z[0] * time;
}
