#include "sensitivity_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_sensitivity.hpp"

namespace saltus::cli {

int sensitivity_command(const SensitivityArguments& args) {
  std::vector<std::string> overrides = args.set;
  if (args.has_t_end) {
    std::ostringstream t;
    t.precision(17);
    t << args.t_end;
    overrides.push_back("solver.t_end=" + t.str());
  }
  std::shared_ptr<const model::Model> m;
  try {
    m = std::make_shared<const model::Model>(model::load_model_file(args.model, overrides));
  } catch (const model::ModelError& e) {
    std::cerr << e.what() << "\n"
              << args.model << ": " << e.diagnostics().size() << " problem(s); nothing was run\n";
    return 1;
  }
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
