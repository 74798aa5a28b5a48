// The TOML front end of the model-file loader (model_reader.hpp): the syntax pre-check, the
// order in which sections are read, diagnostics with file, line and column, and the value
// readers every section uses (numbers, names, quantities, parameters); and the entry points of
// model_loader.hpp. (Just over 450 lines: the value readers are shared by every section reader.)
#include "model_reader.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

#include "../initial_projection.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_start_check.hpp"
#include "unit_check.hpp"

namespace saltus::model::loader {

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

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

std::string short_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

namespace {

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

}  // namespace

ModelReader::ModelReader(std::string_view text, std::string file)
    : text_(text), file_(std::move(file)) {
  std::string line;
  std::istringstream in{std::string(text)};
  while (std::getline(in, line)) lines_.push_back(line);
  constants_.allow_time = false;
}

Model ModelReader::load(const std::vector<std::string>& overrides) {
  model_.file = file_;
  model_.graph = graph_;
  graph_->share_parameter_values(runtime_values_);
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
             {"model", "parameters", "let", "states", "discrete", "initial", "modes", "coordinates",
              "mechanics", "hamiltonian", "contacts", "bodies", "solver", "output", "outputs",
              "drawing", "sections"});
  read_model_section(doc);
  read_parameters(doc);
  check_runtime_parameters();
  if (!promote_.empty() && !doc.contains("modes")) {
    add(0, 0,
        "parameters loaded as states need a model with [states] and [modes]; a mechanical or "
        "Hamiltonian model folds its parameters into its contact laws: differentiate it with "
        "rebuilt_parameter_sensitivity (what saltus sensitivity --parameters does for it)");
  }
  if (doc.contains("hamiltonian")) {
    // A Hamiltonian model: expanded into modes and guards (hamiltonian_reader.cpp).
    for (const char* key : {"states", "discrete", "modes", "mechanics"}) {
      if (const toml::node* n = doc.get(key)) {
        add(*n, std::string("[") + key + "] in a Hamiltonian model ([coordinates], " +
                    "[hamiltonian], [[contacts]]); expected one form of model, not both");
      }
    }
    read_coordinates(doc, true);
    read_lets(doc);
    read_hamiltonian(doc);
  } else if (doc.contains("coordinates") || doc.contains("mechanics") || doc.contains("contacts") ||
             doc.contains("bodies")) {
    // A mechanical model: its states and modes follow from the coordinates and contacts.
    for (const char* key : {"states", "discrete", "modes"}) {
      if (const toml::node* n = doc.get(key)) {
        add(*n, std::string("[") + key + "] in a mechanical model ([coordinates], " +
                    "[mechanics], [[contacts]]); expected either a mechanical model or " +
                    "[states] and [modes], not both");
      }
    }
    read_coordinates(doc);
    read_lets(doc);
    read_mechanics(doc);
    read_contacts(doc);
  } else {
    read_states(doc);
    read_discrete(doc);
    add_parameter_states();
    read_following_parameters();
    read_lets(doc);
    read_modes(doc);
  }
  read_outputs(doc);
  read_initial(doc);
  read_solver(doc);
  read_output(doc);
  if (const toml::node* d = doc.get("drawing")) read_drawing(*d);
  read_sections(doc);
  UnitCheck(*this, doc).run();
  if (diagnostics.empty() && !doc.contains("hamiltonian")) {
    if (smooth_switches_ || model_.mechanics) {
      note_discontinuities();
    } else {
      lower_switches();
    }
  }
  return model_;
}
// ------------------------------------------------------------------ diagnostics
void ModelReader::add(int line, int column, std::string message) {
  diagnostics.push_back({file_, line, column, std::move(message)});
}
void ModelReader::add(const toml::node& n, std::string message) {
  const auto& b = n.source().begin;
  add(static_cast<int>(b.line), static_cast<int>(b.column), std::move(message));
}
// Column of character `offset` of the string value `n` (inside its quotes when it is a
// one-line string; its first character otherwise).
std::pair<int, int> ModelReader::string_position(const toml::node& n, int offset) const {
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
void ModelReader::add_at(const toml::node& n, int offset, std::string message) {
  const auto [line, column] = string_position(n, offset);
  add(line, column, std::move(message));
}

// ------------------------------------------------------------------ helpers
Keyed ModelReader::ordered(const toml::table& t) const {
  Keyed out;
  for (auto&& [k, v] : t) out.emplace_back(std::string(k.str()), &v);
  const auto position = [this](const toml::node* n) {
    const auto r = replaced_at_.find(n);
    return r != replaced_at_.end() ? r->second : n->source().begin;
  };
  std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    const auto pa = position(a.second), pb = position(b.second);
    return std::tie(pa.line, pa.column) < std::tie(pb.line, pb.column);
  });
  return out;
}

void ModelReader::check_keys(const toml::table& t, const std::string& where,
                             const std::vector<std::string>& known) {
  for (const auto& [k, v] : ordered(t)) {
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      add(*v, "unknown key '" + k + "' in " + where + "; expected one of " + join(known));
    }
  }
}

