// The build farm through the backend host: several servers of one backend
// behind `endpoints`, balanced by gRPC's round_robin, a call lost with its
// server retried on another, servers that disagree refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "../../backends/toy/toy.h"
#include "farm_servers.h"
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

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/ppy-farm-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

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

/// Relative path -> bytes of every file under `dir`.
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (auto& f : fs::recursive_directory_iterator(dir)) {
    if (!f.is_regular_file()) continue;
    std::ifstream in(f.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out[fs::relative(f.path(), dir).string()] = s.str();
  }
  return out;
}

Invocation build_of(const std::vector<const ir::Module*>& modules, const fs::path& out) {
  Invocation inv;
  inv.action = Invocation::Action::Build;
  inv.modules = modules;
  inv.output_dir = out;
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
  TempDir tmp;
  FarmServer a({"--delay-ms", "400"}), b({"--delay-ms", "400"}), c({"--delay-ms", "400"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty() || c.endpoint().empty());
  auto h = connect_backend(farm_of({a.endpoint(), b.endpoint(), c.endpoint()}));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ((*h)->process(), nullptr);

  auto m1 = small_module("app.one"), m2 = small_module("app.two");
  std::vector<const ir::Module*> modules = {m1.get(), m2.get()};
  auto local = in_process_backend(toy::create_backend({}), {false, "ppy-toy", "0.1", ""});
  ASSERT_TRUE(local.ok());
  ASSERT_TRUE((*local)->invoke(build_of(modules, tmp.path / "local")).ok());
  auto want = files_under(tmp.path / "local");
  ASSERT_FALSE(want.empty());

  constexpr int kBuilds = 6;
  std::vector<std::optional<absl::StatusOr<InvocationResult>>> results(kBuilds);
  std::vector<std::thread> threads;
  for (int i = 0; i < kBuilds; ++i)
    threads.emplace_back([&, i] { results[i] = (*h)->invoke(build_of(modules, tmp.path / str_cat("out", i))); });
  std::vector<FarmServer*> servers = {&a, &b, &c};
  int victim = FarmServer::first_to_say(servers, "farm: build started", 20s);
  ASSERT_GE(victim, 0);
  servers[victim]->stop(SIGKILL);
  for (auto& t : threads) t.join();

  int retried = 0;
  for (int i = 0; i < kBuilds; ++i) {
    ASSERT_TRUE(results[i]->ok()) << results[i]->status();
    EXPECT_EQ(files_under(tmp.path / str_cat("out", i)), want) << "build " << i;
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
  TempDir tmp;
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&, i] { results[i] = (*h)->invoke(build_of({m.get()}, tmp.path / str_cat("out", i))); });
  for (auto& t : threads) t.join();
  for (auto& r : results) {
    ASSERT_TRUE(r->ok()) << r->status();
    EXPECT_THAT(joined((*r)->notes), Not(HasSubstr("retried")));
  }
  for (FarmServer* s : {&a, &b, &c}) EXPECT_GE(s->count("farm: build started"), 1) << s->endpoint();
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
  TempDir tmp;
  auto r = (*h)->invoke(build_of({m.get()}, tmp.path / "out"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1903");
  EXPECT_THAT(error_text(r.status()), HasSubstr(endpoint));
  EXPECT_THAT(error_text(r.status()), HasSubstr("its fingerprint is 'toy:other', not 'toy:0'"));
  EXPECT_FALSE(fs::exists(tmp.path / "out" / "m.toy"));
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
  TempDir tmp;
  auto t0 = std::chrono::steady_clock::now();
  auto r = (*h)->invoke(build_of({m.get()}, tmp.path / "out"));
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
  TempDir tmp;
  for (int i = 0; i < 4; ++i) {
    auto r = (*h)->invoke(build_of({m.get()}, tmp.path / str_cat("out", i)));
    EXPECT_TRUE(r.ok()) << r.status();
  }
  a.stop(SIGKILL);
  auto none = connect_backend(farm_of({gone.endpoint(), a.endpoint()}));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(error_code(none.status()), "E1903");
  EXPECT_THAT(error_text(none.status()), HasSubstr(gone.endpoint()));
  EXPECT_THAT(error_text(none.status()), HasSubstr(a.endpoint()));
}

}  // namespace
}  // namespace ppy::host
