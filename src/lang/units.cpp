// Unit strings parsed into a scale and a dimension (units.hpp).
#include "saltus/lang/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <numeric>

namespace saltus::lang {

Rational::Rational(std::int64_t p, std::int64_t q) {
  if (q < 0) {
    p = -p;
    q = -q;
  }
  const std::int64_t g = std::gcd(p, q);
  p_ = g > 1 ? p / g : p;
  q_ = g > 1 ? q / g : q;
  if (p_ == 0) q_ = 1;
}

std::optional<Rational> Rational::from_double(double x, std::int64_t max_den) {
  if (!std::isfinite(x) || std::abs(x) > 1e6) return std::nullopt;
  for (std::int64_t q = 1; q <= max_den; ++q) {
    const double p = std::round(x * static_cast<double>(q));
    if (std::abs(p / static_cast<double>(q) - x) <= 1e-12 * std::max(1.0, std::abs(x))) {
      return Rational(static_cast<std::int64_t>(p), q);
    }
  }
  return std::nullopt;
}

Rational operator+(Rational a, Rational b) {
  return Rational(a.p_ * b.q_ + b.p_ * a.q_, a.q_ * b.q_);
}

Rational operator*(Rational a, Rational b) {
  return Rational(a.p_ * b.p_, a.q_ * b.q_);
}

std::string Rational::str() const {
  return q_ == 1 ? std::to_string(p_) : std::to_string(p_) + "/" + std::to_string(q_);
}

Dimension operator*(const Dimension& a, const Dimension& b) {
  Dimension out;
  for (int i = 0; i < kBaseUnits; ++i) out.exponent[i] = a.exponent[i] + b.exponent[i];
  return out;
}

Dimension operator/(const Dimension& a, const Dimension& b) {
  Dimension out;
  for (int i = 0; i < kBaseUnits; ++i) out.exponent[i] = a.exponent[i] - b.exponent[i];
  return out;
}

Dimension Dimension::pow(Rational r) const {
  Dimension out;
  for (int i = 0; i < kBaseUnits; ++i) out.exponent[i] = exponent[i] * r;
  return out;
}

Dimension Dimension::base(int i, Rational e) {
  Dimension d;
  d.exponent[static_cast<size_t>(i)] = e;
  return d;
}

std::string Dimension::str() const {
  std::string out;
  for (int i = 0; i < kBaseUnits; ++i) {
    const Rational& e = exponent[static_cast<size_t>(i)];
    if (e == Rational(0)) continue;
    if (!out.empty()) out += " ";
    out += kBaseUnitNames[static_cast<size_t>(i)];
    // Appended piece by piece: GCC 12 reports a false -Wstringop-overflow for "^(" + str().
    if (e.den() != 1) {
      out.append("^(").append(e.str()).append(")");  // as the grammar reads it back
    } else if (e != Rational(1)) {
      out.append("^").append(e.str());
    }
  }
  return out.empty() ? "1" : out;
}

namespace {

struct Symbol {
  const char* name;
  double scale;
  std::array<int, kBaseUnits> exponent;  // m kg s A K mol cd
  bool prefixable;
};

constexpr double kPi = std::numbers::pi;

// Every unit symbol; a prefixed one is a prefix followed by a prefixable symbol.
constexpr Symbol kSymbols[] = {
    {"m", 1.0, {1, 0, 0, 0, 0, 0, 0}, true},
    {"g", 1e-3, {0, 1, 0, 0, 0, 0, 0}, true},
    {"s", 1.0, {0, 0, 1, 0, 0, 0, 0}, true},
    {"A", 1.0, {0, 0, 0, 1, 0, 0, 0}, true},
    {"K", 1.0, {0, 0, 0, 0, 1, 0, 0}, true},
    {"mol", 1.0, {0, 0, 0, 0, 0, 1, 0}, true},
    {"cd", 1.0, {0, 0, 0, 0, 0, 0, 1}, true},
    {"N", 1.0, {1, 1, -2, 0, 0, 0, 0}, true},
    {"J", 1.0, {2, 1, -2, 0, 0, 0, 0}, true},
    {"W", 1.0, {2, 1, -3, 0, 0, 0, 0}, true},
    {"Pa", 1.0, {-1, 1, -2, 0, 0, 0, 0}, true},
    {"bar", 1e5, {-1, 1, -2, 0, 0, 0, 0}, true},
    {"Hz", 1.0, {0, 0, -1, 0, 0, 0, 0}, true},
    {"C", 1.0, {0, 0, 1, 1, 0, 0, 0}, true},
    {"V", 1.0, {2, 1, -3, -1, 0, 0, 0}, true},
    {"ohm", 1.0, {2, 1, -3, -2, 0, 0, 0}, true},
    {"F", 1.0, {-2, -1, 4, 2, 0, 0, 0}, true},
    {"Wb", 1.0, {2, 1, -2, -1, 0, 0, 0}, true},
    {"T", 1.0, {0, 1, -2, -1, 0, 0, 0}, true},
    {"H", 1.0, {2, 1, -2, -2, 0, 0, 0}, true},
    {"L", 1e-3, {3, 0, 0, 0, 0, 0, 0}, true},
    {"rad", 1.0, {0, 0, 0, 0, 0, 0, 0}, true},
    {"sr", 1.0, {0, 0, 0, 0, 0, 0, 0}, true},
    {"deg", kPi / 180.0, {0, 0, 0, 0, 0, 0, 0}, false},
    {"rev", 2.0 * kPi, {0, 0, 0, 0, 0, 0, 0}, false},
    {"rpm", 2.0 * kPi / 60.0, {0, 0, -1, 0, 0, 0, 0}, false},
    {"min", 60.0, {0, 0, 1, 0, 0, 0, 0}, false},
    {"h", 3600.0, {0, 0, 1, 0, 0, 0, 0}, false},
    {"%", 0.01, {0, 0, 0, 0, 0, 0, 0}, false},
};

struct Prefix {
  const char* name;
  double scale;
};
constexpr Prefix kPrefixes[] = {{"da", 1e1}, {"a", 1e-18}, {"f", 1e-15}, {"p", 1e-12},
                                {"n", 1e-9}, {"u", 1e-6},  {"m", 1e-3},  {"c", 1e-2},
                                {"d", 1e-1}, {"h", 1e2},   {"k", 1e3},   {"M", 1e6},
                                {"G", 1e9},  {"T", 1e12},  {"P", 1e15},  {"E", 1e18}};

Unit unit_of(const Symbol& s, double prefix) {
  Unit u;
  u.scale = s.scale * prefix;
  for (int i = 0; i < kBaseUnits; ++i) {
    u.dimension.exponent[static_cast<size_t>(i)] = Rational(s.exponent[static_cast<size_t>(i)]);
  }
  return u;
}

// The symbol as written, else a prefix and a prefixable symbol ("km", "ms", "kg").
std::optional<Unit> lookup(std::string_view name) {
  for (const Symbol& s : kSymbols) {
    if (name == s.name) return unit_of(s, 1.0);
  }
  for (const Prefix& p : kPrefixes) {
    const std::string_view pre(p.name);
    if (name.size() <= pre.size() || name.substr(0, pre.size()) != pre) continue;
    for (const Symbol& s : kSymbols) {
      if (s.prefixable && name.substr(pre.size()) == s.name) return unit_of(s, p.scale);
    }
  }
  return std::nullopt;
}

Unit times(const Unit& a, const Unit& b, bool divide) {
  return divide ? Unit{a.scale / b.scale, a.dimension / b.dimension}
                : Unit{a.scale * b.scale, a.dimension * b.dimension};
}

class Parser {
 public:
  Parser(std::string_view text, UnitParse& out) : text_(text), out_(out) {}

