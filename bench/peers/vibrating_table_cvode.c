/* Peer for issue 43: SUNDIALS CVODE (6.x) on Holmes' ball on a vibrating table.
 *
 * Flight y' = v, v' = -g (g = 9.81); the table is at A sin(w t), w = 2 pi. Impact: the root
 * function A sin(w t) - y rising through 0 (CVodeRootInit, CVodeSetRootDirection(+1)); reset
 * v+ = (1 + e) A w cos(w t) - e v-, y kept as located (as a user writes it), and CVodeReInit.
 * CV_ONE_STEP mode with a stop time: every internal step returns, so the penetration below the
 * table can be sampled on the 1e-3 grid (CVodeGetDky within the last step).
 *
 * Tables: case k of the seed, the generator of tests/support/vibrating_table_reference.hpp
 * (draws 4k .. 4k+3 of splitmix64(seed): A in [0.05, 0.6], e in [0.1, 0.9], y0 = A + [0.05, 1],
 * v0 in [-1, 1], t0 = 0), bit for bit.
 *
 * Methods: adams (fixed-point iteration) and bdf (Newton, dense linear solver, analytic
 * Jacobian), as bench/peers/cvode_ball.c.
 *
 * Usage: vibrating_table_cvode [--seed S] [--tables N] [--method adams|bdf] [--rtol R]
 *                              [--atol A] [--until FILE] [--max-impacts K]
 *   --until: one end time per line, line k for table k (default t = 20 for every table);
 *            bench/vibrating_table_peers.py passes the reference's stop time + 1e-6.
 * One JSON line per table on stdout: {"tool", "table", "A", "e", "y0", "v0", "status",
 * "flag", "impacts": [[t, y located, v after], ...], "penetration"}.
 */
#include <cvode/cvode.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#define G 9.81
#define PI 3.14159265358979323846
#define T_END 20.0

/* splitmix64, as bench/splitmix64.hpp */
static uint64_t sm_next(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double sm_uniform(uint64_t* state, double a, double b) {
  return a + (b - a) * (double)(sm_next(state) >> 11) * 0x1.0p-53;
}

typedef struct {
  double A, w, e, y0, v0;
} Table;

static Table table_case(uint64_t seed, uint64_t k) {
  uint64_t s = seed + 4 * k * 0x9E3779B97F4A7C15ull; /* the state after 4k draws */
  Table c;
  c.w = 2 * PI;
  c.A = sm_uniform(&s, 0.05, 0.6);
  c.e = sm_uniform(&s, 0.1, 0.9);
  c.y0 = c.A + sm_uniform(&s, 0.05, 1.0);
  c.v0 = sm_uniform(&s, -1.0, 1.0);
  return c;
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
  (void)t, (void)user;
  sunrealtype *yy = N_VGetArrayPointer(y), *dd = N_VGetArrayPointer(ydot);
  dd[0] = yy[1];
  dd[1] = -G;
  return 0;
}

static int jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* user, N_Vector t1,
               N_Vector t2, N_Vector t3) {
  (void)t, (void)y, (void)fy, (void)user, (void)t1, (void)t2, (void)t3;
  SM_ELEMENT_D(J, 0, 0) = 0.0;
  SM_ELEMENT_D(J, 0, 1) = 1.0;
  SM_ELEMENT_D(J, 1, 0) = 0.0;
  SM_ELEMENT_D(J, 1, 1) = 0.0;
  return 0;
}

static int groot(sunrealtype t, N_Vector y, sunrealtype* gout, void* user) {
  const Table* c = (const Table*)user;
  gout[0] = c->A * sin(c->w * t) - N_VGetArrayPointer(y)[0];
  return 0;
}

static void check(int flag, const char* what) {
  if (flag < 0) {
    fprintf(stderr, "vibrating_table_cvode: %s failed with flag %d\n", what, flag);
    exit(2);
  }
}

/* largest A sin(w t) - y on the grid points k 1e-3 in (t0, t1], from the last step */
static double grid_penetration(void* mem, const Table* c, double t0, double t1, N_Vector ky) {
  double pen = 0.0;
  for (long k = (long)floor(t0 * 1000) + 1; k * 1e-3 <= t1; ++k) {
    double tg = (double)k * 1e-3;
    if (CVodeGetDky(mem, tg, 0, ky) < 0) continue;
    double p = c->A * sin(c->w * tg) - N_VGetArrayPointer(ky)[0];
    if (p > pen) pen = p;
  }
  return pen;
}

