// Lemke's method with lexicographic degeneracy resolution; see include/saltus/lcp/lemke.hpp.
// Over 450 lines: one class (LemkeRun) whose set-up (with the equilibration fused in for
// n <= 8), ratio test, pivot and read-out share its state, and its dispatch by size with the
// cheap input checks (solve_sized, input_plainly_valid).
#include "saltus/lcp/lemke.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "lcp_balanced_scaling.hpp"
#include "lcp_certificate.hpp"
#include "lcp_general_paths.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lcp/lcp_scaling.hpp"

namespace saltus::lcp {
namespace {

// Solves a x = b in place for the leading k x k block of `a` by LU with partial pivoting.
// Returns false when a pivot is exactly zero. No allocation.
bool lu_solve_leading(Matrix& a, Eigen::Index k, Vector& b, std::vector<int>& perm) {
  for (Eigen::Index j = 0; j < k; ++j) {
    Eigen::Index p = j;
    for (Eigen::Index i = j + 1; i < k; ++i) {
      if (std::abs(a(i, j)) > std::abs(a(p, j))) p = i;
    }
    perm[static_cast<std::size_t>(j)] = static_cast<int>(p);
    if (a(p, j) == 0.0) return false;
    if (p != j) {
      a.row(j).head(k).swap(a.row(p).head(k));
      std::swap(b(j), b(p));
    }
    for (Eigen::Index i = j + 1; i < k; ++i) {
      const double f = a(i, j) / a(j, j);
      a(i, j) = f;
      for (Eigen::Index c = j + 1; c < k; ++c) a(i, c) -= f * a(j, c);
      b(i) -= f * b(j);
    }
  }
  for (Eigen::Index j = k - 1; j >= 0; --j) {
    double s = b(j);
    for (Eigen::Index c = j + 1; c < k; ++c) s -= a(j, c) * b(c);
    b(j) = s / a(j, j);
  }
  return true;
}

// N > 0: the problem size known at compile time (n <= 8: loops the compiler unrolls, the
// tableau mapped as a fixed-size matrix over the workspace); N = 0: any size.
// The data Lemke pivots on: views (Eigen::Map) rather than Eigen::Ref<const>, whose
// construction and destruction build and free an empty matrix each.
using MatrixView = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
using VectorView = Eigen::Map<const Vector>;

template <int N>
class LemkeRun {
  using Tableau =
      Eigen::Matrix<double, N == 0 ? Eigen::Dynamic : N, N == 0 ? Eigen::Dynamic : 2 * N + 2>;

 public:
  // `matrix`, `q`: the caller's data (certificate); `m`, `qs`: the data Lemke pivots on (the
  // equilibrated copy, or the caller's data when LemkeOptions::equilibrate is off).
  // All four outlive the run (solve_lemke's arguments and locals); held by reference, since
  // each copy of an Eigen::Ref<const> builds and frees an empty matrix.
  // `fused` (N > 0 only; else null): the balanced factors; the run then writes the scaled copy
  // m = p M, qs = p q / s (ws.scaled_matrix, ws.scaled_q) itself, in its tableau's set-up.
  LemkeRun(const ConstMatrixRef& matrix, const ConstVectorRef& q, const MatrixView& m,
           const VectorView& qs, LemkeWorkspace& ws, const LemkeOptions& o,
           const balanced::Factors* fused = nullptr)
      : data_m_(matrix),
        data_q_(q),
        m_(m),
        q_(qs),
        ws_(ws),
        options_(o),
        fused_(fused),
        size_(static_cast<int>(q.size())),
        t_(ws.tableau.data(), size_, 2 * size_ + 2) {}

  void run();

