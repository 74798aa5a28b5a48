// Explicit hybrid models: [states] and [modes] with their flows (x' = ...), residuals,
// algebraic states, constraints and Zeno hand-overs (guards: guard_reader.cpp).
#include <algorithm>

#include "model_reader.hpp"

namespace saltus::model::loader {

bool ModelReader::is_parameter_state(int i) const {
  return std::find(model_.parameter_states.begin(), model_.parameter_states.end(), i) !=
         model_.parameter_states.end();
}

bool ModelReader::is_discrete_state(int i) const {
  return std::find(model_.discrete_states.begin(), model_.discrete_states.end(), i) !=
         model_.discrete_states.end();
}

void ModelReader::read_states(const toml::table& doc) {
  const toml::table* t = table_at(doc, "states", "the file", true);
  if (t == nullptr) return;
  for (const auto& [k, v] : ordered(*t)) {
    if (!new_name(*v, k, "state")) continue;
    Quantity q;
    q.name = k;
    if (const std::string used = mentioned_in(*v, varying_parameters()); !used.empty()) {
      add(*v, "state '" + k + "' starts at an expression of '" + used + "', which is loaded as a " +
                  "state (saltus sensitivity --parameters, saltus orbit --continue): the start " +
                  "would not follow it; expected a number");
    } else if (auto r = quantity(k, *v, "state", "initial", true)) {
      q = *r;
    }
    model_.states.push_back(q);  // kept (with 0) after a problem, so later checks still work
    state_names_.push_back(k);
  }
  if (model_.states.empty()) add(*t, "[states] declares no state; expected at least one");
}

lang::SymbolTable ModelReader::symbols(const std::vector<std::string>& algebraic) const {
  lang::SymbolTable s;
  s.constants = constants_.constants;
  s.parameters = runtime_read_;
  s.parameter_values = runtime_values_;
  s.definitions = definitions_;
  s.definitions_graph = graph_.get();
  s.states = state_names_;
  s.algebraic = algebraic;
  s.velocity_of = velocity_of_;
  return s;
}

// Parses the string `n` (whole text) into the model's graph or reports its problems.
std::optional<lang::NodeId> ModelReader::expression(const toml::node& n, const std::string& what,
                                                    const lang::SymbolTable& s) {
  const auto text = n.value<std::string>();
  const lang::ParsedExpression c = lang::parse_expression(*text, s, *graph_);
  for (const auto& issue : c.issues) add_at(n, issue.offset, what + ": " + issue.message);
  if (!c.ok()) return std::nullopt;
  return c.node;
}

const toml::array* ModelReader::array_of_strings(const toml::node& n, const std::string& what) {
  if (!n.is_array()) {
    add(n, what + " is " + type_name(n) + "; expected an array of strings");
    return nullptr;
  }
  bool ok = true;
  for (const toml::node& e : *n.as_array()) {
    if (!e.is_string()) {
      add(e, "entry of " + what + " is " + type_name(e) + "; expected a string");
      ok = false;
    }
  }
  return ok ? n.as_array() : nullptr;
}

std::vector<ModelReader::Assigned> ModelReader::assignments(
    const toml::node& n, const std::string& what, const lang::SymbolTable& s, bool rate,
    const std::vector<std::string>& algebraic) {
  std::vector<Assigned> out;
  const toml::array* a = array_of_strings(n, what);
  if (a == nullptr) return out;
  for (const toml::node& e : *a) {
    const std::string text = *e.value<std::string>();
    const int eq = lang::find_equals(text);
    const std::string form = rate ? "\"x' = expression\"" : "\"x = expression\"";
    if (eq < 0) {
      add_at(e, 0,
             what + ": '" + text + "' is not an equation; expected " + form +
                 (eq == -2 ? " with a single '='" : ""));
      continue;
    }
    std::string lhs = text.substr(0, static_cast<size_t>(eq));
    size_t start = lhs.find_first_not_of(" \t");
    if (start == std::string::npos) start = 0;
    lhs.erase(0, start);
    lhs.erase(lhs.find_last_not_of(" \t") + 1);
    bool primed = !lhs.empty() && lhs.back() == '\'';
    if (primed) {
      lhs.pop_back();
      lhs.erase(lhs.find_last_not_of(" \t") + 1);
    }
    Assigned r;
    r.lhs_offset = static_cast<int>(start);
    const auto it = std::find(state_names_.begin(), state_names_.end(), lhs);
    const int index = static_cast<int>(it - state_names_.begin());
    if (primed != rate) {
      add_at(e, r.lhs_offset,
             what + ": left side '" + text.substr(0, static_cast<size_t>(eq)) +
                 "' has the wrong form; expected " + form);
    } else if (it == state_names_.end()) {
      const bool is_alg = std::find(algebraic.begin(), algebraic.end(), lhs) != algebraic.end();
      add_at(e, r.lhs_offset,
             what + ": '" + lhs + "' " +
                 (is_alg ? "is an algebraic state (solved from the constraints, never assigned)"
                         : "is not a state") +
                 "; expected one of the differential states " + join(state_names_));
    } else if (rate && is_discrete_state(index)) {
      add_at(e, r.lhs_offset,
             what + ": '" + lhs + "' is a discrete variable ([discrete]): its rate is 0 in " +
                 "every mode and only resets change it; expected no flow equation for it " +
                 "(assign it in a guard's reset)");
    } else {
      r.state = index;
    }
    lang::ParsedExpression c =
        lang::parse_expression(text.substr(static_cast<size_t>(eq) + 1), s, *graph_);
    for (const auto& issue : c.issues) {
      add_at(e, eq + 1 + issue.offset, what + ": " + issue.message);
    }
    if (!c.ok() || r.state < 0) continue;
    for (const Assigned& prev : out) {
      if (prev.state == r.state) {
        add_at(e, r.lhs_offset,
               what + ": '" + lhs + "' is assigned twice; expected one " + "equation per state");
        r.state = -1;
      }
    }
    if (r.state < 0) continue;
    r.value = c.node;
    out.push_back(std::move(r));
  }
  return out;
}

// "lhs = rhs" or a bare expression (= 0) entries: residuals and constraints.
std::vector<lang::NodeId> ModelReader::residuals(const toml::node& n, const std::string& what,
                                                 const lang::SymbolTable& s) {
  std::vector<lang::NodeId> out;
  const toml::array* a = array_of_strings(n, what);
  if (a == nullptr) return out;
  for (const toml::node& e : *a) {
    const std::string text = *e.value<std::string>();
    const int eq = lang::find_equals(text);
    if (eq == -2) {
      add_at(e, 0, what + ": '" + text + "' has several '='; expected \"lhs = rhs\"");
      continue;
    }
    const lang::ParsedExpression c = eq >= 0 ? lang::parse_residual(text, eq, s, *graph_)
                                             : lang::parse_expression(text, s, *graph_);
    for (const auto& issue : c.issues) add_at(e, issue.offset, what + ": " + issue.message);
    if (c.ok()) out.push_back(c.node);
  }
  return out;
}

void ModelReader::read_modes(const toml::table& doc) {
  const toml::table* t = table_at(doc, "modes", "the file", true);
  if (t == nullptr) return;
  const Keyed modes = ordered(*t);
  // Names first: guards may target modes declared after them.
  for (const auto& [k, v] : modes) {
    ModelMode m;
    m.name = k;
    if (!lang::is_identifier(k)) {
      add(*v, "mode name '" + k + "' is not a valid name; expected letters, digits or '_'");
    }
    model_.modes.push_back(m);
    mode_names_.push_back(k);
  }
  // Modes that share another's flow (flow = "@other") after those that write their own.
  auto shares = [](const toml::node& m) {
    const toml::node* f = m.is_table() ? m.as_table()->get("flow") : nullptr;
    return f != nullptr && f->is_string();
  };
  for (const auto& [k, v] : modes) {
    if (shares(*v)) sharing_modes_.insert(k);
  }
  for (const bool sharing : {false, true}) {
    for (size_t i = 0; i < modes.size(); ++i) {
      if (shares(*modes[i].second) != sharing) continue;
      if (!modes[i].second->is_table()) {
        add(*modes[i].second, "mode '" + modes[i].first + "' is " + type_name(*modes[i].second) +
                                  "; expected a table");
        continue;
      }
      read_mode(*modes[i].second->as_table(), model_.modes[i]);
    }
  }
  if (modes.empty()) add(*t, "[modes] declares no mode; expected at least one");
}

int ModelReader::target_mode(const toml::node* n, int self, const std::string& what) {
  if (n == nullptr) return self;
  const auto name = string(*n, what + " target");
  if (!name) return -1;
  const auto it = std::find(mode_names_.begin(), mode_names_.end(), *name);
  if (it == mode_names_.end()) {
    add(*n, what + " targets unknown mode '" + *name + "'; expected one of " + join(mode_names_));
    return -1;
  }
  return static_cast<int>(it - mode_names_.begin());
}

void ModelReader::read_mode(const toml::table& t, ModelMode& mode) {
  const std::string where = "mode '" + mode.name + "'";
  const int self = model_.mode_index(mode.name);
  check_keys(t, where,
             {"flow", "residuals", "algebraic", "constraints", "guards", "zeno", "flow_set",
              "jump_set", "jump", "jump_target", "priority"});
  // Algebraic states: ["z1", ...] or { z1 = { guess = ..., unit = ... }, ... }.
  std::vector<std::string> alg;
  if (const toml::node* a = t.get("algebraic")) {
    if (a->is_array()) {
      if (const toml::array* arr = array_of_strings(*a, where + " algebraic")) {
        for (const toml::node& e : *arr)
          mode.algebraic.push_back({*e.value<std::string>(), 0.0, ""});
      }
    } else if (a->is_table()) {
      for (const auto& [k, v] : ordered(*a->as_table())) {
        if (auto q = quantity(k, *v, "algebraic state", "guess", false)) {
          mode.algebraic.push_back(*q);
        }
      }
    } else {
      add(*a, where + " algebraic is " + type_name(*a) + "; expected an array of names");
    }
    for (const Quantity& q : mode.algebraic) {
      if (!lang::is_identifier(q.name) || lang::is_reserved_name(q.name) ||
          std::find(state_names_.begin(), state_names_.end(), q.name) != state_names_.end() ||
          constants_.constants.count(q.name) != 0 ||
          std::find(runtime_read_.begin(), runtime_read_.end(), q.name) != runtime_read_.end() ||
          definitions_.count(q.name) != 0) {
        add(*a, where + ": algebraic state name '" + q.name + "' is invalid or already used");
      }
      alg.push_back(q.name);
    }
  }
  const toml::node* flow = t.get("flow");
  if (flow != nullptr) flow_nodes_[self] = flow;
  const toml::node* res = t.get("residuals");
  const ModelMode* shared = flow != nullptr && flow->is_string() ? shared_flow(t, mode) : nullptr;
  if (shared != nullptr) {
    mode.kind = shared->kind;
    mode.flow = shared->flow;
    mode.algebraic = shared->algebraic;
    mode.constraints = shared->constraints;
    for (const Quantity& q : shared->algebraic) alg.push_back(q.name);
  }
  const lang::SymbolTable s = symbols(alg);
  const int nx = static_cast<int>(state_names_.size());
  if (flow != nullptr && flow->is_string()) {
    // shared (or reported by shared_flow)
  } else if (flow != nullptr && res != nullptr) {
    add(*res, where + " has both 'flow' and 'residuals'; expected one of them");
  } else if (flow != nullptr) {
    mode.kind = alg.empty() ? FlowKind::Ode : FlowKind::SemiExplicitDae;
    auto eqs = assignments(*flow, where + " flow", s, true, alg);
    mode.flow.assign(static_cast<size_t>(nx), lang::kNoNode);
    std::vector<bool> given(static_cast<size_t>(nx), false);
    for (auto& e : eqs) {
      mode.flow[static_cast<size_t>(e.state)] = std::move(e.value);
      given[static_cast<size_t>(e.state)] = true;
    }
    if (flow->is_array() && static_cast<size_t>(std::count(given.begin(), given.end(), true)) ==
                                flow->as_array()->size()) {
      for (int i = 0; i < nx; ++i) {
        if (!given[static_cast<size_t>(i)] && !is_parameter_state(i) && !is_discrete_state(i)) {
          add(*flow, where + " flow gives no equation for " + state_names_[i] + "'; expected \"" +
                         state_names_[i] + "' = ...\"");
        }
      }
    }
    for (const std::vector<int>* held : {&model_.parameter_states, &model_.discrete_states}) {
      for (int i : *held) {
        if (!given[static_cast<size_t>(i)]) {
          mode.flow[static_cast<size_t>(i)] = graph_->constant(0.0);
        }
      }
    }
  } else if (res != nullptr) {
    mode.kind = FlowKind::ImplicitDae;
    lang::SymbolTable sr = s;
    sr.allow_state_rate = true;
    mode.flow = residuals(*res, where + " residuals", sr);
    const size_t given = res->is_array() ? res->as_array()->size() : 0;
    const int own = nx - static_cast<int>(model_.parameter_states.size()) -
                    static_cast<int>(model_.discrete_states.size());
    check_discrete_rates(*res, where + " residuals", mode.flow);
    if (given == mode.flow.size() && given != static_cast<size_t>(own)) {
      add(*res, where + " has " + std::to_string(given) + " residuals for " + std::to_string(own) +
                    " differential states; expected " + std::to_string(own) +
                    " (index 1: one per state)");
    }
    for (int i : model_.discrete_states) mode.flow.push_back(graph_->state_rate(i));
    for (int i : model_.parameter_states) mode.flow.push_back(graph_->state_rate(i));
  } else {
    add(t, where + " has no 'flow' (x' = ...) or 'residuals'; expected one of them");
  }
  if (flow != nullptr && flow->is_string()) {
    // the shared mode's constraints
  } else if (const toml::node* c = t.get("constraints")) {
    mode.constraints = residuals(*c, where + " constraints", s);
    const size_t given = c->is_array() ? c->as_array()->size() : 0;
    if (given == mode.constraints.size() && given != alg.size()) {
      add(*c, where + " has " + std::to_string(given) + " constraints for " +
                  std::to_string(alg.size()) + " algebraic states; expected one per " +
                  "algebraic state");
    }
  } else if (!alg.empty()) {
    add(t, where + " declares algebraic states but no 'constraints'; expected one " +
               "equation 0 = g(t, x, z) per algebraic state");
  }
  if (const toml::node* g = t.get("guards")) {
    if (!g->is_array()) {
      add(*g, where + " guards is " + type_name(*g) + "; expected [[modes." + mode.name +
                  ".guards]] tables");
    } else {
      for (const toml::node& e : *g->as_array()) {
        if (!e.is_table()) {
          add(e, where + " guard is " + type_name(e) + "; expected a table");
          continue;
        }
        read_guard(*e.as_table(), mode, self, s);
      }
    }
  }
  read_hybrid_sets(t, mode, self, s);
  if (const toml::node* z = t.get("zeno")) {
    if (!z->is_table()) {
      add(*z, where + " zeno is " + type_name(*z) + "; expected a table");
    } else {
      const toml::table& zt = *z->as_table();
      check_keys(zt, where + " zeno", {"target", "reset"});
      ModelZenoHandover h;
      h.target = target_mode(zt.get("target"), -1, where + " zeno hand-over");
      if (zt.get("target") == nullptr) {
        add(zt, where + " zeno has no target; expected target = \"<mode>\"");
      }
      if (const toml::node* r = zt.get("reset")) {
        for (auto& a : assignments(*r, where + " zeno reset", s, false, alg)) {
          h.reset.push_back({a.state, a.value});
        }
      }
      mode.zeno = std::move(h);
    }
  }
}

}  // namespace saltus::model::loader
