// The long ensemble of issue 9 (minutes, outside CI): N random bouncing balls, each checked
// against its closed form (tests/support/ball_ensemble.hpp), with counts of every kind of
// failure. The seeded test tests/sim/ball_ensemble_test.cpp runs the same check on fewer balls.
//
//   ball_ensemble_check [N=100000] [seed=1] [integrator=dopri5|dop853|radau5]
//                       [root_finder=brent|illinois|anderson_bjorck|bisection|newton] [rtol=1e-10]
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "support/ball_ensemble.hpp"

int main(int argc, char** argv) {
  using namespace saltus;
  const long n = argc > 1 ? std::atol(argv[1]) : 100000;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1;
  const std::string integrator = argc > 3 ? argv[3] : "dopri5";
  const std::string finder = argc > 4 ? argv[4] : "brent";
  const double rtol = argc > 5 ? std::atof(argv[5]) : 1e-10;

  SimulationOptions o;
  o.stepper.rtol = rtol;
  o.stepper.atol = rtol;
  if (integrator == "dop853") o.integrator = Integrator::Dop853;
  if (integrator == "radau5") o.integrator = Integrator::Radau5;
  const std::map<std::string, events::RootFinderKind> finders = {
      {"brent", events::RootFinderKind::Brent},
      {"illinois", events::RootFinderKind::Illinois},
      {"anderson_bjorck", events::RootFinderKind::AndersonBjorck},
      {"bisection", events::RootFinderKind::Bisection},
      {"newton", events::RootFinderKind::Newton}};
  if (!finders.count(finder)) {
    std::fprintf(stderr, "unknown root finder '%s'\n", finder.c_str());
    return 2;
  }
  o.events.root_finder = finders.at(finder);

  std::mt19937_64 rng(seed);
  std::map<std::string, long> statuses;
  long late = 0, zeno_off = 0, upward = 0, below = 0, no_handover = 0, impacts = 0;
  double worst_impact = 0.0, worst_zeno = 0.0, lowest = 0.0;
  testing::BallCase worst_case{};
  for (long i = 0; i < n; ++i) {
    const testing::BallCase b = testing::random_ball(rng);
    const testing::BallCheck c = testing::check_ball(b, o);
    ++statuses[to_string(c.termination)];
    impacts += c.impacts;
    late += c.max_impact_error > 1e-9;
    zeno_off += c.zeno_error > 1e-9;
    upward += c.upward_impacts;
    below += c.lowest_position < -1e-12;
    no_handover += !c.handed_over;
    lowest = std::min(lowest, c.lowest_position);
    if (c.max_impact_error > worst_impact) worst_case = b;
    worst_impact = std::max(worst_impact, c.max_impact_error);
    worst_zeno = std::max(worst_zeno, c.zeno_error);
  }
  std::printf("balls %ld (seed %lu, %s, %s, rtol %g), impacts %ld\n", n, seed, integrator.c_str(),
              finder.c_str(), rtol, impacts);
  for (const auto& [s, count] : statuses) std::printf("  status %-20s %ld\n", s.c_str(), count);
  std::printf("  impact time error > 1e-9 (relative): %ld balls, worst %.3g", late, worst_impact);
  std::printf(" (x0 %.17g v0 %.17g e %.17g g %.17g)\n", worst_case.x0, worst_case.v0, worst_case.e,
              worst_case.g);
  std::printf("  Zeno time error > 1e-9: %ld balls, worst %.3g\n", zeno_off, worst_zeno);
  std::printf("  impacts on an upward-moving ball: %ld\n", upward);
  std::printf("  balls below -1e-12: %ld (lowest %.3g)\n", below, lowest);
  std::printf("  balls without Zeno hand-over: %ld\n", no_handover);
  return 0;
}
