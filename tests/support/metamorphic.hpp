// What the metamorphic tests (tests/validation/metamorphic_test.cpp, unit_rescaling_test.cpp)
// compare: a model file's run, its events by name, and whether its physics reads t.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/operations.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"

namespace saltus::testing {

using model::Model;
using model::ModelRun;

inline ModelRun run_file(const std::filesystem::path& file, const std::vector<std::string>& set) {
  return model::run_model(std::make_shared<const Model>(model::load_model_file(file, set)));
}
inline ModelRun run_text(const std::string& text, const std::vector<std::string>& set) {
  return model::run_model(
      std::make_shared<const Model>(model::load_model_text(text, "variant.toml", set)));
}

// Whether any expression of the model reads t (a node that has the time leaf as an operand).
inline bool reads_time(const Model& m) {
  const lang::ExpressionGraph& g = *m.graph;
  for (int id = 0; id < g.size(); ++id) {
    const lang::ExpressionNode& n = g.node(id);
    for (const lang::NodeId operand : {n.a, n.b, n.c}) {
      if (operand != lang::kNoNode && g.node(operand).op == lang::OpCode::Time) return true;
    }
  }
  return !m.sections.empty() &&
         std::any_of(m.sections.begin(), m.sections.end(),
                     [](const model::ModelSection& s) { return s.period > 0.0; });
}

// An event as the suite compares it: the guard's name and the modes' names, with the contacts
// of an index-set mode in sorted order ("stick:right&stick:left" = "stick:left&stick:right").
struct NamedEvent {
  double t;
  std::string guard, mode_after;
};
inline std::string sorted_parts(const std::string& name) {
  std::vector<std::string> parts;
  size_t from = 0;
  while (true) {
    const size_t at = name.find('&', from);
    parts.push_back(name.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + 1;
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "&") + p;
  return out;
}
inline std::vector<NamedEvent> named_events(const ModelRun& r) {
  std::vector<NamedEvent> out;
  const EventLog& log = r.result.events;
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& e = log[i];
    const Mode& before = r.system.mode(e.mode_before);
    const std::string guard = e.guard == kZenoHandoverGuard
                                  ? "zeno-handover"
                                  : before.guards[static_cast<size_t>(e.guard)].name;
    out.push_back({e.t, guard, sorted_parts(r.system.mode(e.mode_after).name)});
  }
  return out;
}

}  // namespace saltus::testing
