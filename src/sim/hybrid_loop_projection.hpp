// HybridLoop's invariant projection (included by hybrid_loop.hpp only): a mode with a
// `projection` (core/invariant_projection.hpp) keeps its first integrals c(x) at the values read
// at the start and after every reset, by projecting the end state of every accepted step and
// the event state before a reset. DOP853 projects the end state itself, before the step's last
// stage (FSAL), so that the next step starts from f at the projected state; after a step of the
// other steppers the state is projected and the stepper restarted there.
#pragma once

#include "hybrid_loop.hpp"

namespace saltus::detail {

template <ode::DenseStepper S>
void HybridLoop<S>::read_invariants() {
  const Mode& m = current_mode();
  if (!m.projection) return;
  m.projection->values(x_.head(nx_), invariant_target_.head(m.projection->count));
}

template <ode::DenseStepper S>
bool HybridLoop<S>::project_onto_invariants(const Mode& m) {
  if (m.projection->project(invariant_target_.head(m.projection->count), x_.head(nx_)) &&
      x_.head(nx_).allFinite()) {
    return true;
  }
  out_->summary.projection_failed = true;
  stop(Termination::ModelError,
       message("mode '", m.name, "': the invariant projection found no state with c(x) = ",
               vector_text(invariant_target_.head(m.projection->count)),
               " near x = ", vector_text(x_.head(nx_)), " at t = ", now()));
  return false;
}

// The end state of a step, moved by the stepper before its last stage (kProjectsInStep).
template <ode::DenseStepper S>
bool HybridLoop<S>::project_step_end(VectorRef x) {
  const Mode& m = current_mode();
  if (!m.projection) return true;
  return m.projection->project(invariant_target_.head(m.projection->count), x) && x.allFinite();
}

// After an accepted step without event: project the step's end state, restart the stepper
// there (its derivative changes; the step size is kept) and re-read the guards at it.
template <ode::DenseStepper S>
void HybridLoop<S>::project_after_step(const Mode& m) {
  if (!project_onto_invariants(m)) return;
  const ode::StepStatus st = stepper_.restart(t_, x_.head(nx_), z_.head(nz_), true);
  if (st != ode::StepStatus::Accepted) {
    stop_on_step(st);
    return;
  }
  for (size_t k = 0; k < m.guards.size(); ++k) {
    guards_.p_start[k] = m.guards[k].value(now(), x_.head(nx_), z_.head(nz_)) - guards_.offset[k];
  }
}

}  // namespace saltus::detail
