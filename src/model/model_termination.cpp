// A model's terminate / terminate_after as an on_event callback (model_termination.hpp).
#include "saltus/model/model_termination.hpp"

#include <sstream>
#include <utility>
#include <vector>

#include "saltus/lang/tape.hpp"

namespace saltus::model {
namespace {

// What one run's callback holds: the conditions' tapes, which termination each guard of each
// mode has (-1: none), and the events counted so far.
struct Terminations {
  const Model* model = nullptr;  // outlives the run (simulate_model_run holds it)
  std::vector<lang::Tape> when;  // empty tape: no condition
  std::vector<std::vector<int>> of_guard;
  std::vector<long> count;
  std::shared_ptr<std::string> message = std::make_shared<std::string>();
};

std::string ordinal(long n) {
  const long tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : ones == 1                ? "st"
                       : ones == 2                ? "nd"
                       : ones == 3                ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

CallbackResult check(Terminations& s, const EventInfo& e) {
  if (e.observation || e.guard < 0 || e.mode_before < 0) return CallbackResult::Continue;
  const auto m = static_cast<size_t>(e.mode_before), g = static_cast<size_t>(e.guard);
  if (m >= s.of_guard.size() || g >= s.of_guard[m].size() || s.of_guard[m][g] < 0) {
    return CallbackResult::Continue;
  }
  const auto k = static_cast<size_t>(s.of_guard[m][g]);
  const ModelTermination& term = s.model->terminations[k];
  const long n = ++s.count[k];
  const bool counted = term.after > 0 && n >= term.after;
  // A condition whose operand is NaN reads as false: the run goes on (and says why elsewhere).
  const bool holds =
      !s.when[k].empty() && lang::evaluate(s.when[k], e.t, e.x_after, e.x_after, e.z_after) != 0.0;
  if (!counted && !holds) return CallbackResult::Continue;
  std::ostringstream out;
  out.precision(12);
  out << "terminated by guard '" << term.guard << "' of mode '" << term.mode << "' at t = " << e.t
      << " (its " << ordinal(n) << " event, j = " << e.j << "): ";
  if (holds) {
    out << "terminate = '" << term.when_text << "' holds after its reset";
  } else {
    out << "terminate_after = " << term.after;
  }
  *s.message = out.str();
  return CallbackResult::Stop;
}

}  // namespace

std::shared_ptr<std::string> add_terminations(const Model& model, SimulationOptions& options) {
  if (model.terminations.empty()) return nullptr;
  auto s = std::make_shared<Terminations>();
  s->model = &model;
  for (const ModelTermination& term : model.terminations) {
    s->when.push_back(term.when == lang::kNoNode
                          ? lang::Tape{}
                          : lang::compile_tape(*model.graph, {{term.when, 0}}));
  }
  s->count.assign(model.terminations.size(), 0);
  for (const ModelMode& mode : model.modes) {
    std::vector<int> guards;
    for (const ModelGuard& guard : mode.guards) guards.push_back(guard.terminate);
    s->of_guard.push_back(std::move(guards));
  }
  std::shared_ptr<std::string> message = s->message;
  options.on_event = [s, before = std::move(options.on_event)](const EventInfo& e) {
    if (before && before(e) == CallbackResult::Stop) return CallbackResult::Stop;
    return check(*s, e);
  };
  return message;
}

}  // namespace saltus::model
