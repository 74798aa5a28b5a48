// Reading a model file's text with bounds: a FIFO, a device or a folder named as a model is
// refused without blocking, and a file larger than kMaxModelFileBytes is refused without reading
// it all (/dev/zero or a multi-gigabyte file would otherwise exhaust memory first).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "saltus/model/diagnostic.hpp"

namespace saltus::model {

// Model files are hand-written TOML: a few kilobytes. 16 MiB leaves room for generated ones.
inline constexpr std::size_t kMaxModelFileBytes = std::size_t{16} << 20;

// The file's text; on a problem, appends a diagnostic naming the file and the cause, and returns
// an empty string.
std::string read_model_file_text(const std::filesystem::path& path,
                                 std::vector<Diagnostic>& diagnostics);

}  // namespace saltus::model
