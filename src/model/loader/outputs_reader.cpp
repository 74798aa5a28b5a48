// [outputs]: named outputs, y = expression of t, the parameters, the states (discrete variables
// and a mechanical model's q and q' included) and the [let] names, written as columns of
// trajectory.csv after the states (run/output_columns.hpp). Not algebraic states: they belong to
// one mode, and a column must mean the same in every row.
#include "model_reader.hpp"

namespace saltus::model::loader {

void ModelReader::read_outputs(const toml::table& doc) {
  const toml::table* t = table_at(doc, "outputs", "the file", false);
  if (t == nullptr) return;
  lang::SymbolTable s = symbols({});
  s.allow_algebraic = false;
  for (const auto& [k, v] : ordered(*t)) {
    if (!new_name(*v, k, "output")) continue;
    const std::string where = "output '" + k + "'";
    bool clash = k == "j" || k == "mode";  // trajectory.csv's own columns
    for (const ModelMode& m : model_.modes) {
      for (const Quantity& q : m.algebraic) clash = clash || q.name == k;
    }
    if (clash) {
      add(*v, where + ": the name is already a column of trajectory.csv (j, mode or an " +
                  "algebraic state); expected another name");
      continue;
    }
    ModelOutput out;
    out.name = k;
    const toml::node* text = v;
    if (const toml::table* e = v->as_table()) {
      check_keys(*e, where, {"value", "unit", "description"});
      if (const toml::node* u = e->get("unit")) {
        if (auto unit = string(*u, where + " unit")) out.unit = *unit;
      }
      text = e->get("value");
      if (text == nullptr) {
        add(*v, where + " has no value; expected value = \"<scalar expression>\"");
        continue;
      }
    }
    if (!text->is_string()) {
      add(*text, where + " is " + type_name(*text) +
                     "; expected one scalar expression (a string) of t, the parameters, the " +
                     "states and the [let] names");
      continue;
    }
    if (auto node = expression(*text, where, s)) {
      out.value = *node;
      model_.outputs.push_back(std::move(out));
    }
  }
}

}  // namespace saltus::model::loader
