#include "run_tables.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>

#include "saltus/run/contact_force_columns.hpp"
#include "saltus/run/output_columns.hpp"
#include "saltus/run/run_outputs.hpp"

namespace py = pybind11;

namespace saltus::python {
namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// Copies v into row[at .. at + width), leaving entries past v's size NaN.
void put(double* row, long at, ConstVectorRef v, int width) {
  for (int i = 0; i < width; ++i) row[at + i] = i < v.size() ? v[i] : kAbsent;
}

std::vector<std::string> names(const std::vector<std::string>& given, const char* prefix, int n) {
  std::vector<std::string> out(given.begin(), given.end());
  for (int i = static_cast<int>(out.size()); i < n; ++i) out.push_back(prefix + std::to_string(i));
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

py::dict trajectory_table(const model::ModelRun& run) {
  const HybridSystem& system = run.system;
  const int nx = system.max_nx(), nz = system.max_nz();
  const CsvColumns c = run::model_csv_columns(*run.model);
  std::vector<std::string> columns = {"t", "j"};
  for (const std::string& n : names(c.x_names, "x", nx)) columns.push_back(n);
  for (const std::string& n : names(c.z_names, "z", nz)) columns.push_back(n);
  const run::ContactForceColumns forces = run::contact_force_columns(run);
  for (const std::string& n : forces.names) columns.push_back(n);
  const int nf = static_cast<int>(forces.names.size());
  const run::OutputColumns outputs = run::output_columns(run);  // [outputs], after the forces
  for (const std::string& n : outputs.names) columns.push_back(n);
  const int no = static_cast<int>(outputs.names.size());

  const Trajectory& tr = run.result.trajectory;
  const long n = tr.size(), width = static_cast<long>(columns.size());
  py::array_t<double> values({n, width});
  py::array_t<std::int64_t> mode_index(n);
  double* v = values.mutable_data();
  std::int64_t* mi = mode_index.mutable_data();
  for (long i = 0; i < n; ++i) {
    double* row = v + i * width;
    row[0] = tr.t(i);
    row[1] = static_cast<double>(tr.j(i));
    put(row, 2, tr.x(i), nx);
    put(row, 2 + nx, tr.z(i), nz);
    for (int k = 0; k < nf; ++k) row[2 + nx + nz + k] = forces.values(i, k);
    for (int k = 0; k < no; ++k) row[2 + nx + nz + nf + k] = outputs.values(i, k);
    // Samples inside a bridged run's Moreau-Jean stretch: one more name after the system's.
    mi[i] = tr.mode(i) == bridge::kMoreauJeanMode ? system.mode_count() : tr.mode(i);
  }
  std::vector<std::string> mode_names;
  for (ModeId m = 0; m < system.mode_count(); ++m) mode_names.push_back(system.mode(m).name);
  for (long i = 0; i < n; ++i) {
    if (tr.mode(i) != bridge::kMoreauJeanMode) continue;
    mode_names.push_back(mode_name(system, run.result, bridge::kMoreauJeanMode));
    break;
  }
  py::dict d;
  d["columns"] = columns;
  d["values"] = values;
  d["mode_index"] = mode_index;
  d["mode_names"] = mode_names;
  return d;
}

py::dict event_table(const model::ModelRun& run) {
  const HybridSystem& system = run.system;
  const int nx = system.max_nx(), nz = system.max_nz();
  const CsvColumns c = run::model_csv_columns(*run.model);
  const std::vector<std::string> xn = names(c.x_names, "x", nx), zn = names(c.z_names, "z", nz);
  std::vector<std::string> columns = {"t", "j", "retrigger", "chained", "observation"};
  for (const char* side : {"_before", "_after"}) {
    for (const std::string& n : xn) columns.push_back(n + side);
    for (const std::string& n : zn) columns.push_back(n + side);
  }
  const run::OutputColumns at_events = run::event_output_columns(run);  // as events.csv
  for (const std::string& n : at_events.names) columns.push_back(n);
  const long ne = static_cast<long>(at_events.names.size());
  const std::vector<std::string> extra = reset_output_columns(system);
  for (const std::string& n : extra) columns.push_back(n);

  const EventLog& log = run.result.events;
  const long n = log.size(), width = static_cast<long>(columns.size());
  py::array_t<double> values({n, width});
  double* v = values.mutable_data();
  std::vector<std::string> guard(static_cast<size_t>(n)), before(guard), after(guard);
  const long outputs_at = 5 + 2 * (nx + nz) + ne;
  for (long i = 0; i < n; ++i) {
    const EventRecord& e = log[i];
    double* row = v + i * width;
    row[0] = e.t;
    row[1] = static_cast<double>(e.j);
    row[2] = e.retrigger ? 1.0 : 0.0;
    row[3] = e.chained ? 1.0 : 0.0;
    row[4] = e.observation ? 1.0 : 0.0;
    put(row, 5, log.x_before(i), nx);
    put(row, 5 + nx, log.z_before(i), nz);
    put(row, 5 + nx + nz, log.x_after(i), nx);
    put(row, 5 + 2 * nx + nz, log.z_after(i), nz);
    for (long k = 0; k < ne; ++k) row[5 + 2 * (nx + nz) + k] = at_events.values(i, k);
    for (size_t k = 0; k < extra.size(); ++k) row[outputs_at + static_cast<long>(k)] = kAbsent;
    const auto idx = static_cast<size_t>(i);
    before[idx] = mode_name(system, run.result, e.mode_before);
    after[idx] = mode_name(system, run.result, e.mode_after);
    if (const char* kind = record_kind_name(e)) {
      guard[idx] = kind;
      continue;
    }
    const Reset& reset = system.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].reset;
    guard[idx] = system.mode(e.mode_before).guards[static_cast<size_t>(e.guard)].name;
    if (e.n_outputs > 0) {
      const auto out = log.outputs(i);
      for (size_t k = 0; k < reset.output_names.size(); ++k) {
        const auto at =
            std::find(extra.begin(), extra.end(), reset.output_names[k]) - extra.begin();
        row[outputs_at + at] = out[static_cast<Eigen::Index>(k)];
      }
    }
  }
  py::dict d;
  d["columns"] = columns;
  d["values"] = values;
  d["guard"] = guard;
  d["mode_before"] = before;
  d["mode_after"] = after;
  // A bridged run's rows say why and for how long (events.csv's note column).
  if (log.has_notes()) {
    std::vector<std::string> notes(static_cast<size_t>(n));
    for (long i = 0; i < n; ++i) notes[static_cast<size_t>(i)] = log.note(i);
    d["note"] = notes;
  }
  return d;
}

}  // namespace saltus::python
