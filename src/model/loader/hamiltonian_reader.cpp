// Hamiltonian models: [coordinates] with momenta, [hamiltonian] with one H(q, p) or two
// separated by a surface h(q) = 0, and [[contacts]] as walls. The loader expands them into an
// explicit model (docs/MODEL_FORMAT.md "Hamiltonian models"): a mode per region whose flow is
// Hamilton's equations, a guard per wall whose reset is the cotangent impact map, and a
// "crossing" guard whose targets are refraction (the crossing map (12) of seed 003) or, when
// it has no real root, total internal reflection.
#include <Eigen/Cholesky>
#include <algorithm>
#include <sstream>

#include "model_reader.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {
namespace {

// The value of `node` at the model's initial state (the parameters are folded in already).
double initial_value(const lang::ExpressionGraph& g, lang::NodeId node, const Model& m) {
  const lang::Tape tape = lang::compile_tape(g, {{node, 0}});
  const Vector x = m.initial_state(), z(0);
  return evaluate(tape, m.t_start, x, x, z);
}

}  // namespace

// H of one region: a string H(q, p), or a table { H = "..." } or { metric = [[...]],
// potential = "..." } (H = 1/2 p^T M^-1 p + V).
lang::NodeId ModelReader::region_hamiltonian(const toml::node& n, const std::string& where) {
  if (n.is_string()) {
    return expression(n, where, symbols({})).value_or(lang::kNoNode);
  }
  if (!n.is_table()) {
    add(n, where + " is " + type_name(n) + "; expected H as a string or a table " +
               "{ H = \"...\" } or { metric = [[...]], potential = \"...\" }");
    return lang::kNoNode;
  }
  const toml::table& t = *n.as_table();
  check_keys(t, where, {"H", "metric", "potential"});
  if (t.get("H") != nullptr) {
    if (t.get("metric") != nullptr || t.get("potential") != nullptr) {
      add(t, where + " has H and also metric/potential; expected one of the two forms");
    }
    return mechanics_expression(t, "H", where);
  }
  const toml::node* metric = t.get("metric");
  if (metric == nullptr) {
    add(t, where + " has neither H nor metric; expected H = \"H(q, p)\" or metric = [[...]]");
    return lang::kNoNode;
  }
  const int n_q = dof_;
  std::vector<std::vector<lang::NodeId>> M;
  const toml::array* rows = metric->as_array();
  if (rows == nullptr || static_cast<int>(rows->size()) != n_q) {
    add(*metric, where + " metric is not " + std::to_string(n_q) + " rows; expected an " +
                     std::to_string(n_q) + " x " + std::to_string(n_q) +
                     " array of expressions of q, one row per coordinate");
    return lang::kNoNode;
  }
  bool ok = true;
  for (const toml::node& row : *rows) {
    const toml::array* entries = array_of_strings(row, where + " metric row");
    if (entries == nullptr || static_cast<int>(entries->size()) != n_q) {
      if (entries != nullptr) {
        add(row, where + " metric row has " + std::to_string(entries->size()) +
                     " entries; expected " + std::to_string(n_q));
      }
      ok = false;
      continue;
    }
    std::vector<lang::NodeId> r;
    for (const toml::node& e : *entries) {
      const lang::NodeId v = expression(e, where + " metric", symbols({})).value_or(lang::kNoNode);
      if (v != lang::kNoNode) {
        if (const std::string culprit = forbidden_input(v, true); !culprit.empty()) {
          add_at(e, 0, where + " metric depends on " + culprit + "; expected a function of q");
          ok = false;
        }
      }
      ok = ok && v != lang::kNoNode;
      r.push_back(v);
    }
    M.push_back(std::move(r));
  }
  lang::NodeId V = graph_->constant(0.0);
  if (t.get("potential") != nullptr) V = mechanics_expression(t, "potential", where);
  if (!ok || V == lang::kNoNode) return lang::kNoNode;
  if (const std::string culprit = forbidden_input(V, true); !culprit.empty()) {
    add(*t.get("potential"), where + " potential depends on " + culprit + "; expected V(t, q)");
    return lang::kNoNode;
  }
  for (int i = 0; i < n_q; ++i) {
    for (int j = 0; j < i; ++j) {
      if (M[static_cast<size_t>(i)][static_cast<size_t>(j)] !=
          M[static_cast<size_t>(j)][static_cast<size_t>(i)]) {
        add(*metric, where + " metric is not symmetric: entries (" + std::to_string(i + 1) + ", " +
                         std::to_string(j + 1) + ") and (" + std::to_string(j + 1) + ", " +
                         std::to_string(i + 1) + ") differ; expected M = M^T");
        return lang::kNoNode;
      }
    }
  }
  return lang::natural_hamiltonian(*graph_, M, V, n_q);
}

