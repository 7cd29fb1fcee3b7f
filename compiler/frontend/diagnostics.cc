// Collecting and rendering source diagnostics.
#include "ppy/frontend/diagnostics.h"

#include <algorithm>
#include <tuple>

#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

/// A source line longer than this is shown as a window around the caret.
constexpr size_t kWholeLine = 160;
/// Bytes shown on each side of the caret in that window.
constexpr size_t kWindowSide = 60;
/// A message longer than this (it may quote source) is cut.
constexpr size_t kMaxMessage = 400;

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The line shown under the header and the caret line under it, both escaped
/// and cut alike so the caret stays under its column.
void append_excerpt(std::string& out, std::string_view line, uint32_t col) {
  size_t caret = col > 0 ? col - 1 : 0;
  size_t from = 0, to = line.size();
  if (line.size() > kWholeLine) {
    size_t at = std::min(caret, line.size());
    from = at > kWindowSide ? at - kWindowSide : 0;
    to = std::min(line.size(), at + kWindowSide);
    while (from > 0 && continuation(line[from])) --from;
    while (to < line.size() && continuation(line[to])) ++to;
  }
  std::string shown, pad;
  if (from > 0) {
    shown = "...";
    pad = "   ";
  }
  for (size_t i = from; i < to;) {
    size_t before = shown.size();
    size_t next = escape_one(line, i, shown);
    if (i < caret) {
      // The caret keeps the line's tabs so it lines up under the column in a terminal;
      // anything else takes one column per character shown.
      if (line[i] == '\t') pad.push_back('\t');
      else pad.append(std::count_if(shown.begin() + static_cast<long>(before), shown.end(),
                                    [](char c) { return !continuation(c); }),
                      ' ');
    }
    i = next;
  }
  if (to < line.size()) shown += "...";
  str_append(out, "    ", shown, "\n    ", pad, "^\n");
}

}  // namespace

void DiagnosticEngine::error(std::string code, std::string file, uint32_t line, uint32_t col,
                             std::string message) {
  ++count_;
  ++per_file_[file];
  size_t& recorded = recorded_[file];
  if (recorded >= max_errors_per_file || diags_.size() >= max_errors) return;
  ++recorded;
  diags_.push_back({std::move(code), std::move(file), line, col, std::move(message)});
}

std::string render_diagnostic(const SourceDiagnostic& d, const std::string& source) {
  std::string_view message = d.message;
  std::string cut;
  if (message.size() > kMaxMessage) {
    cut = str_cat(message.substr(0, kMaxMessage), "...");
    message = cut;
  }
  std::string out = str_cat(escape_control(d.file), ":", d.line, ":", d.col, ": error[", d.code, "]: ",
                            escape_control(message), "\n");
  if (d.line == 0) return out;
  size_t start = 0;
  for (uint32_t l = 1; l < d.line; ++l) {
    size_t nl = source.find('\n', start);
    if (nl == std::string::npos) return out;
    start = nl + 1;
  }
  if (start > source.size()) return out;
  size_t end = source.find('\n', start);
  std::string_view line = std::string_view(source).substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  append_excerpt(out, line, d.col);
  return out;
}

std::vector<SourceDiagnostic> in_source_order(const DiagnosticEngine& engine) {
  std::vector<SourceDiagnostic> out = engine.diagnostics();
  std::map<std::string, size_t> file_rank;
  for (const auto& d : out) file_rank.emplace(d.file, file_rank.size());
  std::stable_sort(out.begin(), out.end(), [&](const SourceDiagnostic& a, const SourceDiagnostic& b) {
    return std::tuple(file_rank[a.file], a.line, a.col) < std::tuple(file_rank[b.file], b.line, b.col);
  });
  return out;
}

std::string render_diagnostics(const DiagnosticEngine& engine) {
  std::string out;
  std::map<std::string, size_t> shown;
  for (const auto& d : in_source_order(engine)) {
    ++shown[d.file];
    auto it = engine.sources().find(d.file);
    out += render_diagnostic(d, it == engine.sources().end() ? std::string() : it->second);
  }
  for (const auto& [file, count] : engine.counts())
    if (count > shown[file]) str_append(out, "... and ", count - shown[file], " more errors in ", escape_control(file), "\n");
  return out;
}

}  // namespace ppy::frontend
