#pragma once
/// The roads of the `ppy` command line, one function each. They print to the
/// streams given (so tests can capture them) and return the process exit status.

#include <iosfwd>
#include <optional>
#include <string>

namespace ppy::driver {

/// Where a command writes: its normal output and its diagnostics.
struct Streams {
  std::ostream& out;
  std::ostream& err;
};

struct EmitOptions {
  std::string format;                 ///< `ir`, `linked-ir`, or a backend's format
  std::string target;                 ///< a .ppy file, a .ppyir file or a project folder
  std::optional<std::string> output;  ///< -o FILE|DIR
  int opt_level = 2;
};

/// `ppy emit FORMAT TARGET [-o FILE|DIR]`.
int emit(const EmitOptions& opts, Streams io);

}  // namespace ppy::driver
