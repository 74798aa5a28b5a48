// Messages about a model's [[sections]] used as a return map's section name it once:
// "section 'midstance'", not "section 'section midstance'" (issue 33; the section's guard is
// named "section midstance", model/model_section.hpp).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "saltus/analysis/return_map.hpp"
#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_section.hpp"
#include "saltus/model/model_system.hpp"

namespace saltus::model {
namespace {

// A particle at rest at x = 0 (it never reaches x = 1).
constexpr const char* kResting = R"toml([states]
x = 0.0
[modes.still]
flow = ["x' = 0"]
[[sections]]
name = "midstance"
value = "x - 1"
[solver]
t_end = 1.0
)toml";

TEST(SectionMessages, NameTheSectionOnce) {
  const auto model = std::make_shared<const Model>(load_model_text(kResting, "still.toml"));
  const HybridSystem system = build_hybrid_system(model);
  const Guard section = section_guard(*model, "midstance");
  EXPECT_EQ(section.name, "section midstance");
  try {
    (void)analysis::section_map(system, 0, 0.0, section, 0.0, 1.0);
    FAIL() << "min_time = 0 accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("section 'midstance': min_time = 0", 0), 0u) << what;
  }
  const analysis::ReturnMap map = analysis::section_map(system, 0, 0.0, section, 0.1, 2.0);
  const analysis::MapValue v = map(Vector::Zero(1));
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.message.find("the section 'midstance' was not crossed"), std::string::npos)
      << v.message;
  EXPECT_EQ(v.message.find("section 'section"), std::string::npos) << v.message;
}

}  // namespace
}  // namespace saltus::model
