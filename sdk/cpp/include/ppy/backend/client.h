#pragma once
/// A minimal synchronous client of the Backend service: for the SDK's tests, the
/// conformance runner and benchmarks. The driver's client (deadlines per call,
/// process supervision, E1905) lives in backend-host.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "ppy/backend/backend.h"
#include "ppy/backend/v1/backend.grpc.pb.h"

namespace ppy {

/// Everything one Invoke session answered.
struct InvokeResult {
  struct File {
    std::string path;
    std::string data;
    bool binary = false;      ///< artifacts: what the backend answered
    bool executable = false;  ///< build files
  };
  std::vector<std::string> notes;
  std::vector<File> artifacts;  ///< path = the module's name (empty: the program)
  std::vector<File> files;      ///< build files, path relative to the output dir
  std::vector<std::unique_ptr<ir::Module>> modules;  ///< returned after the passes
  std::optional<backend::v1::Finished> finished;
  std::optional<backend::v1::BackendError> error;
  /// The last step the backend said began (report_steps), or empty. With
  /// await_steps the backend begins a step only after its Step was read here
  /// (each is answered StepSeen), so this is the step it was in, however it ended.
  std::string step;
};

/// Why a session's stream ended without a final answer: the transport failed
/// (gRPC's status), or what came on it was not the protocol.
struct InvokeFailure {
  enum class Kind { Transport, Protocol };
  Kind kind = Kind::Transport;
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;  ///< Transport: gRPC's code
  std::string step;  ///< the last step the backend said began (see InvokeResult::step), or empty
};
/// A status carrying `failure`, with `message` (gRPC's words, or what broke).
absl::Status invoke_failure(const InvokeFailure& failure, std::string_view message);
/// The failure a status carries, if `invoke_failure` made it.
std::optional<InvokeFailure> invoke_failure_of(const absl::Status& status);

/// How invoke() writes its request.
struct InvokeOptions {
  /// Write the header and the modules on the calling thread, then read the
  /// answers, instead of writing on a thread of its own while reading: no
  /// thread to start and hand the stream to, what a call to a helper on a
  /// socket can use (a backend that refuses before it has read the modules
  /// ends the call, and the write under way fails). Not for an in-process
  /// channel, whose write waits for a read that never comes, nor with
  /// `await_steps` (each Step is answered while the modules may still go).
  bool write_inline = false;
};

/// Runs one session: sends `header` (its `modules` list is filled from
/// `modules` when empty), then each module serialized in chunks, and collects
/// the answers. A transport or protocol failure is the error, an
/// InvokeFailure; a backend's refusal is `InvokeResult::error`. With
/// `header.await_steps` each Step is answered StepSeen as it is read.
absl::StatusOr<InvokeResult> invoke(backend::v1::Backend::StubInterface& stub,
                                    grpc::ClientContext& context,
                                    backend::v1::InvokeHeader header, ModuleList modules,
                                    InvokeOptions options = {});

}  // namespace ppy
