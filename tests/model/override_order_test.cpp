// --set replaces a value written in the file; the state (or parameter) keeps its place in the
// file's order. toml++ gives the replacing node no source position, which once sorted an
// overridden plain-number state (`y = 0.5`) to the front: `--set y=0` then wrote columns
// t,j,mode,y,x,... and anything indexing states by position read the wrong one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"

namespace saltus::model {
namespace {

constexpr const char* kText = R"([parameters]
a = 1.0
b = 2.0
c = { value = 3.0 }
[states]
x = 0.25
y = 0.5
z = { initial = 0.75 }
[modes.m]
flow = ["x' = a", "y' = b", "z' = c"]
[solver]
t_end = 1.0
)";

std::vector<std::string> names(const std::vector<Quantity>& q) {
  std::vector<std::string> out;
  for (const Quantity& e : q) out.push_back(e.name);
  return out;
}

TEST(OverrideOrder, OverriddenStatesAndParametersKeepTheirPlace) {
  const std::vector<std::vector<std::string>> cases = {
      {"y=0"}, {"x=-1"}, {"z=2"}, {"y=0", "x=3"}, {"b=7"}, {"a=5", "c=6"}, {"y=\"a + b\""}};
  for (const auto& set : cases) {
    const Model m = load_model_text(kText, "order.toml", set);
    EXPECT_EQ(names(m.states), (std::vector<std::string>{"x", "y", "z"})) << set.front();
    EXPECT_EQ(names(m.parameters), (std::vector<std::string>{"a", "b", "c"})) << set.front();
  }
  const Model m = load_model_text(kText, "order.toml", {"y=-2", "b=9"});
  EXPECT_EQ(m.states[0].value, 0.25);
  EXPECT_EQ(m.states[1].value, -2.0);
  EXPECT_EQ(m.states[2].value, 0.75);
  EXPECT_EQ(m.parameters[1].value, 9.0);
}

}  // namespace
}  // namespace saltus::model