 private:
  int n() const {
    if constexpr (N > 0) return N;
    return size_;
  }
  int z0() const { return 2 * n(); }
  // Tableau [I | -M' | -d | q'] (and with Fused, M' and q' into the workspace); returns min q'.
  template <bool Fused>
  double set_up();
  int rhs_col() const { return 2 * n() + 1; }
  // Row chosen by the ratio test for the entering tableau column `e`; `sign` = -1 for the
  // first pivot (z0 enters with column -d), +1 afterwards. Returns -1 on a secondary ray and
  // records the column's largest entry and its rounding reference for the message.
  int ratio_test(int e, double sign);
  // max |(B^-1)_ij| * max |original column of variable v|: the size rounding in the current
  // column of v is measured against.
  double column_reference(int v) const;
  void pivot(int r, int e);
  // z from the final basis, mapped back to the caller's units, refined, certified.
  void read_solution(bool complementary);
  // z <- s C z (unscale_z of lcp_scaling.hpp, same arithmetic, compile-time size).
  void unscale(Vector& z) const;
  // certified_residual (lcp.hpp) of z on the caller's data, w = M z + q into `w`.
  double certify(const Vector& z, Vector& w) {
    return certified_residual_sized<N>(data_m_, data_q_, z, w.data(), ws_.row_magnitude.data());
  }
  void finish(LcpStatus status);
  std::string variable_name(int v) const;

