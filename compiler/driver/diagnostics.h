#pragma once
// How the driver reports a failure: `error[E1903]: message`, or the frontend's
// rendered source diagnostics when the failure was in the source.

#include <ostream>

#include "absl/status/status.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/util/error.h"
#include "ppy/util/escape.h"

namespace ppy::driver {

/// Prints `error[CODE]: text` (or `error: text` when the status has no code).
/// Control characters are escaped (newlines kept): a message may quote a
/// backend, a file name or a path, none of which may drive the terminal.
inline void report(std::ostream& err, const absl::Status& s) {
  std::string code = error_code(s);
  err << (code.empty() ? std::string("error: ") : "error[" + code + "]: ")
      << escape_control(error_text(s), /*keep_newlines=*/true) << "\n";
}

/// Reports `s` and returns `exit_status`, for `return fail(err, s);`.
inline int fail(std::ostream& err, const absl::Status& s, int exit_status = 2) {
  report(err, s);
  return exit_status;
}

/// Writes `diags` in the format `--diagnostics-format` chose (text by default).
void write_diagnostics(std::ostream& err, const frontend::DiagnosticEngine& diags);

/// Reports a failed compile: the source diagnostics when there are any, else
/// the status (as a diagnostic without a place, in JSON or SARIF). Returns the
/// exit status for it (1).
int report_failure(std::ostream& err, const absl::Status& s, const frontend::DiagnosticEngine& diags);

}  // namespace ppy::driver
