// `ppy build` through a farm a project's table names
// (`[tool.ppy.backends.toy] endpoints = [...]`): concurrent builds while a
// server is SIGKILLed all succeed, byte-identical to a local build.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <string>
#include <vector>

#include "e2e.h"
#include "farm_servers.h"

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

}  // namespace
}  // namespace ppy::e2e
