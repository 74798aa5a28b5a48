// A [[bodies]] body on a revolute joint to an earlier body (issue 48): instead of its own
// orientation, `hinge = { axis = [ax, ay, az], angle = "beta" }` turns it by the angle beta (an
// expression of the coordinates, usually one) about the axis, fixed in the parent's body axes:
// R = R_p Rot(a, beta), its body axes the parent's at beta = 0. Its angular velocity in body axes
// is w = Rot' w_p + beta' a (the axis is its own image under Rot). The joint's pivot is the
// spherical joint's: `parent`, `parent_point` and `fixed_point` (bodies_reader.cpp). Refused at
// the key, naming the body: no parent (or one declared later), an axis of length 0 or not three
// entries, an angle missing or reading t or the velocities.
#include <algorithm>

#include "model_reader.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {

std::optional<ModelReader::Hinge> ModelReader::body_hinge(const toml::table& t,
                                                          const std::string& where) {
  using lang::NodeId;
  using lang::OpCode;
  lang::ExpressionGraph& g = *graph_;
  const toml::node& node = *t.get("hinge");
  const toml::table* h = node.as_table();
  const std::string expected =
      "; expected hinge = { axis = [x, y, z], angle = \"beta\" }, the "
      "axis in the parent's body axes";
  if (h == nullptr) {
    add(node, where + " hinge is " + type_name(node) + expected);
    return std::nullopt;
  }
  check_keys(*h, where + " hinge", {"axis", "angle"});
  Hinge out;
  const toml::node* parent = t.get("parent");
  if (parent == nullptr) {
    add(node, where + " has a hinge but no parent; expected parent = \"<body>\", the earlier " +
                  "body it turns on");
    return std::nullopt;
  }
  const auto name = string(*parent, where + " parent");
  if (!name) return std::nullopt;
  const auto frame = std::find_if(body_frames_.begin(), body_frames_.end(),
                                  [&](const BodyFrame& f) { return f.name == *name; });
  if (frame == body_frames_.end()) {
    add(*parent, where + " parent '" + *name + "' is no body declared before it; expected the " +
                     "name of an earlier [[bodies]] body");
    return std::nullopt;
  }
  out.parent = &*frame;
  const auto axis = body_vector(*h, "axis", where + " hinge");
  const toml::node* angle = h->get("angle");
  if (!axis || angle == nullptr) {
    if (h->get("axis") == nullptr) add(*h, where + " hinge has no axis" + expected);
    if (angle == nullptr) add(*h, where + " hinge has no angle" + expected);
    return std::nullopt;
  }
  const auto beta = angle->value<double>()
                        ? std::optional<NodeId>(g.constant(*angle->value<double>()))
                        : expression(*angle, where + " hinge angle", symbols({}));
  if (!beta) return std::nullopt;
  if (const std::string culprit = forbidden_input(*beta, false); !culprit.empty()) {
    add(*angle, where + " hinge angle depends on " + culprit +
                    "; expected a function of the coordinates and parameters");
    return std::nullopt;
  }
  // The axis made unit; a zero axis is refused with its length.
  NodeId length2 = g.constant(0.0);
  for (NodeId a : *axis) length2 = g.make(OpCode::Add, length2, g.make(OpCode::Mul, a, a));
  const Vector x0 = model_.initial_state(), none(0);
  const double at_start =
      lang::evaluate(lang::compile_tape(g, {{length2, 0}}), model_.t_start, x0, x0, none);
  if (!(at_start > 0.0)) {
    add(*h->get("axis"), where + " hinge axis has length 0" + expected);
    return std::nullopt;
  }
  const NodeId length = g.make(OpCode::Sqrt, length2);
  for (size_t k = 0; k < 3; ++k) out.axis[k] = g.make(OpCode::Div, (*axis)[k], length);
  out.angle = *beta;
  return out;
}

}  // namespace saltus::model::loader
