// The frictional contact problem in space ("fc3d"): k contacts with Coulomb's cone, solved by
// non-smooth Gauss-Seidel over contacts with an exact local solver, and checked afterwards by a
// residual that does not trust the iteration.
//
// Problem. Rows are stacked contact by contact: a Cone contact has 3 rows (N, T1, T2) and the
// unknown r_i = (r_N, r_T1, r_T2); a Normal contact has 1 row (frictionless, or friction folded
// into G by the caller). Given G (m x m) and b (m), find r with u = G r + b such that
//   Normal:  0 <= r_N  perp  u_N >= 0,
//   Cone:    r_i in K_i = {|r_T| <= mu_i r_N},  u_hat_i = (u_N + mu_i |u_T|, u_T) in
//            K_i* = {mu_i |u_T| <= u_N},  r_i . u_hat_i = 0  (De Saxce's modified velocity),
// i.e. open (r_i = 0, u_N >= 0), stick (r_i in K_i, u_i = 0) or slip (r_N > 0, u_N = 0,
// r_T = -mu r_N u_T / |u_T|). Sources: De Saxce & Feng (1991) for the modified velocity (the
// cone complementarity form of Coulomb's law), Jourdan, Alart & Jean, CMAME 155 (1998) for the
// Gauss-Seidel over contacts (the idea of Siconos's fc3d_nsgs; no code taken).
// Uses: (a) contact forces at the acceleration level (u = contact accelerations, r = forces);
// (b) Newton impacts with Coulomb's cone (u = v+ + E v-, r = impulses, restitution inside b).
// G = W^T M^-1 W is symmetric positive semi-definite, often singular (the 4 corners of a box face:
// rank 6 of 12); a non-symmetric G is accepted (nothing below assumes symmetry).
//
// Algorithm. Gauss-Seidel sweeps over contacts: contact i's problem u_i = G_ii r_i + q_i, with
// q_i = b_i + sum_{j != i} G_ij r_j, is solved exactly. Normal: r_N = max(0, -q_N / G_NN).
// Cone, in this order: open (q_N >= 0: r_i = 0); stick (r_i = -G_ii^-1 q_i inside the cone,
// relative slack 1e-12); slip, r_i = r_N (1, -mu d): u_N = 0 fixes r_N for each direction d and
// u_T parallel to d is a trigonometric polynomial of degree 2 in d's angle, whose (at most 4)
// roots come from a 4 x 4 companion matrix, polished by Newton. Among several slip roots the
// sweeps take the nearest to the current r_i: a slipping contact follows its root by Newton
// from its current direction. mu = 0: r_T = 0 and the normal row alone. A singular G_ii gets a
// proximal term 1e-8 |G_ii| (r_i - r_i_old), which vanishes at a fixed point. Every 10 sweeps,
// a few Newton iterations on the equations of the state the sweeps show (stick, slip with its
// angle, closed) try to land on the answer; kept only when they lower the residual (plain
// sweeps creep along the nearly singular directions of dependent contacts).
//
// Uniqueness. With dependent contacts r is not unique, but u is unique exactly when the motion
// is (for G = W^T M^-1 W: G (r1 - r2) = 0 iff W (r1 - r2) = 0). Starts: r = 0 (the order open,
// stick, slip), then two that keep their own branch (each contact takes the local answer nearest
// its current r_i): every contact sticking (least-squares r of G r = -b, projected on the cones)
// and every friction contact sliding against its b_T; then, at the first answer, each other
// local answer of one contact with the rest held. Converged answers with different u ->
// Several. This detects non-uniqueness only where the starts reach different answers: Solved is
// not a proof that the answer is the only one. (A body on a plane with 4 or more contacts that
// slides and turns has a continuum of motions: the split of its weight is free and the friction
// follows it; a fifth of random such bodies ended Several.)
//
// Residual: max over contacts of |g r_i - proj_K(g r_i - u_hat_i)| / s_u, the natural map of
// fc3d in velocity units, with g = ||G||_inf (1 if G = 0) and s_u = max(|b|_inf, |G r|_inf)
// (|G r|, not ||G|| |r|: r may grow along G's null space without moving anything). It is zero
// exactly when every contact's conditions hold, and it is computed from r alone.
#pragma once

