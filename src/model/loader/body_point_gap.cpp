// A contact on a point of a spatial rigid body (issue 48, stage 2): the gap derived from the
// body's frame instead of written by hand.
//
//   [[contacts]]
//   body = "cube"                  # a [[bodies]] body
//   point = ["-a", "-a", "-a"]     # in body axes, from the centre of mass
//   plane = [0, 0, 1, 0]           # n . x = d (default: the floor z = 0); n need not be unit
//   radius = "r"                   # optional: a sphere of that radius about the point
//   rim = "R", axis = [0, 0, 1]    # optional: a disk of radius R about the point, normal to
//                                  # axis (body axes); with radius, a torus of tube radius r
//   ellipsoid = ["a", "b", "c"]    # optional: an ellipsoid with these semi-axes along the body
//                                  # axes, centred at the point
//
// gap = (n . (c + R p) - d) / |n| - rim sqrt(1 - (n . R a)^2 / (|n| |a|)^2) - radius: the
// point's signed distance from the plane, less the depth of a disk's lowest rim point below its
// centre, less a sphere's (or the torus's tube's) radius, with c and R the body's
// (bodies_reader.cpp). An ellipsoid's lowest point lies sqrt(m^T E^2 m) below its centre, its
// support distance along -n, with m = R^T n / |n| the normal in body axes and E = diag(a, b, c).
// The disk's depth is not differentiable where it lies flat (n . a = 1: its whole rim touches),
// which no rim contact handles. Only frictionless laws: friction in space needs two tangent
// directions (stage 3).
#include <algorithm>
#include <cmath>

#include "model_reader.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {

