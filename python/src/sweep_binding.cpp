#include "sweep_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "saltus/run/sweep.hpp"

namespace py = pybind11;

namespace saltus::python {
namespace {

// {"axes": [...], "quantities": [...], "values": points x axes, "collected": points x
//  quantities (NaN where a point has none), "status", "message": lists, "succeeded": bool array}
py::dict as_dict(const run::SweepResult& r) {
  const long n = static_cast<long>(r.points.size());
  const long na = static_cast<long>(r.axis_names.size());
  const long nq = static_cast<long>(r.quantity_names.size());
  py::array_t<double> values({n, na}), collected({n, nq});
  py::array_t<bool> succeeded(n);
  std::vector<std::string> status, message;
  for (long i = 0; i < n; ++i) {
    const run::SweepPoint& p = r.points[static_cast<size_t>(i)];
    for (long a = 0; a < na; ++a) values.mutable_at(i, a) = p.values[static_cast<size_t>(a)];
    for (long q = 0; q < nq; ++q) collected.mutable_at(i, q) = p.collected[static_cast<size_t>(q)];
    succeeded.mutable_at(i) = p.succeeded;
    status.push_back(p.status);
    message.push_back(p.message);
  }
  py::dict d;
  d["axes"] = r.axis_names;
  d["quantities"] = r.quantity_names;
  d["values"] = values;
  d["collected"] = collected;
  d["succeeded"] = succeeded;
  d["status"] = status;
  d["message"] = message;
  return d;
}

}  // namespace

void bind_sweep(py::module_& m) {
  m.def(
      "parse_axis",
      [](const std::string& text) {
        const run::SweepAxis a = run::parse_sweep_axis(text);
        return py::make_tuple(a.name, a.low, a.high, a.count);
      },
      py::arg("text"));
  m.def(
      "sweep",
      [](const std::filesystem::path& file, const std::vector<std::string>& overrides,
         const std::vector<std::tuple<std::string, double, double, long>>& axes,
         const std::vector<std::string>& collect, long random_count, std::uint64_t seed,
         int threads) {
        run::SweepSpec spec;
        spec.model_file = file;
        spec.overrides = overrides;
        for (const auto& [name, low, high, count] : axes)
          spec.axes.push_back({name, low, high, count});
        spec.collect = collect;
        spec.random = random_count > 0;
        spec.random_count = random_count;
        spec.seed = seed;
        run::SweepResult result;
        {
          py::gil_scoped_release no_gil;
          result = run::run_sweep(spec, threads);
        }
        return as_dict(result);
      },
      py::arg("file"), py::arg("overrides"), py::arg("axes"), py::arg("collect"),
      py::arg("random_count"), py::arg("seed"), py::arg("threads"));
}

}  // namespace saltus::python
