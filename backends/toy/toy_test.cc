// The toy backend: its outputs called directly, through the service in-process,
// and as the real `ppy-backend-toy` executable over a socketpair (--fd), a unix
// socket (--socket) and loopback TLS (--listen, with and without mTLS).
#include "ppy/backends/toy.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "gmock/gmock.h"
#include "grpcpp/create_channel_posix.h"
#include "gtest/gtest.h"
#include "ppy/backend/api_version.h"
#include "ppy/ir/testing.h"
#include "ppy/backend/client.h"
#include "ppy/backend/conformance_gtest.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::toy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace v1 = ::ppy::backend::v1;

const std::string kToy = std::string(PPY_TOY_DIR) + "/ppy-backend-toy";

/// `f(x: i64) -> i64` with two adds, plus an extern declaration `g`.
std::unique_ptr<ir::Module> host_module(std::string name) {
  auto m = ir::testing::small_module(std::move(name));
  auto g = std::make_unique<ir::Function>("g", std::vector<ir::Param>{{ir::Type::i64(), {}, "y"}},
                                          std::vector<ir::Type>{ir::Type::i64()});
  g->set_visibility(ir::Visibility::Extern);
  m->add_function(std::move(g));
  return m;
}

/// A kernel reading its thread id at k.ppy:4:9.
std::unique_ptr<ir::Module> kernel_module() {
  auto m = std::make_unique<ir::Module>("kern");
  m->dialects()["gpu"] = 1;
  ir::Function* k = m->add_function(
      std::make_unique<ir::Function>("kern", std::vector<ir::Param>{}, std::vector<ir::Type>{}));
  k->attributes().set("gpu.kind", "kernel");
  ir::Block* entry = k->create_entry_block();
  entry->append(ir::Operation::create("gpu.thread_id", {}, {ir::Type::index()}, {{"dim", "x"}},
                                      ir::Location("k.ppy", 4, 9)));
  entry->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("k.ppy", 5, 1)));
  return m;
}

TEST(Toy, DescribesItselfAsTheContractSays) {
  ToyBackend toy;
  EXPECT_EQ(toy.name(), "toy");
  EXPECT_EQ(toy.api_version(), 1);
  EXPECT_EQ(toy.distribution().name, "ppy-toy");
  EXPECT_EQ(toy.fingerprint(), "toy:0");
  EXPECT_EQ(ToyBackend(Options{{"sdk-version", "1.4"}}).fingerprint(), "toy:1.4");
  ToolchainStatus t = toy.toolchain_status();
  EXPECT_TRUE(t.available);
  EXPECT_EQ(t.detail, "toy sdk 0");
  ToolchainStatus missing = ToyBackend(Options{{"sdk-version", "missing"}}).toolchain_status();
  EXPECT_FALSE(missing.available);
  EXPECT_EQ(missing.detail, "missing toy-sdk");

  std::vector<EmitFormat> f = toy.emit_formats();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].name, "toy");
  EXPECT_EQ(f[0].suffix, ".toy");
  EXPECT_EQ(f[0].scope, EmitScope::Module);
  EXPECT_FALSE(f[0].binary);
  EXPECT_EQ(f[1].name, "toy-image");
  EXPECT_EQ(f[1].suffix, ".img");
  EXPECT_EQ(f[1].scope, EmitScope::Program);
  EXPECT_TRUE(f[1].binary);
  std::vector<PassInfo> passes = describe_passes(toy);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].name, "toy-count-ops");
  EXPECT_EQ(passes[0].stage, "backend");
}

TEST(Toy, CountOpsThenEmitTheToyText) {
  ToyBackend toy;
  auto m = host_module("main");
  ASSERT_TRUE(run_backend_passes(toy, *m, BackendContext{}).ok());
  EXPECT_EQ(m->function("f")->attributes().get("toy.ops")->as_int(), 3);
  EXPECT_EQ(m->function("g")->attributes().get("toy.ops"), nullptr);  // a declaration

  BackendContext ctx;
  absl::StatusOr<Artifact> a = toy.emit(*m, toy.emit_formats()[0], ctx);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(std::holds_alternative<std::string>(*a));
  EXPECT_EQ(std::get<std::string>(*a),
            "// f: 3 operations\n" + ir::print_function(*m->function("f")) + "\n");
  EXPECT_THAT(std::get<std::string>(*a), HasSubstr("toy.ops = 3"));
}

