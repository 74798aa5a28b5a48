// libFuzzer target for the LCP layer (docs/FUZZING.md): Lemke, enumeration, the matrix classes
// and the certificate on problems of random size whose entries span 40 orders of magnitude,
// with NaN, infinities, zeros, mismatched sizes and empty problems mixed in.
//
// Input bytes: [size] [flags] then 2 bytes per entry, M row by row, then q (missing bytes read
// as zero entries). size % 17 = n. flags: bit 0 equilibrate off, bit 1 first-row tie break,
// bits 2-3 pivot_tolerance 1e-12 / 1e-9 / 5e-6 / 1e-3, bit 4 q one entry too long, bit 5 M one
// column too wide. An entry (a, b): a = 0xFF -> NaN, +inf, -inf or 0 by b % 4; a = 0xFE -> 0;
// otherwise (-1)^a * (1 + b / 256) * 10^((a / 2) % 41 - 20).
//
// Findings: a crash or sanitizer report; an exception other than saltus::Error; bad input
// (non-finite, mismatched) accepted, or refused without naming the value; a returned solution
// whose certificate fails on the data it was returned for.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp.hpp"
#include "saltus/lcp/lcp_enumeration.hpp"
#include "saltus/lcp/lemke.hpp"
#include "saltus/lcp/matrix_classes.hpp"

namespace {

using saltus::Matrix;
using saltus::Vector;

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  double entry() {
    const std::uint8_t a = next();
    const std::uint8_t b = next();
    if (a == 0xFF) {
      const double special[4] = {std::nan(""), HUGE_VAL, -HUGE_VAL, 0.0};
      return special[b % 4];
    }
    if (a == 0xFE) return 0.0;
    const double magnitude = (1.0 + b / 256.0) * std::pow(10.0, (a / 2) % 41 - 20);
    return (a & 1) ? -magnitude : magnitude;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "LCP fuzz finding: %s\n", what.c_str());
  std::abort();
}

void expect_certified(const Matrix& m, const Vector& q, const Vector& z, double tolerance,
                      const char* who) {
  Vector w;
  const double r = saltus::lcp::certified_residual(m, q, z, w);
  if (!(r <= tolerance)) {
    finding(std::string(who) + " returned a point with certified residual " + std::to_string(r));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace saltus::lcp;
  Bytes in(data, size);
  const int n = in.next() % 17;
  const std::uint8_t flags = in.next();
  const bool long_q = flags & 0x10;
  const bool wide_m = flags & 0x20;
  Matrix m(n, n + (wide_m ? 1 : 0));
  Vector q(n + (long_q ? 1 : 0));
  bool finite = true;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      finite = finite && std::isfinite(m(i, j) = in.entry());
  }
  for (Eigen::Index i = 0; i < q.size(); ++i) finite = finite && std::isfinite(q(i) = in.entry());
  const bool bad = !finite || long_q || wide_m;

  LemkeOptions lo;
  lo.equilibrate = !(flags & 0x01);
  lo.tie_break = (flags & 0x02) ? LemkeTieBreak::FirstRow : LemkeTieBreak::Lexicographic;
  const double pivot_tolerances[4] = {1e-12, 1e-9, 5e-6, 1e-3};
  lo.pivot_tolerance = pivot_tolerances[(flags >> 2) & 3];
  try {
    LemkeWorkspace ws(n);
    const LcpSolution& s = solve_lemke(m, q, ws, lo);
    if (bad) finding("Lemke accepted bad input");
    if (s.is_solution()) expect_certified(m, q, s.z, lo.residual_tolerance, "Lemke");
    if (n <= 8) {
      const LcpEnumerationResult e = enumerate_lcp_solutions(m, q);
      for (const auto& sol : e.solutions) expect_certified(m, q, sol.z, 1e-10, "enumeration");
    }
    if (n <= 5) (void)classify_matrix(m);
  } catch (const saltus::Error& e) {
    const std::string what = e.what();
    if (!bad) finding("good input refused: " + what);
    const bool named = what.find("not finite") != std::string::npos ||
                       what.find("has size") != std::string::npos ||
                       what.find("must be square") != std::string::npos;
    if (!named) finding("bad input refused without naming it: " + what);
  }
  return 0;
}
