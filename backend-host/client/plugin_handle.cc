// The gRPC handle on a plugin helper: spawned as a backend helper is, watched
// the same way (exit_watch.h), each call under a deadline.

#include "ppy/host/plugin_handle.h"

#include <fcntl.h>
#include <signal.h>

#include <cstdlib>
#include <mutex>

#include "exit_watch.h"
#include "grpcpp/create_channel_posix.h"
#include "grpcpp/grpcpp.h"
#include "internal.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/v1/plugin.grpc.pb.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/open_dialect.h"
#include "ppy/ir/proto.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace v1 = ::ppy::backend::v1;
using namespace std::chrono_literals;

namespace ppy::host {

std::string PluginLaunch::origin() const {
  if (manifest.empty()) return executable.string();
  return str_cat(distribution, " ", version, " (", manifest.string(), ")");
}

PluginLaunch plugin_launch(const PluginEntry& entry, HostSettings settings) {
  PluginLaunch l;
  l.name = entry.name;
  l.distribution = entry.distribution;
  l.version = entry.version;
  l.manifest = entry.manifest;
  l.executable = entry.executable;
  l.real_executable = entry.real_executable;
  l.args = entry.args;
  l.settings = std::move(settings);
  return l;
}

absl::Status check_plugin_passes(const PluginInfo& info) {
  for (const PassInfo& p : info.passes) {
    std::optional<ir::Stage> stage = ir::parse_stage(p.stage);
    if (stage == ir::Stage::Backend)
      return coded_error("E1902", str_cat("plugin '", info.name, "' registers pass '", p.name,
                                          "' at the 'backend' stage, which belongs to the selected backend; a "
                                          "plugin's passes run from 'after-ir-generation' to 'before-backend'"));
    if (!stage)
      return coded_error("E1902", str_cat("plugin '", info.name, "' registers pass '", p.name, "' at '", p.stage,
                                          "', which is not a stage; a plugin's passes run from "
                                          "'after-ir-generation' to 'before-backend'"));
  }
  return absl::OkStatus();
}

namespace {

std::string who(const PluginInfo& info) { return str_cat("plugin '", info.name, "' (", info.origin, ")"); }

class RemotePluginHandle final : public PluginHandle {
 public:
  RemotePluginHandle(PluginInfo info, std::unique_ptr<BackendProcess> process,
                     std::unique_ptr<internal::ExitWatch> watch, std::shared_ptr<grpc::Channel> channel,
                     Deadlines deadlines, Options options)
      : info_(std::move(info)),
        process_(std::move(process)),
        watch_(std::move(watch)),
        channel_(std::move(channel)),
        stub_(v1::Plugin::NewStub(channel_)),
        deadlines_(deadlines) {
    wire::to_proto(options, options_);
  }
  ~RemotePluginHandle() override {
    watch_.reset();  // before the process whose pidfd it polls
    stub_.reset();
    channel_.reset();  // the plugin sees its socket close and exits
    process_->terminate();
  }

  const PluginInfo& info() const override { return info_; }
  BackendProcess* process() override { return process_.get(); }
  std::shared_ptr<grpc::Channel> channel() const override { return channel_; }

  absl::StatusOr<std::unique_ptr<ir::Module>> run_pass(const PassInfo& pass, const ir::Module& module,
                                                       int opt_level) override {
    const std::string call = str_cat("pass '", pass.name, "' (", pass.stage, ")");
    if (std::string gone = dead(); !gone.empty()) return failure_text(call, str_cat("it is gone: ", gone), {});
    v1::RunPassRequest req;
    req.set_pass(pass.name);
    req.set_stage(pass.stage);
    req.set_opt_level(opt_level);
    *req.mutable_options() = options_;
    ir::to_proto(module, *req.mutable_module());
    v1::RunPassResponse resp;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadlines_.validate);
    watch_->watch(&ctx);
    grpc::Status s = stub_->RunPass(&ctx, req, &resp);
    watch_->forget(&ctx);
    if (!s.ok()) return failure(call, s, deadlines_.validate);
    if (resp.has_error())
      return coded_error("E1902", str_cat("plugin pass '", pass.name, "' of ", who(info_),
                                          " failed: ", internal::from_backend(resp.error().message())));
    if (!resp.changed()) return std::unique_ptr<ir::Module>();
    // plugins: the module's own dialects read open; the pass manager then
    // verifies it against the driver's registry (a dialect no plugin registers fails there).
    absl::StatusOr<std::unique_ptr<ir::Module>> back = ir::from_proto(resp.module(), ir::registry_for(resp.module()));
    if (!back.ok())
      return failure_text(call,
                          str_cat("it broke the protocol: the module it answered does not decode (",
                                  internal::from_backend(std::string(back.status().message())), ")"),
                          process_->output_tail());
    return std::move(*back);
  }

  /// E1905 for a call that failed at the transport, saying why in the contract's words.
  absl::Status failure(std::string_view call, const grpc::Status& s, std::chrono::milliseconds deadline) {
    return failure_text(call, cause_of(s, deadline, process_.get(), watch_.get()), process_->output_tail());
  }

