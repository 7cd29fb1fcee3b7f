// End-to-end tests of the backend host: real helper processes. The conformance
// suite runs against the toy backend in-process and spawned; the hostile
// backend misbehaves at each call in turn; drivers are killed mid-call.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "ppy/ir/testing.h"
#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/host/process.h"
#include "ppy/host/sandbox.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#ifdef PPY_HAVE_TOY
#include "ppy/backends/toy.h"
#endif

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace std::chrono_literals;

namespace ppy::host {
namespace {

const fs::path kHostile = fs::path(PPY_HOST_TEST_DIR) / "hostile" / "ppy-test-hostile";
const fs::path kDriver = fs::path(PPY_HOST_TEST_DIR) / "ppy-test-driver";

using ir::testing::small_module;

/// A kernel reading its thread id at k.ppy:4:9.
std::unique_ptr<ir::Module> kernel_module() {
  auto m = std::make_unique<ir::Module>("kern");
  m->dialects()["gpu"] = 1;
  ir::Function* k = m->add_function(std::make_unique<ir::Function>("kern", std::vector<ir::Param>{}, std::vector<ir::Type>{}));
  k->attributes().set("gpu.kind", "kernel");
  ir::Block* entry = k->create_entry_block();
  entry->append(ir::Operation::create("gpu.thread_id", {}, {ir::Type::index()}, {{"dim", "x"}}, ir::Location("k.ppy", 4, 9)));
  entry->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("k.ppy", 5, 1)));
  return m;
}

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/ppy-host-e2e-XXXXXX";
    path = mkdtemp(tmpl);
    fs::permissions(path, fs::perms::all);  // writable by a helper in a user namespace
  }
  ~TempDir() { fs::remove_all(path); }
};

Invocation emit_of(std::string format, const std::vector<const ir::Module*>& modules) {
  Invocation inv;
  inv.action = Invocation::Action::Emit;
  inv.format = std::move(format);
  inv.modules = modules;
  return inv;
}

// ---------------------------------------------------------------------------
// Conformance: the same tests against both hostings of the toy backend.

#ifdef PPY_HAVE_TOY
enum class Hosting { InProcess, Helper, HelperUnixSocket };

absl::StatusOr<std::unique_ptr<BackendHandle>> open_toy(Hosting h, Options options = {}) {
  if (h == Hosting::InProcess) {
    std::shared_ptr<const Backend> b = toy::create_backend(options);
    return in_process_backend(b, {false, "ppy-toy", "0.1", ""});
  }
  std::vector<fs::path> path{fs::path(PPY_BINARY_DIR) / "backends"};
  ManifestIndex index = ManifestIndex::scan(path);
  PPY_ASSIGN_OR_RETURN(const BackendEntry* entry, index.lookup("toy"));
  ConnectOptions o;
  o.options = options;
  if (h == Hosting::HelperUnixSocket) o.connection = ProcessOptions::Connection::UnixSocket;
  return connect_backend(*entry, o);
}

TEST(Toy, StrictSandboxServesOverAUnixSocketToo) {
  // The fallback connection binds a socket beside the scratch folder, which
  // the strict sandbox's write confinement must still allow.
  std::vector<fs::path> path{fs::path(PPY_BINARY_DIR) / "backends"};
  ManifestIndex index = ManifestIndex::scan(path);
  auto entry = index.lookup("toy");
  ASSERT_TRUE(entry.ok()) << entry.status();
  ConnectOptions o;
  o.connection = ProcessOptions::Connection::UnixSocket;
  SandboxPolicy strict;
  strict.mode = SandboxMode::Strict;
  o.sandbox_override = &strict;
  auto h = connect_backend(**entry, o);
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  auto r = (*h)->invoke(emit_of("toy", {m.get()}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*h)->sandbox().writes_confined(), landlock_available() || (*h)->sandbox().bubblewrap);
}

TEST(Toy, AVendorsExecutableLinkedIntoItsDistributionRunsInTheStrictSandbox) {
  // Issue 38: a vendor installs its program elsewhere and links it into the
  // distribution's folder. Bubblewrap showed the folder and so the link, but
  // not the file it names: `ppy-sandbox-init: cannot run ...`.
  if (bubblewrap_support().program.empty()) GTEST_SKIP() << bubblewrap_support().why;
  TempDir tmp;  // under /tmp, which a strict helper sees empty
  const fs::path vendor = tmp.path / "vendor" / "bin" / "ppy-backend-toy";
  fs::create_directories(vendor.parent_path());
  fs::copy_file(fs::path(PPY_BINARY_DIR) / "backends" / "toy" / "ppy-backend-toy", vendor);
  const fs::path dist = tmp.path / "dists" / "linked";
  fs::create_directories(dist);
  fs::create_symlink(vendor, dist / "ppy-backend-toy");
  std::ofstream(dist / "manifest.toml") << "[distribution]\nname = \"ppy-toy-linked\"\nversion = \"0.1\"\n\n"
                                           "[backends.toy]\nexecutable = \"ppy-backend-toy\"\nsandbox = \"strict\"\n";
  std::vector<fs::path> path{tmp.path / "dists"};
  ManifestIndex index = ManifestIndex::scan(path);
  auto entry = index.lookup("toy");
  ASSERT_TRUE(entry.ok()) << entry.status();
  // Discovery resolved the file it really runs.
  EXPECT_EQ((*entry)->executable, dist / "ppy-backend-toy");
  EXPECT_EQ((*entry)->real_executable, fs::canonical(vendor));
  for (auto connection : {ProcessOptions::Connection::SocketPair, ProcessOptions::Connection::UnixSocket}) {
    ConnectOptions o;
    o.connection = connection;
    auto h = connect_backend(**entry, o);
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_TRUE((*h)->sandbox().bubblewrap);
    auto m = small_module("m");
    auto r = (*h)->invoke(emit_of("toy", {m.get()}));
    ASSERT_TRUE(r.ok()) << r.status();
  }
}

