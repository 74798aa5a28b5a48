// The slip velocity of a contact on a [[bodies]] body (issue 48, stage 3): friction in space.
//
// The contact point is x_c = c + r with the lever arm r = R p (the point), plus rim u for a disk's
// rim (u the unit vector in the disk's plane pointing down the plane's normal, towards its lowest
// point), less R E^2 m / sqrt(m^T E^2 m) for an ellipsoid (its lowest point; m = R^T n, E the
// semi-axes), less radius n for a sphere or a torus's tube (n the plane's unit normal). The body's
// material point there moves at v = c' + (R w) x r (w the angular velocity in body axes,
// bodies_reader.cpp), and its slip velocity is gamma_k = t_k . v along two orthonormal tangent
// directions of the plane: t_1 = e x n / |e x n| with e the world axis least aligned with n (at
// the model's parameter values when loaded), t_2 = n x t_1. Each gamma_k is linear in q', so its
// row eta_k(q) = d gamma_k / dq' (mechanical_system.cpp) gives gamma_k = eta_k(q) q'. With
// `drilling = l` a third slip velocity gamma_3 = l (R w) . n, the spin about the normal scaled
// to a speed, shares the contact's cone (drilling friction, docs/MODEL_FORMAT.md). With
// `rolling = mu_r` the rolling rates mu_r (R w) . t_k, the spin about each tangent direction
// scaled to a speed, have a cone of their own (rolling resistance, docs/MODEL_FORMAT.md).
#include <algorithm>
#include <cmath>

#include "model_reader.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {

void ModelReader::body_point_slip(const ModelContact::BodyPoint& shape, ModelContact& c) {
  const std::string& body = c.body;
  const lang::NodeId drilling = c.drilling;
  using lang::NodeId;
  using lang::OpCode;
  lang::ExpressionGraph& g = *graph_;
  const int n = model_.mechanics->dof;
  const BodyFrame& frame = *std::find_if(body_frames_.begin(), body_frames_.end(),
                                         [&](const BodyFrame& f) { return f.name == body; });
  const auto mul = [&g](NodeId a, NodeId b) { return g.make(OpCode::Mul, a, b); };
  const auto add_ = [&g](NodeId a, NodeId b) { return g.make(OpCode::Add, a, b); };
  const auto sub = [&g](NodeId a, NodeId b) { return g.make(OpCode::Sub, a, b); };
  const auto div = [&g](NodeId a, NodeId b) { return g.make(OpCode::Div, a, b); };
  using Vec = std::array<NodeId, 3>;
  const auto dot = [&](const Vec& a, const Vec& b) {
    return add_(add_(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
  };
  const auto cross = [&](const Vec& a, const Vec& b) -> Vec {
    return {sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])),
            sub(mul(a[0], b[1]), mul(a[1], b[0]))};
  };
  const auto scaled = [&](const Vec& a, NodeId s) -> Vec {
    return {mul(a[0], s), mul(a[1], s), mul(a[2], s)};
  };
  const auto rotated = [&](const Vec& body_axes) -> Vec {
    Vec out{};
    for (size_t i = 0; i < 3; ++i) {
      out[i] = g.constant(0.0);
      for (size_t j = 0; j < 3; ++j) out[i] = add_(out[i], mul(frame.R[i][j], body_axes[j]));
    }
    return out;
  };
  const auto unit = [&](const Vec& a) {
    return scaled(a, div(g.constant(1.0), g.make(OpCode::Sqrt, dot(a, a))));
  };
  const Vec normal = unit({shape.plane[0], shape.plane[1], shape.plane[2]});
  // The world axis least aligned with the normal, at the values the plane has when loaded.
  const lang::Tape plane = lang::compile_tape(g, {{normal[0], 0}, {normal[1], 1}, {normal[2], 2}});
  std::array<double, 3> nv{};
  const Vector x0 = model_.initial_state(), none(0);
  lang::run(plane, model_.t_start, x0, x0, none,
            [&nv](int k, double v) { nv[static_cast<size_t>(k)] = std::abs(v); });
  const size_t least = static_cast<size_t>(std::min_element(nv.begin(), nv.end()) - nv.begin());
  Vec axis{g.constant(0.0), g.constant(0.0), g.constant(0.0)};
  axis[least] = g.constant(1.0);
  const Vec t1 = unit(cross(axis, normal)), t2 = cross(normal, t1);
  // The lever arm from the centre of mass to the contact point.
  Vec r = rotated(shape.point);
  if (shape.rim != lang::kNoNode) {
    const Vec a = unit(rotated(shape.axis));
    const NodeId ca = dot(normal, a);
    const Vec in_plane{sub(normal[0], mul(ca, a[0])), sub(normal[1], mul(ca, a[1])),
                       sub(normal[2], mul(ca, a[2]))};
    const Vec down = scaled(unit(in_plane), g.make(OpCode::Neg, shape.rim));
    for (size_t i = 0; i < 3; ++i) r[i] = add_(r[i], down[i]);
  }
  if (shape.ellipsoid[0] != lang::kNoNode) {
    Vec e2m{};  // E^2 m in body axes
    NodeId depth2 = g.constant(0.0);
    for (size_t j = 0; j < 3; ++j) {
      NodeId m = g.constant(0.0);
      for (size_t i = 0; i < 3; ++i) m = add_(m, mul(frame.R[i][j], normal[i]));
      const NodeId a2 = mul(shape.ellipsoid[j], shape.ellipsoid[j]);
      e2m[j] = mul(a2, m);
      depth2 = add_(depth2, mul(e2m[j], m));
    }
    const Vec down = rotated(scaled(e2m, div(g.constant(-1.0), g.make(OpCode::Sqrt, depth2))));
    for (size_t i = 0; i < 3; ++i) r[i] = add_(r[i], down[i]);
  }
  if (shape.radius != lang::kNoNode) {
    for (size_t i = 0; i < 3; ++i) r[i] = sub(r[i], mul(shape.radius, normal[i]));
  }
  const Vec spin = rotated(frame.spin);  // the angular velocity in world axes
  Vec v = cross(spin, r);
  for (size_t i = 0; i < 3; ++i) {
    for (int k = 0; k < n; ++k) {
      v[i] = add_(v[i], mul(g.derivative(frame.c[i], {OpCode::State, k}), g.state(n + k)));
    }
  }
  // Drilling: l times the spin about the plane's normal (the soft finger's third slip row).
  const NodeId drill = drilling != lang::kNoNode ? mul(drilling, dot(normal, spin)) : lang::kNoNode;
  c.slip = {dot(t1, v), dot(t2, v), drill};
  if (c.rolling != lang::kNoNode)
    c.roll = {mul(c.rolling, dot(t1, spin)), mul(c.rolling, dot(t2, spin))};
}

}  // namespace saltus::model::loader
