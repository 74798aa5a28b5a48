// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/run/drawing_table.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "saltus/lang/tape.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/sim/csv_writer.hpp"

namespace saltus::run {
namespace {

// One tape computing every coordinate of every shape; `first[s]` is shape s's first slot:
// bx0, by0, bx1, by1, ..., then the pose (x, y, angle) if any, then the radius if any.
struct DrawingProgram {
  lang::Tape tape;
  std::vector<int> first;
  std::vector<double> slots;

  explicit DrawingProgram(const model::Model& m) {
    std::vector<lang::TapeOutput> out;
    const auto add = [&out](lang::NodeId n) { out.push_back({n, static_cast<int>(out.size())}); };
    for (const model::DrawingShape& s : m.drawing->shapes) {
      first.push_back(static_cast<int>(out.size()));
      for (const auto& p : s.points) {
        add(p[0]);
        add(p[1]);
      }
      if (s.pose) {
        for (lang::NodeId n : *s.pose) add(n);
      }
      if (s.radius != lang::kNoNode) add(s.radius);
    }
    tape = lang::compile_tape(*m.graph, out);
    slots.assign(out.size(), 0.0);
  }

  void evaluate(double t, const Eigen::Map<const Vector>& x) {
    const Vector no_z;
    lang::run(tape, t, x, x, no_z, [this](int k, double v) { slots[static_cast<size_t>(k)] = v; });
  }

  // World coordinates of shape s at the last evaluation: x0, y0, x1, y1, ... (, r).
  std::vector<double> world(const model::DrawingShape& s, size_t index) const {
    const size_t f = static_cast<size_t>(first[index]);
    const size_t n = s.points.size();
    double px = 0.0, py = 0.0, c = 1.0, sn = 0.0;
    if (s.pose) {
      px = slots[f + 2 * n];
      py = slots[f + 2 * n + 1];
      c = std::cos(slots[f + 2 * n + 2]);
      sn = std::sin(slots[f + 2 * n + 2]);
    }
    std::vector<double> w;
    for (size_t i = 0; i < n; ++i) {
      const double bx = slots[f + 2 * i], by = slots[f + 2 * i + 1];
      w.push_back(px + c * bx - sn * by);
      w.push_back(py + sn * bx + c * by);
    }
    if (s.radius != lang::kNoNode) w.push_back(slots[f + 2 * n + (s.pose ? 3 : 0)]);
    return w;
  }
};

}  // namespace

std::string drawing_csv(const model::ModelRun& run) {
  const model::Model& m = *run.model;
  if (!m.drawing) return "";
  DrawingProgram program(m);
  std::string out = "t,j,mode";
  for (const model::DrawingShape& s : m.drawing->shapes) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      out += "," + s.name + ".x" + std::to_string(i) + "," + s.name + ".y" + std::to_string(i);
    }
    if (s.radius != lang::kNoNode) out += "," + s.name + ".r";
  }
  out += "\n";
  const Trajectory& tr = run.result.trajectory;
  for (long i = 0; i < tr.size(); ++i) {
    program.evaluate(tr.t(i), tr.x(i));
    out += number_text(tr.t(i), 12) + "," + std::to_string(tr.j(i)) + "," +
           mode_name(run.system, run.result, tr.mode(i));
    for (size_t s = 0; s < m.drawing->shapes.size(); ++s) {
      for (double v : program.world(m.drawing->shapes[s], s)) out += "," + number_text(v, 12);
    }
    out += "\n";
  }
  return out;
}

std::string drawing_json(const model::ModelRun& run) {
  const model::Model& m = *run.model;
  if (!m.drawing) return "";
  nlohmann::ordered_json j;
  j["model"] = m.name;
  j["time_unit"] = m.time_unit;
  j["view"] = m.drawing->view ? nlohmann::ordered_json(*m.drawing->view) : nullptr;
  nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
  for (const model::DrawingShape& s : m.drawing->shapes) {
    shapes.push_back({{"name", s.name},
                      {"kind", model::to_string(s.kind)},
                      {"points", s.points.size()},
                      {"color", s.color},
                      {"width", s.width},
                      {"fill", s.fill}});
  }
  j["shapes"] = shapes;
  // Where each point shape is at every event (its state before the event), for the markers.
  DrawingProgram program(m);
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  const EventLog& log = run.result.events;
  for (long e = 0; e < log.size(); ++e) {
    const EventRecord& r = log[e];
    nlohmann::ordered_json ev;
    ev["t"] = r.t;
    ev["j"] = r.j;
    ev["guard"] = event_guard_name(run.system, r);
    program.evaluate(r.t, log.x_before(e));
    nlohmann::ordered_json at = nlohmann::ordered_json::object();
    for (size_t s = 0; s < m.drawing->shapes.size(); ++s) {
      const model::DrawingShape& shape = m.drawing->shapes[s];
      if (shape.kind != model::ShapeKind::Point) continue;
      const std::vector<double> w = program.world(shape, s);
      at[shape.name] = {w[0], w[1]};
    }
    ev["points"] = at;
    events.push_back(ev);
  }
  j["events"] = events;
  return j.dump(1) + "\n";
}

}  // namespace saltus::run
