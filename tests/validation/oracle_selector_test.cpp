// oracle_cases() fails the calling test when its selector matches no case: a loop over no case
// would otherwise pass without checking anything (issue 9, item 6).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "support/oracles.hpp"

namespace saltus {
namespace {

using saltus::testing::oracle_cases;

// Regression: a misspelt or removed model name made its oracle loop pass vacuously.
TEST(OracleSelector, NoMatchingCaseFailsTheTest) {
  EXPECT_NONFATAL_FAILURE(oracle_cases("zeno.no_such_model"),
                          "no oracle case has model 'zeno.no_such_model'");
  EXPECT_NONFATAL_FAILURE(oracle_cases("no_such_prefix.", true), "(prefix)");
}

TEST(OracleSelector, MatchingCasesAreReturned) {
  const auto cases = oracle_cases("zeno.bouncing_ball");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) EXPECT_EQ(c.at("model").get<std::string>(), "zeno.bouncing_ball");
  for (const auto& c : oracle_cases("zeno.", true)) {
    EXPECT_EQ(c.at("model").get<std::string>().rfind("zeno.", 0), 0u);
  }
}

}  // namespace
}  // namespace saltus