  std::optional<Unit> whole() {
    auto u = product();
    if (!u) return std::nullopt;
    skip();
    if (pos_ < text_.size()) {
      return fail(pos_, token(pos_), "is not expected here; expected *, / or a space");
    }
    return u;
  }

 private:
  std::optional<Unit> fail(size_t at, std::string bad, std::string why) {
    if (out_.why.empty()) {
      out_.bad = std::move(bad);
      out_.offset = static_cast<int>(at);
      out_.why = std::move(why);
    }
    return std::nullopt;
  }
  void skip() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  static bool symbol_char(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '%';
  }
  // The word at `at` (for messages): letters, digits and '%', else the one character.
  std::string token(size_t at) const {
    size_t end = at;
    while (end < text_.size() &&
           (symbol_char(text_[end]) || std::isdigit(static_cast<unsigned char>(text_[end])))) {
      ++end;
    }
    if (end == at && at < text_.size()) end = at + 1;
    return std::string(text_.substr(at, end - at));
  }

  std::optional<Unit> product() {
    auto u = group();
    while (u) {
      skip();
      if (pos_ >= text_.size() || text_[pos_] == ')') return u;
      if (text_[pos_] != '*' && text_[pos_] != '/') {
        return fail(pos_, token(pos_), "is not expected here; expected *, / or a space");
      }
      const bool divide = text_[pos_] == '/';
      ++pos_;
      const auto g = group();
      if (!g) return std::nullopt;
      u = times(*u, *g, divide);
    }
    return u;
  }

