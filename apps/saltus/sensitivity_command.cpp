#include "sensitivity_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "saltus/model/model_file_text.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/run/model_sensitivity.hpp"
#include "saltus/run/rebuilt_parameter_sensitivity.hpp"
#include "saltus/run/run_outputs.hpp"

namespace saltus::cli {

namespace {

// A mechanical or Hamiltonian model (no [modes]) with --parameters: differentiated on the file
// reloaded at p +- h (rebuilt_parameter_sensitivity.hpp); an explicit one loads them as states.
bool rebuilt_parameters(const SensitivityArguments& args) {
  if (args.parameters.empty()) return false;
  std::vector<model::Diagnostic> problems;
  const std::string text = model::read_model_file_text(args.model, problems);
  return problems.empty() && !run::declares_modes(text);
}

// Prints the report, writes the folder; the exit status (sensitivity_command.hpp).
int report_sensitivity(const SensitivityArguments& args, const run::ModelSensitivity& s) {
  std::cout << run::run_report(s.run);
  const analysis::FlowMapSensitivity& f = s.sensitivity;
  std::cout << "sensitivity " << analysis::to_string(f.status);
  if (f.ok()) {
    std::cout << ": " << f.events.size() << " saltation matrices, det of the flow-map Jacobian "
              << f.volume_factor << " (impacts: " << f.impact_volume_factor << ")\n";
  } else {
    std::cout << "\n";
  }
  try {
    run::write_sensitivity_outputs(s, args.out_dir);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "wrote      " << (std::filesystem::path(args.out_dir) / "sensitivity.json").string()
            << " beside trajectory.csv, events.csv and summary.json\n";
  if (!f.ok()) {
    std::cerr << args.model << ": error: no derivative (" << analysis::to_string(f.status)
              << "): " << f.message << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int sensitivity_command(const SensitivityArguments& args) {
  const std::vector<std::string> overrides =
      overrides_with_t_end(args.set, args.has_t_end, args.t_end);
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = args.numerical_resets;
  run::ModelSensitivity s;
  if (rebuilt_parameters(args)) {
    const run::ModelLoad load = [&](const std::vector<std::string>& extra) {
      std::vector<std::string> all = overrides;
      all.insert(all.end(), extra.begin(), extra.end());
      return model::load_model_file(args.model, all);
    };
    try {
      s = run::rebuilt_parameter_sensitivity(load, args.parameters, saltation);
    } catch (const model::ModelError& e) {
      std::cerr << e.what() << "\n" << args.model << ": nothing was run\n";
      return 1;
    } catch (const Error& e) {
      std::cerr << args.model << ": error: " << e.what() << "\n"
                << args.model << ": nothing was run; " << args.out_dir << " was left as it was\n";
      return 1;
    }
    return report_sensitivity(args, s);
  }
  model::LoadOptions options;
  options.parameters_as_states = args.parameters;
  const std::shared_ptr<const model::Model> m =
      load_model_for_command(args.model, overrides, options);
  if (!m) return 1;
  try {
    s = run::model_sensitivity(m, saltation);
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n"
              << args.model << ": nothing was run; " << args.out_dir << " was left as it was\n";
    return 1;
  }
  return report_sensitivity(args, s);
}

}  // namespace saltus::cli
