// What happens when a guard fires: one callable computes the whole jump (DESIGN.md, "one
// callable per reset"): the mode to continue in, x+ = phi(t, x-, z-), the named outputs of the
// jump (impulses, energy change), or the reason no post-event state exists. An impact law is
// thus solved once per event, and its failure (no solution, a jam, Painleve) travels to the
// simulator as a status with the law's own message instead of a NaN or an exception.
//
// After the reset the simulator solves g_target(t, x+, z+) = 0 for z+ (consistent
// re-initialisation, seed 004).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "saltus/core/autodiff.hpp"
#include "saltus/core/types.hpp"

namespace saltus {

// What a reset writes. The simulator presets `target` to Reset::target and sizes `x_plus` for
// the largest mode (only the target's nx entries are read) and `outputs` to output_names.
struct Jump {
  ModeId target;
  VectorRef x_plus;
  VectorRef outputs;
  std::string& failure;   // why there is no post-event state (write it, then return false)
  const int* nx_of_mode;  // state size of each mode of the system
  // The run's scale of each component of x- (the largest |x_i| seen in the run so far), or
  // nullptr outside a simulation: tolerances of the jump are fractions of these, weighed by
  // the sensitivity of the quantity compared (docs/ARCHITECTURE.md "Tolerances").
  const double* state_scales = nullptr;
  // Each component's absolute tolerance (the least the run resolves it to), or nullptr outside a
  // simulation: where a component has never moved, a level set from state_scales would be 0.
  const double* state_atol = nullptr;
  // Why there is no post-event state, as a code of the layer that built the reset
  // (mech::ContactStop for mechanical models), 0 when it gives none. The simulator reports it
  // (SimulationSummary::reset_cause); the layers above decide on it, never on `failure`'s text,
  // which carries user-chosen names.
  int cause = 0;
  // A text for the event's row in the log (events.csv `note`): what the reset did that its
  // outputs do not say (a simultaneous impact's impulse per contact). nullptr where no log
  // keeps it; the reset writes it only when set.
  std::string* note = nullptr;
  auto state_after() { return x_plus.head(nx_of_mode[target]); }  // x+ in the target mode
};

struct Reset {
  // x+ = map(t, x-, z-).
  using Map = std::function<void(double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                                 VectorRef x_plus)>;
  // The target mode chosen from the pre-reset state.
  using Chooser = std::function<ModeId(double t, ConstVectorRef x_minus, ConstVectorRef z_minus)>;
  // outputs(t, x-, z-, x+, values) writes output_names.size() values.
  using Outputs = std::function<void(double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                                     ConstVectorRef x_plus, VectorRef values)>;
  // The whole jump; false (with jump.failure set) when no post-event state exists. Must not
  // allocate on success (it runs at every event).
  using Apply =
      std::function<bool(double t, ConstVectorRef x_minus, ConstVectorRef z_minus, Jump& jump)>;
  // Derivatives of the map into the target: dx+/dx- (nx+ by nx-), dx+/dz- (nx+ by nz-) and
  // dx+/dt (nx+), sized by the caller. Read by the analysis layer (saltation matrices) only,
  // never at events, so it may allocate.
  using Jacobian = std::function<void(double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                                      MatrixRef d_dx, MatrixRef d_dz, VectorRef d_dt)>;

  ModeId target = kNoMode;      // the target (when the apply may choose another: a default)
  bool chooses_target = false;  // apply may continue in a mode other than `target`
  bool identity = true;         // x+ = x- (no map): target and source must have the same nx
  Apply apply;                  // empty: identity into `target`
  std::vector<std::string> output_names;  // names of Jump::outputs; empty: no outputs
  // Optional; empty on a non-identity reset: analysis differentiates `apply` numerically.
  Jacobian jacobian;
  // Optional, for a reset that chooses its target from decisions a perturbed state would take
  // otherwise (friction in space: which contacts are at rest): the derivative of its map with
  // the decisions it took held, read from the target and the state x+ it produced there. Used
  // before `jacobian`. May throw saltus::Error: no derivative there, with the reason.
  using ChosenJacobian =
      std::function<void(ModeId target, double t, ConstVectorRef x_minus, ConstVectorRef z_minus,
                         ConstVectorRef x_plus, MatrixRef d_dx, MatrixRef d_dz, VectorRef d_dt)>;
  ChosenJacobian chosen_jacobian;