  const ConstMatrixRef& data_m_;
  const ConstVectorRef& data_q_;
  const MatrixView& m_;
  const VectorView& q_;
  LemkeWorkspace& ws_;
  const LemkeOptions& options_;
  const balanced::Factors* fused_;
  int size_;               // n (N when N > 0)
  Eigen::Map<Tableau> t_;  // ws.tableau, with compile-time sizes when N > 0
  int cap_ = 0;
  int entering_ = 0;
  double ray_column_max_ = 0.0;  // largest |entry| of the entering column at a ray
  double ray_reference_ = 0.0;   // column_reference() at a ray
  double binv_max_ = 1.0;        // max |(B^-1)_ij|, kept by pivot()
};

template <int N>
double LemkeRun<N>::column_reference(int v) const {
  double original = 1.0;  // w_i and z0 columns: unit entries
  if (v >= n() && v < 2 * n()) original = ws_.column_max(v - n());
  return binv_max_ * original;
}

template <int N>
int LemkeRun<N>::ratio_test(int e, double sign) {
  auto& t = t_;
  double colmax = 0.0;
  for (int i = 0; i < n(); ++i) colmax = std::max(colmax, std::abs(t(i, e)));
  // A column that is rounding noise relative to what produced it is zero: a ray.
  const double reference = column_reference(e);
  ray_column_max_ = colmax;
  ray_reference_ = reference;
  if (!(colmax > options_.pivot_tolerance * reference)) return -1;
  const double threshold = options_.pivot_tolerance * colmax;
  // The quotients and the tie list in arrays with counts (push_back's capacity checks cost a
  // fifth of the ratio test at n = 2); on the stack for N > 0, where the tableau cannot alias
  // them and the loops unroll. A row that is no candidate gets a NaN quotient: std::min skips
  // it and no comparison selects it.
  std::array<double, N> local_ratio{};
  std::array<int, N> local_ties{};
  double* ratio = N > 0 ? local_ratio.data() : ws_.ratio.data();
  int* ties = N > 0 ? local_ties.data() : ws_.ties.data();
  // Minimum ratio on the right-hand side over the candidates, then the tie set.
  const int rc = rhs_col();
  double best = kInfinity;
  int n_cand = 0;
  for (int i = 0; i < n(); ++i) {
    const double a = sign * t(i, e);
    const bool candidate = a > threshold;
    n_cand += candidate ? 1 : 0;
    ratio[i] = candidate ? t(i, rc) / a : kNaN;
    best = std::min(best, ratio[i]);
  }
  if (n_cand == 0) return -1;
  int n_ties = 0;
  const double tie = options_.tie_tolerance * (1.0 + std::abs(best));
  for (int i = 0; i < n(); ++i) {
    if (ratio[i] <= best + tie) ties[n_ties++] = i;
  }
  if (n_ties == 1) return ties[0];
  for (int k = 0; k < n_ties; ++k) {
    if (ws_.basis[static_cast<std::size_t>(ties[k])] == z0()) return ties[k];  // z0 leaves
  }
  if (options_.tie_break == LemkeTieBreak::FirstRow) return ties[0];

  // Lexicographic rule on the columns of B^-1 (tableau columns 0..n-1).
  for (int c = 0; c < n() && n_ties > 1; ++c) {
    double lex_best = kInfinity;
    for (int k = 0; k < n_ties; ++k) {
      lex_best = std::min(lex_best, t(ties[k], c) / (sign * t(ties[k], e)));
    }
    const double lex_tie = options_.tie_tolerance * (1.0 + std::abs(lex_best));
    int kept = 0;
    for (int k = 0; k < n_ties; ++k) {
      if (t(ties[k], c) / (sign * t(ties[k], e)) <= lex_best + lex_tie) ties[kept++] = ties[k];
    }
    n_ties = kept;
  }
  return ties[0];
}

template <int N>
void LemkeRun<N>::pivot(int r, int e) {
  // Column by column (column-major storage): divide the pivot row entry by p, subtract its
  // multiple of the entering column from the other rows. Columns whose pivot-row entry is zero
  // do not change (most of B^-1 early on), and their maxima are kept.
  auto& t = t_;
  const double p = t(r, e);
  if constexpr (N > 0 && N <= 4) {
    // n <= 4: every column takes the same update, without a branch per column. A column
    // whose pivot-row entry is zero gets f = 0 and keeps its values (up to the sign of zeros,
    // which no comparison here tells apart); the entering column gets f = 1 and becomes the
    // unit column exactly (t_ie - t_ie = 0). No data-dependent branch to mispredict and 4%
    // fewer instructions at n = 2; at n = 8 the skipped columns win (docs/benchmarks_lcp.md,
    // "second pass"). tests/lcp/lemke_sized_paths_test.cpp: the same z bits as the skipping.
    std::array<double, N> entering{};  // in registers: the tableau cannot alias it
    for (int i = 0; i < N; ++i) entering[static_cast<std::size_t>(i)] = t(i, e);
    entering[static_cast<std::size_t>(r)] = 0.0;
    double binv_max = 0.0;
    for (int c = 0; c < 2 * N + 2; ++c) {
      double* tc = &t.coeffRef(0, c);
      const double f = tc[r] / p;
      for (int i = 0; i < N; ++i) tc[i] -= entering[static_cast<std::size_t>(i)] * f;
      tc[r] = f;
      if (c < N) {
        for (int i = 0; i < N; ++i) binv_max = std::max(binv_max, std::abs(tc[i]));
      }
    }
    binv_max_ = binv_max;
    return;
  }
  double* column = ws_.column.data();
  for (int i = 0; i < n(); ++i) column[i] = t(i, e);
  column[r] = 0.0;
  const Eigen::Index rows = n();
  const auto update = [&](double* tc) {
    const double f = tc[r] / p;
    for (Eigen::Index i = 0; i < rows; ++i) tc[i] -= column[i] * f;
    tc[r] = f;
  };
  for (int c = 0; c < n(); ++c) {  // B^-1: keep its column maxima
    double* tc = &t.coeffRef(0, c);
    if (tc[r] == 0.0 || c == e) continue;
    update(tc);
    double mx = 0.0;
    for (Eigen::Index i = 0; i < rows; ++i) mx = std::max(mx, std::abs(tc[i]));
    ws_.binv_column_max(c) = mx;
  }
  for (int c = n(); c <= rhs_col(); ++c) {
    double* tc = &t.coeffRef(0, c);
    if (tc[r] != 0.0 && c != e) update(tc);  // the entering column becomes a unit column below
  }
  t.col(e).setZero();
  t(r, e) = 1.0;
  if (e < n()) ws_.binv_column_max(e) = 1.0;  // w_e enters: its column of B^-1 is a unit one
  double binv_max = 0.0;
  for (int c = 0; c < n(); ++c) binv_max = std::max(binv_max, ws_.binv_column_max(c));
  binv_max_ = binv_max;
}

template <int N>
void LemkeRun<N>::read_solution(bool complementary) {
  LcpSolution& s = ws_.solution;
  auto& t = t_;
  for (int i = 0; i < n(); ++i) s.z(i) = 0.0;  // unrolled for N > 0 (setZero calls memset)
  const int rc = rhs_col();
  for (int i = 0; i < n(); ++i) {
    const int v = ws_.basis[static_cast<std::size_t>(i)];
    if (v >= n() && v < 2 * n()) s.z(v - n()) = std::max(0.0, t(i, rc));
  }
  if (options_.equilibrate) unscale(s.z);
  s.residual = certify(s.z, s.w);
  // Nothing to gain below the rounding of M z + q itself (about n eps of each row).
  const double rounding = n() * std::numeric_limits<double>::epsilon();
  if (!complementary || !options_.refine || s.residual <= rounding) return;
  // Re-solve M_aa z_a = -q_a on the final complementary basis (a = basic z) from the data
  // Lemke pivoted on; keep it when its certificate is not worse.
  Eigen::Index k = 0;
  for (int i = 0; i < n(); ++i) {
    const int v = ws_.basis[static_cast<std::size_t>(i)];
    if (v >= n() && v < 2 * n()) ws_.index[static_cast<std::size_t>(k++)] = v - n();
  }
  for (Eigen::Index a = 0; a < k; ++a) {
    const int ia = ws_.index[static_cast<std::size_t>(a)];
    ws_.rhs(a) = -q_(ia);
    for (Eigen::Index b = 0; b < k; ++b) {
      ws_.lu(a, b) = m_(ia, ws_.index[static_cast<std::size_t>(b)]);
    }
  }
  if (k == 0 || !lu_solve_leading(ws_.lu, k, ws_.rhs, ws_.permutation)) return;
  ws_.z_refined.setZero();
  for (Eigen::Index a = 0; a < k; ++a) {
    if (!std::isfinite(ws_.rhs(a))) return;
    ws_.z_refined(ws_.index[static_cast<std::size_t>(a)]) = std::max(0.0, ws_.rhs(a));
  }
  if (options_.equilibrate) unscale(ws_.z_refined);
  // ws_.column is free scratch of size n here.
  const double r = certify(ws_.z_refined, ws_.column);
  if (r <= s.residual) {
    s.z = ws_.z_refined;
    s.w = ws_.column;
    s.residual = r;
  }
}

template <int N>
void LemkeRun<N>::unscale(Vector& z) const {
  const LcpScaling& scaling = ws_.scaling;
  for (int i = 0; i < n(); ++i) z(i) *= scaling.q_scale * scaling.column(i);
}

template <int N>
void LemkeRun<N>::finish(LcpStatus status) {
  LcpSolution& s = ws_.solution;
  read_solution(status == LcpStatus::Solved);
  if (status == LcpStatus::Solved && !(s.residual <= options_.residual_tolerance)) {
    status = LcpStatus::Inaccurate;
  }
  s.status = status;
  if (status == LcpStatus::Solved) return;
  std::ostringstream msg;
  msg.precision(6);
  msg << "Lemke (n = " << n() << "): ";
  switch (status) {
    case LcpStatus::RayTermination:
      msg << "secondary ray after " << s.pivots << " pivots: the column of entering "
          << variable_name(entering_) << " has no entry above pivot_tolerance "
          << options_.pivot_tolerance << " times its largest |entry| " << ray_column_max_
          << " (or that largest |entry| is <= pivot_tolerance times the rounding reference "
             "max|B^-1| max|column| = "
          << ray_reference_
          << "); no solution found. This proves that none exists only when M is "
             "copositive-plus for certain (classify_matrix(M).copositive_plus is "
             "Decision::Yes); otherwise use enumerate_lcp_solutions for small n";
      break;
    case LcpStatus::PivotCap:
      msg << "pivot cap reached: " << s.pivots << " pivots of at most " << cap_
          << " without reaching a complementary basis (the lexicographic rule cannot cycle in "
             "exact arithmetic, so rounding drives this: max|B^-1| = "
          << column_reference(z0())
          << " on the equilibrated data); the certified residual of the last basis is "
          << s.residual << "; for n <= 12 enumerate_lcp_solutions decides the problem";
      break;
    case LcpStatus::Inaccurate:
      msg << "ended in a complementary basis after " << s.pivots
          << " pivots but its certified residual " << s.residual << " exceeds residual_tolerance "
          << options_.residual_tolerance
          << " (ill-conditioned basis: the point is not returned as a solution)";
      break;
    default:
      break;
  }
  s.message = msg.str();
}

template <int N>
std::string LemkeRun<N>::variable_name(int v) const {
  if (v == z0()) return "z0";
  return (v < n() ? "w_" : "z_") + std::to_string(v < n() ? v : v - n());
}

template <int N>
template <bool Fused>
double LemkeRun<N>::set_up() {
  // Tableau [I | -M | -d | q] for w - M z - d z0 = q.
  // Element loops rather than Eigen block expressions: m_ and q_ have run-time sizes, and with
  // N > 0 these unroll (the block expressions cost a tenth of a solve at n = 2).
  // Fused: M' = p M and q' = (p q_i) / s (the products of lcp_scaling.cpp's balanced shortcut,
  // so the same bits) computed here from the caller's data and written to the workspace and
  // the tableau in one pass: the scaled copy is not read back (a fifth of the instructions of
  // a solve at n = 2 went to the separate equilibration call and its passes).
  auto& t = t_;
  t.leftCols(n()).setIdentity();
  double p = 1.0;
  double q_factor = 1.0;
  double* scaled = nullptr;
  double* scaled_q = nullptr;
  if constexpr (Fused) {
    p = fused_->p;
    q_factor = fused_->q_factor;
    scaled = ws_.scaled_matrix.data();
    scaled_q = ws_.scaled_q.data();
  }
  double q_min = kInfinity;
  for (int j = 0; j < n(); ++j) {
    double mx = 0.0;
    for (int i = 0; i < n(); ++i) {
      double a = 0.0;
      if constexpr (Fused) {
        a = data_m_(i, j) * p;
        scaled[j * n() + i] = a;
      } else {
        a = m_(i, j);
      }
      t(i, n() + j) = -a;
      mx = std::max(mx, std::abs(a));
    }
    ws_.column_max(j) = mx;
    ws_.binv_column_max(j) = 1.0;
    t(j, z0()) = -1.0;
    double qj = 0.0;
    if constexpr (Fused) {
      qj = (p * data_q_(j)) * q_factor;
      scaled_q[j] = qj;
    } else {
      qj = q_(j);
    }
    t(j, rhs_col()) = qj;
    q_min = std::min(q_min, qj);
    ws_.basis[static_cast<std::size_t>(j)] = j;
  }
  return q_min;
}

template <int N>
void LemkeRun<N>::run() {
  LcpSolution& s = ws_.solution;
  s.message.clear();
  s.pivots = 0;
  entering_ = z0();
  cap_ = options_.max_pivots > 0 ? options_.max_pivots : 50 * (n() + 1);

  const double q_min = fused_ != nullptr ? set_up<true>() : set_up<false>();
  binv_max_ = 1.0;

  if (n() == 0 || q_min >= 0.0) {  // z = 0 solves it
    finish(LcpStatus::Solved);
    return;
  }
  int entering = z0();
  int r = ratio_test(entering, -1.0);  // the row of the most negative q_i
  if (r < 0) {  // cannot happen for finite q with a negative entry; kept as a checked exit
    finish(LcpStatus::RayTermination);
    return;
  }
  while (true) {
    pivot(r, entering);
    ++s.pivots;
    const int leaving = ws_.basis[static_cast<std::size_t>(r)];
    ws_.basis[static_cast<std::size_t>(r)] = entering;
    if (leaving == z0()) {
      finish(LcpStatus::Solved);
      return;
    }
    entering = leaving < n() ? leaving + n() : leaving - n();  // the complement
    entering_ = entering;
    if (s.pivots >= cap_) {
      finish(LcpStatus::PivotCap);
      return;
    }
    r = ratio_test(entering, 1.0);
    if (r < 0) {
      finish(LcpStatus::RayTermination);
      return;
    }
  }
}

}  // namespace

void validate(const LemkeOptions& o) {
  if (o.max_pivots < 0) {
    saltus::detail::throw_error("LemkeOptions::max_pivots = ", o.max_pivots,
                                " must be >= 0 (0: automatic, 50 (n + 1))");
  }
  const auto positive = [](double v, const char* name) {
    if (!(std::isfinite(v) && v > 0.0)) {
      saltus::detail::throw_error("LemkeOptions::", name, " = ", v, " must be finite and > 0");
    }
  };
  positive(o.pivot_tolerance, "pivot_tolerance");
  positive(o.tie_tolerance, "tie_tolerance");
  positive(o.residual_tolerance, "residual_tolerance");
}

void LemkeWorkspace::resize(int n) {
  if (n < 0) saltus::detail::throw_error("LemkeWorkspace: size must be >= 0, got ", n);
  n_ = n;
  tableau.resize(n, 2 * n + 2);
  basis.assign(static_cast<std::size_t>(n), 0);
  column.resize(n);
  ties.assign(static_cast<std::size_t>(n), 0);
  lu.resize(n, n);
  rhs.resize(n);
  z_refined.resize(n);
  index.assign(static_cast<std::size_t>(n), 0);
  permutation.assign(static_cast<std::size_t>(n), 0);
  scaled_matrix.resize(n, n);
  scaled_q.resize(n);
  ratio.resize(n);
  column_max.resize(n);
  binv_column_max.resize(n);
  row_magnitude.resize(n);
  scaling.row.resize(n);
  scaling.column.resize(n);
  solution = LcpSolution{};
  solution.z.resize(n);
  solution.w.resize(n);
}

namespace {

// The options' rules of validate() in a few comparisons, false for anything validate() would
// reject (NaN fails every comparison); validate() is called only then, to name the field.
bool options_plainly_valid(const LemkeOptions& o) {
  constexpr double kMax = std::numeric_limits<double>::max();
  return o.max_pivots >= 0 && o.pivot_tolerance > 0.0 && o.pivot_tolerance <= kMax &&
         o.tie_tolerance > 0.0 && o.tie_tolerance <= kMax && o.residual_tolerance > 0.0 &&
         o.residual_tolerance <= kMax;
}

// True when every entry of M and q is finite. check_lcp_input names the entry when this is
// false. N > 0: x * 0 is 0 for finite x and NaN otherwise, and a NaN survives every sum, so
// one accumulator per row (independent lanes, which the compiler vectorizes: two packed
// instructions per two entries) and one comparison per row decide it; a flag per entry
// (x - x == 0, below) took six instructions per entry (120 of a solve at n = 4).
// N = 0: x - x is 0 for finite x and NaN otherwise, without a branch per entry.
template <int N>
bool all_finite(const ConstMatrixRef& matrix, const ConstVectorRef& q) {
  if constexpr (N > 0) {
    std::array<double, N> rows{};
    for (int j = 0; j < N; ++j) {
      for (int i = 0; i < N; ++i) rows[static_cast<std::size_t>(i)] += matrix(i, j) * 0.0;
    }
    for (int i = 0; i < N; ++i) rows[static_cast<std::size_t>(i)] += q(i) * 0.0;
    bool finite = true;
    for (const double r : rows) finite &= r == 0.0;
    return finite;
  }
  const Eigen::Index n = q.size();
  bool finite = true;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) finite &= matrix(i, j) - matrix(i, j) == 0.0;
  }
  for (Eigen::Index i = 0; i < n; ++i) finite &= q(i) - q(i) == 0.0;
  return finite;
}

