#include "saltus/ode/dop853.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "dop853_tableau.hpp"
#include "saltus/ode/error_norm.hpp"
#include "saltus/ode/initial_step.hpp"

namespace saltus::ode {

using namespace dop853_tableau;  // NOLINT: the tableau is this file's vocabulary

Dop853::Dop853(const StepperOptions& options, int max_nx, int max_nz)
    : options_(options),
      eval_(max_nx, max_nz, options.newton),
      x_(Vector::Zero(max_nx)),
      x_trial_(max_nx),
      stage_x_(max_nx),
      err5_(max_nx),
      err3_(max_nx),
      z_end_(Vector::Zero(max_nz)),
      k_(Matrix::Zero(max_nx, kStages)),
      dense_(Matrix::Zero(max_nx, kDense)),
      work_(max_nx, 2) {}

void Dop853::set_flow(const Flow& flow) {
  eval_.set_flow(flow);
  n_ = flow.nx;
}

bool Dop853::stage(int i, double t, const ConstVectorRef& x) {
  ++stats_.rhs_evaluations;
  return eval_.derivative(t, x, k_.col(i - 1).head(n_));
}

StepStatus Dop853::restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                           bool keep_step_size) {
  ++stats_.restarts;
  controller_.restart();
  t_ = t0_ = t;
  for (int i = 0; i < n_; ++i) x_[i] = x[i];
  if (eval_.nz() > 0) eval_.set_algebraic(z);
  if (!stage(1, t, x_.head(n_))) {
    return k_.col(0).head(n_).allFinite() ? StepStatus::NewtonFailure : StepStatus::NonFiniteState;
  }
  if (eval_.nz() > 0) z_end_.head(eval_.nz()) = eval_.algebraic();
  // Dense output on the degenerate interval [t, t]: the constant x (plain loops, as in step()).
  double* d = dense_.data();
  const Eigen::Index dl = dense_.rows();
  for (int i = 0; i < n_; ++i) {
    d[i] = x_[i];
    for (int j = 1; j < kDense; ++j) d[j * dl + i] = 0.0;
  }
  if (!keep_step_size || !(h_ > 0.0)) {
    h_ = options_.h_initial > 0.0
             ? options_.h_initial
             : initial_step(eval_, t, x_.head(n_), k_.col(0).head(n_), kOrder, options_,
                            work_.topRows(n_), stats_.rhs_evaluations);
    // initial_step() moved the algebraic state to its trial point: put back the one at x.
    if (eval_.nz() > 0) eval_.set_algebraic(z_end_.head(eval_.nz()));
  }
  return StepStatus::Accepted;
}

