/* Peer benchmark: SUNDIALS CVODE (6.x) on the saltus bouncing-ball problems.
 *
 * Flight x' = v, v' = -g - c v; impact when x reaches 0 moving down (CVodeRootInit with
 * root direction -1); reset v+ = -e v-, x+ = 0 (ball-zeno also with x+ = the located x);
 * the integrator is restarted with CVodeReInit after every impact (so it starts again at
 * order 1).
 *
 * Problems (see bench/peers/README.md):
 *   ball       x0 = 1, v0 = 0, e = 0.8, until 0.9 t_inf; closed-form impact times
 *   ball-zeno  the same ball run on to t_inf + 1 (impact cap 5000): does it cross the floor?
 *   drag       c = 0.5, 20 impacts, reference times read from drag_reference.json
 *   ensemble   10^4 balls (x0_i, e_i quasi-random), 20 impacts each, closed-form times
 *
 * Methods: BDF (Newton iteration, dense linear solver, analytic Jacobian) and Adams
 * (fixed-point iteration, no Jacobian).  Every (method, problem, setting) prints one JSON
 * line on stdout.  Wall time is CLOCK_MONOTONIC around the solve only (CVodeReInit and the
 * event loop; solver creation excluded), best of several repetitions for short runs.
 *
 * Usage: cvode_ball <drag_reference.json> [--quick]
 *        cvode_ball <drag_reference.json> --one PROBLEM bdf|adams RTOL ATOL [keepx]
 *        (one run, for exploration; keepx: the reset keeps the located x, else x+ = 0)
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime with -std=c11 */
#include <cvode/cvode.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>
#include <time.h>

#define G 9.81
#define PEN_TOL 1e-12
#define MAX_REF 256

typedef struct {
  double c; /* linear drag coefficient */
  long rhs_evals;
  long root_evals;
} Params;

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
  (void)t;
  Params* p = (Params*)user;
  sunrealtype *yy = N_VGetArrayPointer(y), *dd = N_VGetArrayPointer(ydot);
  dd[0] = yy[1];
  dd[1] = -G - p->c * yy[1];
  p->rhs_evals++;
  return 0;
}

static int jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* user, N_Vector t1,
               N_Vector t2, N_Vector t3) {
  (void)t, (void)y, (void)fy, (void)t1, (void)t2, (void)t3;
  Params* p = (Params*)user;
  SM_ELEMENT_D(J, 0, 0) = 0.0;
  SM_ELEMENT_D(J, 0, 1) = 1.0;
  SM_ELEMENT_D(J, 1, 0) = 0.0;
  SM_ELEMENT_D(J, 1, 1) = -p->c;
  return 0;
}

