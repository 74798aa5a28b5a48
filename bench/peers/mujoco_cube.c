/* Over 450 lines (about 770): one standalone peer program, as every peer is a single file with no
 * saltus code (bench/peers/README.md): the model's XML, the spring-dashpot tuned to e, the
 * observation of impacts and rest, and the JSON output, in that order. */
/* Peer benchmark (issue 48): a cube dropped on a plane with Coulomb friction in space, in MuJoCo
 * 2.2.2 (Debian's libmujoco-dev). No saltus code.
 *
 * Problem (SI), as bench/peers/siconos_cube.py: homogeneous cube, half side a = 0.1, m = 1,
 * inertia I = (2/3) m a^2 about every axis through the centre, g = 9.81 along -z, floor z = 0;
 * the 8 corners c1..c8 = (-+a, -+a, -+a) in body axes (x fastest, then y, then z, the order of
 * models/cube_drop.toml), Newton restitution e, Coulomb mu; start: centre (0, 0, 0.5) at rest,
 * R = Rz(phi) Rx(theta) Rz(psi) with ZXZ angles (0.1, 0.7, 0.4), body axes to world axes
 * (saltus's convention, docs/MODEL_FORMAT.md [[bodies]] `orientation`); --R overrides it.
 *
 * MuJoCo model (the XML is generated below and loaded from memory):
 * - One body with a free joint and an explicit <inertial> (mass m, diaginertia I I I), so the
 *   geoms add no mass.
 * - Contacts: 8 small spheres (radius r = 1e-4) centred on the corners, against a plane at
 *   z = -r: a sphere touches the plane exactly when its corner reaches z = 0, whatever the
 *   orientation. Not a box geom: box-plane collision gives up to 4 contacts per face at its own
 *   choice of points; the spheres give one contact per corner, as in the rigid problem.
 * - MuJoCo has no restitution coefficient; contacts are soft. The normal direction behaves as a
 *   damped spring on the penetration x (per unit effective mass): with solref = (-k, -b)
 *   ("direct" form) and solimp = (d, d, ...) (impedance constant d), MuJoCo's reference
 *   acceleration is aref = -(b/d) v - (k/d^2) d x and the solved acceleration is about
 *   d aref + (1 - d) a_free, i.e. x'' = -b x' - k x: natural frequency wn = sqrt(k), damping
 *   ratio zeta = b / (2 sqrt(k)). We take wn = wn_h / h (default wn_h = 0.2: a contact lasts
 *   ~15 steps, so the integrator resolves it) and zeta from e through the restitution of a
 *   unilateral linear spring-dashpot (the force, not the penetration, reaching zero ends the
 *   contact): e(zeta) = exp(-zeta / s * atan2(2 zeta s, 2 zeta^2 - 1)), s = sqrt(1 - zeta^2)
 *   (the hyperbolic analogue above zeta = 1), inverted by bisection. e = 0 has no finite zeta;
 *   zeta is capped at 1 / (2 wn_h) (b h <= 1, explicit damping stays stable), which gives
 *   e = 0.033 at wn_h = 0.2 (measured: 0.028 flat). --calibrate instead bisects zeta so that
 *   the measured flat bounce below hits e. The model is therefore h-dependent (stiffer for
 *   smaller h): at h = 1e-3 the first impact (2.58 m/s, e = 0.5) penetrates 8.9 mm, at 1e-4
 *   0.9 mm, and lasts ~15.7 steps.
 * - Known soft-contact effects (measured, see bench/peers/README.md): the bounce's e depends
 *   on where inside a step the corner touches (the contact switches on at step starts), so the
 *   run's first corner bounce gives e = 0.48 to 0.51 for e = 0.5 depending on h; a tilted
 *   corner's bounce differs from the flat one (the cube turns while in contact); friction's
 *   reference acceleration is -b v_T (MuJoCo 2.2.2 has no separate friction solref); at
 *   h = 1e-3 and e = 0.5 the resting cube keeps rocking on its soft corners (a limit cycle,
 *   corner speeds ~1e-2 m/s) and never meets the rest threshold.
 * - Friction: condim 3 (condim 1 when mu = 0: MuJoCo's elliptic cone divides by the friction
 *   coefficients), friction mu on every geom (MuJoCo takes the max of the pair), elliptic cone
 *   (isotropic Coulomb, as fc3d), Newton solver, tolerance 1e-10, integrator Euler (MuJoCo's
 *   semi-implicit default) or RK4.
 *
 * Measured bounce ("event": "bounce"): gravity off, the cube moving down at the first impact's
 * speed (free fall of the lowest corner), touching at mid-step; (1) flat (R = I, four corners at
 * once, pure translation): e = v_z after / |v_z before|; (2) tilted (the run's R, one corner):
 * e = -(corner's normal velocity after) / (before), after = at its separation.
 *
 * Contacts in the run: a corner's contact episode starts at the first step end where its height
 * is < 0 and ends at the first step end where it is >= 0 again. t_touch / t_sep are the zero
 * crossings of the corner height interpolated linearly inside those steps (t_touch_step = end of
 * the first step in contact; Euler's free fall runs h/2 ahead of the exact one, so t_touch of
 * the first corner is t_1 - h/2). P_N, P_T = integral of the contact force over the episode (sum of
 * mj_contactForce x h over its steps; mj_step's contacts and forces are those of the state at
 * the start of the step, the forces that act during it; with RK4 they are the last stage's, an
 * approximation). vN_before = the corner's normal velocity at the step end before the touch,
 * the velocities after = at the separation step end; e_normal = -vN_after / vN_before.
 * Rest: as siconos_cube.py, the first step end from which all 8 corner speeds stay below
 * rest_rel x |vN_before| of the first contact until t_end.
 * CPU: clock() around the mj_step loop of runs that observe nothing, the best of --repeat (5);
 * a further run observes.
 *
 * Output: JSON lines: {"event": "setup"}, per h {"event": "bounce"}, {"event": "contact"} per
 * episode (up to --max-events), {"event": "summary"}.
 * Build: cc -O2 -o "${SALTUS_PEERS_BUILD:-build/peers}/mujoco_cube" bench/peers/mujoco_cube.c
 *        -lmujoco -lm   (headers in /usr/include/mujoco, library /usr/lib/x86_64-linux-gnu)
 * Usage: mujoco_cube [--mu 0.5] [--e 0.5] [--h 1e-3,1e-4] [--t-end 1.5] [--R r11,...,r33]
 *          [--x0 x,y,z] [--v0 vx,vy,vz] [--omega0 wx,wy,wz (world)] [--rest-rel 1e-3]
 *          [--wn-h 0.2] [--zeta Z] [--calibrate] [--dimp 0.99] [--radius 1e-4]
 *          [--integrator euler|rk4] [--max-events 200] [--repeat 5] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

#define A 0.1
#define MASS 1.0
#define G 9.81
#define I_C (2.0 / 3.0 * MASS * A * A)
#define NC 8

typedef struct {
  double mu, e, t_end, R[9], x0[3], v0[3], w0[3], rest_rel, wn_h, zeta, dimp, radius;
  int rk4, calibrate, max_events, repeat;
  double hs[8];
  int nh;
} Params;

/* corner k (c1..c8): x changes fastest, then y, then z */
static void corner(int k, double p[3]) {
  p[0] = (k & 1) ? A : -A;
  p[1] = (k & 2) ? A : -A;
  p[2] = (k & 4) ? A : -A;
}

