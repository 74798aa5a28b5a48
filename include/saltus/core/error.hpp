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
// Builds a message from streamable parts: throw_error("mode '", name, "': ", value).
template <class... Parts>
[[noreturn]] void throw_error(const Parts&... parts) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << parts);
  throw Error(out.str());
}
}  // namespace detail

}  // namespace saltus