static int groot(sunrealtype t, N_Vector y, sunrealtype* gout, void* user) {
  (void)t;
  ((Params*)user)->root_evals++;
  gout[0] = N_VGetArrayPointer(y)[0];
  return 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double frac(double a) {
  return a - floor(a);
}

/* closed-form impact times t_1..t_n of the drag-free ball (long double sums) */
static void ball_times(double x0, double e, int n, double* t) {
  long double t1 = sqrtl(2.0L * x0 / G), w = 2.0L * sqrtl(2.0L * G * x0) / G, acc = t1, ek = 1;
  for (int k = 0; k < n; ++k) {
    t[k] = (double)acc;
    ek *= e;
    acc += w * ek;
  }
}

typedef struct {
  SUNContext ctx;
  void* mem;
  N_Vector y;
  SUNMatrix A;
  SUNLinearSolver LS;
  SUNNonlinearSolver NLS;
  Params p;
  int bdf;
  int keep_x; /* reset keeps the located x instead of setting x+ = 0 */
} Solver;

static void check(int flag, const char* what) {
  if (flag < 0) {
    fprintf(stderr, "cvode_ball: %s failed with flag %d\n", what, flag);
    exit(2);
  }
}

static void solver_create(Solver* s, int bdf, double rtol, double atol, double c) {
  memset(s, 0, sizeof *s);
  s->bdf = bdf;
  s->p.c = c;
  check(SUNContext_Create(NULL, &s->ctx), "SUNContext_Create");
  s->y = N_VNew_Serial(2, s->ctx);
  N_VGetArrayPointer(s->y)[0] = 1.0;
  N_VGetArrayPointer(s->y)[1] = 0.0;
  s->mem = CVodeCreate(bdf ? CV_BDF : CV_ADAMS, s->ctx);
  check(CVodeInit(s->mem, rhs, 0.0, s->y), "CVodeInit");
  check(CVodeSStolerances(s->mem, rtol, atol), "CVodeSStolerances");
  check(CVodeSetUserData(s->mem, &s->p), "CVodeSetUserData");
  check(CVodeSetMaxNumSteps(s->mem, 100000), "CVodeSetMaxNumSteps");
  if (bdf) {
    s->A = SUNDenseMatrix(2, 2, s->ctx);
    s->LS = SUNLinSol_Dense(s->y, s->A, s->ctx);
    check(CVodeSetLinearSolver(s->mem, s->LS, s->A), "CVodeSetLinearSolver");
    check(CVodeSetJacFn(s->mem, jac), "CVodeSetJacFn");
  } else {
    s->NLS = SUNNonlinSol_FixedPoint(s->y, 0, s->ctx);
    check(CVodeSetNonlinearSolver(s->mem, s->NLS), "CVodeSetNonlinearSolver");
  }
  check(CVodeRootInit(s->mem, 1, groot), "CVodeRootInit");
  int dir = -1; /* x decreasing through 0 */
  check(CVodeSetRootDirection(s->mem, &dir), "CVodeSetRootDirection");
}

static void solver_free(Solver* s) {
  CVodeFree(&s->mem);
  if (s->LS) SUNLinSolFree(s->LS);
  if (s->A) SUNMatDestroy(s->A);
  if (s->NLS) SUNNonlinSolFree(s->NLS);
  N_VDestroy(s->y);
  SUNContext_Free(&s->ctx);
}

typedef struct {
  int impacts;     /* impacts located */
  double max_err;  /* max |t_k - ref_k| over located impacts with a reference */
  int penetration; /* x < -PEN_TOL at an event or at the end */
  double min_x;    /* lowest x seen at returns */
  int hung;        /* impact cap hit or no progress */
  int fail_flag;   /* CVode error flag, 0 if none */
  double t_end;    /* time reached */
  double t_pen;    /* first time x < -PEN_TOL was seen (NAN if never) */
  double t_last;   /* time of the last impact */
} Run;

/* One ball from (x0, 0) until max_impacts impacts or t_final.  one_step: return after every
 * internal step (CV_ONE_STEP) so that the first step below the floor is seen. */
static void run_ball(Solver* s, double x0, double e, double t_final, int max_impacts,
                     const double* ref, int nref, int one_step, Run* r) {
  sunrealtype* y = N_VGetArrayPointer(s->y);
  y[0] = x0;
  y[1] = 0.0;
  double t = 0.0;
  check(CVodeReInit(s->mem, t, s->y), "CVodeReInit");
  if (one_step) check(CVodeSetStopTime(s->mem, t_final), "CVodeSetStopTime");
  r->impacts = 0;
  r->max_err = 0.0;
  r->penetration = 0;
  r->min_x = x0;
  r->hung = 0;
  r->fail_flag = 0;
  r->t_pen = NAN;
  r->t_last = NAN;
  int stalled = 0;
  while (t < t_final) {
    sunrealtype tret;
    int flag = CVode(s->mem, t_final, s->y, &tret, one_step ? CV_ONE_STEP : CV_NORMAL);
    if (y[0] < r->min_x) r->min_x = y[0];
    if (y[0] < -PEN_TOL && !r->penetration) {
      r->penetration = 1;
      r->t_pen = tret;
    }
    if (flag < 0) {
      r->fail_flag = flag;
      t = tret;
      break;
    }
    if (flag == CV_ROOT_RETURN) {
      if (r->impacts < nref) {
        double err = fabs(tret - ref[r->impacts]);
        if (err > r->max_err || isnan(err)) r->max_err = err;
      }
      r->impacts++;
      r->t_last = tret;
      stalled = (tret <= t) ? stalled + 1 : 0;
      t = tret;
      if (r->impacts >= max_impacts || stalled > 10) {
        r->hung = stalled > 10 || (max_impacts > 1000);
        break;
      }
      y[1] = -e * y[1];
      if (!s->keep_x) y[0] = 0.0;
      check(CVodeReInit(s->mem, t, s->y), "CVodeReInit");
      if (one_step) check(CVodeSetStopTime(s->mem, t_final), "CVodeSetStopTime");
    } else {
      t = tret;
    }
  }
  r->t_end = t;
}

static void print_line(const char* tool, const char* problem, const char* setting, long impacts,
                       double max_err, long rhs, double wall, int pen, int hung, const char* note) {
  printf(
      "{\"tool\": \"%s\", \"problem\": \"%s\", \"setting\": \"%s\", \"impacts\": %ld, "
      "\"max_impact_time_error\": %.3e, \"rhs_evals\": %ld, \"wall_s\": %.6e, "
      "\"us_per_impact\": %.4g, \"penetration\": %s, \"hung\": %s, \"note\": \"%s\"}\n",
      tool, problem, setting, impacts, max_err, rhs, wall,
      impacts > 0 ? 1e6 * wall / (double)impacts : 0.0, pen ? "true" : "false",
      hung ? "true" : "false", note);
  fflush(stdout);
}

/* ball, ball-zeno, drag: one trajectory, best wall time of `reps` repetitions */
static void bench_single(const char* problem, int bdf, double rtol, double atol,
                         const double* drag_ref, int ndrag, int reps, int keep_x) {
  const double x0 = 1.0, e = 0.8;
  const double t_inf = sqrt(2 * x0 / G) * (1 + e) / (1 - e);
  double ref[MAX_REF];
  double c = 0.0, t_final;
  int nref, max_impacts;
  if (strcmp(problem, "drag") == 0) {
    c = 0.5;
    nref = ndrag;
    memcpy(ref, drag_ref, sizeof(double) * (size_t)ndrag);
    max_impacts = ndrag;
    t_final = ref[ndrag - 1] + 1.0;
  } else {
    nref = MAX_REF;
    ball_times(x0, e, nref, ref);
    if (strcmp(problem, "ball") == 0) {
      t_final = 0.9 * t_inf;
      max_impacts = 1000;
    } else { /* ball-zeno */
      t_final = t_inf + 1.0;
      max_impacts = 5000;
    }
  }
  const int zeno = strcmp(problem, "ball-zeno") == 0;
  Solver s;
  solver_create(&s, bdf, rtol, atol, c);
  s.keep_x = keep_x;
  Run r;
  double best = INFINITY;
  long rhs = 0, roots = 0;
  for (int k = 0; k < reps; ++k) {
    s.p.rhs_evals = 0;
    s.p.root_evals = 0;
    double t0 = now_s();
    run_ball(&s, x0, e, t_final, max_impacts, ref, nref, zeno, &r);
    double w = now_s() - t0;
    if (w < best) best = w;
    rhs = s.p.rhs_evals;
    roots = s.p.root_evals;
  }
  char setting[96], note[640];
  snprintf(setting, sizeof setting, "rtol=%.0e,atol=%.0e%s", rtol, atol,
           keep_x ? ",reset keeps x" : "");
  const char* tool = bdf ? "cvode-bdf" : "cvode-adams";
  const char* how = bdf ? "Newton + dense LS + analytic Jacobian" : "fixed-point iteration";
  if (zeno) {
    snprintf(note, sizeof note,
             "run on towards t_inf+1 (t_inf = %.15f) in CV_ONE_STEP mode; last impact at "
             "t = %.15f (t_inf - t = %.2e); first x < -1e-12 at t = %.15f; stopped at "
             "t = %.6f with x = %.3e; cvode flag %d; %s",
             t_inf, r.t_last, t_inf - r.t_last, r.t_pen, r.t_end, N_VGetArrayPointer(s.y)[0],
             r.fail_flag, how);
  } else {
    snprintf(note, sizeof note,
             "%s; root-function evals %ld; best of %d; min x at returns %.3e; cvode flag %d", how,
             roots, reps, r.min_x, r.fail_flag);
  }
  print_line(tool, problem, setting, r.impacts, r.max_err, rhs, best, r.penetration, r.hung, note);
  solver_free(&s);
}

/* 10^4 balls, 20 impacts each; one CVODE instance, CVodeReInit per ball.  Each ball is
 * solved `reps` times and its best time is summed (robust against load bursts on a shared
 * machine); counts are from the first repetition. */
static void bench_ensemble(int bdf, double rtol, double atol, int nballs, int reps) {
  const int n_imp = 20;
  Solver s;
  solver_create(&s, bdf, rtol, atol, 0.0);
  double wall = 0.0, max_err = 0.0, ref[20], min_x = 0.0;
  long impacts = 0, rhs = 0;
  int pen = 0, hung = 0, fails = 0;
  for (int i = 0; i < nballs; ++i) {
    double x0 = 0.5 + 1.5 * frac((double)(i + 1) * 0.6180339887498949);
    double e = 0.5 + 0.45 * frac((double)(i + 1) * 0.41421356237309515);
    double t_inf = sqrt(2 * x0 / G) * (1 + e) / (1 - e);
    ball_times(x0, e, n_imp, ref); /* reference outside the timed region */
    double best = INFINITY;
    for (int k = 0; k < reps; ++k) {
      Run r;
      long rhs0 = s.p.rhs_evals;
      double t0 = now_s();
      run_ball(&s, x0, e, t_inf, n_imp, ref, n_imp, 0, &r);
      double w = now_s() - t0;
      if (w < best) best = w;
      if (k > 0) continue;
      rhs += s.p.rhs_evals - rhs0;
      impacts += r.impacts;
      if (r.max_err > max_err || isnan(r.max_err)) max_err = r.max_err;
      pen += r.penetration;
      if (r.min_x < min_x) min_x = r.min_x;
      hung |= r.hung;
      fails += r.fail_flag != 0 || r.impacts < n_imp;
    }
    wall += best;
  }
  char setting[96], note[384];
  snprintf(setting, sizeof setting, "rtol=%.0e,atol=%.0e", rtol, atol);
  snprintf(note, sizeof note,
           "%d balls x 20 impacts, one CVODE instance + CVodeReInit per ball; %s; balls with "
           "fewer than 20 impacts or a CVODE error: %d; balls with x < -1e-12 at an impact: %d "
           "(lowest x %.3e); per ball best of %d",
           nballs, bdf ? "Newton + dense LS + analytic Jacobian" : "fixed-point iteration", fails,
           pen, min_x, reps);
  print_line(bdf ? "cvode-bdf" : "cvode-adams", "ensemble", setting, impacts, max_err, rhs, wall,
             pen, hung, note);
  solver_free(&s);
}

/* Reads "impact_times": [ ... ] from the reference JSON (numbers only). */
static int read_drag_reference(const char* path, double* t, int max) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cvode_ball: cannot open %s\n", path);
    exit(2);
  }
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char* p = strstr(buf, "\"impact_times\"");
  if (!p || !(p = strchr(p, '['))) {
    fprintf(stderr, "cvode_ball: no impact_times in %s\n", path);
    exit(2);
  }
  ++p;
  int k = 0;
  while (k < max) {
    char* end;
    double v = strtod(p, &end);
    if (end == p) break;
    t[k++] = v;
    p = end;
    while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
    if (*p == ']') break;
  }
  return k;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s drag_reference.json [--quick | --one PROBLEM bdf|adams RTOL ATOL [keepx]]\n",
            argv[0]);
    return 2;
  }
  double drag_ref[MAX_REF];
  int ndrag = read_drag_reference(argv[1], drag_ref, MAX_REF);
  if (ndrag < 1) return 2;
  int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
  if (argc > 2 && strcmp(argv[2], "--one") == 0) {
    if (argc < 7) return 2;
    int bdf = strcmp(argv[4], "bdf") == 0;
    double rtol = atof(argv[5]), atol = atof(argv[6]);
    if (strcmp(argv[3], "ensemble") == 0)
      bench_ensemble(bdf, rtol, atol, 10000, 1);
    else
      bench_single(argv[3], bdf, rtol, atol, drag_ref, ndrag, 1, argc > 7);
    return 0;
  }
  /* (rtol, atol): the setting and the tightest that still works (see README) */
  const double ball_tol[2][2] = {{1e-8, 1e-14}, {1e-13, 1e-16}};
  const double drag_rtol[3] = {1e-6, 1e-9, 1e-12};
  const int reps_short = quick ? 3 : 50, reps_ens = quick ? 1 : 3;
  const int nballs = 10000;
  for (int m = 0; m < 2; ++m) {
    int bdf = m == 0;
    for (int k = 0; k < 2; ++k)
      bench_single("ball", bdf, ball_tol[k][0], ball_tol[k][1], drag_ref, ndrag, reps_short, 0);
    for (int keep = 0; keep < 2; ++keep)
      for (int k = 0; k < 2; ++k)
        bench_single("ball-zeno", bdf, ball_tol[k][0], ball_tol[k][1], drag_ref, ndrag, 1, keep);
    for (int k = 0; k < 3; ++k)
      bench_single("drag", bdf, drag_rtol[k], drag_rtol[k] * 1e-3, drag_ref, ndrag, reps_short, 0);
    for (int k = 0; k < 2; ++k)
      bench_ensemble(bdf, ball_tol[k][0], ball_tol[k][1], nballs, reps_ens);
  }
  return 0;
}
