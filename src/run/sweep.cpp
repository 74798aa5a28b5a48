// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/run/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "saltus/core/error.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/model/runtime_parameters.hpp"
#include "saltus/run/collected_quantity.hpp"
#include "saltus/run/npy_file.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/run/output_columns.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::run {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
// Every point is a row held in memory until the table is written.
constexpr double kMaxPoints = 1e7;

// %.17g round-trips a double exactly, so an override or a table cell is the point's own value.
std::string exact_text(double v) {
  return std::isnan(v) ? "nan" : number_text(v, 17);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) saltus::detail::throw_error("cannot read model file '", path.string(), "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string joined_names(const std::vector<model::Quantity>& quantities) {
  std::string out;
  for (const model::Quantity& q : quantities) out += (out.empty() ? "" : ", ") + q.name;
  return out.empty() ? "none" : out;
}

// The quantities `spec` collects, checked against the model loaded with the base overrides.
std::vector<CollectedQuantity> checked_quantities(const SweepSpec& spec, const model::Model& m) {
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    const SweepAxis& axis = spec.axes[i];
    bool known = m.state_index(axis.name) >= 0;
    for (const model::Quantity& p : m.parameters) known = known || p.name == axis.name;
    if (!known) {
      saltus::detail::throw_error("--vary: '", axis.name, "' is not a parameter or state of ",
                                  m.file, " (parameters: ", joined_names(m.parameters),
                                  "; states: ", joined_names(m.states), ")");
    }
    for (size_t k = 0; k < i; ++k) {
      if (spec.axes[k].name == axis.name) {
        saltus::detail::throw_error("--vary: '", axis.name, "' is varied twice");
      }
    }
  }
  if (spec.axes.empty())
    saltus::detail::throw_error("a sweep needs at least one --vary NAME=LO:HI:N");
  if (spec.random && spec.random_count < 1) {
    saltus::detail::throw_error("--random: the number of points must be at least 1, got ",
                                spec.random_count);
  }
  double points = static_cast<double>(spec.random_count);
  if (!spec.random) {
    points = 1.0;
    for (const SweepAxis& a : spec.axes) points *= static_cast<double>(a.count);
  }
  if (points > kMaxPoints) {
    saltus::detail::throw_error("the sweep has ", points, " points; at most ", kMaxPoints,
                                " fit in one table");
  }
  if (spec.collect.empty()) saltus::detail::throw_error("--collect: name at least one quantity");
  std::vector<CollectedQuantity> out;
  for (const std::string& name : spec.collect) out.push_back(parse_collected_quantity(name, m));
  return out;
}

// The run's status and collected quantities into `point`.
void record_run(const model::ModelRun& run, const std::vector<CollectedQuantity>& quantities,
                SweepPoint& point) {
  point.status = run.status();
  point.succeeded = run.succeeded();
  if (!point.succeeded) {
    point.message = run.message();
    return;
  }
  for (size_t q = 0; q < quantities.size(); ++q) {
    point.collected[q] = collected_value(quantities[q], run);
  }
}

// Runs `simulate` for the point with `values`; a point that cannot be built or run is a row with
// its status ("model-error" when its values make the model invalid or unbuildable).
template <class Simulate>
SweepPoint guarded_point(std::vector<double> values, size_t quantities, Simulate simulate) {
  SweepPoint point;
  point.collected.assign(quantities, kMissing);
  point.values = std::move(values);
  try {
    simulate(point);
  } catch (const Error& e) {
    point.status = "model-error";
    point.message = e.what();
  } catch (const std::exception& e) {
    point.status = "error";
    point.message = e.what();
  }
  return point;
}

// A point as its own model: the file loaded with the point's values as overrides.
SweepPoint run_point(const std::string& text, const SweepSpec& spec,
                     const std::vector<CollectedQuantity>& quantities, std::vector<double> values) {
  return guarded_point(std::move(values), quantities.size(), [&](SweepPoint& point) {
    std::vector<std::string> overrides = spec.overrides;
    for (size_t i = 0; i < point.values.size(); ++i) {
      overrides.push_back(spec.axes[i].name + "=" + exact_text(point.values[i]));
    }
    auto m = std::make_shared<const model::Model>(
        model::load_model_text(text, spec.model_file.string(), overrides));
    record_run(model::run_model(m), quantities, point);
  });
}

// A thread's model when every varied name is a parameter the model can keep at run time: loaded
// and built once; a point writes its values into the tapes' parameter values and runs.
struct PreparedModel {
  model::ModelRun run;
  model::ModelStart start;
};

