#include "ppy/backend/service.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <optional>
#include <system_error>
#include <thread>

#include "ppy/backend/session.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/open_dialect.h"
#include "ppy/ir/proto.h"
#include "ppy/util/error.h"
#include "ppy/util/memory.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace v1 = ::ppy::backend::v1;

namespace {

using Stream = grpc::ServerReaderWriter<v1::InvokeResponse, v1::InvokeRequest>;

/// Counts a call as active for its lifetime.
class ActiveCall {
 public:
  explicit ActiveCall(std::atomic<int>& n) : n_(n) { ++n_; }
  ~ActiveCall() { --n_; }

 private:
  std::atomic<int>& n_;
};

std::string_view grpc_code_name(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::OK: return "ok";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    default: return "UNKNOWN";
  }
}

/// One call's record, written as the call goes and handed to the log when
/// it ends (`done`).
class CallLog {
 public:
  CallLog(const ServiceOptions& options, grpc::ServerContext* ctx, std::string call)
      : options_(options), start_(std::chrono::steady_clock::now()) {
    record_.call = std::move(call);
    if (options_.on_call && ctx) record_.peer = ctx->peer();
  }
  CallRecord& record() { return record_; }
  grpc::Status done(grpc::Status s) {
    if (record_.outcome.empty()) record_.outcome = grpc_code_name(s.error_code());
    record_.duration =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_);
    if (options_.on_call) options_.on_call(record_);
    return s;
  }

 private:
  const ServiceOptions& options_;
  std::chrono::steady_clock::time_point start_;
  CallRecord record_;
};

const grpc::Status kDraining(grpc::StatusCode::UNAVAILABLE, "this server is draining; another server takes the call");


}  // namespace

/// Frees the modules sessions leave behind on a thread of its own, started on
/// first use: freeing a module of many ops takes a while, and the driver waits
/// on the status that follows the session's last answer. It waits a moment
/// before freeing (freeing holds the one heap the status is written from) unless
/// a session about to read modules asks it to finish first, so that a helper
/// never holds two sessions' modules at once.
class ModuleReaper {
 public:
  ~ModuleReaper() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  /// Queues `modules`; where no thread or memory can be had, they are freed here.
  void take(std::vector<std::unique_ptr<ir::Module>> modules) noexcept {
    if (modules.empty()) return;
    try {
      std::lock_guard<std::mutex> lock(mu_);
      if (!thread_.joinable())
        thread_ = std::thread([this] {
          pthread_setname_np(pthread_self(), "ppy-reaper");  // not gRPC's name, in a profile
          loop();
        });
      queue_.reserve(queue_.size() + modules.size());
      for (auto& m : modules) queue_.push_back(std::move(m));
    } catch (...) {
      return;  // `modules` still owns whatever was not queued
    }
    cv_.notify_all();
  }

