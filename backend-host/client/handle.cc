#include "ppy/host/handle.h"

#include "internal.h"
#include "ppy/backend/api_version.h"
#include "ppy/util/error.h"
#include "ppy/util/escape.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::host {

const EmitFormat* BackendInfo::format(std::string_view name) const {
  for (const auto& f : formats)
    if (f.name == name) return &f;
  return nullptr;
}

absl::Status require_toolchain(const BackendInfo& info, const EmitFormat* format) {
  if (info.toolchain.available) return absl::OkStatus();
  if (format && !format->requires_toolchain) return absl::OkStatus();
  return coded_error("E1801", str_cat("backend '", info.name, "' is unavailable here: ", info.toolchain.detail));
}

namespace internal {
namespace {

/// Whether the build sent `output`: a file of that path, or files beneath it
/// when it names a folder.
bool produced(const std::vector<BuildFile>& files, std::string_view output) {
  for (const BuildFile& f : files) {
    std::string_view p = f.path;
    if (p == output || (p.size() > output.size() && p.starts_with(output) && p[output.size()] == '/')) return true;
  }
  return false;
}

}  // namespace

absl::Status check_info(const BackendInfo& info, std::string_view expected, bool builtin) {
  if (!expected.empty() && info.name != expected)
    return coded_error("E1903", str_cat("backend '", expected, "' (", info.origin, ") answered the handshake as '",
                                        info.name, "'"));
  if (!builtin) {
    if (!info.api_version)
      return coded_error("E1903",
                         str_cat("backend '", info.name, "' (", info.origin,
                                 ") does not declare the backend API version; declare it on the class as a literal "
                                 "-- `api_version = ",
                                 kBackendApiVersion, "` -- rather than inheriting it (with the C++ SDK: ",
                                 "`std::optional<int> api_version() const override { return ", kBackendApiVersion,
                                 "; }`)"));
    if (*info.api_version != kBackendApiVersion)
      return coded_error("E1903", str_cat("backend '", info.name, "' (", info.origin, ") declares backend API version ",
                                          *info.api_version, "; this compiler speaks version ", kBackendApiVersion,
                                          ". Upgrade the backend, or install a compiler that speaks version ",
                                          *info.api_version));
  }
  for (const auto& p : info.passes)
    if (p.stage != "backend")
      return coded_error("E1802", str_cat("backend '", info.name, "' registers a pass at the '", p.stage,
                                          "' stage: '", p.name,
                                          "' would shape the canonical IR every other backend receives; a backend "
                                          "reaches the `backend` stage and no other, and "
                                          "`BackendPassRegistrar.add(factory)` is how one is hung there"));
  return absl::OkStatus();
}

std::string from_backend(std::string_view text) { return escape_control(text); }

absl::Status from_backend(const absl::Status& s) {
  if (s.ok()) return s;
  absl::Status out(s.code(), escape_control(std::string(s.message())));
  s.ForEachPayload([&](auto url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

std::string tail_block(std::string_view tail) {
  if (tail.empty()) return {};
  std::string out = "\n  its last output:";
  size_t pos = 0;
  while (pos <= tail.size()) {
    size_t nl = tail.find('\n', pos);
    if (nl == std::string_view::npos) nl = tail.size();
    str_append(out, "\n  | ", escape_control(tail.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  return out;
}

absl::Status call_failure(const BackendInfo& info, std::string_view call, std::string_view cause,
                          std::string_view tail) {
  return coded_error("E1905", str_cat("backend '", info.name, "' (", info.origin, ") failed during ", call, ": ",
                                      cause, tail_block(tail)),
                     absl::StatusCode::kInternal);
}

std::string_view action_call(const Invocation& r) {
  switch (r.action) {
    case Invocation::Action::Validate: return r.run_passes ? "passes and validate" : "validate";
    case Invocation::Action::Emit: return "emit";
    case Invocation::Action::EmitProgram: return "emit_program";
    case Invocation::Action::Build: return "build";
  }
  return "invoke";
}

absl::Status from_session(const BackendInfo& info, std::string_view call, const absl::Status& s) {
  if (error_code(s) != "E1905") return s;
  return call_failure(info, call, str_cat("it reported: ", error_text(s)), {});
}

absl::Status take_build_files(const BackendInfo& info, std::vector<BuildFile> files,
                              std::vector<std::string> outputs, InvocationResult& out) {
  // Only what was sent is listed: an output naming nothing sent (a symlink,
  // which is never streamed, or a file that does not exist) is refused.
  for (const std::string& o : outputs) {
    PPY_RETURN_IF_ERROR(check_relative_path(info, o));
    if (!produced(files, o))
      return coded_error("E1802", str_cat("backend '", info.name, "' names '", from_backend(o),
                                          "' among its build outputs, but did not produce it: no such file "
                                          "came back from the build (a symlink is not sent, nor an empty folder)"));
  }
  for (const BuildFile& f : files) PPY_RETURN_IF_ERROR(check_relative_path(info, f.path));
  out.files = std::move(files);
  out.outputs = std::move(outputs);
  return absl::OkStatus();
}

absl::Status check_relative_path(const BackendInfo& info, std::string_view path) {
  bool bad = path.empty() || path.front() == '/' || path.find('\0') != std::string_view::npos;
  size_t pos = 0;
  while (!bad && pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(pos, slash - pos);
    if (part.empty() || part == "." || part == "..") bad = true;
    pos = slash + 1;
  }
  if (!bad) return absl::OkStatus();
  return coded_error("E1905", str_cat("backend '", info.name, "' (", info.origin, ") sent the build file '",
                                      from_backend(path),
                                      "', which is not a plain path inside the output folder"),
                     absl::StatusCode::kInternal);
}

}  // namespace internal
}  // namespace ppy::host
