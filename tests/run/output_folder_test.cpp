// replace_output_folder (run/output_folder.hpp): the --out folder is replaced as a whole or
// not at all, so it never holds files of two runs (issue 9, item 4).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::run {
namespace {

namespace fs = std::filesystem;

fs::path fresh_parent(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("saltus_output_folder_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputFolder, CreatesTheFolderWithExactlyTheFiles) {
  const fs::path parent = fresh_parent("create");
  replace_output_folder(parent / "a" / "out", {{"trajectory.csv", "t\n"}, {"summary.json", "{}"}});
  EXPECT_EQ(read(parent / "a" / "out" / "trajectory.csv"), "t\n");
  EXPECT_EQ(entries(parent / "a" / "out"), 2);
  EXPECT_EQ(entries(parent / "a"), 1);  // no temporary folder left beside it
}

// Regression: a failed run left the previous run's summary.json beside new CSVs.
TEST(OutputFolder, OldFilesAreReplacedWholesale) {
  const fs::path parent = fresh_parent("replace");
  const fs::path out = parent / "out";
  replace_output_folder(out, {{"trajectory.csv", "old"},
                              {"summary.json", "{\"status\": \"end-time-reached\"}"},
                              {"states.png", "old plot"}});
  replace_output_folder(out / "", {{"trajectory.csv", "new"}, {"summary.json", "{\"status\": 1}"}});
  EXPECT_EQ(read(out / "trajectory.csv"), "new");
  EXPECT_EQ(read(out / "summary.json"), "{\"status\": 1}");
  EXPECT_FALSE(fs::exists(out / "states.png"));
  EXPECT_EQ(entries(parent), 1);
}

// Regression: a write failing midway mixed a new trajectory.csv with an old summary.json.
TEST(OutputFolder, AWriteFailingMidwayLeavesTheOldFolder) {
  const fs::path parent = fresh_parent("midway");
  const fs::path out = parent / "out";
  replace_output_folder(out, {{"trajectory.csv", "old"}, {"summary.json", "old"}});
  // The second file cannot be created (its folder does not exist): the write fails after the
  // first file was written.
  EXPECT_THROW(replace_output_folder(out, {{"trajectory.csv", "new"}, {"missing/x.json", "new"}}),
               Error);
  EXPECT_EQ(read(out / "trajectory.csv"), "old");
  EXPECT_EQ(read(out / "summary.json"), "old");
  EXPECT_EQ(entries(out), 2);
  EXPECT_EQ(entries(parent), 1);  // the half-written fresh folder is gone
}

TEST(OutputFolder, AFolderWithForeignFilesIsNotReplaced) {
  const fs::path parent = fresh_parent("foreign");
  const fs::path out = parent / "mine";
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "keep";
  try {
    replace_output_folder(out, {{"summary.json", "{}"}});
    ADD_FAILURE() << "a folder holding thesis.tex was replaced";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("thesis.tex"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(out / "thesis.tex"), "keep");
  EXPECT_EQ(entries(parent), 1);
}

TEST(OutputFolder, AFileInPlaceOfTheFolderIsNotReplaced) {
  const fs::path parent = fresh_parent("file");
  std::ofstream(parent / "out") << "a file";
  EXPECT_THROW(replace_output_folder(parent / "out", {{"summary.json", "{}"}}), Error);
  EXPECT_EQ(read(parent / "out"), "a file");
}

TEST(OutputFolder, NamesWithoutAFolderOfTheirOwnAreRefused) {
  for (const char* dir : {".", "..", "/", ""}) {
    EXPECT_THROW(replace_output_folder(dir, {{"summary.json", "{}"}}), Error) << dir;
  }
}

}  // namespace
}  // namespace saltus::run
