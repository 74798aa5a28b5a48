// A model file in other units (issue 34 item 6, the metamorphic suite): every number the file
// writes with a unit is converted to units of length, mass and time that are `length`, `mass`
// and `time` times smaller, so the same physics reads x' = length x, t' = time t, ... A model is
// convertible when every number that carries a dimension says its unit (parameters, initial
// values, velocities, times of [solver], [initial] and [output]); expressions convert themselves
// when they are written in parameters, as models from papers are. A scalar atol becomes a table
// of per-state values in each state's new unit (the same error test, state by state). The text
// is edited in place (numbers replaced where they stand), so order, comments and lines stay.
#pragma once

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace saltus::testing {

// Exponents of length, mass and time; an angle ("rad") and "1" are dimensionless.
struct Dimension {
  double length = 0.0, mass = 0.0, time = 0.0;
};

// The dimension of a unit written as the model files write them: factors separated by spaces
// or '*', each a symbol with an optional integer power ("m/s^2", "kg m^2", "N m s/rad"); the
// factors after '/' divide. nullopt for a symbol it does not know.
inline std::optional<Dimension> parse_unit(const std::string& unit) {
  static const std::map<std::string, Dimension> kSymbols = {
      {"1", {}},         {"rad", {}},       {"m", {1, 0, 0}},   {"mm", {1, 0, 0}},
      {"cm", {1, 0, 0}}, {"km", {1, 0, 0}}, {"kg", {0, 1, 0}},  {"g", {0, 1, 0}},
      {"s", {0, 0, 1}},  {"ms", {0, 0, 1}}, {"Hz", {0, 0, -1}}, {"N", {1, 1, -2}},
      {"J", {2, 1, -2}}, {"W", {2, 1, -3}}, {"Pa", {-1, 1, -2}}};
  Dimension d;
  double sign = 1.0;
  std::string token;
  const auto flush = [&]() -> bool {
    if (token.empty()) return true;
    double power = 1.0;
    const size_t caret = token.find('^');
    std::string symbol = token.substr(0, caret);
    if (caret != std::string::npos) {
      try {
        size_t used = 0;
        power = std::stod(token.substr(caret + 1), &used);
        if (used != token.size() - caret - 1) return false;
      } catch (...) {
        return false;
      }
    }
    const auto it = kSymbols.find(symbol);
    if (it == kSymbols.end()) return false;
    d.length += sign * power * it->second.length;
    d.mass += sign * power * it->second.mass;
    d.time += sign * power * it->second.time;
    token.clear();
    return true;
  };
  for (const char c : unit) {
    if (c == ' ' || c == '*' || c == '/') {
      if (!flush()) return std::nullopt;
      if (c == '/') {
        if (sign < 0.0) return std::nullopt;  // one '/' only
        sign = -1.0;
      }
    } else {
      token += c;
    }
  }
  if (!flush()) return std::nullopt;
  return d;
}

struct UnitFactors {
  double length = 1.0, mass = 1.0, time = 1.0;
  double of(const Dimension& d) const {
    return std::pow(length, d.length) * std::pow(mass, d.mass) * std::pow(time, d.time);
  }
};

struct RescaledModel {
  std::string text;
  std::vector<std::string> problems;           // numbers it could not convert (empty: convertible)
  std::map<std::string, double> state_factor;  // new value = factor x old value, per state
};

namespace detail {

inline std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Replacements of the text at the source regions of nodes, applied last to first.
class TextEdits {
 public:
  explicit TextEdits(const std::string& text) : text_(text) {
    line_start_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') line_start_.push_back(i + 1);
    }
  }
  void replace(const toml::node& n, std::string with) {
    const auto& r = n.source();
    edits_.push_back({offset(r.begin), offset(r.end), std::move(with)});
  }
  void insert_after_line(const toml::node& n, std::string line) {
    const size_t next = static_cast<size_t>(n.source().begin.line);  // the line after it
    const size_t at = next < line_start_.size() ? line_start_[next] : text_.size();
    edits_.push_back({at, at, line + "\n"});
  }
  std::string apply() const {
    std::vector<Edit> e = edits_;
    std::sort(e.begin(), e.end(), [](const Edit& a, const Edit& b) { return a.from > b.from; });
    std::string out = text_;
    for (const Edit& x : e) out.replace(x.from, x.to - x.from, x.with);
    return out;
  }

 private:
  struct Edit {
    size_t from, to;
    std::string with;
  };
  size_t offset(const toml::source_position& p) const {
    return line_start_[static_cast<size_t>(p.line) - 1] + static_cast<size_t>(p.column) - 1;
  }
  const std::string& text_;
  std::vector<size_t> line_start_;
  std::vector<Edit> edits_;
};

inline void scale_number(const toml::table& t, const std::string& key, double factor,
                         TextEdits& edits) {
  if (const toml::node* n = t.get(key); n != nullptr && n->is_number()) {
    edits.replace(*n, exact(n->value<double>().value() * factor));
  }
}

// A [parameters] / [states] / [coordinates] entry: its numbers in its unit (and the velocity of a
// coordinate in its unit per time); a number without a unit is a problem unless it is 0.
inline void scale_quantity(const toml::table& q, const std::string& name, const UnitFactors& f,
                           const std::vector<std::string>& fields, bool coordinate, bool state,
                           TextEdits& edits, RescaledModel& out) {
  std::optional<Dimension> dim;
  if (const auto u = q["unit"].value<std::string>()) dim = parse_unit(*u);
  for (const std::string& field : fields) {
    const toml::node* n = q.get(field);
    if (n == nullptr || !n->is_number()) continue;
    const double v = n->value<double>().value();
    if (!dim) {
      if (v != 0.0) out.problems.push_back(name + "." + field + " has no unit it can convert");
      continue;
    }
    edits.replace(*n, exact(v * f.of(*dim) / (coordinate && field != "initial" ? f.time : 1.0)));
  }
  if (!state) return;
  const double factor = dim ? f.of(*dim) : 1.0;
  out.state_factor[name] = factor;
  if (coordinate) out.state_factor[name + "'"] = dim ? factor / f.time : 1.0;
}

inline void scale_entries(const toml::table& doc, const char* section,
                          const std::vector<std::string>& fields, bool coordinate, bool state,
                          const UnitFactors& f, TextEdits& edits, RescaledModel& out) {
  const toml::table* t = doc[section].as_table();
  if (t == nullptr) return;
  for (auto&& [key, value] : *t) {
    const std::string name(key.str());
    if (const toml::table* q = value.as_table()) {
      scale_quantity(*q, name, f, fields, coordinate, state, edits, out);
    } else if (value.is_number()) {
      if (value.value<double>().value() != 0.0) {
        out.problems.push_back(std::string(section) + "." + name + " has no unit it can convert");
      }
      if (state) out.state_factor[name] = 1.0;
    }
  }
}

}  // namespace detail

