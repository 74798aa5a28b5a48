// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "drawing_section.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace saltus::model {
namespace {

const std::vector<std::string> kSectionKeys = {"view", "shapes"};
const std::vector<std::string> kShapeKeys = {"name", "kind",  "points", "radius",
                                             "pose", "color", "width",  "fill"};

std::string one_of(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

class DrawingReader {
 public:
  explicit DrawingReader(const DrawingSectionContext& ctx) : ctx_(ctx) {}

  std::optional<ModelDrawing> read(const toml::node& section) {
    const toml::table* t = section.as_table();
    if (t == nullptr) return fail(section, "[drawing] is not a table; expected [drawing]");
    ModelDrawing d;
    check_keys(*t, "[drawing]", kSectionKeys);
    if (const toml::node* v = t->get("view")) d.view = view(*v);
    const toml::node* shapes = t->get("shapes");
    if (shapes == nullptr)
      return fail(section,
                  "[drawing] has no [[drawing.shapes]]; expected "
                  "at least one shape");
    const toml::array* list = shapes->as_array();
    if (list == nullptr || list->empty()) {
      return fail(*shapes,
                  "'shapes' in [drawing] is not an array of tables; expected "
                  "[[drawing.shapes]] entries");
    }
    std::set<std::string> names;
    for (const toml::node& s : *list) {
      if (std::optional<DrawingShape> shape = read_shape(s)) {
        if (!names.insert(shape->name).second) {
          ctx_.error(s, "shape name '" + shape->name +
                            "' is used twice in [drawing]; expected "
                            "one name per shape");
          ok_ = false;
        }
        d.shapes.push_back(std::move(*shape));
      }
    }
    if (!ok_) return std::nullopt;
    return d;
  }

 private:
  std::nullopt_t fail(const toml::node& n, const std::string& message) {
    ctx_.error(n, message);
    ok_ = false;
    return std::nullopt;
  }

  void check_keys(const toml::table& t, const std::string& where,
                  const std::vector<std::string>& known) {
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail(v, "unknown key '" + key + "' in " + where + "; expected one of " + one_of(known));
      }
    }
  }

  std::optional<std::array<double, 4>> view(const toml::node& n) {
    const toml::array* a = n.as_array();
    std::array<double, 4> v{};
    bool ok = a != nullptr && a->size() == 4;
    for (size_t i = 0; ok && i < 4; ++i) {
      const std::optional<double> x = (*a)[i].value<double>();
      ok = x.has_value() && std::isfinite(*x);
      if (ok) v[i] = *x;
    }
    if (!ok || v[0] >= v[1] || v[2] >= v[3]) {
      return fail(n,
                  "'view' in [drawing] is not a valid box; expected [xmin, xmax, ymin, ymax], "
                  "numbers with xmin < xmax and ymin < ymax");
    }
    return v;
  }

  // A coordinate: a number or an expression of t, the parameters and the states.
  std::optional<lang::NodeId> coordinate(const toml::node& n, const std::string& what) {
    if (n.is_integer() || n.is_floating_point()) return ctx_.graph.constant(*n.value<double>());
    if (n.is_string()) {
      std::optional<lang::NodeId> e = ctx_.expression(n, what);
      if (!e) ok_ = false;
      return e;
    }
    return fail(n, what + " is neither a number nor a string; expected a number or an expression");
  }

