// Access to ../shared/reference/oracles.json for validation tests.
//
// Every case has: id, model, parameters, expected, tolerance {rel, abs}. A value passes when
// |got - expected| <= abs + rel * |expected| (FORMULAS.md section 0).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace saltus::testing {

struct OracleTolerance {
  double rel = 0.0;
  double abs = 0.0;
  bool accepts(double got, double expected) const {
    return std::abs(got - expected) <= abs + rel * std::abs(expected);
  }
};

inline const nlohmann::json& oracle_file() {
  static const nlohmann::json data = [] {
    std::ifstream in(SALTUS_ORACLES_JSON);
    if (!in) {
      throw std::runtime_error(std::string("cannot open oracle file ") + SALTUS_ORACLES_JSON);
    }
    return nlohmann::json::parse(in);
  }();
  return data;
}

// All cases whose "model" equals `model`, or starts with it when `prefix` is true. A selector
// that matches nothing fails the calling test: a loop over no case would pass without checking.
inline std::vector<nlohmann::json> oracle_cases(const std::string& model, bool prefix = false) {
  std::vector<nlohmann::json> out;
  for (const auto& c : oracle_file().at("cases")) {
    const std::string m = c.at("model").get<std::string>();
    if (m == model || (prefix && m.rfind(model, 0) == 0)) out.push_back(c);
  }
  if (out.empty()) {
    ADD_FAILURE() << "no oracle case has model '" << model << "'" << (prefix ? " (prefix)" : "")
                  << " in " << SALTUS_ORACLES_JSON;
  }
  return out;
}

inline const nlohmann::json& oracle_case(const std::string& id) {
  for (const auto& c : oracle_file().at("cases")) {
    if (c.at("id").get<std::string>() == id) return c;
  }
  throw std::runtime_error("no oracle case with id " + id);
}

inline OracleTolerance oracle_tolerance(const nlohmann::json& c) {
  return {c.at("tolerance").at("rel").get<double>(), c.at("tolerance").at("abs").get<double>()};
}

// gtest assertion: got within the oracle tolerance of expected; the message names the case.
inline ::testing::AssertionResult oracle_near(const std::string& what, double got, double expected,
                                              const OracleTolerance& tol) {
  if (tol.accepts(got, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": got " << got << ", expected " << expected << " (|diff| "
         << std::abs(got - expected) << " > " << tol.abs + tol.rel * std::abs(expected) << ")";
}

}  // namespace saltus::testing
