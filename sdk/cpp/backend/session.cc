#include "ppy/backend/session.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "absl/strings/cord.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace fs = std::filesystem;

namespace {

/// The status payload that carries a session's refusal: `<kind>\x1f<module>\x1f<pass>`.
constexpr char kSessionPayload[] = "type.ppy.dev/ppy.backend.SessionError";
constexpr char kSep = '\x1f';

/// A failed status from the backend's own code, as the protocol tells it.
absl::Status from_backend(const absl::Status& s, const std::string& module) {
  if (validation_error_of(s)) {
    absl::Status out = session_error({SessionFailure::Validation, module, {}}, error_text(s));
    s.ForEachPayload([&](absl::string_view url, const absl::Cord& payload) {
      if (url != kSessionPayload) out.SetPayload(url, payload);
    });
    return out;
  }
  if (std::optional<SessionError> e = session_error_of(s)) {  // already a session's answer
    if (e->module.empty()) e->module = module;
    return session_error(*e, error_text(s));
  }
  const std::string code = error_code(s);
  // A request the backend refuses (flags it cannot combine: --sanitize thread,
  // --standalone with --library) is the caller's error, E1002, not a failure.
  if (code == "E1002") return s;
  SessionFailure kind = SessionFailure::Internal;
  if (s.code() == absl::StatusCode::kUnimplemented || code == "E1802") kind = SessionFailure::Unsupported;
  else if (code == "E1801") kind = SessionFailure::Toolchain;
  return session_error({kind, module, {}}, error_text(s));
}

absl::Status went_away() { return absl::CancelledError("the caller cancelled the session"); }

/// The format `request` asks for, checked against its action's scope.
absl::StatusOr<std::optional<EmitFormat>> format_of(const Backend& backend, const SessionRequest& request) {
  if (request.action != SessionAction::Emit && request.action != SessionAction::EmitProgram) return std::nullopt;
  std::optional<EmitFormat> format;
  for (EmitFormat& f : backend.emit_formats())
    if (f.name == request.format) format = std::move(f);
  if (!format)
    return session_error({SessionFailure::Unsupported},
                         str_cat("backend '", backend.name(), "' does not emit '", request.format, "'"));
  const bool program = request.action == SessionAction::EmitProgram;
  if (program != (format->scope == EmitScope::Program))
    return session_error({SessionFailure::Unsupported},
                         str_cat("the format '", format->name, "' of backend '", backend.name(), "' is ",
                                 program ? "module" : "program", "-scoped: ask for it through ",
                                 program ? "emit" : "emit_program"));
  return format;
}

/// Checks an artifact's type against its format and hands it on.
absl::Status answer(const Backend& backend, absl::StatusOr<Artifact> a, const EmitFormat& format,
                    const std::string& module, SessionSink& sink) {
  if (!a.ok()) return from_backend(a.status(), module);
  const bool binary = std::holds_alternative<Bytes>(*a);
  if (binary != format.binary)
    return session_error({SessionFailure::TypeMismatch, module, {}},
                         str_cat("backend '", backend.name(), "' answered ", binary ? "bytes" : "text", " for '",
                                 format.name, "', a ", format.binary ? "binary" : "text", " format"));
  return sink.artifact(module, std::move(*a));
}

/// A fresh folder under `parent` for one build (or one emit_program's scratch),
/// removed with this object.
class BuildDir {
 public:
  ~BuildDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  absl::Status make(const fs::path& parent) {
    std::string tmpl = (parent / "ppy-build-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      return session_error({SessionFailure::Internal},
                           str_cat("cannot make a build folder under ", parent.string(), ": ", std::strerror(errno)));
    path_ = tmpl;
    return absl::OkStatus();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// Runs the build into a fresh folder and hands every regular file it left to
/// the sink, in path order; answers BuildResult.outputs, relative.
absl::StatusOr<std::vector<std::string>> build(const Backend& backend, ModuleList modules, BackendContext& context,
                                               SessionSink& sink, const fs::path& scratch) {
  BuildDir dir;
  PPY_RETURN_IF_ERROR(dir.make(scratch.empty() ? fs::temp_directory_path() : scratch));
  absl::StatusOr<BuildResult> r = backend.build(modules, dir.path(), context);
  if (!r.ok()) return from_backend(r.status(), {});

  std::vector<std::string> outputs;
  for (const fs::path& out : r->outputs) {
    fs::path p = out.is_absolute() ? out.lexically_relative(dir.path()) : out;
    std::string rel = p.lexically_normal().generic_string();
    if (rel.empty() || rel == "." || rel.starts_with("..") || p.is_absolute())
      return session_error({SessionFailure::Internal}, str_cat("backend '", backend.name(), "' reports output ",
                                                               out.string(), ", outside the folder it was given"));
    outputs.push_back(std::move(rel));
  }

  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir.path(), ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(it->path());
  if (ec) return session_error({SessionFailure::Internal}, str_cat("cannot list the build folder: ", ec.message()));
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    if (sink.cancelled()) return went_away();
    BuildFile file;
    file.path = f.lexically_relative(dir.path()).generic_string();
    absl::StatusOr<std::string> data = read_file(f);
    if (!data.ok()) return session_error({SessionFailure::Internal}, std::string(data.status().message()));
    file.data = std::move(*data);
    file.executable = is_executable(f);
    PPY_RETURN_IF_ERROR(sink.file(std::move(file)));
  }
  return outputs;
}

}  // namespace

std::string_view step_name(SessionStep step) {
  switch (step) {
    case SessionStep::Passes: return "passes";
    case SessionStep::Validate: return "validate";
    case SessionStep::Emit: return "emit";
    case SessionStep::EmitProgram: return "emit_program";
    case SessionStep::Build: return "build";
  }
  return "session";
}

std::string_view error_code_for(SessionFailure kind) {
  switch (kind) {
    case SessionFailure::Validation:
    case SessionFailure::PassStage:
    case SessionFailure::TypeMismatch:
    case SessionFailure::Unsupported: return "E1802";
    case SessionFailure::PassBrokeIr:
    case SessionFailure::PassFailed: return "E1904";
    case SessionFailure::Toolchain: return "E1801";
    case SessionFailure::BadModule:
    case SessionFailure::Internal: return "E1905";
  }
  return "E1905";
}

absl::Status session_error(const SessionError& error, std::string_view message) {
  absl::Status s = coded_error(error_code_for(error.kind), message);
  s.SetPayload(kSessionPayload,
               absl::Cord(str_cat(static_cast<int>(error.kind), kSep, error.module, kSep, error.pass)));
  return s;
}

std::optional<SessionError> session_error_of(const absl::Status& status) {
  auto payload = status.GetPayload(kSessionPayload);
  if (!payload) return std::nullopt;
  std::string text(*payload);
  size_t a = text.find(kSep), b = a == std::string::npos ? a : text.find(kSep, a + 1);
  if (b == std::string::npos) return std::nullopt;
  int kind = std::atoi(text.substr(0, a).c_str());
  if (kind < 0 || kind > static_cast<int>(SessionFailure::Internal)) return std::nullopt;
  return SessionError{static_cast<SessionFailure>(kind), text.substr(a + 1, b - a - 1), text.substr(b + 1)};
}

absl::StatusOr<SessionResult> run_session(const Backend& backend, const SessionRequest& request,
                                          BackendContext& context, SessionModules& modules,
                                          const ModuleSource& read, SessionSink& sink,
                                          const SessionOptions& options) {
  // The checks that need no module, before anything large is read.
  PPY_ASSIGN_OR_RETURN(std::optional<EmitFormat> format, format_of(backend, request));
  // The toolchain: a build always needs it, a format unless it says otherwise.
  if (request.action == SessionAction::Build || (format && format->requires_toolchain)) {
    ToolchainStatus t = backend.toolchain_status();
    if (!t.available)
      return session_error({SessionFailure::Toolchain},
                           str_cat("backend '", backend.name(), "' is unavailable here: ", t.detail));
  }
  if (read) PPY_RETURN_IF_ERROR(read(modules));
  std::vector<const ir::Module*>& list = modules.modules;

  SessionResult result;
  if (request.run_passes) {
    BackendPassRegistrar registrar;
    backend.register_passes(registrar);
    if (!registrar.factories().empty()) sink.step(SessionStep::Passes);
    for (size_t i = 0; i < list.size() && !registrar.factories().empty(); ++i) {
      if (sink.cancelled()) return went_away();
      // The backend acts on its own copy: the caller's modules stay as they were.
      if (modules.owned.size() <= i) modules.owned.resize(list.size());
      if (!modules.owned[i]) modules.owned[i] = ir::clone(*list[i]);
      ir::Module& m = *modules.owned[i];
      list[i] = &m;
      PassFailure failure;
      absl::StatusOr<std::vector<PassRun>> runs = run_backend_passes(backend, m, context, &failure);
      if (!runs.ok()) {
        SessionFailure kind = failure.broke_ir                     ? SessionFailure::PassBrokeIr
                              : !failure.pass.empty()              ? SessionFailure::PassFailed
                              : error_code(runs.status()) == "E1802" ? SessionFailure::PassStage
                                                                     : SessionFailure::Internal;
        return session_error({kind, m.name(), failure.pass}, error_text(runs.status()));
      }
      if (i == 0) result.passes = std::move(*runs);
    }
  }
  if (request.return_modules)
    for (size_t i = 0; i < list.size(); ++i) PPY_RETURN_IF_ERROR(sink.module(i, *list[i]));
  if (request.validate || request.action == SessionAction::Validate) {
    sink.step(SessionStep::Validate);
    for (const ir::Module* m : list)
      if (absl::Status v = backend.validate(*m, context); !v.ok()) return from_backend(v, m->name());
  }
  if (sink.cancelled()) return went_away();

  switch (request.action) {
    case SessionAction::Validate: break;
    case SessionAction::Emit:
      sink.step(SessionStep::Emit);
      for (const ir::Module* m : list)
        PPY_RETURN_IF_ERROR(answer(backend, backend.emit(*m, *format, context), *format, m->name(), sink));
      break;
    case SessionAction::EmitProgram: {
      sink.step(SessionStep::EmitProgram);
      BuildDir scratch;
      PPY_RETURN_IF_ERROR(scratch.make(options.scratch_dir.empty() ? fs::temp_directory_path() : options.scratch_dir));
      context.scratch = scratch.path();
      absl::StatusOr<Artifact> a = backend.emit_program(list, *format, context);
      context.scratch.clear();
      PPY_RETURN_IF_ERROR(answer(backend, std::move(a), *format, {}, sink));
      break;
    }
    case SessionAction::Build: {
      sink.step(SessionStep::Build);
      PPY_ASSIGN_OR_RETURN(result.outputs, build(backend, list, context, sink, options.scratch_dir));
      break;
    }
  }
  return result;
}

}  // namespace ppy
