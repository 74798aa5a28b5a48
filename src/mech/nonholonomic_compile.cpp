// NonholonomicModel::compile(): one mode whose flow is the Lagrange-d'Alembert equations with the
// multipliers eliminated (nonholonomic_dynamics.hpp), one guard per wall whose reset is the wall's
// impact map (nonholonomic_impact.hpp).
#include <cmath>
#include <string>
#include <utility>

#include "nonholonomic_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/nonholonomic_model.hpp"

namespace saltus::mech {

namespace detail {

struct CompiledNonholonomic {
  explicit CompiledNonholonomic(const NonholonomicModel& m) : model(m), n(m.dof()) {}
  NonholonomicModel model;
  int n;
};

}  // namespace detail

namespace {

using NonholonomicContext = std::shared_ptr<const detail::CompiledNonholonomic>;
using detail::load;

Flow constrained_flow(const NonholonomicContext& ctx) {
  Flow flow = ode_flow(2 * ctx->n, [ctx](const auto& t, const auto& x, auto& xdot) {
    using S = std::decay_t<decltype(x[0])>;
    const int n = ctx->n;
    if constexpr (std::is_same_v<S, double>) {
      // Doubles: the fused accelerations read q, qdot from x and write qddot into x' in place.
      if (const AccelerationFunction& fused = ctx->model.accelerations()) {
        double* qdd = xdot.data() + n;
        for (int i = 0; i < n; ++i) {
          xdot[i] = x[n + i];
          qdd[i] = 0.0;
        }
        if (fused(t, x.data(), x.data() + n, qdd)) return;
      }
    }
    const DofVector<S> q = load<S>(x, 0, n), qd = load<S>(x, n, n);
    for (int i = 0; i < n; ++i) xdot[i] = qd[i];
    if (const AccelerationFunction& fused = ctx->model.accelerations();
        fused && !std::is_same_v<S, double>) {
      DofVector<S> qdd = DofVector<S>::Constant(n, S(0.0));
      if (fused(S(t), q, qd, qdd)) {
        for (int i = 0; i < n; ++i) xdot[n + i] = qdd[i];
        return;
      }
    }
    detail::NonholonomicDynamicsT<S> d;
    detail::nonholonomic_dynamics(ctx->model, S(t), q, qd, d);
    for (int i = 0; i < n; ++i) xdot[n + i] = d.qdd[i];
  });
  if (const AccelerationFunction& fused = ctx->model.accelerations(); fused.fast()) {
    flow.rhs = DirectRhs{fused.fast(), std::move(flow.rhs)};
  }
  return flow;
}

// What a wall's guard value reads.
struct WallContext {
  WallContext(NonholonomicContext m, const NonholonomicWall* w) : model(std::move(m)), wall(w) {}
  NonholonomicContext model;
  const NonholonomicWall* wall;
};

// -h(q) from the state's first n entries (DirectGuardValue::Fast).
double wall_value(const void* context, double, const double* x, int, const double*, int) {
  const auto& c = *static_cast<const WallContext*>(context);
  return -c.wall->h(x, c.model->n);
}

// Every wall's guard value -h at once (DirectGuardSet, context: the CompiledNonholonomic).
void wall_guard_set(const void* context, double, const double* x, const double*, double* values) {
  const NonholonomicModel& m = static_cast<const detail::CompiledNonholonomic*>(context)->model;
  m.all_wall_gaps().call(x, values);
  for (int w = 0; w < m.wall_count(); ++w) values[w] = -values[w];
}

Guard wall_guard(const NonholonomicContext& ctx, ModeId mode, int w) {
  const NonholonomicModel& m = ctx->model;
  // One jump: the wall's map solved once, with the impulse's coefficients (qdot+ - qdot- =
  // epsilon grad h + lambda_a W^a), D and T+ - T- as outputs; a map without an answer (D = 0,
  // dependent constraints at q) fails the reset with its message.
  Reset reset =
      Reset::custom(mode, false, [ctx, w](double, ConstVectorRef x, ConstVectorRef, Jump& jump) {
        const int n = ctx->n, k = ctx->model.constraint_count();
        NonholonomicImpact imp;
        try {
          imp = ctx->model.impact(w, x.head(n), x.tail(n));
        } catch (const Error& e) {
          jump.failure = e.what();
          return false;
        }
        jump.x_plus.head(n) = x.head(n);
        jump.x_plus.segment(n, n) = imp.qdot_plus;
        jump.outputs[0] = imp.epsilon;
        for (int a = 0; a < k; ++a) jump.outputs[1 + a] = imp.lambda[a];
        jump.outputs[1 + k] = imp.denominator;
        jump.outputs[2 + k] = imp.energy_change;
        return true;
      });
  reset.output_names.push_back("epsilon");
  for (int a = 0; a < m.constraint_count(); ++a) {
    reset.output_names.push_back("lambda_" + m.constraint(a).name);
  }
  reset.output_names.push_back("denominator");
  reset.output_names.push_back("energy_change");
  // The compiled model is immutable and owned by ctx, which every callable below keeps alive.
  const NonholonomicWall* wall = &m.wall(w);
  Guard guard = make_guard(
      wall->name, Direction::Rising,
      [ctx, wall](const auto&, const auto& x, const auto&) {
        using S = std::decay_t<decltype(x[0])>;
        return S(-wall->h(load<S>(x, 0, ctx->n)));
      },
      std::move(reset));
  // Doubles (guard sampling, event location): h reads q in place from the state, called by the
  // event locator without the std::function layer.
  guard.value = DirectGuardValue{&wall_value, std::make_shared<const WallContext>(ctx, wall)};
  // h reads q only: event location interpolates half the state.
  for (int i = 0; i < ctx->n; ++i) guard.reads_states.push_back(i);
  if (wall->gradient) {
    // A compiled dh/dq replaces AD for the gradient and the rate (grazing checks, re-arming).
    guard.gradient = [ctx, wall](double, const ConstVectorRef& x, const ConstVectorRef&,
                                 VectorRef dpdx, VectorRef) {
      const int n = ctx->n;
      wall->gradient(x.data(), dpdx.data());
      for (int i = 0; i < n; ++i) dpdx[i] = -dpdx[i];
      for (int i = n; i < 2 * n; ++i) dpdx[i] = 0.0;
      return 0.0;
    };
    guard.rate = [ctx, wall](double, const ConstVectorRef& x, const ConstVectorRef&,
                             const ConstVectorRef& xdot, const ConstVectorRef&) {
      const int n = ctx->n;
      double dh[kMaxDof];
      wall->gradient(x.data(), dh);
      double rate = 0.0;
      for (int i = 0; i < n; ++i) rate -= dh[i] * xdot[i];
      return rate;
    };
  }
  return guard;
}

// 1/2 v^T M v. The projection's small products are plain loops: Eigen's product kernels for
// runtime-size matrices cost several times the arithmetic at these sizes (callgrind, sleigh).
double half_quadratic_form(const DofMatrix<double>& M, const DofVector<double>& v, int n) {
  double s = 0.0;
  for (int j = 0; j < n; ++j) {
    double column = 0.0;
    for (int i = 0; i < n; ++i) column += M(i, j) * v[i];
    s += v[j] * column;
  }
  return 0.5 * s;
}

// v = the M-orthogonal projection of x's qdot onto {eta(q) v = 0} and T = 1/2 v^T M v, by a
// numeric elimination; false where M is not SPD or the rows are dependent at q.
bool generic_velocity_projection(const NonholonomicModel& m, const ConstVectorRef& x,
                                 DofVector<double>& qd, double& T) {
  const int n = m.dof(), k = m.constraint_count();
  const DofVector<double> q = load<double>(x, 0, n);
  qd = load<double>(x, n, n);
  DofMatrix<double> M = DofMatrix<double>::Zero(n, n);
  m.unconstrained().eval_mass(q, M);
  if (k > 0) {
    detail::SpdFactor<double> chol;
    if (!chol.compute(M)) return false;
    DofMatrix<double> W(n, k), m_up(k, k);
    DofVector<double> row, col(n), violation(k);
    DofMatrix<double> eta(k, n);
    for (int a = 0; a < k; ++a) {
      m.constraint(a).row(q, row);
      eta.row(a) = row.transpose();
      col = row;
      chol.solve_in_place(col);
      W.col(a) = col;
      violation[a] = row.dot(qd);
    }
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += eta(a, i) * W(i, b);
        m_up(a, b) = s;
      }
    }
    detail::SpdFactor<double> G;
    if (!G.compute(m_up)) return false;
    G.solve_in_place(violation);  // the multipliers
    for (int i = 0; i < n; ++i) {
      for (int a = 0; a < k; ++a) qd[i] -= W(i, a) * violation[a];
    }
  }
  T = half_quadratic_form(M, qd, n);
  return true;
}

