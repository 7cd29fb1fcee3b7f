// The gRPC handle: a helper process on a socket pair (or a unix socket), or a
// long-running server behind an endpoint with TLS.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "grpcpp/create_channel_posix.h"
#include "grpcpp/grpcpp.h"
#include "internal.h"
#include "ppy/backend/client.h"
#include "ppy/backend/serve.h"
#include "ppy/backend/v1/backend.grpc.pb.h"
#include "ppy/backend/wire.h"
#include "ppy/host/handle.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;
namespace v1 = ::ppy::backend::v1;
using namespace std::chrono_literals;

namespace ppy::host {
namespace {

std::string_view code_name(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "UNKNOWN";
  }
}

std::string ms_text(std::chrono::milliseconds d) { return str_cat(static_cast<int64_t>(d.count()), " ms"); }

absl::StatusOr<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(str_cat("cannot read ", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class RemoteHandle final : public BackendHandle {
 public:
  RemoteHandle(BackendInfo info, std::unique_ptr<BackendProcess> process, std::shared_ptr<grpc::Channel> channel,
               Deadlines deadlines, Options options)
      : info_(std::move(info)),
        process_(std::move(process)),
        channel_(std::move(channel)),
        stub_(v1::Backend::NewStub(channel_)),
        deadlines_(deadlines),
        options_(std::move(options)) {
    wire::to_proto(options_, options_proto_);
  }
  ~RemoteHandle() override {
    stub_.reset();
    channel_.reset();  // closes our end: the helper's server sees it and exits
    if (process_) process_->terminate();
  }

  const BackendInfo& info() const override { return info_; }
  SandboxReport sandbox() const override { return process_ ? process_->sandbox() : SandboxReport{}; }
  BackendProcess* process() override { return process_.get(); }

  void cancel() override {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    for (grpc::ClientContext* c : in_flight_) c->TryCancel();
  }

  absl::StatusOr<std::string> fingerprint() override {
    v1::FingerprintRequest req;
    *req.mutable_options() = options_proto_;
    v1::FingerprintResponse resp;
    auto s = unary("fingerprint", deadlines_.fingerprint, [&](grpc::ClientContext* c) {
      return stub_->Fingerprint(c, req, &resp);
    });
    if (!s.ok()) return s;
    return resp.fingerprint();
  }

  absl::StatusOr<ToolchainStatus> toolchain_status() override {
    v1::ToolchainStatusRequest req;
    *req.mutable_options() = options_proto_;
    v1::ToolchainStatusResponse resp;
    auto s = unary("toolchain_status", deadlines_.toolchain, [&](grpc::ClientContext* c) {
      return stub_->ToolchainStatus(c, req, &resp);
    });
    if (!s.ok()) return s;
    return wire::toolchain_from_proto(resp.toolchain());
  }

  absl::StatusOr<InvocationResult> invoke(const Invocation& r) override;

 private:
  /// A call failed at the transport: why, in the contract's words (E1905).
  absl::Status failure(std::string_view call, grpc::StatusCode code, const std::string& message,
                       std::chrono::milliseconds deadline);

  template <class F>
  absl::Status unary(std::string_view call, std::chrono::milliseconds deadline, F f) {
    if (std::string d = dead(); !d.empty()) return internal::call_failure(info_, call, d, {});
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadline);
    track(&ctx);
    grpc::Status s = f(&ctx);
    untrack(&ctx);
    if (s.ok()) return absl::OkStatus();
    return failure(call, s.error_code(), s.error_message(), deadline);
  }
  /// Calls run on several threads at once (`-j`): cancel() reaches them all.
  void track(grpc::ClientContext* c) {
    std::lock_guard<std::mutex> lock(mu_);
    in_flight_.push_back(c);
    if (cancelled_) c->TryCancel();
  }
  void untrack(grpc::ClientContext* c) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase(in_flight_, c);
  }
  std::string dead() {
    std::lock_guard<std::mutex> lock(mu_);
    return dead_;
  }
  /// The helper can take no more calls, for `why` (the first reason stays).
  void set_dead(const std::string& why) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dead_.empty()) dead_ = why;
  }
  /// Ends the helper for `why`, said first: the calls in flight that this
  /// breaks then report it rather than the SIGKILL they see.
  void stop_helper(const std::string& why, bool graceful) {
    set_dead(why);
    if (graceful) process_->terminate();
    else process_->kill();
  }
  /// The one defensive check of what a helper or server answered (it may not
  /// be built on the SDK's session engine): the artifacts' count and type, no
  /// files outside a build, the returned modules all there and valid.
  absl::Status check_answer(const Invocation& r, std::string_view call, const InvokeResult& got) const;
  /// Who to blame for a module that came back invalid.
  std::string broke_it(const std::vector<PassRun>& passes) const;

  BackendInfo info_;
  std::unique_ptr<BackendProcess> process_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Backend::Stub> stub_;
  Deadlines deadlines_;
  Options options_;
  v1::ConfigTable options_proto_;
  std::mutex mu_;
  std::vector<grpc::ClientContext*> in_flight_;  // guarded by mu_, as are the next two
  bool cancelled_ = false;
  std::string dead_;  ///< why the helper can take no more calls
};

