#include "ppy/backend/service.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

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

#include "ppy/backend/wire.h"
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

grpc::Status to_grpc(const absl::Status& s) {
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument: code = grpc::StatusCode::INVALID_ARGUMENT; break;
    case absl::StatusCode::kFailedPrecondition: code = grpc::StatusCode::FAILED_PRECONDITION; break;
    case absl::StatusCode::kUnimplemented: code = grpc::StatusCode::UNIMPLEMENTED; break;
    case absl::StatusCode::kInternal: code = grpc::StatusCode::INTERNAL; break;
    default: break;
  }
  return grpc::Status(code, std::string(s.message()));
}

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

/// One session's state: the backend, its context and the stream to answer on.
class Session {
 public:
  Session(const Backend& backend, grpc::ServerContext* ctx, Stream* stream,
          const std::filesystem::path& scratch, ModuleReaper& reaper)
      : backend_(backend), ctx_(ctx), stream_(stream), scratch_(scratch), reaper_(reaper) {}
  ~Session() { reaper_.take(std::move(modules_)); }

  grpc::Status run(v1::InvokeHeader& header);

 private:
  /// Ends the session with a BackendError (the call itself succeeds).
  grpc::Status fail(v1::BackendError::Code code, std::string message, std::string module = {},
                    std::string pass = {}) {
    v1::InvokeResponse r;
    v1::BackendError* e = r.mutable_error();
    e->set_code(code);
    e->set_backend(std::string(backend_.name()));
    e->set_message(std::move(message));
    e->set_module(std::move(module));
    e->set_pass(std::move(pass));
    write(r);
    error_sent_ = true;
    return grpc::Status::OK;
  }
  /// Maps a failed status from the backend's own code to a BackendError.
  grpc::Status fail_with(const absl::Status& s, const std::string& module) {
    if (std::optional<BackendValidationError> v = validation_error_of(s)) {
      v1::InvokeResponse r;
      v1::BackendError* e = r.mutable_error();
      e->set_code(v1::BackendError::VALIDATION);
      e->set_backend(v->backend.empty() ? std::string(backend_.name()) : v->backend);
      e->set_what(v->what);
      e->set_capability(v->capability);
      if (v->location && v->location->file) {
        e->mutable_location()->set_file(*v->location->file);
        e->mutable_location()->set_line(v->location->line);
        e->mutable_location()->set_col(v->location->col);
      }
      e->set_module(module);
      e->set_message(error_text(s));
      write(r);
      error_sent_ = true;
      return grpc::Status::OK;
    }
    v1::BackendError::Code code = s.code() == absl::StatusCode::kUnimplemented
                                      ? v1::BackendError::UNSUPPORTED
                                      : v1::BackendError::INTERNAL;
    std::string code_prefix = error_code(s);
    if (code_prefix == "E1802") code = v1::BackendError::UNSUPPORTED;
    if (code_prefix == "E1801") code = v1::BackendError::TOOLCHAIN;
    return fail(code, error_text(s), module);
  }
  bool cancelled() const { return ctx_->IsCancelled(); }
  /// Every answer goes through here: a backend may note() from its own threads.
  bool write(const v1::InvokeResponse& r) {
    std::lock_guard<std::mutex> lock(write_mu_);
    return stream_->Write(r);
  }

  grpc::Status read_modules(const v1::InvokeHeader& header);
  bool send_note(const std::string& text) {
    v1::InvokeResponse r;
    r.mutable_note()->set_text(text);
    return write(r);
  }
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
  grpc::Status emit_artifact(absl::StatusOr<Artifact> a, const EmitFormat& format,
                             const std::string& module);
  grpc::Status build(const v1::InvokeHeader& header, v1::Finished& finished);

  const Backend& backend_;
  grpc::ServerContext* ctx_;
  Stream* stream_;
  std::filesystem::path scratch_;
  BackendContext context_;
  ModuleReaper& reaper_;
  std::vector<std::unique_ptr<ir::Module>> modules_;
  std::vector<const ir::Module*> module_ptrs_;
  std::mutex write_mu_;
  bool error_sent_ = false;
};

