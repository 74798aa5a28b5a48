#include "saltus/model/model_start_check.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::model {
namespace {

std::string number_text(double v) {
  return saltus::detail::text(v);
}

}  // namespace

std::vector<Diagnostic> check_model_values(const Model& model) {
  std::vector<Diagnostic> out;
  auto refuse = [&](const std::string& what) { out.push_back({model.file, 0, 0, what}); };
  if (!std::isfinite(model.t_start)) {
    refuse("[initial] t = " + number_text(model.t_start) + " is not finite");
  }
  if (!std::isfinite(model.t_end)) {
    refuse("[solver] t_end = " + number_text(model.t_end) + " is not finite; expected an end time");
  }
  for (const Quantity& q : model.parameters) {
    if (!std::isfinite(q.value)) {
      refuse("parameter '" + q.name + "' = " + number_text(q.value) + " is not finite");
    }
  }
  for (const Quantity& q : model.states) {
    if (!std::isfinite(q.value)) {
      refuse("initial value of state '" + q.name + "' = " + number_text(q.value) +
             " is not finite");
    }
  }
  return out;
}

std::vector<Diagnostic> check_model_start(const Model& model) {
  auto probe = std::make_shared<Model>(model);
  // Long enough for one step above the integrator's minimum step (16 ulps of t), short enough
  // that nothing beyond the start is evaluated in practice.
  const double span = model.t_end - model.t_start;
  const double ulp = std::abs(model.t_start) * std::numeric_limits<double>::epsilon();
  probe->t_end = model.t_start + std::min(span, std::max(1e-9 * span, 1e3 * ulp));
  probe->options.output.sample_times.clear();
  probe->options.output.record_events = false;
  ModelRun run;
  try {
    run = run_model(probe);
  } catch (const Error& e) {
    return {{model.file, 0, 0, std::string("the model cannot be simulated: ") + e.what()}};
  }
  if (run.succeeded()) return {};
  return {{model.file, 0, 0,
           "at the start (t = " + number_text(model.t_start) + ") the run fails with " +
               run.status() + ": " + run.message()}};
}

}  // namespace saltus::model
