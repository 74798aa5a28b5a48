// splitmix64 (Steele, Lea and Flood's generator), the LCP benchmarks' problem source: the same
// bits in bench/lcp_bench.cpp, bench/peers/siconos_lcp_bench.cpp and bench/peers/siconos_lcp.py.
#pragma once

#include <cstdint>

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double a, double b) {
    return a + (b - a) * static_cast<double>(next() >> 11) * 0x1.0p-53;
  }
};
