// [[bodies]]: spatial rigid bodies of a mechanical model (issue 48, stage 1), whose kinetic and
// potential energies are added to [mechanics]' before the equations are derived.
//
// A body has a mass m, an inertia tensor I about its centre of mass in body axes (principal
// moments (I1, I2, I3), or the whole tensor: body_inertia.cpp), and an orientation given by
// three expressions of the coordinates (phi, theta, psi): ZXZ Euler angles, R = Rz(phi) Rx(theta)
// Rz(psi). Three coordinates make a free rotation, in a local chart singular where sin(theta) = 0
// (watched: mechanical_system.cpp); constants and one coordinate make a revolute joint. With the
// angles' rates sum_k d(angle)/dq_k q_k', its angular velocity in body axes is
//   w = (phi' sin(theta) sin(psi) + theta' cos(psi), phi' sin(theta) cos(psi) - theta' sin(psi),
//        phi' cos(theta) + psi').
// Its centre of mass c in the world frame is `position` (three expressions of the coordinates) or
// follows from `fixed_point`, the body point (in body axes, from the centre of mass) held at the
// world origin by a frictionless spherical joint: c = -R r; with `parent` (an earlier body) and
// `parent_point` (a point of it, in its body axes) the joint holds it there instead:
// c = c_p + R_p a - R r, a chain of bodies. Then
//   T = 1/2 m |c'|^2 + 1/2 w^T I w,  V = -m gravity . c,
// c' = sum_i dc/dq_i q_i' derived symbolically, gravity the [mechanics] vector (default 0). An
// applied `force` (world frame, at the centre of mass) and `torque` (body axes), expressions of t,
// the coordinates and the velocities, add the generalised forces Q_k = F . dc/dq_k +
// tau . dw/dq'_k (their virtual power).
#include <algorithm>
#include <array>
#include <optional>

#include "model_reader.hpp"

namespace saltus::model::loader {

namespace {

using lang::NodeId;
using lang::OpCode;

}  // namespace

// Three expressions at `key` of `t` (numbers or strings), each of the coordinates and
// parameters; nullopt after reporting a problem.
std::optional<std::array<lang::NodeId, 3>> ModelReader::body_vector(const toml::table& t,
                                                                    const char* key,
                                                                    const std::string& where,
                                                                    bool geometry) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  const toml::array* a = n->as_array();
  if (a == nullptr || a->size() != 3) {
    add(*n, where + " " + key + " is " + type_name(*n) + "; expected three expressions [x, y, z]");
    return std::nullopt;
  }
  std::array<NodeId, 3> out{};
  for (size_t k = 0; k < 3; ++k) {
    const toml::node& e = *a->get(k);
    if (auto x = e.value<double>()) {
      out[k] = graph_->constant(*x);
      continue;
    }
    const auto node = expression(e, where + " " + key, symbols({}));
    if (!node) return std::nullopt;
    if (const std::string culprit = geometry ? forbidden_input(*node, false) : "";
        !culprit.empty()) {
      add(e, where + " " + key + " depends on " + culprit +
                 "; expected functions of the coordinates and parameters");
      return std::nullopt;
    }
    out[k] = *node;
  }
  return out;
}

