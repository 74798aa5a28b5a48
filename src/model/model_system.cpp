// A model file's modes, guards, resets, sections and watched discontinuities as a HybridSystem
// (model_system.hpp). About 500 lines: the tapes of one mode (flow, Jacobians, guards and their
// resets) are compiled together, and the observers added to every builder's system
// (add_sections, add_discontinuities) share its value_tape; conditions (condition_tape.hpp) are
// the next piece to move out.
#include "saltus/model/model_system.hpp"

#include "condition_tape.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include "saltus/core/error.hpp"
#include "saltus/lang/tape.hpp"
#include "saltus/lang/tape_enclosure.hpp"
#include "saltus/model/mechanical_system.hpp"

namespace saltus::model {

namespace detail {

// The operands of the comparisons in condition `root` (a comparison, or products, min or max of
// conditions: the loader's is_condition_node).
void condition_operands(const lang::ExpressionGraph& g, lang::NodeId root,
                        std::vector<lang::NodeId>& out) {
  const lang::ExpressionNode& n = g.node(root);
  if (lang::is_comparison(n.op)) {
    out.insert(out.end(), {n.a, n.b});
  } else if (n.op == lang::OpCode::Mul || n.op == lang::OpCode::Min || n.op == lang::OpCode::Max) {
    condition_operands(g, n.a, out);
    condition_operands(g, n.b, out);
  }
}

lang::Tape condition_tape(const lang::ExpressionGraph& g, lang::NodeId when) {
  std::vector<lang::NodeId> nodes{when};
  condition_operands(g, when, nodes);
  std::vector<lang::TapeOutput> out;
  for (size_t i = 0; i < nodes.size(); ++i) out.push_back({nodes[i], static_cast<std::int32_t>(i)});
  return lang::compile_tape(g, out);
}

// c(t, x, z) of a jump set: 1 or 0, NaN when an operand of its comparisons is NaN.
double evaluate_condition(const lang::Tape& tape, double t, const ConstVectorRef& x,
                          const ConstVectorRef& z) {
  double value = 0.0;
  bool nan = false;
  lang::run(tape, t, x, x, z, [&](int k, double v) {
    if (k == 0) value = v;
    nan = nan || std::isnan(v);
  });
  return nan ? kNaN : value;
}

}  // namespace detail

namespace {

using detail::condition_tape;
using detail::evaluate_condition;

// Slots of a Jacobian tape: the blocks d out / d in_k in order, each column-major (rows = the
// outputs). `blocks` holds the variables of each block.
using Block = std::vector<lang::Variable>;

std::vector<lang::Variable> variables(lang::OpCode kind, int n) {
  std::vector<lang::Variable> v;
  for (int i = 0; i < n; ++i) v.push_back({kind, i});
  return v;
}

lang::Tape value_tape(const lang::ExpressionGraph& g, const std::vector<lang::NodeId>& nodes) {
  std::vector<lang::TapeOutput> out;
  for (size_t i = 0; i < nodes.size(); ++i) out.push_back({nodes[i], static_cast<std::int32_t>(i)});
  return lang::compile_tape(g, out);
}

// Symbolic Jacobian of `nodes` with respect to each block's variables; only structurally
// non-zero entries get a slot (the caller zeroes the matrices first).
lang::Tape jacobian_tape(lang::ExpressionGraph& g, const std::vector<lang::NodeId>& nodes,
                         const std::vector<Block>& blocks) {
  std::vector<lang::TapeOutput> out;
  const auto rows = static_cast<std::int32_t>(nodes.size());
  std::int32_t base = 0;
  for (const Block& block : blocks) {
    for (size_t j = 0; j < block.size(); ++j) {
      for (std::int32_t i = 0; i < rows; ++i) {
        const lang::NodeId d = g.derivative(nodes[static_cast<size_t>(i)], block[j]);
        if (!g.is_zero(d)) out.push_back({d, base + static_cast<std::int32_t>(j) * rows + i});
      }
    }
    base += static_cast<std::int32_t>(block.size()) * rows;
  }
  lang::Tape t = lang::compile_tape(g, out);
  t.outputs = base;
  return t;
}

// Writes slot k of a Jacobian tape into the block it belongs to: `rows` outputs, block b has
// cols[b] columns (a caller may pass a block with no columns when it does not want it).
struct BlockSink {
  int rows;
  int cols[3];
  MatrixRef* blocks;
  void operator()(int k, double v) const {
    for (int b = 0;; ++b) {
      const int size = cols[b] * rows;
      if (k < size) {
        if (blocks[b].cols() > 0) blocks[b](k % rows, k / rows) = v;
        return;
      }
      k -= size;
    }
  }
};

// One target of a guard: its condition (empty tape: always), the reset tape (slot = the state
// assigned) and d(assigned values)/d(x, z, t), slots as in jacobian_tape (row i is state
// reset_states[i]).
struct CompiledTarget {
  int target = -1;
  bool conditional = false;
  lang::Tape when;
  lang::Tape reset;
  lang::Tape reset_jacobian;
  std::vector<int> reset_states;
};

struct CompiledGuard {
  lang::Tape value;
  // Its jump set: slot 0 the condition, then the operands of its comparisons (a NaN operand
  // makes the condition NaN, which the comparison alone would read as false). Empty: none.
  lang::Tape when;
  lang::Tape gradient;  // slots: dp/dx (nx), dp/dz (nz), dp/dt
  std::vector<CompiledTarget> targets;
  lang::Tape outputs;  // ModelGuard::outputs at the pre-event state
};

struct CompiledMode {
  int nx = 0, nz = 0;
  lang::Tape flow, flow_jacobian, constraints, constraints_jacobian, constraints_time;
  std::vector<CompiledGuard> guards;
  lang::Tape zeno_reset;
};

lang::Tape reset_tape(const lang::ExpressionGraph& g, const std::vector<Assignment>& reset) {
  std::vector<lang::TapeOutput> out;
  for (const Assignment& a : reset) out.push_back({a.value, a.state});
  return lang::compile_tape(g, out);
}

Reset::Map reset_map(std::shared_ptr<const CompiledMode> keep, const lang::Tape* tape) {
  if (tape->empty()) return {};
  return [keep = std::move(keep), tape](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                        VectorRef xp) {
    // The tape loads x before it stores anything: right-hand sides read the pre-reset state.
    xp = x;
    run(*tape, t, x, x, z, [&xp](int k, double v) { xp[k] = v; });
  };
}

// dx+/d(x-, z-, t) of a reset that assigns some states (the others keep their value).
Reset::Jacobian reset_jacobian(std::shared_ptr<const CompiledMode> keep, const CompiledTarget* c) {
  return [keep = std::move(keep), c](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                     MatrixRef d_dx, MatrixRef d_dz, VectorRef d_dt) {
    d_dx.setIdentity();
    d_dz.setZero();
    d_dt.setZero();
    for (int s : c->reset_states) d_dx.row(s).setZero();
    const int rows = static_cast<int>(c->reset_states.size());
    const int nx = static_cast<int>(x.size()), nz = static_cast<int>(z.size());
    run(c->reset_jacobian, t, x, x, z, [&](int k, double v) {
      const int row = c->reset_states[static_cast<size_t>(k % rows)], col = k / rows;
      if (col < nx) {
        d_dx(row, col) = v;
      } else if (col < nx + nz) {
        d_dz(row, col - nx) = v;
      } else {
        d_dt[row] = v;
      }
    });
  };
}

Flow make_flow(const std::shared_ptr<const CompiledMode>& m, FlowKind kind) {
  Flow flow;
  flow.kind = kind;
  flow.nx = m->nx;
  flow.nz = m->nz;
  const int nx = m->nx, nz = m->nz;
  if (kind == FlowKind::ImplicitDae) {
    flow.residual = [m](double t, const ConstVectorRef& x, const ConstVectorRef& xdot,
                        const ConstVectorRef& z, VectorRef res) {
      run(m->flow, t, x, xdot, z, [&res](int k, double v) { res[k] = v; });
    };
    flow.residual_jacobian = [m, nx, nz](double t, const ConstVectorRef& x,
                                         const ConstVectorRef& xdot, const ConstVectorRef& z,
                                         MatrixRef dFdx, MatrixRef dFdxdot, MatrixRef dFdz) {
      dFdx.setZero();
      dFdxdot.setZero();
      dFdz.setZero();
      MatrixRef blocks[] = {dFdx, dFdxdot, dFdz};
      run(m->flow_jacobian, t, x, xdot, z, BlockSink{nx, {nx, nx, nz}, blocks});
    };
  } else {
    flow.rhs = [m](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef xdot) {
      run(m->flow, t, x, x, z, [&xdot](int k, double v) { xdot[k] = v; });
    };
    flow.rhs_jacobian = [m, nx, nz](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                    MatrixRef dfdx, MatrixRef dfdz) {
      dfdx.setZero();
      dfdz.setZero();  // may have no columns: the caller wants d/dx only
      MatrixRef blocks[] = {dfdx, dfdz};
      run(m->flow_jacobian, t, x, x, z, BlockSink{nx, {nx, nz, 0}, blocks});
    };
  }
  if (kind != FlowKind::Ode) {
    flow.algebraic = [m](double t, const ConstVectorRef& x, const ConstVectorRef& z, VectorRef g) {
      run(m->constraints, t, x, x, z, [&g](int k, double v) { g[k] = v; });
    };
    flow.algebraic_jacobian = [m, nx, nz](double t, const ConstVectorRef& x,
                                          const ConstVectorRef& z, MatrixRef dgdx, MatrixRef dgdz) {
      dgdx.setZero();
      dgdz.setZero();
      MatrixRef blocks[] = {dgdx, dgdz};
      run(m->constraints_jacobian, t, x, x, z, BlockSink{nz, {nx, nz, 0}, blocks});
    };
    flow.algebraic_time_derivative = [m](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                         VectorRef dgdt) {
      run(m->constraints_time, t, x, x, z, [&dgdt](int k, double v) { dgdt[k] = v; });
    };
  }
  return flow;
}

// The first target whose condition holds at (t, x-, z-); nullptr when none does.
const CompiledTarget* chosen_target(const CompiledGuard& c, double t, const ConstVectorRef& x,
                                    const ConstVectorRef& z) {
  for (const CompiledTarget& target : c.targets) {
    if (!target.conditional || evaluate(target.when, t, x, x, z) != 0.0) return &target;
  }
  return nullptr;
}

std::string no_target_message(const std::vector<std::string>& conditions,
                              const std::vector<std::string>& state_names,
                              const ConstVectorRef& x) {
  std::ostringstream out;
  out.precision(17);
  out << "none of its targets' conditions holds (";
  for (size_t i = 0; i < conditions.size(); ++i) out << (i ? ", " : "") << conditions[i];
  out << ") at";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    out << (i ? ", " : " ") << state_names[static_cast<size_t>(i)] << " = " << x[i];
  }
  return out.str();
}

Reset model_reset(const std::shared_ptr<const CompiledMode>& m, const ModelGuard& g,
                  const CompiledGuard* c, const std::vector<std::string>& state_names) {
  const CompiledTarget& first = c->targets.front();
  if (!g.stop_message.empty()) {  // the state has left a flow set outside the jump set
    Reset r;
    r.target = first.target;
    r.chooses_target = true;
    r.identity = false;
    r.apply = [text = g.stop_message, state_names](double, const ConstVectorRef& x,
                                                   const ConstVectorRef&, Jump& j) {
      std::ostringstream out;
      out.precision(17);
      out << text << "; at";
      for (Eigen::Index i = 0; i < x.size(); ++i) {
        out << (i ? ", " : " ") << state_names[static_cast<size_t>(i)] << " = " << x[i];
      }
      j.failure = out.str();
      return false;
    };
    return r;
  }
  if (c->targets.size() == 1 && !first.conditional && g.outputs.empty()) {
    Reset r = Reset::to(first.target, reset_map(m, &first.reset));
    if (!first.reset.empty()) r.jacobian = reset_jacobian(m, &first);
    return r;
  }
  // State-chosen targets: one apply tries the conditions in order (all modes of an explicit
  // model share the states, so x+ has the source's size whichever target is taken).
  Reset r;
  r.target = first.target;
  r.chooses_target = true;
  r.identity = false;
  r.output_names = g.output_names;
  std::vector<std::string> conditions;
  for (const ModelTarget& target : g.targets) conditions.push_back(target.when_text);
  r.apply = [m, c, conditions, state_names](double t, const ConstVectorRef& x,
                                            const ConstVectorRef& z, Jump& j) {
    const CompiledTarget* target = chosen_target(*c, t, x, z);
    if (target == nullptr) {
      j.failure = no_target_message(conditions, state_names, x);
      return false;
    }
    j.target = target->target;
    run(c->outputs, t, x, x, z, [&j](int k, double v) { j.outputs[k] = v; });
    VectorRef xp = j.x_plus;
    xp.head(x.size()) = x;
    run(target->reset, t, x, x, z, [&xp](int k, double v) { xp[k] = v; });
    return true;
  };
  r.jacobian = [m, c](double t, const ConstVectorRef& x, const ConstVectorRef& z, MatrixRef d_dx,
                      MatrixRef d_dz, VectorRef d_dt) {
    const CompiledTarget* target = chosen_target(*c, t, x, z);
    if (target == nullptr) {
      saltus::detail::throw_error("reset Jacobian requested where no target's condition holds");
    }
    reset_jacobian(m, target)(t, x, z, d_dx, d_dz, d_dt);
  };
  return r;
}

Guard make_model_guard(const std::shared_ptr<const CompiledMode>& m, const ModelGuard& g,
                       const CompiledGuard* c, const std::vector<std::string>& state_names) {
  Guard guard;
  guard.name = g.name;
  guard.direction = g.direction;
  guard.terminal = g.terminal;
  guard.set_rule = g.set_rule;
  guard.exclusive_group = g.exclusive_group;
  guard.scale_offset = g.scale_offset;
  if (g.when != lang::kNoNode) {
    guard.when = [m, c](double t, const ConstVectorRef& x, const ConstVectorRef& z) {
      return evaluate_condition(c->when, t, x, z);
    };
    guard.when_text = g.when_text;
  }
  guard.value = [m, c](double t, const ConstVectorRef& x, const ConstVectorRef& z) {
    return evaluate(c->value, t, x, x, z);
  };
  const int nx = m->nx, nz = m->nz;
  guard.gradient = [m, c, nx, nz](double t, const ConstVectorRef& x, const ConstVectorRef& z,
                                  VectorRef dpdx, VectorRef dpdz) {
    dpdx.setZero();
    dpdz.setZero();
    double dpdt = 0.0;
    run(c->gradient, t, x, x, z, [&](int k, double v) {
      if (k < nx) {
        dpdx[k] = v;
      } else if (k < nx + nz) {
        dpdz[k - nx] = v;
      } else {
        dpdt = v;
      }
    });
    return dpdt;
  };
  // Its enclosure over a step (the certified event search); the tape lives as long as m.
  guard.enclosure = lang::tape_enclosure(std::shared_ptr<const lang::Tape>(m, &c->value));
  // The states its tape loads (event location then interpolates only those), unless it reads
  // algebraic states, which are solved from the whole of x.
  if (c->value.loads_z.empty()) {
    for (const lang::TapeLoad& l : c->value.loads_x) guard.reads_states.push_back(l.index);
  }
  guard.reset = model_reset(m, g, c, state_names);
  return guard;
}

}  // namespace

