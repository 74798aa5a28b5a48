// [[sections]]: Poincare sections of a model file, as observers of every mode
// (docs/MODEL_FORMAT.md).
//   [[sections]]
//   name = "apex"
//   value = "v"              # s(t, x) crossing zero, or
//   period = 6.283185307     # a stroboscopic section: every period from the initial t
//   direction = "falling"    # rising (default), falling or either
#include <cstdio>

#include "model_reader.hpp"

namespace saltus::model::loader {

void ModelReader::read_sections(const toml::table& doc) {
  const toml::node* list = doc.get("sections");
  if (list == nullptr) return;
  if (!list->is_array_of_tables()) {
    add(*list, "sections is " + type_name(*list) + "; expected [[sections]] tables");
    return;
  }
  for (const toml::node& e : *list->as_array()) read_section(*e.as_table());
}

void ModelReader::read_section(const toml::table& t) {
  check_keys(t, "a [[sections]] table", {"name", "value", "period", "direction"});
  ModelSection section;
  section.name = "section" + std::to_string(model_.sections.size());
  if (const toml::node* n = t.get("name")) {
    if (auto v = string(*n, "section name")) section.name = *v;
  }
  const std::string where = "section '" + section.name + "'";
  for (const ModelSection& other : model_.sections) {
    if (other.name == section.name) add(t, where + ": name used twice in [[sections]]");
  }
  const toml::node* value = t.get("value");
  const toml::node* period = t.get("period");
  if ((value == nullptr) == (period == nullptr)) {
    add(t, where + (value == nullptr ? " has neither" : " has both") +
               " value and period; expected value = \"<scalar expression>\" (a Poincare "
               "section) or period = <time> (stroboscopic)");
    return;
  }
  const lang::SymbolTable s = symbols({});
  if (value != nullptr) {
    if (!value->is_string()) {
      add(*value,
          where + " value is " + type_name(*value) + "; expected one scalar expression (a string)");
    } else if (auto p = expression(*value, where, s)) {
      const lang::ExpressionNode& node = graph_->node(*p);
      if (lang::is_comparison(node.op)) {
        add_at(*value, 0,
               where +
                   " value is a condition, not a scalar function; expected an "
                   "expression that crosses zero (e.g. 'x - 1' for x = 1)");
      } else if (node.op == lang::OpCode::Const) {
        add_at(*value, 0,
               where +
                   " value is constant; expected a function of t or the states "
                   "that crosses zero");
      } else {
        section.value = *p;
      }
    }
  } else if (auto T = number(*period, where + " period")) {
    if (!(*T > 0.0)) {
      add(*period, where + " period " + std::to_string(*T) + "; expected a time > 0");
    } else {
      // sin(2 pi (t - t0) / T) rises through zero at t0 + k T: one crossing per period.
      char text[128];
      std::snprintf(text, sizeof text, "sin(2*pi*(t - (%.17g))/(%.17g))", model_.t_start, *T);
      const lang::ParsedExpression c = lang::parse_expression(text, s, *graph_);
      section.value = c.node;
      section.period = *T;
    }
  }
  if (const toml::node* d = t.get("direction")) {
    if (auto v = string(*d, where + " direction")) {
      if (*v == "rising") {
        section.direction = Direction::Rising;
      } else if (*v == "falling") {
        section.direction = Direction::Falling;
      } else if (*v == "either") {
        section.direction = Direction::Either;
      } else {
        add(*d, where + " direction '" + *v + "'; expected rising, falling or either");
      }
    }
  }
  if (section.period > 0.0 && section.direction != Direction::Rising) {
    add(t, where + ": a stroboscopic section (period) is crossed rising; drop its direction");
  }
  if (section.value != lang::kNoNode) model_.sections.push_back(std::move(section));
}

}  // namespace saltus::model::loader