  /// Returns once everything queued so far is freed.
  void drain() {
    std::unique_lock<std::mutex> lock(mu_);
    if (queue_.empty() && !freeing_) return;
    hurry_ = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return queue_.empty() && !freeing_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      cv_.wait_for(lock, std::chrono::milliseconds(2), [&] { return stop_ || hurry_; });
      std::vector<std::unique_ptr<ir::Module>> batch = std::move(queue_);
      queue_.clear();
      freeing_ = true;
      lock.unlock();
      batch.clear();
      settle_malloc();
      lock.lock();
      freeing_ = false;
      if (queue_.empty()) hurry_ = false;  // else a drain still waits on what came meanwhile
      cv_.notify_all();
    }
  }
  /// Freeing a module leaves glibc's malloc tens of thousands of small free
  /// chunks, which it merges and sorts lazily: the next allocation of a KiB or
  /// more merges them all, and each sorts up to 10,000. Left alone, that
  /// lands on the next session, before its handler even runs (1 ms at 10k
  /// ops, 3-8 ms at 100k). Such allocations here, until one is cheap, pay it
  /// off that path. Only with one kept heap (`keep_freed_memory`): with a heap
  /// per thread, this thread's allocations would not reach the others'.
  static void settle_malloc() {
    if (!keeps_freed_memory()) return;
    const auto start = std::chrono::steady_clock::now();
    for (auto t = start; t - start < std::chrono::milliseconds(5);) {
      void* volatile p = std::malloc(64 << 10);  // volatile: a pair the compiler may not drop
      std::free(p);
      auto now = std::chrono::steady_clock::now();
      if (now - t < std::chrono::microseconds(20)) break;
      t = now;
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<ir::Module>> queue_;  // guarded by mu_, as the flags
  bool freeing_ = false, hurry_ = false, stop_ = false;
  std::thread thread_;
};

namespace {

/// One session on a stream: reads the modules off it and writes what the
/// session engine (run_session) answers onto it. Nothing of what a session
/// does is decided here.
class StreamSink final : public SessionSink {
 public:
  StreamSink(grpc::ServerContext* ctx, Stream* stream, const v1::InvokeHeader& header, uint64_t* step_words)
      : ctx_(ctx), stream_(stream), report_steps_(header.report_steps()), await_steps_(header.await_steps()) {
    const uint64_t token = header.step_token();
    if (step_words && header.step_slot() >= 1 && header.step_slot() <= wire::kStepSlots && token != 0 &&
        token < (uint64_t{1} << 56)) {
      step_word_ = step_words + (header.step_slot() - 1);
      step_token_ = token;
    }
  }

  void step(SessionStep step) override {
    // Stored before the step begins: whatever ends this process after, the
    // driver reads the step in the shared file.
    if (step_word_) std::atomic_ref<uint64_t>(*step_word_).store(wire::step_word(step_token_, step), std::memory_order_release);
    if (!report_steps_) return;
    v1::InvokeResponse r;
    r.mutable_step()->set_name(std::string(step_name(step)));
    if (!write(r) || !await_steps_) return;
    // The step begins once the driver has seen it, so it names the step
    // whenever this process dies. Anything else, or nothing (the driver went
    // away), leaves the session to find the stream broken at its next write.
    v1::InvokeRequest seen;
    if (stream_->Read(&seen)) bytes_in_ += seen.ByteSizeLong();
  }
  absl::Status module(size_t index, const ir::Module& module) override {
    bool ok = wire::send_module_chunks(module, [&](std::string data, bool last) {
      v1::InvokeResponse r;
      v1::ModuleChunk* m = r.mutable_module();
      m->set_module_index(static_cast<uint32_t>(index));
      m->set_data(std::move(data));
      m->set_last(last);
      return write(r);
    });
    return ok ? absl::OkStatus() : gone();
  }
  absl::Status artifact(std::string_view module, Artifact a) override {
    const bool binary = std::holds_alternative<Bytes>(a);
    std::string& data = binary ? std::get<Bytes>(a).data : std::get<std::string>(a);
    bool ok = send_chunks(std::move(data), [&](v1::InvokeResponse& r, bool last, size_t size) {
      v1::ArtifactChunk* c = r.mutable_artifact();
      c->set_module(std::string(module));
      c->set_binary(binary);
      c->set_last(last);
      c->set_size_bytes(size);
      return c->mutable_data();
    });
    return ok ? absl::OkStatus() : gone();
  }
  absl::Status file(BuildFile f) override {
    bool ok = send_chunks(std::move(f.data), [&](v1::InvokeResponse& r, bool last, size_t size) {
      v1::FileChunk* c = r.mutable_file();
      c->set_path(f.path);
      c->set_last(last);
      c->set_executable(f.executable);
      c->set_size_bytes(size);
      return c->mutable_data();
    });
    return ok ? absl::OkStatus() : gone();
  }
  bool cancelled() const override { return ctx_->IsCancelled(); }

  /// Every answer goes through here: a backend may note() from its own threads.
  bool write(const v1::InvokeResponse& r) {
    std::lock_guard<std::mutex> lock(write_mu_);
    bytes_out_ += r.ByteSizeLong();
    return stream_->Write(r);
  }
  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() {
    std::lock_guard<std::mutex> lock(write_mu_);
    return bytes_out_;
  }
  void note(const std::string& text) {
    v1::InvokeResponse r;
    r.mutable_note()->set_text(text);
    write(r);
  }

  /// Reads the header's modules off the stream into `out`.
  absl::Status read_modules(const v1::InvokeHeader& header, const Backend& backend,
                            const ir::DialectRegistry& registry, SessionModules& out);

 private:
  static absl::Status gone() { return absl::CancelledError("the driver went away"); }
  /// Streams `data` in chunks: `fill(response, last, size)` makes each one and
  /// answers where its bytes go; `size` is the whole size on the first chunk,
  /// else 0. Data that fits in one chunk moves into it.
  template <class Fill>
  bool send_chunks(std::string data, Fill fill) {
    if (data.size() <= wire::kMaxChunk) {
      v1::InvokeResponse r;
      const size_t size = data.size();
      *fill(r, true, size) = std::move(data);
      return write(r);
    }
    for (size_t off = 0; off < data.size();) {
      size_t n = std::min(wire::kMaxChunk, data.size() - off);
      v1::InvokeResponse r;
      fill(r, off + n == data.size(), off == 0 ? data.size() : 0)->assign(data, off, n);
      if (!write(r)) return false;
      off += n;
    }
    return true;
  }

  grpc::ServerContext* ctx_;
  Stream* stream_;
  bool report_steps_;
  bool await_steps_;  ///< read a StepSeen after each Step (the driver asked)
  uint64_t* step_word_ = nullptr;  ///< this session's word in the step file (step_slot), if any
  uint64_t step_token_ = 0;
  std::mutex write_mu_;
  uint64_t bytes_in_ = 0;   ///< read on the session's thread only
  uint64_t bytes_out_ = 0;  ///< guarded by write_mu_
};

absl::Status StreamSink::read_modules(const v1::InvokeHeader& header, const Backend& backend,
                                      const ir::DialectRegistry& registry, SessionModules& out) {
  const int n = header.modules_size();
  out.owned.reserve(n);
  wire::ModuleAssembler assembler(registry);
  v1::InvokeRequest req;
  int index = 0;
  while (index < n) {
    if (!stream_->Read(&req)) {
      if (cancelled()) return absl::CancelledError("the driver cancelled");
      return absl::InvalidArgumentError(str_cat("the stream ended after ", index, " of ", n, " module(s)"));
    }
    bytes_in_ += req.ByteSizeLong();
    if (!req.has_module()) return absl::InvalidArgumentError("expected a module chunk after the header");
    const v1::ModuleChunk& chunk = req.module();
    if (chunk.module_index() != static_cast<uint32_t>(index))
      return absl::InvalidArgumentError(str_cat("module chunk for module ", chunk.module_index(), " while module ",
                                                index, " is being sent"));
    absl::StatusOr<std::unique_ptr<ir::Module>> m = assembler.add(chunk);
    if (absl::IsFailedPrecondition(m.status())) return absl::InvalidArgumentError(m.status().message());
    if (m.ok() && !*m) continue;  // more chunks to come
    const std::string& name = header.modules(index).name();
    if (!m.ok())
      return session_error({SessionFailure::BadModule, name, {}},
                           str_cat("backend '", backend.name(), "' could not read module '", name,
                                   "': ", error_text(m.status())));
    out.modules.push_back(m->get());
    out.owned.push_back(std::move(*m));
    ++index;
  }
  return absl::OkStatus();
}

grpc::Status to_grpc(const absl::Status& s) {
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;
  switch (s.code()) {
    case absl::StatusCode::kCancelled: code = grpc::StatusCode::CANCELLED; break;
    case absl::StatusCode::kInvalidArgument: code = grpc::StatusCode::INVALID_ARGUMENT; break;
    case absl::StatusCode::kFailedPrecondition: code = grpc::StatusCode::FAILED_PRECONDITION; break;
    case absl::StatusCode::kUnimplemented: code = grpc::StatusCode::UNIMPLEMENTED; break;
    case absl::StatusCode::kInternal: code = grpc::StatusCode::INTERNAL; break;
    default: break;
  }
  return grpc::Status(code, std::string(s.message()));
}

/// One Invoke: the engine over the stream. A refusal is the session's last
/// answer (a BackendError, the call itself succeeds); a broken stream ends the
/// call with its status.
grpc::Status serve_session(const Backend& backend, const v1::InvokeHeader& header, grpc::ServerContext* ctx,
                           Stream* stream, const std::filesystem::path& scratch, ModuleReaper& reaper,
                           CallRecord& record, uint64_t* step_words) {
  if (header.action() == v1::InvokeHeader::ACTION_UNSPECIFIED)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the header names no action");
  StreamSink sink(ctx, stream, header, step_words);
  struct Count {  // however the session ends
    StreamSink& sink;
    CallRecord& record;
    ~Count() {
      record.bytes_in += sink.bytes_in();
      record.bytes_out += sink.bytes_out();
    }
  } count{sink, record};
  BackendContext context = wire::context_from_proto(header);
  // plugins: the modules were verified against the builtin dialects and the
  // plugins' (open) dialects the header names; the session reads them so.
  std::vector<std::string> plugin_dialects;
  for (const auto& [d, v] : header.context().dialects()) plugin_dialects.push_back(d);
  const ir::DialectRegistry registry = ir::with_open_dialects(ir::DialectRegistry::builtin(), plugin_dialects);
  context.registry = &registry;
  context.on_note = [&sink](const std::string& text) { sink.note(text); };
  SessionModules modules;
  struct Reap {  // what the session read is freed off its path
    ModuleReaper& reaper;
    SessionModules& modules;
    ~Reap() { reaper.take(std::move(modules.owned)); }
  } reap{reaper, modules};
  absl::StatusOr<SessionResult> r = run_session(
      backend, wire::request_from_proto(header), context, modules,
      [&](SessionModules& out) {
        reaper.drain();  // a helper never holds two sessions' modules at once
        return sink.read_modules(header, backend, registry, out);
      },
      sink, SessionOptions{scratch});
  v1::InvokeResponse last;
  if (r.ok()) {
    v1::Finished* finished = last.mutable_finished();
    for (const std::string& o : r->outputs) finished->add_outputs(o);
    wire::to_proto(r->passes, *finished);
  } else if (session_error_of(r.status()) || validation_error_of(r.status())) {
    *last.mutable_error() = wire::error_to_proto(r.status(), backend.name());
    record.outcome = str_cat("refused:", v1::BackendError::Code_Name(last.error().code()));
  } else {
    return to_grpc(r.status());
  }
  sink.write(last);
  return grpc::Status::OK;
}

}  // namespace

BackendService::BackendService(BackendFactory factory, ServiceOptions options)
    : factory_(std::move(factory)), options_(std::move(options)), reaper_(std::make_unique<ModuleReaper>()) {
  if (options_.scratch_dir.empty()) options_.scratch_dir = std::filesystem::temp_directory_path();
}

BackendService::~BackendService() {
  if (uint64_t* words = steps_.load()) ::munmap(words, wire::kStepSlots * sizeof(uint64_t));
}

uint64_t* BackendService::step_words() {
  if (uint64_t* words = steps_.load(std::memory_order_acquire)) return words;
  std::lock_guard<std::mutex> lock(mu_);
  if (steps_tried_ || options_.step_file.empty()) return steps_.load();
  steps_tried_ = true;
  // The driver made it, of its size, before the handshake; anything else
  // (absent, a link, short) and the driver is sent Steps as before.
  int fd = ::open(options_.step_file.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return nullptr;
  struct stat st;
  const size_t size = wire::kStepSlots * sizeof(uint64_t);
  void* p = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) >= size)
    p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return nullptr;
  steps_.store(static_cast<uint64_t*>(p), std::memory_order_release);
  return static_cast<uint64_t*>(p);
}

