// TOML model files (toml++, header-only in this one translation unit) into a Model.
//
// The loader never stops at the first problem: each section is read as far as it makes sense,
// every problem becomes a Diagnostic with file, line and column, and only a model without
// problems is returned. Table keys are visited in source order (toml++ tables are sorted maps).
//
// Why ~1400 lines: the TOML front end, overrides, the Euler-Lagrange derivation and the mode,
// guard and solver readers still share one parser state; splitting them (a pure
// derive_lagrangian, readers per section) is issue 10, item 2. New readers go in new files.
// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/model/model_loader.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <type_traits>

#include "drawing_section.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/expression_compiler.hpp"
#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_start_check.hpp"

namespace saltus::model {
namespace {

using Keyed = std::vector<std::pair<std::string, const toml::node*>>;

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

// An integral count as written, without exponent or sign surprises ("1000000000").
std::string format_count(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

// toml++ 3.3.0 asserts (and in release builds assumes) that a table header's name starts with a
// key character or a quote; "[=", "[.a" or "[{" break that assumption (found by fuzzing,
// docs/FUZZING.md). Finds such a header outside strings, comments and multi-line arrays, so it
// is reported as a syntax error without handing it to toml++. Likewise toml++ reaches an
// "unreachable" branch for some non-ASCII characters outside strings (e.g. U+029A), which TOML
// 1.0 forbids there anyway: sets `non_ascii` for those. Returns {line, column} or {0, 0}.
std::pair<int, int> malformed_table_header(std::string_view text, bool& non_ascii) {
  non_ascii = false;
  {
    // Control characters are invalid anywhere in TOML 1.0 (tab, CR and LF aside); toml++'s
    // recovery from them inside strings reached the same unreachable branch (fuzzing).
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      const auto u = static_cast<unsigned char>(text[i]);
      if (u == '\n') {
        ++line;
        line_start = i + 1;
      } else if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7F) {
        non_ascii = true;
        return {line, static_cast<int>(i - line_start) + 1};
      } else if (u >= 0xC2 && i + 1 < text.size()) {
        // toml++ 3.3.0's is_non_ascii_horizontal_whitespace reaches TOML_UNREACHABLE for
        // U+00A1..U+0499 and U+FBC6..U+FEFE (fuzzing), wherever it meets one: refuse them.
        const auto b1 = static_cast<unsigned char>(text[i + 1]) & 0x3Fu;
        unsigned cp = 0;
        if (u <= 0xDF) {
          cp = ((u & 0x1Fu) << 6) | b1;
        } else if (u <= 0xEF && i + 2 < text.size()) {
          cp = ((u & 0x0Fu) << 12) | (b1 << 6) | (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
        }
        if ((cp >= 0xA1 && cp <= 0x499) || (cp >= 0xFBC6 && cp <= 0xFEFE)) {
          non_ascii = true;
          return {line, static_cast<int>(i - line_start) + 1};
        }
      }
    }
  }
  int line = 1, depth = 0;
  size_t line_start = 0;
  bool at_line_start = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      at_line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (static_cast<unsigned char>(c) >= 0x80) {
      non_ascii = true;
      return {line, static_cast<int>(i - line_start) + 1};
    }
    const bool header = at_line_start && depth == 0 && c == '[';
    at_line_start = false;
    if (header) {
      size_t j = i + 1;
      if (j < text.size() && text[j] == '[') ++j;
      while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
      const char k = j < text.size() ? text[j] : '\n';
      const bool key_start = std::isalnum(static_cast<unsigned char>(k)) || k == '_' || k == '-' ||
                             k == '"' || k == '\'' || k == ']' ||
                             static_cast<unsigned char>(k) >= 0x80;
      if (!key_start) return {line, static_cast<int>(j - line_start) + 1};
      continue;  // the rest of the header is scanned like any other text
    }
    if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool triple = text.substr(i, 3) == std::string(3, c);
      const std::string close = triple ? std::string(3, c) : std::string(1, c);
      size_t j = i + close.size();
      while (j < text.size()) {
        if (c == '"' && text[j] == '\\') {
          j += 2;
          continue;
        }
        if (!triple && text[j] == '\n') break;
        if (text.substr(j, close.size()) == close) break;
        ++j;
      }
      for (size_t k = i; k < j && k < text.size(); ++k) {
        if (text[k] == '\n') {
          ++line;
          line_start = k + 1;
        }
      }
      i = std::min(j + close.size() - 1, text.size());
      if (j < text.size() && text[j] == '\n') i = j - 1;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      depth = std::max(depth - 1, 0);
    }
  }
  return {0, 0};
}

class Loader {
 public:
  Loader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {
    std::string line;
    std::istringstream in{std::string(text)};
    while (std::getline(in, line)) lines_.push_back(line);
  }

  std::vector<Diagnostic> diagnostics;