grpc::Status Session::read_modules(const v1::InvokeHeader& header) {
  const int n = header.modules_size();
  reaper_.drain();
  modules_.reserve(n);
  wire::ModuleAssembler assembler(*context_.registry);
  v1::InvokeRequest req;
  int index = 0;
  while (index < n) {
    if (!stream_->Read(&req)) {
      if (cancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver cancelled");
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          str_cat("the stream ended after ", index, " of ", n, " module(s)"));
    }
    if (!req.has_module())
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "expected a module chunk after the header");
    const v1::ModuleChunk& chunk = req.module();
    if (chunk.module_index() != static_cast<uint32_t>(index))
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          str_cat("module chunk for module ", chunk.module_index(),
                                  " while module ", index, " is being sent"));
    const std::string& name = header.modules(index).name();
    absl::StatusOr<std::unique_ptr<ir::Module>> m = assembler.add(chunk);
    if (absl::IsFailedPrecondition(m.status()))
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(m.status().message()));
    if (m.ok() && !*m) continue;  // more chunks to come
    if (!m.ok()) {
      fail(v1::BackendError::BAD_MODULE,
           str_cat("backend '", backend_.name(), "' could not read module '", name,
                   "': ", std::string(m.status().message())),
           name);
      return grpc::Status::OK;  // the session ends with that error
    }
    modules_.push_back(std::move(*m));
    ++index;
  }
  for (auto& m : modules_) module_ptrs_.push_back(m.get());
  return grpc::Status::OK;
}

grpc::Status Session::emit_artifact(absl::StatusOr<Artifact> a, const EmitFormat& format,
                                    const std::string& module) {
  if (!a.ok()) return fail_with(a.status(), module);
  const bool binary = std::holds_alternative<Bytes>(*a);
  if (binary != format.binary)
    return fail(v1::BackendError::TYPE_MISMATCH,
                str_cat("backend '", backend_.name(), "' answered ", binary ? "bytes" : "text",
                        " for '", format.name, "', a ", format.binary ? "binary" : "text",
                        " format"),
                module);
  std::string& data = binary ? std::get<Bytes>(*a).data : std::get<std::string>(*a);
  bool ok = send_chunks(std::move(data), [&](v1::InvokeResponse& r, bool last, size_t size) {
    v1::ArtifactChunk* c = r.mutable_artifact();
    c->set_module(module);
    c->set_binary(binary);
    c->set_last(last);
    c->set_size_bytes(size);
    return c->mutable_data();
  });
  if (!ok) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver went away");
  return grpc::Status::OK;
}

/// A fresh folder under `parent` for one build.
absl::StatusOr<std::filesystem::path> make_build_dir(const std::filesystem::path& parent) {
  std::string tmpl = (parent / "ppy-build-XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    return absl::InternalError(str_cat("cannot make a build folder under ", parent.string(), ": ",
                                       std::string(std::strerror(errno))));
  return std::filesystem::path(tmpl);
}

