// The unit check's walk over a model file's sections (unit_check.hpp): parameters, initial
// values, [let], modes and their guards, [mechanics] and [[contacts]], [outputs], [[sections]].
#include "saltus/model/contact_quantities.hpp"
#include "unit_check.hpp"

namespace saltus::model::loader {

void UnitCheck::check_parameters() {
  const toml::table* t = doc_["parameters"].as_table();
  if (t == nullptr) return;
  size_t i = 0;
  for (const auto& [k, v] : r_.ordered(*t)) {
    Declared& p = parameters_[i++];
    const toml::node* value = v->is_table() ? v->as_table()->get("value") : v;
    if (value == nullptr || !value->is_string()) continue;
    const std::string what = "parameter '" + k + "'";
    const NodeDimension d = expression(*value, what, symbols_);
    if (p.dim.is_known()) {
      compare(d, p.dim, *value, what, "its value", "its unit '" + p.unit + "'");
    } else if (d.is_known()) {
      p.dim = d;  // a parameter computed without a unit has its expression's dimension
    }
  }
}

void UnitCheck::check_initial_values() {
  for (const char* section : {"states", "discrete", "coordinates"}) {
    const toml::table* t = doc_[section].as_table();
    if (t == nullptr) continue;
    for (const auto& [k, v] : r_.ordered(*t)) {
      const Declared& q = named_[k];
      const toml::node* initial = v->is_table() ? v->as_table()->get("initial") : v;
      const std::string what = "initial value of '" + k + "'";
      if (initial != nullptr && initial->is_string()) {
        compare(expression(*initial, what, symbols_), q.dim, *initial, what, "it",
                "the unit '" + q.unit + "'");
      }
      const toml::node* velocity = v->is_table() ? v->as_table()->get("velocity") : nullptr;
      if (velocity != nullptr && velocity->is_string() && q.dim.is_known()) {
        const std::string of = "initial velocity of '" + k + "'";
        compare(expression(*velocity, of, symbols_),
                NodeDimension::known(q.dim.dimension / time_.dim.dimension), *velocity, of, "it",
                "'" + q.unit + "' per '" + time_.unit + "'");
      }
    }
  }
}

void UnitCheck::check_lets() {
  const toml::table* t = doc_["let"].as_table();
  if (t == nullptr) return;
  for (const auto& [k, v] : r_.ordered(*t)) {
    if (!v->is_string()) continue;
    if (const auto node = parse(*v->value<std::string>(), symbols_)) {
      dimension(*node, *v, "[let] " + k);
      symbols_.definitions[k] = *node;
    }
  }
}

void UnitCheck::check_guard(const toml::table& g, const std::string& where,
                            const lang::SymbolTable& s) {
  if (const toml::node* v = g.get("value")) expression(*v, where + " value", s);
  if (const toml::node* w = g.get("when")) expression(*w, where + " when", s);
  if (const toml::node* w = g.get("terminate")) expression(*w, where + " terminate", s);
  assignments(g.get("reset"), where + " reset", s, false);
  if (const toml::array* ts = g["targets"].as_array()) {
    for (size_t i = 0; i < ts->size(); ++i) {
      const toml::table* t = (*ts)[i].as_table();
      if (t == nullptr) continue;
      const std::string entry = where + " target " + std::to_string(i + 1);
      if (const toml::node* w = t->get("when")) expression(*w, entry + " when", s);
      assignments(t->get("reset"), entry + " reset", s, false);
    }
  }
}

void UnitCheck::check_modes() {
  const toml::table* modes = doc_["modes"].as_table();
  if (modes == nullptr) return;
  for (const auto& [k, v] : r_.ordered(*modes)) {
    const toml::table* m = v->as_table();
    if (m == nullptr) continue;
    const std::string where = "mode '" + k + "'";
    // A mode with flow = "@other" has the other mode's algebraic states.
    std::string owner = k;
    if (const auto shared = m->get_as<std::string>("flow"); shared && !shared->get().empty()) {
      owner = shared->get().substr(1);
    }
    lang::SymbolTable s = symbols_;
    s.algebraic = algebraic_names_[owner];
    leaf_algebraic_ = &algebraic_names_[owner];
    infer_ = inference(&algebraic_[owner]);
    if (owner == k) {
      assignments(m->get("flow"), where + " flow", s, true);
      lang::SymbolTable sr = s;
      sr.allow_state_rate = true;
      equations(m->get("residuals"), where + " residuals", sr);
      equations(m->get("constraints"), where + " constraints", s);
    }
    for (const char* set : {"flow_set", "jump_set"}) {
      if (const toml::node* c = m->get(set)) expression(*c, where + " " + set, s);
    }
    assignments(m->get("jump"), where + " jump", s, false);  // the jump map: a reset
    if (const toml::array* guards = m->get_as<toml::array>("guards")) {
      for (size_t i = 0; i < guards->size(); ++i) {
        const toml::table* g = (*guards)[i].as_table();
        if (g == nullptr) continue;
        const std::string name = g->get_as<std::string>("name") != nullptr
                                     ? g->get_as<std::string>("name")->get()
                                     : "guard" + std::to_string(i);
        check_guard(*g, "guard '" + name + "' of " + where, s);
      }
    }
    if (const toml::table* z = m->get_as<toml::table>("zeno")) {
      assignments(z->get("reset"), where + " zeno reset", s, false);
    }
  }
  leaf_algebraic_ = nullptr;
  infer_ = inference(nullptr);
}

void UnitCheck::check_mechanics() {
  if (const toml::table* m = doc_["mechanics"].as_table()) {
    const toml::node* kinetic = m->get("kinetic_energy");
    const toml::node* potential = m->get("potential_energy");
    NodeDimension energy = kinetic != nullptr
                               ? expression(*kinetic, "[mechanics] kinetic_energy", symbols_)
                               : NodeDimension::unknown();
    if (potential != nullptr) {
      const NodeDimension v = expression(*potential, "[mechanics] potential_energy", symbols_);
      compare(v, energy, *potential, "[mechanics] potential_energy", "the potential energy",
              "the kinetic energy");
      if (!energy.is_known()) energy = v;
    }
    if (const toml::table* forces = m->get_as<toml::table>("forces")) {
      for (const auto& [q, f] : r_.ordered(*forces)) {
        const std::string what = "[mechanics] force on " + q;
        const NodeDimension d = expression(*f, what, symbols_);
        const auto it = named_.find(q);
        if (it == named_.end() || !it->second.dim.is_known() || !energy.is_known()) continue;
        compare(d, NodeDimension::known(energy.dimension / it->second.dim.dimension), *f, what,
                "the force", "the energy per " + q + " ('" + it->second.unit + "')");
      }
    }
    equations(m->get("constraints"), "[mechanics] constraint", symbols_);
    energy_ = energy;
  }
  if (const toml::array* contacts = doc_["contacts"].as_array()) {
    for (size_t i = 0; i < contacts->size(); ++i) {
      const toml::table* c = (*contacts)[i].as_table();
      if (c == nullptr) continue;
      const std::string where = "contact " + std::to_string(i + 1);
      ContactDimensions dims;
      dims.name = "contact" + std::to_string(i);
      if (const auto name = c->get_as<std::string>("name")) dims.name = name->get();
      if (const toml::node* n = c->get("gap")) dims.gap = expression(*n, where + " gap", symbols_);
      if (const toml::node* n = c->get("tangent")) {
        dims.tangent = expression(*n, where + " tangent", symbols_);
        dims.has_tangent = true;
      }
      // Friction in space on a body point: slip_speed reads its derived slip (the reader refuses
      // the other tangential quantities); its dimension is not inferred here.
      if (c->get("point") != nullptr && c->get("mu") != nullptr) dims.has_tangent = true;
      contacts_.push_back(dims);
      for (const char* key : {"e", "mu", "mu_s", "e_t"}) {
        const toml::node* n = c->get(key);
        if (n == nullptr || !n->is_string()) continue;
        compare(expression(*n, where + " " + key, symbols_), NodeDimension::known({}), *n,
                where + " " + key, "it", "expected");
      }
    }
  }
}

namespace {

// A quotient of dimensions where both are known; unknown otherwise.
NodeDimension dimension_quotient(const NodeDimension& a, const NodeDimension& b) {
  return a.is_known() && b.is_known() ? NodeDimension::known(a.dimension / b.dimension)
                                      : NodeDimension::unknown();
}

}  // namespace

void UnitCheck::check_outputs_and_sections() {
  if (const toml::table* t = doc_["outputs"].as_table()) {
    // Contact quantities (model/contact_quantities.hpp) as leaves of their contact's dimensions:
    // leaf 6 c + q is quantity q of contact c (file order); named so for the messages.
    lang::SymbolTable s = symbols_;
    std::vector<Declared> dims;
    std::vector<std::string> names;
    int leaf = 0;
    for (const ContactDimensions& c : contacts_) {
      for (const ContactQuantityName& f : kContactQuantities) {
        const NodeDimension along = f.tangential ? c.tangent : c.gap;
        NodeDimension d = along;
        switch (f.quantity) {
          case ContactQuantity::NormalForce:
          case ContactQuantity::TangentForce:
            d = dimension_quotient(energy_, along);
            break;
          case ContactQuantity::Gap:
            break;
          case ContactQuantity::GapRate:
          case ContactQuantity::TangentRate:
          case ContactQuantity::SlipSpeed:
            d = dimension_quotient(along, time_.dim);
            break;
        }
        dims.push_back({d, ""});
        names.push_back(std::string(f.name) + "(" + c.name + ")");
        lang::NameFunction& fn = s.name_functions[f.name];
        if (!f.tangential || c.has_tangent) fn.values[c.name] = graph_.algebraic(leaf);
        ++leaf;
      }
    }
    leaf_algebraic_ = &names;
    infer_ = inference(&dims);
    for (const auto& [k, v] : r_.ordered(*t)) {
      const toml::node* value = v->is_table() ? v->as_table()->get("value") : v;
      if (value == nullptr) continue;
      const std::string what = "output '" + k + "'";
      const NodeDimension d = expression(*value, what, s);
      const Declared unit = output_units_[k];
      compare(d, unit.dim, *value, what, "its value", "its unit '" + unit.unit + "'");
    }
    leaf_algebraic_ = nullptr;
    infer_ = inference(nullptr);
  }
  if (const toml::array* sections = doc_["sections"].as_array()) {
    for (size_t i = 0; i < sections->size(); ++i) {
      const toml::table* t = (*sections)[i].as_table();
      if (t == nullptr || t->get("value") == nullptr) continue;
      expression(*t->get("value"), "section " + std::to_string(i + 1) + " value", symbols_);
    }
  }
}

}  // namespace saltus::model::loader
