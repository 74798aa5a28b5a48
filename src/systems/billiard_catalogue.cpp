#include "saltus/systems/billiard_catalogue.hpp"

#include <cmath>
#include <random>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::systems {

namespace {

constexpr double kTwoPi = 6.283185307179586;

std::map<std::string, double> defaults(const std::string& system) {
  std::map<std::string, double> p = {{"A", 2.0}, {"B", 1.0}, {"e", 1.0}, {"T", 0.5}};
  if (system == "sleigh") {
    p.insert({{"m", 1.0}, {"I", 0.1}, {"a", 0.3}, {"L", 0.3}});
  } else if (system == "ball") {
    p.insert({{"k2", 0.4}, {"r", 1.0}});
  } else if (system == "disk") {
    p.insert({{"m", 1.0}, {"R", 0.2}, {"I", 0.02}, {"J", 0.01}});
  }
  return p;
}

std::string known_names(const std::map<std::string, double>& p) {
  std::string out;
  for (const auto& [name, value] : p) out += (out.empty() ? "" : ", ") + name;
  return out;
}

void apply(const std::string& system, const std::string& item, std::map<std::string, double>& p) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) {
    saltus::detail::throw_error("--set '", item, "': expected name=value");
  }
  const std::string name = item.substr(0, eq), text = item.substr(eq + 1);
  if (p.find(name) == p.end()) {
    saltus::detail::throw_error("--set '", item, "': system '", system, "' has no parameter '",
                                name, "' (it has ", known_names(p), ")");
  }
  std::istringstream in(text);
  double v = 0.0;
  if (!(in >> v) || !in.eof() || !std::isfinite(v)) {
    saltus::detail::throw_error("--set '", item, "': '", text, "' is not a finite number");
  }
  p[name] = v;
}

void check_ranges(const std::string& system, const std::map<std::string, double>& p) {
  for (const auto& [name, v] : p) {
    if (name == "e") {
      if (!(v >= 0.0 && v <= 1.0)) {
        saltus::detail::throw_error(system, ": e = ", v, " must be in [0, 1]");
      }
    } else if (!(v > 0.0)) {
      saltus::detail::throw_error(system, ": ", name, " = ", v, " must be > 0");
    }
  }
  const double B = std::min(p.at("A"), p.at("B"));
  for (const char* len : {"L", "R"}) {
    if (system != "ball" && p.count(len) && !(p.at(len) < B)) {
      saltus::detail::throw_error(system, ": ", len, " = ", p.at(len),
                                  " does not fit in the table (must be < min(A, B) = ", B, ")");
    }
  }
}

// A uniform point of [lo, hi).
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

}  // namespace

const std::vector<std::string>& billiard_names() {
  static const std::vector<std::string> names = {"sleigh", "ball", "disk"};
  return names;
}

Billiard make_billiard(const std::string& system, const std::vector<std::string>& set) {
  bool known = false;
  for (const std::string& n : billiard_names()) known = known || n == system;
  if (!known) {
    saltus::detail::throw_error("unknown system '", system, "' (known: sleigh, ball, disk)");
  }
  std::map<std::string, double> p = defaults(system);
  for (const std::string& item : set) apply(system, item, p);
  check_ranges(system, p);
  const EllipticTable table{p.at("A"), p.at("B")};
  const double e = p.at("e");
  if (system == "sleigh") {
    const ChaplyginSleigh s{p.at("m"), p.at("I"), p.at("a"), p.at("L")};
    return {system, p, table, chaplygin_sleigh(s, table, e), {"x", "y", "theta"}};
  }
  if (system == "ball") {
    const RollingBall b{p.at("k2"), p.at("r")};
    return {system, p, table, rolling_ball(b, table, e), {"x", "y", "theta", "phi", "psi"}};
  }
  const VerticalDisk d{p.at("m"), p.at("R"), p.at("I"), p.at("J")};
  return {system, p, table, vertical_disk(d, table, e), {"x", "y", "theta", "phi"}};
}

