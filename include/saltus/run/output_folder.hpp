// Replacing a run's output folder as a whole, so that it never mixes files of two runs.
//
// replace_output_folder() writes every file into a fresh hidden folder beside the target, then
// swaps it in with one rename (Linux renameat2 RENAME_EXCHANGE when the target exists) and
// deletes what was there. A write failure removes the fresh folder and leaves the target as it
// was; a later failure can at worst leave the complete new folder in place.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace saltus::run {

// (file name inside the folder, contents)
using OutputFile = std::pair<std::string, std::string>;

// Names a saltus run or plot writes into its output folder. A folder holding anything else is
// not replaced (it may be the user's own), so `--out ~` cannot delete a home folder.
// (`saltus sweep` writes sweep.csv and sweep_<quantity>.png; those are accepted too.)
const std::vector<std::string>& output_folder_names();

// Replaces folder `dir` (created with its parents if absent) by a folder holding exactly
// `files`. Throws saltus::Error naming the path and the cause when `dir` is not a folder, holds
// a file saltus did not write, or a file cannot be written; the old `dir` is then untouched.
void replace_output_folder(const std::filesystem::path& dir, const std::vector<OutputFile>& files);

}  // namespace saltus::run