static void matvec(const double R[9], const double x[3], double y[3]) {
  for (int i = 0; i < 3; ++i) y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
}

static void matTvec(const double R[9], const double x[3], double y[3]) {
  for (int i = 0; i < 3; ++i) y[i] = R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2];
}

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* R = Rz(phi) Rx(theta) Rz(psi), row-major */
static void zxz(double phi, double theta, double psi, double R[9]) {
  double cf = cos(phi), sf = sin(phi), ct = cos(theta), st = sin(theta), cp = cos(psi),
         sp = sin(psi);
  double r[9] = {cf * cp - sf * ct * sp,
                 -(cf * sp + sf * ct * cp),
                 sf * st,
                 sf * cp + cf * ct * sp,
                 cf * ct * cp - sf * sp,
                 -cf * st,
                 st * sp,
                 st * cp,
                 ct};
  memcpy(R, r, sizeof r);
}

/* ---- state helpers: qpos = (centre, quaternion w x y z), qvel = (v world, omega body) ---- */

typedef struct {
  double c[3], R[9], v[3], wb[3], ww[3];
  double z[NC], vc[NC][3]; /* corner heights and world velocities */
} State;

static void read_state(const mjModel* m, const mjData* d, State* s) {
  (void)m;
  for (int i = 0; i < 3; ++i) s->c[i] = d->qpos[i], s->v[i] = d->qvel[i], s->wb[i] = d->qvel[3 + i];
  double q[4];
  mju_copy(q, d->qpos + 3, 4);
  mju_normalize4(q);
  mju_quat2Mat(s->R, q);
  matvec(s->R, s->wb, s->ww);
  for (int k = 0; k < NC; ++k) {
    double p[3], rp[3], wxp[3], rw[3];
    corner(k, p);
    matvec(s->R, p, rp);
    s->z[k] = s->c[2] + rp[2];
    cross(s->wb, p, wxp);
    matvec(s->R, wxp, rw);
    for (int i = 0; i < 3; ++i) s->vc[k][i] = s->v[i] + rw[i];
  }
}