TEST(Toy, RefusesGpuOpsNamingOpFunctionAndLocation) {
  ToyBackend toy;
  auto m = kernel_module();
  ASSERT_TRUE(ir::verify_status(*m).ok()) << ir::verify_status(*m);
  absl::Status s = toy.validate(*m, BackendContext{});
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_EQ(error_text(s),
            "backend 'toy' cannot take gpu.thread_id in kern at k.ppy:4:9 (needs device kernels)");
  std::optional<BackendValidationError> e = validation_error_of(s);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->capability, "device kernels");
  EXPECT_TRUE(toy.validate(*host_module("main"), BackendContext{}).ok());
}

TEST(Toy, ImageIsLengthPrefixedToyText) {
  auto a = host_module("a");
  auto b = host_module("bee");
  const ir::Module* mods[] = {a.get(), b.get()};
  std::string img = toy_image(mods);
  ASSERT_THAT(img, StartsWith("TOYIMG01"));
  size_t off = 8;
  auto u32 = [&] {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(img[off + i])) << (8 * i);
    off += 4;
    return v;
  };
  auto u64 = [&] {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(img[off + i])) << (8 * i);
    off += 8;
    return v;
  };
  EXPECT_EQ(u32(), 2u);
  for (const ir::Module* m : mods) {
    uint32_t n = u32();
    EXPECT_EQ(img.substr(off, n), m->name());
    off += n;
    uint64_t len = u64();
    EXPECT_EQ(img.substr(off, len), toy_text(*m));
    off += len;
  }
  EXPECT_EQ(off, img.size());
}

TEST(Toy, BuildWritesOneToyFilePerModule) {
  ToyBackend toy;
  auto a = host_module("a");
  auto b = host_module("b");
  const ir::Module* mods[] = {a.get(), b.get()};
  std::filesystem::path dir = std::filesystem::temp_directory_path() / str_cat("toy-build-", getpid());
  std::filesystem::create_directories(dir);
  BackendContext ctx;
  absl::StatusOr<BuildResult> r = toy.build(mods, dir, ctx);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->outputs.size(), 2u);
  EXPECT_EQ(r->outputs[0], dir / "a.toy");
  std::ifstream in(dir / "b.toy");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), toy_text(*b));
  EXPECT_THAT(ctx.notes(), ElementsAre("toy: built 2 module(s) with toy sdk 0"));
  std::filesystem::remove_all(dir);
}

// ---- Through the service ---------------------------------------------------------

absl::StatusOr<InvokeResult> run(v1::Backend::Stub& stub, v1::InvokeHeader::Action action,
                                 std::string format, ModuleList mods, Options options = {}) {
  v1::InvokeHeader h;
  h.set_action(action);
  h.set_format(std::move(format));
  h.set_run_passes(true);
  h.set_validate(true);
  wire::to_proto(options, *h.mutable_options());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  return invoke(stub, ctx, h, mods);
}

TEST(ToyService, EmitEmitProgramAndBuildInProcess) {
  auto host = serve_in_process(create_backend);
  auto stub = v1::Backend::NewStub(host->channel);
  auto a = host_module("a");
  auto b = host_module("b");
  const ir::Module* mods[] = {a.get(), b.get()};
  // What the backend should see: the modules after its own pass.
  ToyBackend toy;
  auto a2 = ir::clone(*a);
  auto b2 = ir::clone(*b);
  ASSERT_TRUE(run_backend_passes(toy, *a2, BackendContext{}).ok());
  ASSERT_TRUE(run_backend_passes(toy, *b2, BackendContext{}).ok());

  absl::StatusOr<InvokeResult> r = run(*stub, v1::InvokeHeader::EMIT, "toy", mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished);
  ASSERT_EQ(r->artifacts.size(), 2u);
  EXPECT_EQ(r->artifacts[0].data, toy_text(*a2));
  EXPECT_EQ(r->artifacts[1].data, toy_text(*b2));

  r = run(*stub, v1::InvokeHeader::EMIT_PROGRAM, "toy-image", mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_TRUE(r->artifacts[0].binary);
  const ir::Module* after[] = {a2.get(), b2.get()};
  EXPECT_EQ(r->artifacts[0].data, toy_image(after));

  r = run(*stub, v1::InvokeHeader::BUILD, {}, mods, Options{{"sdk-version", "1.4"}});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished);
  ASSERT_EQ(r->files.size(), 2u);
  EXPECT_EQ(r->files[0].path, "a.toy");
  EXPECT_EQ(r->files[0].data, toy_text(*a2));
  EXPECT_THAT(r->finished->outputs(), ElementsAre("a.toy", "b.toy"));
  EXPECT_THAT(r->notes, ElementsAre("toy: built 2 module(s) with toy sdk 1.4"));
}

