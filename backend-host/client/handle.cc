#include "ppy/host/handle.h"

#include "internal.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::host {

const EmitFormat* BackendInfo::format(std::string_view name) const {
  for (const auto& f : formats)
    if (f.name == name) return &f;
  return nullptr;
}

std::string_view call_name(Call c) {
  switch (c) {
    case Call::Handshake: return "handshake";
    case Call::Fingerprint: return "fingerprint";
    case Call::Toolchain: return "toolchain_status";
    case Call::Passes: return "passes";
    case Call::Validate: return "validate";
    case Call::Emit: return "emit";
    case Call::EmitProgram: return "emit_program";
    case Call::Build: return "build";
  }
  return "call";
}

absl::Status require_toolchain(const BackendInfo& info, const EmitFormat* format) {
  if (info.toolchain.available) return absl::OkStatus();
  if (format && !format->requires_toolchain) return absl::OkStatus();
  return coded_error("E1801", str_cat("backend '", info.name, "' is unavailable here: ", info.toolchain.detail));
}

namespace internal {

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

std::string tail_block(std::string_view tail) {
  if (tail.empty()) return {};
  std::string out = "\n  its last output:";
  size_t pos = 0;
  while (pos <= tail.size()) {
    size_t nl = tail.find('\n', pos);
    if (nl == std::string_view::npos) nl = tail.size();
    str_append(out, "\n  | ", tail.substr(pos, nl - pos));
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

absl::StatusOr<const EmitFormat*> format_for(const BackendInfo& info, const Invocation& r) {
  const EmitFormat* f = info.format(r.format);
  if (!f) return coded_error("E1802", str_cat("backend '", info.name, "' does not emit '", r.format, "'"));
  const bool program = r.action == Invocation::Action::EmitProgram;
  if (program != (f->scope == EmitScope::Program))
    return coded_error("E1802", str_cat("the format '", f->name, "' of backend '", info.name, "' is ",
                                        program ? "module" : "program", "-scoped"));
  return f;
}

absl::Status check_artifact_type(const BackendInfo& info, const EmitFormat& format, bool binary) {
  if (binary == format.binary) return absl::OkStatus();
  return coded_error("E1802", str_cat("backend '", info.name, "' answered ", binary ? "bytes" : "text", " for '",
                                      format.name, "', a ", format.binary ? "binary" : "text", " format"));
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
  return coded_error("E1905", str_cat("backend '", info.name, "' (", info.origin, ") sent the build file '", path,
                                      "', which is not a plain path inside the output folder"),
                     absl::StatusCode::kInternal);
}

}  // namespace internal
}  // namespace ppy::host