absl::Status RemoteHandle::failure(std::string_view call, grpc::StatusCode code, const std::string& message,
                                   std::chrono::milliseconds deadline) {
  std::string cause;
  bool cancelled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled = cancelled_;
  }
  if (std::string d = dead(); !d.empty()) {
    cause = str_cat("another call lost the helper: ", d);  // why this one failed too
  } else if (code == grpc::StatusCode::DEADLINE_EXCEEDED) {
    cause = str_cat("it did not answer within ", ms_text(deadline), " (its deadline)");
    if (process_) {
      cause += "; the helper was stopped";
      stop_helper(cause, false);
    }
  } else if (code == grpc::StatusCode::CANCELLED && cancelled) {
    cause = "the call was cancelled";
    if (process_) stop_helper(cause, true);
  } else if (process_) {
    // A channel made from a descriptor has no connectivity state to ask; a
    // broken transport shows as UNAVAILABLE. Anything else may be the
    // backend's own answer, unless the helper is found dead a moment later.
    bool transport = code == grpc::StatusCode::UNAVAILABLE || message.empty();
    ExitInfo e = process_->wait_for(transport ? 1000ms : 50ms);
    if (e.kind == ExitInfo::Kind::Signaled) {
      cause = str_cat("it crashed: it ", e.describe(), process_->sandbox().limit_hint(e.signal));
    } else if (e.kind == ExitInfo::Kind::Exited) {
      cause = str_cat("it ", e.describe());
    } else if (transport) {
      cause = str_cat("it broke the protocol (", code_name(code), ": ", message, "); the helper was stopped");
      stop_helper(cause, false);
    } else {
      cause = str_cat("it answered ", code_name(code), ": ", message);
    }
    if (!process_->poll().running()) set_dead(cause);
  } else {
    cause = str_cat("the server answered ", code_name(code), ": ", message);
  }
  return internal::call_failure(info_, call, cause, process_ ? process_->output_tail() : "");
}

absl::StatusOr<InvocationResult> RemoteHandle::invoke(const Invocation& r) {
  std::string_view call = internal::action_call(r);
  if (std::string d = dead(); !d.empty()) return internal::call_failure(info_, call, d, {});
  std::chrono::milliseconds deadline = r.action == Invocation::Action::Build ? deadlines_.build
                                       : r.action == Invocation::Action::Validate ? deadlines_.validate
                                                                                  : deadlines_.emit;
  // The format, the scope and the toolchain are the session's to refuse, in
  // the helper; what is checked here is what it answers.
  v1::InvokeHeader header;
  wire::to_proto(static_cast<const SessionRequest&>(r), header);
  header.set_report_steps(true);
  *header.mutable_options() = options_proto_;
  BackendContext ctx = r.context ? *r.context : BackendContext{};
  if (ctx.backend_config.empty()) ctx.backend_config = options_;
  wire::to_proto(ctx, r.modules, header);

  grpc::ClientContext cctx;
  cctx.set_deadline(std::chrono::system_clock::now() + deadline);
  track(&cctx);
  absl::StatusOr<InvokeResult> got = ppy::invoke(*stub_, cctx, std::move(header), r.modules);
  untrack(&cctx);
  if (!got.ok()) {
    std::optional<InvokeFailure> f = invoke_failure_of(got.status());
    if (f && !f->step.empty()) call = f->step;  // the step it died in
    if (f && f->kind == InvokeFailure::Kind::Transport)
      return failure(call, f->code, std::string(got.status().message()), deadline);
    // The stream itself was fine but what came on it was not.
    std::string cause = str_cat("it broke the protocol: ", error_text(got.status()));
    if (process_) stop_helper(cause, false);
    return internal::call_failure(info_, call, cause, process_ ? process_->output_tail() : "");
  }
  if (!got->step.empty()) call = got->step;
  if (got->error) return internal::from_session(info_, call, wire::status_of(*got->error));
  InvocationResult out;
  out.notes = std::move(got->notes);
  if (got->finished) out.passes = wire::passes_from_proto(*got->finished);
  if (auto s = check_answer(r, call, *got); !s.ok()) return s;
  for (auto& a : got->artifacts) out.artifacts.push_back({a.path, std::move(a.data), a.binary});
  if (r.return_modules) out.modules = std::move(got->modules);
  if (r.action == Invocation::Action::Build) {
    std::vector<BuildFile> files;
    for (auto& f : got->files) files.push_back({f.path, std::move(f.data), f.executable});
    std::vector<std::string> outputs;
    if (got->finished) outputs.assign(got->finished->outputs().begin(), got->finished->outputs().end());
    if (auto s = internal::write_build_files(info_, r.output_dir, std::move(files), outputs, out); !s.ok()) return s;
  }
  return out;
}

