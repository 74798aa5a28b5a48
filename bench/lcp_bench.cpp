// Solve time per LCP for n = 2, 4, 8, 16, 32: saltus Lemke (lexicographic, reused workspace),
// and the enumeration that certifies uniqueness (n <= 8). Peer: bench/peers/siconos_lcp.py on
// the same problems; bench/run_lcp_bench.sh runs both and prints the ratio table.
//
// Problems (identical generator in siconos_lcp.py, bitwise identical data): for size n and
// index k = 0..63, splitmix64 seeded with 1000 n + k draws, in this order, the strict upper
// triangle of a symmetric M row by row (uniform in [-1, 1]), then the diagonal
// M_ii = sum_j!=i |M_ij| + uniform [0.1, 1] (symmetric, strictly diagonally dominant, so SPD:
// a Delassus-like matrix), then q uniform in [-1, 1]. About half of q is negative, so Lemke
// needs about n/2 pivots.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"
#include "splitmix64.hpp"

namespace {

using saltus::Matrix;
using saltus::Vector;

constexpr int kProblems = 64;

struct Problem {
  Matrix m;
  Vector q;
};

std::vector<Problem> make_problems(int n) {
  std::vector<Problem> out;
  for (int k = 0; k < kProblems; ++k) {
    SplitMix64 g{static_cast<std::uint64_t>(1000 * n + k)};
    Problem p{Matrix::Zero(n, n), Vector(n)};
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) p.m(i, j) = p.m(j, i) = g.uniform(-1.0, 1.0);
    }
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) {
        if (j != i) s += std::abs(p.m(i, j));
      }
      p.m(i, i) = s + g.uniform(0.1, 1.0);
    }
    for (int i = 0; i < n; ++i) p.q(i) = g.uniform(-1.0, 1.0);
    out.push_back(std::move(p));
  }
  return out;
}

// Lemke with the given options on the 64 problems of size state.range(0).
void run_lemke(benchmark::State& state, const saltus::lcp::LemkeOptions& options) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<Problem> problems = make_problems(n);
  saltus::lcp::LemkeWorkspace ws(n);
  // Check once, outside the timing: all solved; record pivots and a checksum of z.
  double pivots = 0.0, checksum = 0.0, residual = 0.0, sweeps = 0.0;
  for (const auto& p : problems) {
    const auto& s = saltus::lcp::solve_lemke(p.m, p.q, ws, options);
    sweeps += ws.scaling.iterations;
    if (!s.is_solution()) {
      state.SkipWithError("Lemke did not solve a benchmark problem");
      return;
    }
    pivots += s.pivots;
    checksum += s.z.sum();
    residual = std::max(residual, s.residual);
  }
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& p = problems[k];
    const auto& s = saltus::lcp::solve_lemke(p.m, p.q, ws, options);
    benchmark::DoNotOptimize(s.z.data());
    k = (k + 1) % problems.size();
  }
  state.counters["pivots"] = pivots / kProblems;
  state.counters["z_checksum"] = checksum;
  state.counters["max_residual"] = residual;
  state.counters["ruiz_sweeps"] = sweeps / kProblems;
}

// The default: equilibrated, refined, certified.
void BM_LemkeSaltus(benchmark::State& state) {
  run_lemke(state, {});
}
BENCHMARK(BM_LemkeSaltus)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);

// What the parts cost: without the equilibration, and without the final refinement.
void BM_LemkeSaltusNoEquilibration(benchmark::State& state) {
  saltus::lcp::LemkeOptions o;
  o.equilibrate = false;
  run_lemke(state, o);
}
BENCHMARK(BM_LemkeSaltusNoEquilibration)->Arg(2)->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);

void BM_LemkeSaltusNoRefinement(benchmark::State& state) {
  saltus::lcp::LemkeOptions o;
  o.refine = false;
  run_lemke(state, o);
}
BENCHMARK(BM_LemkeSaltusNoRefinement)->Arg(2)->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);

void BM_EnumerationSaltus(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<Problem> problems = make_problems(n);
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& p = problems[k];
    auto e = saltus::lcp::enumerate_lcp_solutions(p.m, p.q);
    benchmark::DoNotOptimize(e.solutions.data());
    k = (k + 1) % problems.size();
  }
}
BENCHMARK(BM_EnumerationSaltus)->Arg(2)->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
