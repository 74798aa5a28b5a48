// The plain entries that C++ flows and guards get from their factories: ode_flow's rhs is a
// DirectRhs and make_guard's value a DirectGuardValue, so integrators and event location call
// them on arrays without std::function. They must compute what the callable computes through
// Eigen::Ref, bit for bit: seeded random states of nonlinear flows (element-wise and Eigen
// expressions) and guards (reading x, z and t).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "saltus/core/flow.hpp"
#include "saltus/core/guard.hpp"

namespace saltus {
namespace {

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// A flow written with element access and one with Eigen expressions (their vectorised kernels
// must give the same sums through a Map-backed Ref as through a block's Ref).
auto elementwise = [](const auto& t, const auto& x, auto& xdot) {
  using std::cos;
  using std::sin;
  xdot[0] = x[1];
  xdot[1] = -sin(x[0]) - 0.1 * x[1] + 0.3 * cos(t);
  xdot[2] = x[0] * x[1] - x[2] * x[2];
};
auto expressions = [](const auto&, const auto& x, auto& xdot) {
  const auto n = x.size();
  xdot = x.reverse() * 0.7;
  xdot.head(n - 1) += x.tail(n - 1).cwiseProduct(x.head(n - 1));
  xdot[0] -= x.squaredNorm();
};

template <class F>
void expect_direct_rhs_bits(const Flow& flow, const F& f, std::mt19937_64& rng) {
  const DirectRhs* d = flow.rhs.target<DirectRhs>();
  ASSERT_NE(d, nullptr) << "ode_flow's rhs has no plain entry";
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  Vector store(3 * flow.nx);  // x sits inside a larger vector: a block's Ref, as integrators pass
  for (int s = 0; s < 200; ++s) {
    for (Eigen::Index i = 0; i < store.size(); ++i) store[i] = u(rng);
    const double t = u(rng);
    const auto x = store.segment(flow.nx, flow.nx);
    Vector fast(flow.nx), general(flow.nx), direct(flow.nx);
    ASSERT_TRUE(d->fast(d->context.get(), t, x.data(), fast.data()));
    flow.rhs(t, x, Vector(), general);  // through the std::function, as before
    VectorRef out(direct);
    f(t, ConstVectorRef(x), out);  // the callable itself
    for (int i = 0; i < flow.nx; ++i) {
      ASSERT_TRUE(same_bits(fast[i], general[i]) && same_bits(fast[i], direct[i]))
          << "state " << s << " component " << i << ": " << fast[i] << " " << general[i] << " "
          << direct[i];
    }
  }
}

TEST(DirectEntries, OdeFlowsHaveAPlainEntryWithTheCallablesBits) {
  std::mt19937_64 rng(2711);
  expect_direct_rhs_bits(ode_flow(3, elementwise), elementwise, rng);
  for (int n : {2, 5, 9}) expect_direct_rhs_bits(ode_flow(n, expressions), expressions, rng);
  // With a hand-written Jacobian too.
  const Flow with_jacobian =
      ode_flow(3, elementwise, [](double, const auto&, auto& dfdx) { dfdx.setZero(); });
  expect_direct_rhs_bits(with_jacobian, elementwise, rng);
}

TEST(DirectEntries, MakeGuardHasAPlainValueWithTheCallablesBits) {
  auto p = [](const auto& t, const auto& x, const auto& z) {
    using std::cos;
    return x[0] * cos(x[1] + t) - 0.5 * x.squaredNorm() + (z.size() > 0 ? z[0] * x[2] : 0.0 * t);
  };
  const Guard g = make_guard("g", Direction::Rising, p, Reset{});
  const DirectGuardValue* d = g.value.target<DirectGuardValue>();
  ASSERT_NE(d, nullptr) << "make_guard's value has no plain entry";
  std::mt19937_64 rng(2712);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int nz : {0, 2}) {
    for (int s = 0; s < 200; ++s) {
      Vector x(4), z(nz);
      for (int i = 0; i < 4; ++i) x[i] = u(rng);
      for (int i = 0; i < nz; ++i) z[i] = u(rng);
      const double t = u(rng);
      const double fast = d->fast(d->context.get(), t, x.data(), 4, z.data(), nz);
      const double through_value = g.value(t, x, z);
      const double callable = p(t, ConstVectorRef(x), ConstVectorRef(z));
      ASSERT_TRUE(same_bits(fast, callable) && same_bits(through_value, callable))
          << "nz " << nz << " state " << s << ": " << fast << " " << callable;
    }
  }
}

}  // namespace
}  // namespace saltus
