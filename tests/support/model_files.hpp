// Helpers shared by the model-file tests: where models/ is, and numbers written for --set.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>

namespace saltus::testing {

inline std::filesystem::path models_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "models";
}

// `v` with all 17 significant digits (an override that round-trips exactly).
inline std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

}  // namespace saltus::testing