StepStatus Dop853::step(double t_limit) {
  // Stage sums over the columns of k_ (stage_sums.hpp).
  const int n = n_;
  const Eigen::Index ld = k_.rows();
  const double* K = k_.data();
  const double* X0 = x_.data();
  double* Y = stage_x_.data();
  double* XT = x_trial_.data();
  // Bound once: a const Ref built per stage call from a block would cost more than the sums.
  const ConstVectorRef y(stage_x_.head(n_));
  const ConstVectorRef xt(x_trial_.head(n_));
  double h = std::min({h_, options_.h_max, h_cap_});
  h_cap_ = kInfinity;
  int rejections = 0;
  const auto stage_point = [&](const auto& row) { ode::stage_point(row, X0, h, K, ld, n, Y); };
  for (;;) {
    const bool last = fit_step_to_limit(h, t_, t_limit);
    if (step_underflows(h, last, t_, options_)) return StepStatus::StepSizeUnderflow;

    const double t = t_;
    bool ok = true;
    stage_point(kRow2);
    ok = ok && stage(2, t + kC2 * h, y);
    if (ok) stage_point(kRow3);
    ok = ok && stage(3, t + kC3 * h, y);
    if (ok) stage_point(kRow4);
    ok = ok && stage(4, t + kC4 * h, y);
    if (ok) stage_point(kRow5);
    ok = ok && stage(5, t + kC5 * h, y);
    if (ok) stage_point(kRow6);
    ok = ok && stage(6, t + kC6 * h, y);
    if (ok) stage_point(kRow7);
    ok = ok && stage(7, t + kC7 * h, y);
    if (ok) stage_point(kRow8);
    ok = ok && stage(8, t + kC8 * h, y);
    if (ok) stage_point(kRow9);
    ok = ok && stage(9, t + kC9 * h, y);
    if (ok) stage_point(kRow10);
    ok = ok && stage(10, t + kC10 * h, y);
    if (ok) stage_point(kRow11);
    ok = ok && stage(11, t + kC11 * h, y);
    if (ok) stage_point(kRow12);
    ok = ok && stage(12, t + h, y);

    double err = kInfinity;
    if (ok) {
      // Y <- sum b_i k_i (the 8th-order increment divided by h).
      scaled_sum(kWeights8, 1.0, K, ld, n, Y);
      for (int i = 0; i < n; ++i) XT[i] = X0[i] + h * Y[i];
      ok = xt.allFinite();
    }
    if (ok) {
      double* E5 = err5_.data();
      double* E3 = err3_.data();
      scaled_sum(kError5, h, K, ld, n, E5);
      for (int i = 0; i < n; ++i) {
        E3[i] = h * (Y[i] - kBhh1 * K[i] - kBhh2 * K[8 * ld + i] - kBhh3 * K[11 * ld + i]);
      }
      double n5 = 0.0, n3 = 0.0;
      error_norms(E5, E3, X0, XT, n, options_, n5, n3);
      const double denominator = std::sqrt(n5 * n5 + 0.01 * n3 * n3);
      err = denominator > 0.0 ? n5 * n5 / denominator : 0.0;
      if (!std::isfinite(err)) ok = false;
    }
    // The end state moved onto the invariants (set_end_projection) before f is evaluated there.
    if (ok && err <= 1.0 && end_projection_ &&
        !end_projection_(last ? t_limit : t + h, x_trial_.head(n))) {
      return StepStatus::ProjectionFailure;
    }
    // Stage 13 = f at the step end (FSAL); evaluated only for a step that passes the error test.
    if (ok && err <= 1.0) ok = stage(13, t + h, xt);
    if (ok && err <= 1.0 && eval_.nz() > 0) z_end_.head(eval_.nz()) = eval_.algebraic();
    // Extra stages 14..16 of the continuous extension.
    if (ok && err <= 1.0) {
      stage_point(kRow14);
      ok = stage(14, t + kC14 * h, y);
    }
    if (ok && err <= 1.0) {
      stage_point(kRow15);
      ok = stage(15, t + kC15 * h, y);
    }
    if (ok && err <= 1.0) {
      stage_point(kRow16);
      ok = stage(16, t + kC16 * h, y);
    }
    // A failed stage (NaN, Newton) is treated as a too-large step: shrink and retry.
    if (ok && err <= 1.0) {
      double* D = dense_.data();
      const Eigen::Index dl = dense_.rows();
      for (int i = 0; i < n; ++i) {
        const double r2 = XT[i] - X0[i];
        const double r3 = h * K[i] - r2;
        D[i] = X0[i];
        D[dl + i] = r2;
        D[2 * dl + i] = r3;
        D[3 * dl + i] = r2 - h * K[12 * ld + i] - r3;
      }
      scaled_sum(kDense4, h, K, ld, n, D + 4 * dl);
      scaled_sum(kDense5, h, K, ld, n, D + 5 * dl);
      scaled_sum(kDense6, h, K, ld, n, D + 6 * dl);
      scaled_sum(kDense7, h, K, ld, n, D + 7 * dl);
      if (eval_.nz() > 0) eval_.set_algebraic(z_end_.head(eval_.nz()));  // z consistent at x1
      t0_ = t_;
      t_ = last ? t_limit : t_ + h;
      for (int i = 0; i < n; ++i) x_[i] = XT[i];
      for (int i = 0; i < n; ++i) k_(i, 0) = K[12 * ld + i];  // FSAL (distinct columns)
      ++stats_.accepted_steps;
      const double proposal = h * controller_.accepted(err, options_);
      // A step shortened to hit t_limit or a cap says nothing against the previous proposal.
      h_ = std::max(proposal, last ? h_ : proposal);
      return StepStatus::Accepted;
    }
    ++stats_.rejected_steps;
    if (++rejections >= options_.max_rejections) return StepStatus::TooManyRejections;
    h *= ok ? controller_.rejected(err, options_) : 0.25;
    if (!ok && h < minimum_step(t_, options_)) {
      return eval_.nz() > 0 || eval_.flow().kind == FlowKind::ImplicitDae
                 ? StepStatus::NewtonFailure
                 : StepStatus::NonFiniteState;
    }
  }
}