lang::NodeId ModelReader::body_point_gap(const toml::table& t, const std::string& body,
                                         const std::string& where, ModelContact::BodyPoint& shape) {
  using lang::NodeId;
  using lang::OpCode;
  lang::ExpressionGraph& g = *graph_;
  const auto frame = std::find_if(body_frames_.begin(), body_frames_.end(),
                                  [&](const BodyFrame& f) { return f.name == body; });
  if (frame == body_frames_.end()) {
    std::string names;
    for (const BodyFrame& f : body_frames_) names += (names.empty() ? "" : ", ") + f.name;
    add(*t.get("point"), where + " has a point on body '" + body +
                             "', which is no [[bodies]] body; expected body = one of " +
                             (names.empty() ? std::string("(none declared)") : names));
    return lang::kNoNode;
  }
  const auto point = body_vector(t, "point", where);
  if (!point) return lang::kNoNode;
  // The plane n . x = d: four numbers or expressions of the parameters.
  std::array<NodeId, 4> plane{g.constant(0.0), g.constant(0.0), g.constant(1.0), g.constant(0.0)};
  if (const toml::node* n = t.get("plane")) {
    const toml::array* a = n->as_array();
    if (a == nullptr || a->size() != 4) {
      add(*n, where + " plane is " + type_name(*n) + "; expected [nx, ny, nz, d], the plane " +
                  "n . x = d the point must stay on the side n points to");
      return lang::kNoNode;
    }
    for (size_t k = 0; k < 4; ++k) {
      const toml::node& e = *a->get(k);
      if (auto x = e.value<double>()) {
        plane[k] = g.constant(*x);
        continue;
      }
      const auto node = expression(e, where + " plane", symbols({}));
      if (!node) return lang::kNoNode;
      const std::vector<lang::Variable> in = graph_->inputs(*node);
      if (std::any_of(in.begin(), in.end(),
                      [](const lang::Variable& v) { return v.kind == OpCode::State; })) {
        add(e, where + " plane depends on the coordinates; expected numbers or parameters " +
                   "(a fixed plane)");
        return lang::kNoNode;
      }
      plane[k] = *node;
    }
  }
  shape.point = *point;
  shape.plane = plane;
  const auto mul = [&g](NodeId a, NodeId b) { return g.make(OpCode::Mul, a, b); };
  const auto add_ = [&g](NodeId a, NodeId b) { return g.make(OpCode::Add, a, b); };
  NodeId along = g.constant(0.0), norm2 = g.constant(0.0);
  for (size_t i = 0; i < 3; ++i) {
    NodeId x = frame->c[i];
    for (size_t j = 0; j < 3; ++j) x = add_(x, mul(frame->R[i][j], (*point)[j]));
    along = add_(along, mul(plane[i], x));
    norm2 = add_(norm2, mul(plane[i], plane[i]));
  }
  const NodeId norm = g.make(OpCode::Sqrt, norm2);
  NodeId gap = g.make(OpCode::Div, g.make(OpCode::Sub, along, plane[3]), norm);
  // A length: a number or an expression of the parameters.
  const auto length = [&](const char* key) -> std::optional<NodeId> {
    const toml::node& r = *t.get(key);
    if (auto x = r.value<double>()) return g.constant(*x);
    return expression(r, where + " " + key, symbols({}));
  };
  // A disk's rim: its lowest point lies rim sqrt(1 - (n . a)^2) below its centre along the
  // unit normal n, a the disk's unit axis in the world (R axis / |axis|).
  if ((t.get("rim") != nullptr) != (t.get("axis") != nullptr)) {
    add(t, where + (t.get("rim") ? " has rim but no axis" : " has axis but no rim") +
               "; expected both: a disk of radius rim about the point, normal to axis (body axes)");
    return lang::kNoNode;
  }
  if (t.get("rim") != nullptr) {
    const auto axis = body_vector(t, "axis", where);
    const auto rim = length("rim");
    if (!axis || !rim) return lang::kNoNode;
    NodeId cosine = g.constant(0.0), axis2 = g.constant(0.0);
    for (size_t i = 0; i < 3; ++i) {
      NodeId a = g.constant(0.0);
      for (size_t j = 0; j < 3; ++j) a = add_(a, mul(frame->R[i][j], (*axis)[j]));
      cosine = add_(cosine, mul(plane[i], a));
      axis2 = add_(axis2, mul((*axis)[i], (*axis)[i]));
    }
    // (n . a)^2 with n and a made unit.
    const NodeId c2 = g.make(OpCode::Div, mul(cosine, cosine), mul(norm2, axis2));
    shape.rim = *rim;
    shape.axis = *axis;
    const NodeId drop = mul(*rim, g.make(OpCode::Sqrt, g.make(OpCode::Sub, g.constant(1.0), c2)));
    gap = g.make(OpCode::Sub, gap, drop);
  }
  if (t.get("ellipsoid") != nullptr) {
    if (t.get("rim") != nullptr) {
      add(*t.get("ellipsoid"),
          where + " has both rim and ellipsoid; expected one shape about " + "the point");
      return lang::kNoNode;
    }
    const auto axes = body_vector(t, "ellipsoid", where);
    if (!axes) return lang::kNoNode;
    const lang::Tape tape =
        lang::compile_tape(g, {{(*axes)[0], 0}, {(*axes)[1], 1}, {(*axes)[2], 2}});
    std::array<double, 3> v{};
    const Vector x0 = model_.initial_state(), none(0);
    lang::run(tape, model_.t_start, x0, x0, none,
              [&v](int k, double x) { v[static_cast<size_t>(k)] = x; });
    if (!(v[0] > 0.0 && v[1] > 0.0 && v[2] > 0.0)) {
      add(*t.get("ellipsoid"), where + " ellipsoid (" + short_number(v[0]) + ", " +
                                   short_number(v[1]) + ", " + short_number(v[2]) +
                                   ") has a semi-axis that is not positive; expected three " +
                                   "positive lengths along the body axes");
      return lang::kNoNode;
    }
    NodeId depth2 = g.constant(0.0);
    for (size_t j = 0; j < 3; ++j) {
      NodeId m = g.constant(0.0);  // (R^T n)_j
      for (size_t i = 0; i < 3; ++i) m = add_(m, mul(frame->R[i][j], plane[i]));
      const NodeId am = mul((*axes)[j], m);
      depth2 = add_(depth2, mul(am, am));
    }
    shape.ellipsoid = *axes;
    gap = g.make(OpCode::Sub, gap, g.make(OpCode::Sqrt, g.make(OpCode::Div, depth2, norm2)));
  }
  if (t.get("radius") != nullptr) {
    const auto radius = length("radius");
    if (!radius) return lang::kNoNode;
    shape.radius = *radius;
    gap = g.make(OpCode::Sub, gap, *radius);
  }
  return gap;
}

}  // namespace saltus::model::loader