SweepPoint run_prepared_point(PreparedModel& prepared, const std::string& text,
                              const SweepSpec& spec,
                              const std::vector<CollectedQuantity>& quantities,
                              std::vector<double> values) {
  try {
    for (size_t i = 0; i < values.size(); ++i) {
      model::set_runtime_parameter(*prepared.run.model, spec.axes[i].name, values[i]);
    }
  } catch (const Error&) {
    // A value the built system cannot take (a contact's law made invalid, or frictionless
    // where it was compiled with friction): the point's own model says what it gives.
    return run_point(text, spec, quantities, std::move(values));
  }
  return guarded_point(std::move(values), quantities.size(), [&](SweepPoint& point) {
    model::simulate_model_run(prepared.run, prepared.start);
    record_run(prepared.run, quantities, point);
  });
}

double parse_bound(std::string_view field, std::string_view text, const char* what) {
  const std::string s(field);
  size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size() || !std::isfinite(v)) {
    saltus::detail::throw_error("--vary '", text, "': ", what, " '", s,
                                "' is not a finite number (expected NAME=LO:HI:N)");
  }
  return v;
}

}  // namespace

long SweepResult::failed_count() const {
  long failed = 0;
  for (const SweepPoint& p : points) failed += p.succeeded ? 0 : 1;
  return failed;
}

SweepAxis parse_sweep_axis(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    saltus::detail::throw_error("--vary '", text,
                                "': expected NAME=LO:HI:N (e.g. e=0.05:0.95:100)");
  }
  std::vector<std::string_view> fields;
  std::string_view rest = text.substr(eq + 1);
  for (size_t colon; (colon = rest.find(':')) != std::string_view::npos;) {
    fields.push_back(rest.substr(0, colon));
    rest.remove_prefix(colon + 1);
  }
  fields.push_back(rest);
  if (fields.size() != 3) {
    saltus::detail::throw_error("--vary '", text,
                                "': expected three fields LO:HI:N after '=', got ", fields.size());
  }
  SweepAxis axis;
  axis.name = std::string(text.substr(0, eq));
  axis.low = parse_bound(fields[0], text, "LO");
  axis.high = parse_bound(fields[1], text, "HI");
  const double count = parse_bound(fields[2], text, "N");
  if (count < 1 || count != std::floor(count) || count > 1e9) {
    saltus::detail::throw_error(
        "--vary '", text, "': N must be a whole number of points >= 1, got '", fields[2], "'");
  }
  axis.count = static_cast<long>(count);
  if (axis.low > axis.high) {
    saltus::detail::throw_error("--vary '", text, "': the range is empty (LO > HI)");
  }
  return axis;
}

std::vector<std::vector<double>> sweep_points(const SweepSpec& spec) {
  std::vector<std::vector<double>> points;
  if (spec.axes.empty()) return points;
  if (spec.random) {
    std::mt19937_64 draw(spec.seed);
    for (long i = 0; i < spec.random_count; ++i) {
      std::vector<double> values;
      for (const SweepAxis& a : spec.axes) {
        // 53 random bits in [0, 1): the same values on every platform (unlike std's
        // distributions, whose algorithms are left to the implementation).
        const double u = static_cast<double>(draw() >> 11) * 0x1.0p-53;
        values.push_back(a.low + (a.high - a.low) * u);
      }
      points.push_back(std::move(values));
    }
    return points;
  }
  std::vector<long> index(spec.axes.size(), 0);
  for (;;) {
    std::vector<double> values;
    for (size_t i = 0; i < spec.axes.size(); ++i) {
      const SweepAxis& a = spec.axes[i];
      const long k = index[i];
      values.push_back(k == a.count - 1 && a.count > 1
                           ? a.high
                           : a.low + (a.high - a.low) * static_cast<double>(k) /
                                         static_cast<double>(std::max<long>(a.count - 1, 1)));
    }
    points.push_back(std::move(values));
    size_t axis = spec.axes.size();
    while (axis > 0 && ++index[axis - 1] == spec.axes[axis - 1].count) index[--axis] = 0;
    if (axis == 0) return points;
  }
}

void check_sweep(const SweepSpec& spec) {
  const model::Model m = model::load_model_file(spec.model_file, spec.overrides);
  checked_quantities(spec, m);
}

struct SweepPlan::Data {
  SweepSpec spec;
  std::string text;
  std::vector<CollectedQuantity> quantities;
  std::vector<std::vector<double>> values;
  // The model loads with every varied name a run-time parameter (none is a state or read when
  // the model is loaded): each runner loads and builds it once.
  bool loads_once = false;
  model::LoadOptions runtime;  // those names as LoadOptions::runtime_parameters
};

