// Collecting and rendering source diagnostics.
#include "ppy/frontend/diagnostics.h"

#include "ppy/util/str_cat.h"

namespace ppy::frontend {

void DiagnosticEngine::error(std::string code, std::string file, uint32_t line, uint32_t col,
                             std::string message) {
  ++count_;
  if (diags_.size() >= max_errors) return;
  diags_.push_back({std::move(code), std::move(file), line, col, std::move(message)});
}

std::string render_diagnostic(const SourceDiagnostic& d, const std::string& source) {
  std::string out = str_cat(d.file, ":", d.line, ":", d.col, ": error[", d.code, "]: ", d.message, "\n");
  if (d.line == 0) return out;
  size_t start = 0;
  for (uint32_t l = 1; l < d.line; ++l) {
    size_t nl = source.find('\n', start);
    if (nl == std::string::npos) return out;
    start = nl + 1;
  }
  if (start > source.size()) return out;
  size_t end = source.find('\n', start);
  std::string line = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  str_append(out, "    ", line, "\n    ");
  // The caret keeps the line's tabs so it lines up under the column in a terminal.
  for (uint32_t i = 1; i < d.col && i - 1 < line.size(); ++i) out.push_back(line[i - 1] == '\t' ? '\t' : ' ');
  out += "^\n";
  return out;
}

std::string render_diagnostics(const DiagnosticEngine& engine) {
  std::string out;
  for (const auto& d : engine.diagnostics()) {
    auto it = engine.sources().find(d.file);
    out += render_diagnostic(d, it == engine.sources().end() ? std::string() : it->second);
  }
  if (engine.error_count() > engine.diagnostics().size())
    str_append(out, "... and ", engine.error_count() - engine.diagnostics().size(), " more errors\n");
  return out;
}

}  // namespace ppy::frontend
