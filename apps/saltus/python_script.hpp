// Running a plotting script of scripts/ with python3 (for `saltus plot` and `saltus sweep`).
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

// Runs `python3 SCRIPT DIR [EXTRA...]` and waits for it. SALTUS_PYTHON overrides /usr/bin/python3
// and `script_env` (e.g. "SALTUS_PLOT_SCRIPT") names the variable that overrides `default_script`.
// Returns 0, or 3 after printing why the script could not run or failed.
int run_plot_script(const char* script_env, const std::string& default_script,
                    const std::string& dir, const std::vector<std::string>& extra = {});

}  // namespace saltus::cli
