#pragma once
/// The `ppy.backend.v1.Backend` service over a `ppy::Backend`: what `ppy::serve`
/// runs, exposed so a host can serve a backend in its own server (tests,
/// benchmarks, the in-process twin of a helper).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/backend/v1/backend.grpc.pb.h"

namespace ppy {

class ModuleReaper;

/// The initial metadata a `--listen` server's Invoke answers carry
/// (`send_identity`): the backend's handshake answer (a serialized
/// HandshakeResponse, without the toolchain's detail),
/// so a client reaching several servers through one balancer or proxy can
/// check that the one that answered is the backend it shook hands with.
inline constexpr char kIdentityMetadata[] = "ppy-backend-identity-bin";

/// The handshake's answer for `backend`: name, API version, distribution,
/// formats, passes, fingerprint, the SDK, and the toolchain when `toolchain`
/// (it may probe the machine, so each Invoke's identity leaves it out).
void describe_backend(const Backend& backend, backend::v1::HandshakeResponse& out, bool toolchain);

/// What one call was, for a server's log (one line per call).
struct CallRecord {
  std::string call;    ///< Handshake, Fingerprint, ToolchainStatus, Invoke, Shutdown
  std::string peer;    ///< the client, as gRPC names it (`ipv4:10.0.0.5:51234`)
  std::string action;  ///< Invoke: emit, emit_program, build, validate
  int modules = 0;     ///< Invoke: the modules it carried
  uint64_t bytes_in = 0, bytes_out = 0;  ///< the messages it read and wrote, serialized
  std::chrono::microseconds duration{0};
  /// `ok`; `refused:VALIDATION` (the backend's refusal, a BackendError code);
  /// else gRPC's code (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`, `CANCELLED`, ...).
  std::string outcome;
};

/// `call=Invoke peer=... action=build modules=50 bytes_in=N bytes_out=M ms=12.3 outcome=ok`:
/// one line, `key=value` words an operator can grep and a log shipper can split.
std::string log_line(const CallRecord& record);

struct ServiceOptions {
  /// Where each `build` gets its fresh output folder (removed after the files
  /// are streamed). Empty: the system's temporary folder. A spawned helper uses
  /// its working directory, the scratch folder the driver gave it.
  std::filesystem::path scratch_dir;
  /// Whether the Shutdown call is honoured (spawned helpers) or refused with
  /// PERMISSION_DENIED (a shared `--listen` server).
  bool allow_shutdown = false;
  /// Called after a Shutdown call has been answered (on the gRPC thread: it
  /// must only signal, never wait for the server).
  std::function<void()> on_shutdown;
  /// Distinct option tables kept alive at once; the oldest is dropped beyond.
  size_t max_instances = 16;
  /// Invoke sessions served at once (0: no bound); one more is refused with
  /// RESOURCE_EXHAUSTED, which a farm's driver takes as "try another server".
  int max_calls = 0;
  /// Told about each call as it ends (a `--listen` server logs it).
  std::function<void(const CallRecord&)> on_call;
  /// Whether each Invoke answer carries the backend's identity
  /// (kIdentityMetadata): a `--listen` server's clients may reach it through a
  /// balancer or a proxy; a spawned helper's one driver checked it at the
  /// handshake, and its calls are kept short.
  bool send_identity = false;
  /// A spawned helper's step file (wire::kStepFileName in the scratch folder the
  /// driver gave it), mapped at the first handshake when the driver made it: its
  /// sessions then store each step there before beginning it (records_steps), and
  /// the driver reads the step a crashed session was in with no message sent.
  std::filesystem::path step_file;
};

/// The synchronous gRPC service. Calls are independent: each names the options
/// that select (or create, through the factory) the backend instance.
class BackendService final : public ppy::backend::v1::Backend::Service {
 public:
  explicit BackendService(BackendFactory factory, ServiceOptions options = {});
  ~BackendService() override;

  grpc::Status Handshake(grpc::ServerContext* ctx, const backend::v1::HandshakeRequest* req,
                         backend::v1::HandshakeResponse* resp) override;
  grpc::Status Fingerprint(grpc::ServerContext* ctx, const backend::v1::FingerprintRequest* req,
                           backend::v1::FingerprintResponse* resp) override;
  grpc::Status ToolchainStatus(grpc::ServerContext* ctx,
                               const backend::v1::ToolchainStatusRequest* req,
                               backend::v1::ToolchainStatusResponse* resp) override;
  grpc::Status Invoke(grpc::ServerContext* ctx,
                      grpc::ServerReaderWriter<backend::v1::InvokeResponse,
                                               backend::v1::InvokeRequest>* stream) override;
  grpc::Status Shutdown(grpc::ServerContext* ctx, const backend::v1::ShutdownRequest* req,
                        backend::v1::ShutdownResponse* resp) override;

  /// The backend for this options table, made by the factory on first use. A
  /// factory that throws or answers null is FailedPrecondition with the reason.
  absl::StatusOr<std::shared_ptr<const Backend>> instance(const Options& options);

  /// Calls being served right now (Invoke sessions included).
  int active_calls() const { return active_.load(); }
  /// From now on every new call is refused with UNAVAILABLE (the server is
  /// draining: a farm's driver sends the call to another server); calls
  /// already running go on.
  void drain() { draining_ = true; }

 private:
  BackendFactory factory_;
  ServiceOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Backend>> instances_;
  std::vector<std::string> instance_order_;
  std::atomic<int> active_{0};
  std::atomic<int> invokes_{0};  ///< Invoke sessions running, for max_calls
  std::atomic<bool> draining_{false};
  std::unique_ptr<ModuleReaper> reaper_;  // frees what sessions leave, off their path
  /// The step file's words (options_.step_file), once mapped; null when there
  /// is none. Set once under mu_, then only read.
  std::atomic<uint64_t*> steps_{nullptr};
  bool steps_tried_ = false;  ///< guarded by mu_
  /// Maps the step file on the first call (later ones find it mapped or absent).
  uint64_t* step_words();
};

}  // namespace ppy
