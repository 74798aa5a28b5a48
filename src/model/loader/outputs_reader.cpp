// [outputs]: named outputs, y = expression of t, the parameters, the states (discrete variables
// and a mechanical model's q and q' included), the [let] names and a mechanical model's contact
// quantities (model/contact_quantities.hpp: normal_force(c), gap(c), ...), written as columns of
// trajectory.csv after the states (run/output_columns.hpp) and before and after every event in
// events.csv. Not algebraic states: they belong to one mode, and a column must mean the same in
// every row.
#include "model_reader.hpp"
#include "saltus/model/contact_quantities.hpp"

namespace saltus::model::loader {
namespace {

// w(q)^T q' for a function `node` of the coordinates: its rate along the motion.
lang::NodeId rate_of(lang::ExpressionGraph& g, lang::NodeId node,
                     const std::vector<int>& velocity_of, int dof) {
  lang::NodeId sum = g.constant(0.0);
  for (int i = 0; i < dof; ++i) {
    const lang::NodeId w = g.derivative(node, {lang::OpCode::State, i});
    const lang::NodeId v = g.state(velocity_of[static_cast<size_t>(i)]);
    sum = g.make(lang::OpCode::Add, sum, g.make(lang::OpCode::Mul, w, v));
  }
  return sum;
}

// The contact quantities of model/contact_quantities.hpp as functions of a contact's name, nodes
// of `g`: gaps and rates as expressions of q and q', forces as the tapes' algebraic inputs.
std::map<std::string, lang::NameFunction, std::less<>> contact_functions(
    const Model& model, bool hamiltonian, lang::ExpressionGraph& g,
    const std::vector<int>& velocity_of, int dof) {
  std::map<std::string, lang::NameFunction, std::less<>> out;
  const ModelMechanics* mech = model.mechanics ? &*model.mechanics : nullptr;
  for (const ContactQuantityName& f : kContactQuantities) {
    lang::NameFunction& fn = out[f.name];
    fn.what = "contact";
    fn.none = std::string("contact quantities are read in a mechanical model with [[contacts]]") +
              (mech != nullptr ? " and this one has none"
               : hamiltonian ? " ([coordinates], [mechanics]); a Hamiltonian model's walls are not"
                               " such contacts"
                             : " ([coordinates], [mechanics]); this model has [states]") +
              "; expected a name of t, the parameters, the states or [let]";
    if (mech == nullptr) continue;
    const bool force =
        f.quantity == ContactQuantity::NormalForce || f.quantity == ContactQuantity::TangentForce;
    for (size_t k = 0; k < mech->contacts.size(); ++k) {
      const ModelContact& c = mech->contacts[k];
      // A gap that did not load is a problem reported at its line already (the fuzzer's
      // replays: a derivative of kNoNode read outside the graph).
      if (c.gap == lang::kNoNode) continue;
      // Friction in space: the slip has two directions (body_point_slip.cpp), so only its
      // speed |gamma| = sqrt(gamma_1^2 + gamma_2^2) is one number.
      const bool in_space = c.slip[0] != lang::kNoNode;
      if (in_space && f.quantity == ContactQuantity::SlipSpeed) {
        const lang::NodeId s2 =
            g.make(lang::OpCode::Add, g.make(lang::OpCode::Mul, c.slip[0], c.slip[0]),
                   g.make(lang::OpCode::Mul, c.slip[1], c.slip[1]));
        fn.values[c.name] = g.make(lang::OpCode::Sqrt, s2);
        continue;
      }
      if (f.tangential && c.tangent == lang::kNoNode) {
        fn.refused[c.name] =
            in_space ? "contact '" + c.name + "' has friction in space, whose slip and force " +
                           "have two directions; expected slip_speed(" + c.name + ") (|slip|), " +
                           "or trajectory.csv's lambda_T1:" + c.name + " and lambda_T2:" + c.name +
                           " columns"
                     : "contact '" + c.name + "' has no tangent (no friction); expected a " +
                           "contact with a `tangent`";
        continue;
      }
      if (force && !mech->constraint_rows.empty()) {
        fn.refused[c.name] = "contact '" + c.name + "' is a wall of a model with velocity " +
                             "constraints, whose contact forces are not computed (its impacts " +
                             "are in events.csv); expected gap or gap_rate";
        continue;
      }
      const int contact = static_cast<int>(k);
      const lang::NodeId along = f.tangential ? c.tangent : c.gap;
      switch (f.quantity) {
        case ContactQuantity::NormalForce:
          fn.values[c.name] = g.algebraic(normal_force_input(contact));
          break;
        case ContactQuantity::TangentForce:
          fn.values[c.name] = g.algebraic(tangent_force_input(contact));
          break;
        case ContactQuantity::Gap:
          fn.values[c.name] = c.gap;
          break;
        case ContactQuantity::GapRate:
        case ContactQuantity::TangentRate:
          fn.values[c.name] = rate_of(g, along, velocity_of, dof);
          break;
        case ContactQuantity::SlipSpeed:
          fn.values[c.name] = g.make(lang::OpCode::Abs, rate_of(g, along, velocity_of, dof));
          break;
      }
    }
  }
  return out;
}

}  // namespace

void ModelReader::read_outputs(const toml::table& doc) {
  const toml::table* t = table_at(doc, "outputs", "the file", false);
  if (t == nullptr) return;
  lang::SymbolTable s = symbols({});
  s.allow_algebraic = false;
  s.name_functions =
      contact_functions(model_, doc.contains("hamiltonian"), *graph_, velocity_of_, dof_);
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
