// Mechanical models: [coordinates], [mechanics] (M and h from derive_lagrangian) and
// [[contacts]] with their impact or compliant laws.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "model_reader.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/lagrangian_derivation.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/runtime_contact_laws.hpp"

namespace saltus::model::loader {

namespace {

// Names in natural order: runs of digits compare as numbers ("contact2" before "contact10").
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      const size_t i0 = i, j0 = j;
      while (i < a.size() && digit(a[i])) ++i;
      while (j < b.size() && digit(b[j])) ++j;
      std::string na = a.substr(i0, i - i0), nb = b.substr(j0, j - j0);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

// ------------------------------------------------------------------ mechanical models
// [coordinates]: q = { initial = ..., velocity = ..., unit = "..." } or q = <initial>. The
// states are q (in order), then q' (the velocities). A Hamiltonian model (`canonical`) gives
// `momentum` instead of `velocity`, and its second half of the states is p_q.
void ModelReader::read_coordinates(const toml::table& doc, bool canonical) {
  const char* rate_key = canonical ? "momentum" : "velocity";
  const toml::table* t = table_at(doc, "coordinates", "a mechanical model", true);
  if (t == nullptr) return;
  std::vector<Quantity> q, v;
  for (const auto& [k, n] : ordered(*t)) {
    if (!new_name(*n, k, "coordinate")) continue;
    Quantity pos{k, 0.0, ""}, vel{canonical ? "p_" + k : k + "'", 0.0, ""};
    if (n->is_table()) {
      const toml::table& c = *n->as_table();
      check_keys(c, "coordinate '" + k + "'", {"initial", rate_key, "unit", "description"});
      if (const toml::node* u = c.get("unit")) {
        if (auto s = string(*u, "unit")) pos.unit = *s;
      }
      if (const toml::node* i = c.get("initial")) {
        if (auto x = number(*i, "coordinate '" + k + "' initial")) pos.value = *x;
      } else {
        add(*n, "coordinate '" + k + "' has no initial value; expected initial = <number>");
      }
      if (const toml::node* i = c.get(rate_key)) {
        if (auto x = number(*i, "coordinate '" + k + "' " + rate_key)) vel.value = *x;
      }
    } else if (auto x = number(*n, "coordinate '" + k + "'")) {
      pos.value = *x;
    }
    if (!canonical) vel.unit = pos.unit.empty() ? "" : pos.unit + "/" + model_.time_unit;
    q.push_back(pos);
    v.push_back(vel);
  }
  if (q.empty()) add(*t, "[coordinates] declares no coordinate; expected at least one");
  if (q.size() > static_cast<size_t>(mech::kMaxDof)) {
    add(*t, "[coordinates] declares " + std::to_string(q.size()) + " coordinates; at most " +
                std::to_string(mech::kMaxDof) + " are supported");
  }
  const int n = static_cast<int>(q.size());
  dof_ = n;
  canonical_ = canonical;
  for (const Quantity& x : q) state_names_.push_back(x.name);
  for (const Quantity& x : v) state_names_.push_back(x.name);
  model_.states = q;
  model_.states.insert(model_.states.end(), v.begin(), v.end());
  if (canonical) return;
  velocity_of_.assign(static_cast<size_t>(2 * n), -1);
  for (int i = 0; i < n; ++i) velocity_of_[static_cast<size_t>(i)] = n + i;
  model_.mechanics.emplace();
  model_.mechanics->dof = n;
}

// What `node` reads that a function of the coordinates (and of t when `allow_time`) must
// not: "the velocity q'" or "t"; "" when nothing.
std::string ModelReader::forbidden_input(lang::NodeId node, bool allow_time) const {
  const int n = dof_;
  for (const lang::Variable& v : graph_->inputs(node)) {
    if (v.kind == lang::OpCode::State && v.index >= n) {
      return (canonical_ ? "the momentum " : "the velocity ") +
             state_names_[static_cast<size_t>(v.index)];
    }
    if (v.kind == lang::OpCode::Time && !allow_time) return "t";
  }
  return "";
}

// A string expression of (t, q, q') at key `key` of `t`; kNoNode when absent or wrong.
lang::NodeId ModelReader::mechanics_expression(const toml::table& t, const char* key,
                                               const std::string& where) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return lang::kNoNode;
  if (!n->is_string()) {
    add(*n, where + " " + key + " is " + type_name(*n) + "; expected an expression (a string)");
    return lang::kNoNode;
  }
  return expression(*n, where + " " + key, symbols({})).value_or(lang::kNoNode);
}

// [mechanics]: kinetic_energy T(q, q'), potential_energy V(t, q), forces { q = Q(t, q, q') }.
// Derives M = d2T/dq'2 and h = dL/dq - (d/dq dL/dq') q' - d/dt dL/dq' + Q with L = T - V.
void ModelReader::read_mechanics(const toml::table& doc) {
  const toml::table* t = table_at(doc, "mechanics", "a mechanical model", true);
  if (t == nullptr || !model_.mechanics) return;
  ModelMechanics& m = *model_.mechanics;
  const int n = m.dof;
  check_keys(*t, "[mechanics]",
             {"kinetic_energy", "potential_energy", "forces", "constraints", "painleve"});
  if (const toml::node* v = t->get("painleve")) {
    if (auto p = painleve_policy(*v, "[mechanics] painleve")) m.painleve_stop = *p == 1;
  }
  m.kinetic_energy = mechanics_expression(*t, "kinetic_energy", "[mechanics]");
  if (t->get("kinetic_energy") == nullptr) {
    add(*t, "[mechanics] has no kinetic_energy; expected kinetic_energy = \"T(q, q')\", e.g. " +
                std::string("\"0.5*m*x'^2\""));
  }
  m.potential_energy = t->get("potential_energy") != nullptr
                           ? mechanics_expression(*t, "potential_energy", "[mechanics]")
                           : graph_->constant(0.0);
  std::vector<lang::NodeId> Q(static_cast<size_t>(n), graph_->constant(0.0));
  if (const toml::node* f = t->get("forces")) {
    if (!f->is_table()) {
      add(*f, "[mechanics] forces is " + type_name(*f) +
                  "; expected a table { coordinate = \"generalised force\" }");
    } else {
      for (const auto& [k, e] : ordered(*f->as_table())) {
        const auto it = std::find(state_names_.begin(), state_names_.begin() + n, k);
        if (it == state_names_.begin() + n) {
          add(*e,
              "[mechanics] forces: '" + k + "' is not a coordinate; expected one of " +
                  join(std::vector<std::string>(state_names_.begin(), state_names_.begin() + n)));
          continue;
        }
        if (!e->is_string()) {
          add(*e, "[mechanics] forces." + k + " is " + type_name(*e) +
                      "; expected an expression (a string)");
          continue;
        }
        if (auto node = expression(*e, "[mechanics] forces." + k, symbols({}))) {
          Q[static_cast<size_t>(it - state_names_.begin())] = *node;
        }
      }
    }
  }
  if (m.kinetic_energy == lang::kNoNode || m.potential_energy == lang::kNoNode) return;
  const toml::node& T_node = *t->get("kinetic_energy");
  if (const std::string v = forbidden_input(m.potential_energy, true); !v.empty()) {
    add(*t->get("potential_energy"), "[mechanics] potential_energy depends on " + v +
                                         "; expected a function of t and the coordinates");
    return;
  }
  lang::ExpressionGraph& g = *graph_;
  m.applied_forces = Q;
  lang::LagrangianEquations eq =
      lang::derive_lagrangian(g, m.kinetic_energy, m.potential_energy, Q);
  m.mass = std::move(eq.mass);
  m.forces = std::move(eq.forces);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const lang::NodeId Mij = m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)];
      if (const std::string culprit = forbidden_input(Mij, false); !culprit.empty()) {
        add_at(T_node, 0,
               "[mechanics] kinetic_energy is not quadratic in the velocities: d2T/d" +
                   state_names_[static_cast<size_t>(n + i)] + " d" +
                   state_names_[static_cast<size_t>(n + j)] + " depends on " + culprit +
                   "; expected T = 1/2 q'^T M(q) q' (+ terms linear in q')");
        return;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    bool moves = false;
    for (int j = 0; j < n; ++j) {
      moves = moves || !g.is_zero(m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)]);
    }
    if (!moves) {
      add_at(T_node, 0,
             "[mechanics] kinetic_energy does not depend on the velocity " +
                 state_names_[static_cast<size_t>(n + i)] +
                 ": the mass matrix is singular; expected every coordinate to carry inertia");
    }
  }
  if (const toml::node* c = t->get("constraints")) read_velocity_constraints(*c);
}