  std::optional<DrawingShape> read_shape(const toml::node& node) {
    const toml::table* t = node.as_table();
    if (t == nullptr)
      return fail(node,
                  "an entry of 'shapes' is not a table; expected "
                  "[[drawing.shapes]]");
    DrawingShape s;
    const std::optional<std::string> name =
        t->get("name") ? t->get("name")->value<std::string>() : std::nullopt;
    if (!name || name->empty()) {
      return fail(node, "a [[drawing.shapes]] entry has no name; expected name = \"...\"");
    }
    s.name = *name;
    const std::string where = "shape '" + s.name + "'";
    check_keys(*t, where, kShapeKeys);
    const std::string kind = t->get("kind") ? t->get("kind")->value_or(std::string()) : "";
    const std::vector<std::string> kinds = {"segment", "polygon", "circle", "point"};
    const auto k = std::find(kinds.begin(), kinds.end(), kind);
    if (k == kinds.end()) {
      return fail(t->get("kind") ? *t->get("kind") : node,
                  where + ": kind '" + kind + "' is not a shape; expected one of " + one_of(kinds));
    }
    s.kind = static_cast<ShapeKind>(k - kinds.begin());

    const toml::node* points = t->get("points");
    const toml::array* pa = points ? points->as_array() : nullptr;
    if (pa == nullptr) return fail(node, where + " has no 'points'; expected [[x, y], ...]");
    const size_t need = s.kind == ShapeKind::Segment ? 2 : s.kind == ShapeKind::Polygon ? 3 : 1;
    const bool single = s.kind == ShapeKind::Circle || s.kind == ShapeKind::Point;
    if (pa->size() < need || (single && pa->size() != 1)) {
      return fail(*points,
                  where + " (" + kind + ") has " + std::to_string(pa->size()) +
                      " point(s); expected " +
                      (single ? "exactly 1 (the centre)" : "at least " + std::to_string(need)));
    }
    for (size_t i = 0; i < pa->size(); ++i) {
      const toml::array* xy = (*pa)[i].as_array();
      const std::string what = where + " point " + std::to_string(i);
      if (xy == nullptr || xy->size() != 2) {
        fail((*pa)[i], what + " is not a pair; expected [x, y]");
        continue;
      }
      const auto x = coordinate((*xy)[0], what + " x");
      const auto y = coordinate((*xy)[1], what + " y");
      if (x && y) s.points.push_back({*x, *y});
    }

    const toml::node* radius = t->get("radius");
    if (s.kind == ShapeKind::Circle) {
      if (radius == nullptr)
        return fail(node,
                    where + " (circle) has no 'radius'; expected radius = <number or expression>");
      if (const auto r = coordinate(*radius, where + " radius")) s.radius = *r;
    } else if (radius != nullptr) {
      fail(*radius, where + ": 'radius' is for circles only; expected no radius on a " + kind);
    }

    if (const toml::node* pose = t->get("pose")) {
      const toml::array* p = pose->as_array();
      if (p == nullptr || p->size() != 3) {
        fail(*pose, where + ": 'pose' is not a pose; expected [x, y, angle]");
      } else {
        const auto px = coordinate((*p)[0], where + " pose x");
        const auto py = coordinate((*p)[1], where + " pose y");
        const auto pr = coordinate((*p)[2], where + " pose angle");
        if (px && py && pr) s.pose = std::array<lang::NodeId, 3>{*px, *py, *pr};
      }
    }
    if (const toml::node* c = t->get("color")) {
      if (!c->is_string())
        fail(*c, where + ": 'color' is not a string; expected a matplotlib colour name");
      s.color = c->value_or(std::string());
    }
    if (const toml::node* w = t->get("width")) {
      const std::optional<double> v = w->value<double>();
      if (!v || !(*v > 0.0) || !std::isfinite(*v)) {
        fail(*w, where + ": 'width' is not valid; expected a positive number");
      } else {
        s.width = *v;
      }
    }
    if (const toml::node* f = t->get("fill")) {
      if (!f->is_boolean()) fail(*f, where + ": 'fill' is not a boolean; expected true or false");
      s.fill = f->value_or(false);
    }
    return s;
  }

  const DrawingSectionContext& ctx_;
  bool ok_ = true;
};

}  // namespace

const char* to_string(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::Segment:
      return "segment";
    case ShapeKind::Polygon:
      return "polygon";
    case ShapeKind::Circle:
      return "circle";
    case ShapeKind::Point:
      return "point";
  }
  return "?";
}

std::optional<ModelDrawing> read_drawing_section(const toml::node& section,
                                                 const DrawingSectionContext& ctx) {
  return DrawingReader(ctx).read(section);
}

}  // namespace saltus::model
