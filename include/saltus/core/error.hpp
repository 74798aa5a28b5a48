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

// An Error with a cause code of the layer that throws it (mech::ContactStop for mechanical
// models): a reset (or what it calls) that has no post-event state may throw one, and the
// simulator reports its code as Jump::cause would be (SimulationSummary::reset_cause).
class CausedError : public Error {
 public:
  CausedError(int cause, const std::string& message) : Error(message), cause_(cause) {}
  int cause() const { return cause_; }

 private:
  int cause_;
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
