// Mechanical models: [coordinates] and [mechanics] (M and h from derive_lagrangian); their
// [[contacts]] are read in contacts_reader.cpp.
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
  check_keys(
      *t, "[mechanics]",
      {"kinetic_energy", "potential_energy", "forces", "constraints", "painleve", "gravity"});
  if (const toml::node* v = t->get("painleve")) {
    if (auto p = painleve_policy(*v, "[mechanics] painleve")) m.painleve_stop = *p == 1;
  }
  const bool bodies = doc.contains("bodies");
  m.kinetic_energy = t->get("kinetic_energy") != nullptr
                         ? mechanics_expression(*t, "kinetic_energy", "[mechanics]")
                         : graph_->constant(0.0);
  if (t->get("kinetic_energy") == nullptr && !bodies) {
    add(*t, "[mechanics] has no kinetic_energy; expected kinetic_energy = \"T(q, q')\", e.g. " +
                std::string("\"0.5*m*x'^2\"") + ", or [[bodies]]");
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
  if (bodies && !read_bodies(doc, m.kinetic_energy, m.potential_energy, Q,
                             body_vector(*t, "gravity", "[mechanics]"))) {
    return;  // the equations of a model with a bad body would only repeat its problem
  }
  const toml::node& T_node =
      t->get("kinetic_energy") != nullptr ? *t->get("kinetic_energy") : *doc.get("bodies");
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

}  // namespace saltus::model::loader