// `text` (a model file) with its units changed by `f`.
inline RescaledModel rescale_model_units(const std::string& text, const UnitFactors& f) {
  RescaledModel out;
  const toml::table doc = toml::parse(text);
  detail::TextEdits edits(text);
  detail::scale_entries(doc, "parameters", {"value"}, false, false, f, edits, out);
  detail::scale_entries(doc, "states", {"initial"}, false, true, f, edits, out);
  detail::scale_entries(doc, "coordinates", {"initial", "velocity"}, true, true, f, edits, out);
  if (doc.contains("hamiltonian")) out.problems.push_back("momenta of a Hamiltonian model");
  // A contact law's numbers: e, mu, e_t, n and release are dimensionless; a stiffness or
  // damping written as a number (not a parameter with its unit) is not convertible.
  if (const toml::array* contacts = doc["contacts"].as_array()) {
    for (const auto& c : *contacts) {
      const toml::table* ct = c.as_table();
      for (const char* key : {"k", "c"}) {
        if (const toml::node* n = ct != nullptr ? ct->get(key) : nullptr; n && n->is_number()) {
          out.problems.push_back(std::string("contact ") + key + " written as a number");
        }
      }
    }
  }
  // An algebraic state's Newton guess, in its unit.
  if (const toml::table* modes = doc["modes"].as_table()) {
    for (auto&& [mode, m] : *modes) {
      const toml::table* mt = m.as_table();
      const toml::table* alg = mt != nullptr ? (*mt)["algebraic"].as_table() : nullptr;
      if (alg == nullptr) continue;
      for (auto&& [name, z] : *alg) {
        if (const toml::table* zt = z.as_table()) {
          detail::scale_quantity(*zt, std::string(name.str()), f, {"guess"}, false, false, edits,
                                 out);
        }
      }
    }
  }
  if (const toml::table* initial = doc["initial"].as_table()) {
    detail::scale_number(*initial, "t", f.time, edits);
    if (initial->contains("project")) out.problems.push_back("[initial] project");
  }
  if (const toml::table* output = doc["output"].as_table()) {
    detail::scale_number(*output, "sample_interval", f.time, edits);
    if (const toml::array* times = (*output)["sample_times"].as_array()) {
      for (const auto& v : *times) {
        if (v.is_number()) edits.replace(v, detail::exact(v.value<double>().value() * f.time));
      }
    }
  }
  if (const toml::array* sections = doc["sections"].as_array()) {
    for (const auto& s : *sections) {
      if (const toml::table* st = s.as_table()) detail::scale_number(*st, "period", f.time, edits);
    }
  }
  if (const toml::table* solver = doc["solver"].as_table()) {
    for (const char* key : {"t_end", "h_max", "h_initial"}) {
      detail::scale_number(*solver, key, f.time, edits);
    }
    // One atol for every state: the same error test in the new units is a table of them.
    const toml::node* a = solver->get("atol");
    if (a == nullptr || a->is_number()) {
      const double atol = a != nullptr ? a->value<double>().value() : 1e-10;
      std::string table = "{ ";
      for (const auto& [state, factor] : out.state_factor) {
        table +=
            (table.size() > 2 ? ", \"" : "\"") + state + "\" = " + detail::exact(atol * factor);
      }
      table += " }";
      if (a != nullptr) {
        edits.replace(*a, table);
      } else {
        edits.insert_after_line(doc["solver"].ref<toml::table>(), "atol = " + table);
      }
    } else {
      out.problems.push_back("[solver] atol is already a table");
    }
  }
  out.text = edits.apply();
  return out;
}

}  // namespace saltus::testing
