// A mechanical model's [[contacts]]: geometry (gap, tangent), impact or compliant law and its
// coefficients (numbers or run-time parameters), the painleve policy; contacts numbered by name.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "model_reader.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/mech/routh_impact_process.hpp"
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

// A Stribeck curve: the sliding coefficient as an expression of `slip_speed` (|gdot_T| >= 0)
// and of parameters fixed when the model is loaded; null after reporting a problem.
std::shared_ptr<const lang::Tape> ModelReader::stribeck_curve(const toml::node& v,
                                                              const std::string& where) {
  const std::string what = where + " stribeck";
  const auto text = string(v, what);
  if (!text) return nullptr;
  for (const std::vector<std::string>* names : {&runtime_read_, &promote_}) {
    if (const std::string used = mentioned_in(v, *names); !used.empty()) {
      add(v, what + " '" + *text + "' reads parameter '" + used + "', which " +
                 (names == &promote_ ? "is a state for its sensitivity" : "is run-time") +
                 "; expected an expression of slip_speed and of parameters fixed when the " +
                 "model is loaded");
      return nullptr;
    }
  }
  if (constants_.constants.count("slip_speed") != 0) {
    add(v, what + ": parameter 'slip_speed' would hide the contact's slip speed here; expected " +
               "another name for the parameter");
    return nullptr;
  }
  lang::SymbolTable s = constants_;
  s.states = {"slip_speed"};
  s.allow_time = false;
  s.allow_algebraic = false;
  const lang::CompiledExpression c = lang::compile_expression(*text, s);
  for (const auto& issue : c.issues) add_at(v, issue.offset, what + ": " + issue.message);
  if (!c.ok()) return nullptr;
  return std::make_shared<const lang::Tape>(c.program);
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

// A rigid contact's `when` (a condition of t, q and q': where it can be hit) and `relabel`
// (["q_i = R_i(q)", ...]: the coordinates after an impact that leaves it closed; a coordinate
// not named is kept). The symmetry of the relabel is checked when the system is built.
void ModelReader::read_contact_when_and_relabel(const toml::table& t, ModelContact& c,
                                                const std::string& where) {
  const lang::SymbolTable s = symbols({});
  if (const toml::node* w = t.get("when")) {
    if (auto node = condition(*w, where, s)) {
      c.when = *node;
      c.when_text = *w->value<std::string>();
    }
  }
  const toml::node* r = t.get("relabel");
  if (r == nullptr) return;
  c.lines.relabel = written_line(t, c.name, "relabel");
  const int n = model_.mechanics->dof;
  c.relabel.assign(static_cast<size_t>(n), lang::kNoNode);
  for (const Assigned& a : assignments(*r, where + " relabel", s, false, {})) {
    // A velocity's name ("x'") is not a left side of the form: velocities follow, dR/dq qdot.
    const std::string culprit = forbidden_input(a.value, false);
    if (!culprit.empty()) {
      add(*r, where + " relabel of '" + state_names_[static_cast<size_t>(a.state)] +
                  "' depends on " + culprit + "; expected a function of the coordinates");
    } else if (a.state >= 0 && a.state < n) {
      c.relabel[static_cast<size_t>(a.state)] = a.value;
    }
  }
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
  std::vector<std::pair<const toml::table*, std::string>> in_space;  // frictional body points
  for (const toml::node& e : *list->as_array()) {
    const size_t before = model_.mechanics->contacts.size();
    read_contact(*e.as_table(), index++);
    const std::vector<ModelContact>& all = model_.mechanics->contacts;
    if (all.size() > before && all.back().slip[0] != lang::kNoNode) {
      in_space.emplace_back(e.as_table(), all.back().name);
    }
  }
  // Friction in space shares a model only with rigid contacts in space (mech::LagrangianModel::
  // validate_spatial_contact): not with a compliant contact or one with planar friction.
  for (const auto& [table, name] : in_space) {
    for (const ModelContact& other : model_.mechanics->contacts) {
      if (other.name == name || (!other.compliant && other.tangent == lang::kNoNode)) continue;
      add(*table, "contact '" + name + "' has friction in space and contact '" + other.name +
                      "' is " + (other.compliant ? "compliant" : "planar (a tangent)") +
                      "; friction in space shares a model only with rigid contacts in space");
      break;
    }
  }
  // Contacts are numbered by their names, not by their place in the file: the order decides
  // which of two guards that fire at one instant is applied first and how the contact LCPs'
  // rows are ordered, and declaring the same contacts in another order is the same model.
  std::stable_sort(
      model_.mechanics->contacts.begin(), model_.mechanics->contacts.end(),
      [](const ModelContact& a, const ModelContact& b) { return natural_less(a.name, b.name); });
}

// `drilling = l` or `rolling = mu_r` on a body-point contact with friction in space: a positive
// length (its value when loaded), read like the shape's lengths; kNoNode after reporting a
// problem.
lang::NodeId ModelReader::friction_length(const toml::table& t, const char* key,
                                          const std::string& where, bool frictional) {
  const toml::node& v = *t.get(key);
  const std::string bound = std::string(key) == "drilling"
                                ? "the torque about the normal is bounded by mu drilling lambda_N"
                                : "the rolling torque is bounded by rolling lambda_N";
  if (!frictional) {
    add(v, where + " has " + key + " without friction; expected " + key + " (a length) beside " +
               "law newton_coulomb or routh_* with mu: " + bound);
    return lang::kNoNode;
  }
  const std::optional<lang::NodeId> l = v.value<double>()
                                            ? std::optional(graph_->constant(*v.value<double>()))
                                            : expression(v, where + " " + key, symbols({}));
  if (!l) return lang::kNoNode;
  double value = kNaN;
  const lang::Tape tape = lang::compile_tape(*graph_, {{*l, 0}});
  const Vector x0 = model_.initial_state(), none(0);
  lang::run(tape, model_.t_start, x0, x0, none, [&value](int, double x) { value = x; });
  if (!(value > 0.0)) {
    add(v, where + " " + key + " = " + short_number(value) + "; expected a positive length (" +
               bound + ")");
    return lang::kNoNode;
  }
  return *l;
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
  if (t.get("point") != nullptr) {
    // A point of a [[bodies]] body: its gap derived (body_point_gap.cpp), frictionless.
    if (t.get("gap") != nullptr) {
      add(*t.get("gap"), where + " has both gap and point; expected one: the gap written, or " +
                             "a point of a [[bodies]] body whose gap is derived");
    } else if (t.get("tangent") != nullptr) {
      add(*t.get("tangent"), where + " on a body point has a tangent; expected none: its two " +
                                 "tangent directions are derived from the plane");
    } else if (frictional ? rigid->second != mech::ImpactLawKind::NewtonCoulomb &&
                                !mech::is_routh(rigid->second)
                          : t.get("mu") != nullptr && (c.compliant || law == "newton")) {
      add(t.get("law") != nullptr ? *t.get("law") : static_cast<const toml::node&>(t),
          where + " on a body point has law '" + law + "'" +
              (t.get("mu") != nullptr ? " with mu" : "") +
              "; expected newton (frictionless), newton_coulomb with mu (Newton and " +
              "Coulomb's cone in space) or routh_newton, routh_poisson, routh_stronge with mu " +
              "(Routh's process with the cone): the other laws are planar, and compliant " +
              "friction in space is not built");
    } else {
      ModelContact::BodyPoint shape;
      c.gap = body_point_gap(t, c.body, where, shape);
      for (const char* key : {"drilling", "rolling"}) {
        if (t.get(key) == nullptr) continue;
        (std::string(key) == "drilling" ? c.drilling : c.rolling) =
            friction_length(t, key, where, frictional);
      }
      if (c.gap != lang::kNoNode) {
        c.body_point = shape;
        if (frictional) body_point_slip(shape, c);
      }
    }
  } else {
    for (const char* key : {"plane", "axis", "rim", "radius", "ellipsoid", "drilling", "rolling"}) {
      if (const toml::node* v = t.get(key)) {
        add(*v, where + " has " + key + " but no point; expected " + key +
                    " with point = [x, y, z] on a [[bodies]] body");
      }
    }
    c.gap = geometry("gap");
    if (t.get("gap") == nullptr) {
      add(t, where + " has no gap; expected gap = \"g_N(q)\" (positive when open), or " +
                 "point = [x, y, z] on a [[bodies]] body");
    }
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
      coefficient("mu_s", c.rigid_law.mu_s, false, lagrangian ? &c.mu_s_expression : nullptr);
      coefficient("e_t", c.rigid_law.e_t, false, lagrangian ? &c.e_t_expression : nullptr);
      c.lines.e = written_line(t, c.name, "e");
      c.lines.mu = written_line(t, c.name, "mu");
      c.lines.mu_s = written_line(t, c.name, "mu_s");
      c.lines.e_t = written_line(t, c.name, "e_t");
      if (const toml::node* v = t.get("stribeck")) {
        c.stribeck = stribeck_curve(*v, where);
        // At rest the curve must lie in the stick cone (LagrangianContact::check_stribeck).
        const double rest = 0.0;
        const double mu_0 =
            c.stribeck ? lang::evaluate(*c.stribeck, 0.0, &rest, &rest, &rest) : 0.0;
        if (!(mu_0 >= 0.0 && mu_0 <= c.rigid_law.static_mu())) {
          add_contact_key_problem(
              t, c.name, "stribeck",
              where + " stribeck: mu_k(0) = " + short_number(mu_0) +
                  " is outside [0, mu_s = " + short_number(c.rigid_law.static_mu()) +
                  "]; expected a sliding coefficient at rest between 0 and "
                  "the static one");
        }
      }
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
      read_contact_when_and_relabel(t, c, where);
      if (frictional && t.get("point") == nullptr) {
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