void add_sections(HybridSystem& system, const Model& model) {
  for (const ModelSection& s : model.sections) {
    auto tape = std::make_shared<const lang::Tape>(value_tape(*model.graph, {s.value}));
    for (ModeId m = 0; m < system.mode_count(); ++m) {
      Guard observer = make_observer(
          s.name, s.direction,
          [tape](const auto& t, const auto& x, const auto& z) { return evaluate(*tape, t, x, z); });
      observer.enclosure = lang::tape_enclosure(tape);
      if (s.period > 0.0) {  // stroboscopic: a time event, its instants scheduled
        observer.period = s.period;
        observer.period_origin = model.t_start;
      }
      system.add_guard(m, std::move(observer));
    }
  }
}

void add_discontinuities(HybridSystem& system, const Model& model) {
  const auto discontinuity = [&](const ModelDiscontinuity& d, const char* advice) {
    auto tape = std::make_shared<const lang::Tape>(value_tape(*model.graph, {d.h}));
    return Discontinuity{d.text, advice,
                         [tape](double t, const ConstVectorRef& x, const ConstVectorRef& z) {
                           return evaluate(*tape, t, x, z);
                         }};
  };
  if (model.mechanics) {
    for (const ModelDiscontinuity& d : model.mechanics->discontinuities) {
      const Discontinuity watched = discontinuity(
          d,
          "dry friction written as a force slides as a rigid contact with mu and a tangent "
          "([[contacts]], docs/MODEL_FORMAT.md)");
      for (ModeId m = 0; m < system.mode_count(); ++m) system.add_discontinuity(m, watched);
    }
    return;
  }
  for (size_t m = 0; m < model.modes.size() && m < static_cast<size_t>(system.mode_count()); ++m) {
    for (const ModelDiscontinuity& d : model.modes[m].discontinuities) {
      system.add_discontinuity(
          static_cast<ModeId>(m),
          discontinuity(d,
                        "[solver] switching = \"events\" (the default) locates the surface "
                        "and slides on it (docs/SWITCHING.md)"));
    }
  }
}