// The kinetic energy T kept by projection (CompileOptions::project_invariants): qdot is moved
// M-orthogonally onto the constraint distribution {eta(q) qdot = 0} (the constraints' values are
// 0 by definition, not read from the start) and scaled to T = target; q is left alone. The
// projection moves qdot by the integrator's local error only, so the scaling of the nearest
// admissible velocity is the kinetic-metric projection up to second order in that error.
InvariantProjection energy_projection(const NonholonomicContext& ctx) {
  InvariantProjection p;
  p.count = 1;
  p.values = [ctx](const ConstVectorRef& x, VectorRef c) {
    const int n = ctx->n;
    DofMatrix<double> M = DofMatrix<double>::Zero(n, n);
    ctx->model.unconstrained().eval_mass(load<double>(x, 0, n), M);
    c[0] = half_quadratic_form(M, load<double>(x, n, n), n);
  };
  p.project = [ctx](const ConstVectorRef& target, VectorRef x) {
    const NonholonomicModel& m = ctx->model;
    const int n = ctx->n;
    double T = 0.0;
    DofVector<double> qd(n);
    if (!m.fused_velocity_projection(x.data(), x.data() + n, qd.data(), &T) &&
        !generic_velocity_projection(m, x, qd, T)) {
      return false;
    }
    if (target[0] == 0.0) {
      qd.setZero();
    } else {
      if (!(T > 0.0) || !(target[0] > 0.0)) return false;
      qd *= std::sqrt(target[0] / T);
    }
    for (int i = 0; i < n; ++i) x[n + i] = qd[i];
    return true;
  };
  return p;
}

}  // namespace

