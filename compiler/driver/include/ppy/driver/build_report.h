#pragma once
/// What `ppy build` says while it works and once it is done. On a terminal: a
/// progress line rewritten in place (`[37/100] app.util`), cleared before
/// anything else is said, and a summary. Elsewhere (a CI log): no progress,
/// whole lines only. With --quiet: nothing but errors.

#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace ppy::driver {

/// Where a build's modules came from.
struct BuildSummary {
  size_t modules = 0;
  size_t local = 0;   ///< from the project's cache
  size_t remote = 0;  ///< from the shared remote cache
  size_t built = 0;   ///< made by the backend in this build
  std::string backend;
  std::string origin;  ///< the backend's origin (`builtin`, or its distribution)
  size_t retries = 0;  ///< calls a farm's server lost and another answered
  /// The server that built them (a remote backend's endpoint); empty when a
  /// helper here did.
  std::string server;
};

/// `modules:  N (...)` and, when there were any, `retries:  R`, one a line.
std::string summary_text(const BuildSummary& s);

/// How many calls the host's notes say were lost and sent again.
size_t retries_in(const std::vector<std::string>& notes);

class BuildReport {
 public:
  enum class Mode { kTerminal, kLines, kQuiet };
  /// kQuiet with --quiet, kTerminal when `fd` is a terminal, else kLines.
  static Mode mode_for(bool quiet, int fd);

  BuildReport(std::ostream& err, Mode mode) : err_(err), mode_(mode) {}

  /// One more module of `total` is through the shared passes (any thread).
  void module_done(const std::string& name, size_t total);
  /// A line the user reads (a note, a step), unless quiet.
  void say(const std::string& text);
  /// The summary, unless quiet.
  void summary(const BuildSummary& s);
  /// Clears the progress line (before an error is printed).
  void clear();
  bool quiet() const { return mode_ == Mode::kQuiet; }

 private:
  void clear_locked();
  std::ostream& err_;
  Mode mode_;
  std::mutex mu_;
  size_t done_ = 0;
  bool shown_ = false;
};

}  // namespace ppy::driver