  Model load(const std::vector<std::string>& overrides) {
    model_.file = file_;
    model_.graph = graph_;
    toml::table doc;
    bool non_ascii = false;
    if (const auto [line, column] = malformed_table_header(text_, non_ascii); line > 0) {
      add(line, column,
          non_ascii ? "TOML syntax: control character, non-ASCII character outside a string, or "
                      "a character in U+00A1..U+0499 or U+FBC6..U+FEFE (not supported by the "
                      "toml++ 3.3.0 reader); expected ASCII (e.g. 'um' for a micrometre)"
                    : "TOML syntax: malformed table header; expected a key (letters, digits, "
                      "'_', '-' or a quoted name) after '['");
      return model_;
    }
    try {
      doc = toml::parse(text_, file_);
    } catch (const toml::parse_error& e) {
      const auto& b = e.source().begin;
      add(static_cast<int>(b.line), static_cast<int>(b.column),
          "TOML syntax: " + std::string(e.description()));
      return model_;
    }
    apply_overrides(doc, overrides);
    check_keys(doc, "the top level",
               {"model", "parameters", "states", "initial", "modes", "coordinates", "mechanics",
                "contacts", "solver", "output", "drawing"});
    read_model_section(doc);
    read_parameters(doc);
    if (doc.contains("coordinates") || doc.contains("mechanics") || doc.contains("contacts")) {
      // A mechanical model: its states and modes follow from the coordinates and contacts.
      for (const char* key : {"states", "modes"}) {
        if (const toml::node* n = doc.get(key)) {
          add(*n, std::string("[") + key + "] in a mechanical model ([coordinates], " +
                      "[mechanics], [[contacts]]); expected either a mechanical model or " +
                      "[states] and [modes], not both");
        }
      }
      read_coordinates(doc);
      read_mechanics(doc);
      read_contacts(doc);
    } else {
      read_states(doc);
      read_modes(doc);
    }
    read_initial(doc);
    read_solver(doc);
    read_output(doc);
    if (const toml::node* d = doc.get("drawing")) read_drawing(*d);
    return model_;
  }

 private:
  // ------------------------------------------------------------------ diagnostics
  void add(int line, int column, std::string message) {
    diagnostics.push_back({file_, line, column, std::move(message)});
  }
  void add(const toml::node& n, std::string message) {
    const auto& b = n.source().begin;
    add(static_cast<int>(b.line), static_cast<int>(b.column), std::move(message));
  }
  // Column of character `offset` of the string value `n` (inside its quotes when it is a
  // one-line string; its first character otherwise).
  std::pair<int, int> string_position(const toml::node& n, int offset) const {
    const auto& b = n.source().begin;
    const int line = static_cast<int>(b.line), column = static_cast<int>(b.column);
    if (line < 1 || line > static_cast<int>(lines_.size())) return {line, column};
    const std::string& l = lines_[line - 1];
    const size_t at = static_cast<size_t>(std::max(column - 1, 0));
    if (at < l.size() && (l[at] == '"' || l[at] == '\'') &&
        l.compare(at, 3, std::string(3, l[at])) != 0) {
      // Escapes shift later characters; the column is exact for strings without them.
      return {line, column + 1 + offset};
    }
    return {line, column};
  }
  void add_at(const toml::node& n, int offset, std::string message) {
    const auto [line, column] = string_position(n, offset);
    add(line, column, std::move(message));
  }

