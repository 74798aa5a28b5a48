// Unit strings (lang/units.hpp): every form the model files write, SI prefixes, exponents,
// scales, and strings that are not units refused naming the token.
#include "saltus/lang/units.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

namespace saltus::lang {
namespace {

Unit parsed(const std::string& text) {
  const UnitParse p = parse_unit(text);
  EXPECT_TRUE(p.unit.has_value()) << text << ": " << unit_problem(p);
  return p.unit.value_or(Unit{});
}

std::string dim(const std::string& text) {
  return parsed(text).dimension.str();
}

TEST(Units, EveryUnitTheModelFilesWrite) {
  EXPECT_EQ(dim("m"), "m");
  EXPECT_EQ(dim("m/s"), "m s^-1");
  EXPECT_EQ(dim("m/s^2"), "m s^-2");
  EXPECT_EQ(dim("1"), "1");
  EXPECT_EQ(dim("rad"), "1");
  EXPECT_EQ(dim("kg"), "kg");
  EXPECT_EQ(dim("s"), "s");
  EXPECT_EQ(dim("kg m^2"), "m^2 kg");
  EXPECT_EQ(dim("N/m"), "kg s^-2");
  EXPECT_EQ(dim("1/s"), "s^-1");
  EXPECT_EQ(dim("rad/s"), "s^-1");
  EXPECT_EQ(dim("N/kg"), "m s^-2");
  EXPECT_EQ(dim("N s/m"), "kg s^-1");
  EXPECT_EQ(dim("N"), "m kg s^-2");
  EXPECT_EQ(dim("N m/rad"), "m^2 kg s^-2");
  EXPECT_EQ(dim("J"), "m^2 kg s^-2");
  EXPECT_EQ(dim("rad/s^2"), "s^-2");
  EXPECT_EQ(dim("N m s/rad"), "m^2 kg s^-1");
  EXPECT_EQ(dim("1/s^2"), "s^-2");
}

TEST(Units, ProductsQuotientsPowersAndParentheses) {
  EXPECT_EQ(dim("kg*m/s^2"), dim("N"));
  EXPECT_EQ(dim("m/s/s"), "m s^-2");          // left to right
  EXPECT_EQ(dim("J/kg K"), "m^2 s^-2 K^-1");  // a space binds before '/'
  EXPECT_EQ(dim("(m/s)^2"), "m^2 s^-2");
  EXPECT_EQ(dim("m^-2"), "m^-2");
  EXPECT_EQ(dim("s^+1"), "s");
  EXPECT_EQ(dim("N/m^(3/2)"), "m^(-1/2) kg s^-2");  // a Hertz contact's stiffness
  EXPECT_EQ(dim("  m  /  s  "), "m s^-1");
  EXPECT_EQ(dim("W"), dim("J/s"));
  EXPECT_EQ(dim("Pa"), dim("N/m^2"));
  EXPECT_EQ(dim("Hz"), "s^-1");
  EXPECT_EQ(dim("V"), dim("W/A"));
  EXPECT_EQ(dim("C"), "s A");
  EXPECT_EQ(dim("ohm"), dim("V/A"));
  EXPECT_EQ(dim("mol/L"), "m^-3 mol");
  EXPECT_EQ(dim("cd"), "cd");
}

TEST(Units, PrefixesAndScales) {
  EXPECT_DOUBLE_EQ(parsed("km").scale, 1e3);
  EXPECT_DOUBLE_EQ(parsed("mm").scale, 1e-3);
  EXPECT_DOUBLE_EQ(parsed("cm").scale, 1e-2);
  EXPECT_DOUBLE_EQ(parsed("um").scale, 1e-6);
  EXPECT_DOUBLE_EQ(parsed("ms").scale, 1e-3);
  EXPECT_DOUBLE_EQ(parsed("ns").scale, 1e-9);
  EXPECT_DOUBLE_EQ(parsed("kg").scale, 1.0);
  EXPECT_DOUBLE_EQ(parsed("g").scale, 1e-3);
  EXPECT_DOUBLE_EQ(parsed("kN").scale, 1e3);
  EXPECT_DOUBLE_EQ(parsed("MPa").scale, 1e6);
  EXPECT_DOUBLE_EQ(parsed("dam").scale, 10.0);
  EXPECT_DOUBLE_EQ(parsed("mm^3").scale, 1e-9);  // the prefix belongs to the symbol
  EXPECT_DOUBLE_EQ(parsed("cm/ms").scale, 10.0);
  EXPECT_DOUBLE_EQ(parsed("deg").scale, std::numbers::pi / 180.0);
  EXPECT_TRUE(parsed("deg").dimension.dimensionless());
  EXPECT_DOUBLE_EQ(parsed("rev").scale, 2.0 * std::numbers::pi);
  EXPECT_DOUBLE_EQ(parsed("rpm").scale, 2.0 * std::numbers::pi / 60.0);
  EXPECT_EQ(dim("rpm"), "s^-1");
  EXPECT_DOUBLE_EQ(parsed("min").scale, 60.0);
  EXPECT_DOUBLE_EQ(parsed("h").scale, 3600.0);
  EXPECT_DOUBLE_EQ(parsed("%").scale, 0.01);
  EXPECT_DOUBLE_EQ(parsed("mrad").scale, 1e-3);
  EXPECT_EQ(dim("min"), "s");
  EXPECT_EQ(dim("mm"), "m");
  EXPECT_EQ(dim("us"), "s");
}

// The offset and token of a refused string, and the message naming them.
void expect_refused(const std::string& text, const std::string& bad, int offset,
                    const std::string& cause) {
  const UnitParse p = parse_unit(text);
  ASSERT_FALSE(p.unit.has_value()) << text;
  EXPECT_EQ(p.bad, bad) << text;
  EXPECT_EQ(p.offset, offset) << text;
  EXPECT_NE(unit_problem(p).find(cause), std::string::npos) << unit_problem(p);
}

TEST(Units, StringsThatAreNotUnitsAreRefusedNamingTheToken) {
  expect_refused("meters per fortnight", "meters", 0,
                 "'meters' is not a unit; expected SI units such as m, kg, s, N, rad");
  expect_refused("m/sec", "sec", 2, "'sec' is not a unit");
  expect_refused("mkg", "mkg", 0, "is not a unit");    // no prefix on kg
  expect_refused("kdeg", "kdeg", 0, "is not a unit");  // nor on deg
  expect_refused("2 m", "2", 0, "the only number is 1");
  expect_refused("m^", "", 2, "expected an exponent after '^'");
  expect_refused("m^x", "x", 2, "'x' is not an exponent");
  expect_refused("m^1.5", ".", 3, "expected *, / or a space");
  expect_refused("m^(1/0)", "0", 5, "is not a denominator");
  expect_refused("m//s", "/", 2, "is not a unit");
  expect_refused("m/", "", 2, "found the end");
  expect_refused("(m", "", 2, "expected ')'");
  expect_refused("m)", ")", 1, "expected *, / or a space");
  expect_refused("", "", 0, "found the end");
  expect_refused("m-s", "-", 1, "expected *, / or a space");
}

TEST(Units, RationalsAndDimensionText) {
  EXPECT_EQ(Rational(2, 4), Rational(1, 2));
  EXPECT_EQ(Rational(3, -6), Rational(-1, 2));
  EXPECT_EQ((Rational(1, 2) + Rational(1, 3)).str(), "5/6");
  EXPECT_EQ((Rational(2, 3) * Rational(3, 2)).str(), "1");
  EXPECT_EQ(Rational::from_double(1.5), Rational(3, 2));
  EXPECT_EQ(Rational::from_double(-0.25), Rational(-1, 4));
  EXPECT_EQ(Rational::from_double(1.0 / 3.0), Rational(1, 3));
  EXPECT_FALSE(Rational::from_double(0.37).has_value());
  EXPECT_FALSE(Rational::from_double(std::sqrt(2.0)).has_value());
  EXPECT_EQ(Dimension{}.str(), "1");
  EXPECT_EQ(dim("m^2 s^-2").substr(0, 3), "m^2");
  // A dimension's text reads back as the same dimension.
  for (const char* u : {"N/m^(3/2)", "J/kg K", "kg m^2", "V", "F", "H", "Wb", "T"}) {
    EXPECT_EQ(parsed(parsed(u).dimension.str()).dimension, parsed(u).dimension) << u;
  }
}

}  // namespace
}  // namespace saltus::lang
