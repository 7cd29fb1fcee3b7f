// ppy-test-hostile: a backend that misbehaves on purpose, for the host's tests.
// Its own arguments come after the ones the driver gives (`--fd 3`) and are
// removed before `ppy::serve` sees the rest:
//   --crash-at CALL    segfault in CALL (handshake, fingerprint, toolchain,
//                      passes, validate, emit, emit_program, build)
//   --hang-at CALL     never answer CALL
//   --exit-at CALL     exit(3) in CALL
//   --alloc-at CALL    allocate (and touch) memory without bound in CALL; when
//                      malloc fails, say why (strerror) and abort()
//   --abort-at CALL    abort() in CALL, with memory to spare
//   --build-outputs ok|symlink|missing   build writes real.out and a symlink
//                      link.out to it, and lists real.out, and link.out or
//                      ghost.out (which it never writes)
//   --exit-early       exit(7) before serving
//   --fork-exit-early  start a child that keeps the socket open and sleeps,
//                      then exit(7) before serving
//   --fork-exit-at CALL  the same in CALL, exiting with status 3
//   --garbage          write bytes that are not HTTP/2 on the socket
//   --api-version N|none   declare N, or no version at all
//   --factory throw|null  the factory throws `boom`, or answers no backend
//   --break-ir         its pass leaves the IR invalid (a second terminator)
//   --raw MODE         a hand-written service: unimplemented, bad-stage, wrong-type,
//                      broken-modules (sends back modules that do not verify,
//                      saying its pass `sneaky` changed them and `idle` did not)
//   --escape PATH PORT try to write PATH and connect to 127.0.0.1:PORT; the
//                      toolchain detail says what happened (`write=denied tcp=denied`)
// Every mode first prints a few lines on stderr, so errors can show the tail.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "grpcpp/server_posix.h"
#include "ppy/backend/serve.h"
#include "ppy/backend/v1/backend.grpc.pb.h"
#include "ppy/ir/proto.h"

