// Dimensions of expressions (lang/dimension_inference.hpp): the rules for sums, products, powers
// and functions, numbers that take their partner's dimension, unknown symbols that are never a
// conflict, and a seeded ensemble of random products and sums of symbols of random dimensions.
#include "saltus/lang/dimension_inference.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "saltus/lang/expression_compiler.hpp"

namespace saltus::lang {
namespace {

Dimension unit(const std::string& text) {
  return parse_unit(text).unit.value().dimension;
}

// Parameters are leaves (not folded), each with a unit ("" for none) and a value; one state y
// in m (a leaf whose value is not known).
struct Fixture {
  std::vector<std::string> names;
  std::vector<NodeDimension> dims;
  std::vector<double> values;
  ExpressionGraph graph;
  SymbolTable symbols;

  void add(const std::string& name, const std::string& u, double value = 1.0) {
    names.push_back(name);
    dims.push_back(u.empty() ? NodeDimension::unknown() : NodeDimension::known(unit(u)));
    values.push_back(value);
  }

  // The dimension of `text` and the first conflict's message ("" when none).
  std::pair<NodeDimension, std::string> infer(const std::string& text) {
    symbols.parameters = names;
    symbols.states = {"y"};
    const ParsedExpression p = parse_expression(text, symbols, graph);
    EXPECT_TRUE(p.ok()) << text;
    DimensionInference inference(
        graph,
        [this](const Variable& v) {
          return v.kind == OpCode::State ? NodeDimension::known(unit("m"))
                                         : dims[static_cast<size_t>(v.index)];
        },
        [this](int i) -> std::optional<double> { return values[static_cast<size_t>(i)]; },
        [this](const Variable& v) {
          return v.kind == OpCode::State ? "y" : names[static_cast<size_t>(v.index)];
        });
    std::vector<DimensionConflict> conflicts;
    const NodeDimension d = inference.infer(p.node, &conflicts);
    return {d, conflicts.empty() ? "" : conflicts.front().message};
  }
  std::string dim(const std::string& text) {
    const auto [d, conflict] = infer(text);
    EXPECT_EQ(conflict, "") << text;
    return d.str();
  }
  std::string conflict(const std::string& text) { return infer(text).second; }
};

Fixture physics() {
  Fixture f;
  f.add("x", "m");
  f.add("v", "m/s");
  f.add("g", "m/s^2");
  f.add("m", "kg");
  f.add("k", "N/m");
  f.add("T", "s");
  f.add("th", "rad");
  f.add("a", "deg");
  f.add("e", "1");
  f.add("n", "1", 3.0);
  f.add("q", "");  // no unit
  f.add("h", "1", 0.37);
  return f;
}

TEST(DimensionInference, ProductsQuotientsAndSums) {
  Fixture f = physics();
  EXPECT_EQ(f.dim("x/T"), "m s^-1");
  EXPECT_EQ(f.dim("v + g*T"), "m s^-1");
  EXPECT_EQ(f.dim("0.5*m*v^2 + m*g*x"), "m^2 kg s^-2");
  EXPECT_EQ(f.dim("-k*x/m"), "m s^-2");
  EXPECT_EQ(f.dim("abs(v) - min(v, g*T)"), "m s^-1");
  EXPECT_EQ(f.dim("if(x > 0, v, -v)"), "m s^-1");
  EXPECT_EQ(f.conflict("x + v"), "a sum of x (m) and v (m s^-1)");
  EXPECT_EQ(f.conflict("v - g"), "a difference of v (m s^-1) and g (m s^-2)");
  EXPECT_EQ(f.conflict("max(x, T)"), "max of x (m) and T (s)");
  EXPECT_EQ(f.conflict("x < v"), "a comparison of x (m) and v (m s^-1)");
  EXPECT_EQ(f.conflict("if(x > 0, x, v)"), "if() with branches of x (m) and v (m s^-1)");
  EXPECT_EQ(f.conflict("m*(x + v*T*g)"), "a sum of x (m) and m^2 s^-2");
}

TEST(DimensionInference, NumbersTakeTheirPartnersDimensionInSums) {
  Fixture f = physics();
  EXPECT_EQ(f.dim("x - 1.0"), "m");
  EXPECT_EQ(f.dim("2*x + 3"), "m");
  EXPECT_EQ(f.dim("-9.81"), "a number");
  EXPECT_EQ(f.dim("2*pi"), "a number");
  EXPECT_EQ(f.dim("(1 + e)*v"), "m s^-1");
  EXPECT_EQ(f.dim("3*v"), "m s^-1");  // dimensionless in a product
  EXPECT_EQ(f.dim("1/T"), "s^-1");
  EXPECT_EQ(f.dim("max(x, 0)"), "m");
  EXPECT_EQ(f.dim("x > 0"), "1");
  EXPECT_EQ(f.dim("(x > 0)*k"), "kg s^-2");
  EXPECT_EQ(f.dim("sign(v)"), "1");
  EXPECT_EQ(f.dim("-v*sign(x)"), "m s^-1");
}

TEST(DimensionInference, PowersAndRoots) {
  Fixture f = physics();
  EXPECT_EQ(f.dim("x^2"), "m^2");
  EXPECT_EQ(f.dim("x^3"), "m^3");
  EXPECT_EQ(f.dim("x^-1"), "m^-1");
  EXPECT_EQ(f.dim("sqrt(k/m)"), "s^-1");
  EXPECT_EQ(f.dim("sqrt(2*g*x)"), "m s^-1");
  EXPECT_EQ(f.dim("x^1.5"), "m^(3/2)");
  EXPECT_EQ(f.dim("pow(x, 0.5)"), "m^(1/2)");
  EXPECT_EQ(f.dim("sqrt(sqrt(x))^4"), "m");
  EXPECT_EQ(f.dim("x^n"), "m^3");  // the exponent reads only parameters: its value
  EXPECT_EQ(f.dim("e^(x/v/T)"), "1");
  EXPECT_EQ(f.dim("2^(y/x)"), "1");
  EXPECT_EQ(f.dim("e^(y/x)"), "1");
  EXPECT_EQ(f.conflict("x^h"),
            "a power of x (m) to 0.37; expected a dimensionless base or a "
            "rational exponent (2, 1/2, 3/2)");
  EXPECT_EQ(f.conflict("x^(y/x)"),
            "a power of x (m) to a variable exponent; expected a dimensionless base");
  EXPECT_EQ(f.conflict("e^T"), "a power with exponent of T (s); expected a dimensionless exponent");
}

TEST(DimensionInference, FunctionsNeedDimensionlessArguments) {
  Fixture f = physics();
  EXPECT_EQ(f.dim("sin(th)"), "1");
  EXPECT_EQ(f.dim("cos(a)"), "1");  // deg is dimensionless
  EXPECT_EQ(f.dim("x*cos(v*T/x)"), "m");
  EXPECT_EQ(f.dim("exp(-T/T)*x"), "m");
  EXPECT_EQ(f.dim("atan2(x, g*T^2)"), "1");
  EXPECT_EQ(f.dim("asin(e) + th"), "1");
  EXPECT_EQ(f.conflict("sin(x)"),
            "sin of x (m); expected a dimensionless argument (rad and deg are dimensionless)");
  EXPECT_EQ(f.conflict("log(T)").substr(0, 10), "log of T (");
  EXPECT_EQ(f.conflict("tanh(v)").substr(0, 11), "tanh of v (");
  EXPECT_EQ(f.conflict("atan2(x, v)"), "atan2 of x (m) and v (m s^-1)");
}

TEST(DimensionInference, UnknownSymbolsAreNeverAConflict) {
  Fixture f = physics();
  EXPECT_EQ(f.dim("q*x"), "unknown");
  EXPECT_EQ(f.dim("x + q"), "m");  // a sum has its known side's dimension
  EXPECT_EQ(f.dim("q + 1"), "unknown");
  EXPECT_EQ(f.dim("sin(q)"), "1");
  EXPECT_EQ(f.dim("q^(y/x)"), "unknown");
  EXPECT_EQ(f.dim("q^2"), "unknown");
  EXPECT_EQ(f.dim("q*x + v"), "m s^-1");
  EXPECT_EQ(f.conflict("q*x + v + x"), "a sum of x (m) and m s^-1");  // still a conflict
}

TEST(DimensionInference, AConflictIsReportedOnceHoweverOftenItIsUsed) {
  Fixture f = physics();
  f.symbols.parameters = f.names;
  const ParsedExpression a = parse_expression("x + v", f.symbols, f.graph);
  const ParsedExpression b = parse_expression("2*(x + v) + g", f.symbols, f.graph);
  DimensionInference inference(f.graph, [&](const Variable& v) { return f.dims[v.index]; });
  std::vector<DimensionConflict> first, second;
  EXPECT_EQ(inference.infer(a.node, &first).str(), "unknown");
  EXPECT_EQ(inference.infer(b.node, &second).str(), "m s^-2");
  EXPECT_EQ(first.size(), 1u);
  EXPECT_TRUE(second.empty());
}

// Random products and quotients of symbols with random exponent vectors: the inferred dimension
// is the sum of the factors' exponents; a sum of two products of different dimensions is a
// conflict, and of equal ones is not.
TEST(DimensionInference, RandomProductsMatchTheirExponentSums) {
  std::mt19937 rng(47);
  std::uniform_int_distribution<int> exponent(-3, 3), pick(0, 5), power(1, 3), coin(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    Fixture f;
    std::vector<Dimension> dims;
    for (int i = 0; i < 6; ++i) {
      Dimension d;
      for (int b = 0; b < kBaseUnits; ++b) d.exponent[b] = Rational(exponent(rng));
      dims.push_back(d);
      f.names.push_back("p" + std::to_string(i));
      f.dims.push_back(NodeDimension::known(d));
      f.values.push_back(1.0);
    }
    const auto product = [&](Dimension& total) {
      std::string text = "2.5";
      for (int k = 0; k < 4; ++k) {
        const int i = pick(rng), p = power(rng);
        const bool divide = coin(rng) == 1;
        text +=
            std::string(divide ? "/" : "*") + f.names[i] + (p > 1 ? "^" + std::to_string(p) : "");
        const Dimension d = dims[i].pow(Rational(p));
        total = divide ? total / d : total * d;
      }
      return text;
    };
    Dimension da, db;
    const std::string a = product(da), b = product(db);
    EXPECT_EQ(f.dim(a), da.dimensionless() ? "1" : da.str()) << a;
    const std::string sum = "(" + a + ") + (" + b + ")";
    const std::string conflict = f.conflict(sum);
    if (da == db) {
      EXPECT_EQ(conflict, "") << sum;
    } else {
      EXPECT_EQ(conflict, "a sum of " + da.str() + " and " + db.str()) << sum;
    }
  }
}

}  // namespace
}  // namespace saltus::lang
