// Units of model files: a unit string ("m/s^2", "kg m^2", "N s/m", "1") parsed into a scale to
// SI and a dimension, the exponents of the seven SI base units (m, kg, s, A, K, mol, cd).
// Exponents are rationals, so sqrt(k/m) of k in N/m and m in kg is s^-1 and a Hertz stiffness
// may be written N/m^(3/2).
//
// Grammar (docs/MODEL_FORMAT.md "Units"):
//   unit    := group (('*' | '/') group)*     left to right: m/s/s is m s^-2
//   group   := factor (' ' factor)*           a space multiplies, before * and /: N s/m is
//                                             (N s)/m, J/kg K is J/(kg K)
//   factor  := atom ('^' exponent)?
//   atom    := symbol | '1' | '(' unit ')'
//   exponent:= integer | '(' integer ('/' integer)? ')'     e.g. m^-2, m^(3/2)
// Symbols: the base units m, g (kg is a prefixed gram), s, A, K, mol, cd; the derived units N,
// J, W, Pa, Hz, V, C, ohm, F, T, Wb, H, L; rad and sr (dimensionless, scale 1), deg (pi/180),
// rev (2 pi), rpm, min, h, and % (0.01). SI prefixes (a f p n u m c d da h k M G T P E) go on
// the SI units, not on deg, rev, rpm, min, h or %.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace saltus::lang {

// A rational number p/q in lowest terms, q > 0.
class Rational {
 public:
  constexpr Rational() = default;
  Rational(std::int64_t p, std::int64_t q = 1);
  std::int64_t num() const { return p_; }
  std::int64_t den() const { return q_; }
  double value() const { return static_cast<double>(p_) / static_cast<double>(q_); }
  // The rational p/q with q <= max_den equal to x (to 1e-12 relative); none when there is none.
  static std::optional<Rational> from_double(double x, std::int64_t max_den = 12);
  friend Rational operator+(Rational a, Rational b);
  friend Rational operator-(Rational a, Rational b) { return a + Rational(-b.p_, b.q_); }
  friend Rational operator*(Rational a, Rational b);
  friend bool operator==(const Rational&, const Rational&) = default;
  std::string str() const;  // "2", "-1/2"

 private:
  std::int64_t p_ = 0, q_ = 1;
};

inline constexpr int kBaseUnits = 7;
// The base units' symbols, in the order of Dimension::exponent.
inline constexpr std::array<const char*, kBaseUnits> kBaseUnitNames = {"m", "kg",  "s", "A",
                                                                       "K", "mol", "cd"};

struct Dimension {
  std::array<Rational, kBaseUnits> exponent{};

  bool dimensionless() const { return *this == Dimension{}; }
  friend Dimension operator*(const Dimension& a, const Dimension& b);  // exponents add
  friend Dimension operator/(const Dimension& a, const Dimension& b);  // exponents subtract
  Dimension pow(Rational r) const;
  friend bool operator==(const Dimension&, const Dimension&) = default;
  // In base units: "m s^-2", "m^2 kg s^-2", "m^1/2"; "1" when dimensionless.
  std::string str() const;
  static Dimension base(int i, Rational e = 1);
};

struct Unit {
  double scale = 1.0;  // one of the unit in SI (km: 1000, deg: pi/180)
  Dimension dimension;
};

struct UnitParse {
  std::optional<Unit> unit;
  std::string bad;  // the token that is not a unit, or that stopped the parse
  int offset = 0;   // its offset in the string
  std::string why;  // "is not a unit", "expected ...": what is wrong with `bad`
};

// Parses a unit string (grammar above); on failure `unit` is empty and `bad`, `offset`, `why`
// say where and why.
UnitParse parse_unit(std::string_view text);

// The message naming the problem of a failed parse: "'meters' is not a unit; expected SI units
// such as m, kg, s, N, rad and prefixes (mm, ms), joined by *, / and ^".
std::string unit_problem(const UnitParse& p);

}  // namespace saltus::lang
