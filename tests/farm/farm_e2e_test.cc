// `ppy build` through a farm a project's table names
// (`[tool.ppy.backends.toy] endpoints = [...]`): concurrent builds while a
// server is SIGKILLed and another drained all succeed, byte-identical to a
// local build; and through nginx in front of a farm (tools/farm/nginx.conf).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "e2e.h"
#include "farm_servers.h"
#include "loopback_nginx.h"

namespace ppy::e2e {
namespace {

using farm_test::FarmServer;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

class FarmBuild : public E2E {
 protected:
  /// A project of `n` modules (app.m00, app.m01, ...) at <dir>/<as>.
  std::string many_modules(int n, const std::string& extra, const std::string& as) {
    for (int i = 0; i < n; ++i) {
      std::string id = (i < 10 ? "0" : "") + std::to_string(i);
      write_file(path(as + "/src/app/m" + id + ".ppy"),
                 "def f" + id + "(x: int) -> int:\n    y = x * " + std::to_string(i + 2) + "\n    return y + " + std::to_string(i) +
                     "\n");
    }
    write_file(path(as + "/pyproject.toml"), "[tool.ppy]\nsource-roots = [\"src\"]\n\n" + extra);
    return p(as);
  }
  static std::string farm_table(const std::vector<FarmServer*>& servers) {
    std::string list;
    for (auto* s : servers) list += (list.empty() ? "\"" : ", \"") + s->endpoint() + "\"";
    return "[tool.ppy.backends.toy]\nendpoints = [" + list + "]\ntls-insecure = true\n";
  }
};

// Six builds of a 50-module project at once through three servers; the first
// server to start a build is SIGKILLed with it in flight, and another is
// drained (SIGTERM) meanwhile. Every build succeeds with exactly the files
// the toy builds as a local helper, the ones the killed server lost say they
// were retried, and the drained server finishes its calls and exits 0.
TEST_F(FarmBuild, SixBuildsWhileAServerIsKilledAllMatchALocalBuild) {
  FarmServer a({"--delay-ms", "500"}), b({"--delay-ms", "500"}), c({"--delay-ms", "500"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty() || c.endpoint().empty());
  std::vector<FarmServer*> servers = {&a, &b, &c};

  // Each project's reference: the toy as a local helper (artifacts name their
  // sources' paths, so each project has its own). Its cache is then removed.
  constexpr int kBuilds = 6;
  std::vector<std::string> projects;
  for (int i = 0; i < kBuilds; ++i) {
    std::string n = std::to_string(i);
    projects.push_back(many_modules(50, "", "p" + n));
    Result local = ppy({"build", projects[i], "--backend", "toy", "-o", p("ref" + n)}, sets({}));
    ASSERT_EQ(local.status, 0) << local;
    ASSERT_EQ(tree(path("ref" + n)).size(), 50u);
    fs::remove_all(path("p" + n + "/.ppy-cache"));
    write_file(path("p" + n + "/pyproject.toml"), "[tool.ppy]\nsource-roots = [\"src\"]\n\n" + farm_table(servers));
  }

  std::vector<Child> builds;
  for (int i = 0; i < kBuilds; ++i)
    builds.push_back(
        start(spawn({"build", projects[i], "--backend", "toy", "-o", p("out" + std::to_string(i))}, sets({}))));
  int victim = FarmServer::first_to_say(servers, "farm: build started", 60s);
  ASSERT_GE(victim, 0);
  servers[victim]->stop(SIGKILL);
  FarmServer* drained = servers[(victim + 1) % 3];  // a rolling restart's first step
  ::kill(drained->pid(), SIGTERM);

  int retried = 0;
  for (int i = 0; i < kBuilds; ++i) {
    Result r = finish(builds[i], 60);
    ASSERT_EQ(r.status, 0) << r;
    EXPECT_EQ(tree(path("out" + std::to_string(i))), tree(path("ref" + std::to_string(i)))) << "build " << i;
    EXPECT_THAT(r.err, HasSubstr("note: toy: built 50 module(s)")) << r;
    // The summary names the server that built them: one that lived to answer.
    size_t at = r.err.find("modules:  50 (50 built by toy (");
    ASSERT_NE(at, std::string::npos) << r;
    std::string summary = r.err.substr(at);
    summary = summary.substr(0, summary.find('\n'));
    int named = 0;
    for (FarmServer* s : servers)
      if (summary.ends_with(") on " + s->endpoint() + ")")) named += s == servers[victim] ? 100 : 1;
    EXPECT_EQ(named, 1) << summary;
    if (r.err.find("note: the call was retried: " + servers[victim]->endpoint() + " lost it") != std::string::npos)
      ++retried;
  }
  EXPECT_GE(retried, 1);
  int status = drained->wait_exit(15s);
  EXPECT_TRUE(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) << drained->err();
  EXPECT_THAT(drained->err(), HasSubstr(": drained")) << drained->err();

  // Where a backend runs is no part of the cache key: without the farm (all
  // servers gone now), the project's artifacts are still its cache's.
  for (FarmServer* s : servers) s->stop(SIGKILL);
  write_file(path("p0/pyproject.toml"), "[tool.ppy]\nsource-roots = [\"src\"]\n");
  Result again = ppy({"build", projects[0], "--backend", "toy", "-o", p("again")}, sets({}));
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_THAT(again.err, Not(HasSubstr("note: toy: built"))) << again;  // from the cache: no backend call
  EXPECT_EQ(tree(path("again")), tree(path("ref0")));
}

// A server of another version in the farm: the build is refused before
// anything is built, naming it and what differs.
TEST_F(FarmBuild, AServerOfAnotherVersionIsRefused) {
  FarmServer a, b({"--fingerprint", "toy:2"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  Result r = ppy({"build", many_modules(2, farm_table({&a, &b}), "p"), "--backend", "toy", "-o", p("out")}, sets({}));
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("E1903"));
  EXPECT_THAT(r.err, HasSubstr("server " + b.endpoint() + " differs from " + a.endpoint() +
                               ": its fingerprint is 'toy:2', not 'toy:0'"));
  EXPECT_FALSE(fs::exists(path("out")));
}


// ---------------------------------------------------------------------------
// nginx in front (tools/farm/nginx.conf): TLS ends at nginx, which spreads the
// calls over two servers.

/// nginx on a loopback port with tools/farm/nginx.conf in front of `servers`,
/// TLS at nginx (a CA and a certificate for 127.0.0.1 made here); the project
/// table that points the toy at it.
class NginxFront {
 public:
  NginxFront(const std::string& exe, const fs::path& run, const std::vector<FarmServer*>& servers) : run_(run) {
    fs::create_directories(run);
    if (!make_test_certificates(run)) return;
    port_ = free_port();
    std::string upstream;
    for (FarmServer* s : servers) upstream += "server " + s->endpoint() + "; ";
    nginx_ = start_nginx(exe, "nginx.conf", run, port_, {
             {"@RUN@", run.string()},
             {"@LISTEN@", "127.0.0.1:" + std::to_string(port_)},
             {"@CERT@", (run / "server.pem").string()},
             {"@KEY@", (run / "server.key").string()},
             {"@SERVERS@", upstream}});
  }
  bool up() const { return port_ > 0 && accepts(port_); }
  std::string table() const {
    return "[tool.ppy.backends.toy]\nendpoint = \"127.0.0.1:" + std::to_string(port_) + "\"\ntls-ca = \"" +
           (run_ / "ca.pem").string() + "\"\n";
  }
  std::string log(const std::string& name) const { return read_file(run_ / name); }

 private:
  fs::path run_;
  int port_ = 0;
  std::unique_ptr<Nginx> nginx_;
};

// `ppy build` through nginx (TLS at nginx, two servers behind it): the builds
// succeed, byte-identical to a local one, and both servers took calls.
TEST_F(FarmBuild, ThroughNginxInFront) {
  std::string nginx = nginx_path();
  if (nginx.empty()) GTEST_SKIP() << "nginx is not installed (tools/setup installs it); the nginx front is not tested";
  FarmServer a, b;
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  NginxFront front(nginx, path("nginx"), {&a, &b});
  ASSERT_TRUE(front.up()) << front.log("error.log");

  std::string proj = many_modules(5, "", "p");
  Result local = ppy({"build", proj, "--backend", "toy", "-o", p("ref")}, sets({}));
  ASSERT_EQ(local.status, 0) << local;
  write_file(path("p/pyproject.toml"), "[tool.ppy]\nsource-roots = [\"src\"]\n\n" + front.table());
  for (int i = 0; i < 2; ++i) {
    fs::remove_all(path("p/.ppy-cache"));
    std::string out = "out" + std::to_string(i);
    Result r = ppy({"build", proj, "--backend", "toy", "-o", p(out)}, sets({}));
    ASSERT_EQ(r.status, 0) << r << front.log("error.log");
    EXPECT_EQ(tree(path(out)), tree(path("ref")));
  }
  EXPECT_GE(a.count("call="), 1) << a.err();
  EXPECT_GE(b.count("call="), 1) << b.err();
  EXPECT_EQ(a.count("call=Invoke") + b.count("call=Invoke"), 2) << a.err() << b.err();
  EXPECT_THAT(front.log("access.log"), HasSubstr("POST /ppy.backend.v1.Backend/Invoke HTTP/2.0"));
}

// Behind nginx too, a server of another version is never mixed in: the
// identity its answer carries gives it away, and the build is refused.
TEST_F(FarmBuild, AnotherVersionBehindNginxIsRefused) {
  std::string nginx = nginx_path();
  if (nginx.empty()) GTEST_SKIP() << "nginx is not installed (tools/setup installs it); the nginx front is not tested";
  FarmServer a, b({"--fingerprint", "toy:2"});
  ASSERT_FALSE(a.endpoint().empty() || b.endpoint().empty());
  NginxFront front(nginx, path("nginx"), {&a, &b});
  ASSERT_TRUE(front.up()) << front.log("error.log");
  std::string proj = many_modules(2, front.table(), "p");
  // nginx takes turns: within two builds, some handshake and Invoke go to different servers.
  int refused = 0;
  for (int i = 0; i < 2; ++i) {
    fs::remove_all(path("p/.ppy-cache"));
    Result r = ppy({"build", proj, "--backend", "toy", "-o", p("out" + std::to_string(i))}, sets({}));
    if (r.status == 0) continue;
    ++refused;
    EXPECT_THAT(r.err, HasSubstr("E1903")) << r;
    EXPECT_THAT(r.err, HasSubstr("that answered is not the backend this build shook hands with: its fingerprint is")) << r;
    EXPECT_FALSE(fs::exists(path("out" + std::to_string(i))));
  }
  EXPECT_GE(refused, 1);
}

}  // namespace
}  // namespace ppy::e2e
