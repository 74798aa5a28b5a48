// Compiled alone in unity builds: its Butcher tableau (kC2, ...) has the names of the other
// Runge-Kutta methods (CMakeLists.txt, SALTUS_UNITY_BUILD).
#include "saltus/ode/dopri5.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "saltus/ode/error_norm.hpp"
#include "saltus/ode/initial_step.hpp"
#include "stage_sums.hpp"

namespace saltus::ode {
namespace {

// Butcher tableau (Dormand-Prince 1980).
constexpr double kC2 = 1.0 / 5, kC3 = 3.0 / 10, kC4 = 4.0 / 5, kC5 = 8.0 / 9;
constexpr double kA21 = 1.0 / 5;
constexpr double kA31 = 3.0 / 40, kA32 = 9.0 / 40;
constexpr double kA41 = 44.0 / 45, kA42 = -56.0 / 15, kA43 = 32.0 / 9;
constexpr double kA51 = 19372.0 / 6561, kA52 = -25360.0 / 2187, kA53 = 64448.0 / 6561,
                 kA54 = -212.0 / 729;
constexpr double kA61 = 9017.0 / 3168, kA62 = -355.0 / 33, kA63 = 46732.0 / 5247, kA64 = 49.0 / 176,
                 kA65 = -5103.0 / 18656;
// 5th-order weights (= a7j, FSAL).
constexpr double kA71 = 35.0 / 384, kA73 = 500.0 / 1113, kA74 = 125.0 / 192, kA75 = -2187.0 / 6784,
                 kA76 = 11.0 / 84;
// Error coefficients e_i = b_i - bhat_i.
constexpr double kE1 = 71.0 / 57600, kE3 = -71.0 / 16695, kE4 = 71.0 / 1920,
                 kE5 = -17253.0 / 339200, kE6 = 22.0 / 525, kE7 = -1.0 / 40;
// Continuous extension (HNW I, II.6).
constexpr double kD1 = -12715105075.0 / 11282082432, kD3 = 87487479700.0 / 32700410799,
                 kD4 = -10690763975.0 / 1880347072, kD5 = 701980252875.0 / 199316789632,
                 kD6 = -1453857185.0 / 822651844, kD7 = 69997945.0 / 29380423;

// The rows as sums over stage derivatives (stage_sums.hpp; stage j is column j - 1 of k_).
constexpr Row<2> kRow3{{{1, kA31}, {2, kA32}}};
constexpr Row<3> kRow4{{{1, kA41}, {2, kA42}, {3, kA43}}};
constexpr Row<4> kRow5{{{1, kA51}, {2, kA52}, {3, kA53}, {4, kA54}}};
constexpr Row<5> kRow6{{{1, kA61}, {2, kA62}, {3, kA63}, {4, kA64}, {5, kA65}}};
constexpr Row<5> kRow7{{{1, kA71}, {3, kA73}, {4, kA74}, {5, kA75}, {6, kA76}}};
constexpr Row<6> kError{{{1, kE1}, {3, kE3}, {4, kE4}, {5, kE5}, {6, kE6}, {7, kE7}}};
constexpr Row<6> kDense{{{1, kD1}, {3, kD3}, {4, kD4}, {5, kD5}, {6, kD6}, {7, kD7}}};

}  // namespace

Dopri5::Dopri5(const StepperOptions& options, int max_nx, int max_nz)
    : options_(options),
      eval_(max_nx, max_nz, options.newton),
      x_(Vector::Zero(max_nx)),
      x_trial_(max_nx),
      stage_x_(max_nx),
      error_(max_nx),
      k_(Matrix::Zero(max_nx, 7)),
      dense_(Matrix::Zero(max_nx, 5)),
      work_(max_nx, 2),
      offered_x_(max_nx),
      offered_f_(max_nx) {}

void Dopri5::set_flow(const Flow& flow) {
  eval_.set_flow(flow);
  n_ = flow.nx;
  offered_ = false;
}

void Dopri5::offer_derivative(double t, const ConstVectorRef& x, const ConstVectorRef& xdot) {
  offered_ = eval_.flow().kind == FlowKind::Ode && x.size() == n_ && xdot.size() == n_;
  if (!offered_) return;
  offered_t_ = t;
  for (int i = 0; i < n_; ++i) {  // plain loops: std::copy_n calls memmove
    offered_x_[i] = x[i];
    offered_f_[i] = xdot[i];
  }
}

bool Dopri5::take_offered_derivative(double t) {
  const bool fits = offered_ && t == offered_t_ &&
                    std::memcmp(offered_x_.data(), x_.data(), sizeof(double) * n_) == 0;
  offered_ = false;
  if (fits) {
    for (int i = 0; i < n_; ++i) k_(i, 0) = offered_f_[i];
  }
  return fits;
}

bool Dopri5::stage(int i, double t, const ConstVectorRef& x) {
  ++stats_.rhs_evaluations;
  return eval_.derivative(t, x, k_.col(i).head(n_));
}

StepStatus Dopri5::restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                           bool keep_step_size) {
  ++stats_.restarts;
  controller_.restart();
  t_ = t0_ = t;
  for (int i = 0; i < n_; ++i) x_[i] = x[i];
  if (eval_.nz() > 0) eval_.set_algebraic(z);
  if (!take_offered_derivative(t) && !stage(0, t, x_.head(n_))) {
    return k_.col(0).head(n_).allFinite() ? StepStatus::NewtonFailure : StepStatus::NonFiniteState;
  }
  // Dense output on the degenerate interval [t, t]: the constant x (plain loops: Eigen's block
  // assignments cost more than the restart's flow evaluation for a small system).
  double* d = dense_.data();
  const Eigen::Index dl = dense_.rows();
  for (int i = 0; i < n_; ++i) {
    d[i] = x_[i];
    for (int c = 1; c < 5; ++c) d[c * dl + i] = 0.0;
  }
  if (!keep_step_size || !(h_ > 0.0)) {
    h_ = options_.h_initial > 0.0
             ? options_.h_initial
             : initial_step(eval_, t, x_.head(n_), k_.col(0).head(n_), kOrder, options_,
                            work_.topRows(n_), stats_.rhs_evaluations);
    // initial_step() left the algebraic state at its trial point: solve it again at x.
    if (eval_.nz() > 0 && !stage(0, t, x_.head(n_))) return StepStatus::NewtonFailure;
  }
  return StepStatus::Accepted;
}