NonholonomicModel::Compiled NonholonomicModel::compile() const {
  return compile(CompileOptions{});
}

NonholonomicModel::Compiled NonholonomicModel::compile(const CompileOptions& options) const {
  validate();
  const auto ctx = std::make_shared<detail::CompiledNonholonomic>(*this);
  Compiled out;
  out.context = ctx;
  out.mode = out.system.add_mode("constrained", constrained_flow(ctx));
  if (options.project_invariants) {
    out.system.set_projection(out.mode, energy_projection(ctx));
  }
  for (int w = 0; w < wall_count(); ++w)
    out.system.add_guard(out.mode, wall_guard(ctx, out.mode, w));
  if (all_wall_gaps_fit() && wall_count() > 0) {
    out.system.set_guard_set(out.mode, DirectGuardSet{&wall_guard_set, ctx});
  }
  return out;
}

const NonholonomicModel& NonholonomicModel::Compiled::model() const {
  if (!context) saltus::detail::throw_error("NonholonomicModel::Compiled: not compiled");
  return context->model;
}

ModeId NonholonomicModel::Compiled::initial_mode(ConstVectorRef x) const {
  const NonholonomicModel& m = model();
  const int n = m.dof();
  if (x.size() != 2 * n) {
    saltus::detail::throw_error("model '", m.name(), "': initial state has ", x.size(),
                                " entries, expected ", 2 * n, " (q, qdot)");
  }
  m.check_state(x.head(n), x.tail(n));
  return mode;
}

}  // namespace saltus::mech
