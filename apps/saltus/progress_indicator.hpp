// A one-line progress indicator on stderr for runs longer than about a second, shown only when
// stderr is a terminal (never in logs or pipes).
//
// The run goes on in a worker thread that publishes the simulated time (SimulationOptions::
// on_progress); the line shows the fraction of [t0, t_end] done and the elapsed wall time. A
// sweep (its points take comparable times) also shows the time left, extrapolated linearly.
#pragma once

#include <chrono>
#include <string>

namespace saltus::cli {

class ProgressIndicator {
 public:
  explicit ProgressIndicator(std::string what, bool show_time_left = false);
  ~ProgressIndicator();
  // Called periodically from the waiting thread with the fraction of the run done (0..1); draws
  // once the run has taken over a second.
  void tick(double fraction);
  // Clears the line (if drawn).
  void finish();

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool show_time_left_ = false;
  bool enabled_ = false;
  bool drawn_ = false;
  int frame_ = 0;
};

}  // namespace saltus::cli
