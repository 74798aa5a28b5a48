// A one-line progress indicator on stderr for runs longer than about a second, shown only when
// stderr is a terminal (never in logs or pipes).
//
// The engine offers no progress callback, so the line shows elapsed wall time while the run goes
// on in a worker thread, not the fraction of [t0, t_end] done.
#pragma once

#include <chrono>
#include <string>

namespace saltus::cli {

class ProgressIndicator {
 public:
  explicit ProgressIndicator(std::string what);
  ~ProgressIndicator();
  // Called periodically from the waiting thread; draws once the run has taken over a second.
  void tick();
  // Clears the line (if drawn).
  void finish();

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool enabled_ = false;
  bool drawn_ = false;
  int frame_ = 0;
};

}  // namespace saltus::cli
