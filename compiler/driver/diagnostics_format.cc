// `--diagnostics-format`: the one process-wide choice of how source diagnostics
// are written (driver/diagnostics.h, ppy/driver/commands.h).
#include "diagnostics.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"

namespace ppy::driver {
namespace {

frontend::DiagnosticsFormat& chosen_format() {
  static frontend::DiagnosticsFormat format = frontend::DiagnosticsFormat::kText;
  return format;
}

}  // namespace

bool set_diagnostics_format(std::string_view name) {
  auto format = frontend::parse_diagnostics_format(name);
  if (!format) return false;
  chosen_format() = *format;
  return true;
}

void write_diagnostics(std::ostream& err, const frontend::DiagnosticEngine& diags) {
  err << frontend::render_diagnostics_as(diags, chosen_format(), compiler_version());
}

int report_failure(std::ostream& err, const absl::Status& s, const frontend::DiagnosticEngine& diags) {
  if (diags.has_errors()) {
    write_diagnostics(err, diags);
  } else if (chosen_format() == frontend::DiagnosticsFormat::kText) {
    report(err, s);
  } else {
    frontend::DiagnosticEngine placeless;
    std::string code = error_code(s);
    placeless.error(code, "", 0, 0, std::string(error_text(s)));
    write_diagnostics(err, placeless);
  }
  return 1;
}

}  // namespace ppy::driver