absl::Status RemoteHandle::check_answer(const Invocation& r, std::string_view call, const InvokeResult& got) const {
  auto broke = [&](std::string_view what) {
    return internal::call_failure(info_, call, str_cat("it broke the protocol: ", what), {});
  };
  if (r.action == Invocation::Action::Emit || r.action == Invocation::Action::EmitProgram) {
    const EmitFormat* format = info_.format(r.format);
    if (!format) return broke(str_cat("it answered for '", r.format, "', a format its handshake did not list"));
    for (const auto& a : got.artifacts)
      if (a.binary != format->binary)
        return coded_error("E1802", str_cat("backend '", info_.name, "' answered ", a.binary ? "bytes" : "text",
                                            " for '", format->name, "', a ", format->binary ? "binary" : "text",
                                            " format"));
    size_t want = r.action == Invocation::Action::Emit ? r.modules.size() : 1;
    if (got.artifacts.size() != want)
      return broke(str_cat(got.artifacts.size(), " artifact(s) for ", want, " expected"));
  } else if (!got.artifacts.empty()) {
    return broke("it answered artifacts to a request for none");
  }
  if (r.action != Invocation::Action::Build && !got.files.empty()) return broke("it sent files outside a build");
  if (r.return_modules) {
    if (got.modules.size() != r.modules.size()) return broke("the modules did not all come back");
    std::vector<PassRun> passes = got.finished ? wire::passes_from_proto(*got.finished) : std::vector<PassRun>{};
    for (const auto& m : got.modules)
      if (absl::Status v = ir::verify_status(*m); !v.ok())
        return coded_error("E1904", str_cat(broke_it(passes), " left the IR invalid: ", error_text(v)));
  }
  return absl::OkStatus();
}

std::string RemoteHandle::broke_it(const std::vector<PassRun>& passes) const {
  // Verified only once all ran: the passes that say they changed the module
  // are the suspects, else all of them.
  std::vector<std::string> changed, all;
  for (const PassRun& p : passes) {
    all.push_back(p.name);
    if (p.changed) changed.push_back(p.name);
  }
  const std::vector<std::string>& named = changed.empty() ? all : changed;
  if (named.size() == 1)
    return str_cat("backend '", info_.name, "''s pass '", named[0], "'", changed.empty() ? "" : " (the one that changed it)");
  std::string list;
  for (const std::string& n : named) str_append(list, list.empty() ? "'" : ", '", n, "'");
  return str_cat("one of backend '", info_.name, "''s passes ", list);
}

/// The handshake failed: E1903 in the contract's words, with the output tail.
absl::Status handshake_failure(const BackendInfo& info, BackendProcess* process, const std::string& endpoint,
                               const grpc::Status& s, std::chrono::milliseconds deadline) {
  std::string who = str_cat("backend '", info.name, "' (", info.origin, ")");
  if (!endpoint.empty()) str_append(who, " at ", endpoint);
  std::string tail;
  std::string why;
  if (s.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
    why = str_cat(who, " does not serve the ppy.backend.v1.Backend service (its handshake was answered UNIMPLEMENTED: ",
                  s.error_message(), ")");
  } else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
    std::string m = s.error_message();
    constexpr std::string_view kPrefix = "the backend could not be created: ";
    if (m.starts_with(kPrefix)) m = m.substr(kPrefix.size());
    if (m == "the backend factory answered no backend")
      why = str_cat(who, " answered no backend, not a ppy::Backend");
    else
      why = str_cat("backend '", info.name, "' could not be created by ", info.origin, ": ", m);
  } else if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    why = str_cat(who, " did not answer the handshake within ", ms_text(deadline));
  } else {
    ExitInfo e = process ? process->wait_for(1000ms) : ExitInfo{};
    // SIGPIPE: it was still writing when the driver hung up on what it wrote.
    const bool hung_up_on = e.kind == ExitInfo::Kind::Signaled && e.signal == SIGPIPE;
    if (process && !e.running() && !hung_up_on)
      why = str_cat(who, " could not be started: the helper ", e.describe(), " before answering the handshake");
    else if (process)
      why = str_cat(who, " answered the handshake with something that is not the backend protocol (",
                    code_name(s.error_code()), ": ", s.error_message(), ")");
    else  // gRPC's words say why: refused, unresolved, a certificate not trusted
      why = str_cat(who, " could not be reached: ", code_name(s.error_code()), ": ", s.error_message());
  }
  if (process) {
    process->kill();
    tail = process->output_tail();
  }
  return coded_error("E1903", why + internal::tail_block(tail));
}

}  // namespace

