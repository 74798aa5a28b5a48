// What a run writes into its SimulationResult besides the end state (private to src/sim): the
// sampled trajectory at OutputOptions::sample_times (and every step with record_steps) and the
// event log. Capacity is reserved in begin(), and the summary is reset field by field keeping its
// strings' and counters' capacity, so a reused Simulator does not allocate per run.
// Independent of the integrator: samples inside a step come through a callable that fills the
// dense-output state (tests/sim/run_recorder_test.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "saltus/core/hybrid_system.hpp"
#include "saltus/sim/simulator.hpp"

namespace saltus::detail {

class RunRecorder {
 public:
  explicit RunRecorder(const OutputOptions& options) : options_(options) {}

  // A new run from t0 writing into `out`: clears its logs, reserves their capacity and resets
  // the summary (events_per_guard sized for the system's modes and guards).
  void begin(SimulationResult& out, const HybridSystem& system, double t0) {
    out_ = &out;
    out.events.clear();
    out.trajectory.clear();
    out.trajectory.set_strides(system.max_nx(), system.max_nz());
    if (options_.record_events) {
      out.events.reserve(options_.reserve_events, system.max_nx(), system.max_nz(),
                         system.max_reset_outputs());
    }
    out.trajectory.reserve(options_.reserve_samples);
    SimulationSummary& s = out.summary;
    std::vector<std::vector<long>> per_guard = std::move(s.events_per_guard);
    std::string text = std::move(s.message);
    std::vector<std::string> sampled = std::move(s.sampled_guards);  // the loop assigns it
    s = SimulationSummary{};
    s.events_per_guard = std::move(per_guard);
    s.sampled_guards = std::move(sampled);
    s.message = std::move(text);
    s.message.clear();
    s.message.reserve(128);  // once: the end-of-run message then fits without allocating
    s.t_start = t0;
    s.events_per_guard.resize(system.mode_count());
    for (ModeId i = 0; i < system.mode_count(); ++i) {
      s.events_per_guard[i].assign(system.mode(i).guards.size(), 0);
    }
    next_sample_ = 0;
    const auto& st = options_.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] < t0) ++next_sample_;
  }

  SimulationResult& result() { return *out_; }
  bool record_steps() const { return options_.record_steps; }
  bool record_events() const { return options_.record_events; }

  void add(double t, long j, ModeId mode, const ConstVectorRef& x, const ConstVectorRef& z) {
    out_->trajectory.add(t, j, mode, x, z);
  }
  // Every step end and both limits of every event (record_steps). Takes the loop's vector
  // expressions as they are, so a run that records no steps builds no Eigen::Ref for them.
  template <class X, class Z>
  void step(double t, long j, ModeId mode, const X& x, const Z& z) {
    if (options_.record_steps) add(t, j, mode, x, z);
  }

  // Sample times up to t (inclusive) take the state (x, z) at t itself.
  void samples_at(double t, long j, ModeId mode, const ConstVectorRef& x, const ConstVectorRef& z) {
    const auto& st = options_.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] <= t)
      add(st[next_sample_++], j, mode, x, z);
  }
  // Sample times before t (exclusive) take the state (x, z) (the limit state of a hand-over).
  void samples_before(double t, long j, ModeId mode, const ConstVectorRef& x,
                      const ConstVectorRef& z) {
    const auto& st = options_.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] < t) add(st[next_sample_++], j, mode, x, z);
  }
  // Sample times in (previous, t] from the step's dense output: state_at(ts) returns the
  // (x, z) pair to record at ts.
  template <class StateAt>
  void samples_until(double t, long j, ModeId mode, StateAt&& state_at) {
    const auto& st = options_.sample_times;
    while (next_sample_ < st.size() && st[next_sample_] <= t) {
      const double ts = st[next_sample_++];
      const auto [x, z] = state_at(ts);
      add(ts, j, mode, x, z);
    }
  }

  // A run that ended before t_end at t closes its sampled trajectory with the state where it
  // stopped, so the output reaches the failure (or the terminal event, or the Zeno stop).
  void close(double t, long j, ModeId mode, const ConstVectorRef& x, const ConstVectorRef& z) {
    const Trajectory& tr = out_->trajectory;
    if (out_->summary.termination != Termination::EndTimeReached &&
        !options_.sample_times.empty() && (tr.size() == 0 || tr.t(tr.size() - 1) < t) &&
        x.size() > 0 && x.allFinite()) {
      add(t, j, mode, x, z);
    }
  }

  void event(const EventRecord& r, const ConstVectorRef& x, const ConstVectorRef& z,
             const ConstVectorRef& x_plus, const ConstVectorRef& z_plus,
             const ConstVectorRef& outputs) {
    if (options_.record_events) out_->events.add(r, x, z, x_plus, z_plus, outputs);
  }

 private:
  const OutputOptions& options_;
  SimulationResult* out_ = nullptr;
  size_t next_sample_ = 0;
};

}  // namespace saltus::detail
