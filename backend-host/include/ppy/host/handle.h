#pragma once
/// The driver's handle on a backend. The driver never talks to a concrete
/// backend: it holds a BackendHandle, implemented twice with one contract —
/// `connect_backend` (an installed backend over gRPC: a helper process spawned
/// on a socket pair, or a remote `endpoint` with TLS) and `in_process_backend`
/// (a `ppy::Backend` linked into the driver: builtins, tests). The same
/// conformance tests run against both.
///
/// Error model (E-codes from the contract, messages in the reference's words):
///   E1903  loading: unknown name, duplicates (discovery), failure to start, a
///          crash or garbage at the handshake (with the helper's output tail),
///          not serving the Backend service, a wrong or missing API version;
///   E1802  a pass registered at a stage other than `backend`; a validation
///          refusal (`backend 'toy' cannot take X at LOC (needs CAP)`); an answer
///          of the wrong type; a format the backend does not emit;
///   E1904  a backend pass that left the IR invalid or failed (the pass named);
///   E1801  the toolchain is missing here;
///   E1905  the helper crashed (signal), exited, timed out or broke the
///          protocol during a call: backend, call, cause and its output tail.
/// The driver survives every one of them.

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/backend/session.h"
#include "ppy/host/discovery.h"
#include "ppy/host/process.h"
#include "ppy/host/sandbox.h"
#include "ppy/host/settings.h"

namespace grpc {
class Channel;
}

namespace ppy::host {

/// Who a backend is, as its handshake says (checked before a handle exists).
struct BackendInfo {
  std::string name;
  std::optional<int> api_version;  ///< as declared; checked to be kBackendApiVersion
  /// The distribution and version: the manifest's for an installed backend
  /// (the authority, and part of the cache key); empty for a builtin.
  std::string distribution;
  std::string version;
  std::string origin;  ///< `<dist> <ver> (<manifest>)`, or `builtin`
  std::vector<EmitFormat> formats;
  std::vector<PassInfo> passes;
  std::string fingerprint;
  ToolchainStatus toolchain;
  std::string sdk;  ///< the SDK that served it (informative)

  const EmitFormat* format(std::string_view name) const;
};

/// One request: the backend stage's passes, validate, then emit / emit a
/// program / build, over modules sent once (a SessionRequest, with what it
/// works on). Both hostings run it through the SDK's session engine
/// (`ppy/backend/session.h`): in this process, or in the helper.
struct Invocation : SessionRequest {
  using Action = SessionAction;
  /// Every field the contract lists; `identity` is per module name.
  const BackendContext* context = nullptr;
  std::vector<const ir::Module*> modules;
};

/// What one invocation answered.
struct InvocationResult {
  struct Artifact {
    std::string module;  ///< the module's name; empty for a program artifact
    std::string data;    ///< text (UTF-8) or bytes, as the format says
    bool binary = false;
  };
  std::vector<std::string> notes;
  std::vector<Artifact> artifacts;
  /// Build: the files the backend built, as bytes, each path checked to be
  /// relative and inside the build's folder. Nothing is written here: the
  /// driver writes them once (into the cache, and under `-o`).
  std::vector<BuildFile> files;
  /// Build: BuildResult.outputs, relative to the build's folder; each names a
  /// file in `files`, or a folder some of them lie in.
  std::vector<std::string> outputs;
  /// The modules after the backend's passes (return_modules).
  std::vector<std::unique_ptr<ir::Module>> modules;
  std::vector<PassRun> passes;  ///< the passes that ran over the first module
  /// The server that answered a remote backend's call (its endpoint, as the
  /// manifest names it; behind a proxy, the proxy): a farm's calls spread over
  /// several, and the build says which made its modules. Empty for a helper.
  std::string server;
};

class BackendHandle {
 public:
  virtual ~BackendHandle() = default;

  /// The handshake's answer (already checked).
  virtual const BackendInfo& info() const = 0;
  /// `fingerprint()`, asked again (the handshake's is in info()).
  virtual absl::StatusOr<std::string> fingerprint() = 0;
  virtual absl::StatusOr<ToolchainStatus> toolchain_status() = 0;
  /// One session; see Invocation. A refusal is a coded error (E1802, E1904,
  /// E1801); a failing helper is E1905.
  virtual absl::StatusOr<InvocationResult> invoke(const Invocation& request) = 0;
  /// Cancels the calls in flight (from another thread); they fail E1905.
  virtual void cancel() {}
  /// The sandbox the helper runs in (Off for in-process and remote servers).
  virtual SandboxReport sandbox() const { return {}; }
  /// The helper process, when this handle spawned one (tests, `ppy doctor`).
  virtual BackendProcess* process() { return nullptr; }
  /// The channel the calls go over (a helper's or an endpoint's), for tools
  /// that speak the protocol themselves (`ppy conformance`); null in-process.
  virtual std::shared_ptr<grpc::Channel> channel() const { return nullptr; }
};

/// E1801 `backend 'x' is unavailable here: <detail>` when the toolchain is
/// missing and `format` (or a build, when null) needs it; OK otherwise. The
/// driver calls it before any analysis.
absl::Status require_toolchain(const BackendInfo& info, const EmitFormat* format);

/// How to reach an installed backend.
struct ConnectOptions {
  /// Manifest settings already merged with the project's table and the command
  /// line (`HostSettings::merge_from`); the entry's own are used when unset.
  std::optional<HostSettings> settings;
  /// The backend's table (`[tool.ppy.backends.NAME]`), handed to its factory.
  Options options;
  /// Overrides the manifest's `connection` (tests); unset: the entry's.
  std::optional<ProcessOptions::Connection> connection;
  std::filesystem::path temp_root;  ///< for the helper's private folder
  EnvLookup env;                    ///< default: this process's environment
  std::vector<std::string> extra_env;  ///< `NAME=value` for the helper (tests)
  SandboxPolicy* sandbox_override = nullptr;  ///< tests: the exact policy
};

/// Spawns (or connects to) the backend `entry` describes and shakes hands.
/// Every failure is E1903 with the contract's meaning; a pass at another stage
/// is E1802.
absl::StatusOr<std::unique_ptr<BackendHandle>> connect_backend(const BackendEntry& entry,
                                                              const ConnectOptions& options = {});

/// A backend hosted in this process. `builtin` backends need no declared API
/// version and carry no distribution; others are checked as a helper is.
struct InProcessOptions {
  bool builtin = true;
  std::string distribution, version, origin;
};
absl::StatusOr<std::unique_ptr<BackendHandle>> in_process_backend(std::shared_ptr<const Backend> backend,
                                                                 InProcessOptions options = {});

}  // namespace ppy::host
