// models/elastic_spasmodic.toml (Clark-Bloch Example 6, walls y in {0, 1} as FORMULAS.md 14
// corrects them) against the oracle, the closed form t_k = acos(exp(-(d0 + k - 1)/|p_y|)) and
// its conserved Hamiltonian.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "support/clark_bloch_example6.hpp"
#include "support/model_files.hpp"
#include "support/oracles.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;
using saltus::testing::num;

ModelRun run_example6(double y0, double py0, double px0, double t_end) {
  auto m = std::make_shared<const Model>(load_model_file(
      models_dir() / "elastic_spasmodic.toml",
      {"x=0", "y=" + num(y0), "px=" + num(px0), "py=" + num(py0), "t_end=" + num(t_end)}));
  return run_model(m);
}

// H = p_x (1 + x^2) + p_y^2 x / 2 and the sum of the sizes of its terms, states found by name.
struct Hamiltonian {
  explicit Hamiltonian(const Model& m)
      : x(m.state_index("x")), px(m.state_index("px")), py(m.state_index("py")) {}
  int x, px, py;
  double operator()(const Vector& s) const {
    return s[px] * (1.0 + s[x] * s[x]) + 0.5 * s[py] * s[py] * s[x];
  }
  double scale(const Vector& s) const {
    return std::abs(s[px]) * (1.0 + s[x] * s[x]) + 0.5 * s[py] * s[py] * std::abs(s[x]);
  }
};

TEST(ElasticSpasmodicModel, ImpactTimesOfTheOracle) {
  for (const auto& c : saltus::testing::oracle_cases("zeno.elastic_spasmodic")) {
    const auto& p = c["parameters"];
    ASSERT_EQ(p["x0"].get<double>(), 0.0) << "the model file starts at x = 0 (x = tan t)";
    const double horizon = saltus::testing::just_before(c["expected"]["t_zeno"].get<double>());
    const ModelRun r = run_example6(p["y0"], p["py0"], p["px0"], horizon);
    ASSERT_TRUE(r.succeeded()) << r.message();
    const auto ts = c["expected"]["impact_times"].get<std::vector<double>>();
    const long listed = std::count_if(ts.begin(), ts.end(), [&](double t) { return t < horizon; });
    ASSERT_GE(listed, 1);
    ASSERT_GE(r.result.events.size(), listed) << r.message();
    for (long i = 0; i < listed; ++i) {
      EXPECT_TRUE(saltus::testing::oracle_near("impact t", r.result.events[i].t,
                                               ts[static_cast<size_t>(i)],
                                               saltus::testing::oracle_tolerance(c)));
    }
  }
}

// From y0 = 0.3 with p_y = 2 the particle first climbs d0 = 0.7 to the top wall; every impact
// before pi/2 (1 - 1e-4) follows the closed form, and H (kept by the flow and by p_y -> -p_y) stays
// at its initial value along the samples (relative to the size of its terms, which grow as
// x = tan t does).
TEST(ElasticSpasmodicModel, ClosedFormImpactsAndConservedHamiltonian) {
  const double y0 = 0.3, py = 2.0, px = 0.25, d0 = 1.0 - y0;
  const double horizon = saltus::testing::just_before(M_PI / 2);
  const ModelRun r = run_example6(y0, py, px, horizon);
  ASSERT_TRUE(r.succeeded()) << r.message();
  long expected = 0;
  while (std::acos(std::exp(-(d0 + static_cast<double>(expected)) / py)) < horizon) ++expected;
  ASSERT_EQ(expected, 17);  // d0 = 0.7, p_y = 2 up to pi/2 (1 - 1e-4)
  ASSERT_EQ(r.result.events.size(), expected);
  for (long k = 1; k <= expected; ++k) {
    const double t_k = std::acos(std::exp(-(d0 + static_cast<double>(k - 1)) / py));
    EXPECT_NEAR(r.result.events[k - 1].t, t_k, 1e-9 * t_k) << "impact " << k;
    // Walls alternate: top first (moving up), then bottom, ...
    EXPECT_EQ(r.result.events[k - 1].guard, k % 2 == 1 ? 1 : 0) << "impact " << k;
  }
  const Trajectory& tr = r.result.trajectory;
  ASSERT_GT(tr.size(), 100);
  const Hamiltonian h(*r.model);
  ASSERT_TRUE(h.x >= 0 && h.px >= 0 && h.py >= 0);
  const double h0 = px * 1.0;  // at x = 0
  EXPECT_EQ(h(tr.x(0)), h0);
  for (long i = 0; i < tr.size(); ++i) {
    const Vector s = tr.x(i);
    EXPECT_NEAR(h(s), h0, 1e-9 * std::max(h.scale(s), 1.0)) << "t = " << tr.t(i);
  }
}

}  // namespace
}  // namespace saltus::model
