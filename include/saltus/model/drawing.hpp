// The [drawing] section of a model file: how to draw the bodies of a run (docs/MODEL_FORMAT.md
// "Drawing"). Each shape's points are expressions of t, the parameters and the states (no
// algebraic states: a drawing is evaluated at every sample, whatever its mode), optionally in
// body coordinates placed by a pose (x, y, angle). The expressions live in the model's
// ExpressionGraph; drawing_table() evaluates them along a run for `saltus animate`.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::model {

enum class ShapeKind { Segment, Polygon, Circle, Point };

// "segment", "polygon", "circle", "point".
const char* to_string(ShapeKind kind);

struct DrawingShape {
  std::string name;
  ShapeKind kind = ShapeKind::Segment;
  // Segment: a polyline of >= 2 points; polygon: >= 3 (closed); circle and point: 1 (the centre).
  std::vector<std::array<lang::NodeId, 2>> points;
  lang::NodeId radius = lang::kNoNode;  // circles only
  // With a pose the points are body coordinates: world = (px, py) + R(angle) (bx, by).
  std::optional<std::array<lang::NodeId, 3>> pose;
  std::string color;  // a matplotlib colour; "" lets the script choose
  double width = 2.0;
  bool fill = false;
};

struct ModelDrawing {
  std::vector<DrawingShape> shapes;
  std::optional<std::array<double, 4>> view;  // xmin, xmax, ymin, ymax; none: fit every frame
};

}  // namespace saltus::model
