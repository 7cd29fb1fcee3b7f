#pragma once
/// Source diagnostics of the frontend: `file:line:col: error[E1xxx]: message`,
/// the source line and a caret. The engine collects every error of a run so one
/// invocation reports them all (the parser recovers at statement level).
/// The codes are listed in docs/diagnostics.md.

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace ppy::frontend {

struct SourceDiagnostic {
  std::string code;  ///< `E1001`
  std::string file;  ///< the path as given
  uint32_t line = 0;
  uint32_t col = 0;  ///< 1-based, in characters of the line's bytes
  std::string message;
};

class DiagnosticEngine {
 public:
  /// Records an error; stops recording a file's after `max_errors_per_file`,
  /// and any after `max_errors` (the counts still grow, and rendering says how
  /// many were left out): one broken file must not bury the others, and a file
  /// of garbage must not print megabytes.
  void error(std::string code, std::string file, uint32_t line, uint32_t col, std::string message);
  /// Registers a file's text so rendering can show its lines.
  void add_source(const std::string& file, const std::string& text) { sources_[file] = text; }

  const std::vector<SourceDiagnostic>& diagnostics() const { return diags_; }
  size_t error_count() const { return count_; }
  bool has_errors() const { return count_ != 0; }
  const std::map<std::string, std::string>& sources() const { return sources_; }
  /// Errors reported for each file, recorded or not.
  const std::map<std::string, size_t>& counts() const { return per_file_; }

  size_t max_errors = 200;
  size_t max_errors_per_file = 20;

 private:
  std::vector<SourceDiagnostic> diags_;
  std::map<std::string, std::string> sources_;
  std::map<std::string, size_t> per_file_, recorded_;
  size_t count_ = 0;
};

/// One diagnostic as three lines: the header, the source line, the caret line.
/// `source` is the whole file text (may be empty: then only the header). A
/// long line is cut to a window around the caret, a long message is cut in the
/// middle, and control characters in either are escaped (ppy/util/escape.h).
std::string render_diagnostic(const SourceDiagnostic& d, const std::string& source);

/// The recorded diagnostics in source order: files in the order their first
/// error was reported, each file's by line and column (reports at one place
/// keep their order). The checker reports as it walks, which is not always
/// the order a reader reads in (a call is checked before the function it
/// calls was finished, a module's code after its functions).
std::vector<SourceDiagnostic> in_source_order(const DiagnosticEngine& engine);

/// Every diagnostic of the engine, each rendered against its registered source,
/// in source order, then how many each file had beyond the cap.
std::string render_diagnostics(const DiagnosticEngine& engine);

/// The format `--diagnostics-format` names: text (the rendering above), JSON
/// (one object, `{"diagnostics": [...]}`, for scripts) or SARIF 2.1.0 (what CI
/// code scanning and editors read).
enum class DiagnosticsFormat { kText, kJson, kSarif };

/// `text`, `json` or `sarif`, else nullopt.
std::optional<DiagnosticsFormat> parse_diagnostics_format(std::string_view name);

/// The engine's diagnostics in `format`; `tool_version` is SARIF's
/// `tool.driver.version`. A JSON or SARIF document ends with a newline.
std::string render_diagnostics_as(const DiagnosticEngine& engine, DiagnosticsFormat format,
                                  std::string_view tool_version);

}  // namespace ppy::frontend