const toml::table* ModelReader::table_at(const toml::table& parent, const std::string& key,
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

std::optional<double> ModelReader::number(const toml::node& n, const std::string& what) {
  if (n.is_integer() || n.is_floating_point()) return n.value<double>();
  if (n.is_string()) {
    // A constant expression of the parameters read so far, e.g. "sqrt(2*g*h0)".
    const std::string text = *n.value<std::string>();
    if (const std::string used = mentioned_in(n, runtime_read_); !used.empty()) {
      add(n, what + " '" + text + "' reads run-time parameter '" + used + "', but it is " +
                 "computed once when the model is loaded; expected a number or an expression " +
                 "of parameters that are not run-time");
      return std::nullopt;
    }
    const lang::CompiledExpression c = lang::compile_expression(text, constants_);
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

std::optional<std::string> ModelReader::string(const toml::node& n, const std::string& what) {
  if (n.is_string()) return n.value<std::string>();
  add(n, what + " is " + type_name(n) + "; expected a string");
  return std::nullopt;
}

bool ModelReader::new_name(const toml::node& n, const std::string& name, const std::string& what) {
  if (!lang::is_identifier(name)) {
    add(n, what + " name '" + name + "' is not a valid name; expected a letter or '_' " +
               "followed by letters, digits or '_'");
    return false;
  }
  if (lang::is_reserved_name(name)) {
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

// A number or { value|initial|guess = number, unit = "..." }.
std::optional<Quantity> ModelReader::quantity(const std::string& name, const toml::node& n,
                                              const std::string& what, const char* field,
                                              bool required) {
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
        add(n,
            what + " '" + name + "' has no " + field + " value; expected " + field + " = <number>");
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

void ModelReader::read_parameters(const toml::table& doc) {
  const toml::table* t = table_at(doc, "parameters", "the file", false);
  if (t == nullptr) return;
  for (const auto& [k, v] : ordered(*t)) {
    if (!new_name(*v, k, "parameter")) continue;
    if (const std::string used = mentioned_in(*v, runtime_); !used.empty()) {
      add(*v, "parameter '" + k + "' is computed from run-time parameter '" + used + "' when " +
                  "the model is loaded, so it would not follow a new value of '" + used +
                  "'; expected a number for '" + k + "', or '" + k + "' run-time as well");
      continue;
    }
    if (!mentioned_in(*v, varying_parameters()).empty()) {
      following_.emplace_back(k, v);  // follows it: read once it is a state
      continue;
    }
    if (auto q = quantity(k, *v, "parameter", "value", true)) {
      model_.parameters.push_back(*q);
      if (std::find(promote_.begin(), promote_.end(), k) != promote_.end()) {
        promoted_.push_back(*q);  // a state from read_states on, not a constant
      } else if (std::find(runtime_.begin(), runtime_.end(), k) != runtime_.end()) {
        model_.runtime_parameters.push_back(static_cast<int>(model_.parameters.size()) - 1);
        runtime_read_.push_back(k);
        runtime_values_->push_back(q->value);
      } else {
        constants_.constants[k] = q->value;
      }
    }
  }
}

}  // namespace saltus::model::loader

namespace saltus::model {

using loader::ModelReader;

std::vector<Diagnostic> check_model_text(std::string_view text, const std::string& file_name,
                                         const std::vector<std::string>& overrides) {
  ModelReader loader(text, file_name);
  Model m = loader.load(overrides);
  if (!loader.diagnostics.empty()) return loader.diagnostics;
  // What run would refuse or fail on at t0 (model_start_check.hpp).
  std::vector<Diagnostic> problems = check_model_values(m);
  if (problems.empty()) problems = project_initial_state(m);
  if (problems.empty()) problems = check_model_start(m);
  return problems;
}

Model load_model_text(std::string_view text, const std::string& file_name,
                      const std::vector<std::string>& overrides, const LoadOptions& options) {
  ModelReader loader(text, file_name);
  loader.promote(options.parameters_as_states);
  loader.keep_at_run_time(options.runtime_parameters);
  Model m = loader.load(overrides);
  if (!loader.diagnostics.empty()) throw ModelError(loader.diagnostics);
  if (auto problems = check_model_values(m); !problems.empty()) throw ModelError(problems);
  if (auto problems = project_initial_state(m); !problems.empty()) throw ModelError(problems);
  return m;
}

std::vector<Diagnostic> check_model_file(const std::filesystem::path& path,
                                         const std::vector<std::string>& overrides) {
  std::vector<Diagnostic> d;
  const std::string text = read_model_file_text(path, d);
  if (!d.empty()) return d;
  return check_model_text(text, path.string(), overrides);
}

Model load_model_file(const std::filesystem::path& path, const std::vector<std::string>& overrides,
                      const LoadOptions& options) {
  std::vector<Diagnostic> d;
  const std::string text = read_model_file_text(path, d);
  if (!d.empty()) throw ModelError(d);
  return load_model_text(text, path.string(), overrides, options);
}

}  // namespace saltus::model
