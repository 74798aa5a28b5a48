#include "python_script.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <iostream>
#include <vector>

extern char** environ;

namespace saltus::cli {

int run_plot_script(const char* script_env, const std::string& default_script,
                    const std::string& dir, const std::vector<std::string>& extra) {
  const char* script_override = std::getenv(script_env);
  const std::string script = script_override != nullptr ? script_override : default_script;
  const char* python_env = std::getenv("SALTUS_PYTHON");
  const std::string python = python_env != nullptr ? python_env : "/usr/bin/python3";
  std::cout.flush();
  std::vector<std::string> argv_text = {python, script, dir};
  argv_text.insert(argv_text.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    std::cerr << "error: cannot start " << python << " (needed for plots: apt install "
              << "python3-matplotlib)\n";
    return 3;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "error: " << script << " failed on " << dir << "\n";
    return 3;
  }
  return 0;
}

}  // namespace saltus::cli