// Fuse: for N > 0, a problem that needs no Ruiz sweep is equilibrated inside Lemke's set-up
// (LemkeRun's `fused`); false (solve_lemke_unfused_path): through equilibrate_lcp, for tests.
template <int N, bool Fuse>
void solve_sized(const ConstMatrixRef& matrix, const ConstVectorRef& q, LemkeWorkspace& ws,
                 const LemkeOptions& options) {
  if (!all_finite<N>(matrix, q)) check_lcp_input(matrix, q, "Lemke");  // throws
  const Eigen::Index n = q.size();
  if (options.equilibrate) {
    if constexpr (N == 0) {  // n > 8 in solve_lemke; any n in solve_lemke_general_path
      equilibrate_lcp_general_path(matrix, q, ws.scaling, ws.scaled_matrix, ws.scaled_q);
    } else {
      if constexpr (Fuse) {
        // What equilibrate_lcp's balanced shortcut writes, less the scaled copy: LemkeRun
        // writes that while it sets up its tableau. A problem that needs sweeps (or whose
        // 1 / s is not a double) goes to equilibrate_lcp, which decides the shortcut again.
        balanced::Factors f;
        if (balanced::balanced_factors<N>(matrix, q, f)) {
          LcpScaling& s = ws.scaling;
          s.row.resize(N);
          s.column.resize(N);
          ws.scaled_matrix.resize(N, N);
          ws.scaled_q.resize(N);
          for (int i = 0; i < N; ++i) {
            s.row(i) = f.p;
            s.column(i) = 1.0;
          }
          s.q_scale = f.q_scale;
          s.iterations = 0;
          const MatrixView m(ws.scaled_matrix.data(), N, N, Eigen::OuterStride<>(N));
          const VectorView qs(ws.scaled_q.data(), N);
          LemkeRun<N>(matrix, q, m, qs, ws, options, &f).run();
          return;
        }
      }
      equilibrate_lcp(matrix, q, ws.scaling, ws.scaled_matrix, ws.scaled_q);
    }
    const MatrixView m(ws.scaled_matrix.data(), n, n, Eigen::OuterStride<>(n));
    const VectorView qs(ws.scaled_q.data(), n);
    LemkeRun<N>(matrix, q, m, qs, ws, options).run();
  } else {
    const MatrixView m(matrix.data(), n, n, Eigen::OuterStride<>(matrix.outerStride()));
    const VectorView qs(q.data(), n);
    LemkeRun<N>(matrix, q, m, qs, ws, options).run();
  }
}

