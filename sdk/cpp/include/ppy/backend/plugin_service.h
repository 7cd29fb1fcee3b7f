#pragma once
/// The `ppy.backend.v1.Plugin` service over a `ppy::Plugin`: what `ppy::serve`
/// runs for a plugin, exposed so tests can serve a plugin in their own server.
/// Not installed: a vendor's plugin needs only `ppy/backend/serve.h`.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "ppy/backend/plugin.h"
#include "ppy/backend/v1/plugin.grpc.pb.h"

namespace ppy {

/// The handshake's answer for `plugin`: name, API version, distribution,
/// passes with their stages, fingerprint and the SDK.
void describe_plugin(const Plugin& plugin, backend::v1::PluginHandshakeResponse& out);

class PluginService final : public backend::v1::Plugin::Service {
 public:
  /// `on_shutdown`: called when a Shutdown call is honoured (a spawned plugin).
  PluginService(PluginFactory factory, std::function<void()> on_shutdown)
      : factory_(std::move(factory)), on_shutdown_(std::move(on_shutdown)) {}

  grpc::Status Handshake(grpc::ServerContext* ctx, const backend::v1::PluginHandshakeRequest* req,
                         backend::v1::PluginHandshakeResponse* resp) override;
  /// Runs the named pass over the module: INVALID_ARGUMENT for a pass or stage
  /// the handshake did not declare or a module that does not decode; a pass's
  /// own error is answered in `error` (the driver's E1902).
  grpc::Status RunPass(grpc::ServerContext* ctx, const backend::v1::RunPassRequest* req,
                       backend::v1::RunPassResponse* resp) override;
  grpc::Status Shutdown(grpc::ServerContext* ctx, const backend::v1::ShutdownRequest* req,
                        backend::v1::ShutdownResponse* resp) override;

 private:
  /// One plugin per distinct options table, made on first use.
  absl::StatusOr<std::shared_ptr<const ppy::Plugin>> instance(const Options& options);

  PluginFactory factory_;
  std::function<void()> on_shutdown_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const ppy::Plugin>> instances_;  // guarded by mu_
};

}  // namespace ppy
