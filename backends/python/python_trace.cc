// Tracebacks of the Python backend's programs (issue 34, docs/runtime.md
// "Tracebacks"): the generated text stays as it is; beside it, a table maps
// each generated line to the source line it was written for, each function to
// the frame python3 would print for the original (ppy/ir/trace.h), and the
// module to its source file. `ppy run --backend python` installs a hook that
// rewrites an uncaught exception's traceback through those tables, so its
// frames name the user's file, lines and functions, not generated helpers.
#include <algorithm>

#include "ppy/backends/python_backend.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "python_writer.h"

namespace ppy::backends {
namespace python {

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += str_cat("\\u00", "0123456789abcdef"[(c >> 4) & 15], "0123456789abcdef"[c & 15]);
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

void ModuleWriter::trace_mark() {
  // Lines dropped since (an empty `else:` taken back) leave their marks behind.
  while (!marks_.empty() && marks_.back().first >= out_.size()) marks_.pop_back();
  if (src_line_) marks_.emplace_back(out_.size(), src_line_);
}

void ModuleWriter::trace_function_text(size_t shift) {
  text_marks_.clear();
  for (auto& [at, line] : marks_)
    if (at < out_.size()) text_marks_.emplace_back(at + shift, line);
  marks_.clear();
  src_line_ = 0;
}

void ModuleWriter::trace_function(const ir::Function& f, size_t offset) {
  for (auto& [at, line] : text_marks_) body_marks_.emplace_back(at + offset, line);
  text_marks_.clear();
  trace_functions_.push_back(
      {fn_names_.at(f.name()), ir::trace_frame_name(f), ir::trace_role(f), ir::trace_comprehensions(f)});
  if (trace_file_.empty() && f.loc() && f.loc()->file) trace_file_ = *f.loc()->file;
}

void ModuleWriter::trace_module(const std::string& out, size_t body_at) {
  generated_lines_.clear();
  size_t at = 0;
  int64_t line = 1;
  for (auto& [offset, src] : body_marks_) {
    size_t target = body_at + offset;
    if (target > out.size()) continue;
    line += std::count(out.begin() + static_cast<std::ptrdiff_t>(at), out.begin() + static_cast<std::ptrdiff_t>(target),
                       '\n');
    at = target;
    generated_lines_.emplace_back(line, src);
  }
}

std::string ModuleWriter::trace_table() const {
  std::string lines, functions;
  for (auto& [g, s] : generated_lines_) str_append(lines, lines.empty() ? "" : ", ", "\"", g, "\": ", s);
  for (auto& f : trace_functions_) {
    const char* role = f.role == ir::TraceRole::kOwns ? "owns" : f.role == ir::TraceRole::kBorrows ? "borrows" : "none";
    std::string comps;  // [[name, line, parent], ...] where it has comprehensions (ppy/ir/trace.h)
    for (const ir::TraceComprehension& c : f.comps)
      str_append(comps, comps.empty() ? ", [" : ", ", "[", json_string(c.name), ", ", c.line, ", ", c.parent, "]");
    if (!comps.empty()) comps += "]";
    str_append(functions, functions.empty() ? "" : ", ", json_string(f.py_name), ": [", json_string(f.frame_name),
               ", \"", role, "\"", comps, "]");
  }
  return str_cat("{\"file\": ", json_string(trace_file_), ", \"lines\": {", lines, "}, \"functions\": {", functions,
                 "}}\n");
}

}  // namespace python

absl::StatusOr<std::pair<std::string, std::string>> python_source_traced(const ir::Module& module) {
  python::ModuleWriter w(module);
  PPY_ASSIGN_OR_RETURN(std::string text, w.run());
  return std::make_pair(std::move(text), w.trace_table());
}

}  // namespace ppy::backends