absl::StatusOr<std::shared_ptr<const Backend>> BackendService::instance(const Options& options) {
  const std::string key = wire::options_key(options);
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = instances_.find(key); it != instances_.end()) return it->second;
  std::unique_ptr<Backend> made;
  try {
    made = factory_(options);
  } catch (const std::exception& e) {
    return absl::FailedPreconditionError(str_cat("the backend could not be created: ", e.what()));
  } catch (...) {
    return absl::FailedPreconditionError("the backend could not be created: unknown exception");
  }
  if (!made) return absl::FailedPreconditionError("the backend factory answered no backend");
  std::shared_ptr<const Backend> shared(std::move(made));
  instances_[key] = shared;
  instance_order_.push_back(key);
  if (instance_order_.size() > std::max<size_t>(options_.max_instances, 1)) {
    instances_.erase(instance_order_.front());
    instance_order_.erase(instance_order_.begin());
  }
  return shared;
}

void describe_backend(const Backend& backend, v1::HandshakeResponse& resp, bool toolchain) {
  resp.set_name(std::string(backend.name()));
  if (std::optional<int> v = backend.api_version()) resp.set_api_version(*v);
  Distribution d = backend.distribution();
  resp.set_distribution(d.name);
  resp.set_distribution_version(d.version);
  for (const EmitFormat& f : backend.emit_formats()) *resp.add_formats() = wire::to_proto(f);
  for (const PassInfo& p : describe_passes(backend)) {
    v1::PassInfo* info = resp.add_passes();
    info->set_name(p.name);
    info->set_stage(p.stage);
  }
  resp.set_fingerprint(backend.fingerprint());
  if (toolchain) *resp.mutable_toolchain() = wire::to_proto(backend.toolchain_status());
  resp.set_sdk(std::string(kSdkVersion));
  resp.set_awaits_steps(true);
}

