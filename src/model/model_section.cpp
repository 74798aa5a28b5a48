#include "saltus/model/model_section.hpp"

#include <memory>

#include "saltus/core/error.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/lang/tape_enclosure.hpp"

namespace saltus::model {

Guard expression_observer(const Model& model, lang::NodeId node, std::string name,
                          Direction direction) {
  auto tape = std::make_shared<const lang::Tape>(lang::compile_tape(*model.graph, {{node, 0}}));
  Guard observer = make_observer(
      std::move(name), direction,
      [tape](const auto& t, const auto& x, const auto& z) { return evaluate(*tape, t, x, z); });
  observer.enclosure = lang::tape_enclosure(tape);
  return observer;
}

Guard section_guard(const Model& model, std::string_view spec) {
  for (const ModelSection& s : model.sections) {  // the name of one of the model's [[sections]]
    if (s.name != spec) continue;
    if (s.period > 0.0) {
      throw Error("section '" + s.name + "' of " + model.file + " is stroboscopic (period " +
                  std::to_string(s.period) + "); give --period instead of --section");
    }
    return expression_observer(model, s.value, "section " + s.name, s.direction);
  }
  std::string_view text = spec;
  Direction direction = Direction::Rising;
  const auto comma = text.rfind(',');
  if (comma != std::string_view::npos) {
    std::string_view tail = text.substr(comma + 1);
    while (!tail.empty() && tail.front() == ' ') tail.remove_prefix(1);
    while (!tail.empty() && tail.back() == ' ') tail.remove_suffix(1);
    if (tail == "+" || tail == "rising") {
      direction = Direction::Rising;
    } else if (tail == "-" || tail == "falling") {
      direction = Direction::Falling;
    } else {
      throw Error("section '" + std::string(spec) + "': direction '" + std::string(tail) +
                  "' after the comma must be + (rising) or - (falling)");
    }
    text = text.substr(0, comma);
  }
  lang::SymbolTable symbols;
  for (const Quantity& p : model.parameters) symbols.constants[p.name] = p.value;
  for (int i : model.runtime_parameters) {  // leaves, so the section follows a new value
    const std::string& name = model.parameters[static_cast<size_t>(i)].name;
    symbols.constants.erase(name);
    symbols.parameters.push_back(name);
  }
  symbols.parameter_values = model.graph->parameter_values();
  for (const Quantity& s : model.states) symbols.states.push_back(s.name);
  symbols.allow_algebraic = false;
  const int equals = lang::find_equals(text);
  if (equals == -2) throw Error("section '" + std::string(spec) + "': more than one '='");
  lang::CompiledExpression c = equals >= 0 ? lang::compile_residual(text, equals, symbols)
                                           : lang::compile_expression(text, symbols);
  if (!c.ok()) {
    std::string message = "section '" + std::string(spec) + "':";
    for (const lang::ExpressionIssue& i : c.issues) {
      message += " at offset " + std::to_string(i.offset) + ": " + i.message + ";";
    }
    throw Error(message);
  }
  if (c.is_constant || c.is_condition) {
    throw Error("section '" + std::string(spec) +
                "' must be a function of the state or time crossing zero (it is " +
                (c.is_constant ? "constant)" : "a comparison)"));
  }
  auto tape = std::make_shared<const lang::Tape>(std::move(c.program));
  Guard observer = make_observer(
      "section " + std::string(text), direction,
      [tape](const auto& t, const auto& x, const auto& z) { return evaluate(*tape, t, x, z); });
  observer.enclosure = lang::tape_enclosure(tape);
  return observer;
}

int parameter_state_index(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.states.size(); ++i) {
    if (model.states[i].name == name) return static_cast<int>(i);
  }
  for (const Quantity& p : model.parameters) {
    if (p.name == name) {
      throw Error("'" + name + "' is a parameter of " + model.file +
                  "; parameters are folded into the expressions when the model is loaded, so a "
                  "continued or swept-with-orbits parameter must be a state with " +
                  name + "' = 0 in every mode (see models/impact_oscillator.toml)");
    }
  }
  std::string known;
  for (const Quantity& s : model.states) known += (known.empty() ? "" : ", ") + s.name;
  throw Error("'" + name + "' is not a state of " + model.file + " (states: " + known + ")");
}

}  // namespace saltus::model
