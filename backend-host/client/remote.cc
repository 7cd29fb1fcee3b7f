// The gRPC handle: a helper process on a socket pair (or a unix socket), or a
// long-running server behind an endpoint with TLS.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "grpcpp/create_channel_posix.h"
#include "grpcpp/grpcpp.h"
#include "exit_watch.h"
#include "farm.h"
#include "internal.h"
#include "ppy/backend/api_version.h"
#include "ppy/backend/client.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/service.h"
#include "ppy/backend/v1/backend.grpc.pb.h"
#include "ppy/backend/wire.h"
#include "ppy/host/handle.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
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

/// A remote backend's servers, behind the handle's one balanced channel.
struct FarmState {
  internal::Farm farm;
  /// A channel to each server alone (farm.servers' order): the handshake's,
  /// kept to say why each is gone when no server takes a call.
  std::vector<std::shared_ptr<grpc::Channel>> direct;
  /// What every server that answers must agree with (the first server's handshake).
  v1::HandshakeResponse identity;
  /// Attempts per call: a call lost with its server goes to another, this many times in all.
  int attempts = 3;
};

/// `peer()` as a server's address: gRPC may percent-encode an IPv6 address's brackets.
std::string peer_address(std::string peer) {
  for (auto [from, to] : {std::pair{"%5B", "["}, {"%5D", "]"}})
    for (size_t at; (at = peer.find(from)) != std::string::npos;) peer.replace(at, 3, to);
  return peer;
}

/// The driver's side of a spawned helper's step file (wire::kStepFileName):
/// which slot each call in flight has, and the step its session stored there.
/// Read with pread, never mapped: a helper that shrank the file would make a
/// mapping's read a SIGBUS in the driver.
class StepFile {
 public:
  /// Makes the file, of its full size, in the helper's scratch folder; null
  /// when it cannot (the helper is then asked for Steps as before).
  static std::unique_ptr<StepFile> make(const fs::path& scratch) {
    int fd = ::open((scratch / wire::kStepFileName).c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return nullptr;
    if (::ftruncate(fd, wire::kStepSlots * sizeof(uint64_t)) != 0) {
      ::close(fd);
      return nullptr;
    }
    return std::unique_ptr<StepFile>(new StepFile(fd));
  }
  ~StepFile() { ::close(fd_); }

  /// A call's place in the file: slot 1..kStepSlots (0: none free) and its token.
  struct Slot {
    uint32_t slot = 0;
    uint64_t token = 0;
  };
  /// The next free slot after the last one given (a slot is reused as late as
  /// can be: a session the driver gave up on may still store into it).
  Slot acquire() {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t i = 0; i < wire::kStepSlots; ++i) {
      uint32_t at = (next_ + i) % wire::kStepSlots;
      if (busy_[at]) continue;
      busy_[at] = true;
      next_ = at + 1;
      return {at + 1, ++token_};
    }
    return {};
  }
  void release(const Slot& s) {
    if (s.slot == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    busy_[s.slot - 1] = false;
  }
  /// The step the call's session last stored, or empty (none yet, or not its token).
  std::string_view step(const Slot& s) const {
    uint64_t word = 0;
    if (s.slot == 0 || ::pread(fd_, &word, sizeof word, (s.slot - 1) * sizeof word) != sizeof word) return {};
    std::optional<SessionStep> step = wire::step_of_word(word, s.token);
    return step ? step_name(*step) : std::string_view();
  }

 private:
  explicit StepFile(int fd) : fd_(fd), busy_(wire::kStepSlots, false) {}
  int fd_;
  std::mutex mu_;
  std::vector<bool> busy_;  ///< guarded by mu_, as the next two
  uint32_t next_ = 0;
  uint64_t token_ = 0;
};

class RemoteHandle final : public BackendHandle {
 public:
  RemoteHandle(BackendInfo info, std::unique_ptr<BackendProcess> process, std::unique_ptr<internal::ExitWatch> watch,
               std::shared_ptr<grpc::Channel> channel, Deadlines deadlines, Options options, bool await_steps,
               std::unique_ptr<StepFile> step_file, std::optional<FarmState> farm = std::nullopt)
      : info_(std::move(info)),
        process_(std::move(process)),
        watch_(std::move(watch)),
        channel_(std::move(channel)),
        stub_(v1::Backend::NewStub(channel_)),
        deadlines_(deadlines),
        options_(std::move(options)),
        await_steps_(await_steps),
        step_file_(std::move(step_file)),
        farm_(std::move(farm)) {
    wire::to_proto(options_, options_proto_);
  }
  ~RemoteHandle() override {
    watch_.reset();  // before the process whose pidfd it polls
    stub_.reset();
    channel_.reset();  // closes our end: the helper's server sees it and exits
    if (process_) process_->terminate();
  }

