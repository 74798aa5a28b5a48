#include "analysis_setup.hpp"

#include <cmath>
#include <iostream>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"

namespace saltus::cli {

bool load_for_analysis(const std::string& path, const std::vector<std::string>& set,
                       LoadedModel& out, const std::vector<std::string>& runtime,
                       const std::vector<std::string>& as_states) {
  try {
    model::LoadOptions options;
    options.runtime_parameters = runtime;
    options.parameters_as_states = as_states;
    auto m = std::make_shared<const model::Model>(model::load_model_file(path, set, options));
    out.start = model::prepare_model_run(m, out.run);
  } catch (const model::ModelError& e) {
    std::cerr << e.what() << "\n" << path << ": " << e.diagnostics().size() << " problem(s)\n";
    return false;
  } catch (const Error& e) {
    std::cerr << path << ": error: " << e.what() << "\n";
    return false;
  }
  return true;
}

bool is_parameter(const model::Model& m, const std::string& name) {
  for (const model::Quantity& p : m.parameters) {
    if (p.name == name) return true;
  }
  return false;
}

Range parse_range(const std::string& text, bool with_count) {
  const std::string form = with_count ? "NAME=A:B:N" : "NAME=A:B";
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw Error("'" + text + "' is not " + form);
  }
  Range r;
  r.name = text.substr(0, eq);
  std::vector<std::string> parts;
  std::string rest = text.substr(eq + 1);
  size_t start = 0;
  while (true) {
    const auto colon = rest.find(':', start);
    parts.push_back(rest.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() != (with_count ? 3u : 2u)) throw Error("'" + text + "' is not " + form);
  try {
    size_t used = 0;
    r.a = std::stod(parts[0], &used);
    if (used != parts[0].size()) throw std::invalid_argument("a");
    r.b = std::stod(parts[1], &used);
    if (used != parts[1].size()) throw std::invalid_argument("b");
    if (with_count) {
      r.n = std::stol(parts[2], &used);
      if (used != parts[2].size()) throw std::invalid_argument("n");
    }
  } catch (const std::exception&) {
    throw Error("'" + text + "': A, B" + std::string(with_count ? " and N" : "") +
                " must be numbers (" + form + ")");
  }
  if (!std::isfinite(r.a) || !std::isfinite(r.b))
    throw Error("'" + text + "': A and B must be finite");
  if (with_count && (r.n < 1 || r.n > 100000)) {
    throw Error("'" + text + "': N must be between 1 and 100000");
  }
  if (!with_count && r.a == r.b) throw Error("'" + text + "': A and B must differ");
  return r;
}

}  // namespace saltus::cli
