#include "ppy/backend/plugin_service.h"

#include <exception>

#include "ppy/backend/wire.h"
#include "ppy/ir/open_dialect.h"
#include "ppy/ir/proto.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace v1 = ::ppy::backend::v1;

void describe_plugin(const Plugin& plugin, v1::PluginHandshakeResponse& out) {
  out.set_name(std::string(plugin.name()));
  if (std::optional<int> v = plugin.api_version()) out.set_api_version(*v);
  const Distribution dist = plugin.distribution();
  out.set_distribution(dist.name);
  out.set_distribution_version(dist.version);
  for (const PassInfo& p : describe_passes(plugin)) {
    v1::PassInfo* info = out.add_passes();
    info->set_name(p.name);
    info->set_stage(p.stage);
  }
  out.set_fingerprint(plugin.fingerprint());
  out.set_sdk(std::string(kSdkVersion));
}

absl::StatusOr<std::shared_ptr<const Plugin>> PluginService::instance(const Options& options) {
  const std::string key = wire::options_key(options);
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = instances_.find(key); it != instances_.end()) return it->second;
  std::unique_ptr<Plugin> made;
  try {
    made = factory_(options);
  } catch (const std::exception& e) {
    return absl::FailedPreconditionError(str_cat("the plugin could not be made: ", e.what()));
  }
  if (!made) return absl::FailedPreconditionError("the plugin's factory answered no plugin");
  std::shared_ptr<const Plugin> shared = std::move(made);
  instances_[key] = shared;
  return shared;
}

grpc::Status PluginService::Handshake(grpc::ServerContext*, const v1::PluginHandshakeRequest* req,
                                      v1::PluginHandshakeResponse* resp) {
  absl::StatusOr<std::shared_ptr<const Plugin>> p = instance(wire::options_from_proto(req->options()));
  if (!p.ok()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, std::string(p.status().message()));
  describe_plugin(**p, *resp);
  return grpc::Status::OK;
}

grpc::Status PluginService::RunPass(grpc::ServerContext*, const v1::RunPassRequest* req, v1::RunPassResponse* resp) {
  absl::StatusOr<std::shared_ptr<const Plugin>> p = instance(wire::options_from_proto(req->options()));
  if (!p.ok()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, std::string(p.status().message()));
  PluginPassRegistrar registrar;
  (*p)->register_passes(registrar);
  std::unique_ptr<ir::Pass> pass;
  for (const auto& e : registrar.entries()) {
    if (ir::stage_name(e.stage) != req->stage() || !e.factory) continue;
    std::unique_ptr<ir::Pass> candidate = e.factory();
    if (candidate && candidate->name() == req->pass()) {
      pass = std::move(candidate);
      break;
    }
  }
  if (!pass)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, str_cat("plugin '", (*p)->name(), "' has no pass '",
                                                                    req->pass(), "' at stage '", req->stage(), "'"));
  // plugins: a module using plugins' dialects (open) reads against them.
  absl::StatusOr<std::unique_ptr<ir::Module>> module = ir::from_proto(req->module(), ir::registry_for(req->module()));
  if (!module.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(module.status().message()));
  ir::PassContext ctx;
  ctx.opt_level = req->opt_level();
  absl::StatusOr<bool> changed;
  try {
    changed = pass->run_on_module(**module, ctx);
  } catch (const std::exception& e) {
    changed = absl::InternalError(str_cat("it threw: ", e.what()));
  }
  if (!changed.ok()) {
    resp->mutable_error()->set_message(std::string(changed.status().message()));
    return grpc::Status::OK;
  }
  resp->set_changed(*changed);
  if (*changed) ir::to_proto(**module, *resp->mutable_module());
  return grpc::Status::OK;
}

grpc::Status PluginService::Shutdown(grpc::ServerContext*, const v1::ShutdownRequest*, v1::ShutdownResponse*) {
  if (on_shutdown_) on_shutdown_();
  return grpc::Status::OK;
}

}  // namespace ppy