HybridSystem build_hybrid_system(std::shared_ptr<const Model> model) {
  if (model->mechanics) return build_mechanical_system(std::move(model)).system;
  // Derivatives are added to a copy of the model's graph (the Model stays immutable).
  lang::ExpressionGraph g = *model->graph;
  const int nx = static_cast<int>(model->states.size());
  std::vector<std::shared_ptr<CompiledMode>> compiled;
  for (const ModelMode& mode : model->modes) {
    auto c = std::make_shared<CompiledMode>();
    c->nx = nx;
    c->nz = static_cast<int>(mode.algebraic.size());
    const Block dx = variables(lang::OpCode::State, nx),
                dz = variables(lang::OpCode::Algebraic, c->nz);
    c->flow = value_tape(g, mode.flow);
    if (mode.kind == FlowKind::ImplicitDae) {
      c->flow_jacobian =
          jacobian_tape(g, mode.flow, {dx, variables(lang::OpCode::StateRate, nx), dz});
    } else {
      c->flow_jacobian = jacobian_tape(g, mode.flow, {dx, dz});
    }
    c->constraints = value_tape(g, mode.constraints);
    c->constraints_jacobian = jacobian_tape(g, mode.constraints, {dx, dz});
    std::vector<lang::NodeId> constraints_dt;
    for (lang::NodeId n : mode.constraints)
      constraints_dt.push_back(g.derivative(n, {lang::OpCode::Time, 0}));
    c->constraints_time = value_tape(g, constraints_dt);
    for (const ModelGuard& guard : mode.guards) {
      CompiledGuard cg;
      cg.value = value_tape(g, {guard.value});
      if (guard.when != lang::kNoNode) cg.when = condition_tape(g, guard.when);
      std::vector<lang::NodeId> gradient;
      for (const lang::Variable& v : dx) gradient.push_back(g.derivative(guard.value, v));
      for (const lang::Variable& v : dz) gradient.push_back(g.derivative(guard.value, v));
      gradient.push_back(g.derivative(guard.value, {lang::OpCode::Time, 0}));
      cg.gradient = value_tape(g, gradient);
      cg.outputs = value_tape(g, guard.outputs);
      for (const ModelTarget& target : guard.targets) {
        CompiledTarget ct;
        ct.target = target.target;
        ct.conditional = target.when != lang::kNoNode;
        if (ct.conditional) ct.when = value_tape(g, {target.when});
        ct.reset = reset_tape(g, target.reset);
        std::vector<lang::NodeId> assigned;
        for (const Assignment& a : target.reset) {
          assigned.push_back(a.value);
          ct.reset_states.push_back(a.state);
        }
        ct.reset_jacobian = jacobian_tape(g, assigned, {dx, dz, {{lang::OpCode::Time, 0}}});
        cg.targets.push_back(std::move(ct));
      }
      c->guards.push_back(std::move(cg));
    }
    if (mode.zeno) c->zeno_reset = reset_tape(g, mode.zeno->reset);
    compiled.push_back(std::move(c));
  }
  // The tapes evaluated at every step or event, compiled together once one of them is hot.
  std::vector<const lang::Tape*> hot;
  for (const auto& c : compiled) {
    hot.insert(hot.end(), {&c->flow, &c->constraints});
    for (const CompiledGuard& cg : c->guards) {
      hot.insert(hot.end(), {&cg.value, &cg.gradient, &cg.outputs});
      for (const CompiledTarget& ct : cg.targets) hot.push_back(&ct.reset);
    }
  }
  lang::compile_together(hot);
  std::vector<std::string> state_names;
  for (const Quantity& q : model->states) state_names.push_back(q.name);
  HybridSystem sys;
  for (size_t m = 0; m < model->modes.size(); ++m) {
    sys.add_mode(model->modes[m].name, make_flow(compiled[m], model->modes[m].kind));
  }
  for (size_t m = 0; m < model->modes.size(); ++m) {
    const ModelMode& mode = model->modes[m];
    const std::shared_ptr<const CompiledMode> c = compiled[m];
    const auto id = static_cast<ModeId>(m);
    for (size_t k = 0; k < mode.guards.size(); ++k) {
      sys.add_guard(id, make_model_guard(c, mode.guards[k], &c->guards[k], state_names));
    }
    if (mode.zeno) {
      ZenoHandover handover;
      handover.target = mode.zeno->target;
      handover.map = reset_map(c, &c->zeno_reset);
      sys.set_zeno_handover(id, std::move(handover));
    }
  }
  add_sections(sys, *model);
  add_discontinuities(sys, *model);
  return sys;
}

}  // namespace saltus::model