grpc::Status BackendService::Handshake(grpc::ServerContext* ctx, const v1::HandshakeRequest* req,
                                       v1::HandshakeResponse* resp) {
  ActiveCall active(active_);
  CallLog log(options_, ctx, "Handshake");
  log.record().bytes_in = req->ByteSizeLong();
  if (draining_) return log.done(kDraining);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return log.done(to_grpc(b.status()));
  describe_backend(**b, *resp, true);
  resp->set_records_steps(step_words() != nullptr);
  log.record().bytes_out = resp->ByteSizeLong();
  return log.done(grpc::Status::OK);
}

grpc::Status BackendService::Fingerprint(grpc::ServerContext* ctx,
                                         const v1::FingerprintRequest* req,
                                         v1::FingerprintResponse* resp) {
  ActiveCall active(active_);
  CallLog log(options_, ctx, "Fingerprint");
  log.record().bytes_in = req->ByteSizeLong();
  if (draining_) return log.done(kDraining);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return log.done(to_grpc(b.status()));
  resp->set_fingerprint((*b)->fingerprint());
  log.record().bytes_out = resp->ByteSizeLong();
  return log.done(grpc::Status::OK);
}

grpc::Status BackendService::ToolchainStatus(grpc::ServerContext* ctx,
                                             const v1::ToolchainStatusRequest* req,
                                             v1::ToolchainStatusResponse* resp) {
  ActiveCall active(active_);
  CallLog log(options_, ctx, "ToolchainStatus");
  log.record().bytes_in = req->ByteSizeLong();
  if (draining_) return log.done(kDraining);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return log.done(to_grpc(b.status()));
  *resp->mutable_toolchain() = wire::to_proto((*b)->toolchain_status());
  log.record().bytes_out = resp->ByteSizeLong();
  return log.done(grpc::Status::OK);
}