  const BackendInfo& info() const override { return info_; }
  SandboxReport sandbox() const override { return process_ ? process_->sandbox() : SandboxReport{}; }
  BackendProcess* process() override { return process_.get(); }
  std::shared_ptr<grpc::Channel> channel() const override { return channel_; }

  void cancel() override {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    for (grpc::ClientContext* c : in_flight_) c->TryCancel();
  }

  absl::StatusOr<std::string> fingerprint() override {
    v1::FingerprintRequest req;
    *req.mutable_options() = options_proto_;
    v1::FingerprintResponse resp;
    PPY_RETURN_IF_ERROR(unary("fingerprint", deadlines_.fingerprint,
                              [&](grpc::ClientContext* c) { return stub_->Fingerprint(c, req, &resp); }));
    return resp.fingerprint();
  }

  absl::StatusOr<ToolchainStatus> toolchain_status() override {
    v1::ToolchainStatusRequest req;
    *req.mutable_options() = options_proto_;
    v1::ToolchainStatusResponse resp;
    PPY_RETURN_IF_ERROR(unary("toolchain_status", deadlines_.toolchain,
                              [&](grpc::ClientContext* c) { return stub_->ToolchainStatus(c, req, &resp); }));
    ToolchainStatus t = wire::toolchain_from_proto(resp.toolchain());
    t.detail = internal::from_backend(t.detail);
    return t;
  }

  absl::StatusOr<InvocationResult> invoke(const Invocation& r) override;

 private:
  /// A call failed at the transport: why, in the contract's words (E1905).
  absl::Status failure(std::string_view call, grpc::StatusCode code, const std::string& message,
                       std::chrono::milliseconds deadline);