static double kinetic(const State* s) {
  return 0.5 * MASS * (s->v[0] * s->v[0] + s->v[1] * s->v[1] + s->v[2] * s->v[2]) +
         0.5 * I_C * (s->wb[0] * s->wb[0] + s->wb[1] * s->wb[1] + s->wb[2] * s->wb[2]);
}

static double max_corner_speed(const State* s) {
  double best = 0.0;
  for (int k = 0; k < NC; ++k) {
    double sp =
        sqrt(s->vc[k][0] * s->vc[k][0] + s->vc[k][1] * s->vc[k][1] + s->vc[k][2] * s->vc[k][2]);
    if (sp > best) best = sp;
  }
  return best;
}

/* ---- model ---- */

/* restitution of the unilateral linear spring-dashpot with damping ratio z (see the header) */
static double e_of_zeta(double z) {
  if (z <= 0.0) return 1.0;
  if (fabs(z - 1.0) < 1e-9) return exp(-2.0);
  if (z < 1.0) {
    double s = sqrt(1.0 - z * z);
    return exp(-z / s * atan2(2.0 * z * s, 2.0 * z * z - 1.0));
  }
  double s = sqrt(z * z - 1.0);
  return exp(-z / s * atanh(2.0 * z * s / (2.0 * z * z - 1.0)));
}

static double zeta_cap(const Params* P) {
  return 1.0 / (2.0 * P->wn_h);
}