TEST(ToyService, RefusalsReachTheDriverWithTheirCodes) {
  auto host = serve_in_process(create_backend);
  auto stub = v1::Backend::NewStub(host->channel);
  auto k = kernel_module();
  const ir::Module* mods[] = {k.get()};
  absl::StatusOr<InvokeResult> r = run(*stub, v1::InvokeHeader::EMIT, "toy", mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::VALIDATION);
  EXPECT_EQ(r->error->what(), "gpu.thread_id in kern");
  EXPECT_EQ(r->error->location().line(), 4u);
  EXPECT_EQ(error_code(wire::status_of(*r->error)), "E1802");
  EXPECT_EQ(std::string(wire::status_of(*r->error).message()),
            "backend 'toy' cannot take gpu.thread_id in kern at k.ppy:4:9 (needs device kernels)");

  auto a = host_module("a");
  const ir::Module* ok_mods[] = {a.get()};
  r = run(*stub, v1::InvokeHeader::BUILD, {}, ok_mods, Options{{"sdk-version", "missing"}});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(error_code(wire::status_of(*r->error)), "E1801");
  EXPECT_EQ(std::string(wire::status_of(*r->error).message()),
            "backend 'toy' is unavailable here: missing toy-sdk");
}

// ---- The real executable ---------------------------------------------------------

/// A spawned helper; killed (if still running) and reaped on destruction.
struct Child {
  pid_t pid = -1;
  int out = -1;  ///< its stdout, when captured

  ~Child() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    if (out >= 0) ::close(out);
  }
  /// Waits up to `timeout` for the exit; the wait status, or -1 if still running.
  int wait_for(std::chrono::milliseconds timeout) {
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  /// The first line it prints, within `timeout`.
  std::string read_line(std::chrono::milliseconds timeout) {
    std::string line;
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{out, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char c;
      if (::read(out, &c, 1) != 1) break;
      if (c == '\n') return line;
      line.push_back(c);
    }
    return line;
  }
};

