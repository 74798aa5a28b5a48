#include "moreau_jean_stretch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "bridge_text.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/moreau_jean.hpp"

namespace saltus::bridge {

namespace {

std::string states_of(const mech::LagrangianModel& m,
                      const std::vector<mech::SteppedContact>& state) {
  std::string out;
  for (int i = 0; i < m.contact_count(); ++i) {
    if (!m.contact(i).rigid()) continue;
    out += (out.empty() ? "'" : ", '") + m.contact(i).name + "' " +
           mech::to_string(state[static_cast<size_t>(i)]);
  }
  return out;
}

}  // namespace

bool run_stretch(const StretchRun& run, const BridgeOptions& bridge, const StretchStart& start,
                 const mech::ContactAlternatives& alternatives, StretchScales& scales,
                 JoinedResult& join, BridgeLog& log, HandBack& back) {
  const mech::LagrangianModel& model = run.model;
  const int n = model.dof();
  const double t_end = run.t_end, h = start.step;
  const bool keep_events = run.options.output.record_events;
  const std::vector<double>& sample_times = run.options.output.sample_times;
  const auto started = std::chrono::steady_clock::now();
  BridgeStretch st;
  st.reason = start.reason;
  st.stop_status = start.stop_status;
  st.stop_message = start.stop_message;
  st.contacts = start.contacts;
  st.t_start = start.t;
  st.step = h;
  st.theta = bridge.stepper.theta;
  Vector xs = start.x;
  double ts = start.t;
  const std::string start_note = saltus::detail::text(
      "moreau-jean stretch starts (", start.reason, ": ", st.stop_status, " at t = ", text_of(ts),
      ", contacts ", contact_names(model, start.contacts), ")");
  const long start_record =
      join.record(kBridgeStartGuard, ts, start.mode, start.mode, xs, xs, start_note, keep_events);
  const double max_stretch = std::isfinite(bridge.max_stretch)
                                 ? bridge.max_stretch
                                 : static_cast<double>(bridge.max_stretch_steps) * h;
  const mech::MoreauJeanStepper stepper(model, bridge.stepper);
  std::vector<mech::SteppedContact> held, first;  // first: after the stretch's first step
  int same = 0;
  size_t next_sample =
      std::lower_bound(sample_times.begin(), sample_times.end(), ts) - sample_times.begin();
  if (next_sample < sample_times.size() && sample_times[next_sample] == ts) ++next_sample;
  std::string unsettled;
  bool non_finite = false;  // unsettled: the stepped state is not finite
  for (;;) {
    const double step = std::min(h, t_end - ts);
    const mech::MoreauJeanStep s = stepper.step(ts, xs.head(n), xs.tail(n), step);
    if (!s.ok()) {
      unsettled = s.failure;
      break;
    }
    Vector xn(2 * n);
    xn << s.q, s.qdot;
    if (!xn.allFinite()) {
      unsettled =
          saltus::detail::text("the step to t = ", text_of(ts + step), " gave a non-finite state");
      non_finite = true;
      break;
    }
    // From the stretch's start, rounded once: a sum of steps would lose a step's ulp(t) each
    // (6 % of a 2e-6 s step at t = 1e9).
    const double tn = step == h ? st.t_start + static_cast<double>(st.steps + 1) * h : t_end;
    while (next_sample < sample_times.size() && sample_times[next_sample] <= tn) {
      const double ws = (sample_times[next_sample] - ts) / (tn - ts);
      join.sample(sample_times[next_sample++], (1.0 - ws) * xs + ws * xn);
    }
    if (run.options.output.record_steps) join.sample(tn, xn);
    xs = xn;
    ts = tn;
    scales.t_reached = ts;
    scales.x_reached = xs;
    ++st.steps;
    st.chosen_steps += s.chosen;
    if (run.options.on_progress && st.steps % 64 == 0) run.options.on_progress(ts);
    same = s.state == held ? same + 1 : 1;
    held = s.state;
    if (st.steps == 1) first = s.state;
    if (ts >= t_end) break;
    if (same >= start.hold) {
      Vector settled = xs;
      const std::string failure = mech::settle_stepped_state(model, held, settled, scales.q_scale);
      if (failure.empty()) {
        try {
          back.mode = run.mode_at(ts, settled);
          back.x = settled;
          back.t = ts;
          break;
        } catch (const Error&) {
          // The mode choice refuses this state (e.g. a Painleve slip there): step on.
        }
      }
      same = 0;
    }
    if (ts - st.t_start >= max_stretch) {
      unsettled = saltus::detail::text("it did not settle within ", text_of(max_stretch),
                                       " (the stretch's limit)");
      break;
    }
  }
  st.t_end = ts;
  st.end_state = states_of(model, held);
  if (alternatives.painleve()) {
    st.motions = mech::motions_text(model, alternatives);
    st.taken = "first step " + mech::taken_text(model, alternatives, first) + ", end " +
               mech::taken_text(model, alternatives, held);
    join.set_note(start_record, start_note + "; " + st.motions + "; taken: " + st.taken);
  }
  scales.q_scale = scales.q_scale.cwiseMax(xs.head(n).cwiseAbs());
  scales.energy = std::max(scales.energy, model.kinetic_energy(xs.head(n), xs.tail(n)));
  join.add_wall(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  const std::string length = saltus::detail::text(text_of(st.t_end - st.t_start), " (", st.steps,
                                                  " steps of ", text_of(h), ")");
  if (!unsettled.empty()) {
    const std::string message = saltus::detail::text(
        "model '", model.name(), "': the Moreau-Jean stretch from t = ", text_of(st.t_start), " (",
        start.reason, ") ended at t = ", text_of(ts), " after ", length, ": ", unsettled,
        "; contacts ", st.end_state, ". The event-driven run had stopped with ", st.stop_status,
        ": ", st.stop_message);
    join.record(kBridgeEndGuard, ts, start.mode, start.mode, xs, xs,
                saltus::detail::text("moreau-jean stretch unsettled after ", length, "; contacts ",
                                     st.end_state),
                keep_events);
    join.end(non_finite ? Termination::NonFiniteState : Termination::Unsettled, message, ts,
             start.mode, xs);
    log.stretches.push_back(std::move(st));
    return false;
  }
  if (ts >= t_end) {
    // The end state projected onto the contacts as a hand-back's would be; where that fails it
    // is kept as stepped, and the message and the row's note say so (the run is degraded either
    // way: ModelRun::degraded).
    Vector end = xs;
    const std::string unprojected = mech::settle_stepped_state(model, held, end, scales.q_scale);
    if (!unprojected.empty()) end = xs;
    const std::string kept =
        unprojected.empty()
            ? ""
            : "; the end state is the stepped one, not projected onto its contacts: " + unprojected;
    join.record(kBridgeEndGuard, ts, start.mode, start.mode, xs, end,
                saltus::detail::text("moreau-jean stretch reaches t_end after ", length,
                                     "; contacts ", st.end_state, kept),
                keep_events);
    join.end(
        Termination::EndTimeReached,
        saltus::detail::text("reached t_end = ", text_of(t_end), " in a Moreau-Jean stretch", kept),
        ts, start.mode, end);
    log.stretches.push_back(std::move(st));
    return false;
  }
  st.settled = true;
  st.handed_back_to = run.system.mode(back.mode).name;
  join.record(kBridgeEndGuard, ts, start.mode, back.mode, xs, back.x,
              saltus::detail::text("moreau-jean stretch ends after ", length, "; contacts ",
                                   st.end_state, " held ", start.hold,
                                   " steps; handed back in mode '", st.handed_back_to, "'"),
              keep_events);
  log.stretches.push_back(std::move(st));
  return true;
}

}  // namespace saltus::bridge