// H convex in p at the initial state: d^2 H / dp^2 positive definite (the Legendre transform
// exists).
bool ModelReader::check_convex(const lang::HamiltonianEquations& eq, const toml::node& at,
                               const std::string& where) {
  const int n = dof_;
  Eigen::MatrixXd Hpp(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      Hpp(i, j) = initial_value(
          *graph_, eq.inverse_mass[static_cast<size_t>(i)][static_cast<size_t>(j)], model_);
    }
  }
  Eigen::LLT<Eigen::MatrixXd> llt(Hpp);
  if (!Hpp.allFinite() || llt.info() != Eigen::Success) {
    std::ostringstream text;
    text << Hpp.format(Eigen::IOFormat(6, 0, ", ", "; ", "", "", "[", "]"));
    add(at, where + " is not convex in the momenta at the initial state: d2H/dp2 = " + text.str() +
                " is not positive definite (no Legendre transform); expected " +
                "a positive definite inverse mass matrix");
    return false;
  }
  return true;
}

// [[contacts]] of a Hamiltonian model: walls g(q) >= 0 with Newton's restitution e (default 1:
// the corner conditions, energy kept).
std::vector<HamiltonianWall> ModelReader::read_hamiltonian_walls(const toml::table& doc) {
  std::vector<HamiltonianWall> out;
  const toml::node* list = doc.get("contacts");
  if (list == nullptr) return out;
  if (!list->is_array_of_tables()) {
    add(*list, "contacts is " + type_name(*list) + "; expected [[contacts]] tables");
    return out;
  }
  for (const toml::node& e : *list->as_array()) {
    const toml::table& t = *e.as_table();
    HamiltonianWall wall;
    wall.name = "contact" + std::to_string(out.size());
    if (const toml::node* v = t.get("name")) wall.name = string(*v, "contact name").value_or("");
    const std::string where = "contact '" + wall.name + "'";
    check_keys(t, where + " of a Hamiltonian model", {"name", "gap", "e"});
    for (const HamiltonianWall& other : out) {
      if (other.name == wall.name) add(t, where + ": name used twice; expected unique names");
    }
    if (const toml::node* v = t.get("e")) {
      wall.e = number(*v, where + " e").value_or(1.0);
      if (!(wall.e >= 0.0 && wall.e <= 1.0)) {
        add(*v, where + " e = " + std::to_string(wall.e) + "; expected 0 <= e <= 1");
      }
    }
    if (t.get("gap") == nullptr) {
      add(t, where + " has no gap; expected gap = \"g(q)\" (positive when open)");
      continue;
    }
    wall.gap = geometry_expression(t, "gap", where);
    if (wall.gap != lang::kNoNode) out.push_back(std::move(wall));
  }
  return out;
}

// Guard "impact:NAME" of a wall in the mode `self`: p+ = p + eps dg (cotangent Newton impact).
ModelGuard ModelReader::wall_guard(const HamiltonianWall& wall,
                                   const lang::HamiltonianEquations& eq, int self) {
  lang::ExpressionGraph& g = *graph_;
  ModelGuard guard;
  guard.name = "impact:" + wall.name;
  guard.value = g.make(lang::OpCode::Neg, wall.gap);  // fires as g falls through 0
  std::vector<lang::NodeId> d;
  for (int i = 0; i < dof_; ++i) d.push_back(g.derivative(wall.gap, {lang::OpCode::State, i}));
  const lang::NodeId eps = lang::impact_multiplier(g, eq, d, g.constant(wall.e));
  ModelTarget back;
  back.target = self;
  const std::vector<lang::NodeId> p = lang::momenta_after(g, d, eps, dof_);
  for (int i = 0; i < dof_; ++i) back.reset.push_back({dof_ + i, p[static_cast<size_t>(i)]});
  guard.targets.push_back(std::move(back));
  return guard;
}

