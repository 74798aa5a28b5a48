// A row eta(q) of a velocity-level function eta(q) qdot, kept for every scalar saltus evaluates it
// with: a nonholonomic constraint (nonholonomic_model.hpp), or the slip velocity of a spatial
// frictional contact along one tangent direction (lagrangian_model.hpp, LagrangianContact::slip).
// Also the capacity types every mechanical model shares (kMaxDof, DofVector, DofMatrix).
#pragma once

#include <Eigen/Core>
#include <functional>
#include <tuple>
#include <utility>

#include "saltus/core/autodiff.hpp"
#include "saltus/mech/second_order_jet.hpp"

namespace saltus::mech {

// Largest number of generalised coordinates (x = (q, qdot) must fit kMaxAutodiffSize).
inline constexpr int kMaxDof = 16;

template <class T>
using DofVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, kMaxDof, 1>;
template <class T>
using DofMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxDof>;

// A constraint row eta(q) (eta(q) qdot = 0), kept for every scalar saltus evaluates it with.
class ConstraintRow {
 public:
  template <class S>
  using Fn = std::function<void(const DofVector<S>&, DofVector<S>&)>;

  ConstraintRow() = default;
  template <class F>
  explicit ConstraintRow(F f)
      : fns_(wrap<double>(f), wrap<Dual>(f), wrap<ChunkDual>(f), wrap<SecondOrderJet>(f),
             wrap<DualSecondOrderJet>(f), wrap<ChunkSecondOrderJet>(f)) {}

  // row <- eta(q), resized to q.size() and zeroed first.
  template <class S>
  void operator()(const DofVector<S>& q, DofVector<S>& row) const {
    row.resize(q.size());
    for (Eigen::Index i = 0; i < q.size(); ++i) row[i] = S(0.0);
    std::get<Fn<S>>(fns_)(q, row);
  }
  explicit operator bool() const { return static_cast<bool>(std::get<0>(fns_)); }

 private:
  template <class S, class F>
  static Fn<S> wrap(F f) {
    return [f](const DofVector<S>& q, DofVector<S>& row) { f(q, row); };
  }
  std::tuple<Fn<double>, Fn<Dual>, Fn<ChunkDual>, Fn<SecondOrderJet>, Fn<DualSecondOrderJet>,
             Fn<ChunkSecondOrderJet>>
      fns_;
};

}  // namespace saltus::mech
