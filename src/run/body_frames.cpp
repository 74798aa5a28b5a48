// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/run/body_frames.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "saltus/lang/tape.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/sim/csv_writer.hpp"

namespace saltus::run {
namespace {

using Json = nlohmann::ordered_json;
using Vector3 = Eigen::Vector3d;

bool has_bodies(const model::Model& m) {
  return m.mechanics && !m.mechanics->bodies.empty();
}

// One tape of every body's centre (3) and rotation (9), in declaration order.
struct Frames {
  lang::Tape tape;
  std::vector<double> slots;

  explicit Frames(const model::Model& m) {
    std::vector<lang::TapeOutput> out;
    for (const model::ModelMechanics::Body& b : m.mechanics->bodies) {
      for (lang::NodeId n : b.centre) out.push_back({n, static_cast<int>(out.size())});
      for (const auto& row : b.rotation) {
        for (lang::NodeId n : row) out.push_back({n, static_cast<int>(out.size())});
      }
    }
    tape = lang::compile_tape(*m.graph, out);
    slots.assign(out.size(), 0.0);
  }
  void evaluate(double t, const Eigen::Map<const Vector>& x) {
    const Vector no_z;
    lang::run(tape, t, x, x, no_z, [this](int k, double v) { slots[static_cast<size_t>(k)] = v; });
  }
  Vector3 centre(size_t body) const {
    return Vector3(slots[12 * body], slots[12 * body + 1], slots[12 * body + 2]);
  }
  Eigen::Matrix3d rotation(size_t body) const {
    Eigen::Matrix3d r;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) r(i, j) = slots[12 * body + 3 + 3 * i + j];
    }
    return r;
  }
};

// A contact on a body point with its numbers (functions of the parameters, read at the initial
// state).
struct Shape {
  std::string contact;
  size_t body = 0;
  Vector3 point, axis = Vector3::Zero(), normal, semi_axes = Vector3::Zero();
  double d = 0.0, radius = 0.0, rim = 0.0;
  bool sphere = false, disk = false, ellipsoid = false;

  const char* kind() const {
    if (ellipsoid) return "ellipsoid";
    return disk ? (sphere ? "torus" : "disk") : sphere ? "sphere" : "point";
  }
  // The contact point in the world: the point, less the disk's depth or the ellipsoid's lowest
  // point, and the sphere's radius along the plane's unit normal (body_point_gap.cpp).
  Vector3 world(const Vector3& c, const Eigen::Matrix3d& R) const {
    const Vector3 n = normal.normalized();
    Vector3 x = c + R * point;
    if (disk) {
      const Vector3 a = (R * axis).normalized();
      const Vector3 lateral = n - n.dot(a) * a;
      if (lateral.norm() > 0.0) x -= rim * lateral.normalized();
    }
    if (ellipsoid) {
      const Vector3 e2m = semi_axes.cwiseAbs2().cwiseProduct(R.transpose() * n);
      x -= R * e2m / std::sqrt(e2m.dot(R.transpose() * n));
    }
    return x - radius * n;
  }
};

std::vector<Shape> shapes(const model::ModelRun& run) {
  const model::Model& m = *run.model;
  std::vector<Shape> out;
  std::vector<lang::TapeOutput> nodes;
  const auto slot = [&nodes](lang::NodeId n) {
    nodes.push_back({n, static_cast<int>(nodes.size())});
    return nodes.size() - 1;
  };
  struct Slots {
    size_t point, plane, radius = 0, rim = 0, axis = 0, semi_axes = 0;
  };
  std::vector<Slots> where;
  for (const model::ModelContact& c : m.mechanics->contacts) {
    if (!c.body_point) continue;
    Shape s;
    s.contact = c.name;
    for (size_t b = 0; b < m.mechanics->bodies.size(); ++b) {
      if (m.mechanics->bodies[b].name == c.body) s.body = b;
    }
    const model::ModelContact::BodyPoint& p = *c.body_point;
    Slots k;
    k.point = slot(p.point[0]);
    slot(p.point[1]);
    slot(p.point[2]);
    k.plane = slot(p.plane[0]);
    for (int i = 1; i < 4; ++i) slot(p.plane[static_cast<size_t>(i)]);
    s.sphere = p.radius != lang::kNoNode;
    s.disk = p.rim != lang::kNoNode;
    s.ellipsoid = p.ellipsoid[0] != lang::kNoNode;
    if (s.ellipsoid) {
      k.semi_axes = slot(p.ellipsoid[0]);
      slot(p.ellipsoid[1]);
      slot(p.ellipsoid[2]);
    }
    if (s.sphere) k.radius = slot(p.radius);
    if (s.disk) {
      k.rim = slot(p.rim);
      k.axis = slot(p.axis[0]);
      slot(p.axis[1]);
      slot(p.axis[2]);
    }
    out.push_back(s);
    where.push_back(k);
  }
  if (out.empty()) return out;
  const lang::Tape tape = lang::compile_tape(*m.graph, nodes);
  std::vector<double> v(nodes.size());
  const Vector x0 = m.initial_state(), no_z;
  lang::run(tape, m.t_start, x0, x0, no_z,
            [&v](int k, double value) { v[static_cast<size_t>(k)] = value; });
  for (size_t i = 0; i < out.size(); ++i) {
    const Slots& k = where[i];
    Shape& s = out[i];
    s.point = Vector3(v[k.point], v[k.point + 1], v[k.point + 2]);
    s.normal = Vector3(v[k.plane], v[k.plane + 1], v[k.plane + 2]);
    s.d = v[k.plane + 3];
    if (s.sphere) s.radius = v[k.radius];
    if (s.ellipsoid) s.semi_axes = Vector3(v[k.semi_axes], v[k.semi_axes + 1], v[k.semi_axes + 2]);
    if (s.disk) {
      s.rim = v[k.rim];
      s.axis = Vector3(v[k.axis], v[k.axis + 1], v[k.axis + 2]);
    }
  }
  return out;
}

