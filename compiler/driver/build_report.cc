#include "ppy/driver/build_report.h"

#include <unistd.h>

#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

std::string summary_text(const BuildSummary& s) {
  std::string parts;
  auto part = [&](size_t n, const std::string& what) {
    if (n) str_append(parts, parts.empty() ? "" : ", ", n, " ", what);
  };
  part(s.local, "from the local cache");
  part(s.remote, "from the remote cache");
  part(s.built, str_cat("built by ", s.backend, " (", s.origin, ")", s.server.empty() ? "" : " on " + s.server));
  std::string out = str_cat("modules:  ", s.modules, parts.empty() ? "" : " (" + parts + ")", "\n");
  if (s.retries) str_append(out, "retries:  ", s.retries, " (calls a server lost, answered by another)\n");
  return out;
}

size_t retries_in(const std::vector<std::string>& notes) {
  size_t n = 0;
  for (auto& note : notes) {
    if (!note.starts_with("the call was retried:")) continue;
    for (size_t at = 0; (at = note.find(" lost it (", at)) != std::string::npos; at += 10) ++n;
  }
  return n;
}

BuildReport::Mode BuildReport::mode_for(bool quiet, int fd) {
  if (quiet) return Mode::kQuiet;
  return ::isatty(fd) ? Mode::kTerminal : Mode::kLines;
}

void BuildReport::module_done(const std::string& name, size_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  if (mode_ != Mode::kTerminal) return;
  err_ << "\r[" << done_ << "/" << total << "] " << escape_control(name) << "\033[K" << std::flush;
  shown_ = true;
}

void BuildReport::clear_locked() {
  if (!shown_) return;
  err_ << "\r\033[K" << std::flush;
  shown_ = false;
}

void BuildReport::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  clear_locked();
}

void BuildReport::say(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  clear_locked();
  if (mode_ != Mode::kQuiet) err_ << text;
}

void BuildReport::summary(const BuildSummary& s) { say(summary_text(s)); }

}  // namespace ppy::driver
