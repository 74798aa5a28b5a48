// The one mechanism of the fast paths in doubles: a plain function and the context it reads.
// Integrators, event location and projections call these without the std::function and
// Eigen::Ref layers between them and compiled code (a model file's flow or guard costs a few
// hundred instructions, about what those layers cost): a flow's DirectRhs, a guard's
// DirectGuardValue, a mode's DirectGuardSet (core/flow.hpp, core/guard.hpp), and the plain
// entries a model file gives its mech models (mech/nonholonomic_model.hpp). Each must compute the
// same bits as the general entry it stands beside (tests compare them).
#pragma once

#include <cstddef>
#include <memory>

namespace saltus {

template <class Signature>
struct PlainFunction;

template <class R, class... Args>
struct PlainFunction<R(Args...)> {
  using Fast = R (*)(const void* context, Args...);
  Fast fast = nullptr;
  std::shared_ptr<const void> context;  // what `fast` reads; kept alive with the entry

  R call(Args... args) const { return fast(context.get(), args...); }
  explicit operator bool() const { return fast != nullptr; }
  friend bool operator==(const PlainFunction& f, std::nullptr_t) { return f.fast == nullptr; }
  friend bool operator!=(const PlainFunction& f, std::nullptr_t) { return f.fast != nullptr; }
};

}  // namespace saltus