StepStatus Dopri5::step(double t_limit) {
  offered_ = false;
  // Bound once: a const Ref built per stage call from a block would cost more than the sums.
  const ConstVectorRef xt(x_trial_.head(n_));
  const ConstVectorRef y(stage_x_.head(n_));
  double h = std::min({h_, options_.h_max, h_cap_});
  h_cap_ = kInfinity;
  int rejections = 0;
  for (;;) {
    const bool last = fit_step_to_limit(h, t_, t_limit);
    if (step_underflows(h, last, t_, options_)) return StepStatus::StepSizeUnderflow;

    // Stage sums over the columns of k_ (stage_sums.hpp).
    const int n = n_;
    const Eigen::Index ld = k_.rows();
    const double* K = k_.data();
    const double* X0 = x_.data();
    double* Y = stage_x_.data();
    double* XT = x_trial_.data();
    auto kk = [&](int j, int i) { return K[j * ld + i]; };
    bool ok = true;
    {
      // (h a21) k1, as the other rows' h (sum) would round differently.
      const double ha = h * kA21;
      int i = 0;
      for (; i + 1 < n; i += 2) store_pair(Y + i, pair_at(X0 + i) + ha * pair_at(K + i));
      if (i < n) Y[i] = X0[i] + ha * kk(0, i);
    }
    ok = ok && stage(1, t_ + kC2 * h, y);
    if (ok) stage_point(kRow3, X0, h, K, ld, n, Y);
    ok = ok && stage(2, t_ + kC3 * h, y);
    if (ok) stage_point(kRow4, X0, h, K, ld, n, Y);
    ok = ok && stage(3, t_ + kC4 * h, y);
    if (ok) stage_point(kRow5, X0, h, K, ld, n, Y);
    ok = ok && stage(4, t_ + kC5 * h, y);
    if (ok) stage_point(kRow6, X0, h, K, ld, n, Y);
    ok = ok && stage(5, t_ + h, y);
    if (ok) stage_point(kRow7, X0, h, K, ld, n, XT);
    ok = ok && stage(6, t_ + h, xt);

    double err = kInfinity;
    if (ok) {
      double* E = error_.data();
      scaled_sum(kError, h, K, ld, n, E);
      err = error_norm(E, X0, XT, n, options_);
    }
    // A failed stage (NaN, Newton) is treated as a too-large step: shrink and retry.
    if (ok && err <= 1.0) {
      // Continuous extension of the accepted step (HNW I, II.6, CONTD5 form).
      double* D = dense_.data();
      const Eigen::Index dl = dense_.rows();
      for (int i = 0; i < n; ++i) {
        const double dx = XT[i] - X0[i];
        const double c2 = h * kk(0, i) - dx;
        D[i] = X0[i];
        D[dl + i] = dx;
        D[2 * dl + i] = c2;
        D[3 * dl + i] = dx - h * kk(6, i) - c2;
      }
      scaled_sum(kDense, h, K, ld, n, D + 4 * dl);
      t0_ = t_;
      t_ = last ? t_limit : t_ + h;
      for (int i = 0; i < n; ++i) x_[i] = XT[i];
      for (int i = 0; i < n; ++i) k_(i, 0) = kk(6, i);  // FSAL (no aliasing: distinct columns)
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

void Dopri5::interpolate(double t, VectorRef x) const {
  const double th = dense_theta(t), th1 = 1.0 - th;
  double* out = x.data();
  for (int i = 0; i < n_; ++i) out[i] = dense_component(th, th1, i);
}

void Dopri5::interpolate_derivative(double t, VectorRef xdot) const {
  const double h = t_ - t0_;
  if (!(h > 0.0)) {
    xdot = k_.col(0).head(n_);
    return;
  }
  const double th = (t - t0_) / h;
  // d/dtheta of c0 + th c1 + th(1-th) c2 + th^2(1-th) c3 + th^2(1-th)^2 c4, divided by h.
  xdot = (dense_.col(1).head(n_) + (1.0 - 2.0 * th) * dense_.col(2).head(n_) +
          th * (2.0 - 3.0 * th) * dense_.col(3).head(n_) +
          2.0 * th * (1.0 - th) * (1.0 - 2.0 * th) * dense_.col(4).head(n_)) /
         h;
}

// The continuous extension d0 + th (d1 + (1 - th)(d2 + th (d3 + (1 - th) d4))) in interval
// arithmetic, expanded in powers of th (its coefficients enclosed):
//   d0 + (d1 + d2) th + (d3 + d4 - d2) th^2 - (d3 + 2 d4) th^3 + d4 th^4,
// and its derivative by Horner's rule over th in [0, 1]: tighter than the nested form (th and
// 1 - th are not independent) and half its operations (the event search's cost per step).
int Dopri5::dense_polynomial(int i, Interval* c) const {
  const Eigen::Index dl = dense_.rows();
  const double* d = dense_.data() + i;
  c[0] = Interval(d[0]);
  if (!(t_ - t0_ > 0.0)) return 1;
  // d0 + u (d1 + (1 - u) (d2 + u (d3 + (1 - u) d4))) multiplied out.
  const Interval d2(d[2 * dl]), d3(d[3 * dl]), d4(d[4 * dl]);
  c[1] = Interval(d[dl]) + d2;
  c[2] = d3 + d4 - d2;
  c[3] = -(d3 + Interval(2.0) * d4);
  c[4] = d4;
  return 5;
}

}  // namespace saltus::ode