int main(int argc, char** argv) {
  uint64_t seed = 43;
  long ntables = 200, max_impacts = 2000;
  int bdf = 0;
  double rtol = 1e-10, atol = 1e-12;
  const char* until = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--seed"))
      seed = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--tables"))
      ntables = strtol(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--method"))
      bdf = !strcmp(argv[i + 1], "bdf");
    else if (!strcmp(argv[i], "--rtol"))
      rtol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--atol"))
      atol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--until"))
      until = argv[i + 1];
    else if (!strcmp(argv[i], "--max-impacts"))
      max_impacts = strtol(argv[i + 1], NULL, 10);
    else {
      fprintf(stderr, "vibrating_table_cvode: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  FILE* fu = until ? fopen(until, "r") : NULL;
  if (until && !fu) {
    fprintf(stderr, "vibrating_table_cvode: cannot open %s\n", until);
    return 2;
  }

  SUNContext ctx;
  check(SUNContext_Create(NULL, &ctx), "SUNContext_Create");
  N_Vector y = N_VNew_Serial(2, ctx), ky = N_VNew_Serial(2, ctx);
  sunrealtype* yy = N_VGetArrayPointer(y);
  yy[0] = 1.0;
  yy[1] = 0.0;
  void* mem = CVodeCreate(bdf ? CV_BDF : CV_ADAMS, ctx);
  check(CVodeInit(mem, rhs, 0.0, y), "CVodeInit");
  check(CVodeSStolerances(mem, rtol, atol), "CVodeSStolerances");
  check(CVodeSetMaxNumSteps(mem, 100000), "CVodeSetMaxNumSteps");
  SUNMatrix J = NULL;
  SUNLinearSolver LS = NULL;
  SUNNonlinearSolver NLS = NULL;
  if (bdf) {
    J = SUNDenseMatrix(2, 2, ctx);
    LS = SUNLinSol_Dense(y, J, ctx);
    check(CVodeSetLinearSolver(mem, LS, J), "CVodeSetLinearSolver");
    check(CVodeSetJacFn(mem, jac), "CVodeSetJacFn");
  } else {
    NLS = SUNNonlinSol_FixedPoint(y, 0, ctx);
    check(CVodeSetNonlinearSolver(mem, NLS), "CVodeSetNonlinearSolver");
  }
  check(CVodeRootInit(mem, 1, groot), "CVodeRootInit");
  int dir = +1; /* A sin(w t) - y rising: the ball reaches the table from above */
  check(CVodeSetRootDirection(mem, &dir), "CVodeSetRootDirection");

  for (long k = 0; k < ntables; ++k) {
    Table c = table_case(seed, (uint64_t)k);
    double t_final = T_END;
    if (fu && fscanf(fu, "%lf", &t_final) != 1) t_final = T_END;
    check(CVodeSetUserData(mem, &c), "CVodeSetUserData");
    double t = 0.0, pen = 0.0;
    yy[0] = c.y0;
    yy[1] = c.v0;
    check(CVodeReInit(mem, t, y), "CVodeReInit");
    check(CVodeSetStopTime(mem, t_final), "CVodeSetStopTime");
    printf(
        "{\"tool\": \"cvode-%s\", \"table\": %ld, \"A\": %.17g, \"e\": %.17g, "
        "\"y0\": %.17g, \"v0\": %.17g, \"impacts\": [",
        bdf ? "bdf" : "adams", k, c.A, c.e, c.y0, c.v0);
    long impacts = 0;
    int stalled = 0, flag = 0;
    const char* status = "end";
    while (t < t_final) {
      sunrealtype tret;
      flag = CVode(mem, t_final, y, &tret, CV_ONE_STEP);
      if (flag < 0) {
        status = "failed";
        break;
      }
      double p = grid_penetration(mem, &c, t, tret, ky);
      if (p > pen) pen = p;
      if (flag == CV_ROOT_RETURN) {
        double vplus = (1 + c.e) * c.A * c.w * cos(c.w * tret) - c.e * yy[1];
        printf("%s[%.17g, %.17g, %.17g]", impacts ? ", " : "", tret, yy[0], vplus);
        ++impacts;
        stalled = tret <= t ? stalled + 1 : 0;
        t = tret;
        if (stalled > 10) {
          status = "stalled";
          break;
        }
        if (impacts >= max_impacts) {
          status = "event-cap";
          break;
        }
        yy[1] = vplus;
        check(CVodeReInit(mem, t, y), "CVodeReInit");
        check(CVodeSetStopTime(mem, t_final), "CVodeSetStopTime");
      } else {
        t = tret;
        if (flag == CV_TSTOP_RETURN) break;
      }
    }
    printf("], \"status\": \"%s\", \"flag\": %d, \"penetration\": %.6e}\n", status, flag, pen);
    fflush(stdout);
  }
  if (fu) fclose(fu);
  CVodeFree(&mem);
  if (LS) SUNLinSolFree(LS);
  if (J) SUNMatDestroy(J);
  if (NLS) SUNNonlinSolFree(NLS);
  N_VDestroy(y);
  N_VDestroy(ky);
  SUNContext_Free(&ctx);
  return 0;
}