#include <string>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::mech {

enum class ConeContactKind {
  Cone,    // 3 rows (N, T1, T2), Coulomb's cone with mu >= 0
  Normal,  // 1 row (N), unilateral only
};

struct ConeContact {
  ConeContactKind kind = ConeContactKind::Cone;
  double mu = 0.0;  // friction coefficient, >= 0; ignored for Normal
};

struct ConeContactProblem {
  std::vector<ConeContact> contacts;  // rows stacked in this order
  Matrix G;                           // m x m, m = 3 (#Cone) + (#Normal)
  Vector b;                           // m
};

struct ConeContactOptions {
  // Residual (header comment) below which an answer is accepted. 1e-10 keeps each contact's
  // conditions to about 1e-9 of the problem's scale.
  double tolerance = 1e-10;
  // Gauss-Seidel sweeps per start before that start gives up.
  int max_sweeps = 1000;
  // Run the further starts that detect several answers (off: the first start that converges is
  // the answer, never Several).
  bool check_uniqueness = true;
  // Two answers move the system differently when their u differ by more than this times s_u
  // (looser than tolerance: u is known to about tolerance times the problem's conditioning).
  double distinct_tolerance = 1e-6;
  // Cap on the starts from other local answers at the first answer (each is one more run).
  int max_alternative_starts = 8;
  // When given (m entries): the one start, each contact taking the local answer nearest its
  // current r_i, and no other answer is looked for (never Several). For polishing an answer of a
  // nearby problem (cone_contact_closure.hpp).
  Vector start;
  // A contact whose |u_i| <= state_tolerance s_u is at rest (Stick or Closed); one whose
  // g |r_i| <= state_tolerance s_u carries no force. Used only for ConeContactResult::states.
  double state_tolerance = 1e-8;
};

enum class ConeContactStatus {
  Solved,        // r, u hold an answer with residual <= tolerance
  NotConverged,  // no start reached the tolerance; r, u hold the start with the least residual
  Several,       // two starts reached answers with different u: r, u and other_r, other_u
};
const char* to_string(ConeContactStatus status);

enum class ConeContactState {
  Open,    // no force (r_i = 0), not at rest: u_N >= 0
  Closed,  // Normal contact at rest or pressed (u_N = 0 or r_N > 0)
  Stick,   // Cone contact at rest (u_i = 0), force inside the cone (r_i = 0 included)
  Slip,    // Cone contact with force on the cone's edge opposing u_T, u_N = 0
};
const char* to_string(ConeContactState state);

struct ConeContactResult {
  ConeContactStatus status = ConeContactStatus::NotConverged;
  std::string message;                   // what was found, with the contact index and values
  Vector r, u;                           // m: the answer (u = G r + b)
  Vector other_r, other_u;               // m with Several: the second answer; else empty
  std::vector<ConeContactState> states;  // per contact, from r and u (state_tolerance)
  int sweeps = -1;                       // sweeps of the start that gave r
  int starts = 0;                        // Gauss-Seidel runs made
  double residual = kNaN;                // of r (header comment)
  bool solved() const { return status == ConeContactStatus::Solved; }
};

// The problem above. Throws saltus::Error for bad input: sizes, non-finite entries, mu < 0,
// options out of range. Allocates per solve (result, workspace) and in the Newton step every 10
// sweeps (its QR), never in a sweep. Typical times (4 contacts of a random body, -O3, 3 starts):
// median 0.07-0.15 ms.
ConeContactResult solve_cone_contact_problem(const ConeContactProblem& problem,
                                             const ConeContactOptions& options = {});

// The check that solve_cone_contact_problem applies to its answers, for any r.
struct ConeContactCheck {
  double residual = kNaN;  // header comment
  int worst = -1;          // contact with the largest residual (-1: no contacts)
  double scale_u = 0.0;    // s_u
  Vector u;                // G r + b
  std::vector<ConeContactState> states;
};
ConeContactCheck check_cone_contact_answer(const ConeContactProblem& problem, const Vector& r,
                                           double state_tolerance = 1e-8);

}  // namespace saltus::mech
