// --set name=value overrides, applied to the parsed TOML document before any section is read,
// so an overridden value is checked like one written in the file.
#include <set>

#include "model_reader.hpp"

namespace saltus::model::loader {

// ------------------------------------------------------------------ overrides
void ModelReader::apply_overrides(toml::table& doc, const std::vector<std::string>& overrides) {
  static const std::set<std::string> kSolverKeys = {"t_end",
                                                    "integrator",
                                                    "rtol",
                                                    "atol",
                                                    "h_max",
                                                    "h_initial",
                                                    "root_finder",
                                                    "guard_samples",
                                                    "predictive_step",
                                                    "predictive_gamma",
                                                    "max_events",
                                                    "chatter_steps",
                                                    "zeno_policy",
                                                    "zeno_handover_tolerance",
                                                    "zeno_cycles",
                                                    "zeno_ratio_tolerance",
                                                    "detect_grazing"};
  for (const std::string& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      diagnostics.push_back({"--set", 0, 0, "'" + o + "' is not name=value"});
      continue;
    }
    std::string name = o.substr(0, eq);
    const std::string value_text = o.substr(eq + 1);
    toml::table parsed;
    try {
      parsed = toml::parse("v = " + value_text);
    } catch (const toml::parse_error&) {
      parsed = toml::table{{"v", value_text}};
    }
    const toml::node& value = *parsed.get("v");
    std::string section;
    if (const size_t dot = name.find('.'); dot != std::string::npos) {
      section = name.substr(0, dot);
      name = name.substr(dot + 1);
    }
    auto sub = [&](const std::string& s) -> toml::table* {
      if (!doc.contains(s)) doc.insert(s, toml::table{});
      return doc.get(s)->as_table();
    };
    auto holds = [&](const std::string& s) {
      const toml::node* n = doc.get(s);
      return n != nullptr && n->is_table() && n->as_table()->contains(name);
    };
    if (section == "contacts") {
      override_contact(doc, name, value);
      continue;
    }
    std::string field = "value";
    if (section.empty() && !name.empty() && name.back() == '\'') {
      name.pop_back();  // q' = ...: the initial velocity of coordinate q
      if (holds("coordinates")) {
        section = "coordinates";
        field = "velocity";
      } else {
        name += '\'';
      }
    }
    if (section.empty()) {
      if (holds("parameters")) {
        section = "parameters";
      } else if (holds("states")) {
        section = "states";
        field = "initial";
      } else if (holds("discrete")) {
        section = "discrete";
        field = "initial";
      } else if (holds("coordinates")) {
        section = "coordinates";
        field = "initial";
      } else if (kSolverKeys.count(name) != 0) {
        section = "solver";
      } else {
        diagnostics.push_back(
            {"--set", 0, 0,
             "'" + name + "' is not a parameter, a state, a discrete variable or a " +
                 "solver setting " + "of this model; expected one of them (or section.key)"});
        continue;
      }
    }
    toml::table* t = sub(section);
    if (t == nullptr) {
      diagnostics.push_back({"--set", 0, 0, "[" + section + "] is not a table"});
      continue;
    }
    if (section == "output") {
      // One way of choosing the samples: one set here replaces the file's (a file's
      // sample_interval would otherwise win over --set output.samples=N).
      for (const char* key : {"samples", "sample_interval", "sample_times"}) {
        if (name != key &&
            (name == "samples" || name == "sample_interval" || name == "sample_times")) {
          t->erase(key);
        }
      }
    }
    toml::node* existing = t->get(name);
    const bool replaced = existing != nullptr && !existing->is_table();
    const toml::source_position was_at =
        replaced ? existing->source().begin : toml::source_position{};
    const bool held = section == "states" || section == "discrete";  // { initial = ... }
    if (held) field = "initial";
    if (section == "coordinates" && field == "value") field = "initial";
    if (existing != nullptr && existing->is_table() &&
        (section == "parameters" || held || section == "coordinates")) {
      existing->as_table()->insert_or_assign(field, value);
    } else if (section == "coordinates" && existing != nullptr) {
      // q = <initial> short form: keep it as the table's initial value.
      toml::table q;
      existing->visit([&q](const auto& v) { q.insert_or_assign("initial", v); });
      q.insert_or_assign(field, value);
      t->insert_or_assign(name, std::move(q));
    } else if (held || section == "coordinates") {
      t->insert_or_assign(name, toml::table{{field, value}});
    } else {
      t->insert_or_assign(name, value);
    }
    if (replaced) replaced_at_[t->get(name)] = was_at;
  }
}

// --set contacts.NAME.KEY=VALUE: a key of the [[contacts]] table named NAME (e.g. its law).
void ModelReader::override_contact(toml::table& doc, const std::string& name,
                                   const toml::node& value) {
  const size_t dot = name.find('.');
  toml::node* list = doc.get("contacts");
  if (dot == std::string::npos || list == nullptr || !list->is_array_of_tables()) {
    diagnostics.push_back({"--set", 0, 0,
                           "'contacts." + name + "': expected contacts.<contact name>.<key> " +
                               "in a model with [[contacts]]"});
    return;
  }
  const std::string contact = name.substr(0, dot), key = name.substr(dot + 1);
  for (toml::node& e : *list->as_array()) {
    toml::table& t = *e.as_table();
    const toml::node* n = t.get("name");
    if (n != nullptr && n->value<std::string>() == contact) {
      if (key == "law" && contact_file_law_.count(contact) == 0) {
        const toml::node* law = t.get("law");
        contact_file_law_[contact] = law != nullptr ? law->value_or(std::string()) : "newton";
      }
      contact_keys_set_[contact].insert(key);
      value.visit([&](const auto& v) { t.insert_or_assign(key, v); });
      return;
    }
  }
  diagnostics.push_back({"--set", 0, 0,
                         "'contacts." + name + "': no contact named '" + contact +
                             "'; expected a [[contacts]] name"});
}
}  // namespace saltus::model::loader
