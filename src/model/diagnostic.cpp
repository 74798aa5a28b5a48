// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/model/diagnostic.hpp"

namespace saltus::model {

std::string Diagnostic::format() const {
  std::string out = file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  return out + ": error: " + message;
}

std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  return out;
}

}  // namespace saltus::model
