// A guard's value read from a mode's dynamics (internal to src/mech): of_dynamics(ctx, mode, read)
// is the generic callable (t, x, z) -> read(d), d the mode's DynamicsT at (t, x), evaluated in
// double and in every AD scalar a guard needs.
#pragma once

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"

namespace saltus::mech::detail {

template <class Read>
auto of_dynamics(const Context& ctx, const LagrangianMode& mode, Read read) {
  return [ctx, mode, read](const auto& t, const auto& x, const auto&) {
    using S = std::decay_t<decltype(x[0])>;
    const auto [q, qd] = split_state(x, ctx->n);
    DynamicsT<S> d;
    mode_dynamics(ctx->model, mode, S(t), q, qd, d);
    return S(read(d));
  };
}

}  // namespace saltus::mech::detail