std::vector<Vector> billiard_initial_states(const Billiard& b, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto& p = b.params;
  const double A = b.table.A, B = b.table.B, T = p.at("T");
  std::vector<Vector> out;
  for (int k = 0; k < count; ++k) {
    Vector x;
    for (int tries = 0;; ++tries) {
      if (tries > 100000) {
        saltus::detail::throw_error(b.system, ": no admissible start found in 1e5 draws");
      }
      const double px = uniform(rng, -A, A), py = uniform(rng, -B, B);
      const double angle = uniform(rng, 0.0, kTwoPi), alpha = uniform(rng, 0.0, kTwoPi);
      if (b.system == "sleigh") {
        const double m = p.at("m"), Ia = p.at("I") + p.at("m") * p.at("a") * p.at("a");
        x = sleigh_state(px, py, angle, std::sqrt(2.0 * T / m) * std::cos(alpha),
                         std::sqrt(2.0 * T / Ia) * std::sin(alpha));
      } else if (b.system == "disk") {
        const VerticalDisk d{p.at("m"), p.at("R"), p.at("I"), p.at("J")};
        const double roll = d.m * d.R * d.R + d.I;  // reduced metric diag(m R^2 + I, J)
        x = vertical_disk_state(d, px, py, uniform(rng, 0.0, kTwoPi), angle,
                                std::sqrt(2.0 * T / roll) * std::cos(alpha),
                                std::sqrt(2.0 * T / d.J) * std::sin(alpha));
      } else {
        // Space angular velocity w uniform in angle on T = 1/2 ((r^2 + k2)(wx^2 + wy^2) + k2
        // wz^2), then Euler rates from w (FORMULAS.md 13.2).
        const RollingBall ball{p.at("k2"), p.at("r")};
        const double th = uniform(rng, 1.2, 1.9), psi = uniform(rng, 0.0, kTwoPi);
        const double polar = std::acos(uniform(rng, -1.0, 1.0));
        const double horizontal = std::sqrt(2.0 * T / (ball.r * ball.r + ball.k2));
        const double wx = horizontal * std::sin(polar) * std::cos(alpha);
        const double wy = horizontal * std::sin(polar) * std::sin(alpha);
        const double wz = std::sqrt(2.0 * T / ball.k2) * std::cos(polar);
        const double thd = wx * std::cos(psi) + wy * std::sin(psi);
        const double phd = (wx * std::sin(psi) - wy * std::cos(psi)) / std::sin(th);
        x = rolling_ball_state(ball, px, py, th, angle, psi, thd, phd, wz - phd * std::cos(th));
      }
      const int n = b.model.dof();
      bool inside = true;
      for (int w = 0; w < b.model.wall_count(); ++w) {
        inside = inside && b.model.wall_value(w, x.head(n)) > 0.0;
      }
      if (inside) break;
    }
    out.push_back(x);
  }
  return out;
}

analysis::DensityAxis billiard_axis(const Billiard& b, const std::string& name, int bins) {
  for (size_t i = 0; i < b.coordinates.size(); ++i) {
    if (b.coordinates[i] != name) continue;
    if (name == "x") return {static_cast<int>(i), -b.table.A, b.table.A, bins};
    if (name == "y") return {static_cast<int>(i), -b.table.B, b.table.B, bins};
    return {static_cast<int>(i), 0.0, kTwoPi, bins};
  }
  std::string names;
  for (const std::string& c : b.coordinates) names += (names.empty() ? "" : ", ") + c;
  saltus::detail::throw_error("system '", b.system, "' has no coordinate '", name, "' (it has ",
                              names, ")");
}

std::function<Eigen::Vector2d(ConstVectorRef x)> billiard_observable(const Billiard&, int ix,
                                                                     int iy) {
  // x and y are the first two coordinates of every system; the rest are angles.
  auto value = [](ConstVectorRef x, int i) {
    if (i < 2) return x[i];
    const double w = std::fmod(x[i], kTwoPi);
    return w < 0.0 ? w + kTwoPi : w;
  };
  return [=](ConstVectorRef x) { return Eigen::Vector2d(value(x, ix), value(x, iy)); };
}

double billiard_energy(const Billiard& b, ConstVectorRef x) {
  const int n = b.model.dof();
  return b.model.kinetic_energy(x.head(n), x.tail(n));
}

}  // namespace saltus::systems