// [mechanics] constraints = { name = "eta(q) . q'" }: constraints linear and homogeneous in the
// velocities (nonholonomic, or holonomic ones written at velocity level). Each row is
// d(constraint)/dq'; it must read q only, and the constraint must vanish at q' = 0 (checked at
// the initial configuration and at a second one, since the structure alone cannot show it).
void ModelReader::read_velocity_constraints(const toml::node& c) {
  ModelMechanics& m = *model_.mechanics;
  const int n = m.dof;
  if (!c.is_table()) {
    add(c, "[mechanics] constraints is " + type_name(c) +
               "; expected a table { name = \"constraint linear in the velocities\" }");
    return;
  }
  lang::ExpressionGraph& g = *graph_;
  for (const auto& [name, e] : ordered(*c.as_table())) {
    const std::string where = "[mechanics] constraint '" + name + "'";
    if (!e->is_string()) {
      add(*e, where + " is " + type_name(*e) + "; expected an expression (a string)");
      continue;
    }
    const auto node = expression(*e, where, symbols({}));
    if (!node) continue;
    std::vector<lang::NodeId> row;
    bool ok = true, moves = false;
    for (int i = 0; i < n && ok; ++i) {
      const lang::NodeId r = g.derivative(*node, {lang::OpCode::State, n + i});
      if (const std::string culprit = forbidden_input(r, false); !culprit.empty()) {
        add_at(*e, 0,
               where + " is not linear in the velocities: its coefficient of " +
                   state_names_[static_cast<size_t>(n + i)] + " depends on " + culprit +
                   "; expected eta(q) . q' = 0");
        ok = false;
      }
      moves = moves || !g.is_zero(r);
      row.push_back(r);
    }
    if (!ok) continue;
    if (!moves) {
      add_at(*e, 0, where + " does not depend on the velocities; expected eta(q) . q' = 0");
      continue;
    }
    // Homogeneous: the constraint at q' = 0 (states n.. set to 0) must vanish.
    const lang::Tape tape = lang::compile_tape(g, {{*node, 0}});
    Vector x = model_.initial_state(), z(0);
    x.tail(n).setZero();
    for (const double shift : {0.0, 0.3}) {
      x.head(n).array() += shift;
      const double rest = evaluate(tape, model_.t_start, x, x, z);
      if (ok && std::abs(rest) > 1e-12) {
        add_at(*e, 0,
               where + " is " + std::to_string(rest) + " at zero velocity; expected a " +
                   "constraint linear and homogeneous in the velocities, eta(q) . q' = 0");
        ok = false;
      }
    }
    if (!ok) continue;
    m.constraint_names.push_back(name);
    m.constraint_rows.push_back(std::move(row));
  }
}

