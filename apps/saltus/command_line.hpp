// The `saltus` command line as a function, for main() and for the Python package.
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

// Parses `saltus ARGS...` and runs the subcommand; returns its exit status (commands.hpp). A
// parse error or --help prints CLI11's text and returns CLI11's status: nothing here calls exit.
// `argv[0]` is the program name; the vector form takes the arguments after it.
int run_command_line(int argc, const char* const* argv);
int run_command_line(const std::vector<std::string>& args);

}  // namespace saltus::cli