static double zeta_of_e(double e, double cap) {
  if (e >= 1.0) return 0.0;
  if (e <= e_of_zeta(cap)) return cap;
  double lo = 0.0, hi = cap; /* e_of_zeta decreases */
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    if (e_of_zeta(mid) > e)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

static void quiet_warning(const char* msg) {
  fprintf(stderr, "mujoco warning: %s\n", msg);
}

static mjModel* make_model(const Params* P, double h, double zeta, int gravity) {
  double wn = P->wn_h / h, k = wn * wn, b = 2.0 * zeta * wn;
  int condim = P->mu > 0.0 ? 3 : 1;
  char xml[8192];
  int n =
      snprintf(xml, sizeof xml,
               "<mujoco model=\"cube\">\n"
               "  <option timestep=\"%.17g\" gravity=\"0 0 %.17g\" integrator=\"%s\""
               " cone=\"elliptic\" solver=\"Newton\" tolerance=\"1e-10\" iterations=\"200\"/>\n"
               "  <default><geom condim=\"%d\" friction=\"%.17g 0 0\" solref=\"%.17g %.17g\""
               " solimp=\"%.17g %.17g 0.001 0.5 2\" margin=\"0\"/></default>\n"
               "  <worldbody>\n"
               "    <geom name=\"floor\" type=\"plane\" size=\"0 0 1\" pos=\"0 0 %.17g\"/>\n"
               "    <body name=\"cube\">\n"
               "      <joint type=\"free\"/>\n"
               "      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
               h, gravity ? -G : 0.0, P->rk4 ? "RK4" : "Euler", condim, P->mu, -k, -b, P->dimp,
               P->dimp, -P->radius, MASS, I_C, I_C, I_C);
  for (int c = 0; c < NC; ++c) {
    double p[3];
    corner(c, p);
    n += snprintf(
        xml + n, sizeof xml - n,
        "      <geom name=\"c%d\" type=\"sphere\" size=\"%.17g\" pos=\"%.17g %.17g %.17g\"/>\n",
        c + 1, P->radius, p[0], p[1], p[2]);
  }
  n += snprintf(xml + n, sizeof xml - n, "    </body>\n  </worldbody>\n</mujoco>\n");
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  if (mj_makeEmptyFileVFS(&vfs, "cube.xml", n) != 0) return NULL;
  memcpy(vfs.filedata[mj_findFileVFS(&vfs, "cube.xml")], xml, (size_t)n);
  char err[1000] = "";
  mjModel* m = mj_loadXML("cube.xml", &vfs, err, sizeof err);
  mj_deleteVFS(&vfs);
  if (!m) fprintf(stderr, "mujoco_cube: mj_loadXML: %s\n", err);
  return m;
}

static void set_state(const mjModel* m, mjData* d, const double c[3], const double R[9],
                      const double v[3], const double w_world[3]) {
  mj_resetData(m, d);
  double q[4], wb[3];
  mju_mat2Quat(q, R);
  mju_normalize4(q);
  matTvec(R, w_world, wb); /* a free joint's angular velocity is in body axes */
  for (int i = 0; i < 3; ++i) d->qpos[i] = c[i], d->qvel[i] = v[i], d->qvel[3 + i] = wb[i];
  mju_copy(d->qpos + 3, q, 4);
  mj_forward(m, d);
}

/* ---- one bounce without gravity: returns e; flat (R = I) or tilted (P->R, lowest corner) ---- */
static double bounce(const Params* P, double h, double zeta, int flat, double v_imp,
                     double* max_pen, double* duration, int* corner_out) {
  mjModel* m = make_model(P, h, zeta, 0);
  mjData* d = mj_makeData(m);
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (!flat) memcpy(R, P->R, sizeof R);
  int low = 0;
  double zlow = 1e300;
  for (int k = 0; k < NC; ++k) {
    double p[3], rp[3];
    corner(k, p);
    matvec(R, p, rp);
    if (rp[2] < zlow) zlow = rp[2], low = k;
  }
  double c[3] = {0.0, 0.0, -zlow + 0.5 * h * v_imp}; /* touches at mid-step */
  double v[3] = {0.0, 0.0, -v_imp}, w[3] = {0.0, 0.0, 0.0};
  set_state(m, d, c, R, v, w);
  State s;
  int touched = 0;
  double t_in = 0.0, e = NAN;
  *max_pen = 0.0;
  *duration = NAN;
  for (int step = 0; step < (int)(1.0 / h); ++step) {
    mj_step(m, d);
    read_state(m, d, &s);
    double zmin = 1e300;
    for (int k = 0; k < NC; ++k) zmin = fmin(zmin, s.z[k]);
    if (flat ? zmin < 0.0 : s.z[low] < 0.0) {
      if (!touched) t_in = d->time;
      touched = 1;
      *max_pen = fmax(*max_pen, -(flat ? zmin : s.z[low]));
    } else if (touched) {
      e = flat ? s.v[2] / v_imp : s.vc[low][2] / v_imp;
      *duration = d->time - t_in;
      break;
    }
  }
  if (corner_out) *corner_out = low;
  mj_deleteData(d);
  mj_deleteModel(m);
  return e;
}

/* ---- the run ---- */

typedef struct {
  int open;
  double t_touch, t_touch_step, vn_before, ke_before, pn, pt[3], max_pen;
} Episode;

static double interp_zero(double t0, double z0, double t1, double z1) {
  return (z0 == z1) ? t1 : t0 + (t1 - t0) * z0 / (z0 - z1);
}

static int g_events;

/* JSON has no NaN: undefined values are written as null */
static void print_num(double x) {
  if (isfinite(x))
    printf("%.17g", x);
  else
    printf("null");
}

static void print_vec(const char* key, const double* x, int n) {
  printf("\"%s\": [", key);
  for (int i = 0; i < n; ++i) {
    if (i) printf(", ");
    print_num(x[i]);
  }
  printf("]");
}

static void emit_episode(const Params* P, double h, int k, const Episode* ep, const State* s,
                         double t_sep, double t_sep_step) {
  if (g_events >= P->max_events) return;
  ++g_events;
  printf(
      "{\"event\": \"contact\", \"tool\": \"mujoco\", \"h\": %.17g, \"corner\": \"c%d\", "
      "\"t_touch\": %.17g, \"t_touch_step\": %.17g, ",
      h, k + 1, ep->t_touch, ep->t_touch_step);
  if (s) {
    printf("\"t_sep\": %.17g, \"t_sep_step\": %.17g, \"duration\": %.17g, ", t_sep, t_sep_step,
           t_sep - ep->t_touch);
  } else {
    printf("\"t_sep\": null, \"open_at_end\": true, ");
  }
  printf("\"P_N\": %.17g, ", ep->pn);
  print_vec("P_T", ep->pt, 3);
  printf(", \"vN_before\": %.17g, \"max_penetration\": %.17g, \"ke_before\": %.17g", ep->vn_before,
         ep->max_pen, ep->ke_before);
  if (s) {
    printf(", \"vN_after\": %.17g, \"e_normal\": %.17g, ", s->vc[k][2],
           -s->vc[k][2] / ep->vn_before);
    print_vec("vT_after", s->vc[k], 2);
    printf(", ");
    print_vec("v_after", s->v, 3);
    printf(", ");
    print_vec("omega_world_after", s->ww, 3);
    printf(", \"ke_after\": %.17g", kinetic(s));
  }
  printf("}\n");
}

/* contact forces of the last mj_step (those of its start state), summed into the episodes */
static void add_impulses(const mjModel* m, const mjData* d, const int geom_of[NC], double h,
                         Episode ep[NC]) {
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact* con = d->contact + i;
    if (con->efc_address < 0) continue;
    int k = -1, sign = 1;
    for (int c = 0; c < NC; ++c) {
      if (con->geom2 == geom_of[c])
        k = c, sign = 1; /* force on geom2: +F */
      else if (con->geom1 == geom_of[c])
        k = c, sign = -1; /* on geom1: -F */
    }
    if (k < 0 || !ep[k].open) continue;
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    double F[3];
    for (int j = 0; j < 3; ++j)
      F[j] = sign * (f[0] * con->frame[j] + f[1] * con->frame[3 + j] + f[2] * con->frame[6 + j]);
    ep[k].pn += F[2] * h;
    ep[k].pt[0] += F[0] * h;
    ep[k].pt[1] += F[1] * h;
  }
}