absl::StatusOr<std::unique_ptr<BackendHandle>> connect_backend(const BackendEntry& entry, const ConnectOptions& o) {
  const auto start = std::chrono::system_clock::now();
  HostSettings settings = o.settings ? *o.settings : entry.settings;
  Deadlines deadlines = settings.deadlines();
  BackendInfo info;
  info.name = entry.name;
  info.distribution = entry.distribution;
  info.version = entry.version;
  info.origin = entry.origin();

  grpc::ChannelArguments args = backend_channel_arguments();
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<BackendProcess> process;
  bool wait_for_ready = false;
  if (entry.remote()) {
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (entry.tls.insecure) {
      creds = grpc::InsecureChannelCredentials();
    } else {
      grpc::SslCredentialsOptions ssl;
      for (auto [path, out] : {std::pair{&entry.tls.ca, &ssl.pem_root_certs},
                               {&entry.tls.cert, &ssl.pem_cert_chain},
                               {&entry.tls.key, &ssl.pem_private_key}}) {
        if (path->empty()) continue;
        auto data = read_file(*path);
        if (!data.ok())
          return coded_error("E1903", str_cat("backend '", entry.name, "' (", info.origin,
                                              ") could not be reached: ", std::string(data.status().message())));
        *out = std::move(*data);
      }
      creds = grpc::SslCredentials(ssl);
      if (!entry.tls.server_name.empty()) args.SetSslTargetNameOverride(entry.tls.server_name);
    }
    // Not wait_for_ready: a server that cannot be reached fails the handshake
    // at once, with the reason, rather than when its deadline passes.
    channel = grpc::CreateCustomChannel(entry.endpoint, creds, args);
  } else {
    ProcessOptions po;
    po.executable = entry.executable;
    po.args = entry.args;
    po.sandbox = o.sandbox_override ? *o.sandbox_override : policy_from(settings);
    po.connection = o.connection;
    po.temp_root = o.temp_root;
    po.env = o.env;
    po.extra_env = o.extra_env;
    auto p = BackendProcess::spawn(std::move(po));
    if (!p.ok())
      return coded_error("E1903", str_cat("backend '", entry.name, "' (", info.origin, ") could not be started: ",
                                          error_text(p.status())));
    process = std::move(*p);
    if (o.connection == ProcessOptions::Connection::SocketPair) {
      int fd = process->take_fd();
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
      channel = grpc::CreateCustomInsecureChannelFromFd("ppy-backend-helper", fd, args);
    } else {
      // Wait for the helper to bind its socket (or to die trying).
      struct stat st;
      while (::stat(process->socket_path().c_str(), &st) != 0 && process->poll().running() &&
             std::chrono::system_clock::now() < start + deadlines.handshake)
        std::this_thread::sleep_for(200us);
      channel = grpc::CreateCustomChannel("unix:" + process->socket_path(), grpc::InsecureChannelCredentials(), args);
      wait_for_ready = process->poll().running();
    }
  }

  auto stub = v1::Backend::NewStub(channel);
  v1::HandshakeRequest req;
  req.add_api_versions(kBackendApiVersion);
  wire::to_proto(o.options, *req.mutable_options());
  req.set_driver_version("ppy-host 0.1");
  v1::HandshakeResponse resp;
  grpc::ClientContext ctx;
  ctx.set_deadline(start + deadlines.handshake);
  ctx.set_wait_for_ready(wait_for_ready);
  grpc::Status s = stub->Handshake(&ctx, req, &resp);
  if (!s.ok()) return handshake_failure(info, process.get(), entry.endpoint, s, deadlines.handshake);

  if (resp.has_api_version()) info.api_version = resp.api_version();
  info.fingerprint = resp.fingerprint();
  info.toolchain = wire::toolchain_from_proto(resp.toolchain());
  info.sdk = resp.sdk();
  for (const auto& f : resp.formats()) {
    auto format = wire::emit_format_from_proto(f);
    if (!format.ok()) {
      if (process) process->kill();
      return coded_error("E1903", str_cat("backend '", entry.name, "' (", info.origin, ") answered the handshake with ",
                                          std::string(format.status().message())));
    }
    info.formats.push_back(std::move(*format));
  }
  for (const auto& p : resp.passes()) info.passes.push_back({p.name(), p.stage()});
  // The manifest's name is the authority (the name it is selected by); the
  // backend's own answer is informative, like its distribution.
  if (auto c = internal::check_info(info, {}, false); !c.ok()) {
    if (process) process->kill();
    return c;
  }
  return std::unique_ptr<BackendHandle>(
      new RemoteHandle(std::move(info), std::move(process), std::move(channel), deadlines, o.options));
}

}  // namespace ppy::host
