// `saltus density`: the statistical density of a billiard's time-1 maps (Clark & Bloch eq. (27),
// Fig. 7 and 8; analysis/invariant_density.hpp does the work). The billiard is a model file with
// [mechanics] constraints (MODEL; --range required) or a built-in one (--system,
// systems/billiard_catalogue.hpp); density_setup.hpp builds either.
//   0  every trajectory ran all its maps; 1  bad input (nothing run); 2  a trajectory stopped
//   early (its maps so far are binned; summary.json says why); 3  output not written or plotted
#pragma once

#include "saltus/run/density_setup.hpp"

namespace saltus::cli {

int density_command(const run::DensityArguments& args);

}  // namespace saltus::cli
