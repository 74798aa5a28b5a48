#include "saltus/sim/csv_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "saltus/core/error.hpp"

namespace saltus {
namespace {

std::string number(double v) {
  if (v != v) return "";  // NaN marks an absent entry (smaller mode)
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::vector<std::string> names(const std::vector<std::string>& given, const char* prefix, int n) {
  std::vector<std::string> out(given.begin(), given.end());
  for (int i = static_cast<int>(out.size()); i < n; ++i) out.push_back(prefix + std::to_string(i));
  out.resize(n);
  return out;
}

void append_row(std::string& out, ConstVectorRef v, int width) {
  for (int i = 0; i < width; ++i) {
    out += ',';
    if (i < v.size()) out += number(v[i]);
  }
}

}  // namespace

std::vector<std::string> reset_output_columns(const HybridSystem& system) {
  std::vector<std::string> names;
  for (const Mode& m : system.modes()) {
    for (const Guard& g : m.guards) {
      for (const std::string& n : g.reset.output_names) {
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
      }
    }
  }
  return names;
}

namespace {

std::string guard_name(const HybridSystem& system, const EventRecord& e) {
  if (const char* kind = record_kind_name(e)) return kind;
  return system.mode(e.mode_before).guards[e.guard].name;
}

// A text cell: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string mode_name(const HybridSystem& system, const SimulationResult& result, ModeId mode) {
  if (mode >= 0) return system.mode(mode).name;
  const auto k = static_cast<size_t>(kNoMode - 1 - mode);
  return mode < kNoMode && k < result.layer_mode_names.size() ? result.layer_mode_names[k] : "none";
}

std::string event_guard_name(const HybridSystem& system, const EventRecord& record) {
  return guard_name(system, record);
}

std::string trajectory_csv(const HybridSystem& system, const SimulationResult& result,
                           const CsvColumns& columns) {
  const int nx = system.max_nx(), nz = system.max_nz();
  std::string out = "t,j,mode";
  for (const std::string& n : names(columns.x_names, "x", nx)) out += "," + n;
  for (const std::string& n : names(columns.z_names, "z", nz)) out += "," + n;
  for (const std::string& n : columns.extra_names) out += "," + n;
  out += '\n';
  const Trajectory& tr = result.trajectory;
  const int extra = static_cast<int>(columns.extra_names.size());
  if (extra > 0 && columns.extra.rows() != tr.size()) {
    saltus::detail::throw_error("trajectory_csv: ", columns.extra.rows(),
                                " rows of extra columns for ", tr.size(), " samples");
  }
  for (long i = 0; i < tr.size(); ++i) {
    out += number(tr.t(i)) + "," + std::to_string(tr.j(i)) + "," +
           mode_name(system, result, tr.mode(i));
    append_row(out, tr.x(i), nx);
    append_row(out, tr.z(i), nz);
    if (extra > 0) append_row(out, columns.extra.row(i).transpose(), extra);
    out += '\n';
  }
  return out;
}

std::string events_csv(const HybridSystem& system, const SimulationResult& result,
                       const CsvColumns& columns) {
  const int nx = system.max_nx(), nz = system.max_nz();
  const std::vector<std::string> xn = names(columns.x_names, "x", nx);
  const std::vector<std::string> zn = names(columns.z_names, "z", nz);
  std::string out = "t,j,guard,mode_before,mode_after,retrigger,chained,observation";
  for (const char* side : {"_before", "_after"}) {
    for (const std::string& n : xn) out += "," + n + side;
    for (const std::string& n : zn) out += "," + n + side;
  }
  for (const std::string& n : columns.event_extra_names) out += "," + n;
  const int event_extra = static_cast<int>(columns.event_extra_names.size());
  const EventLog& log = result.events;
  if (event_extra > 0 && columns.event_extra.rows() != log.size()) {
    saltus::detail::throw_error("events_csv: ", columns.event_extra.rows(),
                                " rows of extra columns for ", log.size(), " events");
  }
  const std::vector<std::string> extra = reset_output_columns(system);
  for (const std::string& n : extra) out += "," + n;
  // Records with a note (a layer's rows, a simultaneous impact's shares): one more column.
  if (log.has_notes()) out += ",note";
  out += '\n';
  for (long i = 0; i < log.size(); ++i) {
    const EventRecord& e = log[i];
    out += number(e.t) + "," + std::to_string(e.j) + "," + guard_name(system, e) + "," +
           mode_name(system, result, e.mode_before) + "," +
           mode_name(system, result, e.mode_after) + "," + (e.retrigger ? "1" : "0") + "," +
           (e.chained ? "1" : "0") + "," + (e.observation ? "1" : "0");
    append_row(out, log.x_before(i), nx);
    append_row(out, log.z_before(i), nz);
    append_row(out, log.x_after(i), nx);
    append_row(out, log.z_after(i), nz);
    if (event_extra > 0) append_row(out, columns.event_extra.row(i).transpose(), event_extra);
    // The reset's outputs, each in its named column (empty where this guard has none).
    std::vector<std::string> cells(extra.size());
    if (e.guard >= 0 && e.n_outputs > 0) {
      const auto& names_here = system.mode(e.mode_before).guards[e.guard].reset.output_names;
      const auto values = log.outputs(i);
      for (size_t c = 0; c < names_here.size(); ++c) {
        const auto at = std::find(extra.begin(), extra.end(), names_here[c]) - extra.begin();
        cells[at] = number(values[static_cast<Eigen::Index>(c)]);
      }
    }
    for (const std::string& c : cells) out += "," + c;
    if (log.has_notes()) {
      out += ',';
      out += csv_text(log.note(i));
    }
    out += '\n';
  }
  return out;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      saltus::detail::throw_error("cannot write '", tmp.string(), "': ", std::strerror(errno));
    }
    out << text;
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignore;
      std::filesystem::remove(tmp, ignore);
      saltus::detail::throw_error("writing '", tmp.string(), "' failed: ", std::strerror(errno));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignore;
    std::filesystem::remove(tmp, ignore);
    saltus::detail::throw_error("cannot move '", tmp.string(), "' to '", path.string(),
                                "': ", ec.message());
  }
}

}  // namespace saltus