grpc::Status Session::build(const v1::InvokeHeader& header, v1::Finished& finished) {
  absl::StatusOr<std::filesystem::path> dir = make_build_dir(scratch_);
  if (!dir.ok()) return fail(v1::BackendError::INTERNAL, std::string(dir.status().message()));
  struct Cleanup {
    std::filesystem::path p;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(p, ec);
    }
  } cleanup{*dir};

  absl::StatusOr<BuildResult> r = backend_.build(module_ptrs_, *dir, context_);
  if (!r.ok()) return fail_with(r.status(), {});

  // Every regular file the build left, in a stable order.
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(*dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(it->path());
  if (ec)
    return fail(v1::BackendError::INTERNAL,
                str_cat("cannot list the build folder: ", ec.message()));
  std::sort(files.begin(), files.end());

  for (const auto& f : files) {
    if (cancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver cancelled");
    std::ifstream in(f, std::ios::binary);
    std::string data(std::istreambuf_iterator<char>(in), {});
    if (!in.good() && !in.eof())
      return fail(v1::BackendError::INTERNAL, str_cat("cannot read ", f.string()));
    const std::string rel = f.lexically_relative(*dir).generic_string();
    struct stat st {};
    const bool exec = ::stat(f.c_str(), &st) == 0 && (st.st_mode & S_IXUSR);
    bool ok = send_chunks(std::move(data), [&](v1::InvokeResponse& resp, bool last, size_t size) {
      v1::FileChunk* c = resp.mutable_file();
      c->set_path(rel);
      c->set_last(last);
      c->set_executable(exec);
      c->set_size_bytes(size);
      return c->mutable_data();
    });
    if (!ok) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver went away");
  }
  for (const auto& out : r->outputs) {
    std::filesystem::path p = out.is_absolute() ? out.lexically_relative(*dir) : out;
    std::string rel = p.lexically_normal().generic_string();
    if (rel.empty() || rel.starts_with("..") || p.is_absolute())
      return fail(v1::BackendError::INTERNAL,
                  str_cat("backend '", backend_.name(), "' reports output ", out.string(),
                          ", outside the folder it was given"));
    finished.add_outputs(rel);
  }
  return grpc::Status::OK;
}

grpc::Status Session::run(v1::InvokeHeader& header) {
  // The context: every field the contract lists.
  const v1::BackendContext& c = header.context();
  context_.root = c.root();
  context_.config = c.config_digest();
  context_.backend_config = wire::options_from_proto(c.backend_config());
  context_.opt_level = c.opt_level();
  context_.target = c.target();
  for (const auto& [k, v] : c.plugin_fingerprints()) context_.plugin_fingerprints[k] = v;
  context_.entry = c.entry();
  for (const auto& m : header.modules()) context_.identity[m.name()] = m.identity();
  context_.on_note = [this](const std::string& text) { send_note(text); };

  const std::string backend_name(backend_.name());
  const auto action = header.action();
  if (action == v1::InvokeHeader::ACTION_UNSPECIFIED)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the header names no action");

  // The format, before reading anything large.
  std::optional<EmitFormat> format;
  if (action == v1::InvokeHeader::EMIT || action == v1::InvokeHeader::EMIT_PROGRAM) {
    for (EmitFormat& f : backend_.emit_formats())
      if (f.name == header.format()) format = std::move(f);
    if (!format)
      return fail(v1::BackendError::UNSUPPORTED,
                  str_cat("backend '", backend_name, "' does not emit '", header.format(), "'"));
    const bool program = action == v1::InvokeHeader::EMIT_PROGRAM;
    if (program != (format->scope == EmitScope::Program))
      return fail(v1::BackendError::UNSUPPORTED,
                  str_cat("the format '", format->name, "' of backend '", backend_name,
                          "' is ", program ? "module" : "program", "-scoped: ask for it through ",
                          program ? "emit" : "emit_program"));
  }
  // The toolchain: a build always needs it, a format unless it says otherwise.
  if (action == v1::InvokeHeader::BUILD || (format && format->requires_toolchain)) {
    ToolchainStatus t = backend_.toolchain_status();
    if (!t.available)
      return fail(v1::BackendError::TOOLCHAIN,
                  str_cat("backend '", backend_name, "' is unavailable here: ", t.detail));
  }

  grpc::Status read = read_modules(header);
  if (!read.ok() || error_sent_) return read;

  v1::Finished finished;
  if (header.run_passes()) {
    for (size_t i = 0; i < modules_.size(); ++i) {
      if (cancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver cancelled");
      PassFailure failure;
      absl::StatusOr<std::vector<PassRun>> runs =
          run_backend_passes(backend_, *modules_[i], context_, &failure);
      const std::string& name = header.modules(i).name();
      if (!runs.ok()) {
        v1::BackendError::Code code = failure.broke_ir       ? v1::BackendError::PASS_BROKE_IR
                                      : !failure.pass.empty() ? v1::BackendError::PASS_FAILED
                                      : error_code(runs.status()) == "E1802"
                                          ? v1::BackendError::PASS_STAGE
                                          : v1::BackendError::INTERNAL;
        return fail(code, error_text(runs.status()), name, failure.pass);
      }
      if (i == 0)
        for (const PassRun& r : *runs) {
          v1::PassRun* p = finished.add_passes();
          p->set_name(r.name);
          p->set_changed(r.changed);
        }
    }
  }
  if (header.return_modules()) {
    for (size_t i = 0; i < modules_.size(); ++i) {
      bool ok = wire::send_module_chunks(*modules_[i], [&](std::string data, bool last) {
        v1::InvokeResponse r;
        v1::ModuleChunk* m = r.mutable_module();
        m->set_module_index(static_cast<uint32_t>(i));
        m->set_data(std::move(data));
        m->set_last(last);
        return write(r);
      });
      if (!ok) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver went away");
    }
  }
  if (header.validate() || action == v1::InvokeHeader::VALIDATE) {
    for (size_t i = 0; i < modules_.size(); ++i) {
      absl::Status v = backend_.validate(*modules_[i], context_);
      if (!v.ok()) return fail_with(v, header.modules(i).name());
    }
  }
  if (cancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the driver cancelled");

  switch (action) {
    case v1::InvokeHeader::EMIT:
      for (size_t i = 0; i < modules_.size(); ++i) {
        grpc::Status s = emit_artifact(backend_.emit(*modules_[i], *format, context_), *format,
                                       header.modules(i).name());
        if (!s.ok()) return s;
        if (error_sent_) return grpc::Status::OK;
      }
      break;
    case v1::InvokeHeader::EMIT_PROGRAM: {
      grpc::Status s =
          emit_artifact(backend_.emit_program(module_ptrs_, *format, context_), *format, {});
      if (!s.ok() || error_sent_) return s;
      break;
    }
    case v1::InvokeHeader::BUILD: {
      grpc::Status s = build(header, finished);
      if (!s.ok() || error_sent_) return s;
      break;
    }
    default: break;
  }
  v1::InvokeResponse r;
  *r.mutable_finished() = std::move(finished);
  write(r);
  return grpc::Status::OK;
}

}  // namespace

BackendService::BackendService(BackendFactory factory, ServiceOptions options)
    : factory_(std::move(factory)), options_(std::move(options)), reaper_(std::make_unique<ModuleReaper>()) {
  if (options_.scratch_dir.empty()) options_.scratch_dir = std::filesystem::temp_directory_path();
}

BackendService::~BackendService() = default;

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

grpc::Status BackendService::Handshake(grpc::ServerContext* ctx, const v1::HandshakeRequest* req,
                                       v1::HandshakeResponse* resp) {
  ActiveCall active(active_);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return to_grpc(b.status());
  const Backend& backend = **b;
  resp->set_name(std::string(backend.name()));
  if (std::optional<int> v = backend.api_version()) resp->set_api_version(*v);
  Distribution d = backend.distribution();
  resp->set_distribution(d.name);
  resp->set_distribution_version(d.version);
  for (const EmitFormat& f : backend.emit_formats()) *resp->add_formats() = wire::to_proto(f);
  for (const PassInfo& p : describe_passes(backend)) {
    v1::PassInfo* info = resp->add_passes();
    info->set_name(p.name);
    info->set_stage(p.stage);
  }
  resp->set_fingerprint(backend.fingerprint());
  *resp->mutable_toolchain() = wire::to_proto(backend.toolchain_status());
  resp->set_sdk(std::string(kSdkVersion));
  return grpc::Status::OK;
}

grpc::Status BackendService::Fingerprint(grpc::ServerContext* ctx,
                                         const v1::FingerprintRequest* req,
                                         v1::FingerprintResponse* resp) {
  ActiveCall active(active_);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return to_grpc(b.status());
  resp->set_fingerprint((*b)->fingerprint());
  return grpc::Status::OK;
}

grpc::Status BackendService::ToolchainStatus(grpc::ServerContext* ctx,
                                             const v1::ToolchainStatusRequest* req,
                                             v1::ToolchainStatusResponse* resp) {
  ActiveCall active(active_);
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(req->options()));
  if (!b.ok()) return to_grpc(b.status());
  *resp->mutable_toolchain() = wire::to_proto((*b)->toolchain_status());
  return grpc::Status::OK;
}

grpc::Status BackendService::Invoke(grpc::ServerContext* ctx, Stream* stream) {
  ActiveCall active(active_);
  v1::InvokeRequest first;
  if (!stream->Read(&first))
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the session sent nothing");
  if (!first.has_header())
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "a session starts with its header");
  v1::InvokeHeader& header = *first.mutable_header();
  absl::StatusOr<std::shared_ptr<const Backend>> b = instance(wire::options_from_proto(header.options()));
  if (!b.ok()) return to_grpc(b.status());
  Session session(**b, ctx, stream, options_.scratch_dir, *reaper_);
  try {
    return session.run(header);
  } catch (const std::exception& e) {
    return grpc::Status(grpc::StatusCode::INTERNAL, str_cat("the backend threw: ", e.what()));
  }
}

grpc::Status BackendService::Shutdown(grpc::ServerContext* ctx, const v1::ShutdownRequest* req,
                                      v1::ShutdownResponse* resp) {
  if (!options_.allow_shutdown)
    return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                        "this server is shared; it is stopped by its operator, not by a client");
  if (options_.on_shutdown) options_.on_shutdown();
  return grpc::Status::OK;
}

}  // namespace ppy
