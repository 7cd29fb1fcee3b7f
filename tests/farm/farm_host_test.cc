// The build farm through the backend host: several servers of one backend
// behind `endpoints`, balanced by gRPC's round_robin, a call lost with its
// server retried on another, servers that disagree refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "ppy/backends/toy.h"
#include "farm_servers.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/ir/testing.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

namespace ppy::host {
namespace {

using farm_test::FarmServer;
using ir::testing::small_module;

/// The toy as a remote backend on these servers (plaintext, loopback).
BackendEntry farm_of(std::vector<std::string> endpoints) {
  BackendEntry e;
  e.name = "toy";
  e.distribution = "ppy-toy";
  e.version = "0.1";
  e.endpoints = std::move(endpoints);
  e.tls.insecure = true;
  HostSettings quick;
  quick.handshake_timeout = 10'000ms;
  e.settings = quick;
  return e;
}

/// Relative path -> bytes of every file a build answered.
std::map<std::string, std::string> files_of(const InvocationResult& r) {
  std::map<std::string, std::string> out;
  for (const BuildFile& f : r.files) out[f.path] = f.data;
  return out;
}

/// A kernel reading its thread id at k.ppy:4:9: the toy refuses it (E1802).
std::unique_ptr<ir::Module> kernel_module() {
  auto m = std::make_unique<ir::Module>("kern");
  m->dialects()["gpu"] = 1;
  ir::Function* k =
      m->add_function(std::make_unique<ir::Function>("kern", std::vector<ir::Param>{}, std::vector<ir::Type>{}));
  k->attributes().set("gpu.kind", "kernel");
  ir::Block* entry = k->create_entry_block();
  entry->append(ir::Operation::create("gpu.thread_id", {}, {ir::Type::index()}, {{"dim", "x"}},
                                      ir::Location("k.ppy", 4, 9)));
  entry->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("k.ppy", 5, 1)));
  return m;
}

Invocation build_of(const std::vector<const ir::Module*>& modules) {
  Invocation inv;
  inv.action = Invocation::Action::Build;
  inv.modules = modules;
  return inv;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (auto& s : v) out += s + "\n";
  return out;
}

// Three servers; six builds at once; the first server to start one is
// SIGKILLed with it in flight. Every build succeeds, on the others, with
// exactly the files an in-process toy builds, and says it was retried.
TEST(Farm, ThreeServersAndOneKilledMidCallLoseNothing) {
  FarmServer a({"--delay-ms", "400"}), b({"--delay-ms", "400"}), c({"--delay-ms", "400"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty() || c.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint(), c.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ((*h)->process(), nullptr);

  auto m1 = small_module("app.one"), m2 = small_module("app.two");
  std::vector<const ir::Module*> modules = {m1.get(), m2.get()};
  auto local = in_process_backend(toy::create_backend({}), {false, "ppy-toy", "0.1", ""});
  ASSERT_TRUE(local.ok());
  auto built_here = (*local)->invoke(build_of(modules));
  ASSERT_TRUE(built_here.ok()) << built_here.status();
  auto want = files_of(*built_here);
  ASSERT_FALSE(want.empty());

  constexpr int kBuilds = 6;
  std::vector<std::optional<absl::StatusOr<InvocationResult>>> results(kBuilds);
  std::vector<std::thread> threads;
  for (int i = 0; i < kBuilds; ++i)
    threads.emplace_back([&, i] { results[i] = (*h)->invoke(build_of(modules)); });
  std::vector<FarmServer*> servers = {&a, &b, &c};
  int victim = FarmServer::first_to_say(servers, "farm: build started", 20s);
  ASSERT_GE(victim, 0);
  servers[victim]->stop(SIGKILL);
  for (auto& t : threads) t.join();

  int retried = 0;
  for (int i = 0; i < kBuilds; ++i) {
    ASSERT_TRUE(results[i]->ok()) << results[i]->status();
    EXPECT_EQ(files_of(**results[i]), want) << "build " << i;
    std::string notes = joined((*results[i])->notes);
    if (notes.find("retried") != std::string::npos) {
      ++retried;
      EXPECT_THAT(notes, HasSubstr(servers[victim]->endpoint())) << notes;
    }
  }
  EXPECT_GE(retried, 1);
}

// Calls made at once go to different servers (gRPC's round_robin), none retried.
TEST(Farm, CallsAtOnceGoToEveryServer) {
  FarmServer a({"--delay-ms", "300"}), b({"--delay-ms", "300"}), c({"--delay-ms", "300"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty() || c.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint(), c.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  std::this_thread::sleep_for(300ms);  // every server's health check has answered SERVING
  auto m = small_module("m");
  std::vector<std::optional<absl::StatusOr<InvocationResult>>> results(6);
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&, i] { results[i] = (*h)->invoke(build_of({m.get()})); });
  for (auto& t : threads) t.join();
  std::map<std::string, int> answered_by;  // what each result says of its server
  for (auto& r : results) {
    ASSERT_TRUE(r->ok()) << r->status();
    EXPECT_THAT(joined((*r)->notes), Not(HasSubstr("retried")));
    ++answered_by[(*r)->server];
  }
  for (FarmServer* s : {&a, &b, &c}) {
    EXPECT_GE(s->count("farm: build started"), 1) << s->endpoint();
    // Each result names the server that built it: every server's calls are counted under its endpoint.
    EXPECT_EQ(answered_by[s->endpoint()], s->count("farm: build started")) << s->endpoint();
  }
  EXPECT_EQ(answered_by.size(), 3u);
}

// The servers of one backend must answer its handshake alike: one of another
// fingerprint is refused, named, with what differs.
TEST(Farm, AServerWithAnotherFingerprintIsRefused) {
  FarmServer a, b({"--fingerprint", "toy:other"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint()}));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr(b.endpoint()));
  EXPECT_THAT(error_text(h.status()), HasSubstr("its fingerprint is 'toy:other', not 'toy:0'"));
}

