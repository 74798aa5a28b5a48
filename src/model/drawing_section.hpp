// Reader of the [drawing] section of a model file (docs/MODEL_FORMAT.md "Drawing"), called by
// the model loader with its own expression parser and diagnostics, so that a drawing's
// expressions are checked like every other expression (unknown names with file, line, column).
#pragma once

#include <toml++/toml.h>

#include <functional>
#include <optional>
#include <string>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/model/drawing.hpp"

namespace saltus::model {

struct DrawingSectionContext {
  lang::ExpressionGraph& graph;
  // Parses a string node as an expression of t, the parameters and the states; reports its
  // problems and returns nothing when it has some.
  std::function<std::optional<lang::NodeId>(const toml::node&, const std::string& what)> expression;
  // Reports a problem at a node.
  std::function<void(const toml::node&, const std::string& message)> error;
};

// The drawing described by `section` (the value of the top-level key "drawing"); nothing when
// it has problems (each reported through ctx.error).
std::optional<ModelDrawing> read_drawing_section(const toml::node& section,
                                                 const DrawingSectionContext& ctx);

}  // namespace saltus::model
