// The layout mirrors the layers of DESIGN.md: a layer's headers (include/saltus/<layer>/) and
// sources (src/<layer>/) include only the public headers of the layers before it, and mech only
// core and lcp ("mechanics and the engine are siblings, joined only by core"). Checked by reading
// every file's `#include "saltus/<layer>/...` lines; a relative include that leaves its layer's
// folder is refused too (it would hide the dependency).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(__FILE__).parent_path().parent_path().parent_path();

// What each layer may include besides itself (DESIGN.md's layers). lcp (complementarity numerics)
// and lang (the expression language) need only core; mech needs core and lcp ("mechanics and the
// engine are siblings, joined only by core"); bridge (the Moreau-Jean bridge of a mechanical run)
// joins sim and mech; systems (the C++ catalogue of seed systems) and model (files) sit above
// analysis, model above bridge too; run (what the command and the Python package do with a model)
// above all of them; the fronts (apps/, python/) may use all.
const std::map<std::string, std::set<std::string>> kAllowed = {
    {"core", {}},
    {"ode", {"core"}},
    {"events", {"core", "ode"}},
    {"sim", {"core", "ode", "events"}},
    {"lcp", {"core"}},
    {"mech", {"core", "ode", "events", "lcp"}},
    {"analysis", {"core", "ode", "events", "sim", "lcp", "mech"}},
    {"bridge", {"core", "ode", "events", "sim", "lcp", "mech"}},
    {"systems", {"core", "ode", "events", "sim", "lcp", "mech", "analysis"}},
    {"lang", {"core"}},
    {"model", {"core", "ode", "events", "sim", "lcp", "mech", "analysis", "lang", "bridge"}},
    {"run",
     {"core", "ode", "events", "sim", "lcp", "mech", "analysis", "systems", "lang", "model",
      "bridge"}},
};

std::vector<fs::path> files_of(const std::string& layer) {
  std::vector<fs::path> files;
  for (const fs::path& dir : {kRoot / "include" / "saltus" / layer, kRoot / "src" / layer}) {
    if (!fs::exists(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".hpp" || ext == ".cpp"))
        files.push_back(entry.path());
    }
  }
  return files;
}

TEST(Layering, EveryLayerIncludesOnlyTheLayersBeforeIt) {
  const std::regex public_include(R"(^\s*#\s*include\s+"saltus/(\w+)/)");
  const std::regex leaving_include(R"(^\s*#\s*include\s+"(\.\./)+(\w+)/)");
  long files = 0, includes = 0;
  for (const auto& [layer, allowed] : kAllowed) {
    const std::vector<fs::path> layer_files = files_of(layer);
    EXPECT_FALSE(layer_files.empty()) << "no files found for layer " << layer << " under " << kRoot;
    for (const fs::path& file : layer_files) {
      ++files;
      std::ifstream in(file);
      std::string line;
      int number = 0;
      while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (std::regex_search(line, m, public_include)) {
          ++includes;
          const std::string dep = m[1];
          EXPECT_TRUE(dep == layer || allowed.count(dep) > 0)
              << file.string() << ":" << number << ": layer " << layer << " includes " << dep;
        }
        // From src/<layer>/<sub>/ one level up stays in the layer; from src/<layer>/ it leaves.
        if (std::regex_search(line, m, leaving_include)) {
          const fs::path target = fs::weakly_canonical(
              file.parent_path() /
              line.substr(line.find('"') + 1, line.rfind('"') - line.find('"') - 1));
          const std::string relative = fs::relative(target, kRoot / "src").string();
          EXPECT_EQ(relative.substr(0, relative.find('/')), layer)
              << file.string() << ":" << number << ": relative include leaves layer " << layer;
        }
      }
    }
  }
  std::printf("layering: %ld files, %ld includes of saltus headers checked\n", files, includes);
  EXPECT_GT(includes, files);  // nearly every file includes its own header and a few more
}

// The layers below the bridge know nothing of it (issue 44 item 3): no code of theirs (comments
// aside) names its records, its mode, its status or its log. sim stores a layer's records and
// modes under the names that layer gives them (sim/event_log.hpp).
TEST(Layering, NoLayerBelowTheBridgeNamesIt) {
  const std::regex bridge_name(
      R"re(\b(kBridge\w*|kPainleveChoice\w*|kMoreauJean\w*|BridgeUnsettled|\w*lift_offs?|)re"
      R"re(BridgeLog|BridgeStretch|BridgeOptions|run_bridged|bridge_\w+)\b|)re"
      R"re("(moreau-jean|bridge-start|bridge-end|painleve-lift-off|bridge-unsettled)")re");
  long checked = 0;
  for (const auto& [layer, allowed] : kAllowed) {
    if (layer == "bridge" || allowed.count("bridge") > 0) continue;
    for (const fs::path& file : files_of(layer)) {
      std::ifstream in(file);
      std::string line;
      int number = 0;
      while (std::getline(in, line)) {
        ++number;
        const std::string code = line.substr(0, line.find("//"));
        std::smatch m;
        EXPECT_FALSE(std::regex_search(code, m, bridge_name))
            << file.string() << ":" << number << ": layer " << layer << " names the bridge's "
            << m.str();
        ++checked;
      }
    }
  }
  std::printf("layers below the bridge: %ld lines checked\n", checked);
  EXPECT_GT(checked, 10000);
}

// Every layer folder is one the rule above knows (a new layer needs its place in it).
TEST(Layering, EveryLayerFolderHasItsPlace) {
  for (const fs::path& dir : {kRoot / "include" / "saltus", kRoot / "src"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (!entry.is_directory()) continue;
      EXPECT_EQ(kAllowed.count(entry.path().filename().string()), 1u) << entry.path().string();
    }
  }
}

}  // namespace
