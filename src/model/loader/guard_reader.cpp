// [[modes.M.guards]]: a guard's value, direction, jump set (`when`), targets and resets.
#include "model_reader.hpp"

namespace saltus::model::loader {

namespace {

// True when `node` is a condition: a comparison, or a product ("and"), min ("and") or max
// ("or") of conditions, or the constant 0 or 1 (a condition on parameters, folded).
bool is_condition_node(const lang::ExpressionGraph& g, lang::NodeId root) {
  std::vector<lang::NodeId> open{root};
  while (!open.empty()) {
    const lang::ExpressionNode& n = g.node(open.back());
    open.pop_back();
    if (lang::is_comparison(n.op)) continue;
    if (n.op == lang::OpCode::Const && (n.value == 0.0 || n.value == 1.0)) continue;
    if (n.op != lang::OpCode::Mul && n.op != lang::OpCode::Min && n.op != lang::OpCode::Max)
      return false;
    open.push_back(n.a);
    open.push_back(n.b);
  }
  return true;
}

}  // namespace

std::optional<lang::NodeId> ModelReader::condition(const toml::node& w, const std::string& where,
                                                   const lang::SymbolTable& s, const char* key) {
  const std::string named = where + " " + key;
  if (!w.is_string()) {
    add(w, named + " is " + type_name(w) + "; expected a condition (a string)");
  } else if (auto c = expression(w, named, s)) {
    if (is_condition_node(*graph_, *c)) return *c;
    add_at(w, 0,
           named + " '" + *w.value<std::string>() +
               "' is not a condition; expected a comparison such as 'd >= 0' (products "
               "of comparisons for 'and', max(...) for 'or')");
  }
  return std::nullopt;
}

// One entry of a guard's `targets` (or the guard's own `target` and `reset` keys: there `when`
// is the guard's jump set, not the target's condition, and reads_when is false).
ModelTarget ModelReader::read_target(const toml::table& t, int self, const std::string& where,
                                     const lang::SymbolTable& s, bool reads_when) {
  ModelTarget out;
  out.target = target_mode(t.get("target"), self, where);
  const toml::node* w = reads_when ? t.get("when") : nullptr;
  if (w != nullptr) {
    if (auto c = condition(*w, where, s)) {
      out.when = *c;
      out.when_text = *w->value<std::string>();
    }
  }
  if (const toml::node* r = t.get("reset")) {
    for (auto& a : assignments(*r, where + " reset", s, false, s.algebraic)) {
      out.reset.push_back({a.state, a.value});
    }
  }
  return out;
}

void ModelReader::read_guard(const toml::table& g, ModelMode& mode, int self,
                             const lang::SymbolTable& s) {
  check_keys(g, "a guard of mode '" + mode.name + "'",
             {"name", "value", "direction", "when", "target", "reset", "targets", "terminal",
              "terminate", "terminate_after"});
  ModelGuard guard;
  guard.name = "guard" + std::to_string(mode.guards.size());
  if (const toml::node* n = g.get("name")) {
    if (auto v = string(*n, "guard name")) guard.name = *v;
  }
  const std::string where = "guard '" + guard.name + "' of mode '" + mode.name + "'";
  for (const ModelGuard& other : mode.guards) {
    if (other.name == guard.name) add(g, where + ": name used twice in the mode");
  }
  const toml::node* value = g.get("value");
  if (value == nullptr) {
    add(g, where + " has no value; expected value = \"<scalar expression>\"");
  } else if (!value->is_string()) {
    add(*value, where + " value is " + type_name(*value) +
                    "; expected one scalar expression (a string): a guard is a scalar function");
  } else if (auto p = expression(*value, where, s)) {
    if (lang::is_comparison(graph_->node(*p).op)) {
      add_at(*value, 0,
             where + " value '" + *value->value<std::string>() +
                 "' is a condition, not a scalar function; " +
                 "expected an expression that crosses zero (e.g. '-x' for x <= 0)");
    } else {
      guard.value = *p;
    }
  }
  if (const toml::node* d = g.get("direction")) {
    if (auto v = string(*d, where + " direction")) {
      if (*v == "rising") {
        guard.direction = Direction::Rising;
      } else if (*v == "falling") {
        guard.direction = Direction::Falling;
      } else if (*v == "either") {
        guard.direction = Direction::Either;
      } else {
        add(*d, where + " direction '" + *v + "'; expected rising, falling or either");
      }
    }
  }
  if (const toml::node* w = g.get("when")) {
    if (auto c = condition(*w, where, s)) {
      guard.when = *c;
      guard.when_text = *w->value<std::string>();
    }
  }
  if (const toml::node* ts = g.get("targets")) {
    if (g.get("target") != nullptr || g.get("reset") != nullptr) {
      add(*ts, where + " has 'targets' and also 'target' or 'reset'; expected either one " +
                   "target (target, reset) or a list of conditional [[...targets]]");
    }
    read_targets(*ts, guard, self, where, s);
  } else {
    guard.targets.push_back(read_target(g, self, where, s, false));
  }
  if (const toml::node* term = g.get("terminal")) {
    if (term->is_boolean()) {
      guard.terminal = *term->value<bool>();
    } else {
      add(*term, where + " terminal is " + type_name(*term) + "; expected true or false");
    }
  }
  read_termination(g, guard, mode.name, where);
  mode.guards.push_back(std::move(guard));
}

// terminate = "CONDITION" (read at the state after the guard's reset: t, the parameters, the
// states, [let] names; not algebraic states, which belong to the mode before) and
// terminate_after = N (the guard's N-th event ends the run).
void ModelReader::read_termination(const toml::table& g, ModelGuard& guard, const std::string& mode,
                                   const std::string& where) {
  const toml::node* when = g.get("terminate");
  const toml::node* after = g.get("terminate_after");
  if (when == nullptr && after == nullptr) return;
  ModelTermination term;
  term.guard = guard.name;
  term.mode = mode;
  bool ok = true;
  if (when != nullptr) {
    lang::SymbolTable s = symbols({});
    s.allow_algebraic = false;
    if (auto c = condition(*when, where, s, "terminate")) {
      term.when = *c;
      term.when_text = *when->value<std::string>();
    } else {
      ok = false;
    }
  }
  if (after != nullptr) {
    const auto n = after->value<std::int64_t>();
    if (!after->is_integer() || !n || *n < 1 || *n > 1000000000) {
      add(*after, where + " terminate_after is " +
                      (after->is_integer() ? std::to_string(*n) : type_name(*after)) +
                      "; expected a whole number of events in [1, 1e9]");
      ok = false;
    } else {
      term.after = static_cast<long>(*n);
    }
  }
  if (!ok) return;
  guard.terminate = static_cast<int>(model_.terminations.size());
  model_.terminations.push_back(std::move(term));
}

// [[modes.M.guards.targets]]: tried in order at the event; only the last may omit `when`.
void ModelReader::read_targets(const toml::node& ts, ModelGuard& guard, int self,
                               const std::string& where, const lang::SymbolTable& s) {
  if (!ts.is_array() || ts.as_array()->empty()) {
    add(ts, where + " targets is " + type_name(ts) +
                "; expected a non-empty array of tables {target, when, reset}");
    return;
  }
  const toml::array& list = *ts.as_array();
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = where + " target " + std::to_string(i + 1);
    if (!list[i].is_table()) {
      add(list[i],
          entry + " is " + type_name(list[i]) + "; expected a table {target, when, reset}");
      continue;
    }
    const toml::table& t = *list[i].as_table();
    check_keys(t, entry, {"target", "when", "reset"});
    if (t.get("when") == nullptr && i + 1 < list.size()) {
      add(t, entry + " has no 'when' but is not the last: the targets after it could never be " +
                 "taken; expected a condition, or this entry last");
    }
    guard.targets.push_back(read_target(t, self, entry, s));
  }
}
}  // namespace saltus::model::loader