/* rigid closed form of the first impact (start without angular velocity: the cube translates):
 * free fall until the lowest corner reaches z = 0; with mu = 0 the single-corner Newton impact
 * P_N = -(1 + e) v_N^- / (1/m + |r x n|^2 / I), v+ = v- + P_N n / m, w+ = (r x n) P_N / I */
typedef struct {
  int valid, frictionless, corner;
  double t1, vn, pn, v_after[3], w_after[3], ke_after;
} Closed;

static Closed closed_form(const Params* P) {
  Closed c = {0};
  if (P->w0[0] != 0.0 || P->w0[1] != 0.0 || P->w0[2] != 0.0) return c;
  double zlow = 1e300, r[3] = {0};
  for (int k = 0; k < NC; ++k) {
    double p[3], rp[3];
    corner(k, p);
    matvec(P->R, p, rp);
    if (P->x0[2] + rp[2] < zlow) zlow = P->x0[2] + rp[2], c.corner = k, memcpy(r, rp, sizeof r);
  }
  double vz = P->v0[2];
  c.valid = 1;
  c.t1 = (vz + sqrt(vz * vz + 2 * G * zlow)) / G;
  c.vn = vz - G * c.t1;
  if (P->mu != 0.0) return c;
  c.frictionless = 1;
  double n[3] = {0, 0, 1}, rxn[3];
  cross(r, n, rxn);
  double rr = rxn[0] * rxn[0] + rxn[1] * rxn[1] + rxn[2] * rxn[2];
  c.pn = -(1 + P->e) * c.vn / (1 / MASS + rr / I_C);
  for (int i = 0; i < 3; ++i) {
    c.v_after[i] = P->v0[i] + (i == 2 ? -G * c.t1 + c.pn / MASS : 0.0);
    c.w_after[i] = rxn[i] * c.pn / I_C;
  }
  c.ke_after =
      0.5 * MASS *
          (c.v_after[0] * c.v_after[0] + c.v_after[1] * c.v_after[1] +
           c.v_after[2] * c.v_after[2]) +
      0.5 * I_C *
          (c.w_after[0] * c.w_after[0] + c.w_after[1] * c.w_after[1] + c.w_after[2] * c.w_after[2]);
  return c;
}

