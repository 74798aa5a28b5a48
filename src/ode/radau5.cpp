// Compiled alone in unity builds: its nodes (kC2, ...) have the names of the explicit Runge-Kutta
// tableaus (CMakeLists.txt, SALTUS_UNITY_BUILD).
// Radau IIA (order 5) for stiff ODEs and index-1 DAEs; see radau5.hpp. Length (~490 lines): one
// integrator whose stages, simplified Newton, error estimate and dense output share its state.
#include "saltus/ode/radau5.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "saltus/ode/error_norm.hpp"
#include "saltus/ode/initial_step.hpp"

namespace saltus::ode {
namespace {

using Complex = std::complex<double>;

// Nodes of Radau IIA (s = 3): roots of the Radau polynomial, c3 = 1.
const double kSqrt6 = std::sqrt(6.0);
const double kC1 = (4.0 - kSqrt6) / 10.0;
const double kC2 = (4.0 + kSqrt6) / 10.0;
const double kC1m1 = kC1 - 1.0;
const double kC2m1 = kC2 - 1.0;
const double kC1mC2 = kC1 - kC2;

// Error-estimate weights dd_i (e_i = gamma0 dd_i): gamma0 h f0 + sum e_i z_i is the difference
// of the collocation solution and an embedded formula of order 3.
const double kDd1 = -(13.0 + 7.0 * kSqrt6) / 3.0;
const double kDd2 = (-13.0 + 7.0 * kSqrt6) / 3.0;
constexpr double kDd3 = -1.0 / 3.0;

// Eigenvalues of A^-1: gamma (real) and alpha +- i beta, from the closed form of the eigenvalues
// of A (HNW II, IV.8): 1/gamma = (6 + 81^(1/3) - 9^(1/3)) / 30, and
// 1/(alpha + i beta) = ((12 - 81^(1/3) + 9^(1/3)) + i sqrt3 (81^(1/3) + 9^(1/3))) / 60.
const double kCbrt81 = std::cbrt(81.0);
const double kCbrt9 = std::cbrt(9.0);
const double kGamma = 30.0 / (6.0 + kCbrt81 - kCbrt9);
const double kAlphaA = (12.0 - kCbrt81 + kCbrt9) / 60.0;
const double kBetaA = (kCbrt81 + kCbrt9) * std::sqrt(3.0) / 60.0;
const double kAlpha = kAlphaA / (kAlphaA * kAlphaA + kBetaA * kBetaA);
const double kBeta = kBetaA / (kAlphaA * kAlphaA + kBetaA * kBetaA);

// T (columns: real eigenvector, real and imaginary parts of the complex one) and T^-1, with
// T^-1 A^-1 T = [[gamma, 0, 0], [0, alpha, -beta], [0, beta, alpha]] (published 20-digit values;
// checked when transcribed: T^-1 T = I and T^-1 A T = that matrix's inverse to 1e-16).
constexpr double kT11 = 9.1232394870892942792e-02, kT12 = -0.14125529502095420843,
                 kT13 = -3.0029194105147424492e-02;
constexpr double kT21 = 0.24171793270710701896, kT22 = 0.20412935229379993199,
                 kT23 = 0.38294211275726193779;
constexpr double kT31 = 0.96604818261509293619;  // kT32 = 1, kT33 = 0
constexpr double kTi11 = 4.3255798900631553510, kTi12 = 0.33919925181580986954,
                 kTi13 = 0.54177053993587487119;
constexpr double kTi21 = -4.1787185915519047273, kTi22 = -0.32768282076106238708,
                 kTi23 = 0.47662355450055045196;
constexpr double kTi31 = -0.50287263494578687595, kTi32 = 2.5719269498556054292,
                 kTi33 = -0.59603920482822492497;

constexpr int kMaxNewton = 7;            // kmax: Newton iterations per attempt
constexpr double kJacobianReuse = 1e-3;  // keep J after a step whose contraction was below this
constexpr double kKeepStepLow = 1.0, kKeepStepHigh = 1.2;  // keep h (and LU) within this ratio
constexpr double kRound = std::numeric_limits<double>::epsilon();

// RADAU5's tolerance map: the order-3 estimate is pessimistic for an order-5 method.
double mapped_rtol(double rtol) {
  return 0.1 * std::pow(rtol, 2.0 / 3.0);
}

}  // namespace

Radau5::Radau5(const StepperOptions& options, int max_nx, int max_nz)
    : options_(options),
      error_options_(options),
      eval_(max_nx, max_nz, options.newton),
      x_(Vector::Zero(max_nx)),
      f0_(Vector::Zero(max_nx)),
      xt_(max_nx),
      scale_(max_nx),
      rhs_(max_nx),
      err_(max_nx),
      work_vec_(max_nx),
      z_(Matrix::Zero(max_nx, 3)),
      w_(Matrix::Zero(max_nx, 3)),
      f_(Matrix::Zero(max_nx, 3)),
      cont_(Matrix::Zero(max_nx, 5)),
      jac_(Matrix::Zero(max_nx, max_nx)),
      e1_(max_nx, max_nx),
      e2_(max_nx, max_nx),
      crhs_(max_nx),
      csol_(max_nx),
      lu1_(max_nx),
      lu2_(max_nx),
      work_(max_nx, 2) {
  auto map = [](double& rtol, double& atol) {
    const double ratio = atol / rtol;
    rtol = mapped_rtol(rtol);
    atol = rtol * ratio;
  };
  map(error_options_.rtol, error_options_.atol);
  const Eigen::Index m =
      std::max(options.rtol_per_component.size(), options.atol_per_component.size());
  if (m > 0) {
    error_options_.rtol_per_component.resize(m);
    error_options_.atol_per_component.resize(m);
    for (Eigen::Index i = 0; i < m; ++i) {
      double r =
          options.rtol_per_component.size() > i ? options.rtol_per_component[i] : options.rtol;
      double a =
          options.atol_per_component.size() > i ? options.atol_per_component[i] : options.atol;
      map(r, a);
      error_options_.rtol_per_component[i] = r;
      error_options_.atol_per_component[i] = a;
    }
  }
  const double rtol = error_options_.rtol;
  fnewt_ = std::max(10.0 * kRound / rtol, std::min(0.03, std::sqrt(rtol)));
}

void Radau5::set_flow(const Flow& flow) {
  eval_.set_flow(flow);
  n_ = flow.nx;
  need_jac_ = true;
  lu_valid_ = false;
  eval_fresh_ = false;
}

bool Radau5::evaluate(double t, const ConstVectorRef& x, VectorRef f) {
  ++stats_.rhs_evaluations;
  eval_fresh_ = false;
  return eval_.derivative(t, x, f);
}

StepStatus Radau5::restart(double t, const ConstVectorRef& x, const ConstVectorRef& z,
                           bool keep_step_size) {
  ++stats_.restarts;
  t_ = t0_ = t;
  x_.head(n_) = x;
  if (eval_.nz() > 0) eval_.set_algebraic(z);
  const bool dae = eval_.nz() > 0 || eval_.flow().kind == FlowKind::ImplicitDae;
  if (!evaluate(t, x_.head(n_), f0_.head(n_))) {
    return f0_.head(n_).allFinite() ? StepStatus::NewtonFailure : StepStatus::NonFiniteState;
  }
  eval_fresh_ = true;
  // Dense output on the degenerate interval [t, t]: the constant x.
  cont_.col(0).head(n_) = x_.head(n_);
  cont_.middleCols(1, 3).topRows(n_).setZero();
  cont_.col(4).head(n_) = x_.head(n_);
  first_ = true;
  last_rejected_ = false;
  need_jac_ = true;
  jac_current_ = false;
  lu_valid_ = false;
  faccon_ = 1.0;
  theta_ = 0.0;
  accepted_since_restart_ = 0;
  if (!keep_step_size || !(h_ > 0.0)) {
    h_ = options_.h_initial > 0.0
             ? options_.h_initial
             : initial_step(eval_, t, x_.head(n_), f0_.head(n_), 3, error_options_,
                            work_.topRows(n_), stats_.rhs_evaluations);
    // initial_step() left the algebraic state at its trial point: solve it again at x.
    if (dae) {
      if (!evaluate(t, x_.head(n_), f0_.head(n_))) return StepStatus::NewtonFailure;
      eval_fresh_ = true;
    }
  }
  return StepStatus::Accepted;
}

bool Radau5::update_jacobian() {
  const bool dae = eval_.nz() > 0 || eval_.flow().kind == FlowKind::ImplicitDae;
  // DAE Jacobians use the algebraic state (and x') of the evaluator's last solve.
  if (dae && !eval_fresh_) {
    if (!evaluate(t_, x_.head(n_), work_vec_.head(n_))) return false;
    eval_fresh_ = true;
  }
  eval_.reduced_jacobian(t_, x_.head(n_), jac_.topLeftCorner(n_, n_));
  ++stats_.jacobian_evaluations;
  jac_current_ = true;
  need_jac_ = false;
  lu_valid_ = false;
  return jac_.topLeftCorner(n_, n_).allFinite();
}

void Radau5::decompose(double h) {
  const auto J = jac_.topLeftCorner(n_, n_);
  auto e1 = e1_.topLeftCorner(n_, n_);
  auto e2 = e2_.topLeftCorner(n_, n_);
  e1 = -J;
  e1.diagonal().array() += kGamma / h;
  e2 = -J.cast<Complex>();
  e2.diagonal().array() += Complex(kAlpha / h, kBeta / h);
  lu1_.compute(e1);
  lu2_.compute(e2);
  ++stats_.lu_decompositions;
  h_lu_ = h;
  lu_valid_ = true;
}

// Simplified Newton for the stage increments in the transformed variables W = T^-1 Z.
Radau5::NewtonResult Radau5::newton(double h, double* h_factor) {
  const auto x0 = x_.head(n_);
  auto z = [&](int j) { return z_.col(j).head(n_); };
  auto w = [&](int j) { return w_.col(j).head(n_); };
  auto f = [&](int j) { return f_.col(j).head(n_); };
  const double c[3] = {kC1, kC2, 1.0};

  // Starting values: zero, or the previous collocation polynomial extrapolated.
  if (first_) {
    z_.leftCols(3).topRows(n_).setZero();
    w_.leftCols(3).topRows(n_).setZero();
  } else {
    const double c3q = h / h_old_;
    for (int j = 0; j < 3; ++j) {
      const double q = c[j] * c3q;
      z(j) = q * (cont_.col(1).head(n_) +
                  (q - kC2m1) * (cont_.col(2).head(n_) + (q - kC1m1) * cont_.col(3).head(n_)));
    }
    w(0) = kTi11 * z(0) + kTi12 * z(1) + kTi13 * z(2);
    w(1) = kTi21 * z(0) + kTi22 * z(1) + kTi23 * z(2);
    w(2) = kTi31 * z(0) + kTi32 * z(1) + kTi33 * z(2);
  }
  for (int i = 0; i < n_; ++i) scale_[i] = component_scale(error_options_, i, x0[i], x0[i]);

  const double fac1 = kGamma / h, alphn = kAlpha / h, betan = kBeta / h;
  faccon_ = std::pow(std::max(faccon_, kRound), 0.8);
  theta_ = kJacobianReuse;
  double dynold = 0.0, thqold = 0.0;
  iterations_ = 0;
  auto xs = xt_.head(n_);
  auto r = rhs_.head(n_);
  auto cr = crhs_.head(n_);
  auto cs = csol_.head(n_);
  for (;;) {
    if (iterations_ >= kMaxNewton) {
      *h_factor = 0.5;
      return NewtonResult::Diverged;
    }
    for (int j = 0; j < 3; ++j) {
      xs = x0 + z(j);
      if (!evaluate(t_ + c[j] * h, xs, f(j))) {
        *h_factor = 0.5;
        return NewtonResult::Failed;
      }
    }
    ++iterations_;
    // Right-hand sides (T^-1 (x) I) F(Z) - h^-1 (Lambda (x) I) W, then the two linear solves.
    r = kTi11 * f(0) + kTi12 * f(1) + kTi13 * f(2) - fac1 * w(0);
    z(0).noalias() = lu1_.solve(r);
    for (int i = 0; i < n_; ++i) {
      const double a = kTi21 * f(0)[i] + kTi22 * f(1)[i] + kTi23 * f(2)[i];
      const double b = kTi31 * f(0)[i] + kTi32 * f(1)[i] + kTi33 * f(2)[i];
      cr[i] = Complex(a - alphn * w(1)[i] + betan * w(2)[i], b - betan * w(1)[i] - alphn * w(2)[i]);
    }
    cs.noalias() = lu2_.solve(cr);
    z(1) = cs.real();
    z(2) = cs.imag();  // z_ holds the corrections dW here
    double dyno = 0.0;
    for (int j = 0; j < 3; ++j) dyno += (z(j).array() / scale_.head(n_).array()).square().sum();
    dyno = std::sqrt(dyno / (3.0 * n_));
    if (!std::isfinite(dyno)) {
      *h_factor = 0.5;
      return NewtonResult::Failed;
    }
    if (iterations_ > 1 && iterations_ < kMaxNewton) {
      const double thq = dyno / dynold;
      theta_ = iterations_ == 2 ? thq : std::sqrt(thq * thqold);
      thqold = thq;
      if (theta_ < 0.99) {
        faccon_ = theta_ / (1.0 - theta_);
        const double dyth =
            faccon_ * dyno * std::pow(theta_, kMaxNewton - 1 - iterations_) / fnewt_;
        if (dyth >= 1.0) {
          // The predicted error after kmax iterations is too large: shorten the step now.
          const double qnewt = std::clamp(dyth, 1e-4, 20.0);
          *h_factor = 0.8 * std::pow(qnewt, -1.0 / (4.0 + kMaxNewton - 1 - iterations_));
          return NewtonResult::Slow;
        }
      } else {
        *h_factor = 0.5;
        return NewtonResult::Diverged;
      }
    }
    dynold = std::max(dyno, kRound);
    for (int j = 0; j < 3; ++j) w(j) += z(j);
    z(0) = kT11 * w(0) + kT12 * w(1) + kT13 * w(2);
    z(1) = kT21 * w(0) + kT22 * w(1) + kT23 * w(2);
    z(2) = kT31 * w(0) + w(1);
    if (faccon_ * dyno <= fnewt_) return NewtonResult::Converged;
  }
}

// err = (gamma/h I - J)^-1 (f0 + (dd1 z1 + dd2 z2 + dd3 z3) / h): the estimate of HNW with the
// (I - h gamma0 J)^-1 filter. filter_again: on the first step and after a rejection, an estimate
// >= 1 is recomputed with f evaluated at x0 + err.
double Radau5::error_estimate(double h, bool filter_again) {
  const auto x0 = x_.head(n_);
  auto f2 = rhs_.head(n_);
  auto e = err_.head(n_);
  auto xs = xt_.head(n_);
  auto w = work_vec_.head(n_);
  f2 = (kDd1 * z_.col(0).head(n_) + kDd2 * z_.col(1).head(n_) + kDd3 * z_.col(2).head(n_)) / h;
  w = f2 + f0_.head(n_);
  e.noalias() = lu1_.solve(w);
  xs = x0 + z_.col(2).head(n_);
  double err = std::max(error_norm(e, x0, xs, error_options_), 1e-10);
  if (err >= 1.0 && filter_again) {
    xs = x0 + e;
    if (evaluate(t_, xs, w)) {
      w += f2;
      e.noalias() = lu1_.solve(w);
      xs = x0 + z_.col(2).head(n_);
      const double err2 = error_norm(e, x0, xs, error_options_);
      if (std::isfinite(err2)) err = std::max(err2, 1e-10);
    }
  }
  return std::isfinite(err) ? err : kInfinity;
}

StepStatus Radau5::step(double t_limit) {
  const auto x0 = x_.head(n_);
  double h = std::min({h_, options_.h_max, h_cap_});
  h_cap_ = kInfinity;
  int rejections = 0;
  for (;;) {
    const bool last = fit_step_to_limit(h, t_, t_limit);
    if (step_underflows(h, last, t_, options_)) return StepStatus::StepSizeUnderflow;

    bool failed = false;  // a non-finite value or an algebraic Newton failure in this attempt
    double h_factor = 1.0;
    NewtonResult result = NewtonResult::Failed;
    if (need_jac_ && !update_jacobian()) {
      failed = true;
      h_factor = 0.5;
      need_jac_ = true;
    } else {
      if (!lu_valid_ || h != h_lu_) decompose(h);
      result = newton(h, &h_factor);
      failed = result == NewtonResult::Failed;
    }

    if (result == NewtonResult::Converged) {
      const double err = error_estimate(h, first_ || last_rejected_);
      // Step-size proposal h_new = h / quot.
      const double fac = std::min(options_.safety, options_.safety * (1.0 + 2.0 * kMaxNewton) /
                                                       (iterations_ + 2.0 * kMaxNewton));
      const double quot_min = 1.0 / options_.fac_max, quot_max = 1.0 / options_.fac_min;
      double quot = std::clamp(std::pow(err, 0.25) / fac, quot_min, quot_max);
      if (err < 1.0) {
        auto x1 = xt_.head(n_);
        x1 = x0 + z_.col(2).head(n_);
        const double t1 = last ? t_limit : t_ + h;
        // f at the new point: the next step's f0, and for DAEs the consistent algebraic state.
        if (evaluate(t1, x1, work_vec_.head(n_))) {
          ++accepted_since_restart_;
          if (accepted_since_restart_ > 1) {
            // Gustafsson's predictive controller.
            const double facgus =
                (h_acc_ / h) * std::pow(err * err / err_acc_, 0.25) / options_.safety;
            quot = std::max(quot, std::clamp(facgus, quot_min, quot_max));
          }
          h_acc_ = h;
          err_acc_ = std::max(1e-2, err);
          // Collocation polynomial in divided-difference form (s = (t - t1)/h in [-1, 0]).
          const auto z1 = z_.col(0).head(n_), z2 = z_.col(1).head(n_), z3 = z_.col(2).head(n_);
          auto q1 = cont_.col(1).head(n_), q2 = cont_.col(2).head(n_), q3 = cont_.col(3).head(n_);
          q1 = (z2 - z3) / kC2m1;
          rhs_.head(n_) = (z1 - z2) / kC1mC2;                // ak
          err_.head(n_) = (rhs_.head(n_) - z1 / kC1) / kC2;  // acont3
          q2 = (rhs_.head(n_) - q1) / kC1m1;
          q3 = q2 - err_.head(n_);
          cont_.col(4).head(n_) = x0;
          cont_.col(0).head(n_) = x1;
          f0_.head(n_) = work_vec_.head(n_);
          x_.head(n_) = x1;
          t0_ = t_;
          t_ = t1;
          h_old_ = h;
          eval_fresh_ = true;
          first_ = false;
          jac_current_ = false;
          need_jac_ = theta_ > kJacobianReuse;
          ++stats_.accepted_steps;
          double h_new = std::min(h / quot, options_.h_max);
          if (last_rejected_) h_new = std::min(h_new, h);
          last_rejected_ = false;
          const double qt = h_new / h;
          if (!need_jac_ && qt >= kKeepStepLow && qt <= kKeepStepHigh) h_new = h;  // keep LU
          // A step shortened to hit t_limit or a cap says nothing against the previous proposal.
          h_ = last ? std::max(h_new, h_) : h_new;
          return StepStatus::Accepted;
        }
        failed = true;
        h_factor = 0.5;
      } else {
        // Rejected by the error test.
        ++stats_.rejected_steps;
        if (++rejections >= options_.max_rejections) return StepStatus::TooManyRejections;
        last_rejected_ = true;
        h = first_ ? 0.1 * h : h / quot;
        if (!jac_current_) need_jac_ = true;
        continue;
      }
    }
    // Newton did not converge (slow, diverged) or an evaluation failed.
    ++stats_.rejected_steps;
    if (++rejections >= options_.max_rejections) return StepStatus::TooManyRejections;
    last_rejected_ = true;
    if (result != NewtonResult::Slow && !jac_current_) need_jac_ = true;
    h *= h_factor;
    if (failed && h < minimum_step(t_, options_)) {
      return eval_.nz() > 0 || eval_.flow().kind == FlowKind::ImplicitDae
                 ? StepStatus::NewtonFailure
                 : StepStatus::NonFiniteState;
    }
  }
}

void Radau5::interpolate(double t, VectorRef x) const {
  const double h = t_ - t0_;
  const double s = h > 0.0 ? (t - t_) / h : 0.0;
  if (s < -0.5) {
    // Anchored at the step's start: the same polynomial written as x0 + (s + 1) r(s), so its
    // rounding error vanishes at t0 as it does at t1 in the form below (a guard that leaves the
    // surface at t0 is not drowned in round-off of the step's whole range).
    const double r2 = s - 1.0 - kC2m1;
    const double r3 = s * s - (1.0 + kC2m1 + kC1m1) * s + (1.0 + kC2m1) * (1.0 + kC1m1);
    x = cont_.col(4).head(n_) + (s + 1.0) * (cont_.col(1).head(n_) + r2 * cont_.col(2).head(n_) +
                                             r3 * cont_.col(3).head(n_));
    return;
  }
  const double w1 = s, w2 = s * (s - kC2m1), w3 = w2 * (s - kC1m1);
  x = cont_.col(0).head(n_) + w1 * cont_.col(1).head(n_) + w2 * cont_.col(2).head(n_) +
      w3 * cont_.col(3).head(n_);
}

void Radau5::interpolate_derivative(double t, VectorRef xdot) const {
  const double h = t_ - t0_;
  if (!(h > 0.0)) {
    xdot = f0_.head(n_);
    return;
  }
  const double s = (t - t_) / h;
  const double w2 = s * (s - kC2m1);
  const double dw2 = 2.0 * s - kC2m1;
  const double dw3 = dw2 * (s - kC1m1) + w2;
  xdot = (cont_.col(1).head(n_) + dw2 * cont_.col(2).head(n_) + dw3 * cont_.col(3).head(n_)) / h;
}

namespace {

// p := p (u + k), p of degree < n (coefficients of u^0 .. u^(n-1), p[n] is written).
void times_linear(Interval* p, int n, const Interval& k) {
  p[n] = p[n - 1];
  for (int j = n - 1; j >= 1; --j) p[j] = p[j - 1] + k * p[j];
  p[0] = k * p[0];
}

}  // namespace

// The collocation polynomial in u = s + 1 in both forms interpolate() evaluates (anchored at
// the step's start on its first half, at its end on the second): each coefficient encloses
// both forms' (they differ by the round-off of the collocation).
int Radau5::dense_polynomial(int i, Interval* c) const {
  const Interval c0(cont_(i, 0)), c1(cont_(i, 1)), c2(cont_(i, 2)), c3(cont_(i, 3));
  c[0] = Interval(cont_(i, 0));
  if (!(t_ - t0_ > 0.0)) return 1;
  const Interval one(1.0);
  // At the end: c0 + s c1 + s (s - C2m1) c2 + s (s - C2m1) (s - C1m1) c3, s = u - 1.
  Interval w1[2] = {-one, one};
  Interval w2[3] = {-one, one};
  times_linear(w2, 2, -(one + Interval(kC2m1)));
  Interval w3[4] = {w2[0], w2[1], w2[2]};
  times_linear(w3, 3, -(one + Interval(kC1m1)));
  Interval end[4] = {c0 + w1[0] * c1 + w2[0] * c2 + w3[0] * c3,
                     w1[1] * c1 + w2[1] * c2 + w3[1] * c3, w2[2] * c2 + w3[2] * c3, w3[3] * c3};
  // At the start: x0 + u (c1 + (s - 1 - C2m1) c2 + (s^2 - A s + B) c3), A = 1 + C2m1 + C1m1 and
  // B = (1 + C2m1)(1 + C1m1) the doubles interpolate() computes; in u: s - 1 - C2m1 =
  // u - (2 + C2m1), s^2 - A s + B = u^2 - (2 + A) u + (1 + A + B).
  const double A = 1.0 + kC2m1 + kC1m1, B = (1.0 + kC2m1) * (1.0 + kC1m1);
  const Interval r2_0 = -(Interval(2.0) + Interval(kC2m1));
  const Interval r3_1 = -(Interval(2.0) + Interval(A)), r3_0 = one + Interval(A) + Interval(B);
  Interval start[4] = {Interval(cont_(i, 4)), c1 + r2_0 * c2 + r3_0 * c3, c2 + r3_1 * c3, c3};
  for (int k = 0; k < 4; ++k) c[k] = hull(end[k], start[k]);
  return 4;
}

}  // namespace saltus::ode
