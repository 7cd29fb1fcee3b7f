#pragma once
/// The gRPC side of `ppy::serve`, for the driver's client, tests and benchmarks
/// that serve a backend in their own process. Not installed with the SDK: a
/// vendor's backend needs only `ppy/backend/serve.h`.

#include <memory>

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

std::unique_ptr<InProcessBackend> serve_in_process(BackendFactory factory,
                                                   ServiceOptions options = {});

}  // namespace ppy