grpc::Status BackendService::Invoke(grpc::ServerContext* ctx, Stream* stream) {
  ActiveCall active(active_);
  CallLog log(options_, ctx, "Invoke");
  if (draining_) return log.done(kDraining);
  const int running = ++invokes_;
  struct Release {
    std::atomic<int>& n;
    ~Release() { --n; }
  } release{invokes_};
  if (options_.max_calls > 0 && running > options_.max_calls)
    return log.done(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                 str_cat("this server takes at most ", options_.max_calls, " call(s) at once")));
  v1::InvokeRequest first;
  if (!stream->Read(&first))
    return log.done(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the session sent nothing"));
  log.record().bytes_in = first.ByteSizeLong();
  if (!first.has_header())
    return log.done(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "a session starts with its header"));
  v1::InvokeHeader& header = *first.mutable_header();
  std::string action = v1::InvokeHeader::Action_Name(header.action());
  if (action.starts_with("ACTION_")) action = action.substr(7);
  for (char& c : action) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  log.record().action = action;
  log.record().modules = header.modules_size();
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(header.options()));
  if (!b.ok()) return log.done(to_grpc(b.status()));
  try {
    if (options_.send_identity) {
      v1::HandshakeResponse identity;
      describe_backend(**b, identity, false);
      ctx->AddInitialMetadata(kIdentityMetadata, identity.SerializeAsString());
    }
    return log.done(serve_session(**b, header, ctx, stream, options_.scratch_dir, *reaper_, log.record(),
                                   header.step_slot() ? step_words() : nullptr));
  } catch (const std::exception& e) {
    return log.done(grpc::Status(grpc::StatusCode::INTERNAL, str_cat("the backend threw: ", e.what())));
  }
}

grpc::Status BackendService::Shutdown(grpc::ServerContext* ctx, const v1::ShutdownRequest* req,
                                      v1::ShutdownResponse* resp) {
  CallLog log(options_, ctx, "Shutdown");
  if (!options_.allow_shutdown)
    return log.done(grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                                 "this server is shared; it is stopped by its operator, not by a client"));
  if (options_.on_shutdown) options_.on_shutdown();
  return log.done(grpc::Status::OK);
}

std::string log_line(const CallRecord& r) {
  std::string out = str_cat("call=", r.call, " peer=", r.peer.empty() ? "-" : r.peer);
  if (r.call == "Invoke") str_append(out, " action=", r.action.empty() ? "-" : r.action, " modules=", r.modules);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", static_cast<double>(r.duration.count()) / 1000.0);
  str_append(out, " bytes_in=", r.bytes_in, " bytes_out=", r.bytes_out, " ms=", ms, " outcome=", r.outcome);
  return out;
}

}  // namespace ppy