  /// Why a call failed; stops the plugin when it is hung or talks nonsense.
  static std::string cause_of(const grpc::Status& s, std::chrono::milliseconds deadline, BackendProcess* process,
                              internal::ExitWatch* watch) {
    if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      process->kill();
      return str_cat("it did not answer within ", static_cast<int64_t>(deadline.count()),
                     " ms (its deadline); the plugin was stopped");
    }
    const bool transport = s.error_code() == grpc::StatusCode::UNAVAILABLE ||
                           s.error_code() == grpc::StatusCode::CANCELLED || (watch && watch->exited());
    ExitInfo e = process->wait_for(transport ? 1000ms : 50ms);
    if (e.kind == ExitInfo::Kind::Signaled && e.signal != SIGPIPE)
      return str_cat("it crashed: it ", e.describe(), process->sandbox().limit_hint(e.signal, process->output_tail()));
    if (!e.running()) return str_cat("it ", e.describe());
    process->kill();
    return str_cat("it broke the protocol (", static_cast<int>(s.error_code()), ": ",
                   internal::from_backend(s.error_message()), "); the plugin was stopped");
  }

 private:
  std::string dead() {
    std::lock_guard<std::mutex> lock(mu_);
    return dead_;
  }
  absl::Status failure_text(std::string_view call, const std::string& cause, const std::string& tail) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (dead_.empty() && !process_->poll().running()) dead_ = cause;
    }
    return coded_error("E1905", str_cat(who(info_), " failed during ", call, ": ", cause, internal::tail_block(tail)),
                       absl::StatusCode::kInternal);
  }

  PluginInfo info_;
  std::unique_ptr<BackendProcess> process_;
  std::unique_ptr<internal::ExitWatch> watch_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Plugin::Stub> stub_;
  Deadlines deadlines_;
  v1::ConfigTable options_;
  std::mutex mu_;
  std::string dead_;  ///< why the plugin can take no more calls; guarded by mu_
};

}  // namespace

absl::StatusOr<std::unique_ptr<PluginHandle>> PluginHandle::connect(const PluginLaunch& launch) {
  route_grpc_logging();
  PluginInfo info;
  info.name = launch.name;
  info.distribution = launch.distribution;
  info.version = launch.version;
  info.origin = launch.origin();
  const Deadlines deadlines = launch.settings.deadlines();

  ProcessOptions po;
  po.executable = launch.executable;
  po.real_executable = launch.real_executable;
  po.args = launch.args;
  po.sandbox = policy_from(launch.settings);
  po.temp_root = launch.temp_root;
  po.extra_env = launch.extra_env;
  if (const char* level = std::getenv(kGrpcLogEnv)) po.extra_env.push_back(str_cat(kGrpcLogEnv, "=", level));
  absl::StatusOr<std::unique_ptr<BackendProcess>> spawned = BackendProcess::spawn(std::move(po));
  if (!spawned.ok())
    return coded_error("E1903", str_cat(who(info), " could not be started: ", error_text(spawned.status())));
  std::unique_ptr<BackendProcess> process = std::move(*spawned);
  auto watch = std::make_unique<internal::ExitWatch>(process->exit_fd());
  int fd = process->take_fd();
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomInsecureChannelFromFd("ppy-plugin-helper", fd, backend_channel_arguments());

  v1::PluginHandshakeRequest req;
  req.add_api_versions(kPluginApiVersion);
  wire::to_proto(launch.options, *req.mutable_options());
  req.set_driver_version("ppy-host 0.1");
  v1::PluginHandshakeResponse resp;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + deadlines.handshake);
  watch->watch(&ctx);
  grpc::Status s = v1::Plugin::NewStub(channel)->Handshake(&ctx, req, &resp);
  watch->forget(&ctx);
  if (!s.ok()) {
    std::string cause;
    if (s.error_code() == grpc::StatusCode::UNIMPLEMENTED)
      cause = "it does not serve the ppy.backend.v1.Plugin service (is it a backend?)";
    else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION)
      cause = str_cat("it could not make the plugin: ", internal::from_backend(s.error_message()));
    else
      cause = RemotePluginHandle::cause_of(s, deadlines.handshake, process.get(), watch.get());
    watch.reset();
    process->kill();
    return coded_error(
        "E1905", str_cat(who(info), " failed during handshake: ", cause, internal::tail_block(process->output_tail())),
        absl::StatusCode::kInternal);
  }
  if (resp.has_api_version()) info.api_version = resp.api_version();
  info.fingerprint = internal::from_backend(resp.fingerprint());
  info.sdk = internal::from_backend(resp.sdk());
  for (const v1::PassInfo& p : resp.passes())
    info.passes.push_back({internal::from_backend(p.name()), internal::from_backend(p.stage())});
  absl::Status refused;
  if (resp.name() != launch.name)
    refused = coded_error("E1903",
                          str_cat(who(info), " answered the handshake as '", internal::from_backend(resp.name()), "'"));
  else if (!info.api_version)
    refused = coded_error("E1903", str_cat(who(info),
                                           " does not declare the plugin API version; declare it on the class as a "
                                           "literal (with the C++ SDK: `std::optional<int> api_version() const "
                                           "override { return ",
                                           kPluginApiVersion, "; }`)"));
  else if (*info.api_version != kPluginApiVersion)
    refused = coded_error("E1903", str_cat(who(info), " declares plugin API version ", *info.api_version,
                                           "; this compiler speaks version ", kPluginApiVersion));
  else
    refused = check_plugin_passes(info);
  if (!refused.ok()) {
    watch.reset();
    process->kill();
    return refused;
  }
  return std::unique_ptr<PluginHandle>(new RemotePluginHandle(std::move(info), std::move(process), std::move(watch),
                                                              std::move(channel), deadlines, launch.options));
}

}  // namespace ppy::host
