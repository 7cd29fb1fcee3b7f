#pragma once
// How the driver reports a failed status: `error[E1903]: message`.

#include <ostream>

#include "absl/status/status.h"
#include "ppy/util/error.h"

namespace ppy::driver {

/// Prints `error[CODE]: text` (or `error: text` when the status has no code).
inline void report(std::ostream& err, const absl::Status& s) {
  std::string code = error_code(s);
  err << (code.empty() ? std::string("error: ") : "error[" + code + "]: ") << error_text(s) << "\n";
}

}  // namespace ppy::driver