// A function of the coordinates only at `key` of `t` (a gap, a tangent, a surface) whose
// gradient does not vanish identically; kNoNode when absent or wrong.
lang::NodeId ModelReader::geometry_expression(const toml::table& t, const char* key,
                                              const std::string& where) {
  const lang::NodeId node = mechanics_expression(t, key, where);
  if (node == lang::kNoNode) return lang::kNoNode;
  const std::string culprit = forbidden_input(node, false);
  const std::vector<lang::Variable> in = graph_->inputs(node);
  const int n = dof_;
  const bool moves = std::any_of(in.begin(), in.end(), [n](const lang::Variable& v) {
    return v.kind == lang::OpCode::State && v.index < n;
  });
  if (!culprit.empty()) {
    add_at(*t.get(key), 0,
           where + " " + key + " depends on " + culprit +
               "; expected a function of the coordinates only");
    return lang::kNoNode;
  }
  if (!moves) {
    add_at(*t.get(key), 0,
           where + " " + key + " does not depend on the coordinates: its " +
               "gradient vanishes; expected a function of the coordinates");
    return lang::kNoNode;
  }
  return node;
}

// A rigid law's coefficient that reads run-time parameters: its node (parameters only: no
// state, t or [let] name) and its value now; nullopt after reporting a problem.
std::optional<std::pair<lang::NodeId, double>> ModelReader::runtime_coefficient(
    const toml::node& v, const std::string& what) {
  lang::SymbolTable s;
  s.constants = constants_.constants;
  s.parameters = runtime_read_;
  s.parameter_values = runtime_values_;
  s.allow_time = false;
  s.allow_algebraic = false;
  const auto node = expression(v, what, s);
  if (!node) return std::nullopt;
  const lang::Tape tape = lang::compile_tape(*graph_, {{*node, 0}});
  const double* none = nullptr;
  return std::make_pair(*node, lang::evaluate(tape, 0.0, none, none));
}

// painleve = "bridge" (0) or "stop" (1) of [mechanics] or a contact; nullopt after reporting a
// problem at the value's line.
std::optional<int> ModelReader::painleve_policy(const toml::node& v, const std::string& what) {
  const auto s = string(v, what);
  if (!s) return std::nullopt;
  if (*s == "bridge") return 0;
  if (*s == "stop") return 1;
  add(v, what + " '" + *s + "'; expected \"bridge\" (go on through a Moreau-Jean stretch, the " +
             "default) or \"stop\" (end the run where no event-driven rule answers)");
  return std::nullopt;
}