static void run(const Params* P, double h, double zeta, double v_imp) {
  const Closed cf = closed_form(P);
  double first_pn = NAN, first_v[3] = {NAN, NAN, NAN}, first_w[3] = {NAN, NAN, NAN};
  int n_steps = (int)ceil(P->t_end / h - 1e-9);
  mjModel* m = make_model(P, h, zeta, 1);
  mjData* d = mj_makeData(m);
  int geom_of[NC];
  for (int k = 0; k < NC; ++k) {
    char name[8];
    snprintf(name, sizeof name, "c%d", k + 1);
    geom_of[k] = mj_name2id(m, mjOBJ_GEOM, name);
  }

  /* timed runs: nothing observed; the best of P->repeat (a short loop is noisy) */
  double cpu = INFINITY;
  for (int r = 0; r < P->repeat; ++r) {
    set_state(m, d, P->x0, P->R, P->v0, P->w0);
    clock_t c0 = clock();
    for (int i = 0; i < n_steps; ++i) mj_step(m, d);
    cpu = fmin(cpu, (double)(clock() - c0) / CLOCKS_PER_SEC);
  }

  /* observed run */
  set_state(m, d, P->x0, P->R, P->v0, P->w0);
  State prev, s;
  read_state(m, d, &prev);
  Episode ep[NC];
  memset(ep, 0, sizeof ep);
  double first_touch[NC];
  for (int k = 0; k < NC; ++k) first_touch[k] = NAN;
  int n_episodes = 0, first_k = -1;
  double first_speed = NAN, last_moving = 0.0, min_gap = 1e300, e_first = NAN, tail_speed = 0.0;
  double order_t[3] = {NAN, NAN, NAN};
  int order_k[3] = {-1, -1, -1}, n_order = 0;
  g_events = 0;
  clock_t c1 = clock();
  for (int i = 0; i < n_steps; ++i) {
    mj_step(m, d);
    add_impulses(m, d, geom_of, h, ep);
    read_state(m, d, &s);
    double t = d->time;
    for (int k = 0; k < NC; ++k) {
      min_gap = fmin(min_gap, s.z[k]);
      if (!ep[k].open && s.z[k] < 0.0) { /* touch */
        Episode* e = ep + k;
        memset(e, 0, sizeof *e);
        e->open = 1;
        e->t_touch = interp_zero(t - h, prev.z[k], t, s.z[k]);
        e->t_touch_step = t;
        e->vn_before = prev.vc[k][2];
        e->ke_before = kinetic(&prev);
        if (isnan(first_touch[k])) first_touch[k] = e->t_touch;
        if (isnan(first_speed)) first_speed = fabs(prev.vc[k][2]), first_k = k;
        if (n_order < 3) order_t[n_order] = e->t_touch, order_k[n_order++] = k;
        ++n_episodes;
      }
      if (ep[k].open) {
        ep[k].max_pen = fmax(ep[k].max_pen, -s.z[k]);
        if (s.z[k] >= 0.0) { /* separation */
          double ts = interp_zero(t - h, prev.z[k], t, s.z[k]);
          if (k == first_k && isnan(e_first)) {
            e_first = -s.vc[k][2] / ep[k].vn_before;
            first_pn = ep[k].pn;
            memcpy(first_v, s.v, sizeof first_v);
            memcpy(first_w, s.ww, sizeof first_w);
          }
          emit_episode(P, h, k, ep + k, &s, ts, t);
          ep[k].open = 0;
        }
      }
    }
    double speed = max_corner_speed(&s);
    if (isnan(first_speed) || speed >= P->rest_rel * first_speed) last_moving = t;
    if (i >= n_steps - n_steps / 10) tail_speed = fmax(tail_speed, speed); /* last 10 % */
    prev = s;
  }
  double cpu_obs = (double)(clock() - c1) / CLOCKS_PER_SEC;
  for (int k = 0; k < NC; ++k)
    if (ep[k].open) emit_episode(P, h, k, ep + k, NULL, NAN, NAN);

  double threshold = P->rest_rel * first_speed;
  int at_rest = !isnan(first_speed) && max_corner_speed(&s) < threshold;
  double rest_t = at_rest ? last_moving + h : NAN;
  double q[4];
  mju_copy(q, d->qpos + 3, 4);
  mju_normalize4(q);

  printf(
      "{\"event\": \"summary\", \"tool\": \"mujoco\", \"h\": %.17g, \"mu\": %.17g, \"e\": %.17g, "
      "\"t_end\": %.17g, \"steps\": %d, \"cpu_s\": %.6g, \"cpu_repeats\": %d, \"cpu_observed_s\": "
      "%.6g, "
      "\"episodes\": %d, ",
      h, P->mu, P->e, P->t_end, n_steps, cpu, P->repeat, cpu_obs, n_episodes);
  printf("\"first_touch\": {");
  for (int k = 0; k < NC; ++k) {
    if (isnan(first_touch[k]))
      printf("%s\"c%d\": null", k ? ", " : "", k + 1);
    else
      printf("%s\"c%d\": %.17g", k ? ", " : "", k + 1, first_touch[k]);
  }
  printf("}, \"first_contacts\": [");
  for (int j = 0; j < n_order; ++j)
    printf("%s[%.17g, \"c%d\"]", j ? ", " : "", order_t[j], order_k[j] + 1);
  printf("], \"e_first_contact\": ");
  print_num(e_first);
  printf(", \"rest_rel\": %.17g, \"rest_threshold\": ", P->rest_rel);
  print_num(threshold);
  printf(", \"rest_t\": ");
  print_num(rest_t);
  printf(", \"tail_max_corner_speed\": %.17g", tail_speed);
  printf(", \"final\": {");
  print_vec("centre", s.c, 3);
  printf(", ");
  print_vec("R", s.R, 9);
  printf(", ");
  print_vec("quaternion", q, 4);
  printf(", ");
  print_vec("v", s.v, 3);
  printf(", ");
  print_vec("omega_world", s.ww, 3);
  printf(", \"max_corner_speed\": %.17g, \"ke\": %.17g, \"energy\": %.17g}", max_corner_speed(&s),
         kinetic(&s), kinetic(&s) + MASS * G * s.c[2]);
  if (cf.valid && n_order > 0) { /* the first contact against the rigid closed form */
    printf(", \"first_contact_vs_closed_form\": {\"dt\": %.17g, \"same_corner\": %s",
           order_t[0] - cf.t1, order_k[0] == cf.corner ? "true" : "false");
    if (cf.frictionless) {
      double dv = 0, dw = 0;
      for (int i = 0; i < 3; ++i) {
        dv += (first_v[i] - cf.v_after[i]) * (first_v[i] - cf.v_after[i]);
        dw += (first_w[i] - cf.w_after[i]) * (first_w[i] - cf.w_after[i]);
      }
      printf(", \"P_N_rel\": ");
      print_num(first_pn / cf.pn - 1.0);
      printf(", \"v_after_err\": ");
      print_num(sqrt(dv));
      printf(", \"omega_after_err\": ");
      print_num(sqrt(dw));
    }
    printf("}");
  }
  printf(", \"min_gap\": %.17g, \"v_impact_used\": %.17g, \"warnings\": %d, ", min_gap, v_imp,
         d->warning[mjWARN_CONTACTFULL].number + d->warning[mjWARN_CNSTRFULL].number +
             d->warning[mjWARN_BADQACC].number);
  printf(
      "\"note\": \"soft contacts (spring-dashpot per corner, wn = %.6g rad/s, zeta = %.6g); "
      "t_touch = interpolated zero crossing of the corner height; rest_t = first step end "
      "from which every corner speed stays below rest_threshold\"}\n",
      P->wn_h / h, zeta);
  fflush(stdout);
  mj_deleteData(d);
  mj_deleteModel(m);
}

