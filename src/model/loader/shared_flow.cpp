// flow = "@other" (docs/MODEL_FORMAT.md "Shared flows"): modes that differ only in their
// guards (a walker's stance before and after its mid-stance scuff) write their flow once.
#include "model_reader.hpp"

namespace saltus::model::loader {

// flow = "@other": mode `mode` has the flow of mode `other` (its equations or residuals, its
// algebraic states and constraints); nullptr, reported, when that cannot be.
const ModelMode* ModelReader::shared_flow(const toml::table& t, const ModelMode& mode) {
  const toml::node& flow = *t.get("flow");
  const std::string text = *flow.value<std::string>();
  const std::string where = "mode '" + mode.name + "' flow '" + text + "'";
  if (text.empty() || text.front() != '@') {
    add(flow, where + " is a string; expected the equations [\"x' = ...\", ...] or \"@<mode>\" " +
                  "(the flow of another mode)");
    return nullptr;
  }
  const std::string other = text.substr(1);
  const int index = model_.mode_index(other);
  if (index < 0 || other == mode.name) {
    add(flow, where + (index < 0 ? " names no mode" : " names the mode itself") +
                  "; expected \"@<another mode>\", one of " + join(mode_names_));
    return nullptr;
  }
  for (const char* key : {"residuals", "algebraic", "constraints"}) {
    if (const toml::node* k = t.get(key)) {
      add(*k, "mode '" + mode.name + "' has '" + key + "' and shares the flow of '" + other +
                  "'; expected neither: a shared flow brings its residuals, algebraic states " +
                  "and constraints");
      return nullptr;
    }
  }
  const ModelMode& source = model_.modes[static_cast<size_t>(index)];
  if (sharing_modes_.count(other) != 0) {
    add(flow, where + ": mode '" + other + "' shares a flow itself; expected a mode whose " +
                  "flow or residuals are written out");
    return nullptr;
  }
  if (source.flow.empty()) return nullptr;  // its own problem is reported already
  return &source;
}

}  // namespace saltus::model::loader
