#include "sensitivity_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_sensitivity.hpp"

namespace saltus::cli {

int sensitivity_command(const SensitivityArguments& args) {
  model::LoadOptions options;
  options.parameters_as_states = args.parameters;
  const std::shared_ptr<const model::Model> m = load_model_for_command(
      args.model, overrides_with_t_end(args.set, args.has_t_end, args.t_end), options);
  if (!m) return 1;
  analysis::SaltationOptions saltation;
  saltation.allow_numerical_derivatives = args.numerical_resets;
  model::ModelSensitivity s;
  try {
    s = model::model_sensitivity(m, saltation);
  } catch (const Error& e) {
    std::cerr << args.model << ": error: " << e.what() << "\n"
              << args.model << ": nothing was run; " << args.out_dir << " was left as it was\n";
    return 1;
  }
  std::cout << model::run_report(s.run);
  const analysis::FlowMapSensitivity& f = s.sensitivity;
  std::cout << "sensitivity " << analysis::to_string(f.status);
  if (f.ok()) {
    std::cout << ": " << f.events.size() << " saltation matrices, det of the flow-map Jacobian "
              << f.volume_factor << " (impacts: " << f.impact_volume_factor << ")\n";
  } else {
    std::cout << "\n";
  }
  try {
    model::write_sensitivity_outputs(s, args.out_dir);
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

}  // namespace saltus::cli