static int parse_list(const char* s, double* x, int n) {
  int k = 0;
  char* end;
  while (k < n) {
    x[k++] = strtod(s, &end);
    if (end == s) return -1;
    if (*end == '\0') break;
    if (*end != ',') return -1;
    s = end + 1;
  }
  return k;
}

static void usage(void) {
  fprintf(
      stderr,
      "usage: mujoco_cube [--mu 0.5] [--e 0.5] [--h 1e-3,1e-4] [--t-end 1.5] [--R r11,...,r33]\n"
      "  [--x0 x,y,z] [--v0 vx,vy,vz] [--omega0 wx,wy,wz] [--rest-rel 1e-3] [--wn-h 0.2]\n"
      "  [--zeta Z] [--calibrate] [--dimp 0.99] [--radius 1e-4] [--integrator euler|rk4]\n"
      "  [--max-events 200] [--repeat 5]\n");
  exit(2);
}

int main(int argc, char** argv) {
  Params P = {.mu = 0.5,
              .e = 0.5,
              .t_end = 1.5,
              .x0 = {0, 0, 0.5},
              .rest_rel = 1e-3,
              .wn_h = 0.2,
              .zeta = NAN,
              .dimp = 0.99,
              .radius = 1e-4,
              .max_events = 200,
              .repeat = 5,
              .hs = {1e-3, 1e-4},
              .nh = 2};
  zxz(0.1, 0.7, 0.4, P.R);
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--calibrate")) {
      P.calibrate = 1;
      continue;
    }
    if (!v) usage();
    ++i;
    if (!strcmp(a, "--mu"))
      P.mu = atof(v);
    else if (!strcmp(a, "--e"))
      P.e = atof(v);
    else if (!strcmp(a, "--t-end"))
      P.t_end = atof(v);
    else if (!strcmp(a, "--rest-rel"))
      P.rest_rel = atof(v);
    else if (!strcmp(a, "--wn-h"))
      P.wn_h = atof(v);
    else if (!strcmp(a, "--zeta"))
      P.zeta = atof(v);
    else if (!strcmp(a, "--dimp"))
      P.dimp = atof(v);
    else if (!strcmp(a, "--radius"))
      P.radius = atof(v);
    else if (!strcmp(a, "--max-events"))
      P.max_events = atoi(v);
    else if (!strcmp(a, "--repeat"))
      P.repeat = atoi(v) > 0 ? atoi(v) : 1;
    else if (!strcmp(a, "--integrator"))
      P.rk4 = !strcmp(v, "rk4");
    else if (!strcmp(a, "--h")) {
      if ((P.nh = parse_list(v, P.hs, 8)) < 1) usage();
    } else if (!strcmp(a, "--R")) {
      if (parse_list(v, P.R, 9) != 9) usage();
    } else if (!strcmp(a, "--x0")) {
      if (parse_list(v, P.x0, 3) != 3) usage();
    } else if (!strcmp(a, "--v0")) {
      if (parse_list(v, P.v0, 3) != 3) usage();
    } else if (!strcmp(a, "--omega0")) {
      if (parse_list(v, P.w0, 3) != 3) usage();
    } else
      usage();
  }
  /* R must be a rotation (to 1e-9) */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double dot = 0;
      for (int l = 0; l < 3; ++l) dot += P.R[3 * i + l] * P.R[3 * j + l];
      if (fabs(dot - (i == j)) > 1e-9) {
        fprintf(stderr, "mujoco_cube: --R is not a rotation\n");
        return 2;
      }
    }
  mju_user_warning = quiet_warning;

  /* setup line: corner heights at t = 0 and the free-fall time of the lowest corner */
  double zlow = 1e300;
  printf(
      "{\"event\": \"setup\", \"tool\": \"mujoco\", \"mujoco_version\": \"%s\", \"a\": %g, "
      "\"m\": %g, \"g\": %g, \"I\": %.17g, \"mu\": %.17g, \"e\": %.17g, \"t_end\": %.17g, ",
      mj_versionString(), A, MASS, G, I_C, P.mu, P.e, P.t_end);
  print_vec("x0", P.x0, 3);
  printf(", ");
  print_vec("v0", P.v0, 3);
  printf(", ");
  print_vec("omega0_world", P.w0, 3);
  printf(", ");
  print_vec("R", P.R, 9);
  printf(
      ", \"R_convention\": \"R = Rz(phi) Rx(theta) Rz(psi), body to world; default ZXZ "
      "(0.1, 0.7, 0.4) unless --R\", \"corner_heights_t0\": {");
  for (int k = 0; k < NC; ++k) {
    double p[3], rp[3];
    corner(k, p);
    matvec(P.R, p, rp);
    double z = P.x0[2] + rp[2];
    zlow = fmin(zlow, z);
    printf("%s\"c%d\": %.17g", k ? ", " : "", k + 1, z);
  }
  double vz = P.v0[2];
  double t1 = (vz + sqrt(vz * vz + 2 * G * zlow)) / G, v_imp = G * t1 - vz;
  const Closed cf = closed_form(&P);
  if (cf.frictionless) {
    printf(
        "}, \"closed_form\": {\"t1\": %.17g, \"corner\": \"c%d\", \"vN_before\": %.17g, "
        "\"P_N\": %.17g, \"ke_after\": %.17g, ",
        cf.t1, cf.corner + 1, cf.vn, cf.pn, cf.ke_after);
    print_vec("v_after", cf.v_after, 3);
    printf(", ");
    print_vec("omega_world_after", cf.w_after, 3);
  }
  printf(
      "}, \"free_fall_t1\": %.17g, \"v_impact\": %.17g, \"contact_geoms\": \"8 spheres of "
      "radius %g centred on the corners, plane at z = -radius\", \"solimp\": [%g, %g, 0.001, "
      "0.5, 2], \"integrator\": \"%s\", \"cone\": \"elliptic\", \"condim\": %d, "
      "\"wn_h\": %g}\n",
      t1, v_imp, P.radius, P.dimp, P.dimp, P.rk4 ? "RK4" : "Euler", P.mu > 0 ? 3 : 1, P.wn_h);
  fflush(stdout);

  for (int ih = 0; ih < P.nh; ++ih) {
    double h = P.hs[ih], cap = zeta_cap(&P);
    double zeta = isnan(P.zeta) ? zeta_of_e(P.e, cap) : P.zeta;
    const char* how = isnan(P.zeta) ? "e(zeta) of the unilateral spring-dashpot" : "--zeta";
    double pen, dur;
    if (P.calibrate && isnan(P.zeta)) { /* bisect zeta on the measured flat bounce */
      double lo = 0.0, hi = cap;
      for (int it = 0; it < 40; ++it) {
        double mid = 0.5 * (lo + hi);
        if (bounce(&P, h, mid, 1, v_imp, &pen, &dur, NULL) > P.e)
          lo = mid;
        else
          hi = mid;
      }
      zeta = 0.5 * (lo + hi);
      how = "calibrated on the flat bounce";
    }
    double wn = P.wn_h / h;
    double pen_f, dur_f, pen_t, dur_t;
    int kc;
    double e_flat = bounce(&P, h, zeta, 1, v_imp, &pen_f, &dur_f, NULL);
    double e_tilt = bounce(&P, h, zeta, 0, v_imp, &pen_t, &dur_t, &kc);
    printf(
        "{\"event\": \"bounce\", \"tool\": \"mujoco\", \"h\": %.17g, \"e_target\": %.17g, "
        "\"zeta\": %.17g, \"zeta_from\": \"%s\", \"zeta_cap\": %.17g, \"wn\": %.17g, "
        "\"solref\": [%.17g, %.17g], \"e_continuous_model\": %.17g, \"v_impact\": %.17g, ",
        h, P.e, zeta, how, cap, wn, -wn * wn, -2 * zeta * wn, e_of_zeta(zeta), v_imp);
    printf("\"e_flat\": ");
    print_num(e_flat); /* null: no separation within 1 s */
    printf(", \"penetration_flat\": %.6g, \"duration_flat\": ", pen_f);
    print_num(dur_f);
    printf(", \"e_tilted_corner\": ");
    print_num(e_tilt);
    printf(", \"tilted_corner\": \"c%d\", \"penetration_tilted\": %.6g, \"duration_tilted\": ",
           kc + 1, pen_t);
    print_num(dur_t);
    printf(
        ", \"note\": \"gravity off, v = -v_impact, touching at mid-step; flat: R = I, e = vz "
        "after / |vz before|; tilted: the run's R, e of the lowest corner's normal velocity\"}\n");
    fflush(stdout);
    run(&P, h, zeta, v_imp);
  }
  return 0;
}
