// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/run/output_folder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "saltus/core/error.hpp"

namespace saltus::run {
namespace {

namespace fs = std::filesystem;

// The target's own name ("out/" and "out/." both name "out").
fs::path normalized_target(const fs::path& dir) {
  fs::path target = dir.lexically_normal();
  if (!target.has_filename() && target.has_parent_path()) target = target.parent_path();
  if (target.empty() || target == "." || target == ".." || target == "/") {
    saltus::detail::throw_error("output folder '", dir.string(),
                                "' names no folder of its own; choose a new or saltus-made folder");
  }
  return target;
}

bool written_by_saltus(const std::string& name) {
  // `saltus sweep`: sweep.csv (sweep.npy, sweep_columns.json below) and one sweep_<quantity>.png
  // per collected quantity.
  const auto ends_with = [&name](const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (name == "sweep.csv" || name == "sweep.csv.tmp") return true;
  if (name.rfind("sweep_", 0) == 0 && ends_with(".png")) return true;
  for (const std::string& known : output_folder_names()) {
    // Also the temporaries of an interrupted atomic write (csv_writer, plot_run.py).
    if (name == known || name == known + ".tmp") return true;
    const auto dot = known.rfind(".png");
    if (dot != std::string::npos && name == known.substr(0, dot) + ".tmp.png") return true;
  }
  return false;
}

void require_replaceable(const fs::path& target) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(target, ec);
  if (status.type() == fs::file_type::not_found) return;
  if (ec) saltus::detail::throw_error("cannot inspect '", target.string(), "': ", ec.message());
  if (status.type() != fs::file_type::directory) {
    saltus::detail::throw_error("output folder '", target.string(),
                                "' exists and is not a folder; nothing was replaced");
  }
  for (const fs::directory_entry& e : fs::directory_iterator(target, ec)) {
    const std::string name = e.path().filename().string();
    if (!written_by_saltus(name) || !e.is_regular_file()) {
      saltus::detail::throw_error(
          "output folder '", target.string(), "' holds '", name,
          "', which saltus does not write; it was left as it is (remove it or "
          "choose another --out)");
    }
  }
  if (ec) saltus::detail::throw_error("cannot list '", target.string(), "': ", ec.message());
}

// A new, empty hidden folder beside `target`, on the same file system so that rename works.
fs::path make_fresh_folder(const fs::path& target) {
  std::random_device seed;
  std::mt19937_64 random(seed());
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[40];
    std::snprintf(suffix, sizeof suffix, ".saltus-new-%d-%016llx", static_cast<int>(getpid()),
                  static_cast<unsigned long long>(random()));
    const fs::path fresh = parent / ("." + target.filename().string() + suffix);
    std::error_code ec;
    if (fs::create_directory(fresh, ec)) return fresh;
    if (ec && ec != std::errc::file_exists) {
      saltus::detail::throw_error("cannot create a folder beside '", target.string(),
                                  "': ", ec.message());
    }
  }
  saltus::detail::throw_error("cannot create a fresh folder beside '", target.string(), "'");
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    saltus::detail::throw_error("cannot write '", path.string(), "': ", std::strerror(errno));
  out << text;
  out.flush();
  if (!out)
    saltus::detail::throw_error("writing '", path.string(), "' failed: ", std::strerror(errno));
}

// Puts `fresh` at `target` and returns where the old target now is (empty if there was none).
fs::path swap_in(const fs::path& fresh, const fs::path& target) {
  if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    return fresh;  // the old folder now sits at the fresh folder's name
  }
  if (errno == ENOENT) {  // no old folder: a plain rename (fails if one appeared meanwhile)
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
      return {};
    }
  }
  if (errno != EINVAL && errno != ENOSYS) {
    saltus::detail::throw_error("cannot move '", fresh.string(), "' to '", target.string(),
                                "': ", std::strerror(errno));
  }
  // A file system without atomic exchange: move the old folder aside first, and back on failure.
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(target, ec))) {
    fs::rename(fresh, target, ec);
    if (ec)
      saltus::detail::throw_error("cannot move '", fresh.string(), "' to '", target.string(),
                                  "': ", ec.message());
    return {};
  }
  const fs::path old = fresh.string() + ".old";
  fs::rename(target, old, ec);
  if (ec) saltus::detail::throw_error("cannot move '", target.string(), "' aside: ", ec.message());
  fs::rename(fresh, target, ec);
  if (ec) {
    std::error_code ignore;
    fs::rename(old, target, ignore);
    saltus::detail::throw_error("cannot move '", fresh.string(), "' to '", target.string(),
                                "': ", ec.message());
  }
  return old;
}

}  // namespace

const std::vector<std::string>& output_folder_names() {
  // forces.png: `saltus plot` of a run with contact forces; drawing.*: models with a [drawing];
  // bodies.*: models with [[bodies]];
  // animation.gif: `saltus animate`; density.*: `saltus density`; sensitivity.json: `saltus
  // sensitivity`; orbit.json, branch.*, bifurcations.csv, period2.csv, floquet.png: `saltus
  // orbit`; bifurcation.*: `saltus bifurcation`; lyapunov.json: `saltus lyapunov`; equilibria.json,
  // branches.*: `saltus equilibrium`.
  static const std::vector<std::string> names = {
      "trajectory.csv", "events.csv",         "summary.json",     "states.png",
      "phase.png",      "hybrid_time.png",    "forces.png",       "drawing.csv",
      "drawing.json",   "animation.gif",      "density.csv",      "density.npy",
      "density.png",    "sensitivity.json",   "orbit.json",       "branch.csv",
      "floquet.png",    "branch.png",         "bifurcation.csv",  "bifurcation.png",
      "sweep.npy",      "sweep_columns.json", "bifurcations.csv", "period2.csv",
      "lyapunov.json",  "equilibria.json",    "branches.csv",     "branches.png",
      "bodies.csv",     "bodies.json"};
  return names;
}

void replace_output_folder(const fs::path& dir, const std::vector<OutputFile>& files) {
  const fs::path target = normalized_target(dir);
  if (target.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      saltus::detail::throw_error("cannot create the folder '", target.parent_path().string(),
                                  "': ", ec.message());
    }
  }
  require_replaceable(target);
  const fs::path fresh = make_fresh_folder(target);
  try {
    for (const OutputFile& f : files) write_file(fresh / f.first, f.second);
  } catch (...) {
    std::error_code ignore;
    fs::remove_all(fresh, ignore);
    throw;
  }
  fs::path old;
  try {
    old = swap_in(fresh, target);
  } catch (...) {
    std::error_code ignore;
    fs::remove_all(fresh, ignore);
    throw;
  }
  if (!old.empty()) {
    std::error_code ec;
    fs::remove_all(old, ec);
    if (ec) {
      saltus::detail::throw_error("wrote '", target.string(),
                                  "' but cannot delete the previous run's '", old.string(),
                                  "': ", ec.message());
    }
  }
}

}  // namespace saltus::run