Json triple(const Vector3& v) {
  return Json::array({v.x(), v.y(), v.z()});
}

}  // namespace

std::string bodies_csv(const model::ModelRun& run) {
  const model::Model& m = *run.model;
  if (!has_bodies(m)) return "";
  Frames frames(m);
  std::string out = "t,j,mode";
  for (const model::ModelMechanics::Body& b : m.mechanics->bodies) {
    for (const char* k : {".x", ".y", ".z"}) out += "," + b.name + k;
    for (int i = 1; i <= 3; ++i) {
      for (int j = 1; j <= 3; ++j) out += "," + b.name + ".r" + std::to_string(10 * i + j);
    }
  }
  out += "\n";
  const Trajectory& tr = run.result.trajectory;
  for (long i = 0; i < tr.size(); ++i) {
    frames.evaluate(tr.t(i), tr.x(i));
    out += number_text(tr.t(i), 12) + "," + std::to_string(tr.j(i)) + "," +
           mode_name(run.system, run.result, tr.mode(i));
    for (double v : frames.slots) out += "," + number_text(v, 12);
    out += "\n";
  }
  return out;
}

std::string bodies_json(const model::ModelRun& run) {
  const model::Model& m = *run.model;
  if (!has_bodies(m)) return "";
  const std::vector<Shape> all = shapes(run);
  Json j;
  j["model"] = m.name;
  j["time_unit"] = m.time_unit;
  Json bodies = Json::array();
  for (size_t b = 0; b < m.mechanics->bodies.size(); ++b) {
    Json list = Json::array();
    for (const Shape& s : all) {
      if (s.body != b) continue;
      Json shape = {{"contact", s.contact}, {"kind", s.kind()}, {"point", triple(s.point)}};
      shape["radius"] = s.sphere ? Json(s.radius) : Json(nullptr);
      shape["rim"] = s.disk ? Json(s.rim) : Json(nullptr);
      shape["axis"] = s.disk ? triple(s.axis) : Json(nullptr);
      shape["semi_axes"] = s.ellipsoid ? triple(s.semi_axes) : Json(nullptr);
      list.push_back(shape);
    }
    bodies.push_back({{"name", m.mechanics->bodies[b].name}, {"shapes", list}});
  }
  j["bodies"] = bodies;
  Json planes = Json::array();
  for (const Shape& s : all) {
    const Json plane = {s.normal.x(), s.normal.y(), s.normal.z(), s.d};
    if (std::find(planes.begin(), planes.end(), plane) == planes.end()) planes.push_back(plane);
  }
  j["planes"] = planes;
  // Each event of a contact on a body point ("impact:c1", "lift-off:c1", ...) with the world
  // position of its contact point before it.
  Frames frames(m);
  Json events = Json::array();
  const EventLog& log = run.result.events;
  for (long e = 0; e < log.size(); ++e) {
    const EventRecord& r = log[e];
    const std::string guard = event_guard_name(run.system, r);
    const auto colon = guard.find(':');
    if (colon == std::string::npos) continue;
    const std::string contact = guard.substr(colon + 1);
    const auto s =
        std::find_if(all.begin(), all.end(), [&](const Shape& x) { return x.contact == contact; });
    if (s == all.end()) continue;
    frames.evaluate(r.t, log.x_before(e));
    events.push_back({{"t", r.t},
                      {"j", r.j},
                      {"guard", guard},
                      {"contact", contact},
                      {"at", triple(s->world(frames.centre(s->body), frames.rotation(s->body)))}});
  }
  j["events"] = events;
  return j.dump(1) + "\n";
}

}  // namespace saltus::run