namespace {

namespace v1 = ::ppy::backend::v1;

struct Mode {
  std::string crash_at, hang_at, exit_at, fork_exit_at, alloc_at, abort_at, raw, escape_path, factory, build_outputs;
  int escape_port = 0;
  bool break_ir = false;
  std::optional<int> api_version = 1;
} mode;

/// A child of the helper's own that keeps every descriptor (the socket
/// included) open for a minute after the helper is gone.
void leave_a_child_holding_the_socket() {
  if (::fork() == 0) {
    ::sleep(60);
    _exit(0);
  }
}

void misbehave(const char* call) {
  if (mode.fork_exit_at == call) {
    std::fprintf(stderr, "hostile: exiting in %s, a child holding the socket\n", call);
    std::fflush(stderr);
    leave_a_child_holding_the_socket();
    _exit(3);
  }
  if (mode.crash_at == call) {
    std::fprintf(stderr, "hostile: crashing in %s\n", call);
    std::fflush(stderr);
    *static_cast<volatile int*>(nullptr) = 1;
  }
  if (mode.exit_at == call) {
    std::fprintf(stderr, "hostile: exiting in %s\n", call);
    std::fflush(stderr);
    _exit(3);
  }
  if (mode.hang_at == call) {
    std::fprintf(stderr, "hostile: hanging in %s\n", call);
    std::fflush(stderr);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (mode.abort_at == call) {
    std::fprintf(stderr, "hostile: aborting in %s\n", call);
    std::fflush(stderr);
    std::abort();
  }
  if (mode.alloc_at == call) {
    std::fprintf(stderr, "hostile: allocating in %s\n", call);
    std::fflush(stderr);
    std::vector<char*> hoard;
    for (;;) {
      char* p = static_cast<char*>(std::malloc(64 << 20));
      if (!p) {
        std::fprintf(stderr, "hostile: malloc failed after %zu MiB: %s\n", hoard.size() * 64, std::strerror(errno));
        std::fflush(stderr);
        std::abort();
      }
      std::memset(p, 1, 64 << 20);
      hoard.push_back(p);
    }
  }
}

std::string try_escape() {
  std::string out;
  int fd = ::open(mode.escape_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  out += fd >= 0 ? "write=ok" : "write=denied";
  if (fd >= 0) ::close(fd);
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a = {};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(mode.escape_port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = s >= 0 && ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  out += ok ? " tcp=ok" : " tcp=denied";
  if (s >= 0) ::close(s);
  return out;
}

class Breaks final : public ppy::ir::FunctionPass {
 public:
  std::string_view name() const override { return "hostile-pass"; }
  absl::StatusOr<bool> run_on_function(ppy::ir::Function& f, const ppy::ir::PassContext&) override {
    misbehave("passes");
    if (!mode.break_ir || f.is_declaration()) return false;
    f.body().entry()->append(ppy::ir::Operation::create("core.ret", {}, {}));
    return true;
  }
};

class Hostile final : public ppy::Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "hostile"; }
  std::optional<int> api_version() const override { return mode.api_version; }
  ppy::Distribution distribution() const override { return {"ppy-hostile", "6.6"}; }
  std::string fingerprint() const override {
    if (++fingerprints_ > 1) misbehave("fingerprint");  // the first is the handshake's
    return "hostile:1";
  }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    return {ppy::EmitFormat{"hostile", ".h", false, "", ppy::EmitScope::Module, false},
            ppy::EmitFormat{"hostile-prog", ".hp", false, "", ppy::EmitScope::Program, false}};
  }
  void register_passes(ppy::BackendPassRegistrar& passes) const override { passes.add<Breaks>(); }
  absl::Status validate(const ppy::ir::Module&, const ppy::BackendContext&) const override {
    misbehave("validate");
    return absl::OkStatus();
  }
  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& m, const ppy::EmitFormat&,
                                     ppy::BackendContext&) const override {
    misbehave("emit");
    return std::string("// " + m.name() + "\n");
  }
  absl::StatusOr<ppy::Artifact> emit_program(ppy::ModuleList modules, const ppy::EmitFormat&,
                                             ppy::BackendContext&) const override {
    misbehave("emit_program");
    return std::string("// " + std::to_string(modules.size()) + " modules\n");
  }
  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& out,
                                         ppy::BackendContext&) const override {
    misbehave("build");
    ppy::BuildResult r;
    if (mode.build_outputs.empty()) return r;
    std::FILE* f = std::fopen((out / "real.out").c_str(), "w");
    if (!f) return absl::InternalError("cannot write real.out");
    std::fputs("real\n", f);
    std::fclose(f);
    std::error_code ec;
    std::filesystem::create_symlink("real.out", out / "link.out", ec);
    r.outputs.push_back(out / "real.out");
    if (mode.build_outputs == "symlink") r.outputs.push_back(out / "link.out");
    if (mode.build_outputs == "missing") r.outputs.push_back("ghost.out");
    return r;
  }
  ppy::ToolchainStatus toolchain_status() const override {
    if (++toolchains_ > 1) misbehave("toolchain");
    if (!mode.escape_path.empty()) return {true, try_escape()};
    return {true, "hostile sdk"};
  }

 private:
  mutable std::atomic<int> fingerprints_{0}, toolchains_{0};
};

