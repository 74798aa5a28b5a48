// The files and JSON of a continued branch for `saltus orbit` (orbit_command.hpp): branch.csv
// and period2.csv (one row per branch point), bifurcations.csv and the JSON of the bifurcations.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "saltus/analysis/orbit_continuation.hpp"

namespace saltus::cli {

nlohmann::ordered_json multipliers_json(const Eigen::VectorXcd& m);

// point, parameter, the states, stability, largest multiplier, resets, period, grazing evidence,
// the multipliers; with `map`, also next_<state>: the state one application of `map` later (the
// other point of a period-2 orbit).
// `names`: the state's components (a continued run-time parameter appended last).
std::string branch_csv(const std::vector<std::string>& names, const analysis::Branch& b,
                       const analysis::ReturnMap* map = nullptr);

// kind, parameter, after_point, test_value, angle (Neimark-Sacker; empty otherwise), the states.
std::string bifurcations_csv(const std::vector<std::string>& names, const analysis::Branch& b);

nlohmann::ordered_json bifurcations_json(const analysis::Branch& b);

}  // namespace saltus::cli
