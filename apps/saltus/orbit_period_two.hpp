// `saltus orbit --continue ... --switch-at-pd`: the period-2 branch from the first period
// doubling of the branch (analysis/orbit_branch_switching.hpp), both points of the orbit written
// to period2.csv; returns orbit.json's "period_2" entry.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "saltus/analysis/orbit_continuation.hpp"
#include "saltus/analysis/stroboscopic_phase.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {

// `branch_map`: the branch's map; `family`: its stroboscopic family, or null.
nlohmann::ordered_json switch_at_doubling(const std::vector<std::string>& names,
                                          const analysis::ReturnMap& branch_map,
                                          const analysis::StroboscopicFamily* family,
                                          const analysis::Branch& b,
                                          const analysis::ContinuationOptions& c,
                                          std::vector<run::OutputFile>& files);

}  // namespace saltus::cli
