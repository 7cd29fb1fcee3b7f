#pragma once
/// The gRPC side of `ppy::serve`, for the driver's client, tests and benchmarks
/// that serve a backend in their own process. Not installed with the SDK: a
/// vendor's backend needs only `ppy/backend/serve.h`.

#include <memory>
#include <string>

#include "grpcpp/grpcpp.h"
#include "ppy/backend/backend.h"
#include "ppy/backend/serve.h"
#include "ppy/backend/service.h"

namespace ppy {

/// Client channel arguments for talking to a backend: no message size limit,
/// no retries, a private subchannel. The driver's client should start from these.
grpc::ChannelArguments backend_channel_arguments();

/// Applies the server settings `serve` uses (no message size limit, a small
/// sync thread pool bounded by `max_threads`).
void configure_server_builder(grpc::ServerBuilder& builder, int max_threads);

/// Readies the socket a driver handed over (`--fd`) for gRPC: non-blocking,
/// as gRPC wants it, and not leaked to children. False, with a line on stderr
/// naming `prog`, when `fd` is not an open descriptor.
[[nodiscard]] bool adopt_inherited_socket(const char* prog, int fd);

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread started
/// after (call it before any), ignores SIGPIPE, and answers a signalfd that
/// reads the blocked ones (-1 when none could be made): how a server, backend
/// or plugin, stops cleanly on a signal instead of dying mid-answer.
[[nodiscard]] int block_stop_signals();

/// What a server leaves when it ends: closes `watch_fd` and `signal_fd` (each
/// -1 when it has none) and removes its socket file `socket` (empty: none).
void release_server_files(int watch_fd, int signal_fd, const std::string& socket);

/// A backend served in this process, reachable through `channel` exactly as a
/// helper is through its socket: same service, same messages.
struct InProcessBackend {
  std::unique_ptr<BackendService> service;
  std::unique_ptr<grpc::Server> server;
  std::shared_ptr<grpc::Channel> channel;

  InProcessBackend() = default;
  InProcessBackend(const InProcessBackend&) = delete;
  ~InProcessBackend();
};

/// How much of gRPC's own logging a process shows.
enum class GrpcLog { Off, Error, Info, Debug };

/// The environment variable that asks for gRPC's log lines: `error` (or `1`),
/// `info`, `debug`; `off` (or `0`, or empty) for none.
inline constexpr char kGrpcLogEnv[] = "PPY_GRPC_LOG";

/// Routes gRPC's log lines (gpr_set_log_function) through ppy's: shown on
/// stderr as `grpc (ERROR file:line): message` only at the level PPY_GRPC_LOG
/// asks for, else at `unset` (the driver and a spawned helper: Off, so that
/// gRPC's `E1203 ... Handshake failed` never passes for a ppy error code and a
/// helper's stderr tail keeps the backend's own words; a --listen server:
/// Error, its operator's log). Read at each line, so a test may change it.
/// Idempotent; the first call's `unset` stands.
void route_grpc_logging(GrpcLog unset = GrpcLog::Off);

/// The level PPY_GRPC_LOG asks for, `unset` when it is not set or not a level.
GrpcLog grpc_log_level(GrpcLog unset);

std::unique_ptr<InProcessBackend> serve_in_process(BackendFactory factory,
                                                   ServiceOptions options = {});

}  // namespace ppy