bool ModelReader::read_bodies(const toml::table& doc, lang::NodeId& T, lang::NodeId& V,
                              std::vector<lang::NodeId>& Q,
                              const std::optional<std::array<lang::NodeId, 3>>& gravity) {
  const toml::node* list = doc.get("bodies");
  if (list == nullptr) return true;
  if (!list->is_array_of_tables()) {
    add(*list, "bodies is " + type_name(*list) + "; expected [[bodies]] tables");
    return false;
  }
  bool all = true;  // every body read
  lang::ExpressionGraph& g = *graph_;
  const int n = model_.mechanics->dof;
  const auto add_ = [&g](NodeId a, NodeId b) { return g.make(OpCode::Add, a, b); };
  const auto mul = [&g](NodeId a, NodeId b) { return g.make(OpCode::Mul, a, b); };
  const auto sub = [&g](NodeId a, NodeId b) { return g.make(OpCode::Sub, a, b); };
  const auto sin = [&g](NodeId a) { return g.make(OpCode::Sin, a); };
  const auto cos = [&g](NodeId a) { return g.make(OpCode::Cos, a); };
  const auto half = g.constant(0.5);
  int index = 0;
  bool failed = false;
  for (const toml::node& e : *list->as_array()) {
    all = all && !failed;
    failed = true;  // until the body is added
    const toml::table& t = *e.as_table();
    std::string name = "body" + std::to_string(index++);
    if (const toml::node* v = t.get("name")) {
      if (auto s = string(*v, "body name")) name = *s;
    }
    const std::string where = "body '" + name + "'";
    check_keys(t, where,
               {"name", "mass", "inertia", "orientation", "quaternion", "hinge", "position",
                "fixed_point", "parent", "parent_point", "force", "torque"});
    // The orientation: ZXZ Euler angles, three expressions of the coordinates (coordinates
    // themselves for a free rotation; one coordinate and two constants for a revolute joint), a
    // quaternion of four coordinates (body_quaternion.cpp), or a hinge on its parent
    // (body_hinge.cpp).
    std::optional<std::array<NodeId, 3>> angles;
    std::optional<BodyQuaternion> quaternion;
    std::optional<Hinge> hinge;
    if (t.get("hinge") != nullptr) {
      if (t.get("orientation") != nullptr || t.get("quaternion") != nullptr) {
        add(t, where + " has a hinge and an orientation or quaternion; expected one of them");
        continue;
      }
      hinge = body_hinge(t, where);
      if (!hinge) continue;
    } else if (t.get("quaternion") != nullptr) {
      if (t.get("orientation") != nullptr) {
        add(t, where + " has both orientation and quaternion; expected one of them");
        continue;
      }
      quaternion = body_quaternion(t, where);
      if (!quaternion) continue;
    } else {
      angles = body_vector(t, "orientation", where);
      if (!angles) {
        if (!t.get("orientation")) {
          add(t, where + " has no orientation; expected orientation = [\"phi\", \"theta\", " +
                     "\"psi\"], ZXZ Euler angles (coordinates, or expressions of them), or " +
                     "quaternion = [\"q0\", \"q1\", \"q2\", \"q3\"], four coordinates");
        }
        continue;
      }
    }
    // The chart's pole is watched where all three angles are coordinates (a free rotation): the
    // coordinate of theta, else -1. A quaternion has no pole.
    int pole_theta = -1;
    if (angles) {
      std::array<int, 3> plain{-1, -1, -1};
      for (size_t k = 0; k < 3; ++k) {
        const lang::ExpressionNode& a = g.node((*angles)[k]);
        if (a.op == OpCode::State && a.index < n) plain[k] = a.index;
      }
      if (plain[0] >= 0 && plain[1] >= 0 && plain[2] >= 0) pole_theta = plain[1];
    }
    const auto inertia = body_inertia(t, where);
    const toml::node* mass_node = t.get("mass");
    std::optional<NodeId> mass;
    if (mass_node != nullptr) {
      if (auto x = mass_node->value<double>()) {
        mass = g.constant(*x);
      } else {
        mass = expression(*mass_node, where + " mass", symbols({}));
      }
    } else {
      add(t, where + " has no mass; expected mass = <number or parameter>");
    }
    if (!mass || !inertia) continue;
    // An angle's rate along the motion: sum_k d(angle)/dq_k q_k'.
    const auto rate = [&](NodeId a) {
      NodeId sum = g.constant(0.0);
      for (int k = 0; k < n; ++k) {
        sum = add_(sum, mul(g.derivative(a, {OpCode::State, k}), g.state(n + k)));
      }
      return sum;
    };
    NodeId w1, w2, w3;
    std::array<std::array<NodeId, 3>, 3> R{};
    if (quaternion) {
      R = quaternion->rotation;
      w1 = quaternion->spin[0];
      w2 = quaternion->spin[1];
      w3 = quaternion->spin[2];
    } else if (hinge) {
      // R = R_p Rot(a, beta); w = Rot' w_p + beta' a (a is its own image under Rot).
      const BodyFrame& p = *hinge->parent;
      const NodeId cb = cos(hinge->angle), sb = sin(hinge->angle), beta_rate = rate(hinge->angle);
      const auto& a = hinge->axis;
      const NodeId zero = g.constant(0.0);
      const std::array<std::array<NodeId, 3>, 3> cross{{{zero, g.make(OpCode::Neg, a[2]), a[1]},
                                                        {a[2], zero, g.make(OpCode::Neg, a[0])},
                                                        {g.make(OpCode::Neg, a[1]), a[0], zero}}};
      std::array<std::array<NodeId, 3>, 3> turn{};
      for (size_t i = 0; i < 3; ++i) {
        for (size_t j = 0; j < 3; ++j) {
          NodeId e = add_(mul(sub(g.constant(1.0), cb), mul(a[i], a[j])), mul(sb, cross[i][j]));
          if (i == j) e = add_(e, cb);
          turn[i][j] = e;
        }
      }
      std::array<NodeId, 3> w{};
      for (size_t j = 0; j < 3; ++j) {
        NodeId rij = mul(beta_rate, a[j]);
        for (size_t k = 0; k < 3; ++k) {
          NodeId e = g.constant(0.0);
          for (size_t l = 0; l < 3; ++l) e = add_(e, mul(p.R[k][l], turn[l][j]));
          R[k][j] = e;
          rij = add_(rij, mul(turn[k][j], p.spin[k]));
        }
        w[j] = rij;
      }
      w1 = w[0];
      w2 = w[1];
      w3 = w[2];
    } else {
      const NodeId phi = (*angles)[0], theta = (*angles)[1], psi = (*angles)[2];
      const NodeId dphi = rate(phi), dtheta = rate(theta), dpsi = rate(psi);
      w1 = add_(mul(mul(dphi, sin(theta)), sin(psi)), mul(dtheta, cos(psi)));
      w2 = sub(mul(mul(dphi, sin(theta)), cos(psi)), mul(dtheta, sin(psi)));
      w3 = add_(mul(dphi, cos(theta)), dpsi);
      // R = Rz(phi) Rx(theta) Rz(psi), row by row.
      const NodeId cf = cos(phi), sf = sin(phi), ct = cos(theta), st = sin(theta), cp = cos(psi),
                   sp = sin(psi);
      R = {{{sub(mul(cf, cp), mul(mul(sf, ct), sp)),
             g.make(OpCode::Neg, add_(mul(cf, sp), mul(mul(sf, ct), cp))), mul(sf, st)},
            {add_(mul(sf, cp), mul(mul(cf, ct), sp)), sub(mul(mul(cf, ct), cp), mul(sf, sp)),
             g.make(OpCode::Neg, mul(cf, st))},
            {mul(st, sp), mul(st, cp), ct}}};
    }
    std::array<NodeId, 3> c{};
    const auto position = body_vector(t, "position", where);
    const auto fixed = body_vector(t, "fixed_point", where);
    if (position.has_value() == fixed.has_value()) {
      add(t, where + (position ? " has both position and fixed_point" : " has no position") +
                 "; expected position = [x, y, z] (its centre of mass) or fixed_point = " +
                 "[x, y, z] (the body point, from the centre of mass, held at the origin)");
      continue;
    }
    // A spherical joint to an earlier body: the fixed point is held at the parent's point
    // `parent_point` (its body axes) instead of the origin, c = c_p + R_p a - R r.
    std::array<NodeId, 3> anchor{g.constant(0.0), g.constant(0.0), g.constant(0.0)};
    if (const toml::node* parent = t.get("parent")) {
      const auto name_of = string(*parent, where + " parent");
      const auto frame =
          std::find_if(body_frames_.begin(), body_frames_.end(),
                       [&](const BodyFrame& f) { return name_of && f.name == *name_of; });
      const auto at = body_vector(t, "parent_point", where);
      if (!name_of || frame == body_frames_.end() || !fixed || !at) {
        if (name_of && frame == body_frames_.end()) {
          add(*parent, where + " parent '" + *name_of +
                           "' is no body declared before it; expected the name of an earlier " +
                           "[[bodies]] body");
        }
        if (!fixed)
          add(*parent, where + " has a parent but no fixed_point; expected " +
                           "fixed_point = [x, y, z], the joint on this body");
        if (!t.get("parent_point")) {
          add(*parent, where + " has a parent but no parent_point; expected parent_point = " +
                           "[x, y, z], the joint on the parent, in its body axes");
        }
        continue;
      }
      for (size_t i = 0; i < 3; ++i) {
        anchor[i] = frame->c[i];
        for (size_t j = 0; j < 3; ++j) anchor[i] = add_(anchor[i], mul(frame->R[i][j], (*at)[j]));
      }
    } else if (const toml::node* at = t.get("parent_point")) {
      add(*at, where + " has parent_point but no parent; expected parent = \"<body>\" with it");
      continue;
    }
    for (size_t i = 0; i < 3; ++i) {
      if (position) {
        c[i] = (*position)[i];
      } else {
        NodeId sum = g.constant(0.0);
        for (size_t j = 0; j < 3; ++j) sum = add_(sum, mul(R[i][j], (*fixed)[j]));
        c[i] = sub(anchor[i], sum);
      }
    }
    NodeId speed2 = g.constant(0.0);
    for (size_t i = 0; i < 3; ++i) {
      const NodeId ci = rate(c[i]);
      speed2 = add_(speed2, mul(ci, ci));
    }
    // w^T I w, and the mean moment trace(I) / 3 for the quaternion's gauge term.
    const std::array<NodeId, 3> w{w1, w2, w3};
    NodeId spin = g.constant(0.0);
    for (size_t i = 0; i < 3; ++i) {
      for (size_t j = 0; j < 3; ++j) spin = add_(spin, mul((*inertia)[i][j], mul(w[i], w[j])));
    }
    if (quaternion) {
      // The gauge term 4 Ibar (d ln|q| / dt)^2, Ibar the mean moment (body_quaternion.cpp).
      const NodeId mean = mul(g.constant(1.0 / 3.0),
                              add_(add_((*inertia)[0][0], (*inertia)[1][1]), (*inertia)[2][2]));
      spin = add_(spin,
                  mul(g.constant(4.0), mul(mean, mul(quaternion->log_rate, quaternion->log_rate))));
    }
    T = add_(T, mul(half, add_(mul(*mass, speed2), spin)));
    // Applied force (world frame, at the centre of mass) and torque (body axes): their virtual
    // power F . c' + tau . w gives Q_k = F . dc/dq_k + tau . dw/dq'_k.
    const auto force = body_vector(t, "force", where, false);
    const auto torque = body_vector(t, "torque", where, false);
    if ((t.get("force") && !force) || (t.get("torque") && !torque)) continue;
    for (int k = 0; k < n; ++k) {
      NodeId q = Q[static_cast<size_t>(k)];
      for (size_t i = 0; i < 3; ++i) {
        if (force) q = add_(q, mul((*force)[i], g.derivative(c[i], {OpCode::State, k})));
        if (torque) q = add_(q, mul((*torque)[i], g.derivative(w[i], {OpCode::State, n + k})));
      }
      Q[static_cast<size_t>(k)] = q;
    }
    model_.mechanics->bodies.push_back({name, pole_theta, c, R});
    body_frames_.push_back({name, c, R, {w1, w2, w3}});
    failed = false;
    if (gravity) {
      NodeId dot = g.constant(0.0);
      for (size_t i = 0; i < 3; ++i) dot = add_(dot, mul((*gravity)[i], c[i]));
      V = sub(V, mul(*mass, dot));
    }
  }
  return all && !failed;
}

}  // namespace saltus::model::loader