  // Factors joined by spaces, which bind tighter than * and /: "J/kg K" is J/(kg K).
  std::optional<Unit> group() {
    auto u = factor();
    while (u) {
      const size_t before = pos_;
      skip();
      const bool next = pos_ > before && pos_ < text_.size() &&
                        (symbol_char(text_[pos_]) || text_[pos_] == '(' ||
                         std::isdigit(static_cast<unsigned char>(text_[pos_])));
      if (!next) {
        pos_ = before;
        return u;
      }
      const auto f = factor();
      if (!f) return std::nullopt;
      u = times(*u, *f, false);
    }
    return u;
  }

  std::optional<Unit> factor() {
    auto u = atom();
    if (!u) return std::nullopt;
    const size_t after = pos_;
    skip();
    if (pos_ >= text_.size() || text_[pos_] != '^') {
      pos_ = after;  // a space here is a product (product() reads it)
      return u;
    }
    ++pos_;
    skip();
    const auto e = exponent();
    if (!e) return std::nullopt;
    return Unit{std::pow(u->scale, e->value()), u->dimension.pow(*e)};
  }

  std::optional<std::int64_t> integer() {
    const size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
    const size_t digits = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == digits || pos_ - digits > 6) {
      const std::string bad = token(start);
      fail(start, bad,
           (bad.empty() ? "expected an exponent after '^': " : "is not an exponent; expected ") +
               std::string("an integer (m^2, s^-1) or a fraction in parentheses (m^(3/2))"));
      return std::nullopt;
    }
    return std::strtoll(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr, 10);
  }

  std::optional<Rational> exponent() {
    const bool paren = pos_ < text_.size() && text_[pos_] == '(';
    if (paren) ++pos_;
    const auto p = integer();
    if (!p) return std::nullopt;
    std::int64_t q = 1;
    if (paren && pos_ < text_.size() && text_[pos_] == '/') {
      ++pos_;
      const auto d = integer();
      if (!d) return std::nullopt;
      if (*d <= 0) {
        fail(pos_ - 1, std::to_string(*d), "is not a denominator; expected a positive integer");
        return std::nullopt;
      }
      q = *d;
    }
    if (paren) {
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        fail(pos_, token(pos_), "does not close the exponent; expected ')'");
        return std::nullopt;
      }
      ++pos_;
    }
    return Rational(*p, q);
  }

  std::optional<Unit> atom() {
    skip();
    const size_t at = pos_;
    if (pos_ >= text_.size()) {
      return fail(at, "", "expected a unit (a symbol such as m, or 1) but found the end");
    }
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      auto u = product();
      if (!u) return std::nullopt;
      skip();
      if (pos_ >= text_.size()) return fail(pos_, "", "expected ')' but found the end");
      if (text_[pos_] != ')') {
        return fail(pos_, token(pos_), "is not expected here; expected ')' to close the '('");
      }
      ++pos_;
      return u;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::string word = token(at);
      pos_ += word.size();
      if (word == "1") return Unit{};
      return fail(at, word, "is not a unit (the only number is 1, for dimensionless)");
    }
    if (!symbol_char(c)) return fail(at, token(at), "is not a unit");
    while (pos_ < text_.size() && symbol_char(text_[pos_])) ++pos_;
    const std::string_view name = text_.substr(at, pos_ - at);
    if (auto u = lookup(name)) return u;
    return fail(at, std::string(name), "is not a unit");
  }

  std::string_view text_;
  UnitParse& out_;
  size_t pos_ = 0;
};

}  // namespace

UnitParse parse_unit(std::string_view text) {
  UnitParse out;
  Parser p(text, out);
  out.unit = p.whole();
  if (out.unit) out.why.clear();
  return out;
}

std::string unit_problem(const UnitParse& p) {
  const std::string what = p.bad.empty() ? p.why : "'" + p.bad + "' " + p.why;
  if (p.why.rfind("is not a unit", 0) != 0) return what;  // a syntax error says what it expected
  return what +
         "; expected SI units such as m, kg, s, N, rad and prefixes (mm, ms), joined by *, / "
         "and ^ (e.g. \"m/s^2\", \"kg m^2\", \"1\" for dimensionless)";
}

}  // namespace saltus::lang