/// fork/exec of the toy with `args`; `fd3` becomes its descriptor 3 when given.
std::unique_ptr<Child> spawn(std::vector<std::string> args, int fd3 = -1, bool capture = false) {
  std::vector<char*> argv;
  args.insert(args.begin(), kToy);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipefd[2] = {-1, -1};
  if (capture && ::pipe2(pipefd, O_CLOEXEC) != 0) return nullptr;
  auto child = std::make_unique<Child>();
  child->pid = ::fork();
  if (child->pid == 0) {
    if (fd3 == 3) ::fcntl(3, F_SETFD, 0);  // keep it across exec
    else if (fd3 >= 0) ::dup2(fd3, 3);     // the copy is not close-on-exec
    if (capture) ::dup2(pipefd[1], 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (capture) {
    ::close(pipefd[1]);
    child->out = pipefd[0];
  }
  return child;
}

bool handshake(v1::Backend::Stub& stub, v1::HandshakeResponse& resp, std::string* error = nullptr) {
  v1::HandshakeRequest req;
  req.add_api_versions(kBackendApiVersion);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  grpc::Status s = stub.Handshake(&ctx, req, &resp);
  if (error) *error = s.error_message();
  return s.ok();
}

TEST(ToyExecutable, HandshakeOverASocketPairThenExitsWhenTheDriverCloses) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  auto child = spawn({"--fd", "3"}, sv[1]);
  ::close(sv[1]);
  {
    auto channel = grpc::CreateCustomInsecureChannelFromFd("ppy-backend-toy", sv[0],
                                                           backend_channel_arguments());
    auto stub = v1::Backend::NewStub(channel);
    v1::HandshakeResponse resp;
    std::string error;
    ASSERT_TRUE(handshake(*stub, resp, &error)) << error;
    EXPECT_EQ(resp.name(), "toy");
    EXPECT_EQ(resp.api_version(), 1);
    EXPECT_EQ(resp.distribution(), "ppy-toy");
    EXPECT_EQ(resp.fingerprint(), "toy:0");
    EXPECT_EQ(resp.toolchain().detail(), "toy sdk 0");
    ASSERT_EQ(resp.formats_size(), 2);
    EXPECT_EQ(resp.formats(1).name(), "toy-image");

    // A whole session over the socket.
    auto a = host_module("a");
    const ir::Module* mods[] = {a.get()};
    absl::StatusOr<InvokeResult> r = run(*stub, v1::InvokeHeader::BUILD, {}, mods);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->finished);
    EXPECT_EQ(r->files.size(), 1u);
    EXPECT_EQ(child->wait_for(std::chrono::milliseconds(0)), -1);  // still serving
    // The driver's end closes (gRPC owns the descriptor and closes it lazily when
    // the channel goes, so close the connection itself).
    ::shutdown(sv[0], SHUT_RDWR);
    int status = child->wait_for(std::chrono::seconds(10));
    ASSERT_NE(status, -1) << "the helper outlived its driver's socket";
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
}

TEST(ToyExecutable, NoHelperOutlivesItsDriver) {
  // A driver process spawns the helper on a socket pair and dies; the helper,
  // reparented to us (a subreaper), must end by itself.
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  int p[2];
  ASSERT_EQ(::pipe2(p, O_CLOEXEC), 0);
  std::string exe = kToy;
  char* argv[] = {exe.data(), const_cast<char*>("--fd"), const_cast<char*>("3"), nullptr};
  pid_t driver = ::fork();
  if (driver == 0) {  // only async-signal-safe calls from here
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) ::_exit(1);
    pid_t helper = ::fork();
    if (helper == 0) {
      if (sv[1] == 3) ::fcntl(3, F_SETFD, 0);
      else ::dup2(sv[1], 3);
      ::execv(argv[0], argv);
      ::_exit(127);
    }
    ::close(sv[1]);
    (void)!::write(p[1], &helper, sizeof helper);
    struct timespec ts{0, 300'000'000};  // let it start serving
    ::nanosleep(&ts, nullptr);
    ::_exit(0);  // the kernel closes the driver's end
  }
  ::close(p[1]);
  pid_t helper = -1;
  ASSERT_EQ(::read(p[0], &helper, sizeof helper), static_cast<ssize_t>(sizeof helper));
  ::close(p[0]);
  ::waitpid(driver, nullptr, 0);
  Child child;
  child.pid = helper;
  int status = child.wait_for(std::chrono::seconds(10));
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  ASSERT_NE(status, -1) << "the helper outlived its driver";
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}


TEST(ToyExecutable, ShutdownEndsASocketHelper) {
  std::filesystem::path sock =
      std::filesystem::temp_directory_path() / str_cat("ppy-toy-", getpid(), ".sock");
  auto child = spawn({"--socket", sock.string()}, -1, /*capture=*/true);
  EXPECT_EQ(child->read_line(std::chrono::seconds(20)), "listening unix:" + sock.string());
  auto stub = v1::Backend::NewStub(
      grpc::CreateCustomChannel("unix:" + sock.string(), grpc::InsecureChannelCredentials(),
                                backend_channel_arguments()));
  v1::HandshakeResponse resp;
  std::string error;
  ASSERT_TRUE(handshake(*stub, resp, &error)) << error;
  EXPECT_EQ(resp.name(), "toy");
  grpc::ClientContext ctx;
  v1::ShutdownResponse sr;
  EXPECT_TRUE(stub->Shutdown(&ctx, v1::ShutdownRequest(), &sr).ok());
  int status = child->wait_for(std::chrono::seconds(10));
  ASSERT_NE(status, -1);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_FALSE(std::filesystem::exists(sock));  // it cleans up its socket
}