  // Continue in `target` after x+ = map(t, x-, z-) (empty map: identity).
  static Reset to(ModeId target, Map map = {}) {
    Reset r;
    r.target = target;
    r.identity = !map;
    if (map) {
      r.apply = [map = std::move(map)](double t, ConstVectorRef x, ConstVectorRef z, Jump& j) {
        map(t, x, z, j.state_after());
        return true;
      };
    }
    return r;
  }
  // Continue in `target` after x+ = map(t, x-, z-), with `map(t, x, z, xp)` generic in its scalar
  // type (auto parameters, writing every entry of xp): its Jacobian is derived by AD.
  template <class M>
  static Reset to_ad(ModeId target, M map) {
    Reset r;
    r.target = target;
    r.identity = false;
    r.apply = [map](double t, ConstVectorRef x, ConstVectorRef z, Jump& j) {
      VectorRef xp = j.state_after();
      map(t, x, z, xp);
      return true;
    };
    r.jacobian = [map](double t, ConstVectorRef x, ConstVectorRef z, MatrixRef d_dx, MatrixRef d_dz,
                       VectorRef d_dt) {
      using DualX = Eigen::Matrix<Dual, Eigen::Dynamic, 1>;
      DualX xd = x.cast<Dual>(), zd = z.cast<Dual>(), out(d_dx.rows());
      // One forward pass per seeded input: column k of d_dx, of d_dz, then d_dt.
      const auto pass = [&](const Dual& td, auto&& store) {
        out.setConstant(Dual(0.0));
        map(td, xd, zd, out);
        for (Eigen::Index i = 0; i < out.size(); ++i) store(i, out[i].derivative());
      };
      for (Eigen::Index k = 0; k < x.size(); ++k) {
        xd[k].v[0] = 1.0;
        pass(Dual(t), [&](Eigen::Index i, double v) { d_dx(i, k) = v; });
        xd[k].v[0] = 0.0;
      }
      for (Eigen::Index k = 0; k < z.size(); ++k) {
        zd[k].v[0] = 1.0;
        pass(Dual(t), [&](Eigen::Index i, double v) { d_dz(i, k) = v; });
        zd[k].v[0] = 0.0;
      }
      pass(Dual(t, 1.0), [&](Eigen::Index i, double v) { d_dt[i] = v; });
    };
    return r;
  }
  // Continue in the mode `choose(t, x-, z-)` after x+ = map(t, x-, z-).
  static Reset chosen(Chooser choose, Map map = {}) {
    Reset r;
    r.chooses_target = true;
    r.identity = !map;
    r.apply = [choose = std::move(choose), map = std::move(map)](double t, ConstVectorRef x,
                                                                 ConstVectorRef z, Jump& j) {
      j.target = choose(t, x, z);
      if (map) {
        map(t, x, z, j.state_after());
      } else {
        j.x_plus.head(x.size()) = x;
      }
      return true;
    };
    return r;
  }
  // The whole jump written by hand (an impact law that can fail, a target chosen with x+).
  static Reset custom(ModeId default_target, bool chooses_target, Apply apply) {
    Reset r;
    r.target = default_target;
    r.chooses_target = chooses_target;
    r.identity = false;
    r.apply = std::move(apply);
    return r;
  }
  // Adds named outputs computed from (t, x-, z-, x+) after the jump.
  Reset& with_outputs(std::vector<std::string> names, Outputs outputs) {
    output_names = std::move(names);
    Apply jump = apply;
    apply = [jump = std::move(jump), outputs = std::move(outputs)](double t, ConstVectorRef x,
                                                                   ConstVectorRef z, Jump& j) {
      if (jump) {
        if (!jump(t, x, z, j)) return false;
      } else {
        j.x_plus.head(x.size()) = x;
      }
      outputs(t, x, z, j.state_after(), j.outputs);
      return true;
    };
    if (identity && !jacobian) {  // x+ = x- still: keep its derivative exact
      jacobian = [](double, ConstVectorRef, ConstVectorRef, MatrixRef d_dx, MatrixRef d_dz,
                    VectorRef d_dt) {
        d_dx.setIdentity();
        d_dz.setZero();
        d_dt.setZero();
      };
    }
    identity = false;
    return *this;
  }
};

}  // namespace saltus
