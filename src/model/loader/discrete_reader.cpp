// [discrete]: discrete variables, values that change only at jumps (a bounce counter, a worn
// coefficient, a controller's memory). Each is lowered to a state with rate 0 in every mode
// (Model::discrete_states), after the [states] and before the parameter states: flows, guards,
// resets, [let] and [outputs] read it like any state, the engine, the outputs, sensitivities and
// orbits need nothing new, and a flow that writes one is refused at its line (mode_reader.cpp).
#include <algorithm>

#include "model_reader.hpp"

namespace saltus::model::loader {

void ModelReader::read_discrete(const toml::table& doc) {
  const toml::table* t = table_at(doc, "discrete", "the file", false);
  if (t == nullptr) return;
  for (const auto& [k, v] : ordered(*t)) {
    if (!new_name(*v, k, "discrete variable")) continue;
    Quantity q;
    q.name = k;
    if (const std::string used = mentioned_in(*v, varying_parameters()); !used.empty()) {
      add(*v, "discrete variable '" + k + "' starts at an expression of '" + used +
                  "', which is loaded as a state (saltus sensitivity --parameters, saltus orbit " +
                  "--continue): the start would not follow it; expected a number");
    } else if (auto r = quantity(k, *v, "discrete variable", "initial", true)) {
      q = *r;
    }
    model_.discrete_states.push_back(static_cast<int>(model_.states.size()));
    model_.states.push_back(q);  // kept (with 0) after a problem, so later checks still work
    state_names_.push_back(k);
  }
}

// An implicit flow's residuals must not read x' of a discrete variable: its rate is 0, set by
// the loader, not by the residuals.
void ModelReader::check_discrete_rates(const toml::node& n, const std::string& what,
                                       const std::vector<lang::NodeId>& residuals) {
  for (int i : model_.discrete_states) {
    const bool read = std::any_of(residuals.begin(), residuals.end(), [&](lang::NodeId r) {
      return !graph_->is_zero(graph_->derivative(r, {lang::OpCode::StateRate, i}));
    });
    if (read) {
      add(n, what + " read " + state_names_[static_cast<size_t>(i)] + "', the rate of a " +
                 "discrete variable ([discrete]): its rate is 0 in every mode and only resets " +
                 "change it; expected residuals of the other states' rates");
    }
  }
}

}  // namespace saltus::model::loader