// Contact sets are small: sizes up to 8 get their own unrolled code (bench/lcp_bench.cpp).
template <bool Fuse>
void solve_dispatched(const ConstMatrixRef& matrix, const ConstVectorRef& q, LemkeWorkspace& ws,
                      const LemkeOptions& options) {
  switch (q.size()) {
    case 1:
      return solve_sized<1, Fuse>(matrix, q, ws, options);
    case 2:
      return solve_sized<2, Fuse>(matrix, q, ws, options);
    case 3:
      return solve_sized<3, Fuse>(matrix, q, ws, options);
    case 4:
      return solve_sized<4, Fuse>(matrix, q, ws, options);
    case 5:
      return solve_sized<5, Fuse>(matrix, q, ws, options);
    case 6:
      return solve_sized<6, Fuse>(matrix, q, ws, options);
    case 7:
      return solve_sized<7, Fuse>(matrix, q, ws, options);
    case 8:
      return solve_sized<8, Fuse>(matrix, q, ws, options);
    default:
      return solve_sized<0, Fuse>(matrix, q, ws, options);
  }
}

// The checks of check_lcp_input and validate, in full: they throw the messages (shape, then
// options, workspace; finiteness in solve_sized). Called when input_plainly_valid is false.
void check_input(const ConstMatrixRef& matrix, const ConstVectorRef& q, const LemkeWorkspace& ws,
                 const LemkeOptions& options) {
  if (matrix.rows() != matrix.cols() || q.size() != matrix.rows()) {
    check_lcp_input(matrix, q, "Lemke");
  }
  validate(options);
  if (ws.size() != q.size()) {
    saltus::detail::throw_error("Lemke: workspace is sized for n = ", ws.size(),
                                " but the problem has n = ", q.size(),
                                "; call LemkeWorkspace::resize(", q.size(), ") first");
  }
}