// A server that comes back, on the same address, as another version is found
// out by the identity every answer carries, not mixed into the build.
TEST(Farm, AServerReplacedByAnotherVersionMidBuildIsRefused) {
  auto a = std::make_unique<FarmServer>();
  ASSERT_FALSE(a->endpoint().empty());
  std::string endpoint = a->endpoint();
  auto h = connect_backend(farm_of({endpoint}));
  ASSERT_TRUE(h.ok()) << h.status();
  a->stop(SIGKILL);
  FarmServer b({"--fingerprint", "toy:other"}, endpoint);
  ASSERT_EQ(b.endpoint(), endpoint);
  auto m = small_module("m");
  auto r = (*h)->invoke(build_of({m.get()}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1903");
  EXPECT_THAT(error_text(r.status()), HasSubstr(endpoint));
  EXPECT_THAT(error_text(r.status()), HasSubstr("its fingerprint is 'toy:other', not 'toy:0'"));
}

// Every server gone: E1905 naming each endpoint and why.
TEST(Farm, EveryServerGoneIsE1905NamingEach) {
  FarmServer a, b;
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  a.stop(SIGKILL);
  b.stop(SIGKILL);
  auto m = small_module("m");
  auto t0 = std::chrono::steady_clock::now();
  auto r = (*h)->invoke(build_of({m.get()}));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1905");
  std::string text = error_text(r.status());
  EXPECT_THAT(text, HasSubstr("failed during build"));
  EXPECT_THAT(text, HasSubstr(a.endpoint() + ": "));
  EXPECT_THAT(text, HasSubstr(b.endpoint() + ": "));
  EXPECT_THAT(text, HasSubstr("UNAVAILABLE"));
}

// A server down when the build starts costs nothing; none up is E1903 naming each.
TEST(Farm, ServersDownAtTheStart) {
  FarmServer a, gone;
  ASSERT_FALSE(a.endpoint().empty() || gone.endpoint().empty());
  gone.stop(SIGKILL);
  auto h = connect_backend(farm_of({gone.endpoint(), a.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  for (int i = 0; i < 4; ++i) {
    auto r = (*h)->invoke(build_of({m.get()}));
    EXPECT_TRUE(r.ok()) << r.status();
  }
  a.stop(SIGKILL);
  auto none = connect_backend(farm_of({gone.endpoint(), a.endpoint()}));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(error_code(none.status()), "E1903");
  EXPECT_THAT(error_text(none.status()), HasSubstr(gone.endpoint()));
  EXPECT_THAT(error_text(none.status()), HasSubstr(a.endpoint()));
}


// ---------------------------------------------------------------------------
// The server side: drain, --max-calls, one log line per call.

namespace health = ::grpc::health::v1;

/// What the server's grpc.health.v1 says of it (UNKNOWN when it does not answer).
health::HealthCheckResponse::ServingStatus health_of(const std::string& endpoint) {
  auto channel = ::grpc::CreateChannel(endpoint, ::grpc::InsecureChannelCredentials());
  ::grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 2s);
  health::HealthCheckRequest req;
  health::HealthCheckResponse resp;
  ::grpc::Status s = health::Health::NewStub(channel)->Check(&ctx, req, &resp);
  return s.ok() ? resp.status() : health::HealthCheckResponse::UNKNOWN;
}

bool exited_zero(int status) { return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// SIGTERM: no new call (UNAVAILABLE), NOT_SERVING to health checks, the call
// in flight finishes and is answered, then exit 0.
TEST(FarmServer, SigtermDrainsTheCallInFlightThenExitsZero) {
  FarmServer s({"--delay-ms", "800", "--drain-timeout", "10"});
  ASSERT_FALSE(s.endpoint().empty());
  EXPECT_EQ(health_of(s.endpoint()), health::HealthCheckResponse::SERVING);
  auto h = connect_backend(farm_of({s.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  std::optional<absl::StatusOr<InvocationResult>> r;
  std::thread call([&] { r = (*h)->invoke(build_of({m.get()})); });
  ASSERT_EQ(FarmServer::first_to_say({&s}, "farm: build started", 10s), 0);
  ::kill(s.pid(), SIGTERM);
  auto said = health::HealthCheckResponse::SERVING;
  for (auto until = std::chrono::steady_clock::now() + 3s;
       said != health::HealthCheckResponse::NOT_SERVING && std::chrono::steady_clock::now() < until;)
    said = health_of(s.endpoint());
  EXPECT_EQ(said, health::HealthCheckResponse::NOT_SERVING);
  auto late = connect_backend(farm_of({s.endpoint()}));
  ASSERT_FALSE(late.ok());
  EXPECT_THAT(error_text(late.status()), HasSubstr("UNAVAILABLE: this server is draining"));
  call.join();
  ASSERT_TRUE(r->ok()) << r->status();
  EXPECT_THAT(joined((*r)->notes), Not(HasSubstr("retried")));
  EXPECT_THAT(files_of(**r), ::testing::Contains(::testing::Key("m.toy")));
  EXPECT_TRUE(exited_zero(s.wait_exit(5s)));
  EXPECT_THAT(s.err(), HasSubstr("signal 15: draining, 1 call(s) in flight (at most 10 s)"));
  EXPECT_THAT(s.err(), HasSubstr(": drained"));
}

// --drain-timeout bounds the wait: a call still running then is cancelled
// (its driver, with no other server, says all are gone) and the server exits 0.
TEST(FarmServer, ADrainIsBoundedByItsTimeout) {
  FarmServer s({"--delay-ms", "8000", "--drain-timeout", "1"});
  ASSERT_FALSE(s.endpoint().empty());
  auto h = connect_backend(farm_of({s.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = small_module("m");
  std::optional<absl::StatusOr<InvocationResult>> r;
  std::thread call([&] { r = (*h)->invoke(build_of({m.get()})); });
  ASSERT_EQ(FarmServer::first_to_say({&s}, "farm: build started", 10s), 0);
  auto t0 = std::chrono::steady_clock::now();
  ::kill(s.pid(), SIGTERM);
  EXPECT_TRUE(exited_zero(s.wait_exit(6s)));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 4s);
  EXPECT_THAT(s.err(), HasSubstr("the drain timed out; 1 call(s) cancelled"));
  call.join();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(error_code(r->status()), "E1905");
}

// --max-calls N: one call more is RESOURCE_EXHAUSTED; the driver takes it
// elsewhere when there is an elsewhere, and names the refusal when not.
TEST(FarmServer, MaxCallsRefusesBeyondAndTheCallGoesElsewhere) {
  FarmServer full({"--delay-ms", "500", "--max-calls", "1"});
  ASSERT_FALSE(full.endpoint().empty());
  auto m = small_module("m");
  {
    auto alone = connect_backend(farm_of({full.endpoint()}));
    ASSERT_TRUE(alone.ok()) << alone.status();
    std::optional<absl::StatusOr<InvocationResult>> r1, r2;
    std::thread t1([&] { r1 = (*alone)->invoke(build_of({m.get()})); });
    std::thread t2([&] { r2 = (*alone)->invoke(build_of({m.get()})); });
    t1.join();
    t2.join();
    EXPECT_NE(r1->ok(), r2->ok());  // one served, one refused three times
    const absl::Status& refused = r1->ok() ? r2->status() : r1->status();
    EXPECT_EQ(error_code(refused), "E1905");
    EXPECT_THAT(error_text(refused), HasSubstr("RESOURCE_EXHAUSTED: this server takes at most 1 call(s) at once"));
  }
  FarmServer other({"--delay-ms", "500"});
  ASSERT_FALSE(other.endpoint().empty());
  auto h = connect_backend(farm_of({full.endpoint(), other.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  std::this_thread::sleep_for(300ms);  // both servers ready
  std::vector<std::optional<absl::StatusOr<InvocationResult>>> results(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] { results[i] = (*h)->invoke(build_of({m.get()})); });
  for (auto& t : threads) t.join();
  for (auto& r : results) EXPECT_TRUE(r->ok()) << r->status();
  EXPECT_GE(full.count("outcome=RESOURCE_EXHAUSTED"), 1) << full.err();
}

// One line per call on the server's stderr: call, peer, action, modules, bytes
// in and out, duration, outcome. A refusal is the backend's answer: logged as
// such and never retried (one Invoke in all, over two servers).
TEST(FarmServer, LogsOneLinePerCallAndARefusalIsNotRetried) {
  FarmServer a, b;
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(a.count("call=Handshake peer=ipv4:127.0.0.1:"), 1) << a.err();
  auto kernel = kernel_module();
  auto refused = (*h)->invoke(build_of({kernel.get()}));
  EXPECT_EQ(error_code(refused.status()), "E1802");
  auto wait_for_lines = [&](const std::string& needle, int n) {
    for (auto until = std::chrono::steady_clock::now() + 5s;
         a.count(needle) + b.count(needle) < n && std::chrono::steady_clock::now() < until;)
      std::this_thread::sleep_for(5ms);
    return a.count(needle) + b.count(needle);
  };
  EXPECT_EQ(wait_for_lines("outcome=refused:VALIDATION", 1), 1);
  EXPECT_EQ(a.count("call=Invoke") + b.count("call=Invoke"), 1) << a.err() << b.err();

  auto m1 = small_module("app.one"), m2 = small_module("app.two");
  auto built = (*h)->invoke(build_of({m1.get(), m2.get()}));
  ASSERT_TRUE(built.ok()) << built.status();
  ASSERT_EQ(wait_for_lines("action=build modules=2 ", 1), 1);
  std::string log = a.err() + b.err();
  std::smatch line;
  ASSERT_TRUE(std::regex_search(log, line,
                                std::regex("ppy-test-farm: call=Invoke peer=ipv4:127\\.0\\.0\\.1:[0-9]+ action=build "
                                           "modules=2 bytes_in=([0-9]+) bytes_out=([0-9]+) ms=[0-9.]+ outcome=ok\n")))
      << log;
  EXPECT_GT(std::stoll(line[1]), 100);  // the header and two modules
  EXPECT_GT(std::stoll(line[2]), 100);  // two .toy files, the notes, the end
}

}  // namespace
}  // namespace ppy::host
