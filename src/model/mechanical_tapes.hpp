// The tapes of a model file's mechanics (mechanical_system.cpp builds them) and the plain
// entries in doubles that read them in place, private to src/model: the flow, the velocity
// projection and the walls' gaps as the integrators, the energy projection and event location
// call them (mechanical_in_place.cpp).
#pragma once

#include <array>

#include <cstdint>
#include <memory>
#include <vector>

#include "saltus/lang/tape.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::model::detail {

// The state x = (q, q') as a tape reads it (x[i]), from the separate q and q' vectors that the
// LagrangianModel passes; q' may be absent for functions of q alone.
template <class S, class Q = mech::DofVector<S>>
struct StateView {
  const Q& q;  // DofVector<S>, or a pointer to n entries (AccelerationFunction in doubles)
  const Q* qdot;
  int n;
  S operator[](int i) const { return i < n ? q[i] : (*qdot)[i - n]; }
};

struct MechanicalTapes {
  int n = 0;
  lang::Tape mass;    // slot i + n j: M_ij
  lang::Tape forces;  // slot i: h_i
  std::vector<lang::Tape> gaps, tangents;
  std::vector<lang::Tape> constraint_rows;  // slot i: eta^a_i
  // Per contact: the rows eta_1, eta_2 of its slip velocities in space (slot i: d gamma_k /
  // dq'_i); empty tapes for a contact without (ModelContact::slip).
  std::vector<std::array<lang::Tape, 3>> slip_rows;  // the third: drilling (empty without)
  // Per contact: the rows of its rolling rates (rolling resistance, ModelContact::roll); empty
  // tapes for a contact without.
  std::vector<std::array<lang::Tape, 2>> roll_rows;
  // Models with constraints: the first-order flow x' = (qdot, qddot) of x = (q, qdot), slots
  // 0 .. 2n - 1, then the n + k pivots of the elimination as conditions (Tape::positive_from):
  // the native function writes x' in place and returns whether the elimination applies.
  lang::Tape flow;
  // Models with constraints: slot i < n the projected velocity v_i, slot n its kinetic energy,
  // then the n + k pivots (constrained_accelerations.hpp).
  lang::Tape velocity_projection;
  // Whether the tape reads only t, q, qdot and parameters and stores every slot: its native
  // function's output array is then read directly (all_slots).
  bool flow_read_in_place = false;
  bool velocity_projection_read_in_place = false;
  bool all_gaps_read_in_place = false;
  // Models with constraints: slot i < n d gap / d q_i of each contact (the walls' gradients).
  std::vector<lang::Tape> gap_gradients;
  // Every gap in one tape (slot i: contact i): walls checked at the same q share their common
  // subexpressions, such as the heading's sine and cosine (all_gaps_in_place).
  lang::Tape all_gaps;
};

// Walls checked in one call per sample (the guard set of all_gaps_in_place); a model with more
// contacts checks each wall by its own gap's tape.
constexpr int kWallsInOneCall = 16;

// Whether the tape reads only t, x and parameters and stores every slot (all_slots).
bool readable_in_place(const lang::Tape& tape);
// Every gap at q (mech::AllWallGaps, context: the MechanicalTapes).
void all_gaps_in_place(const void* context, const double* q, double* h);
// The fused accelerations from q and qdot, n entries each (context: the MechanicalTapes).
bool accelerations_in_place(const void* context, double t, const double* q, const double* qdot,
                            double* qddot);
// The flow x' = (qdot, qddot) at x = (q, qdot) (AccelerationFunction::Fast).
bool flow_in_place(const void* context, double t, const double* x, double* xdot);
// The fused velocity projection (mech::VelocityProjection).
bool velocity_projection_in_place(const void* context, const double* q, const double* qdot,
                                  double* v, double* kinetic_energy);

}  // namespace saltus::model::detail