TEST(ToyExecutable, RefusesABadCommandLine) {
  auto child = spawn({"--listen", "127.0.0.1:0"});
  int status = child->wait_for(std::chrono::seconds(10));
  ASSERT_NE(status, -1);
  EXPECT_EQ(WEXITSTATUS(status), 2);  // TLS files or --insecure are required
}

// ---- TLS ---------------------------------------------------------------------------

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ToyTls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / str_cat("ppy-toy-tls-", getpid());
    std::filesystem::create_directories(dir_);
    // A CA, a server certificate for localhost / 127.0.0.1 and a client certificate.
    std::string d = dir_.string();
    std::string script = str_cat(
        "set -e; cd '", d, "';",
        "K='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';",
        "openssl req -x509 $K -keyout ca.key -out ca.pem -days 2 -subj '/CN=ppy test CA' 2>/dev/null;",
        "openssl req $K -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null;",
        "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1' > san.cnf;",
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
        "-days 2 -extfile san.cnf 2>/dev/null;",
        "openssl req $K -keyout client.key -out client.csr -subj '/CN=ppy driver' 2>/dev/null;",
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem "
        "-days 2 2>/dev/null");
    ok_ = std::system(script.c_str()) == 0;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  /// Starts a --listen server on a free port; the address it prints.
  std::string listen(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--tls-cert",
                                     (dir_ / "server.pem").string(), "--tls-key",
                                     (dir_ / "server.key").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    child_ = spawn(args, -1, /*capture=*/true);
    std::string line = child_->read_line(std::chrono::seconds(20));
    return line.starts_with("listening ") ? line.substr(10) : std::string();
  }

  std::unique_ptr<v1::Backend::Stub> connect(const std::string& address, bool client_cert) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = slurp(dir_ / "ca.pem");
    if (client_cert) {
      ssl.pem_private_key = slurp(dir_ / "client.key");
      ssl.pem_cert_chain = slurp(dir_ / "client.pem");
    }
    return v1::Backend::NewStub(
        grpc::CreateCustomChannel(address, grpc::SslCredentials(ssl), backend_channel_arguments()));
  }

  static inline std::filesystem::path dir_;
  static inline bool ok_ = false;
  std::unique_ptr<Child> child_;
};

TEST_F(ToyTls, HandshakeOverLoopbackTls) {
  ASSERT_TRUE(ok_) << "openssl could not make the certificates";
  std::string address = listen({});
  ASSERT_THAT(address, StartsWith("127.0.0.1:"));
  EXPECT_NE(address, "127.0.0.1:0");
  auto stub = connect(address, false);
  v1::HandshakeResponse resp;
  std::string error;
  ASSERT_TRUE(handshake(*stub, resp, &error)) << error;
  EXPECT_EQ(resp.name(), "toy");

  // A shared server cannot be stopped by a client...
  grpc::ClientContext ctx;
  v1::ShutdownResponse sr;
  EXPECT_EQ(stub->Shutdown(&ctx, v1::ShutdownRequest(), &sr).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // ...but stops cleanly on SIGTERM.
  ::kill(child_->pid, SIGTERM);
  int status = child_->wait_for(std::chrono::seconds(10));
  ASSERT_NE(status, -1);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(ToyTls, MutualTlsNeedsAClientCertificate) {
  ASSERT_TRUE(ok_) << "openssl could not make the certificates";
  std::string address = listen({"--tls-client-ca", (dir_ / "ca.pem").string()});
  ASSERT_THAT(address, StartsWith("127.0.0.1:"));
  v1::HandshakeResponse resp;
  std::string error;
  EXPECT_FALSE(handshake(*connect(address, false), resp, &error));
  ASSERT_TRUE(handshake(*connect(address, true), resp, &error)) << error;
  EXPECT_EQ(resp.name(), "toy");
}

/// The SDK's conformance checks, in-process, as a vendor's own tests run them
/// (`ppy conformance toy` runs them against the spawned helper).
TEST(ToyConformance, PassesEveryCheck) {
  conformance::Settings settings;
  settings.name = "toy";
  settings.missing_toolchain = Options{{"sdk-version", "missing"}};
  conformance::expect_conformance(create_backend, settings);
}

}  // namespace
}  // namespace ppy::toy