  // ------------------------------------------------------------------ helpers
  static Keyed ordered(const toml::table& t) {
    Keyed out;
    for (auto&& [k, v] : t) out.emplace_back(std::string(k.str()), &v);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      const auto &pa = a.second->source().begin, &pb = b.second->source().begin;
      return std::tie(pa.line, pa.column) < std::tie(pb.line, pb.column);
    });
    return out;
  }

  void check_keys(const toml::table& t, const std::string& where,
                  const std::vector<std::string>& known) {
    for (const auto& [k, v] : ordered(t)) {
      if (std::find(known.begin(), known.end(), k) == known.end()) {
        add(*v, "unknown key '" + k + "' in " + where + "; expected one of " + join(known));
      }
    }
  }

  const toml::table* table_at(const toml::table& parent, const std::string& key,
                              const std::string& where, bool required) {
    const toml::node* n = parent.get(key);
    if (n == nullptr) {
      if (required) add(0, 0, "missing [" + key + "] in " + where + "; expected a table");
      return nullptr;
    }
    if (!n->is_table()) {
      add(*n, "'" + key + "' in " + where + " is " + type_name(*n) + "; expected a table");
      return nullptr;
    }
    return n->as_table();
  }

  std::optional<double> number(const toml::node& n, const std::string& what) {
    if (n.is_integer() || n.is_floating_point()) return n.value<double>();
    if (n.is_string()) {
      // A constant expression of the parameters read so far, e.g. "sqrt(2*g*h0)".
      SymbolTable s;
      s.constants = constants_;
      s.allow_time = false;
      const std::string text = *n.value<std::string>();
      const CompiledExpression c = compile_expression(text, s);
      for (const auto& issue : c.issues) add_at(n, issue.offset, what + ": " + issue.message);
      if (!c.ok()) return std::nullopt;
      if (!c.is_constant) {
        add(n, what + " '" + text + "' is not constant; expected a number or an expression of " +
                   "earlier parameters");
        return std::nullopt;
      }
      return c.constant_value;
    }
    add(n, what + " is " + type_name(n) + "; expected a number");
    return std::nullopt;
  }

  std::optional<std::string> string(const toml::node& n, const std::string& what) {
    if (n.is_string()) return n.value<std::string>();
    add(n, what + " is " + type_name(n) + "; expected a string");
    return std::nullopt;
  }

  bool new_name(const toml::node& n, const std::string& name, const std::string& what) {
    if (!is_identifier(name)) {
      add(n, what + " name '" + name + "' is not a valid name; expected a letter or '_' " +
                 "followed by letters, digits or '_'");
      return false;
    }
    if (is_reserved_name(name)) {
      add(n, what + " name '" + name + "' is reserved (t, pi and function names)");
      return false;
    }
    if (names_.count(name) != 0) {
      add(n, what + " name '" + name + "' is already used by " + names_[name]);
      return false;
    }
    names_[name] = what + " '" + name + "'";
    return true;
  }

  // ------------------------------------------------------------------ overrides
  void apply_overrides(toml::table& doc, const std::vector<std::string>& overrides) {
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
        } else if (holds("coordinates")) {
          section = "coordinates";
          field = "initial";
        } else if (kSolverKeys.count(name) != 0) {
          section = "solver";
        } else {
          diagnostics.push_back({"--set", 0, 0,
                                 "'" + name + "' is not a parameter, a state or a solver setting " +
                                     "of this model; expected one of them (or section.key)"});
          continue;
        }
      }
      toml::table* t = sub(section);
      if (t == nullptr) {
        diagnostics.push_back({"--set", 0, 0, "[" + section + "] is not a table"});
        continue;
      }
      toml::node* existing = t->get(name);
      if (section == "states") field = "initial";
      if (section == "coordinates" && field == "value") field = "initial";
      if (existing != nullptr && existing->is_table() &&
          (section == "parameters" || section == "states" || section == "coordinates")) {
        existing->as_table()->insert_or_assign(field, value);
      } else if (section == "coordinates" && existing != nullptr) {
        // q = <initial> short form: keep it as the table's initial value.
        toml::table q;
        existing->visit([&q](const auto& v) { q.insert_or_assign("initial", v); });
        q.insert_or_assign(field, value);
        t->insert_or_assign(name, std::move(q));
      } else if (section == "states" || section == "coordinates") {
        t->insert_or_assign(name, toml::table{{field, value}});
      } else {
        t->insert_or_assign(name, value);
      }
    }
  }

  // --set contacts.NAME.KEY=VALUE: a key of the [[contacts]] table named NAME (e.g. its law).
  void override_contact(toml::table& doc, const std::string& name, const toml::node& value) {
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
        value.visit([&](const auto& v) { t.insert_or_assign(key, v); });
        return;
      }
    }
    diagnostics.push_back({"--set", 0, 0,
                           "'contacts." + name + "': no contact named '" + contact +
                               "'; expected a [[contacts]] name"});
  }

  // ------------------------------------------------------------------ sections
  void read_model_section(const toml::table& doc) {
    const toml::table* t = table_at(doc, "model", "the file", false);
    if (t == nullptr) return;
    check_keys(*t, "[model]", {"name", "description", "time_unit"});
    if (const toml::node* n = t->get("name")) {
      if (auto s = string(*n, "model name")) model_.name = *s;
    }
    if (const toml::node* n = t->get("description")) {
      if (auto s = string(*n, "description")) model_.description = *s;
    }
    if (const toml::node* n = t->get("time_unit")) {
      if (auto s = string(*n, "time_unit")) model_.time_unit = *s;
    }
  }

  // A number or { value|initial|guess = number, unit = "..." }.
  std::optional<Quantity> quantity(const std::string& name, const toml::node& n,
                                   const std::string& what, const char* field, bool required) {
    Quantity q;
    q.name = name;
    if (n.is_table()) {
      const toml::table& t = *n.as_table();
      check_keys(t, what + " '" + name + "'", {field, "unit", "description"});
      if (const toml::node* u = t.get("unit")) {
        if (auto s = string(*u, "unit")) q.unit = *s;
      }
      const toml::node* v = t.get(field);
      if (v == nullptr) {
        if (required) {
          add(n, what + " '" + name + "' has no " + field + " value; expected " + field +
                     " = <number>");
          return std::nullopt;
        }
        return q;
      }
      const auto value = number(*v, what + " '" + name + "'");
      if (!value) return std::nullopt;
      q.value = *value;
      return q;
    }
    const auto value = number(n, what + " '" + name + "'");
    if (!value) return std::nullopt;
    q.value = *value;
    return q;
  }

  void read_parameters(const toml::table& doc) {
    const toml::table* t = table_at(doc, "parameters", "the file", false);
    if (t == nullptr) return;
    for (const auto& [k, v] : ordered(*t)) {
      if (!new_name(*v, k, "parameter")) continue;
      if (auto q = quantity(k, *v, "parameter", "value", true)) {
        model_.parameters.push_back(*q);
        constants_[k] = q->value;
      }
    }
  }

  void read_states(const toml::table& doc) {
    const toml::table* t = table_at(doc, "states", "the file", true);
    if (t == nullptr) return;
    for (const auto& [k, v] : ordered(*t)) {
      if (!new_name(*v, k, "state")) continue;
      Quantity q;
      q.name = k;
      if (auto r = quantity(k, *v, "state", "initial", true)) q = *r;
      model_.states.push_back(q);  // kept (with 0) after a problem, so later checks still work
      state_names_.push_back(k);
    }
    if (model_.states.empty()) add(*t, "[states] declares no state; expected at least one");
  }

  SymbolTable symbols(const std::vector<std::string>& algebraic) const {
    SymbolTable s;
    s.constants = constants_;
    s.states = state_names_;
    s.algebraic = algebraic;
    s.velocity_of = velocity_of_;
    return s;
  }

  // [drawing] (drawing_section.cpp): expressions of t, the parameters and the states.
  void read_drawing(const toml::node& d) {
    const SymbolTable s = symbols({});
    model_.drawing = read_drawing_section(
        d, {*graph_,
            [&](const toml::node& n, const std::string& what) { return expression(n, what, s); },
            [&](const toml::node& n, const std::string& message) { add(n, message); }});
  }

  // ------------------------------------------------------------------ mechanical models
  // [coordinates]: q = { initial = ..., velocity = ..., unit = "..." } or q = <initial>. The
  // states are q (in order), then q' (the velocities).
  void read_coordinates(const toml::table& doc) {
    const toml::table* t = table_at(doc, "coordinates", "a mechanical model", true);
    if (t == nullptr) return;
    std::vector<Quantity> q, v;
    for (const auto& [k, n] : ordered(*t)) {
      if (!new_name(*n, k, "coordinate")) continue;
      Quantity pos{k, 0.0, ""}, vel{k + "'", 0.0, ""};
      if (n->is_table()) {
        const toml::table& c = *n->as_table();
        check_keys(c, "coordinate '" + k + "'", {"initial", "velocity", "unit", "description"});
        if (const toml::node* u = c.get("unit")) {
          if (auto s = string(*u, "unit")) pos.unit = *s;
        }
        if (const toml::node* i = c.get("initial")) {
          if (auto x = number(*i, "coordinate '" + k + "' initial")) pos.value = *x;
        } else {
          add(*n, "coordinate '" + k + "' has no initial value; expected initial = <number>");
        }
        if (const toml::node* i = c.get("velocity")) {
          if (auto x = number(*i, "coordinate '" + k + "' velocity")) vel.value = *x;
        }
      } else if (auto x = number(*n, "coordinate '" + k + "'")) {
        pos.value = *x;
      }
      vel.unit = pos.unit.empty() ? "" : pos.unit + "/" + model_.time_unit;
      q.push_back(pos);
      v.push_back(vel);
    }
    if (q.empty()) add(*t, "[coordinates] declares no coordinate; expected at least one");
    if (q.size() > static_cast<size_t>(mech::kMaxDof)) {
      add(*t, "[coordinates] declares " + std::to_string(q.size()) + " coordinates; at most " +
                  std::to_string(mech::kMaxDof) + " are supported");
    }
    const int n = static_cast<int>(q.size());
    for (const Quantity& x : q) state_names_.push_back(x.name);
    for (const Quantity& x : v) state_names_.push_back(x.name);
    model_.states = q;
    model_.states.insert(model_.states.end(), v.begin(), v.end());
    velocity_of_.assign(static_cast<size_t>(2 * n), -1);
    for (int i = 0; i < n; ++i) velocity_of_[static_cast<size_t>(i)] = n + i;
    model_.mechanics.emplace();
    model_.mechanics->dof = n;
  }

  // What `node` reads that a function of the coordinates (and of t when `allow_time`) must
  // not: "the velocity q'" or "t"; "" when nothing.
  std::string forbidden_input(NodeId node, bool allow_time) const {
    const int n = model_.mechanics->dof;
    for (const Variable& v : graph_->inputs(node)) {
      if (v.kind == OpCode::State && v.index >= n) {
        return "the velocity " + state_names_[static_cast<size_t>(v.index)];
      }
      if (v.kind == OpCode::Time && !allow_time) return "t";
    }
    return "";
  }

  // A string expression of (t, q, q') at key `key` of `t`; kNoNode when absent or wrong.
  NodeId mechanics_expression(const toml::table& t, const char* key, const std::string& where) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return kNoNode;
    if (!n->is_string()) {
      add(*n, where + " " + key + " is " + type_name(*n) + "; expected an expression (a string)");
      return kNoNode;
    }
    return expression(*n, where + " " + key, symbols({})).value_or(kNoNode);
  }

  // [mechanics]: kinetic_energy T(q, q'), potential_energy V(t, q), forces { q = Q(t, q, q') }.
  // Derives M = d2T/dq'2 and h = dL/dq - (d/dq dL/dq') q' - d/dt dL/dq' + Q with L = T - V.
  void read_mechanics(const toml::table& doc) {
    const toml::table* t = table_at(doc, "mechanics", "a mechanical model", true);
    if (t == nullptr || !model_.mechanics) return;
    ModelMechanics& m = *model_.mechanics;
    const int n = m.dof;
    check_keys(*t, "[mechanics]", {"kinetic_energy", "potential_energy", "forces"});
    m.kinetic_energy = mechanics_expression(*t, "kinetic_energy", "[mechanics]");
    if (t->get("kinetic_energy") == nullptr) {
      add(*t, "[mechanics] has no kinetic_energy; expected kinetic_energy = \"T(q, q')\", e.g. " +
                  std::string("\"0.5*m*x'^2\""));
    }
    m.potential_energy = t->get("potential_energy") != nullptr
                             ? mechanics_expression(*t, "potential_energy", "[mechanics]")
                             : graph_->constant(0.0);
    std::vector<NodeId> Q(static_cast<size_t>(n), graph_->constant(0.0));
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
    if (m.kinetic_energy == kNoNode || m.potential_energy == kNoNode) return;
    const toml::node& T_node = *t->get("kinetic_energy");
    const Variable time{OpCode::Time, 0};
    if (const std::string v = forbidden_input(m.potential_energy, true); !v.empty()) {
      add(*t->get("potential_energy"), "[mechanics] potential_energy depends on " + v +
                                           "; expected a function of t and the coordinates");
      return;
    }
    ExpressionGraph& g = *graph_;
    const NodeId L = g.make(OpCode::Sub, m.kinetic_energy, m.potential_energy);
    m.mass.assign(static_cast<size_t>(n), std::vector<NodeId>(static_cast<size_t>(n), kNoNode));
    m.forces.assign(static_cast<size_t>(n), kNoNode);
    for (int i = 0; i < n; ++i) {
      const NodeId p = g.derivative(L, {OpCode::State, n + i});  // dL/dq'_i
      NodeId h = g.make(OpCode::Sub, g.derivative(L, {OpCode::State, i}), g.derivative(p, time));
      for (int j = 0; j < n; ++j) {
        const NodeId Mij = g.derivative(p, {OpCode::State, n + j});
        m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)] = Mij;
        h = g.make(OpCode::Sub, h,
                   g.make(OpCode::Mul, g.derivative(p, {OpCode::State, j}), g.state(n + j)));
      }
      m.forces[static_cast<size_t>(i)] = g.make(OpCode::Add, h, Q[static_cast<size_t>(i)]);
    }
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const NodeId Mij = m.mass[static_cast<size_t>(i)][static_cast<size_t>(j)];
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
  }

  // [[contacts]]: name, body, gap g_N(q), tangent s_T(q), law and its coefficients.
  void read_contacts(const toml::table& doc) {
    if (!model_.mechanics) return;
    const toml::node* list = doc.get("contacts");
    if (list == nullptr) return;
    if (!list->is_array_of_tables()) {
      add(*list, "contacts is " + type_name(*list) + "; expected [[contacts]] tables");
      return;
    }
    int index = 0;
    for (const toml::node& e : *list->as_array()) read_contact(*e.as_table(), index++);
  }

  void read_contact(const toml::table& t, int index) {
    static const std::vector<std::pair<std::string, mech::ImpactLawKind>> kRigid = {
        {"newton", mech::ImpactLawKind::NewtonFrictionless},
        {"naive", mech::ImpactLawKind::Naive},
        {"chatterjee_ruina", mech::ImpactLawKind::ChatterjeeRuina},
        {"routh_newton", mech::ImpactLawKind::RouthNewton},
        {"routh_poisson", mech::ImpactLawKind::RouthPoisson},
        {"routh_stronge", mech::ImpactLawKind::RouthStronge}};
    static const std::vector<std::pair<std::string, mech::CompliantLawKind>> kCompliant = {
        {"linear_spring", mech::CompliantLawKind::LinearSpring},
        {"kelvin_voigt", mech::CompliantLawKind::KelvinVoigt},
        {"hunt_crossley", mech::CompliantLawKind::HuntCrossley}};
    const int n = model_.mechanics->dof;
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
    const bool frictional =
        !c.compliant && rigid->second != mech::ImpactLawKind::NewtonFrictionless;
    // Every rigid law accepts the rigid keys (so --set contacts.<c>.law=... can switch laws);
    // compliant keys with a rigid law, or the reverse, are errors.
    std::vector<std::string> keys = {"name", "body", "gap", "law"};
    if (c.compliant) {
      keys.insert(keys.end(), {"k", "c", "n", "release"});
    } else {
      keys.insert(keys.end(), {"e", "mu", "e_t", "tangent"});
    }
    check_keys(t, where + " (law " + law + ")", keys);
    // Geometry: functions of the coordinates only.
    auto geometry = [&](const char* key) -> NodeId {
      const NodeId node = mechanics_expression(t, key, where);
      if (node == kNoNode) return kNoNode;
      const std::string culprit = forbidden_input(node, false);
      const std::vector<Variable> in = graph_->inputs(node);
      const bool moves = std::any_of(in.begin(), in.end(), [n](const Variable& v) {
        return v.kind == OpCode::State && v.index < n;
      });
      if (!culprit.empty()) {
        add_at(*t.get(key), 0,
               where + " " + key + " depends on " + culprit +
                   "; expected a function of the coordinates only");
        return kNoNode;
      }
      if (!moves) {
        add_at(*t.get(key), 0,
               where + " " + key + " does not depend on the coordinates: its " +
                   "gradient vanishes; expected a function of the coordinates");
        return kNoNode;
      }
      return node;
    };
    c.gap = geometry("gap");
    if (t.get("gap") == nullptr) {
      add(t, where + " has no gap; expected gap = \"g_N(q)\" (positive when open)");
    }
    auto coefficient = [&](const char* key, double& field, bool required) {
      if (const toml::node* v = t.get(key)) {
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
        coefficient("e", c.rigid_law.e, true);
        coefficient("mu", c.rigid_law.mu, frictional);
        coefficient("e_t", c.rigid_law.e_t, false);
        if (t.get("tangent") != nullptr) c.tangent = geometry("tangent");
        if (frictional) {
          if (t.get("tangent") == nullptr) {
            add(t, where + " (law " + law + ") has no tangent; expected tangent = \"s_T(q)\", " +
                       "the contact point's coordinate along the surface");
          }
        }
        c.rigid_law.validate("model '" + model_.name + "', body '" + c.body + "', " + where);
      }
    } catch (const Error& err) {
      add(t, err.what());
    }
    model_.mechanics->contacts.push_back(std::move(c));
  }

  // Parses the string `n` (whole text) into the model's graph or reports its problems.
  std::optional<NodeId> expression(const toml::node& n, const std::string& what,
                                   const SymbolTable& s) {
    const auto text = n.value<std::string>();
    const ParsedExpression c = parse_expression(*text, s, *graph_);
    for (const auto& issue : c.issues) add_at(n, issue.offset, what + ": " + issue.message);
    if (!c.ok()) return std::nullopt;
    return c.node;
  }

  const toml::array* array_of_strings(const toml::node& n, const std::string& what) {
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

  // "name = expr" entries (resets); `rate` for "name' = expr" (explicit flows).
  struct Assigned {
    int state = -1;
    int lhs_offset = 0;
    NodeId value = kNoNode;
  };
  std::vector<Assigned> assignments(const toml::node& n, const std::string& what,
                                    const SymbolTable& s, bool rate,
                                    const std::vector<std::string>& algebraic) {
    std::vector<Assigned> out;
    const toml::array* a = array_of_strings(n, what);
    if (a == nullptr) return out;
    for (const toml::node& e : *a) {
      const std::string text = *e.value<std::string>();
      const int eq = find_equals(text);
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
      } else {
        r.state = static_cast<int>(it - state_names_.begin());
      }
      ParsedExpression c = parse_expression(text.substr(static_cast<size_t>(eq) + 1), s, *graph_);
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
  std::vector<NodeId> residuals(const toml::node& n, const std::string& what,
                                const SymbolTable& s) {
    std::vector<NodeId> out;
    const toml::array* a = array_of_strings(n, what);
    if (a == nullptr) return out;
    for (const toml::node& e : *a) {
      const std::string text = *e.value<std::string>();
      const int eq = find_equals(text);
      if (eq == -2) {
        add_at(e, 0, what + ": '" + text + "' has several '='; expected \"lhs = rhs\"");
        continue;
      }
      const ParsedExpression c =
          eq >= 0 ? parse_residual(text, eq, s, *graph_) : parse_expression(text, s, *graph_);
      for (const auto& issue : c.issues) add_at(e, issue.offset, what + ": " + issue.message);
      if (c.ok()) out.push_back(c.node);
    }
    return out;
  }

  void read_modes(const toml::table& doc) {
    const toml::table* t = table_at(doc, "modes", "the file", true);
    if (t == nullptr) return;
    const Keyed modes = ordered(*t);
    // Names first: guards may target modes declared after them.
    for (const auto& [k, v] : modes) {
      ModelMode m;
      m.name = k;
      if (!is_identifier(k)) {
        add(*v, "mode name '" + k + "' is not a valid name; expected letters, digits or '_'");
      }
      model_.modes.push_back(m);
      mode_names_.push_back(k);
    }
    for (size_t i = 0; i < modes.size(); ++i) {
      if (!modes[i].second->is_table()) {
        add(*modes[i].second, "mode '" + modes[i].first + "' is " + type_name(*modes[i].second) +
                                  "; expected a table");
        continue;
      }
      read_mode(*modes[i].second->as_table(), model_.modes[i]);
    }
    if (modes.empty()) add(*t, "[modes] declares no mode; expected at least one");
  }

  int target_mode(const toml::node* n, int self, const std::string& what) {
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

  void read_mode(const toml::table& t, ModelMode& mode) {
    const std::string where = "mode '" + mode.name + "'";
    const int self = model_.mode_index(mode.name);
    check_keys(t, where, {"flow", "residuals", "algebraic", "constraints", "guards", "zeno"});
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
        if (!is_identifier(q.name) || is_reserved_name(q.name) ||
            std::find(state_names_.begin(), state_names_.end(), q.name) != state_names_.end() ||
            constants_.count(q.name) != 0) {
          add(*a, where + ": algebraic state name '" + q.name + "' is invalid or already used");
        }
        alg.push_back(q.name);
      }
    }
    const SymbolTable s = symbols(alg);
    const int nx = static_cast<int>(state_names_.size());
    const toml::node* flow = t.get("flow");
    const toml::node* res = t.get("residuals");
    if (flow != nullptr && res != nullptr) {
      add(*res, where + " has both 'flow' and 'residuals'; expected one of them");
    } else if (flow != nullptr) {
      mode.kind = alg.empty() ? FlowKind::Ode : FlowKind::SemiExplicitDae;
      auto eqs = assignments(*flow, where + " flow", s, true, alg);
      mode.flow.assign(static_cast<size_t>(nx), kNoNode);
      std::vector<bool> given(static_cast<size_t>(nx), false);
      for (auto& e : eqs) {
        mode.flow[static_cast<size_t>(e.state)] = std::move(e.value);
        given[static_cast<size_t>(e.state)] = true;
      }
      if (flow->is_array() && static_cast<size_t>(std::count(given.begin(), given.end(), true)) ==
                                  flow->as_array()->size()) {
        for (int i = 0; i < nx; ++i) {
          if (!given[static_cast<size_t>(i)]) {
            add(*flow, where + " flow gives no equation for " + state_names_[i] + "'; expected \"" +
                           state_names_[i] + "' = ...\"");
          }
        }
      }
    } else if (res != nullptr) {
      mode.kind = FlowKind::ImplicitDae;
      SymbolTable sr = s;
      sr.allow_state_rate = true;
      mode.flow = residuals(*res, where + " residuals", sr);
      const size_t given = res->is_array() ? res->as_array()->size() : 0;
      if (given == mode.flow.size() && given != static_cast<size_t>(nx)) {
        add(*res, where + " has " + std::to_string(given) + " residuals for " + std::to_string(nx) +
                      " differential states; expected " + std::to_string(nx) +
                      " (index 1: one per state)");
      }
    } else {
      add(t, where + " has no 'flow' (x' = ...) or 'residuals'; expected one of them");
    }
    if (const toml::node* c = t.get("constraints")) {
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

  void read_guard(const toml::table& g, ModelMode& mode, int self, const SymbolTable& s) {
    check_keys(g, "a guard of mode '" + mode.name + "'",
               {"name", "value", "direction", "target", "reset", "terminal"});
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
      if (is_comparison(graph_->node(*p).op)) {
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
    guard.target = target_mode(g.get("target"), self, where);
    if (const toml::node* r = g.get("reset")) {
      for (auto& a : assignments(*r, where + " reset", s, false, s.algebraic)) {
        guard.reset.push_back({a.state, a.value});
      }
    }
    if (const toml::node* term = g.get("terminal")) {
      if (term->is_boolean()) {
        guard.terminal = *term->value<bool>();
      } else {
        add(*term, where + " terminal is " + type_name(*term) + "; expected true or false");
      }
    }
    mode.guards.push_back(std::move(guard));
  }

  void read_initial(const toml::table& doc) {
    const toml::table* t = table_at(doc, "initial", "the file", false);
    if (t != nullptr) {
      check_keys(
          *t, "[initial]",
          model_.mechanics ? std::vector<std::string>{"t"} : std::vector<std::string>{"mode", "t"});
    }
    const toml::node* m = t != nullptr && !model_.mechanics ? t->get("mode") : nullptr;
    if (m == nullptr) {
      if (model_.modes.size() > 1) {
        add(t != nullptr ? static_cast<int>(t->source().begin.line) : 0, 0,
            "no initial mode; expected [initial] mode = \"<one of " + join(mode_names_) + ">\"");
      }
      model_.initial_mode = 0;
    } else {
      model_.initial_mode = target_mode(m, 0, "[initial] mode");
    }
    if (t != nullptr) {
      if (const toml::node* n = t->get("t")) {
        if (auto v = number(*n, "[initial] t")) model_.t_start = *v;
      }
    }
  }

  void read_solver(const toml::table& doc) {
    const toml::table* t = table_at(doc, "solver", "the file", false);
    SimulationOptions& o = model_.options;
    o.stepper.rtol = 1e-8;
    o.stepper.atol = 1e-10;
    if (t == nullptr) {
      add(0, 0, "missing [solver] t_end; expected the end time of the simulation");
      return;
    }
    check_keys(
        *t, "[solver]",
        {"t_end", "integrator", "rtol", "atol", "h_max", "h_initial", "root_finder",
         "guard_samples", "detect_grazing", "predictive_step", "predictive_gamma", "max_events",
         "zeno_policy", "zeno_handover_tolerance", "zeno_cycles", "zeno_ratio_tolerance"});
    // Counts are checked against their limit here, at the key's line, before the cast (2^31
    // into an int would wrap negative).
    auto num = [&](const char* key, auto& field, double limit = kInfinity) {
      if (const toml::node* n = t->get(key)) {
        if (auto v = number(*n, std::string("[solver] ") + key)) {
          using F = std::decay_t<decltype(field)>;
          if constexpr (std::is_integral_v<F>) {
            if (!(std::abs(*v) < 1e15) || std::floor(*v) != *v) {
              add(*n, std::string("[solver] ") + key + " must be an integer");
              return;
            }
            if (*v > limit) {
              add(*n, std::string("[solver] ") + key + " = " + format_count(*v) +
                          " exceeds the limit of " + format_count(limit));
              return;
            }
          }
          field = static_cast<F>(*v);
        }
      }
    };
    if (const toml::node* n = t->get("t_end")) {
      if (auto v = number(*n, "[solver] t_end")) model_.t_end = *v;
    } else {
      add(*t, "[solver] has no t_end; expected the end time of the simulation");
    }
    num("rtol", o.stepper.rtol);
    num("atol", o.stepper.atol);
    num("h_max", o.stepper.h_max);
    num("h_initial", o.stepper.h_initial);
    num("guard_samples", o.events.guard_samples, SimulationOptionLimits::guard_samples);
    num("predictive_gamma", o.events.predictive_gamma);
    num("max_events", o.events.max_events, SimulationOptionLimits::max_events);
    num("zeno_handover_tolerance", o.zeno.handover_tolerance);
    num("zeno_cycles", o.zeno.cycles, SimulationOptionLimits::zeno_cycles);
    num("zeno_ratio_tolerance", o.zeno.ratio_tolerance);
    auto flag = [&](const char* key, bool& field) {
      if (const toml::node* n = t->get(key)) {
        if (n->is_boolean()) {
          field = *n->value<bool>();
        } else {
          add(*n,
              std::string("[solver] ") + key + " is " + type_name(*n) + "; expected true or false");
        }
      }
    };
    flag("predictive_step", o.events.predictive_step);
    flag("detect_grazing", o.events.detect_grazing);
    auto choice = [&](const char* key, const std::vector<std::string>& names) -> int {
      const toml::node* n = t->get(key);
      if (n == nullptr) return -1;
      const auto v = string(*n, std::string("[solver] ") + key);
      if (!v) return -1;
      const auto it = std::find(names.begin(), names.end(), *v);
      if (it == names.end()) {
        add(*n, std::string("[solver] ") + key + " '" + *v + "'; expected one of " + join(names));
        return -1;
      }
      return static_cast<int>(it - names.begin());
    };
    if (const int i = choice("integrator", {"dopri5", "dop853", "radau5"}); i >= 0) {
      o.integrator = static_cast<Integrator>(i);
    }
    static const std::vector<std::pair<std::string, events::RootFinderKind>> kFinders = {
        {"brent", events::RootFinderKind::Brent},
        {"anderson_bjorck", events::RootFinderKind::AndersonBjorck},
        {"illinois", events::RootFinderKind::Illinois},
        {"bisection", events::RootFinderKind::Bisection},
        {"newton", events::RootFinderKind::Newton},
    };
    std::vector<std::string> finder_names;
    for (const auto& f : kFinders) finder_names.push_back(f.first);
    if (const int i = choice("root_finder", finder_names); i >= 0) {
      o.events.root_finder = kFinders[static_cast<size_t>(i)].second;
    }
    if (const int i = choice("zeno_policy", {"handover", "stop", "off"}); i >= 0) {
      o.zeno.policy = static_cast<events::ZenoOptions::Policy>(i);
    }
    if (!(model_.t_end > model_.t_start)) {
      add(t->get("t_end") != nullptr ? *t->get("t_end") : static_cast<const toml::node&>(*t),
          "t_end = " + std::to_string(model_.t_end) +
              " must be after the initial t = " + std::to_string(model_.t_start));
    }
    solver_table_ = t;
  }

  void read_output(const toml::table& doc) {
    OutputOptions& out = model_.options.output;
    const toml::table* t = table_at(doc, "output", "the file", false);
    int samples = 1001;
    if (t != nullptr) {
      check_keys(*t, "[output]",
                 {"sample_times", "sample_interval", "samples", "variables", "record_steps"});
      if (const toml::node* n = t->get("sample_times")) {
        if (!n->is_array()) {
          add(*n, "[output] sample_times is " + type_name(*n) + "; expected an array of times");
        } else {
          for (const toml::node& e : *n->as_array()) {
            if (auto v = number(e, "sample time")) out.sample_times.push_back(*v);
          }
          if (!std::is_sorted(out.sample_times.begin(), out.sample_times.end())) {
            add(*n, "[output] sample_times must be sorted ascending");
          }
          samples = 0;
        }
      }
      if (const toml::node* n = t->get("samples")) {
        if (auto v = number(*n, "[output] samples")) {
          if (*v < 0 || *v > 1e7 || std::floor(*v) != *v) {
            add(*n, "[output] samples must be an integer in [0, 1e7]");
          } else {
            samples = static_cast<int>(*v);
          }
        }
      }
      if (const toml::node* n = t->get("sample_interval")) {
        if (auto v = number(*n, "[output] sample_interval")) {
          const double count = (model_.t_end - model_.t_start) / *v;
          if (!(*v > 0) || !(count < 1e7)) {
            add(*n, "[output] sample_interval must be positive and give at most 1e7 samples");
          } else {
            samples = static_cast<int>(std::floor(count + 1e-9)) + 1;
          }
        }
      }
      if (const toml::node* n = t->get("record_steps")) {
        if (n->is_boolean()) {
          out.record_steps = *n->value<bool>();
        } else {
          add(*n, "[output] record_steps is " + type_name(*n) + "; expected true or false");
        }
      }
      if (const toml::node* n = t->get("variables")) {
        if (const toml::array* a = array_of_strings(*n, "[output] variables")) {
          for (const toml::node& e : *a) {
            const std::string v = *e.value<std::string>();
            bool known =
                std::find(state_names_.begin(), state_names_.end(), v) != state_names_.end();
            for (const ModelMode& m : model_.modes) {
              for (const Quantity& q : m.algebraic) known = known || q.name == v;
            }
            if (!known) {
              add(e, "[output] variable '" + v + "' is not a state or algebraic state; " +
                         "expected one of " + join(state_names_) + " or an algebraic state");
            }
            model_.output_variables.push_back(v);
          }
        }
      }
    }
    if (out.sample_times.empty() && samples > 0) {
      const double span = model_.t_end - model_.t_start;
      if (std::isfinite(span) && span > 0) {
        for (int i = 0; i < samples; ++i) {
          out.sample_times.push_back(samples == 1 ? model_.t_start
                                                  : model_.t_start + span * i / (samples - 1));
        }
      }
    }
    out.reserve_samples = static_cast<long>(out.sample_times.size()) + 64;
    const std::string problems = model_.options.validate();
    if (!problems.empty()) {
      std::istringstream in(problems);
      std::string line;
      while (std::getline(in, line)) {
        if (solver_table_ != nullptr) {
          add(*solver_table_, "[solver]: " + line);
        } else {
          add(0, 0, "[solver]: " + line);
        }
      }
    }
  }

  std::string_view text_;
  std::string file_;
  std::vector<std::string> lines_;
  Model model_;
  std::shared_ptr<ExpressionGraph> graph_ = std::make_shared<ExpressionGraph>();
  std::map<std::string, double, std::less<>> constants_;
  std::map<std::string, std::string> names_;
  std::vector<std::string> state_names_;
  std::vector<std::string> mode_names_;
  std::vector<int> velocity_of_;  // mechanical models: index of q' for coordinate q
  const toml::table* solver_table_ = nullptr;
};

}  // namespace

std::vector<Diagnostic> check_model_text(std::string_view text, const std::string& file_name,
                                         const std::vector<std::string>& overrides) {
  Loader loader(text, file_name);
  const Model m = loader.load(overrides);
  if (!loader.diagnostics.empty()) return loader.diagnostics;
  // What run would refuse or fail on at t0 (model_start_check.hpp).
  std::vector<Diagnostic> problems = check_model_values(m);
  if (problems.empty()) problems = check_model_start(m);
  return problems;
}

Model load_model_text(std::string_view text, const std::string& file_name,
                      const std::vector<std::string>& overrides) {
  Loader loader(text, file_name);
  Model m = loader.load(overrides);
  if (!loader.diagnostics.empty()) throw ModelError(loader.diagnostics);
  if (auto problems = check_model_values(m); !problems.empty()) throw ModelError(problems);
  return m;
}

std::vector<Diagnostic> check_model_file(const std::filesystem::path& path,
                                         const std::vector<std::string>& overrides) {
  std::vector<Diagnostic> d;
  const std::string text = read_model_file_text(path, d);
  if (!d.empty()) return d;
  return check_model_text(text, path.string(), overrides);
}

Model load_model_file(const std::filesystem::path& path,
                      const std::vector<std::string>& overrides) {
  std::vector<Diagnostic> d;
  const std::string text = read_model_file_text(path, d);
  if (!d.empty()) throw ModelError(d);
  return load_model_text(text, path.string(), overrides);
}

}  // namespace saltus::model
