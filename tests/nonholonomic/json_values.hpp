// Reading numbers and vectors of oracle cases (nonholonomic tests).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus::testing {

inline double num(const nlohmann::json& j) {
  return j.get<double>();
}

inline Vector json_vector(const nlohmann::json& j) {
  const auto v = j.get<std::vector<double>>();
  return Eigen::Map<const Vector>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace saltus::testing