// The same checks in a few comparisons, inlined into solve_lemke.
inline bool input_plainly_valid(const ConstMatrixRef& matrix, const ConstVectorRef& q,
                                const LemkeWorkspace& ws, const LemkeOptions& options) {
  return matrix.rows() == matrix.cols() && q.size() == matrix.rows() && ws.size() == q.size() &&
         options_plainly_valid(options);
}

}  // namespace

const LcpSolution& solve_lemke(ConstMatrixRef matrix, ConstVectorRef q, LemkeWorkspace& ws,
                               const LemkeOptions& options) {
  if (!input_plainly_valid(matrix, q, ws, options)) check_input(matrix, q, ws, options);
  solve_dispatched<true>(matrix, q, ws, options);
  return ws.solution;
}

const LcpSolution& solve_lemke_unfused_path(ConstMatrixRef matrix, ConstVectorRef q,
                                            LemkeWorkspace& ws, const LemkeOptions& options) {
  if (!input_plainly_valid(matrix, q, ws, options)) check_input(matrix, q, ws, options);
  solve_dispatched<false>(matrix, q, ws, options);
  return ws.solution;
}

const LcpSolution& solve_lemke_general_path(ConstMatrixRef matrix, ConstVectorRef q,
                                            LemkeWorkspace& ws, const LemkeOptions& options) {
  if (!input_plainly_valid(matrix, q, ws, options)) check_input(matrix, q, ws, options);
  solve_sized<0, false>(matrix, q, ws, options);
  return ws.solution;
}

LcpSolution solve_lemke(ConstMatrixRef matrix, ConstVectorRef q, const LemkeOptions& options) {
  LemkeWorkspace ws(static_cast<int>(q.size()));
  return solve_lemke(matrix, q, ws, options);
}

bool proves_no_solution(const LcpSolution& solution, const MatrixClass& classes) {
  return solution.status == LcpStatus::RayTermination && classes.copositive_plus == Decision::Yes;
}

}  // namespace saltus::lcp
