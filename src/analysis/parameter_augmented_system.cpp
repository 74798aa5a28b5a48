#include "saltus/analysis/parameter_augmented_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "saltus/core/error.hpp"

namespace saltus::analysis {
namespace {

using Family = std::shared_ptr<const ParameterFamily>;

int parameter_count(const ParameterFamily& f) {
  return static_cast<int>(f.values.size());
}

// The system whose parameters are `p`: the nominal one at p0, system k+- at p0 +- h_k e_k.
const HybridSystem& system_at(const ParameterFamily& f, ConstVectorRef p) {
  int moved = -1;
  for (int k = 0; k < parameter_count(f); ++k) {
    if (p[k] == f.values[k]) continue;
    if (moved >= 0) moved = -2;
    if (moved == -1) moved = k;
  }
  if (moved == -1) return f.nominal;
  if (moved >= 0) {
    const double v = f.values[moved], h = f.steps[moved];
    if (p[moved] == v + h) return f.plus[static_cast<size_t>(moved)];
    if (p[moved] == v - h) return f.minus[static_cast<size_t>(moved)];
  }
  saltus::detail::throw_error(
      "parameter-augmented system evaluated at parameters it was not built for (only p0 and "
      "p0 +- h_k e_k): a derivative in p other than the central differences of its own steps");
}

// The system whose parameters lie in the enclosures p of the parameter states over a step
// (they are constant, so their dense output is p0 or p0 +- h_k e_k within round-off, far less
// than h_k); null if none does.
const HybridSystem* system_enclosed(const ParameterFamily& f, const IntervalJet* p) {
  const int np = parameter_count(f);
  const auto holds = [&](int moved, double step) {
    for (int k = 0; k < np; ++k) {
      if (!p[k].v.contains(f.values[k] + (k == moved ? step : 0.0))) return false;
    }
    return true;
  };
  if (holds(-1, 0.0)) return &f.nominal;
  for (int k = 0; k < np; ++k) {
    if (holds(k, f.steps[k])) return &f.plus[static_cast<size_t>(k)];
    if (holds(k, -f.steps[k])) return &f.minus[static_cast<size_t>(k)];
  }
  return nullptr;
}

// Central difference in parameter k of out = fn(system) (fn writes into its argument).
template <class Fn>
void parameter_column(const ParameterFamily& f, int k, Eigen::Index rows, const Fn& fn,
                      MatrixRef column_of, Eigen::Index column) {
  Vector up(rows), down(rows);
  fn(f.plus[static_cast<size_t>(k)], up);
  fn(f.minus[static_cast<size_t>(k)], down);
  column_of.col(column) = (up - down) / (2.0 * f.steps[k]);
}

Flow augmented_flow(const Family& f, ModeId m) {
  const Flow& inner = f->nominal.mode(m).flow;
  if (inner.kind != FlowKind::Ode) {
    saltus::detail::throw_error("mode '", f->nominal.mode(m).name,
                                "' has algebraic states: parameter sensitivities of a rebuilt "
                                "model take ODE modes only");
  }
  const int nx = inner.nx, np = parameter_count(*f);
  Flow flow;
  flow.kind = FlowKind::Ode;
  flow.nx = nx + np;
  flow.rhs = [f, m, nx, np](double t, ConstVectorRef x, ConstVectorRef z, VectorRef xdot) {
    system_at(*f, x.tail(np)).mode(m).flow.rhs(t, x.head(nx), z, xdot.head(nx));
    xdot.tail(np).setZero();
  };
  flow.rhs_jacobian = [f, m, nx, np](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef dfdx,
                                     MatrixRef dfdz) {
    dfdx.setZero();
    dfdz.setZero();
    system_at(*f, x.tail(np))
        .mode(m)
        .flow.rhs_jacobian(t, x.head(nx), z, dfdx.topLeftCorner(nx, nx), dfdz.topRows(nx));
    for (int k = 0; k < np; ++k) {
      const auto rhs = [&](const HybridSystem& s, Vector& out) {
        s.mode(m).flow.rhs(t, x.head(nx), z, out);
      };
      parameter_column(*f, k, nx, rhs, dfdx.topRows(nx), nx + k);
    }
  };
  return flow;
}

Guard augmented_guard(const Family& f, ModeId m, GuardId g, const std::vector<int>& inner_nx) {
  const Guard& inner = f->nominal.mode(m).guards[static_cast<size_t>(g)];
  const int nx = f->nominal.mode(m).flow.nx, np = parameter_count(*f);
  const auto at = [f, m, g, np](ConstVectorRef x) -> const Guard& {
    return system_at(*f, x.tail(np)).mode(m).guards[static_cast<size_t>(g)];
  };
  Guard out;
  out.name = inner.name;
  out.direction = inner.direction;
  out.terminal = inner.terminal;
  out.observe_only = inner.observe_only;
  out.value = [at, nx](double t, ConstVectorRef x, ConstVectorRef z) {
    return at(x).value(t, x.head(nx), z);
  };
  out.when_text = inner.when_text;
  if (inner.when) {  // the jump set follows the parameters as the value does
    out.when = [at, nx](double t, ConstVectorRef x, ConstVectorRef z) {
      return at(x).when(t, x.head(nx), z);
    };
  }
  out.period = inner.period;
  out.period_origin = inner.period_origin;
  out.scale_offset = inner.scale_offset;
  out.steps_land_on_crossing = inner.steps_land_on_crossing;
  if (!inner.reads_states.empty()) {  // and the parameters, which choose the system
    out.reads_states = inner.reads_states;
    for (int k = 0; k < np; ++k) out.reads_states.push_back(nx + k);
  }
  if (inner.enclosure) {
    out.enclosure = [f, m, g, nx](const IntervalJet& t, const IntervalJet* x, int) {
      const HybridSystem* s = system_enclosed(*f, x + nx);
      if (s == nullptr) return IntervalJet(Interval::nan(), Interval::nan());
      return s->mode(m).guards[static_cast<size_t>(g)].enclosure(t, x, nx);
    };
  }
  // Without a gradient the analysis differences `value`, which follows p: still right.
  if (inner.gradient) {
    out.gradient = [f, at, m, g, nx, np](double t, ConstVectorRef x, ConstVectorRef z,
                                         VectorRef dpdx, VectorRef dpdz) {
      const double dpdt = at(x).gradient(t, x.head(nx), z, dpdx.head(nx), dpdz);
      for (int k = 0; k < np; ++k) {
        const auto value = [&](const HybridSystem& s) {
          return s.mode(m).guards[static_cast<size_t>(g)].value(t, x.head(nx), z);
        };
        dpdx[nx + k] =
            (value(f->plus[static_cast<size_t>(k)]) - value(f->minus[static_cast<size_t>(k)])) /
            (2.0 * f->steps[k]);
      }
      return dpdt;
    };
  }
  if (inner.rate) {
    out.rate = [at, nx](double t, ConstVectorRef x, ConstVectorRef z, ConstVectorRef xdot,
                        ConstVectorRef zdot) {
      return at(x).rate(t, x.head(nx), z, xdot.head(nx), zdot);  // p' = 0
    };
  }
  const Reset& r = inner.reset;
  out.reset.target = r.target;
  out.reset.chooses_target = r.chooses_target;
  out.reset.identity = r.identity;
  out.reset.output_names = r.output_names;
  if (!r.apply) return out;  // identity: the simulator copies x_a, p included
  const auto reset_at = [at](ConstVectorRef x) -> const Reset& { return at(x).reset; };
  out.reset.apply = [reset_at, inner_nx, nx, np](double t, ConstVectorRef x, ConstVectorRef z,
                                                 Jump& jump) {
    // The run's scales and tolerances of the inner state (the first entries of the augmented
    // one), so that the inner reset decides as in a run without the parameters.
    Jump inner_jump{jump.target,     jump.x_plus,       jump.outputs,   jump.failure,
                    inner_nx.data(), jump.state_scales, jump.state_atol};
    if (!reset_at(x).apply(t, x.head(nx), z, inner_jump)) {
      jump.cause = inner_jump.cause;
      return false;
    }
    jump.target = inner_jump.target;
    jump.x_plus.segment(inner_nx[static_cast<size_t>(jump.target)], np) = x.tail(np);
    return true;
  };
  // Without a Jacobian (an impact law) the analysis differences `apply` when allowed, which
  // follows p: its columns in p are then the same central differences as below.
  if (!r.jacobian) return out;
  const Reset::Apply apply = out.reset.apply;
  const ModeId default_target = r.target;
  const Eigen::Index n_outputs = static_cast<Eigen::Index>(r.output_names.size());
  int max_nx = 0;
  for (int n : inner_nx) max_nx = std::max(max_nx, n);
  out.reset.jacobian = [f, reset_at, apply, inner_nx, default_target, n_outputs, max_nx, nx, np](
                           double t, ConstVectorRef x, ConstVectorRef z, MatrixRef d_dx,
                           MatrixRef d_dz, VectorRef d_dt) {
    const Eigen::Index n_plus = d_dx.rows() - np;
    d_dx.setZero();
    d_dz.setZero();
    d_dt.setZero();
    reset_at(x).jacobian(t, x.head(nx), z, d_dx.topLeftCorner(n_plus, nx), d_dz.topRows(n_plus),
                         d_dt.head(n_plus));
    d_dx.bottomRightCorner(np, np).setIdentity();
    Vector buffer(max_nx + np), outputs(n_outputs), xs = x;
    std::string failure;
    // x+ with parameter k at `p`; its target (the nominal one for every k).
    const auto apply_at = [&](int k, double p, Vector& x_plus) {
      xs[nx + k] = p;
      Jump jump{default_target, buffer, outputs, failure, inner_nx.data()};
      if (!apply(t, xs, z, jump)) {
        saltus::detail::throw_error("the reset at t = ", t, " has no post-event state at ",
                                    f->names[static_cast<size_t>(k)], " = ", p, ": ", failure);
      }
      xs[nx + k] = f->values[k];
      x_plus = buffer.head(n_plus);
      return jump.target;
    };
    Vector up, down;
    for (int k = 0; k < np; ++k) {
      const ModeId nominal = apply_at(k, f->values[k], up);
      if (apply_at(k, f->values[k] + f->steps[k], up) != nominal ||
          apply_at(k, f->values[k] - f->steps[k], down) != nominal) {
        saltus::detail::throw_error("the reset at t = ", t, " continues in another mode when ",
                                    f->names[static_cast<size_t>(k)], " changes by ", f->steps[k],
                                    ": no derivative in that parameter there");
      }
      d_dx.block(0, nx + k, n_plus, 1) = (up - down) / (2.0 * f->steps[k]);
    }
  };
  return out;
}

void check_same_shape(const ParameterFamily& f, const HybridSystem& s, const std::string& name) {
  const auto refuse = [&name](const std::string& what) {
    saltus::detail::throw_error("parameter '", name, "' changes ", what,
                                " of the system; its sensitivity is not defined there");
  };
  if (s.mode_count() != f.nominal.mode_count()) refuse("the number of modes");
  for (ModeId m = 0; m < s.mode_count(); ++m) {
    const Mode &a = f.nominal.mode(m), &b = s.mode(m);
    if (a.name != b.name || a.flow.nx != b.flow.nx || a.flow.nz != b.flow.nz) {
      refuse("mode '" + a.name + "'");
    }
    if (a.guards.size() != b.guards.size()) refuse("the guards of mode '" + a.name + "'");
    for (size_t g = 0; g < a.guards.size(); ++g) {
      if (a.guards[g].name != b.guards[g].name) refuse("guard '" + a.guards[g].name + "'");
    }
  }
}

}  // namespace

double parameter_step(double value) {
  return std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::abs(value));
}