TEST(StrictSandbox, AVendorsProgramFindsItsLibraryBesideIt) {
  // What the loader needs comes along: the vendor's library, found through
  // the program's RUNPATH `$ORIGIN/../lib` outside every visible folder.
  if (bubblewrap_support().program.empty()) GTEST_SKIP() << bubblewrap_support().why;
  TempDir tmp;
  const fs::path built = fs::path(PPY_HOST_TEST_DIR) / "vendored";
  fs::create_directories(tmp.path / "vendor" / "bin");
  fs::create_directories(tmp.path / "vendor" / "lib");
  fs::copy_file(built / "bin" / "ppy-test-vendored", tmp.path / "vendor" / "bin" / "ppy-test-vendored");
  fs::copy_file(built / "lib" / "libppy_vendored.so", tmp.path / "vendor" / "lib" / "libppy_vendored.so");
  fs::create_directories(tmp.path / "dist");
  fs::create_symlink(tmp.path / "vendor" / "bin" / "ppy-test-vendored", tmp.path / "dist" / "tool");
  ProcessOptions o;
  o.executable = tmp.path / "dist" / "tool";
  o.sandbox.mode = SandboxMode::Strict;
  auto p = BackendProcess::spawn(o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE((*p)->sandbox().bubblewrap);
  ExitInfo e = (*p)->wait_for(10s);
  EXPECT_EQ(e.kind, ExitInfo::Kind::Exited) << e.describe() << "\n" << (*p)->output_tail();
  EXPECT_EQ(e.code, 0) << (*p)->output_tail();
  EXPECT_THAT((*p)->output_tail(), HasSubstr("vendored: 42"));
}

class Conformance : public ::testing::TestWithParam<Hosting> {
 protected:
  void SetUp() override {
    auto h = open_toy(GetParam());
    ASSERT_TRUE(h.ok()) << h.status();
    toy_ = std::move(*h);
  }
  std::unique_ptr<BackendHandle> toy_;
};

TEST_P(Conformance, HandshakeSaysWhoItIs) {
  const BackendInfo& i = toy_->info();
  EXPECT_EQ(i.name, "toy");
  EXPECT_EQ(i.api_version, 1);
  EXPECT_EQ(i.distribution, "ppy-toy");
  EXPECT_EQ(i.version, "0.1");
  ASSERT_NE(i.format("toy"), nullptr);
  EXPECT_EQ(i.format("toy")->suffix, ".toy");
  ASSERT_NE(i.format("toy-image"), nullptr);
  EXPECT_TRUE(i.format("toy-image")->binary);
  EXPECT_EQ(i.format("toy-image")->scope, EmitScope::Program);
  ASSERT_EQ(i.passes.size(), 1u);
  EXPECT_EQ(i.passes[0].name, "toy-count-ops");
  EXPECT_EQ(i.passes[0].stage, "backend");
  EXPECT_EQ(i.fingerprint, "toy:0");
  EXPECT_EQ(*toy_->fingerprint(), "toy:0");
  auto t = toy_->toolchain_status();
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->available);
  EXPECT_EQ(t->detail, "toy sdk 0");
}

TEST_P(Conformance, EmitsOneTextArtifactPerModuleAfterItsPasses) {
  auto a = small_module("a"), b = small_module("b");
  auto r = toy_->invoke(emit_of("toy", {a.get(), b.get()}));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->artifacts.size(), 2u);
  EXPECT_EQ(r->artifacts[0].module, "a");
  EXPECT_EQ(r->artifacts[1].module, "b");
  EXPECT_FALSE(r->artifacts[0].binary);
  EXPECT_THAT(r->artifacts[0].data, HasSubstr("// f: 3 operations"));
  // The driver's module is untouched: the passes ran on the backend's copy.
  EXPECT_EQ(a->function("f")->attributes().get("toy.ops"), nullptr);
}

TEST_P(Conformance, EmitsAProgramArtifactAsBytes) {
  auto a = small_module("a"), b = small_module("b");
  Invocation inv = emit_of("toy-image", {a.get(), b.get()});
  inv.action = Invocation::Action::EmitProgram;
  auto r = toy_->invoke(inv);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_TRUE(r->artifacts[0].binary);
  EXPECT_THAT(r->artifacts[0].data, StartsWith("TOYIMG01"));
}

// A build's files come back as bytes; the host writes nothing (the driver
// writes them once, into the cache and under -o).
TEST_P(Conformance, BuildAnswersItsFilesAsBytes) {
  auto a = small_module("app");
  Invocation inv;
  inv.action = Invocation::Action::Build;
  inv.modules = {a.get()};
  auto r = toy_->invoke(inv);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->outputs, ::testing::ElementsAre("app.toy"));
  ASSERT_EQ(r->files.size(), 1u);
  EXPECT_EQ(r->files[0].path, "app.toy");
  EXPECT_FALSE(r->files[0].executable);
  EXPECT_THAT(r->files[0].data, HasSubstr("// f: 3 operations"));
}

