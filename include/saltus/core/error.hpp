// saltus::Error: thrown for bad input (options, model description, sizes) before a run starts.
// Run outcomes (Zeno, event cap, Newton failure) are not exceptions: they are a Termination
// plus a message in the SimulationSummary.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace saltus {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

namespace detail {
// Concatenates streamable parts into a message; doubles keep all 17 significant digits.
template <class... Parts>
std::string text(const Parts&... parts) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << parts);
  return out.str();
}

// throw_error("mode '", name, "': ", value) throws saltus::Error with that text.
template <class... Parts>
[[noreturn]] void throw_error(const Parts&... parts) {
  throw Error(text(parts...));
}
}  // namespace detail

}  // namespace saltus
