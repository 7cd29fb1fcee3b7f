#pragma once
/// One invocation of a backend, written once for both hostings (one
/// interface, two hostings): the gRPC service (`ppy::serve`) adapts a stream to
/// it, and the driver's in-process handle calls it directly. What a session does,
/// in order: the checks that need no module (the format and its scope, the
/// toolchain), then reading the modules, the backend stage's passes with
/// verification after each, the modules sent back (if asked), validate, and
/// emit / emit_program / build with the answer's type checked. Everything a
/// session answers goes to a SessionSink; a refusal is a status made by
/// `session_error`, which says what the protocol's BackendError says.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"

namespace ppy {

/// What a session ends with.
enum class SessionAction {
  Validate,     ///< the passes (if asked) and validate only
  Emit,         ///< emit(format) per module: a module-scoped format
  EmitProgram,  ///< emit_program(format) once: a program-scoped format
  Build,        ///< build(modules, a fresh folder); its files come back as bytes
};

/// A step of a session, told to the sink as it begins, so that a failure of the
/// process running it (a crash, an exception) names the step, not the action.
enum class SessionStep { Passes, Validate, Emit, EmitProgram, Build };
/// `passes`, `validate`, `emit`, `emit_program`, `build`: the contract's names.
std::string_view step_name(SessionStep step);

/// One request, as the protocol's InvokeHeader says it (without the modules).
struct SessionRequest {
  SessionAction action = SessionAction::Validate;
  std::string format;          ///< Emit, EmitProgram: the format's name
  bool run_passes = true;      ///< the backend stage's passes first (verify-each)
  bool validate = true;        ///< validate() before emitting / building
  bool return_modules = false; ///< send each module back after the passes
};

/// A file a build wrote: its path relative to the build's folder (`/`-separated,
/// inside it) and its bytes.
struct BuildFile {
  std::string path;
  std::string data;
  bool executable = false;  ///< it had an execute bit
};

/// Where a session's answers go, in order. A status other than OK from a sink
/// ends the session with that status (the caller went away: Cancelled).
class SessionSink {
 public:
  virtual ~SessionSink() = default;
  /// `step` begins.
  virtual void step(SessionStep step) {}
  /// Module `index` after the backend's passes (`return_modules`).
  virtual absl::Status module(size_t index, const ir::Module& module) = 0;
  /// An artifact of the format asked for: `module` is the module's name, empty
  /// for a program's artifact. Its type has been checked against the format.
  virtual absl::Status artifact(std::string_view module, Artifact artifact) = 0;
  /// A file the build wrote, in path order.
  virtual absl::Status file(BuildFile file) = 0;
  /// Whether the caller has gone; asked between steps.
  virtual bool cancelled() const { return false; }
};

/// The modules a session works on, in the request's order.
struct SessionModules {
  std::vector<const ir::Module*> modules;
  /// Modules this session may change in place (those read off the wire), by
  /// index; empty for modules borrowed from the caller, which the passes run
  /// over copies of.
  std::vector<std::unique_ptr<ir::Module>> owned;
};

/// Reads the modules, once the checks that need none have passed (a refusal
/// then costs no transfer). A status made by `session_error` is the session's
/// answer; another ends the session with it (the stream broke).
using ModuleSource = std::function<absl::Status(SessionModules& out)>;

/// Where a session runs.
struct SessionOptions {
  /// Where a build gets its fresh folder (removed once its files are read).
  /// Empty: the system's temporary folder.
  std::filesystem::path scratch_dir;
};

/// What a session that succeeded answers besides what went to the sink.
struct SessionResult {
  std::vector<PassRun> passes;       ///< the passes that ran over the first module
  std::vector<std::string> outputs;  ///< Build: BuildResult.outputs, relative, normalised
};

/// Runs one session of `backend`. `context` is the caller's (its `on_note`
/// carries notes as they are made). `modules` holds the modules, or is filled by
/// `read` (when given) after the checks; the caller keeps them, to free them
/// where it likes.
absl::StatusOr<SessionResult> run_session(const Backend& backend, const SessionRequest& request,
                                          BackendContext& context, SessionModules& modules,
                                          const ModuleSource& read, SessionSink& sink,
                                          const SessionOptions& options = {});

/// Why a session refused or failed, as the protocol's BackendError.Code says.
enum class SessionFailure {
  Validation,    ///< validate() refused the IR                     (E1802)
  PassStage,     ///< a pass asked for a stage other than `backend` (E1802)
  PassBrokeIr,   ///< a backend pass left the IR invalid            (E1904)
  TypeMismatch,  ///< text answered for a binary format, or back    (E1802)
  Toolchain,     ///< the toolchain is missing here                 (E1801)
  Unsupported,   ///< no such format, wrong scope, does not build   (E1802)
  PassFailed,    ///< a backend pass returned an error              (E1904)
  BadModule,     ///< a module did not decode                       (E1905)
  Internal,      ///< anything else the backend reports             (E1905)
};
/// The E-code the contract gives `kind`.
std::string_view error_code_for(SessionFailure kind);

/// A session's refusal, typed: the kind, the module and pass concerned.
struct SessionError {
  SessionFailure kind = SessionFailure::Internal;
  std::string module;  ///< the module concerned, when one is
  std::string pass;    ///< PassBrokeIr, PassFailed, PassStage: the pass
};

/// A status carrying `error` (and the E-code its kind has) with `message`.
absl::Status session_error(const SessionError& error, std::string_view message);
/// The refusal a status carries, if `session_error` made it.
std::optional<SessionError> session_error_of(const absl::Status& status);

}  // namespace ppy
