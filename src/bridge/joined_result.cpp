#include "joined_result.hpp"

#include <algorithm>

#include "saltus/bridge/bridge_records.hpp"

namespace saltus::bridge {

JoinedResult::JoinedResult(const HybridSystem& system, SimulationResult& out, double t0)
    : system_(system), out_(out) {
  out_ = SimulationResult{};
  out_.layer_mode_names = {kMoreauJeanModeName};
  out_.trajectory.set_strides(system.max_nx(), system.max_nz());
  out_.summary.t_start = t0;
  out_.summary.events_per_guard.resize(static_cast<size_t>(system.mode_count()));
  for (ModeId i = 0; i < system.mode_count(); ++i) {
    out_.summary.events_per_guard[static_cast<size_t>(i)].assign(system.mode(i).guards.size(), 0);
  }
}

void JoinedResult::piece(const SimulationResult& p) {
  const long offset = j_;
  for (long i = 0; i < p.events.size(); ++i) {
    EventRecord r = p.events[i];
    r.j += offset;
    out_.events.add(r, p.events.x_before(i), p.events.z_before(i), p.events.x_after(i),
                    p.events.z_after(i), p.events.outputs(i));
    if (!p.events.note(i).empty()) out_.events.set_note(out_.events.size() - 1, p.events.note(i));
  }
  const Trajectory& tr = p.trajectory;
  for (long i = 0; i < tr.size(); ++i) {
    const int nx = system_.mode(tr.mode(i)).flow.nx;
    out_.trajectory.add(tr.t(i), tr.j(i) + offset, tr.mode(i), tr.x(i).head(nx), Vector());
  }
  j_ = offset + p.summary.jumps;
  SimulationSummary& s = out_.summary;
  const SimulationSummary& q = p.summary;
  s.termination = q.termination;
  s.message = q.message;
  s.reset_cause = q.reset_cause;
  s.handover_failed = q.handover_failed;
  s.projection_failed = q.projection_failed;
  s.integrator = q.integrator;
  s.t_final = q.t_final;
  s.final_mode = q.final_mode;
  if (q.zeno_time == q.zeno_time) {
    s.zeno_time = q.zeno_time;
    s.zeno_ratio = q.zeno_ratio;
    s.events_before_zeno = q.events_before_zeno + (out_.events.size() - p.events.size());
    s.zeno_kind = q.zeno_kind;
  }
  s.stepper.accepted_steps += q.stepper.accepted_steps;
  s.stepper.rejected_steps += q.stepper.rejected_steps;
  s.stepper.rhs_evaluations += q.stepper.rhs_evaluations;
  s.stepper.jacobian_evaluations += q.stepper.jacobian_evaluations;
  s.stepper.lu_decompositions += q.stepper.lu_decompositions;
  s.stepper.restarts += q.stepper.restarts;
  s.guard_evaluations += q.guard_evaluations;
  s.root_evaluations += q.root_evaluations;
  s.enclosure_evaluations += q.enclosure_evaluations;
  s.undecided_searches += q.undecided_searches;
  for (const std::string& g : q.sampled_guards) {
    if (std::find(s.sampled_guards.begin(), s.sampled_guards.end(), g) == s.sampled_guards.end()) {
      s.sampled_guards.push_back(g);
    }
  }
  for (size_t m = 0; m < q.events_per_guard.size() && m < s.events_per_guard.size(); ++m) {
    for (size_t g = 0; g < q.events_per_guard[m].size() && g < s.events_per_guard[m].size(); ++g) {
      s.events_per_guard[m][g] += q.events_per_guard[m][g];
    }
  }
  s.zeno_handovers += q.zeno_handovers;
  s.wall_seconds += q.wall_seconds;
  s.jumps = j_;
  out_.t_final = p.t_final;
  out_.final_mode = p.final_mode;
  out_.x_final = p.x_final;
  out_.z_final = p.z_final;
}

long JoinedResult::record(GuardId guard, double t, ModeId before, ModeId after,
                          const Vector& x_before, const Vector& x_after, std::string note,
                          bool keep) {
  ++j_;
  out_.summary.jumps = j_;
  if (!keep) return -1;
  EventRecord r;
  r.t = t;
  r.j = j_;
  r.mode_before = before;
  r.mode_after = after;
  r.guard = guard;
  r.kind = bridge_record_kind(guard);
  out_.events.add(r, x_before, Vector(), x_after, Vector());
  out_.events.set_note(out_.events.size() - 1, std::move(note));
  return out_.events.size() - 1;
}

void JoinedResult::set_note(long record, std::string note) {
  if (record >= 0) out_.events.set_note(record, std::move(note));
}

void JoinedResult::sample(double t, const Vector& x) {
  out_.trajectory.add(t, j_, kMoreauJeanMode, x, Vector());
}

void JoinedResult::end(Termination termination, std::string message, double t, ModeId mode,
                       const Vector& x) {
  out_.summary.termination = termination;
  out_.summary.message = std::move(message);
  out_.summary.t_final = t;
  out_.summary.final_mode = mode;
  out_.t_final = t;
  out_.final_mode = mode;
  out_.x_final = x;
  out_.z_final.resize(0);
}

}  // namespace saltus::bridge
