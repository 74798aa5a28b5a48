#include "lyapunov_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "analysis_setup.hpp"
#include "commands.hpp"
#include "saltus/analysis/lyapunov.hpp"
#include "saltus/core/error.hpp"
#include "saltus/run/number_text.hpp"
#include "saltus/run/output_folder.hpp"

namespace saltus::cli {
namespace {

// A vector as a JSON array; -inf (a collapsed direction) is written as null.
nlohmann::ordered_json vector_json(const Vector& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    a.push_back(std::isfinite(v(i)) ? nlohmann::ordered_json(v(i))
                                    : nlohmann::ordered_json(nullptr));
  }
  return a;
}

std::string lyapunov_json(const model::Model& m, const analysis::LyapunovOptions& o,
                          const analysis::LyapunovSpectrum& s) {
  nlohmann::ordered_json j;
  j["model"] = m.name;
  j["status"] = analysis::to_string(s.status);
  j["message"] = s.message;
  nlohmann::ordered_json states = nlohmann::ordered_json::array();
  for (const model::Quantity& q : m.states) states.push_back(q.name);
  j["states"] = states;
  j["time_unit"] = m.time_unit;
  j["t_start"] = m.t_start;
  j["t_end"] = m.t_end;
  j["transient"] = o.transient;
  j["window"] = o.window;
  j["max_events_per_window"] = o.max_events_per_window;
  j["averaging_time"] = m.t_end - s.t_averaging;
  j["t_reached"] = s.t_reached;
  if (s.ok()) {
    j["exponents"] = vector_json(s.exponents);
    j["spread"] = vector_json(s.spread);
    j["sum"] = s.collapsed > 0 ? nlohmann::ordered_json(nullptr)
                               : nlohmann::ordered_json(s.exponents.sum());
  } else {
    j["exponents"] = nullptr;
    j["spread"] = nullptr;
    j["sum"] = nullptr;
  }
  j["collapsed"] = s.collapsed;
  j["events"] = s.events;
  j["impact_log_volume"] = s.impact_log_volume;
  j["qr_steps"] = s.qr_steps;
  j["cut_windows"] = s.cut_windows;
  nlohmann::ordered_json checkpoints = nlohmann::ordered_json::array();
  for (const analysis::LyapunovCheckpoint& c : s.checkpoints) {
    checkpoints.push_back({{"t", c.t}, {"estimates", vector_json(c.estimates)}});
  }
  j["checkpoints"] = checkpoints;
  return j.dump(2) + "\n";
}

std::string ten_digits(double v) {
  return std::isfinite(v) ? run::number_text(v, 10) : std::string(v < 0 ? "-inf" : "nan");
}

void print_spectrum(const model::Model& m, const analysis::LyapunovOptions& o,
                    const analysis::LyapunovSpectrum& s) {
  std::cout << "lyapunov   " << (m.name.empty() ? m.file : m.name)
            << ": t = " << ten_digits(m.t_start) << " .. " << ten_digits(m.t_end) << ", transient "
            << ten_digits(o.transient) << ", window " << ten_digits(o.window) << " (" << s.qr_steps
            << " QR steps, " << s.cut_windows << " windows cut at " << o.max_events_per_window
            << " events), " << s.events << " events averaged\n";
  std::cout << "status     " << analysis::to_string(s.status)
            << (s.message.empty() ? "" : ": " + s.message) << "\n";
  if (!s.ok()) return;
  for (Eigen::Index i = 0; i < s.exponents.size(); ++i) {
    std::cout << "lambda_" << i + 1 << (i + 1 < 10 ? "   " : "  ") << ten_digits(s.exponents(i))
              << " per " << m.time_unit << "  (spread over the second half "
              << ten_digits(s.spread(i)) << ")\n";
  }
  if (s.collapsed == 0) {
    const double span = m.t_end - s.t_averaging;
    std::cout << "sum        " << ten_digits(s.exponents.sum())
              << " (impacts: sum log|det S| / T = " << ten_digits(s.impact_log_volume / span)
              << ")\n";
  }
}

}  // namespace

