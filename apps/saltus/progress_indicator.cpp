#include "progress_indicator.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace saltus::cli {

ProgressIndicator::ProgressIndicator(std::string what, bool show_time_left)
    : what_(std::move(what)),
      start_(std::chrono::steady_clock::now()),
      show_time_left_(show_time_left) {
  enabled_ = isatty(STDERR_FILENO) == 1;
}

ProgressIndicator::~ProgressIndicator() {
  finish();
}

void ProgressIndicator::tick(double fraction) {
  if (!enabled_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < 1.0) return;
  static constexpr const char* kFrames[] = {"|", "/", "-", "\\"};
  const double percent = 100.0 * std::clamp(fraction, 0.0, 1.0);
  std::fprintf(stderr, "\r%s %s  %5.1f %%  %.1f s", kFrames[frame_++ % 4], what_.c_str(), percent,
               elapsed);
  if (show_time_left_ && fraction > 0.0) {
    std::fprintf(stderr, ", about %.0f s left\033[K", elapsed * (1.0 - fraction) / fraction);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressIndicator::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace saltus::cli
