// Peer benchmark in C++: Siconos numerics' lcp_lexicolemke (its lexicographic Lemke) called
// directly through its C API (Debian libsiconos-numerics-dev 4.4), on the problems of
// bench/lcp_bench.cpp, timed the same way (Google Benchmark, one solve per iteration, cycling
// over the 64 problems of each size). No binding in between, unlike bench/peers/siconos_lcp.py.
// Built and run by bench/run_lcp_bench.sh, which alternates it with lcp_bench; not part of the
// CMake build (Siconos is an optional peer). Does not include saltus: the generator is a
// second copy of the one in lcp_bench.cpp (bitwise identical data; the z checksums compare).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../splitmix64.hpp"
#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

namespace {

constexpr int kProblems = 64;

// M column-major (Siconos' dense storage) and q, as in lcp_bench.cpp's make_problems.
struct Problem {
  std::vector<double> m;
  std::vector<double> q;
};

std::vector<Problem> make_problems(int n) {
  std::vector<Problem> out;
  const auto at = [n](int i, int j) { return static_cast<std::size_t>(j * n + i); };
  for (int k = 0; k < kProblems; ++k) {
    SplitMix64 g{static_cast<std::uint64_t>(1000 * n + k)};
    Problem p{std::vector<double>(static_cast<std::size_t>(n * n), 0.0),
              std::vector<double>(static_cast<std::size_t>(n))};
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) p.m[at(i, j)] = p.m[at(j, i)] = g.uniform(-1.0, 1.0);
    }
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) {
        if (j != i) s += std::abs(p.m[at(i, j)]);
      }
      p.m[at(i, i)] = s + g.uniform(0.1, 1.0);
    }
    for (int i = 0; i < n; ++i) p.q[static_cast<std::size_t>(i)] = g.uniform(-1.0, 1.0);
    out.push_back(std::move(p));
  }
  return out;
}

// The Siconos problem objects over the data of `problems` (NM_create_from_data keeps the
// pointer; the vectors outlive the objects).
struct SiconosProblems {
  std::vector<NumericsMatrix*> matrices;
  std::vector<LinearComplementarityProblem> lcps;
  explicit SiconosProblems(std::vector<Problem>& problems) {
    for (auto& p : problems) {
      const int n = static_cast<int>(p.q.size());
      matrices.push_back(NM_create_from_data(NM_DENSE, n, n, p.m.data()));
      lcps.push_back(LinearComplementarityProblem{n, matrices.back(), p.q.data()});
    }
  }
  ~SiconosProblems() {
    for (auto* m : matrices) {
      m->matrix0 = nullptr;  // the data belongs to the Problem
      NM_free(m);
    }
  }
};

void BM_LemkeSiconos(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<Problem> problems = make_problems(n);
  SiconosProblems sp(problems);
  SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
  std::vector<double> z(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(n));
  // Check once, outside the timing: all solved (Siconos' own error measure), z checksum.
  double checksum = 0.0, max_error = 0.0;
  for (auto& lcp : sp.lcps) {
    int info = 0;
    lcp_lexicolemke(&lcp, z.data(), w.data(), &info, options);
    double error = 0.0;
    if (info != 0 || lcp_compute_error(&lcp, z.data(), w.data(), 1e-9, &error) != 0) {
      state.SkipWithError("Siconos lcp_lexicolemke did not solve a benchmark problem");
      solver_options_delete(options);
      return;
    }
    for (double v : z) checksum += v;
    max_error = std::max(max_error, error);
  }
  std::size_t k = 0;
  for (auto _ : state) {
    int info = 0;
    lcp_lexicolemke(&sp.lcps[k], z.data(), w.data(), &info, options);
    benchmark::DoNotOptimize(z.data());
    benchmark::DoNotOptimize(info);
    k = (k + 1) % sp.lcps.size();
  }
  solver_options_delete(options);
  state.counters["z_checksum"] = checksum;
  state.counters["max_error"] = max_error;
}
BENCHMARK(BM_LemkeSiconos)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