CLI::App* add_lyapunov_subcommand(CLI::App& app, LyapunovArguments& args) {
  CLI::App* cmd = app.add_subcommand(
      "lyapunov",
      "Lyapunov exponents of a model's run: variational equations, a saltation matrix at every "
      "event, QR every window (lyapunov.json)");
  cmd->add_option("model", args.model, "Model file (TOML)")->required();
  cmd->add_option("--out,-o", args.out_dir, "Output folder")->capture_default_str();
  cmd->add_option("--set,-s", args.set, "Override: name=value (repeatable)");
  cmd->add_option_function<double>(
      "--t-end",
      [&args](const double& t) {
        args.t_end = t;
        args.has_t_end = true;
      },
      "End time (overrides [solver] t_end)");
  cmd->add_option_function<double>(
      "--window",
      [&args](const double& w) {
        args.window = w;
        args.has_window = true;
      },
      "QR every WINDOW of model time (default: (t_end - t_start) / 1000)");
  cmd->add_option("--transient", args.transient,
                  "Time from t_start during which the basis is turned but nothing averaged")
      ->capture_default_str();
  cmd->add_option("--max-events", args.max_events,
                  "Most saltation matrices between two QR steps (a window is cut)")
      ->capture_default_str();
  cmd->add_flag("--numerical-resets", args.numerical_resets,
                "Allow central differences for resets without an exact derivative");
  cmd->footer(
      "Examples:\n"
      "  saltus lyapunov models/vibrating_table.toml --set A=0.8 --set e=0.85 --t-end 1000 \\\n"
      "      --window 0.5 --transient 50 --out out/table\n"
      "  saltus lyapunov models/relay_feedback.toml --t-end 240 --window 0.5 --transient 40 \\\n"
      "      --out out/relay\n"
      "Writes DIR/lyapunov.json: exponents (decreasing, per unit time), status, message, events,\n"
      "QR steps and the running estimates (docs/ANALYSIS.md).\n"
      "Exit status: 0 ok, 1 bad model or options, 2 no exponents (a Zeno point, a grazing or\n"
      "simultaneous impact, a failed run: lyapunov.json says which event and why), 3 output "
      "error.");
  return cmd;
}

int lyapunov_command(const LyapunovArguments& args) {
  LoadedModel lm;
  if (!load_for_analysis(args.model, overrides_with_t_end(args.set, args.has_t_end, args.t_end),
                         lm)) {
    return 1;
  }
  const model::Model& m = *lm.run.model;
  analysis::LyapunovOptions o;
  o.window = args.has_window ? args.window : (m.t_end - m.t_start) / 1000.0;
  o.transient = args.transient;
  o.max_events_per_window = args.max_events;
  o.saltation.allow_numerical_derivatives = args.numerical_resets;
  const auto refuse = [&](const std::string& why) {
    std::cerr << args.model << ": error: " << why << "\n"
              << args.model << ": nothing was run; " << args.out_dir << " was left as it was\n";
    return 1;
  };
  if (args.has_window && (!(args.window > 0.0) || !std::isfinite(args.window))) {
    return refuse("--window " + ten_digits(args.window) + " must be a positive time");
  }
  if (!(args.transient >= 0.0) || !std::isfinite(args.transient)) {
    return refuse("--transient " + ten_digits(args.transient) + " must be a time >= 0");
  }
  if (!(m.t_end > m.t_start + args.transient)) {
    return refuse("t_end = " + ten_digits(m.t_end) + " must be after t_start + --transient = " +
                  ten_digits(m.t_start + args.transient) + " (nothing left to average over)");
  }
  if (args.max_events < 1) {
    return refuse("--max-events " + std::to_string(args.max_events) + " must be >= 1");
  }
  analysis::LyapunovSpectrum s;
  try {
    s = analysis::lyapunov_spectrum(lm.run.system, lm.start.mode, m.t_start, lm.start.x0, m.t_end,
                                    m.options, o, lm.start.z0);
  } catch (const Error& e) {
    return refuse(e.what());
  }
  print_spectrum(m, o, s);
  try {
    run::replace_output_folder(args.out_dir, {{"lyapunov.json", lyapunov_json(m, o, s)}});
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  std::cout << "wrote      " << (std::filesystem::path(args.out_dir) / "lyapunov.json").string()
            << "\n";
  if (!s.ok()) {
    std::cerr << args.model << ": error: no exponents (" << analysis::to_string(s.status)
              << "): " << s.message << "\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::cli