TEST_P(Conformance, ValidationRefusalIsE1802WithTheLocation) {
  auto k = kernel_module();
  auto r = toy_->invoke(emit_of("toy", {k.get()}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1802");
  EXPECT_EQ(error_text(r.status()), "backend 'toy' cannot take gpu.thread_id in kern at k.ppy:4:9 (needs device kernels)");
}

TEST_P(Conformance, UnknownFormatAndWrongScopeAreRefused) {
  auto a = small_module("a");
  auto r = toy_->invoke(emit_of("nope", {a.get()}));
  EXPECT_EQ(error_code(r.status()), "E1802");
  EXPECT_THAT(error_text(r.status()), HasSubstr("does not emit 'nope'"));
  auto s = toy_->invoke(emit_of("toy-image", {a.get()}));  // program-scoped, asked per module
  EXPECT_EQ(error_code(s.status()), "E1802");
}

TEST_P(Conformance, ARefusalBeforeALargeModuleIsReadIsAnsweredAndTheNextCallWorks) {
  // 48 MiB of constants: more than the stream's flow-control windows hold, so
  // the backend refuses (an unknown format) while the module is still being
  // written; that write ends, and the refusal is what the call answers.
  auto big = small_module("big");
  for (int i = 0; i < 3; ++i) {
    ir::Global g;
    g.name = str_cat("blob", i);
    g.type = ir::Type::buffer(ir::Type::scalar(ir::TypeKind::U8));
    g.initializer = ir::Attribute(std::string(size_t{16} << 20, static_cast<char>('a' + i)));
    big->globals().emplace(g.name, std::move(g));
  }
  auto r = toy_->invoke(emit_of("nope", {big.get()}));
  EXPECT_EQ(error_code(r.status()), "E1802");
  EXPECT_THAT(error_text(r.status()), HasSubstr("does not emit 'nope'"));
  auto a = small_module("a");
  auto ok = toy_->invoke(emit_of("toy", {a.get()}));
  EXPECT_TRUE(ok.ok()) << ok.status();
}

TEST_P(Conformance, ReturnedModulesCarryWhatThePassesDid) {
  auto a = small_module("a");
  Invocation inv;
  inv.action = Invocation::Action::Validate;
  inv.return_modules = true;
  inv.modules = {a.get()};
  auto r = toy_->invoke(inv);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->modules.size(), 1u);
  const ir::Attribute* ops = r->modules[0]->function("f")->attributes().get("toy.ops");
  ASSERT_NE(ops, nullptr);
  ASSERT_EQ(r->passes.size(), 1u);
  EXPECT_EQ(r->passes[0].name, "toy-count-ops");
}

TEST_P(Conformance, MissingToolchainIsE1801) {
  auto h = open_toy(GetParam(), Options{{"sdk-version", "missing"}});
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_FALSE((*h)->info().toolchain.available);
  auto a = small_module("a");
  auto r = (*h)->invoke(emit_of("toy", {a.get()}));
  EXPECT_EQ(error_code(r.status()), "E1801");
  EXPECT_EQ(error_text(r.status()), "backend 'toy' is unavailable here: missing toy-sdk");
  EXPECT_EQ(error_code(require_toolchain((*h)->info(), nullptr)), "E1801");
}

INSTANTIATE_TEST_SUITE_P(Hostings, Conformance,
                         ::testing::Values(Hosting::InProcess, Hosting::Helper, Hosting::HelperUnixSocket),
                         [](const auto& info) {
                           switch (info.param) {
                             case Hosting::InProcess: return "InProcess";
                             case Hosting::Helper: return "Helper";
                             default: return "HelperUnixSocket";
                           }
                         });

TEST(Toy, SpawnedHelperIsSandboxedAndCleanedUp) {
  auto h = open_toy(Hosting::Helper);
  ASSERT_TRUE(h.ok()) << h.status();
  BackendProcess* p = (*h)->process();
  ASSERT_NE(p, nullptr);
  pid_t pid = p->pid();
  fs::path run = p->run_dir();
  EXPECT_TRUE((*h)->sandbox().scrubbed_env);
  h->reset();
  EXPECT_NE(::kill(pid, 0), 0);
  EXPECT_FALSE(fs::exists(run));
}

/// Makes a CA, a server certificate for localhost/127.0.0.1 and a client
/// certificate, all signed by the CA, in `dir` (openssl).
void make_certificates(const fs::path& dir) {
  std::string script = str_cat(
      "set -e; cd '", dir.string(), "';", "K='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';",
      "openssl req -x509 $K -keyout ca.key -out ca.pem -days 2 -subj '/CN=ppy test CA' 2>/dev/null;",
      "openssl req $K -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null;",
      "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1' > san.cnf;",
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
      "-days 2 -extfile san.cnf 2>/dev/null;",
      "openssl req $K -keyout client.key -out client.csr -subj '/CN=ppy driver' 2>/dev/null;",
      "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null");
  ASSERT_EQ(std::system(script.c_str()), 0) << "openssl could not make the certificates";
}

/// The toy serving TLS on a loopback port (`extra`: more of its flags); sets
/// `pid` and answers the endpoint it printed.
std::string serve_toy_tls(const fs::path& dir, std::vector<std::string> extra, pid_t& pid) {
  int out[2];
  if (pipe(out) != 0) return {};
  pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    std::string toy = std::string(PPY_BINARY_DIR) + "/backends/toy/ppy-backend-toy";
    std::vector<std::string> args = {toy, "--listen", "127.0.0.1:0", "--tls-cert", (dir / "server.pem").string(),
                                     "--tls-key", (dir / "server.key").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(toy.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string line;
  char c;
  while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
  close(out[0]);
  return line.starts_with("listening ") ? line.substr(10) : std::string();
}

BackendEntry remote_toy(const std::string& endpoint) {
  BackendEntry e;
  e.name = "toy";
  e.distribution = "ppy-toy";
  e.version = "0.1";
  if (!endpoint.empty()) e.endpoints = {endpoint};
  return e;
}

// A loopback TLS server (the toy with --listen) reached through an endpoint.
TEST(Toy, RemoteEndpointOverLoopbackTls) {
  TempDir d;
  make_certificates(d.path);
  pid_t server = -1;
  BackendEntry e = remote_toy(serve_toy_tls(d.path, {}, server));
  ASSERT_FALSE(e.endpoints.empty());
  e.tls.ca = (d.path / "ca.pem").string();
  auto h = connect_backend(e);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ((*h)->process(), nullptr);
  auto a = small_module("a");
  auto r = (*h)->invoke(emit_of("toy", {a.get()}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->artifacts.at(0).data, HasSubstr("3 operations"));
  // Without the CA the server is not trusted.
  e.tls.ca.clear();
  HostSettings quick;
  quick.handshake_timeout = 2000ms;
  e.settings = quick;
  auto t0 = std::chrono::steady_clock::now();
  auto untrusted = connect_backend(e);
  EXPECT_EQ(error_code(untrusted.status()), "E1903");
  EXPECT_THAT(error_text(untrusted.status()), HasSubstr(" at " + e.endpoints[0] + " could not be reached: UNAVAILABLE"));
  ::kill(server, SIGTERM);
  waitpid(server, nullptr, 0);
  // Nothing listening: said at once, not when the handshake's deadline passes.
  quick.handshake_timeout = 20000ms;
  e.settings = quick;
  auto refused = connect_backend(e);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  EXPECT_EQ(error_code(refused.status()), "E1903");
  EXPECT_THAT(error_text(refused.status()), HasSubstr(" at " + e.endpoints[0] + " could not be reached: UNAVAILABLE"));
}

// gRPC's own log line of a failed TLS handshake (`E1203 ... ssl_transport_security.cc
// ... Handshake failed`) read as ppy's error code E1203 (issue 18): the error is
// ppy's alone, and gRPC's lines appear only when PPY_GRPC_LOG asks.
TEST(Toy, AFailedTlsHandshakeIsPpysErrorWithoutGrpcsLogLines) {
  TempDir d;
  make_certificates(d.path);
  std::string other = str_cat("cd '", d.path.string(), "' && openssl req -x509 -newkey ec -pkeyopt "
                              "ec_paramgen_curve:prime256v1 -nodes -keyout other.key -out other.pem -days 2 "
                              "-subj '/CN=another CA' 2>/dev/null");
  ASSERT_EQ(std::system(other.c_str()), 0);
  pid_t server = -1;
  BackendEntry e = remote_toy(serve_toy_tls(d.path, {}, server));
  ASSERT_FALSE(e.endpoints.empty());
  e.tls.ca = (d.path / "other.pem").string();  // the server's certificate is not signed by it
  HostSettings quick;
  quick.handshake_timeout = 3000ms;
  e.settings = quick;
  for (const char* asked : {static_cast<const char*>(nullptr), "error"}) {
    SCOPED_TRACE(asked ? asked : "unset");
    if (asked) setenv("PPY_GRPC_LOG", asked, 1);
    else unsetenv("PPY_GRPC_LOG");
    ::testing::internal::CaptureStderr();
    auto h = connect_backend(e);
    std::this_thread::sleep_for(200ms);  // a line gRPC logs from another thread
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(error_code(h.status()), "E1903");
    EXPECT_THAT(error_text(h.status()), HasSubstr(" at " + e.endpoints[0] + " could not be reached: UNAVAILABLE"));
    EXPECT_THAT(err, Not(::testing::ContainsRegex("(^|\n)[DIWE][0-9]{4} ")));  // gRPC's own prefix
    if (asked) EXPECT_THAT(err, HasSubstr("grpc (ERROR "));
    else EXPECT_EQ(err, "");
  }
  unsetenv("PPY_GRPC_LOG");
  ::kill(server, SIGTERM);
  waitpid(server, nullptr, 0);
}

// A build farm that asks for client certificates: the manifest's tls-cert and
// tls-key are the driver's.
TEST(Toy, RemoteEndpointWithMutualTls) {
  TempDir d;
  make_certificates(d.path);
  pid_t server = -1;
  BackendEntry e = remote_toy(serve_toy_tls(d.path, {"--tls-client-ca", (d.path / "ca.pem").string()}, server));
  ASSERT_FALSE(e.endpoints.empty());
  e.tls.ca = (d.path / "ca.pem").string();
  HostSettings quick;
  quick.handshake_timeout = 5000ms;
  e.settings = quick;
  auto anonymous = connect_backend(e);
  EXPECT_EQ(error_code(anonymous.status()), "E1903");
  e.tls.cert = (d.path / "client.pem").string();
  e.tls.key = (d.path / "client.key").string();
  auto h = connect_backend(e);
  ASSERT_TRUE(h.ok()) << h.status();
  auto a = small_module("a");
  auto r = (*h)->invoke(emit_of("toy", {a.get()}));
  EXPECT_TRUE(r.ok()) << r.status();
  e.tls.key = (d.path / "no-such.key").string();
  auto unreadable = connect_backend(e);
  EXPECT_EQ(error_code(unreadable.status()), "E1903");
  EXPECT_THAT(error_text(unreadable.status()), HasSubstr("no-such.key"));
  ::kill(server, SIGTERM);
  waitpid(server, nullptr, 0);
}
#endif  // PPY_HAVE_TOY

// ---------------------------------------------------------------------------
// Hostile helpers.

BackendEntry hostile(std::vector<std::string> args, HostSettings settings = {}) {
  BackendEntry e;
  e.name = "hostile";
  e.distribution = "ppy-hostile";
  e.version = "6.6";
  e.manifest = fs::path(PPY_HOST_TEST_DIR) / "hostile" / "manifest.toml";
  e.executable = kHostile;
  e.args = std::move(args);
  e.settings = settings;
  return e;
}

absl::Status run_call(BackendHandle& h, const std::string& call) {
  auto m = small_module("m");
  if (call == "fingerprint") return h.fingerprint().status();
  if (call == "toolchain") return h.toolchain_status().status();
  Invocation inv = emit_of("hostile", {m.get()});
  if (call == "passes" || call == "validate") inv.action = Invocation::Action::Validate;
  inv.run_passes = call == "passes";
  if (call == "build") inv.action = Invocation::Action::Build;
  if (call == "emit_program") {
    inv.action = Invocation::Action::EmitProgram;
    inv.format = "hostile-prog";
  }
  return h.invoke(inv).status();
}

class HostileTest : public ::testing::Test {
 protected:
  TempDir tmp_;
};

TEST_F(HostileTest, SegfaultAtHandshakeIsALoadErrorWithTheTail) {
  auto h = connect_backend(hostile({"--crash-at", "handshake"}));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("backend 'hostile' (ppy-hostile 6.6 ("));
  EXPECT_THAT(error_text(h.status()), HasSubstr("was killed by SIGSEGV"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("hostile: crashing in handshake"));
}

TEST_F(HostileTest, SegfaultAtEachCallIsE1905AndTheDriverGoesOn) {
  for (std::string call : {"fingerprint", "toolchain", "passes", "validate", "emit", "emit_program", "build"}) {
    SCOPED_TRACE(call);
    auto h = connect_backend(hostile({"--crash-at", call}));
    ASSERT_TRUE(h.ok()) << h.status();
    pid_t pid = (*h)->process()->pid();
    absl::Status s = run_call(**h, call);
    EXPECT_EQ(error_code(s), "E1905") << s;
    std::string text = error_text(s);
    EXPECT_THAT(text, HasSubstr("backend 'hostile'"));
    EXPECT_THAT(text, HasSubstr("it crashed: it was killed by SIGSEGV"));
    EXPECT_THAT(text, HasSubstr("hostile: crashing in " + call));
    EXPECT_FALSE((*h)->process()->poll().running());
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);  // reaped, no zombie
    // A dead helper takes no more calls, and says why.
    absl::Status again = (*h)->fingerprint().status();
    EXPECT_EQ(error_code(again), "E1905");
    EXPECT_THAT(error_text(again), HasSubstr("SIGSEGV"));
  }
}

/// Emits text, after a validate that throws.
class ThrowsInValidate final : public Backend {
 public:
  std::string_view name() const override { return "thrower"; }
  std::vector<EmitFormat> emit_formats() const override { return {EmitFormat{.name = "t", .suffix = ".t"}}; }
  absl::Status validate(const ir::Module&, const BackendContext&) const override {
    throw std::runtime_error("no");
  }
};

TEST(InProcess, AnExceptionNamesTheStepItWasThrownIn) {
  auto h = in_process_backend(std::make_shared<ThrowsInValidate>());
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  absl::Status s = (*h)->invoke(emit_of("t", {m.get()})).status();
  EXPECT_EQ(error_code(s), "E1905") << s;
  EXPECT_THAT(error_text(s), HasSubstr("backend 'thrower' (builtin) failed during validate: it threw: no"));
}

TEST_F(HostileTest, ACrashNamesTheStepItHappenedInNotTheAction) {
  // An emit whose helper dies in validate failed during validate (issue 17).
  auto h = connect_backend(hostile({"--crash-at", "validate"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  absl::Status s = (*h)->invoke(emit_of("hostile", {m.get()})).status();
  EXPECT_EQ(error_code(s), "E1905") << s;
  EXPECT_THAT(error_text(s), HasSubstr("failed during validate: it crashed"));
  EXPECT_THAT(error_text(s), Not(HasSubstr("failed during emit")));
}

TEST_F(HostileTest, AHelperOnTheSdkRecordsItsStepsInTheStepFile) {
  // No Step travels: the step a session is in is a word the driver reads in
  // the helper's scratch folder, written before the step began.
  auto h = connect_backend(hostile({}));
  ASSERT_TRUE(h.ok()) << h.status();
  const fs::path file = (*h)->process()->scratch_dir() / ".ppy-steps";
  ASSERT_TRUE(fs::exists(file));
  auto m = small_module("m");
  ASSERT_TRUE((*h)->invoke(emit_of("hostile", {m.get()})).ok());
  std::ifstream in(file, std::ios::binary);
  uint64_t word = 0;
  bool emit = false;
  while (in.read(reinterpret_cast<char*>(&word), sizeof word))
    emit = emit || (word != 0 && (word & 0xff) == 3);  // 3: emit
  EXPECT_TRUE(emit);
}

TEST_F(HostileTest, ExitDuringACallIsE1905WithTheStatus) {
  auto h = connect_backend(hostile({"--exit-at", "emit"}));
  ASSERT_TRUE(h.ok()) << h.status();
  absl::Status s = run_call(**h, "emit");
  EXPECT_EQ(error_code(s), "E1905");
  EXPECT_THAT(error_text(s), HasSubstr("failed during emit: it exited with status 3"));
}

// A helper that exits while a child of its own still holds its socket is seen
// to exit at once, at the handshake and during a call, rather than when the
// deadline passes (issue 18). Without a sandbox nothing else ends the child.
TEST_F(HostileTest, AnExitWhileItsChildHoldsTheSocketIsSeenAtOnce) {
  for (SandboxMode mode : {SandboxMode::Off, SandboxMode::Default}) {
    SCOPED_TRACE(std::string(sandbox_mode_name(mode)));
    HostSettings s;
    s.sandbox = mode;
    s.handshake_timeout = 10000ms;
    s.timeout = 20000ms;
    auto t0 = std::chrono::steady_clock::now();
    auto early = connect_backend(hostile({"--fork-exit-early"}, s));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    EXPECT_EQ(error_code(early.status()), "E1903");
    EXPECT_THAT(error_text(early.status()), HasSubstr("could not be started: the helper exited with status 7"));
    EXPECT_THAT(error_text(early.status()), HasSubstr("a child holding the socket"));

    auto h = connect_backend(hostile({"--fork-exit-at", "emit"}, s));
    ASSERT_TRUE(h.ok()) << h.status();
    t0 = std::chrono::steady_clock::now();
    absl::Status st = run_call(**h, "emit");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    EXPECT_EQ(error_code(st), "E1905");
    EXPECT_THAT(error_text(st), HasSubstr("failed during emit: it exited with status 3"));
    // The handle stays dead with the same cause.
    EXPECT_THAT(error_text(run_call(**h, "emit")), HasSubstr("it exited with status 3"));
  }
}

/// Calls that time out after 300 ms; the handshake is given all the time it needs.
HostSettings short_calls() {
  HostSettings s;
  s.timeout = 300ms;
  s.handshake_timeout = 10000ms;
  return s;
}

/// `n` emits on `h` at once, as `ppy emit -j N` makes them; `meanwhile` runs
/// while they are in flight.
std::vector<absl::Status> parallel_emits(BackendHandle& h, size_t n, const fs::path& out,
                                         const std::function<void()>& meanwhile = {}) {
  std::vector<absl::Status> got(n);
  std::vector<std::thread> calls;
  for (size_t i = 0; i < n; ++i) calls.emplace_back([&, i] { got[i] = run_call(h, "emit"); });
  if (meanwhile) meanwhile();
  for (auto& t : calls) t.join();
  return got;
}

TEST_F(HostileTest, HangPastTheDeadlineIsE1905Timeout) {
  auto h = connect_backend(hostile({"--hang-at", "emit"}, short_calls()));
  ASSERT_TRUE(h.ok()) << h.status();
  auto t0 = std::chrono::steady_clock::now();
  absl::Status st = run_call(**h, "emit");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(error_code(st), "E1905");
  EXPECT_THAT(error_text(st), HasSubstr("did not answer within 300 ms"));
  EXPECT_THAT(error_text(st), HasSubstr("hostile: hanging in emit"));
  EXPECT_FALSE((*h)->process()->poll().running());
}

TEST_F(HostileTest, ParallelCallsPastTheirDeadlineAllSayTimeout) {
  // Each times out and stops the helper the others are waiting on.
  auto h = connect_backend(hostile({"--hang-at", "emit"}, short_calls()));
  ASSERT_TRUE(h.ok()) << h.status();
  const pid_t pid = (*h)->process()->pid();
  for (const absl::Status& st : parallel_emits(**h, 4, tmp_.path)) {
    EXPECT_EQ(error_code(st), "E1905");
    EXPECT_THAT(error_text(st), HasSubstr("did not answer within 300 ms"));
  }
  EXPECT_EQ((*h)->process()->pid(), pid);
  EXPECT_FALSE((*h)->process()->poll().running());
}

TEST_F(HostileTest, CancelReachesEveryCallInFlight) {
  auto h = connect_backend(hostile({"--hang-at", "emit"}));
  ASSERT_TRUE(h.ok()) << h.status();
  std::chrono::steady_clock::time_point cancelled;
  auto got = parallel_emits(**h, 3, tmp_.path, [&] {
    std::this_thread::sleep_for(300ms);
    cancelled = std::chrono::steady_clock::now();
    (*h)->cancel();
  });
  EXPECT_LT(std::chrono::steady_clock::now() - cancelled, 5s);
  for (const absl::Status& st : got) {
    EXPECT_EQ(error_code(st), "E1905");
    EXPECT_THAT(error_text(st), HasSubstr("cancelled"));
  }
}

TEST_F(HostileTest, HangAtTheHandshakeIsALoadError) {
  HostSettings s;
  s.handshake_timeout = 300ms;
  auto h = connect_backend(hostile({"--hang-at", "handshake"}, s));
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("did not answer the handshake within 300 ms"));
}

TEST_F(HostileTest, CancelEndsTheCallAndTheHelper) {
  auto h = connect_backend(hostile({"--hang-at", "emit"}));
  ASSERT_TRUE(h.ok()) << h.status();
  std::thread canceller([&] {
    std::this_thread::sleep_for(200ms);
    (*h)->cancel();
  });
  absl::Status st = run_call(**h, "emit");
  canceller.join();
  EXPECT_EQ(error_code(st), "E1905");
  EXPECT_THAT(error_text(st), HasSubstr("cancelled"));
  EXPECT_FALSE((*h)->process()->poll().running());
}

TEST_F(HostileTest, ExitBeforeServingIsALoadErrorWithTheTail) {
  auto h = connect_backend(hostile({"--exit-early"}));
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("could not be started: the helper exited with status 7"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("giving up before serving"));
}

TEST_F(HostileTest, GarbageOnTheSocketIsALoadError) {
  auto t0 = std::chrono::steady_clock::now();
  auto h = connect_backend(hostile({"--garbage"}));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 8s);
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("answered the handshake with something that is not the backend protocol"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("warming up"));
}

TEST_F(HostileTest, FactoryThatThrowsOrAnswersNothingIsALoadError) {
  auto e = hostile({"--factory", "throw"});
  auto h = connect_backend(e);
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), StartsWith("backend 'hostile' could not be created by " + e.origin() + ": boom\n"));
  auto n = connect_backend(hostile({"--factory", "null"}));
  EXPECT_EQ(error_code(n.status()), "E1903");
  EXPECT_THAT(error_text(n.status()), HasSubstr("answered no backend, not a ppy::Backend"));
}

TEST_F(HostileTest, CrashMessageCarriesBackendCallCauseAndTail) {
  auto e = hostile({"--crash-at", "emit"});
  auto h = connect_backend(e);
  ASSERT_TRUE(h.ok()) << h.status();
  absl::Status s = run_call(**h, "emit");
  EXPECT_EQ(error_text(s), "backend 'hostile' (" + e.origin() +
                               ") failed during emit: it crashed: it was killed by SIGSEGV (Segmentation fault)\n"
                               "  its last output:\n"
                               "  | hostile: warming up 1\n"
                               "  | hostile: warming up 2\n"
                               "  | hostile: warming up 3\n"
                               "  | hostile: crashing in emit");
}

TEST_F(HostileTest, WrongApiVersionNamesBothNumbers) {
  auto e = hostile({"--api-version", "99"});
  auto h = connect_backend(e);
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_EQ(error_text(h.status()),
            "backend 'hostile' (" + e.origin() +
                ") declares backend API version 99; this compiler speaks version 1. Upgrade the backend, or install a "
                "compiler that speaks version 99");
}

TEST_F(HostileTest, NoApiVersionSaysWhatToWrite) {
  auto h = connect_backend(hostile({"--api-version", "none"}));
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("does not declare the backend API version"));
  EXPECT_THAT(error_text(h.status()),
              HasSubstr("declare it on the class as a literal -- `api_version = 1` -- rather than inheriting it "
                        "(with the C++ SDK: `std::optional<int> api_version() const override { return 1; }`)"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("'hostile'"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("ppy-hostile"));
}

TEST_F(HostileTest, NotServingTheBackendServiceIsALoadError) {
  auto h = connect_backend(hostile({"--raw", "unimplemented"}));
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("does not serve the ppy.backend.v1.Backend service"));
}

TEST_F(HostileTest, PassAtAnotherStageIsE1802ByName) {
  auto h = connect_backend(hostile({"--raw", "bad-stage"}));
  EXPECT_EQ(error_code(h.status()), "E1802");
  EXPECT_THAT(error_text(h.status()), StartsWith("backend 'hostile' registers a pass at the 'before-backend' stage: "));
  EXPECT_THAT(error_text(h.status()), HasSubstr("`BackendPassRegistrar.add(factory)` is how one is hung there"));
}

TEST_F(HostileTest, APassThatBreaksTheIrInTheHelperIsE1904ByName) {
  // The SDK verifies after each pass, in the helper, and names the one.
  auto h = connect_backend(hostile({"--break-ir"}));
  ASSERT_TRUE(h.ok()) << h.status();
  absl::Status s = run_call(**h, "passes");
  EXPECT_EQ(error_code(s), "E1904");
  EXPECT_THAT(error_text(s), HasSubstr("hostile-pass"));
  EXPECT_TRUE((*h)->process()->poll().running());  // a refusal, not a crash: the helper goes on
}

TEST_F(HostileTest, ModulesThatComeBackInvalidAreE1904NamingThePassThatChangedThem) {
  // A backend not built on the SDK: the driver verifies what comes back.
  auto h = connect_backend(hostile({"--raw", "broken-modules"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  Invocation inv = emit_of("hostile", {m.get()});
  inv.action = Invocation::Action::Validate;
  inv.run_passes = true;
  inv.return_modules = true;
  absl::Status s = h->get()->invoke(inv).status();
  EXPECT_EQ(error_code(s), "E1904");
  EXPECT_THAT(error_text(s), StartsWith("backend 'hostile''s pass 'sneaky' (the one that changed it) left the IR invalid: "));
}

TEST_F(HostileTest, BytesForATextFormatIsE1802) {
  auto h = connect_backend(hostile({"--raw", "wrong-type"}));
  ASSERT_TRUE(h.ok()) << h.status();
  absl::Status s = run_call(**h, "emit");
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_EQ(error_text(s), "backend 'hostile' answered bytes for 'hostile', a text format");
}

TEST_F(HostileTest, UnboundedAllocationHitsTheLimit) {
  HostSettings s;
  s.memory_mb = 512;
  auto h = connect_backend(hostile({"--alloc-at", "emit"}, s));
  ASSERT_TRUE(h.ok()) << h.status();
  absl::Status st = run_call(**h, "emit");
  EXPECT_EQ(error_code(st), "E1905");
  EXPECT_THAT(error_text(st), HasSubstr("hostile: allocating in emit"));
  EXPECT_THAT(error_text(st), HasSubstr("malloc failed"));
  EXPECT_THAT(error_text(st), HasSubstr("killed by SIGABRT (Aborted) (it runs under a memory limit of 512 MiB"));
}

// BuildResult.outputs lists what was sent: an output the build did not send
// (a symlink, never streamed, or a file that is not there) is refused, and
// the build answers no files (issue 18).
TEST_F(HostileTest, BuildOutputsNamingWhatWasNotProducedAreE1802) {
  auto m = small_module("m");
  for (std::string mode : {"ok", "symlink", "missing"}) {
    SCOPED_TRACE(mode);
    auto h = connect_backend(hostile({"--build-outputs", mode}));
    ASSERT_TRUE(h.ok()) << h.status();
    Invocation inv;
    inv.action = Invocation::Action::Build;
    inv.modules = {m.get()};
    auto r = (*h)->invoke(inv);
    if (mode == "ok") {
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_THAT(r->outputs, ::testing::ElementsAre("real.out"));
      std::vector<std::string> sent;
      for (const BuildFile& f : r->files) sent.push_back(f.path);
      EXPECT_THAT(sent, ::testing::ElementsAre("real.out"));  // a symlink is never sent
      continue;
    }
    EXPECT_EQ(error_code(r.status()), "E1802") << r.status();
    EXPECT_THAT(error_text(r.status()),
                HasSubstr(str_cat("backend 'hostile' names '", mode == "symlink" ? "link.out" : "ghost.out",
                                  "' among its build outputs, but did not produce it")));
  }
}

// SIGABRT is any abort(): the memory limit is named only when the helper's
// output shows an allocation refused (issue 18).
TEST_F(HostileTest, APlainAbortIsReportedWithoutAMemoryHint) {
  HostSettings s;
  s.memory_mb = 512;
  auto h = connect_backend(hostile({"--abort-at", "emit"}, s));
  ASSERT_TRUE(h.ok()) << h.status();
  ASSERT_TRUE((*h)->sandbox().rlimits);
  absl::Status st = run_call(**h, "emit");
  EXPECT_EQ(error_code(st), "E1905");
  EXPECT_THAT(error_text(st), HasSubstr("it crashed: it was killed by SIGABRT (Aborted)"));
  EXPECT_THAT(error_text(st), HasSubstr("hostile: aborting in emit"));
  EXPECT_THAT(error_text(st), Not(HasSubstr("memory limit")));
}

/// A TCP listener on 127.0.0.1 for the escape attempts.
struct Listener {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  Listener() {
    sockaddr_in a = {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(fd, 4);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~Listener() { close(fd); }
};

TEST_F(HostileTest, WritesFailInDefaultAndStrictTcpInStrict) {
  Listener l;
  fs::path outside = tmp_.path / "escaped";
  for (SandboxMode mode : {SandboxMode::Default, SandboxMode::Strict}) {
    SCOPED_TRACE(std::string(sandbox_mode_name(mode)));
    HostSettings s;
    s.sandbox = mode;
    fs::remove(outside);
    auto h = connect_backend(hostile({"--escape", outside.string(), std::to_string(l.port)}, s));
    ASSERT_TRUE(h.ok()) << h.status();
    const std::string& observed = (*h)->info().toolchain.detail;
    SandboxReport report = (*h)->sandbox();
    // Writes outside the scratch folder (the artifact cache, here) are denied
    // in both modes where the kernel allows; the network only in strict.
    EXPECT_EQ(observed.substr(0, 12), report.writes_confined() ? "write=denied" : "write=ok");
    EXPECT_EQ(fs::exists(outside), !report.writes_confined());
    if (mode == SandboxMode::Default) {
      EXPECT_THAT(observed, HasSubstr("tcp=ok"));  // the control: the escape is real
    } else {
      EXPECT_THAT(observed, HasSubstr(report.no_network() || report.landlock_tcp ? "tcp=denied" : "tcp=ok"));
    }
    // The helper still serves over its socket pair in either mode.
    auto m = small_module("m");
    EXPECT_TRUE((*h)->invoke(emit_of("hostile", {m.get()})).ok());
  }
}

TEST_F(HostileTest, ManifestSettingsReachTheHelper) {
  std::vector<fs::path> path{fs::path(PPY_HOST_TEST_DIR)};
  ManifestIndex index = ManifestIndex::scan(path);
  EXPECT_TRUE(index.problems().empty()) << index.problems().front();
  auto old = index.lookup("hostile-old");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_THAT(error_text(connect_backend(**old).status()), HasSubstr("declares backend API version 99"));
  auto hang = index.lookup("hostile-hang");
  ASSERT_TRUE(hang.ok());
  auto h = connect_backend(**hang);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_THAT(error_text(run_call(**h, "emit")), HasSubstr("did not answer within 500 ms"));
  auto strict = index.lookup("hostile-strict");
  ASSERT_TRUE(strict.ok());
  auto s = connect_backend(**strict);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->get()->sandbox().mode, SandboxMode::Strict);
}

// ---------------------------------------------------------------------------
// Killing the driver mid-call.

class DriverKilled : public ::testing::Test {
 protected:
  void SetUp() override { prctl(PR_SET_CHILD_SUBREAPER, 1); }
  void TearDown() override { prctl(PR_SET_CHILD_SUBREAPER, 0); }

  /// Starts ppy-test-driver, waits until its helper hangs in emit; answers
  /// the driver's pid, the helper's pid and the helper's folder.
  std::tuple<pid_t, pid_t, std::string> start(bool cleanup) {
    int out[2];
    EXPECT_EQ(pipe(out), 0);
    pid_t driver = fork();
    if (driver == 0) {
      dup2(out[1], 1);
      execl(kDriver.c_str(), kDriver.c_str(), kHostile.c_str(), cleanup ? nullptr : "--no-cleanup", nullptr);
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
    close(out[0]);
    pid_t helper = 0;
    char dir[512] = {};
    sscanf(line.c_str(), "helper %d %511s", &helper, dir);
    std::this_thread::sleep_for(300ms);  // the emit call is in flight
    return {driver, helper, dir};
  }
  /// How the helper ended (it is our child now, as a subreaper), or -1 if
  /// someone else reaped it.
  int helper_status(pid_t helper) {
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      pid_t r = waitpid(helper, &status, WNOHANG);
      if (r == helper) return status;
      if (r < 0) return -1;
      std::this_thread::sleep_for(5ms);
    }
    return -2;  // still running
  }
};

TEST_F(DriverKilled, SigkillMidCallTakesTheHelperAlong) {
  auto [driver, helper, dir] = start(true);
  ASSERT_GT(helper, 0);
  ASSERT_EQ(::kill(helper, 0), 0);
  ::kill(driver, SIGKILL);
  waitpid(driver, nullptr, 0);
  int status = helper_status(helper);
  ASSERT_GE(status, 0) << "the helper outlived its driver";
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);  // PR_SET_PDEATHSIG
  EXPECT_FALSE(fs::exists("/proc/" + std::to_string(helper)));
  fs::remove_all(dir);  // a SIGKILLed driver cannot clean up; the folder is all that is left
}

TEST_F(DriverKilled, SigintSigtermOrSighupMidCallEndsHelpersAndRemovesFolders) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(signal_name(sig));
    auto [driver, helper, dir] = start(true);
    ASSERT_GT(helper, 0);
    ::kill(driver, sig);
    int ds = 0;
    waitpid(driver, &ds, 0);
    EXPECT_TRUE(WIFSIGNALED(ds));
    EXPECT_EQ(WTERMSIG(ds), sig);          // re-raised after cleaning up
    EXPECT_EQ(helper_status(helper), -1);  // the driver's handler reaped it
    EXPECT_FALSE(fs::exists("/proc/" + std::to_string(helper)));
    EXPECT_FALSE(fs::exists(dir));
  }
}

// Signals in quick succession (SIGTERM then SIGINT, ...): the second lands on
// another thread while the first's handler is still cleaning up, and used to
// end the driver before the run folder was gone (issue 18).
TEST_F(DriverKilled, SignalsInQuickSuccessionStillRemoveTheFolder) {
  const std::vector<std::vector<int>> runs = {
      {SIGTERM, SIGINT}, {SIGINT, SIGTERM}, {SIGTERM, SIGINT, SIGHUP, SIGTERM, SIGINT}};
  for (int round = 0; round < 4; ++round)
    for (const std::vector<int>& run : runs) {
      SCOPED_TRACE(str_cat("round ", round, ", first ", signal_name(run[0]), ", ", run.size(), " signals"));
      auto [driver, helper, dir] = start(true);
      ASSERT_GT(helper, 0);
      for (int sig : run) ::kill(driver, sig);
      int ds = 0;
      waitpid(driver, &ds, 0);
      EXPECT_TRUE(WIFSIGNALED(ds)) << ds;  // one of them, re-raised after cleaning up
      EXPECT_EQ(helper_status(helper), -1);  // the driver's handler reaped it
      EXPECT_FALSE(fs::exists("/proc/" + std::to_string(helper)));
      EXPECT_FALSE(fs::exists(dir)) << dir;
      fs::remove_all(dir);
    }
}

}  // namespace
}  // namespace ppy::host
