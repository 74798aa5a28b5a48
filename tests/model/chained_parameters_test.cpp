// Parameters defined by expressions of earlier parameters (p1 = "p0 + 1", ...): a long chain
// loads (the loader keeps one table of the parameters read so far instead of copying it per
// parameter, which made 4 x 10^4 of them take minutes) and every value is the one the chain
// defines.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"

namespace saltus::model {
namespace {

// A model whose [parameters] are p0 = 1 and p_i = "p_{parent[i]} + 1" (parent[i] < i).
std::string chained_model(const std::vector<int>& parent) {
  std::string text = "[parameters]\np0 = 1.0\n";
  for (size_t i = 1; i < parent.size(); ++i) {
    // Appended piece by piece: "p" + std::to_string(i) trips GCC 12's false -Wrestrict.
    text.append("p").append(std::to_string(i)).append(" = \"p");
    text.append(std::to_string(parent[i])).append(" + 1\"\n");
  }
  text += "[states]\nx = 0.0\n[modes.m]\nflow = [\"x' = p" + std::to_string(parent.size() - 1) +
          "\"]\n[solver]\nt_end = 1.0\n";
  return text;
}

void expect_chain_values(const std::vector<int>& parent) {
  // depth[i] + 1 is the value of p_i: one "+ 1" per link back to p0 = 1.
  std::vector<double> expected(parent.size(), 1.0);
  for (size_t i = 1; i < parent.size(); ++i) {
    expected[i] = expected[static_cast<size_t>(parent[i])] + 1.0;
  }
  const Model m = load_model_text(chained_model(parent), "chain.toml");
  ASSERT_EQ(m.parameters.size(), parent.size());
  int wrong = 0;
  for (size_t i = 0; i < parent.size(); ++i) {
    EXPECT_EQ(m.parameters[i].name, std::string("p").append(std::to_string(i)));
    if (m.parameters[i].value != expected[i] && ++wrong <= 5) {
      ADD_FAILURE() << "p" << i << " = " << m.parameters[i].value << ", expected " << expected[i];
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(ChainedParameters, TwentyThousandInOneChain) {
  std::vector<int> parent(20000);
  for (size_t i = 1; i < parent.size(); ++i) parent[i] = static_cast<int>(i) - 1;
  expect_chain_values(parent);  // p_i = i + 1
}

TEST(ChainedParameters, SeededRandomEarlierParameters) {
  std::mt19937 rng(10002);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<int> parent(5000);
    for (size_t i = 1; i < parent.size(); ++i) {
      parent[i] = std::uniform_int_distribution<int>(0, static_cast<int>(i) - 1)(rng);
    }
    expect_chain_values(parent);
  }
}

}  // namespace
}  // namespace saltus::model
