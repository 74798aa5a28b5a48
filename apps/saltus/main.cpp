// saltus: run, check, plot and animate hybrid-system model files (docs/MODEL_FORMAT.md).
#include "command_line.hpp"

int main(int argc, char** argv) {
  return saltus::cli::run_command_line(argc, argv);
}