void ModelReader::read_hamiltonian(const toml::table& doc) {
  const toml::table* t = table_at(doc, "hamiltonian", "a Hamiltonian model", true);
  if (t == nullptr || dof_ == 0) return;
  check_keys(*t, "[hamiltonian]", {"H", "metric", "potential", "surface", "outside", "inside"});
  lang::ExpressionGraph& g = *graph_;
  const int n = dof_;
  for (int i = 0; i < n; ++i) {
    const std::string& p = state_names_[static_cast<size_t>(n + i)];
    if (constants_.constants.count(p) != 0) {
      add(*t, "the momentum of '" + state_names_[static_cast<size_t>(i)] + "' is named " + p +
                  ", which is also a parameter; expected another parameter name");
    }
  }
  const bool two_regions = t->get("surface") != nullptr;
  struct Region {
    std::string name;
    const toml::node* at;
    lang::HamiltonianEquations eq;
  };
  std::vector<Region> regions;
  if (!two_regions) {
    if (t->get("outside") != nullptr || t->get("inside") != nullptr) {
      add(*t, "[hamiltonian] has outside/inside but no surface; expected surface = \"h(q)\"");
      return;
    }
    const lang::NodeId H = region_hamiltonian(*t, "[hamiltonian]");
    if (H == lang::kNoNode) return;
    regions.push_back({"motion", t, lang::derive_hamiltonian(g, H, n)});
  } else {
    for (const char* key : {"H", "metric", "potential"}) {
      if (t->get(key) != nullptr) {
        add(*t->get(key), std::string("[hamiltonian] ") + key + " beside a surface; expected " +
                              "the Hamiltonians in outside = ... and inside = ...");
      }
    }
    for (const char* side : {"outside", "inside"}) {
      const toml::node* r = t->get(side);
      if (r == nullptr) {
        add(*t, std::string("[hamiltonian] has a surface but no ") + side + "; expected " + side +
                    " = \"H(q, p)\" (the Hamiltonian where the surface value is " +
                    (side[0] == 'o' ? "> 0)" : "< 0)"));
        return;
      }
      const lang::NodeId H = region_hamiltonian(*r, std::string("[hamiltonian] ") + side);
      if (H == lang::kNoNode) return;
      regions.push_back({side, r, lang::derive_hamiltonian(g, H, n)});
    }
  }
  for (const Region& r : regions) {
    if (!lang::is_quadratic_in_momenta(g, r.eq, n)) {
      add(*r.at, "the Hamiltonian of " + r.name + " is not quadratic in the momenta; expected " +
                     "a natural Hamiltonian H = 1/2 p^T M(q)^-1 p + (terms linear in p) + V(q), " +
                     "whose impact and crossing maps saltus solves in closed form");
      return;
    }
  }
  if (!two_regions && !check_convex(regions.front().eq, *t, "[hamiltonian] H")) return;
  const std::vector<HamiltonianWall> walls = read_hamiltonian_walls(doc);
  for (size_t k = 0; k < regions.size(); ++k) {
    ModelMode mode;
    mode.name = regions[k].name;
    mode.flow = regions[k].eq.rates;
    for (const HamiltonianWall& w : walls) {
      mode.guards.push_back(wall_guard(w, regions[k].eq, static_cast<int>(k)));
    }
    model_.modes.push_back(std::move(mode));
    mode_names_.push_back(regions[k].name);
  }
  if (!two_regions) return;
  const lang::NodeId h = geometry_expression(*t, "surface", "[hamiltonian]");
  if (h == lang::kNoNode) return;
  std::vector<lang::NodeId> d;
  for (int i = 0; i < n; ++i) d.push_back(g.derivative(h, {lang::OpCode::State, i}));
  const double h0 = initial_value(g, h, model_);
  if (!(h0 != 0.0)) {
    add(*t->get("surface"), "[hamiltonian] surface is " + std::to_string(h0) +
                                " at the initial state; expected the start inside a region " +
                                "(> 0 outside, < 0 inside)");
    return;
  }
  model_.initial_mode = h0 > 0 ? 0 : 1;
  initial_mode_chosen_ = true;
  // The other region's H need not exist at the initial state; its convexity across the
  // surface is a condition of the refraction target instead.
  const Region& start = regions[static_cast<size_t>(model_.initial_mode)];
  if (!check_convex(start.eq, *start.at, "the Hamiltonian of " + start.name)) return;
  // Crossing guards: outside (h > 0) fires as h falls through 0, inside as it rises.
  for (int from = 0; from < 2; ++from) {
    const int to = 1 - from, entering_sign = to == 0 ? 1 : -1;
    const lang::HamiltonianEquations& a = regions[static_cast<size_t>(from)].eq;
    const lang::HamiltonianEquations& b = regions[static_cast<size_t>(to)].eq;
    const lang::CrossingMap c = lang::crossing_map(g, a, b, d, entering_sign);
    ModelGuard guard;
    guard.name = "crossing";
    guard.value = from == 0 ? g.make(lang::OpCode::Neg, h) : h;
    guard.output_names = {"crossing_discriminant", "eps_refraction", "eps_reflection"};
    guard.outputs = {c.discriminant, c.eps_refraction, c.eps_reflection};
    ModelTarget refract;
    refract.target = to;
    refract.when =
        g.make(lang::OpCode::Mul, g.make(lang::OpCode::GreaterEqual, c.discriminant, g.constant(0)),
               g.make(lang::OpCode::Greater, c.a, g.constant(0)));
    refract.when_text = "refraction: real roots of the crossing map and " +
                        regions[static_cast<size_t>(to)].name + "'s H convex across the surface";
    const std::vector<lang::NodeId> p_in = lang::momenta_after(g, d, c.eps_refraction, n);
    for (int i = 0; i < n; ++i) refract.reset.push_back({n + i, p_in[static_cast<size_t>(i)]});
    ModelTarget reflect;  // total internal reflection on the own side, H kept
    reflect.target = from;
    reflect.when = g.make(lang::OpCode::Less, c.discriminant, g.constant(0));
    reflect.when_text = "total internal reflection: no real root";
    const std::vector<lang::NodeId> p_back =
        lang::momenta_after(g, d, lang::impact_multiplier(g, a, d, g.constant(1.0)), n);
    for (int i = 0; i < n; ++i) reflect.reset.push_back({n + i, p_back[static_cast<size_t>(i)]});
    guard.targets = {std::move(refract), std::move(reflect)};
    model_.modes[static_cast<size_t>(from)].guards.push_back(std::move(guard));
  }
}

}  // namespace saltus::model::loader