// x(theta) = r1 + theta (r2 + theta1 (r3 + theta (r4 + ... + theta r8))): the weight of r_j is
// the product of the first j - 1 factors of the sequence theta, theta1, theta, theta1, ...
void Dop853::dense_weights(double theta, double* w) {
  const double theta1 = 1.0 - theta;
  w[0] = 1.0;
  for (int j = 1; j < kDense; ++j) w[j] = w[j - 1] * ((j % 2) == 1 ? theta : theta1);
}

// The weights and their derivatives d w_j / d theta (the derivative's chain costs as much again:
// interpolation, which is most calls, asks for the weights alone).
void Dop853::dense_weights(double theta, double* w, double* dw) {
  const double theta1 = 1.0 - theta;
  w[0] = 1.0;
  dw[0] = 0.0;
  for (int j = 1; j < kDense; ++j) {
    const bool odd = (j % 2) == 1;
    const double m = odd ? theta : theta1;
    const double dm = odd ? 1.0 : -1.0;
    w[j] = w[j - 1] * m;
    dw[j] = dw[j - 1] * m + w[j - 1] * dm;
  }
}

void Dop853::interpolate(double t, VectorRef x) const {
  double w[kDense];
  dense_weights(theta(t), w);
  for (int i = 0; i < n_; ++i) x[i] = dense_component(w, i);
}

void Dop853::interpolate_components(double t, const int* which, int count, double* x) const {
  double w[kDense];
  dense_weights(theta(t), w);
  for (int k = 0; k < count; ++k) x[which[k]] = dense_component(w, which[k]);
}

void Dop853::interpolate_derivative(double t, VectorRef xdot) const {
  const double h = t_ - t0_;
  if (!(h > 0.0)) {
    xdot = k_.col(0).head(n_);
    return;
  }
  double w[kDense], dw[kDense];
  dense_weights((t - t0_) / h, w, dw);
  for (int i = 0; i < n_; ++i) xdot[i] = dense_component(dw, i) / h;
}

namespace {

// kWeights[j][k]: the coefficient of u^k in the dense weight w_j(u) = u^ceil(j/2)
// (1 - u)^floor(j/2) (small integers, exact in doubles).
constexpr int kWeightCount = 8;
using WeightTable = std::array<std::array<double, kWeightCount>, kWeightCount>;
constexpr WeightTable weight_coefficients() {
  WeightTable table{};
  std::array<double, kWeightCount> w{};
  w[0] = 1.0;
  table[0] = w;
  for (int j = 1; j < kWeightCount; ++j) {
    for (int k = j; k >= 1; --k) w[k] = (j % 2) == 1 ? w[k - 1] : w[k] - w[k - 1];
    if ((j % 2) == 1) w[0] = 0.0;
    table[j] = w;
  }
  return table;
}
constexpr WeightTable kWeights = weight_coefficients();

}  // namespace

// sum_j w_j(u) r_j multiplied out: c_k = sum_j W_jk r_j, each an inner product of at most 8
// terms in doubles, enclosed by its rounding bound gamma_m sum_j |W_jk r_j| (Higham, Accuracy
// and Stability of Numerical Algorithms, 3.1), taken twice, with an absolute term for underflow.
int Dop853::dense_polynomial(int i, Interval* c) const {
  static_assert(kDense == kWeightCount);
  const double* d = dense_.data() + i;
  const Eigen::Index dl = dense_.rows();
  c[0] = Interval(d[0]);
  if (!(t_ - t0_ > 0.0)) return 1;
  for (int k = 1; k < kDense; ++k) {
    double sum = 0.0, size = 0.0;
    int terms = 0;
    for (int j = 1; j < kDense; ++j) {
      if (kWeights[j][k] == 0.0) continue;
      const double p = kWeights[j][k] * d[j * dl];
      sum += p;
      size += std::abs(p);
      ++terms;
    }
    const double error = 4.0 * terms * 0x1p-53 * size + terms * 0x1p-1000;
    c[k] = Interval(sum - error, sum + error);
  }
  return kDense;
}

}  // namespace saltus::ode