// [[contacts]]: name, body, gap g_N(q), tangent s_T(q), law and its coefficients.
void ModelReader::read_contacts(const toml::table& doc) {
  if (!model_.mechanics) return;
  const toml::node* list = doc.get("contacts");
  if (list == nullptr) return;
  if (!list->is_array_of_tables()) {
    add(*list, "contacts is " + type_name(*list) + "; expected [[contacts]] tables");
    return;
  }
  int index = 0;
  for (const toml::node& e : *list->as_array()) read_contact(*e.as_table(), index++);
  // Contacts are numbered by their names, not by their place in the file: the order decides
  // which of two guards that fire at one instant is applied first and how the contact LCPs'
  // rows are ordered, and declaring the same contacts in another order is the same model.
  std::stable_sort(
      model_.mechanics->contacts.begin(), model_.mechanics->contacts.end(),
      [](const ModelContact& a, const ModelContact& b) { return natural_less(a.name, b.name); });
}

void ModelReader::read_contact(const toml::table& t, int index) {
  static const std::vector<std::pair<std::string, mech::ImpactLawKind>> kRigid = {
      {"newton", mech::ImpactLawKind::NewtonFrictionless},
      {"naive", mech::ImpactLawKind::Naive},
      {"chatterjee_ruina", mech::ImpactLawKind::ChatterjeeRuina},
      {"routh_newton", mech::ImpactLawKind::RouthNewton},
      {"routh_poisson", mech::ImpactLawKind::RouthPoisson},
      {"routh_stronge", mech::ImpactLawKind::RouthStronge},
      {"newton_coulomb", mech::ImpactLawKind::NewtonCoulomb}};
  static const std::vector<std::pair<std::string, mech::CompliantLawKind>> kCompliant = {
      {"linear_spring", mech::CompliantLawKind::LinearSpring},
      {"kelvin_voigt", mech::CompliantLawKind::KelvinVoigt},
      {"hunt_crossley", mech::CompliantLawKind::HuntCrossley}};
  ModelContact c;
  c.name = "contact" + std::to_string(index);
  if (const toml::node* v = t.get("name")) {
    if (auto s = string(*v, "contact name")) c.name = *s;
  }
  c.body = model_.name.empty() ? "body" : model_.name;
  if (const toml::node* v = t.get("body")) {
    if (auto s = string(*v, "contact body")) c.body = *s;
  }
  const std::string where = "contact '" + c.name + "'";
  for (const ModelContact& other : model_.mechanics->contacts) {
    if (other.name == c.name) add(t, where + ": name used twice; expected unique names");
  }
  std::string law = "newton";
  if (const toml::node* v = t.get("law")) {
    if (auto s = string(*v, where + " law")) law = *s;
  }
  const auto rigid =
      std::find_if(kRigid.begin(), kRigid.end(), [&](const auto& k) { return k.first == law; });
  const auto compliant = std::find_if(kCompliant.begin(), kCompliant.end(),
                                      [&](const auto& k) { return k.first == law; });
  std::vector<std::string> names;
  for (const auto& k : kRigid) names.push_back(k.first);
  for (const auto& k : kCompliant) names.push_back(k.first);
  if (rigid == kRigid.end() && compliant == kCompliant.end()) {
    add(t.get("law") != nullptr ? *t.get("law") : static_cast<const toml::node&>(t),
        where + " law '" + law + "'; expected one of " + join(names));
    return;
  }
  c.compliant = compliant != kCompliant.end();
  if (!model_.mechanics->constraint_rows.empty() &&
      (c.compliant || rigid->second != mech::ImpactLawKind::NewtonFrictionless ||
       t.get("tangent") != nullptr)) {
    add(t.get("law") != nullptr ? *t.get("law") : static_cast<const toml::node&>(t),
        where + " in a model with velocity constraints has law '" + law +
            (t.get("tangent") != nullptr ? "' and a tangent" : "'") +
            "; expected law = \"newton\" without tangent (a wall with Clark and Bloch's " +
            "nonholonomic impact map)");
    return;
  }
  const bool frictional = !c.compliant && rigid->second != mech::ImpactLawKind::NewtonFrictionless;
  check_contact_keys(t, c.name, law);
  c.lines.table = static_cast<int>(t.source().begin.line);
  if (const toml::node* v = t.get("painleve")) {
    if (auto p = painleve_policy(*v, where + " painleve")) c.painleve = *p;
  }
  auto geometry = [&](const char* key) { return geometry_expression(t, key, where); };
  c.gap = geometry("gap");
  if (t.get("gap") == nullptr) {
    add(t, where + " has no gap; expected gap = \"g_N(q)\" (positive when open)");
  }
  // `follows`: where a rigid law keeps a coefficient that reads run-time parameters (null: a
  // number fixed when loaded; number() refuses run-time parameters).
  auto coefficient = [&](const char* key, double& field, bool required,
                         lang::NodeId* follows = nullptr) {
    if (const toml::node* v = t.get(key)) {
      if (follows != nullptr && v->is_string() && !mentioned_in(*v, runtime_read_).empty()) {
        if (auto x = runtime_coefficient(*v, where + " " + key)) {
          *follows = x->first;
          field = x->second;
          if (!model_.runtime_contact_laws) {
            model_.runtime_contact_laws = std::make_shared<RuntimeContactLaws>();
          }
        }
        return;
      }
      if (auto x = number(*v, where + " " + key)) field = *x;
    } else if (required) {
      add(t, where + " (law " + law + ") has no " + key + "; expected " + key + " = <number>");
    }
  };
  try {
    if (c.compliant) {
      c.compliant_law.kind = compliant->second;
      c.compliant_law.c = 0.0;
      c.compliant_law.n = 1.5;
      coefficient("k", c.compliant_law.k, true);
      coefficient("c", c.compliant_law.c, false);
      coefficient("n", c.compliant_law.n, false);
      coefficient("mu", c.compliant_law.mu, false);
      if (t.get("tangent") != nullptr) c.tangent = geometry("tangent");
      if (c.compliant_law.mu > 0.0 && t.get("tangent") == nullptr) {
        add(*t.get("mu"), where + " (law " + law +
                              ") has mu = " + short_number(c.compliant_law.mu) +
                              " but no tangent; expected tangent = \"s_T(q)\", the contact " +
                              "point's coordinate along the surface");
      }
      if (const toml::node* v = t.get("release")) {
        if (auto s = string(*v, where + " release")) {
          if (*s == "gap") {
            c.compliant_law.release = mech::ReleaseCondition::GapReturnsToZero;
          } else if (*s == "force") {
            c.compliant_law.release = mech::ReleaseCondition::ForceReturnsToZero;
          } else {
            add(*v, where + " release '" + *s + "'; expected gap or force");
          }
        }
      }
      c.compliant_law.validate("model '" + model_.name + "', body '" + c.body + "', " + where);
    } else {
      c.rigid_law.kind = rigid->second;
      c.rigid_law.mu = 0.0;
      c.rigid_law.e_t = 0.0;
      // The walls of a model with velocity constraints take e when they are built: fixed.
      const bool lagrangian = model_.mechanics->constraint_rows.empty();
      coefficient("e", c.rigid_law.e, true, lagrangian ? &c.e_expression : nullptr);
      coefficient("mu", c.rigid_law.mu, frictional, lagrangian ? &c.mu_expression : nullptr);
      coefficient("e_t", c.rigid_law.e_t, false, lagrangian ? &c.e_t_expression : nullptr);
      c.lines.e = written_line(t, c.name, "e");
      c.lines.mu = written_line(t, c.name, "mu");
      c.lines.e_t = written_line(t, c.name, "e_t");
      if (const toml::node* v = t.get("superelastic")) {
        if (!v->is_boolean()) {
          add_contact_key_problem(
              t, c.name, "superelastic",
              where + " superelastic is " + type_name(*v) + "; expected true or false");
        } else if (*v->value<bool>() && !lagrangian) {
          add_contact_key_problem(
              t, c.name, "superelastic",
              where + " in a model with velocity constraints has superelastic = true; expected " +
                  "no superelastic (Clark and Bloch's nonholonomic impact map takes e in [0, 1])");
        } else {
          c.rigid_law.superelastic = *v->value<bool>();
        }
      }
      if (t.get("tangent") != nullptr) c.tangent = geometry("tangent");
      if (frictional) {
        if (t.get("tangent") == nullptr) {
          add(t, where + " (law " + law + ") has no tangent; expected tangent = \"s_T(q)\", " +
                     "the contact point's coordinate along the surface");
        }
      }
      try {
        c.rigid_law.validate("model '" + model_.name + "', body '" + c.body + "', " + where);
      } catch (const Error& err) {
        // At the line of the refused key (e, e_t, mu, superelastic), or at its --set.
        add_contact_key_problem(t, c.name, c.rigid_law.invalid_key(), err.what());
      }
    }
  } catch (const Error& err) {
    add(t, err.what());
  }
  model_.mechanics->contacts.push_back(std::move(c));
}
}  // namespace saltus::model::loader
