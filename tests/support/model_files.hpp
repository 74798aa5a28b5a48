// Helpers shared by the model-file tests: where models/ is, and numbers written for --set.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"

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

// Loading `text` as "bad.toml" must fail with a message naming the file and containing `cause`.
inline void expect_load_refused(const std::string& text, const std::string& cause) {
  try {
    (void)saltus::model::load_model_text(text, "bad.toml");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const saltus::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.toml:"), std::string::npos) << what;
    EXPECT_NE(what.find(cause), std::string::npos) << what;
  }
}

}  // namespace saltus::testing
