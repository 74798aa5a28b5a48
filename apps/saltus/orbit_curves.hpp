// `saltus orbit --continue P=A:B --curve Q=C:D`: every fold, period doubling and grazing found on
// the branch continued in the plane (P, Q) over Q in [C, D] (analysis/bifurcation_curve.hpp,
// analysis/grazing_curve.hpp).
// Writes curves.csv (one row per curve point: curve, kind, point, the states (P and Q among them),
// t_state, period, resets, test, the multipliers) and returns orbit.json's "curves" entry.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "saltus/analysis/bifurcation_curve.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {

struct CurveRequest {
  int first = 0, second = 0;  // the state indices of P and Q
  double q_min = 0.0, q_max = 0.0;
  analysis::CurveOptions options;  // steps and tolerance
};

// `map`: the branch's map; `family`: its stroboscopic family (re-timed curves) or null.
// `complete` is set false when a curve could not be started or is partial.
nlohmann::ordered_json follow_curves(const std::vector<std::string>& names,
                                     const analysis::Branch& branch, const analysis::ReturnMap& map,
                                     const analysis::StroboscopicFamily* family,
                                     const CurveRequest& request,
                                     std::vector<run::OutputFile>& files, bool& complete);

}  // namespace saltus::cli
