// The switches of an expression (lang/switches.hpp): each with its switching function and its
// branch on either side, substitution of the branches, and the text of a surface.
#include "saltus/lang/switches.hpp"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "saltus/core/error.hpp"
#include "saltus/core/types.hpp"
#include "saltus/lang/expression_compiler.hpp"
#include "saltus/lang/expression_text.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::lang {
namespace {

struct Parsed {
  ExpressionGraph g;
  SymbolTable s;
  Parsed() { s.states = {"x", "y"}; }
  NodeId operator()(const std::string& text) {
    const ParsedExpression p = parse_expression(text, s, g);
    EXPECT_TRUE(p.ok()) << text;
    return p.node;
  }
};

TEST(Switches, EachSwitchHasItsSurfaceAndBranches) {
  Parsed p;
  const NodeId f = p("sign(x) + abs(y - 1) + max(x, y) + if(x < y, 2, 3) + 5*(y >= 0.5)");
  const std::vector<Switch> s = find_switches(p.g, {f});
  ASSERT_EQ(s.size(), 5u);
  const ExpressionText text(p.g, p.s.states, {});
  // In node order: sign, abs, max, the if (its condition is part of it), the comparison.
  std::vector<std::string> h;
  for (const Switch& w : s) h.push_back(text(w.h));
  EXPECT_EQ(h, (std::vector<std::string>{"x", "y - 1", "x - y", "x - y", "y - 0.5"}));
  EXPECT_EQ(text(s[0].plus), "1");
  EXPECT_EQ(text(s[0].minus), "-1");
  EXPECT_EQ(text(s[1].minus), "-(y - 1)");
  EXPECT_EQ(text(s[2].plus), "x");  // max(x, y) where x > y
  EXPECT_EQ(text(s[3].plus), "3");  // if(x < y, 2, 3) where x > y
  EXPECT_EQ(text(s[4].plus), "1");
  // Every switch on one side: a smooth expression, equal to f wherever every h has that sign.
  for (const bool plus_side : {true, false}) {
    std::unordered_map<NodeId, NodeId> branch;
    for (const Switch& w : s) branch[w.node] = plus_side ? w.plus : w.minus;
    const NodeId smooth = substitute(p.g, f, branch);
    EXPECT_TRUE(find_switches(p.g, {smooth}).empty());
    const Vector x = plus_side ? Vector{{3.0, 2.0}} : Vector{{-1.0, 0.0}}, z(0);
    const double original = evaluate(compile_tape(p.g, {{f, 0}}), 0.0, x, x, z);
    EXPECT_EQ(evaluate(compile_tape(p.g, {{smooth, 0}}), 0.0, x, x, z), original);
    EXPECT_EQ(original, plus_side ? 1.0 + 1.0 + 3.0 + 3.0 + 5.0 : -1.0 + 1.0 + 0.0 + 2.0 + 0.0);
  }
}

TEST(Switches, WhatHasNoSidesIsRefused) {
  for (const char* text : {"if(x, 1, 2)", "if(x == y, 1, 2)", "1 + (x != 0)"}) {
    Parsed p;
    const NodeId f = p(text);
    EXPECT_THROW((void)find_switches(p.g, {f}), Error) << text;
  }
}

}  // namespace
}  // namespace saltus::lang