SweepPlan::SweepPlan(const SweepSpec& spec) : data_(std::make_unique<Data>()) {
  data_->spec = spec;
  data_->text = read_text(spec.model_file);
  const model::Model base =
      model::load_model_text(data_->text, spec.model_file.string(), spec.overrides);
  data_->quantities = checked_quantities(spec, base);
  data_->values = sweep_points(spec);
  const bool all_parameters =
      std::all_of(spec.axes.begin(), spec.axes.end(),
                  [&base](const SweepAxis& a) { return base.state_index(a.name) < 0; });
  for (const SweepAxis& a : spec.axes) data_->runtime.runtime_parameters.push_back(a.name);
  if (all_parameters) {
    try {
      (void)model::load_model_text(data_->text, spec.model_file.string(), spec.overrides,
                                   data_->runtime);
      data_->loads_once = true;
    } catch (const Error&) {
      // A varied parameter is read while the model loads (a contact's e, t_end, another
      // parameter's value): each point loads the model with its values instead.
    }
  }
}

bool SweepPlan::loads_once() const {
  return data_->loads_once;
}

SweepPlan::~SweepPlan() = default;

size_t SweepPlan::size() const {
  return data_->values.size();
}

SweepPoint SweepPlan::point(size_t i) const {
  return runner()(i);
}

std::function<SweepPoint(size_t)> SweepPlan::runner() const {
  const Data& d = *data_;
  if (d.loads_once) {
    try {
      auto model = std::make_shared<const model::Model>(
          model::load_model_text(d.text, d.spec.model_file.string(), d.spec.overrides, d.runtime));
      auto prepared = std::make_shared<PreparedModel>();
      prepared->start = model::prepare_model_run(std::move(model), prepared->run);
      return [&d, prepared](size_t i) {
        return run_prepared_point(*prepared, d.text, d.spec, d.quantities, d.values.at(i));
      };
    } catch (const Error&) {
      // The model does not build: each point reports that as its own status below.
    }
  }
  return [&d](size_t i) { return run_point(d.text, d.spec, d.quantities, d.values.at(i)); };
}

SweepResult SweepPlan::empty_result() const {
  SweepResult result;
  for (const SweepAxis& a : data_->spec.axes) result.axis_names.push_back(a.name);
  result.quantity_names = data_->spec.collect;
  result.points.resize(size());
  for (size_t i = 0; i < size(); ++i) result.points[i].values = data_->values[i];
  return result;
}

SweepResult run_sweep(const SweepSpec& spec, int threads, std::atomic<long>* points_done) {
  const SweepPlan plan(spec);
  SweepResult result = plan.empty_result();
  // Dynamic distribution: each thread takes the next unclaimed point, so a few slow points
  // near Zeno do not leave the other threads idle. Each point writes only its own row.
  std::atomic<size_t> next{0};
  auto work = [&] {
    const std::function<SweepPoint(size_t)> point = plan.runner();
    for (size_t i; (i = next.fetch_add(1)) < plan.size();) {
      result.points[i] = point(i);
      if (points_done != nullptr) points_done->fetch_add(1);
    }
  };
  const size_t workers = std::min(static_cast<size_t>(std::max(threads, 1)), plan.size());
  if (workers <= 1) {
    work();
    return result;
  }
  std::vector<std::thread> pool;
  for (size_t t = 0; t < workers; ++t) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  return result;
}

std::string sweep_csv(const SweepResult& result) {
  std::string out;
  for (const std::string& n : result.axis_names) out += n + ",";
  out += "status,succeeded";
  for (const std::string& n : result.quantity_names) out += "," + n;
  out += "\n";
  for (const SweepPoint& p : result.points) {
    for (double v : p.values) out += exact_text(v) + ",";
    out += p.status + (p.succeeded ? ",1" : ",0");
    for (double v : p.collected) out += "," + exact_text(v);
    out += "\n";
  }
  return out;
}

std::string sweep_npy(const SweepResult& result) {
  const long cols = static_cast<long>(result.axis_names.size() + 1 + result.quantity_names.size());
  std::vector<double> values;
  values.reserve(result.points.size() * static_cast<size_t>(cols));
  for (const SweepPoint& p : result.points) {
    values.insert(values.end(), p.values.begin(), p.values.end());
    values.push_back(p.succeeded ? 1.0 : 0.0);
    values.insert(values.end(), p.collected.begin(), p.collected.end());
  }
  return npy_float64(values, static_cast<long>(result.points.size()), cols);
}

std::string sweep_columns_json(const SweepResult& result) {
  nlohmann::ordered_json j;
  std::vector<std::string> columns = result.axis_names;
  columns.emplace_back("succeeded");
  columns.insert(columns.end(), result.quantity_names.begin(), result.quantity_names.end());
  j["columns"] = columns;
  std::vector<std::string> status;
  for (const SweepPoint& p : result.points) status.push_back(p.status);
  j["status"] = status;
  return j.dump(2) + "\n";
}

void write_sweep_outputs(const SweepResult& result, const std::filesystem::path& dir) {
  replace_output_folder(dir, {{"sweep.csv", sweep_csv(result)},
                              {"sweep.npy", sweep_npy(result)},
                              {"sweep_columns.json", sweep_columns_json(result)}});
}

}  // namespace saltus::run
