// A [[bodies]] body's orientation as a quaternion (issue 48): `quaternion = ["q0", "q1", "q2",
// "q3"]`, four coordinates (q0 the scalar part), instead of three Euler angles. No chart, so no
// pole: a tumbling body runs through every orientation.
//
// Four coordinates for three degrees of freedom, and no constraint: the body's rotation is that of
// q / |q|, for any q != 0,
//   R = ((q0^2 - |v|^2) I + 2 v v' + 2 q0 [v]x) / |q|^2,   v = (q1, q2, q3),
// and its angular velocity in body axes that of q / |q| too,
//   w = 2 (q0 v' - q0' v - v x v') / |q|^2,
// both unchanged when q is scaled. The fourth, radial, direction is then free; it is given its
// own kinetic energy 2 Ibar (d ln|q| / dt)^2 (Ibar the mean principal moment, so the mass matrix
// is as well conditioned radially as in rotation). With rho = ln|q| and the unit quaternion
// u = q / |q| as coordinates the Lagrangian separates, L = L_body(u, u') + 2 Ibar rho'^2: rho'' =
// 0, and a start with |q| = 1 and q . q' = 0 keeps rho = 0 but for the integrator's error, which
// never reaches the rotation. Contacts' gaps read R, so their gradients are orthogonal to q, and
// the kinetic metric keeps radial and rotational velocities apart: impacts leave q . q' as it was.
// (Moeller and Glocker's "scalable body" removes the same singularity of a quaternion mass
// matrix by letting the body's size follow |q|; here the radial motion is decoupled instead.)
//
// Refused at the key, naming the body: entries that are not four distinct coordinates, a start
// with |q| != 1 (beyond 1e-12) or q . q' != 0 (beyond 1e-12 |q'|).
#include <cmath>
#include <set>

#include "model_reader.hpp"

namespace saltus::model::loader {

std::optional<ModelReader::BodyQuaternion> ModelReader::body_quaternion(const toml::table& t,
                                                                        const std::string& where) {
  using lang::NodeId;
  using lang::OpCode;
  lang::ExpressionGraph& g = *graph_;
  const int n = model_.mechanics->dof;
  const toml::node& node = *t.get("quaternion");
  const toml::array* a = node.as_array();
  const std::string expected =
      "; expected quaternion = [\"q0\", \"q1\", \"q2\", \"q3\"], four distinct coordinates (q0 "
      "the scalar part)";
  if (a == nullptr || a->size() != 4) {
    add(node, where + " quaternion is " + type_name(node) + expected);
    return std::nullopt;
  }
  std::array<int, 4> index{};
  std::set<int> seen;
  for (size_t k = 0; k < 4; ++k) {
    const toml::node& e = *a->get(k);
    const auto q = e.is_string() ? expression(e, where + " quaternion", symbols({})) : std::nullopt;
    if (!q) {
      if (!e.is_string())
        add(e, where + " quaternion entry " + std::to_string(k) + " is " + type_name(e) + expected);
      return std::nullopt;
    }
    const lang::ExpressionNode& s = g.node(*q);
    if (s.op != OpCode::State || s.index >= n || !seen.insert(s.index).second) {
      add(e, where + " quaternion entry " + std::to_string(k) + " is not a coordinate of its own" +
                 expected);
      return std::nullopt;
    }
    index[k] = s.index;
  }
  // The start: a unit quaternion whose rate is orthogonal to it (|q| stays 1).
  const Vector x0 = model_.initial_state();
  double norm2 = 0.0, dot = 0.0, rate2 = 0.0;
  for (int i : index) {
    norm2 += x0(i) * x0(i);
    dot += x0(i) * x0(n + i);
    rate2 += x0(n + i) * x0(n + i);
  }
  if (!(std::abs(norm2 - 1.0) <= 1e-12)) {
    add(node, where + " quaternion starts at |q|^2 = " + short_number(norm2) +
                  "; expected a unit quaternion at the start (to 1e-12)");
    return std::nullopt;
  }
  if (!(std::abs(dot) <= 1e-12 * std::sqrt(rate2))) {
    add(node, where + " quaternion's initial rate has q . q' = " + short_number(dot) +
                  "; expected q' orthogonal to q, q' = 1/2 q (x) (0, w) for the body's angular "
                  "velocity w in body axes");
    return std::nullopt;
  }

  const auto add_ = [&g](NodeId x, NodeId y) { return g.make(OpCode::Add, x, y); };
  const auto sub = [&g](NodeId x, NodeId y) { return g.make(OpCode::Sub, x, y); };
  const auto mul = [&g](NodeId x, NodeId y) { return g.make(OpCode::Mul, x, y); };
  std::array<NodeId, 4> q{}, dq{};
  for (size_t k = 0; k < 4; ++k) {
    q[k] = g.state(index[k]);
    dq[k] = g.state(n + index[k]);
  }
  NodeId norm = g.constant(0.0), along = g.constant(0.0);
  for (size_t k = 0; k < 4; ++k) {
    norm = add_(norm, mul(q[k], q[k]));
    along = add_(along, mul(q[k], dq[k]));
  }
  const NodeId inverse = g.make(OpCode::Div, g.constant(1.0), norm);
  const NodeId two = g.constant(2.0);
  BodyQuaternion out;
  // R_ij = ((q0^2 - |v|^2) d_ij + 2 v_i v_j + 2 q0 e_ijk v_k) / |q|^2, row by row.
  const NodeId v2 = add_(add_(mul(q[1], q[1]), mul(q[2], q[2])), mul(q[3], q[3]));
  const NodeId diagonal = sub(mul(q[0], q[0]), v2);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 3; ++j) {
      NodeId r = mul(two, mul(q[i + 1], q[j + 1]));
      if (i == j) r = add_(r, diagonal);
      // 2 q0 e_ijk v_k: (i, j, k) cyclic gives +, anticyclic -.
      if (i != j) {
        const size_t k = 3 - i - j;
        const bool cyclic = (j == (i + 1) % 3);
        const NodeId term = mul(two, mul(q[0], q[k + 1]));
        r = cyclic ? sub(r, term) : add_(r, term);
      }
      out.rotation[i][j] = mul(r, inverse);
    }
  }
  // w = 2 (q0 v' - q0' v - v x v') / |q|^2.
  for (size_t i = 0; i < 3; ++i) {
    const size_t j = (i + 1) % 3, k = (i + 2) % 3;
    const NodeId cross = sub(mul(q[j + 1], dq[k + 1]), mul(q[k + 1], dq[j + 1]));
    const NodeId w = sub(sub(mul(q[0], dq[i + 1]), mul(dq[0], q[i + 1])), cross);
    out.spin[i] = mul(mul(two, w), inverse);
  }
  out.log_rate = mul(along, inverse);
  return out;
}

}  // namespace saltus::model::loader
