// A problem found in a model file: where (file, line, column) and what is wrong / was expected.
//
// Loading a model collects every problem it finds (docs/MODEL_FORMAT.md "Errors"); ModelError
// carries them all, and its what() lists one per line as "file:line:column: error: message".
#pragma once

#include <string>
#include <vector>

#include "saltus/core/error.hpp"

namespace saltus::model {

struct Diagnostic {
  std::string file;
  int line = 0;    // 1-based; 0 when the problem has no single place (e.g. a missing section)
  int column = 0;  // 1-based
  std::string message;

  // "file:line:column: error: message" (line and column left out when unknown).
  std::string format() const;
};

// One line per diagnostic.
std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics);

class ModelError : public Error {
 public:
  explicit ModelError(std::vector<Diagnostic> diagnostics)
      : Error(format_diagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace saltus::model