HybridSystem parameter_augmented_system(std::shared_ptr<const ParameterFamily> family) {
  const ParameterFamily& f = *family;
  for (int k = 0; k < parameter_count(f); ++k) {
    check_same_shape(f, f.plus[static_cast<size_t>(k)], f.names[static_cast<size_t>(k)]);
    check_same_shape(f, f.minus[static_cast<size_t>(k)], f.names[static_cast<size_t>(k)]);
  }
  const int np = parameter_count(f);
  std::vector<int> inner_nx;
  for (const Mode& m : f.nominal.modes()) inner_nx.push_back(m.flow.nx);
  HybridSystem out;
  for (ModeId m = 0; m < f.nominal.mode_count(); ++m) {
    out.add_mode(f.nominal.mode(m).name, augmented_flow(family, m));
  }
  for (ModeId m = 0; m < f.nominal.mode_count(); ++m) {
    const Mode& mode = f.nominal.mode(m);
    const int nx = mode.flow.nx;
    const auto at = [family, m, np](ConstVectorRef x) -> const Mode& {
      return system_at(*family, x.tail(np)).mode(m);
    };
    for (GuardId g = 0; g < static_cast<GuardId>(mode.guards.size()); ++g) {
      out.add_guard(m, augmented_guard(family, m, g, inner_nx));
    }
    if (mode.zeno_handover) {
      ZenoHandover handover;
      handover.target = mode.zeno_handover->target;
      const int nx_target = inner_nx[static_cast<size_t>(handover.target)];
      if (mode.zeno_handover->apply) {
        // The scales of the augmented state begin with those of x.
        handover.apply = [at, nx, nx_target, np](double t, ConstVectorRef x, ConstVectorRef z,
                                                 const double* scales, VectorRef x_plus,
                                                 std::string& failure) {
          x_plus.segment(nx_target, np) = x.tail(np);
          return at(x).zeno_handover->apply(t, x.head(nx), z, scales, x_plus.head(nx_target),
                                            failure);
        };
      } else if (mode.zeno_handover->map) {
        handover.map = [at, nx, nx_target, np](double t, ConstVectorRef x, ConstVectorRef z,
                                               VectorRef x_plus) {
          at(x).zeno_handover->map(t, x.head(nx), z, x_plus.head(nx_target));
          x_plus.segment(nx_target, np) = x.tail(np);
        };
      }
      out.set_zeno_handover(m, std::move(handover));
    }
    if (mode.projection) {
      InvariantProjection projection;
      projection.count = mode.projection->count;
      projection.values = [at, nx](ConstVectorRef x, VectorRef values) {
        at(x).projection->values(x.head(nx), values);
      };
      projection.project = [at, nx](ConstVectorRef target, VectorRef x) {
        VectorRef q = x.head(nx);
        return at(x).projection->project(target, q);
      };
      out.set_projection(m, std::move(projection));
    }
  }
  out.validate();
  return out;
}

}  // namespace saltus::analysis
