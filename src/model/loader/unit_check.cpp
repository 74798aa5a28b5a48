// The unit check of a model file (unit_check.hpp): unit strings, the inference's leaves, and the
// checks shared by every section (an expression within, a dimension against another, "x = rhs"
// and "lhs = rhs" lists).
#include "unit_check.hpp"

#include <algorithm>

namespace saltus::model::loader {

UnitCheck::Declared UnitCheck::declared(const toml::node* unit, const std::string& what) {
  if (unit == nullptr || !unit->is_string()) return {};
  const std::string text = *unit->value<std::string>();
  if (text.empty()) return {};
  any_unit_ = true;
  const lang::UnitParse p = lang::parse_unit(text);
  if (!p.unit) {
    r_.add_at(*unit, p.offset, "unit '" + text + "' of " + what + ": " + lang::unit_problem(p));
    return {};
  }
  return {NodeDimension::known(p.unit->dimension), text};
}

namespace {
const toml::node* unit_of(const toml::node& entry) {
  return entry.is_table() ? entry.as_table()->get("unit") : nullptr;
}
}  // namespace

void UnitCheck::read_declarations() {
  if (const toml::table* m = doc_["model"].as_table()) {
    if (const toml::node* u = m->get("time_unit")) {
      any_unit_ = true;
      if (Declared d = declared(u, "the time (time_unit)"); d.dim.is_known()) time_ = d;
    }
  }
  if (const toml::table* t = doc_["parameters"].as_table()) {
    for (const auto& [k, v] : r_.ordered(*t)) {
      parameter_names_.push_back(k);
      parameters_.push_back(declared(unit_of(*v), "parameter '" + k + "'"));
    }
  }
  for (const char* section : {"states", "discrete", "coordinates"}) {
    const toml::table* t = doc_[section].as_table();
    if (t == nullptr) continue;
    for (const auto& [k, v] : r_.ordered(*t)) named_[k] = declared(unit_of(*v), "'" + k + "'");
  }
  if (const toml::table* modes = doc_["modes"].as_table()) {
    for (const auto& [mode, m] : r_.ordered(*modes)) {
      const toml::table* a =
          m->is_table() ? m->as_table()->get_as<toml::table>("algebraic") : nullptr;
      const toml::array* names =
          m->is_table() ? m->as_table()->get_as<toml::array>("algebraic") : nullptr;
      for (const auto& [k, v] : a != nullptr ? r_.ordered(*a) : Keyed{}) {
        algebraic_names_[mode].push_back(k);
        algebraic_[mode].push_back(declared(unit_of(*v), "algebraic state '" + k + "'"));
      }
      for (size_t i = 0; names != nullptr && i < names->size(); ++i) {
        algebraic_names_[mode].push_back((*names)[i].value_or(std::string()));
        algebraic_[mode].push_back({});
      }
    }
  }
  if (const toml::table* t = doc_["outputs"].as_table()) {
    for (const auto& [k, v] : r_.ordered(*t)) {
      output_units_[k] = declared(unit_of(*v), "output '" + k + "'");
    }
  }
}

std::unique_ptr<lang::DimensionInference> UnitCheck::inference(
    const std::vector<Declared>* algebraic) {
  const auto leaf = [this, algebraic](const lang::Variable& v) {
    const auto i = static_cast<size_t>(v.index);
    switch (v.kind) {
      case lang::OpCode::Time:
        return any_unit_ ? time_.dim : NodeDimension::unknown();
      case lang::OpCode::Parameter:
        return i < parameters_.size() ? parameters_[i].dim : NodeDimension::unknown();
      case lang::OpCode::Algebraic:
        return algebraic != nullptr && i < algebraic->size() ? (*algebraic)[i].dim
                                                             : NodeDimension::unknown();
      default: {
        // A state; a mechanical model's velocity q' (index dof + k) and a rate x' per time.
        const bool velocity = !r_.velocity_of_.empty() && i >= static_cast<size_t>(r_.dof_);
        const size_t k = velocity ? i - static_cast<size_t>(r_.dof_) : i;
        if (k >= r_.state_names_.size()) return NodeDimension::unknown();
        const auto it = named_.find(r_.state_names_[k]);
        NodeDimension d = it != named_.end() ? it->second.dim : NodeDimension::unknown();
        if (d.is_known() && (velocity || v.kind == lang::OpCode::StateRate)) {
          d.dimension = d.dimension / time_.dim.dimension;
        }
        return d;
      }
    }
  };
  const auto value = [this](int i) -> std::optional<double> {
    for (const Quantity& q : r_.model_.parameters) {
      if (q.name == parameter_names_[static_cast<size_t>(i)]) return q.value;
    }
    return std::nullopt;
  };
  const auto name = [this](const lang::Variable& v) -> std::string {
    const auto i = static_cast<size_t>(v.index);
    switch (v.kind) {
      case lang::OpCode::Time:
        return "t";
      case lang::OpCode::Parameter:
        return parameter_names_[i];
      case lang::OpCode::Algebraic:
        return leaf_algebraic_ != nullptr && i < leaf_algebraic_->size() ? (*leaf_algebraic_)[i]
                                                                         : "z";
      case lang::OpCode::StateRate:
        return r_.state_names_[i] + "'";
      default:
        return r_.state_names_[i];
    }
  };
  return std::make_unique<lang::DimensionInference>(graph_, leaf, value, name);
}

std::optional<lang::NodeId> UnitCheck::parse(std::string_view text, const lang::SymbolTable& s) {
  const lang::ParsedExpression p = lang::parse_expression(text, s, graph_);
  if (!p.ok()) return std::nullopt;
  return p.node;
}

NodeDimension UnitCheck::dimension(lang::NodeId node, const toml::node& n,
                                   const std::string& what) {
  std::vector<lang::DimensionConflict> conflicts;
  const NodeDimension d = infer_->infer(node, &conflicts);
  for (const lang::DimensionConflict& c : conflicts) {
    if (!reported_.insert(c.node).second) continue;
    r_.add_at(n, 0, what + ": '" + n.value_or(std::string()) + "': " + c.message);
    for (const lang::DimensionConflict& other : conflicts) reported_.insert(other.node);
    return NodeDimension::unknown();
  }
  return d;
}

NodeDimension UnitCheck::expression(const toml::node& n, const std::string& what,
                                    const lang::SymbolTable& s) {
  if (!n.is_string()) return NodeDimension::unknown();
  const auto node = parse(*n.value<std::string>(), s);
  return node ? dimension(*node, n, what) : NodeDimension::unknown();
}

void UnitCheck::compare(const NodeDimension& found, const NodeDimension& expected,
                        const toml::node& n, const std::string& what, const std::string& found_as,
                        const std::string& expected_as, const std::string& note) {
  if (!found.is_known() || !expected.is_known() || found.dimension == expected.dimension) return;
  r_.add_at(n, 0,
            what + ": '" + n.value_or(std::string()) + "': " + found_as + " has dimension " +
                found.str() + ", " + expected_as + " " + expected.str() +
                (note.empty() ? "" : " (" + note + ")"));
}

std::string UnitCheck::state_note(int i) const {
  const std::string& name = r_.state_names_[static_cast<size_t>(i)];
  const auto it = named_.find(name);
  return it == named_.end() ? name : name + " in '" + it->second.unit + "'";
}

void UnitCheck::assignments(const toml::node* list, const std::string& what,
                            const lang::SymbolTable& s, bool rate) {
  if (list == nullptr || !list->is_array()) return;
  for (const toml::node& e : *list->as_array()) {
    const auto text = e.value<std::string>();
    const int eq = text ? lang::find_equals(*text) : -1;
    if (eq < 0) continue;
    std::string lhs = text->substr(0, static_cast<size_t>(eq));
    std::erase_if(lhs, [](char c) { return c == ' ' || c == '\t' || c == '\''; });
    const auto it = std::find(r_.state_names_.begin(), r_.state_names_.end(), lhs);
    const auto rhs = parse(std::string_view(*text).substr(static_cast<size_t>(eq) + 1), s);
    if (!rhs) continue;
    const NodeDimension found = dimension(*rhs, e, what);
    if (it == r_.state_names_.end()) continue;
    const int i = static_cast<int>(it - r_.state_names_.begin());
    const lang::NodeId leaf = rate ? graph_.state_rate(i) : graph_.state(i);
    const NodeDimension expected = infer_->infer(leaf);
    compare(found, expected, e, what, "the right side",
            "the left side " + lhs + (rate ? "' has" : " has"),
            state_note(i) + (rate ? ", t in '" + time_.unit + "'" : ""));
  }
}

void UnitCheck::equations(const toml::node* list, const std::string& what,
                          const lang::SymbolTable& s) {
  const auto check = [&](const toml::node& e) {
    const auto text = e.value<std::string>();
    if (!text) return;
    const int eq = lang::find_equals(*text);
    if (eq < 0) {
      expression(e, what, s);
      return;
    }
    const auto lhs = parse(std::string_view(*text).substr(0, static_cast<size_t>(eq)), s);
    const auto rhs = parse(std::string_view(*text).substr(static_cast<size_t>(eq) + 1), s);
    if (!lhs || !rhs) return;
    const NodeDimension l = dimension(*lhs, e, what), r = dimension(*rhs, e, what);
    compare(r, l, e, what, "the right side", "the left side");
  };
  if (list != nullptr && list->is_array()) {
    for (const toml::node& e : *list->as_array()) check(e);
  } else if (list != nullptr && list->is_table()) {
    for (const auto& [k, e] : r_.ordered(*list->as_table())) check(*e);
  }
}

void UnitCheck::run() {
  read_declarations();
  // Without a unit nothing has a dimension; a Hamiltonian model's expressions are not checked.
  if (!any_unit_ || doc_.contains("hamiltonian")) return;
  symbols_.parameters = parameter_names_;
  symbols_.states = r_.state_names_;
  symbols_.velocity_of = r_.velocity_of_;
  symbols_.definitions_graph = &graph_;
  infer_ = inference(nullptr);
  check_parameters();
  infer_ = inference(nullptr);  // parameters computed without a unit now have one
  check_initial_values();
  check_lets();
  check_modes();
  check_mechanics();
  check_outputs_and_sections();
}

}  // namespace saltus::model::loader