  template <class F>
  absl::Status unary(std::string_view call, std::chrono::milliseconds deadline, F f) {
    if (std::string d = dead(); !d.empty()) return internal::call_failure(info_, call, d, {});
    std::vector<Loss> lost;
    for (int attempt = 1;; ++attempt) {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + deadline);
      track(&ctx);
      grpc::Status s = f(&ctx);
      untrack(&ctx);
      if (s.ok()) return absl::OkStatus();
      if (!farm_ || !internal::retry_elsewhere(s.error_code()) || cancelled())
        return failure(call, s.error_code(), internal::from_backend(s.error_message()), deadline);
      lost.push_back({peer_address(ctx.peer()), str_cat(code_name(s.error_code()), ": ", internal::from_backend(s.error_message()))});
      if (attempt >= farm_->attempts) return every_server_gone(call, lost);
      pause_before_retry(attempt);
    }
  }
  /// A call a server lost: the server (`peer()`, empty when none took it) and why.
  struct Loss {
    std::string peer, why;
  };
  /// One Invoke on one server. `retry`: it was lost with its server (or the
  /// server was full), and may go to another.
  struct Attempt {
    absl::StatusOr<InvocationResult> result;
    bool retry = false;
    Loss loss;
  };
  Attempt invoke_once(const Invocation& r);
  /// E1905: no server took the call, naming each and why (a server no
  /// attempt reached is asked now).
  absl::Status every_server_gone(std::string_view call, const std::vector<Loss>& lost);
  /// How a message names the server at `peer`.
  std::string server_label(const std::string& peer) const;
  /// E1903 when the server that answered is not the backend the handshake
  /// found (its identity differs); OK when it agrees or says nothing.
  absl::Status check_identity(const grpc::ClientContext& ctx) const;
  bool cancelled() {
    std::lock_guard<std::mutex> lock(mu_);
    return cancelled_;
  }
  /// Before another attempt: a moment for round_robin to see a lost server
  /// go, then up to a second for any server to be ready (one restarting).
  void pause_before_retry(int attempt) {
    std::this_thread::sleep_for(attempt * 25ms);
    channel_->WaitForConnected(std::chrono::system_clock::now() + 1s);
  }
  /// Calls run on several threads at once (`-j`): cancel() reaches them all.
  void track(grpc::ClientContext* c) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_.push_back(c);
      if (cancelled_) c->TryCancel();
    }
    if (watch_) watch_->watch(c);  // the helper's exit ends the call, whoever holds its socket
  }
  void untrack(grpc::ClientContext* c) {
    if (watch_) watch_->forget(c);
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
  std::unique_ptr<internal::ExitWatch> watch_;  ///< a helper's exit, seen beside its socket
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Backend::Stub> stub_;
  Deadlines deadlines_;
  Options options_;
  v1::ConfigTable options_proto_;
  /// A helper whose handshake offered it begins each step only once this
  /// driver has seen its Step: a crash then names the step it happened in
  /// whatever the timing (the Step may otherwise die unsent with the helper).
  /// Not asked of a remote server: a round trip per step over a network, for
  /// a failure its own status already explains.
  bool await_steps_;
  /// A helper whose handshake said records_steps stores each step in this
  /// file before beginning it: no Step travels, and a crash still names its
  /// step (a store to the shared file outlives the process). Preferred to
  /// await_steps, which cost two messages and a round trip per step.
  std::unique_ptr<StepFile> step_file_;
  std::mutex mu_;
  std::vector<grpc::ClientContext*> in_flight_;  // guarded by mu_, as are the next two
  bool cancelled_ = false;
  std::string dead_;  ///< why the helper can take no more calls
  std::optional<FarmState> farm_;  ///< a remote backend's servers
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
    bool transport = code == grpc::StatusCode::UNAVAILABLE || message.empty() || (watch_ && watch_->exited());
    ExitInfo e = process_->wait_for(transport ? 1000ms : 50ms);
    if (e.kind == ExitInfo::Kind::Signaled) {
      cause = str_cat("it crashed: it ", e.describe(), process_->sandbox().limit_hint(e.signal, process_->output_tail()));
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
  if (!farm_) return std::move(invoke_once(r).result);
  std::vector<Loss> lost;
  for (int attempt = 1;; ++attempt) {
    Attempt a = invoke_once(r);
    if (!a.retry) {
      if (a.result.ok() && !lost.empty()) {
        std::string note = "the call was retried:";
        for (const Loss& l : lost) str_append(note, " ", server_label(l.peer), " lost it (", l.why, ");");
        str_append(note, " ", server_label(a.loss.peer), " answered");
        a.result->notes.push_back(std::move(note));
      }
      return std::move(a.result);
    }
    lost.push_back(std::move(a.loss));
    if (cancelled()) return internal::call_failure(info_, internal::action_call(r), "the call was cancelled", {});
    if (attempt >= farm_->attempts) return every_server_gone(internal::action_call(r), lost);
    pause_before_retry(attempt);
  }
}

RemoteHandle::Attempt RemoteHandle::invoke_once(const Invocation& r) {
  std::string_view call = internal::action_call(r);
  if (std::string d = dead(); !d.empty()) return {internal::call_failure(info_, call, d, {})};
  std::chrono::milliseconds deadline = r.action == Invocation::Action::Build ? deadlines_.build
                                       : r.action == Invocation::Action::Validate ? deadlines_.validate
                                                                                  : deadlines_.emit;
  // The format, the scope and the toolchain are the session's to refuse, in
  // the helper; what is checked here is what it answers.
  v1::InvokeHeader header;
  wire::to_proto(static_cast<const SessionRequest&>(r), header);
  struct HeldSlot {  // the call's slot in the step file, for as long as it runs
    StepFile* file;
    StepFile::Slot slot;
    ~HeldSlot() {
      if (file) file->release(slot);
    }
  } held{step_file_.get(), step_file_ ? step_file_->acquire() : StepFile::Slot{}};
  if (held.slot.slot) {
    header.set_step_slot(held.slot.slot);
    header.set_step_token(held.slot.token);
  } else {
    header.set_report_steps(true);
    header.set_await_steps(await_steps_);
  }
  *header.mutable_options() = options_proto_;
  BackendContext ctx = r.context ? *r.context : BackendContext{};
  if (ctx.backend_config.empty()) ctx.backend_config = options_;
  wire::to_proto(ctx, r.modules, header);

  grpc::ClientContext cctx;
  cctx.set_deadline(std::chrono::system_clock::now() + deadline);
  track(&cctx);
  // To a helper of ours, over its socket, the request is written on this
  // thread: no writer thread to start and hand the stream to (a thread hop
  // that cost a small call more than its module's bytes).
  InvokeOptions how;
  how.write_inline = process_ != nullptr;
  absl::StatusOr<InvokeResult> got = ppy::invoke(*stub_, cctx, std::move(header), r.modules, how);
  untrack(&cctx);
  // The step its session last began, as it recorded it (records_steps).
  const std::string_view recorded = held.slot.slot ? held.file->step(held.slot) : std::string_view();
  Attempt out{absl::UnknownError("")};
  out.loss.peer = peer_address(cctx.peer());
  if (!got.ok()) {
    std::optional<InvokeFailure> f = invoke_failure_of(got.status());
    // The step it died in: the one this driver let begin (await_steps), else
    // the last it was told of; none told, the call itself.
    if (f && !f->step.empty()) call = f->step;
    if (!recorded.empty()) call = recorded;
    if (f && f->kind == InvokeFailure::Kind::Transport) {
      // A server lost mid-call, or full: an Invoke is a pure function of what
      // it carries, so another server may take it whole.
      if (farm_ && internal::retry_elsewhere(static_cast<int>(f->code)) && !cancelled()) {
        out.retry = true;
        out.loss.why = str_cat(code_name(f->code), ": ", internal::from_backend(std::string(got.status().message())));
        return out;
      }
      out.result = failure(call, f->code, internal::from_backend(std::string(got.status().message())), deadline);
      return out;
    }
    // The stream itself was fine but what came on it was not.
    std::string cause = str_cat("it broke the protocol: ", internal::from_backend(error_text(got.status())));
    if (process_) stop_helper(cause, false);
    out.result = internal::call_failure(info_, call, cause, process_ ? process_->output_tail() : "");
    return out;
  }
  if (farm_)
    if (absl::Status id = check_identity(cctx); !id.ok()) {
      out.result = id;
      return out;
    }
  if (!got->step.empty()) call = got->step;
  if (!recorded.empty()) call = recorded;
  if (got->error) {
    out.result = internal::from_session(info_, call, internal::from_backend(wire::status_of(*got->error)));
    return out;
  }
  InvocationResult res;
  for (const auto& n : got->notes) res.notes.push_back(internal::from_backend(n));
  if (got->finished) res.passes = wire::passes_from_proto(*got->finished);
  for (auto& p : res.passes) p.name = internal::from_backend(p.name);
  if (auto s = check_answer(r, call, *got); !s.ok()) {
    out.result = s;
    return out;
  }
  for (auto& a : got->artifacts) res.artifacts.push_back({a.path, std::move(a.data), a.binary});
  if (r.return_modules) res.modules = std::move(got->modules);
  if (r.action == Invocation::Action::Build) {
    std::vector<BuildFile> files;
    for (auto& f : got->files) files.push_back({f.path, std::move(f.data), f.executable});
    std::vector<std::string> outputs;
    if (got->finished) outputs.assign(got->finished->outputs().begin(), got->finished->outputs().end());
    if (auto s = internal::take_build_files(info_, std::move(files), std::move(outputs), res); !s.ok()) {
      out.result = s;
      return out;
    }
  }
  if (farm_) res.server = server_label(out.loss.peer);
  out.result = std::move(res);
  return out;
}

std::string RemoteHandle::server_label(const std::string& peer) const {
  if (farm_)
    for (const internal::FarmServer& s : farm_->farm.servers)
      if (s.address == peer) return s.label();
  if (peer.empty() || peer == "unknown") return "no server";
  return peer.substr(peer.find(':') + 1);
}

absl::Status RemoteHandle::check_identity(const grpc::ClientContext& ctx) const {
  const auto& md = ctx.GetServerInitialMetadata();
  auto it = md.find(kIdentityMetadata);
  if (it == md.end()) return absl::OkStatus();  // a server not built on this SDK: its handshake is all we have
  v1::HandshakeResponse identity;
  std::string difference = identity.ParseFromArray(it->second.data(), static_cast<int>(it->second.size()))
                               ? internal::handshake_difference(farm_->identity, identity)
                               : "its identity cannot be read";
  if (difference.empty()) return absl::OkStatus();
  return coded_error("E1903", str_cat("backend '", info_.name, "' (", info_.origin, "): the server ",
                                      server_label(peer_address(ctx.peer())),
                                      " that answered is not the backend this build shook hands with: ", difference,
                                      "; its answer is refused (the servers of one backend must all run the same "
                                      "version)"));
}

absl::Status RemoteHandle::every_server_gone(std::string_view call, const std::vector<Loss>& lost) {
  std::string each;
  std::vector<std::string> unattributed;
  for (size_t i = 0; i < farm_->farm.servers.size(); ++i) {
    const internal::FarmServer& s = farm_->farm.servers[i];
    std::string why;
    for (const Loss& l : lost)
      if (l.peer == s.address) why = str_cat("lost the call (", l.why, ")");
    if (why.empty()) {  // no attempt reached it: ask it why
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 2s);
      v1::HandshakeRequest req;
      req.add_api_versions(kBackendApiVersion);
      *req.mutable_options() = options_proto_;
      v1::HandshakeResponse resp;
      grpc::Status st = v1::Backend::NewStub(farm_->direct[i])->Handshake(&ctx, req, &resp);
      why = st.ok() ? std::string("it answers a handshake, but took no call")
                    : str_cat(code_name(st.error_code()), ": ", st.error_message());
    }
    str_append(each, each.empty() ? "" : "; ", s.label(), ": ", why);
  }
  for (const auto& [endpoint, why] : farm_->farm.unresolved) str_append(each, each.empty() ? "" : "; ", endpoint, ": ", why);
  for (const Loss& l : lost)
    if (l.peer.empty() || l.peer == "unknown") {
      str_append(each, "; and no server was ready to take it (", l.why, ")");
      break;
    }
  return internal::call_failure(
      info_, call, str_cat("no server could take the call (", lost.size(), " attempt(s)): ", each), {});
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
                  internal::from_backend(s.error_message()), ")");
  } else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
    std::string m = internal::from_backend(s.error_message());
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
                    code_name(s.error_code()), ": ", internal::from_backend(s.error_message()), ")");
    else  // gRPC's words say why: refused, unresolved, a certificate not trusted
      why = str_cat(who, " could not be reached: ", code_name(s.error_code()), ": ",
                    internal::from_backend(s.error_message()));
  }
  if (process) {
    process->kill();
    tail = process->output_tail();
  }
  return coded_error("E1903", why + internal::tail_block(tail));
}