/// A service written by hand, breaking the protocol in a way the SDK cannot.
class Raw final : public v1::Backend::Service {
 public:
  grpc::Status Handshake(grpc::ServerContext*, const v1::HandshakeRequest*, v1::HandshakeResponse* r) override {
    if (mode.raw == "unimplemented") return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "not here");
    r->set_name("hostile");
    r->set_api_version(1);
    auto* f = r->add_formats();
    f->set_name("hostile");
    f->set_suffix(".h");
    f->set_scope(v1::EmitFormat::SCOPE_MODULE);
    f->set_requires_toolchain(false);
    r->mutable_toolchain()->set_available(true);
    if (mode.raw == "bad-stage") {
      auto* p = r->add_passes();
      p->set_name("sneaky-canonicalize");
      p->set_stage("before-backend");
    }
    if (mode.raw == "broken-modules")
      for (const char* name : {"sneaky", "idle"}) {
        auto* p = r->add_passes();
        p->set_name(name);
        p->set_stage("backend");
      }
    return grpc::Status::OK;
  }
  grpc::Status Invoke(grpc::ServerContext*,
                      grpc::ServerReaderWriter<v1::InvokeResponse, v1::InvokeRequest>* stream) override {
    v1::InvokeRequest req;
    std::vector<std::string> names;
    while (stream->Read(&req))
      if (req.has_header())
        for (const auto& m : req.header().modules()) names.push_back(m.name());
    if (mode.raw == "broken-modules") return send_broken(stream, names);
    for (const auto& n : names) {
      v1::InvokeResponse r;
      auto* a = r.mutable_artifact();
      a->set_module(n);
      a->set_binary(true);  // bytes for a text format
      a->set_data(std::string("\x7f" "ELF", 4));
      a->set_last(true);
      stream->Write(r);
    }
    v1::InvokeResponse done;
    done.mutable_finished();
    stream->Write(done);
    return grpc::Status::OK;
  }

  /// Each module back as a function whose block has no terminator.
  static grpc::Status send_broken(grpc::ServerReaderWriter<v1::InvokeResponse, v1::InvokeRequest>* stream,
                                  const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
      ppy::ir::Module m(names[i]);
      auto* f = m.add_function(std::make_unique<ppy::ir::Function>("f", std::vector<ppy::ir::Param>{},
                                                                   std::vector<ppy::ir::Type>{}));
      f->create_entry_block();
      v1::InvokeResponse r;
      r.mutable_module()->set_module_index(static_cast<uint32_t>(i));
      r.mutable_module()->set_data(ppy::ir::to_proto_bytes(m));
      r.mutable_module()->set_last(true);
      stream->Write(r);
    }
    v1::InvokeResponse done;
    for (auto [name, changed] : {std::pair{"sneaky", true}, std::pair{"idle", false}}) {
      v1::PassRun* p = done.mutable_finished()->add_passes();
      p->set_name(name);
      p->set_changed(changed);
    }
    stream->Write(done);
    return grpc::Status::OK;
  }
};

int serve_raw(int fd) {
  Raw service;
  grpc::ServerBuilder builder;
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  grpc::AddInsecureChannelFromFd(server.get(), fd);
  server->Wait();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  bool garbage = false, exit_early = false, fork_exit_early = false;
  int fd = -1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--crash-at") mode.crash_at = next();
    else if (a == "--hang-at") mode.hang_at = next();
    else if (a == "--exit-at") mode.exit_at = next();
    else if (a == "--alloc-at") mode.alloc_at = next();
    else if (a == "--abort-at") mode.abort_at = next();
    else if (a == "--build-outputs") mode.build_outputs = next();
    else if (a == "--raw") mode.raw = next();
    else if (a == "--factory") mode.factory = next();
    else if (a == "--garbage") garbage = true;
    else if (a == "--break-ir") mode.break_ir = true;
    else if (a == "--exit-early") exit_early = true;
    else if (a == "--fork-exit-early") fork_exit_early = true;
    else if (a == "--fork-exit-at") mode.fork_exit_at = next();
    else if (a == "--api-version") {
      std::string v = next();
      mode.api_version = v == "none" ? std::nullopt : std::optional<int>(std::stoi(v));
    } else if (a == "--escape") {
      mode.escape_path = next();
      mode.escape_port = std::stoi(next());
    } else {
      if (a == "--fd" && i + 1 < argc) fd = std::atoi(argv[i + 1]);
      rest.push_back(argv[i]);
    }
  }
  for (int i = 1; i <= 3; ++i) std::fprintf(stderr, "hostile: warming up %d\n", i);
  std::fflush(stderr);
  if (fork_exit_early) {
    std::fprintf(stderr, "hostile: giving up before serving, a child holding the socket\n");
    std::fflush(stderr);
    leave_a_child_holding_the_socket();
    return 7;
  }
  if (exit_early) {
    std::fprintf(stderr, "hostile: giving up before serving\n");
    return 7;
  }
  if (garbage) {
    const char junk[] = "HTTP/1.1 418 I'm a teapot\r\n\r\nthis is not HTTP/2 at all\n";
    for (int i = 0; i < 50; ++i) {
      if (::write(fd, junk, sizeof junk - 1) < 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return 0;
  }
  if (!mode.raw.empty()) return serve_raw(fd);
  rest.push_back(nullptr);
  return ppy::serve(static_cast<int>(rest.size()) - 1, rest.data(), [](const ppy::Options& o) {
    misbehave("handshake");
    if (mode.factory == "throw") throw std::runtime_error("boom");
    if (mode.factory == "null") return std::unique_ptr<Hostile>();
    return std::make_unique<Hostile>(o);
  });
}
