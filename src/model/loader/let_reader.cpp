// [let]: named subexpressions, e.g. c = "cos(theta)", in file order. Each is an expression of t,
// the parameters, the states (a mechanical model's q and q', a Hamiltonian model's q and p) and
// the names defined before it; every later expression may use the name, which stands for that
// node of the model's graph: no text is substituted, derivatives go through it, and a tape
// computes it once however often it is used.
#include "model_reader.hpp"

namespace saltus::model::loader {

void ModelReader::read_lets(const toml::table& doc) {
  const toml::table* t = table_at(doc, "let", "the file", false);
  if (t == nullptr) return;
  // One table grown in place (not symbols() per name: n names would load in O(n^2)).
  lang::SymbolTable s = symbols({});
  s.allow_algebraic = false;
  for (const auto& [k, v] : ordered(*t)) {
    if (!new_name(*v, k, "definition")) continue;
    if (!v->is_string()) {
      add(*v, "[let] " + k + " is " + type_name(*v) +
                  "; expected an expression string (numbers go in [parameters])");
      continue;
    }
    if (const auto node = expression(*v, "[let] " + k, s)) {
      definitions_[k] = *node;
      s.definitions[k] = *node;
    }
  }
}

}  // namespace saltus::model::loader