/// One handshake on `channel`; `watch` (a helper's) ends it when the helper does.
grpc::Status handshake(const std::shared_ptr<grpc::Channel>& channel, const ConnectOptions& o,
                       std::chrono::system_clock::time_point deadline, bool wait_for_ready,
                       v1::HandshakeResponse& resp, internal::ExitWatch* watch = nullptr) {
  auto stub = v1::Backend::NewStub(channel);
  v1::HandshakeRequest req;
  req.add_api_versions(kBackendApiVersion);
  wire::to_proto(o.options, *req.mutable_options());
  req.set_driver_version("ppy-host 0.1");
  grpc::ClientContext ctx;
  ctx.set_deadline(deadline);
  ctx.set_wait_for_ready(wait_for_ready);
  if (watch) watch->watch(&ctx);
  grpc::Status s = stub->Handshake(&ctx, req, &resp);
  if (watch) watch->forget(&ctx);
  return s;
}

/// A remote backend's servers, reached: the balanced channel over them all.
struct Reached {
  FarmState state;
  std::shared_ptr<grpc::Channel> channel;
};

/// Resolves the endpoints, shakes hands with every server at once (each on a
/// channel of its own; not wait_for_ready, so one that cannot be reached says
/// why at once rather than when the deadline passes), checks that those that
/// answer agree, and opens the one channel gRPC's round_robin balances over
/// them with health checking. Servers down now may join later: every answer
/// carries its server's identity, checked then. E1903: none answers, or they
/// differ.
absl::StatusOr<Reached> connect_servers(const BackendEntry& entry, const BackendInfo& info, const ConnectOptions& o,
                                        const std::shared_ptr<grpc::ChannelCredentials>& creds,
                                        const grpc::ChannelArguments& base,
                                        std::chrono::system_clock::time_point deadline,
                                        std::chrono::milliseconds handshake_ms) {
  Reached out;
  internal::Farm& farm = out.state.farm;
  farm = internal::resolve_farm(entry.endpoints);
  // The name a server's certificate is checked against, and the authority it is told.
  auto args_for = [&](const std::string& endpoint) {
    grpc::ChannelArguments a = base;
    if (!entry.tls.insecure)
      a.SetSslTargetNameOverride(entry.tls.server_name.empty() ? internal::endpoint_host(endpoint)
                                                               : entry.tls.server_name);
    if (std::string authority = internal::endpoint_authority(endpoint); !authority.empty())
      a.SetString(GRPC_ARG_DEFAULT_AUTHORITY, authority);
    return a;
  };
  std::string who = str_cat("backend '", info.name, "' (", info.origin, ")");
  const size_t n = farm.servers.size();
  // The balanced channel connects to every server while their handshakes
  // run, so that the first calls already find them all ready.
  std::string target = n ? internal::balanced_target(farm.servers) : std::string();
  if (n && target.empty())
    return coded_error("E1903", str_cat(who, ": its servers mix IPv4 and IPv6 addresses, which one balanced "
                                        "channel cannot; name them all by one kind"));
  if (n) {
    grpc::ChannelArguments a = args_for(entry.endpoints.front());
    a.SetServiceConfigJSON(n > 1 ? internal::kFarmServiceConfig : internal::kOneServerServiceConfig);
    // A server back from a restart rejoins within a second, not gRPC's default backoff of minutes.
    a.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
    a.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
    a.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
    out.channel = grpc::CreateCustomChannel(target, creds, a);
    out.channel->GetState(/*try_to_connect=*/true);
  }
  std::vector<grpc::Status> status(n);
  std::vector<v1::HandshakeResponse> answers(n);
  out.state.direct.resize(n);
  {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < n; ++i)
      threads.emplace_back([&, i] {
        const internal::FarmServer& s = farm.servers[i];
        out.state.direct[i] = grpc::CreateCustomChannel(s.address, creds, args_for(s.endpoint));
        status[i] = handshake(out.state.direct[i], o, deadline, false, answers[i]);
      });
    for (std::thread& t : threads) t.join();
  }
  size_t reference = n;
  for (size_t i = 0; i < n && reference == n; ++i)
    if (status[i].ok()) reference = i;
  if (reference == n) {
    if (n == 1 && farm.unresolved.empty())
      return handshake_failure(info, nullptr, farm.servers[0].endpoint, status[0], handshake_ms);
    std::string each;
    for (size_t i = 0; i < n; ++i)
      str_append(each, each.empty() ? "" : "; ", farm.servers[i].label(), ": ", code_name(status[i].error_code()),
                 ": ", status[i].error_message());
    for (const auto& [endpoint, why] : farm.unresolved) str_append(each, each.empty() ? "" : "; ", endpoint, ": ", why);
    return coded_error("E1903", str_cat(who, " could not be reached at any of its servers: ", each));
  }
  std::string differ;
  for (size_t i = 0; i < n; ++i) {
    if (!status[i].ok()) continue;
    std::string d = internal::handshake_difference(answers[reference], answers[i]);
    if (!d.empty())
      str_append(differ, differ.empty() ? "" : "; ", "server ", farm.servers[i].label(), " differs from ",
                 farm.servers[reference].label(), ": ", d);
  }
  if (!differ.empty())
    return coded_error("E1903", str_cat(who, ": the servers of one backend must answer its handshake alike, and ",
                                        differ, "; it is refused (never mixed into one build's artifacts)"));
  out.channel->WaitForConnected(std::min(deadline, std::chrono::system_clock::now() + 1s));
  out.state.identity = std::move(answers[reference]);
  out.state.attempts = static_cast<int>(std::clamp<size_t>(2 * n, 3, 10));
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<BackendHandle>> connect_backend(const BackendEntry& entry, const ConnectOptions& o) {
  // gRPC's own log lines (`E1203 ... Handshake failed`) would read as ppy's
  // error codes: quiet unless PPY_GRPC_LOG asks (docs/backend-host.md).
  route_grpc_logging();
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
  std::unique_ptr<internal::ExitWatch> watch;
  std::unique_ptr<StepFile> step_file;
  std::optional<FarmState> farm;
  v1::HandshakeResponse resp;
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
    }
    PPY_ASSIGN_OR_RETURN(Reached reached, connect_servers(entry, info, o, creds, args, start + deadlines.handshake,
                                                          deadlines.handshake));
    farm = std::move(reached.state);
    channel = std::move(reached.channel);
    resp = farm->identity;
  } else {
    ProcessOptions po;
    po.executable = entry.executable;
    po.real_executable = entry.real_executable;
    po.args = entry.args;
    po.sandbox = o.sandbox_override ? *o.sandbox_override : policy_from(settings);
    const ProcessOptions::Connection connection = o.connection.value_or(entry.connection);
    po.connection = connection;
    po.temp_root = o.temp_root;
    po.env = o.env;
    po.extra_env = o.extra_env;
    // What the driver was asked to show of gRPC, its helper shows too (in its tail).
    if (const char* level = std::getenv(kGrpcLogEnv)) po.extra_env.push_back(str_cat(kGrpcLogEnv, "=", level));
    auto p = BackendProcess::spawn(std::move(po));
    if (!p.ok())
      return coded_error("E1903", str_cat("backend '", entry.name, "' (", info.origin, ") could not be started: ",
                                          error_text(p.status())));
    process = std::move(*p);
    watch = std::make_unique<internal::ExitWatch>(process->exit_fd());
    step_file = StepFile::make(process->scratch_dir());  // before the handshake, where the helper looks for it
    if (connection == ProcessOptions::Connection::SocketPair) {
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
    grpc::Status s = handshake(channel, o, start + deadlines.handshake, wait_for_ready, resp, watch.get());
    if (!s.ok()) {
      watch.reset();
      return handshake_failure(info, process.get(), {}, s, deadlines.handshake);
    }
  }

  if (resp.has_api_version()) info.api_version = resp.api_version();
  info.fingerprint = resp.fingerprint();
  info.toolchain = wire::toolchain_from_proto(resp.toolchain());
  info.toolchain.detail = internal::from_backend(info.toolchain.detail);
  info.sdk = internal::from_backend(resp.sdk());
  for (const auto& f : resp.formats()) {
    auto format = wire::emit_format_from_proto(f);
    if (!format.ok()) {
      if (process) process->kill();
      return coded_error("E1903", str_cat("backend '", entry.name, "' (", info.origin, ") answered the handshake with ",
                                          internal::from_backend(std::string(format.status().message()))));
    }
    for (std::string* text : {&format->name, &format->suffix, &format->description})
      *text = internal::from_backend(*text);
    info.formats.push_back(std::move(*format));
  }
  for (const auto& p : resp.passes())
    info.passes.push_back({internal::from_backend(p.name()), internal::from_backend(p.stage())});
  // The manifest's name is the authority (the name it is selected by); the
  // backend's own answer is informative, like its distribution.
  if (auto c = internal::check_info(info, {}, false); !c.ok()) {
    if (process) process->kill();
    return c;
  }
  const bool await_steps = process != nullptr && resp.awaits_steps();
  if (!resp.records_steps()) step_file.reset();  // an older helper, or one that could not map it
  return std::unique_ptr<BackendHandle>(new RemoteHandle(std::move(info), std::move(process), std::move(watch),
                                                         std::move(channel), deadlines, o.options, await_steps,
                                                         std::move(step_file), std::move(farm)));
}

}  // namespace ppy::host
