// Parameters that are not folded into constants:
// - loaded as states (LoadOptions::parameters_as_states, `saltus sensitivity --parameters`):
//   read_parameters keeps them out of the constants, add_parameter_states appends them as the
//   last states, read_mode gives them x' = 0; a parameter computed from one of them follows it
//   as a definition of the state (read_following_parameters: `--continue slope_deg` moves
//   phi = "slope_deg*pi/180", and derivatives go through it); an initial value computed from
//   one is refused, since it is a number when the run starts;
// - kept at run time (LoadOptions::runtime_parameters): read_parameters makes them Parameter
//   leaves whose values the graph shares with its tapes; a value computed from one when the
//   model is loaded (another parameter, an initial value, a compliant law's coefficient) is
//   refused, since it would not follow a new value. A rigid contact's e, mu and e_t follow it
//   (mechanics_reader.cpp, model/runtime_contact_laws.hpp).
#include <algorithm>
#include <cctype>

#include "model_reader.hpp"

namespace saltus::model::loader {

std::string ModelReader::mentioned_in(const toml::node& v, const std::vector<std::string>& names) {
  std::string text;
  if (const auto s = v.value<std::string>()) text = *s;
  if (const toml::table* t = v.as_table()) {
    for (auto&& [key, value] : *t) {
      if (const auto s = value.value<std::string>()) text += " " + *s;
    }
  }
  for (const std::string& name : names) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      };
      const bool starts = at == 0 || !word(text[at - 1]);
      const bool ends = at + name.size() == text.size() || !word(text[at + name.size()]);
      if (starts && ends) return name;
    }
  }
  return "";
}

void ModelReader::promote(std::vector<std::string> names) {
  promote_ = std::move(names);
}

void ModelReader::keep_at_run_time(std::vector<std::string> names) {
  runtime_ = std::move(names);
}

// Every run-time parameter asked for was read, and none is also loaded as a state.
void ModelReader::check_runtime_parameters() {
  for (const std::string& name : runtime_) {
    if (std::find(promote_.begin(), promote_.end(), name) != promote_.end()) {
      add(0, 0, "parameter '" + name + "' cannot be both a state (sensitivity) and run-time");
    } else if (std::find(runtime_read_.begin(), runtime_read_.end(), name) == runtime_read_.end()) {
      add(0, 0,
          "no parameter '" + name + "' to keep at run time; expected one of the [parameters]");
    }
  }
}

// The promoted parameters as the last states (their flows are added by read_mode: x' = 0).
void ModelReader::add_parameter_states() {
  for (const std::string& name : promote_) {
    const auto it = std::find_if(promoted_.begin(), promoted_.end(),
                                 [&name](const Quantity& q) { return q.name == name; });
    if (it == promoted_.end()) {
      add(0, 0, "no parameter '" + name + "' to differentiate; expected one of the [parameters]");
      continue;
    }
    model_.parameter_states.push_back(static_cast<int>(model_.states.size()));
    model_.states.push_back(*it);
    state_names_.push_back(name);
  }
}

std::vector<std::string> ModelReader::varying_parameters() const {
  std::vector<std::string> names = promote_;
  for (const auto& f : following_) names.push_back(f.first);
  return names;
}

void ModelReader::read_following_parameters() {
  lang::SymbolTable s = symbols({});
  s.allow_algebraic = false;
  for (const auto& [name, v] : following_) {
    const toml::node* text = v->is_table() ? v->as_table()->get("value") : v;
    if (text == nullptr || !text->is_string()) {
      add(*v, "parameter '" + name + "' mentions a parameter loaded as a state; expected its " +
                  "value as an expression string");
      continue;
    }
    if (const auto node = expression(*text, "parameter '" + name + "'", s)) {
      definitions_[name] = *node;
      s.definitions[name] = *node;
    }
  }
}

}  // namespace saltus::model::loader
