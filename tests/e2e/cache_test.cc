// End-to-end tests of the artifact cache: the key, one row at a time, concurrent
// builds sharing one cache, and builds killed mid-call or mid-write.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The cache key, one row at a time: a changed row is a different key and the
// stale artifact is not reused; an unchanged repeat does not call the backend.

class Cache : public E2E {
 protected:
  struct Build {
    Result result;
    std::map<std::string, std::string> ids;  ///< from the backend's note, when it was called
    std::map<std::string, std::string> files;
    int calls = 0;  ///< build lines the backend appended to the count file since the last look
  };

  /// `ppy build TARGET --backend B -o <fresh folder> ARGS...`.
  Build build(const std::string& target, std::vector<std::string> args = {},
              const std::string& backend_path = "", const std::string& backend = "dummy") {
    std::string out = p("out" + std::to_string(++builds_));
    std::vector<std::string> a = {"build", target, "--backend", backend, "-o", out};
    a.insert(a.end(), args.begin(), args.end());
    Build b;
    b.result = ppy(a, backend_path.empty() ? sets({"main"}) : backend_path);
    auto n = notes(b.result, "build", backend);
    if (!n.empty()) b.ids = ids_of(n[0]);
    b.files = tree(out);
    std::string counted = read_file(path("calls.txt"));
    b.calls = static_cast<int>(grep(counted, "build").size()) - seen_;
    seen_ += b.calls;
    return b;
  }

  std::string counting_table(const std::string& extra = "") {
    return "[tool.ppy.backends.dummy]\nsandbox = \"off\"\ncount-file = \"" + p("calls.txt") + "\"\n" + extra;
  }

  /// The first build misses, an unchanged repeat hits (no call, same files); then
  /// `change` is applied and the next build (with `args_after`) must miss, with
  /// new identities in its artifacts.
  void expect_row(const std::string& target, const std::function<void()>& change,
                  std::vector<std::string> args_before = {}, std::vector<std::string> args_after = {},
                  const std::string& path_before = "", const std::string& path_after = "",
                  const std::set<std::string>& changed = {}) {
    Build first = build(target, args_before, path_before);
    ASSERT_EQ(first.result.status, 0) << first.result;
    EXPECT_EQ(first.calls, 1) << first.result;
    ASSERT_FALSE(first.ids.empty()) << first.result;
    Build repeat = build(target, args_before, path_before);
    ASSERT_EQ(repeat.result.status, 0) << repeat.result;
    EXPECT_EQ(repeat.calls, 0) << "an unchanged repeat called the backend\n" << repeat.result;
    EXPECT_TRUE(notes(repeat.result, "build").empty()) << repeat.result;
    EXPECT_EQ(repeat.files, first.files);
    EXPECT_EQ(repeat.result.out.size(), first.result.out.size());

    change();
    Build after = build(target, args_after, path_after);
    ASSERT_EQ(after.result.status, 0) << after.result;
    EXPECT_EQ(after.calls, 1) << "a stale artifact was reused\n" << after.result;
    ASSERT_FALSE(after.ids.empty()) << after.result;
    ASSERT_EQ(after.ids.size(), first.ids.size());
    for (auto& [m, id] : after.ids) {
      // Every module's key changes, or (a source change) the changed module's only.
      if (changed.empty() || changed.count(m))
        EXPECT_NE(id, first.ids[m]) << m << ": the key did not change";
      else
        EXPECT_EQ(id, first.ids[m]) << m << ": an unchanged module's key changed";
      auto f = after.files.find(m + ".dummy");
      ASSERT_NE(f, after.files.end()) << m;
      EXPECT_EQ(artifact_id(f->second), id) << m;
    }
    // And the changed build is cached in its turn.
    Build again = build(target, args_after, path_after);
    ASSERT_EQ(again.result.status, 0) << again.result;
    EXPECT_EQ(again.calls, 0) << again.result;
    EXPECT_EQ(again.files, after.files);
  }

  int builds_ = 0;
  int seen_ = 0;
};

TEST_F(Cache, HitDoesNotCallTheBackend) {
  std::string proj = multi(counting_table());
  Build first = build(proj);
  ASSERT_EQ(first.result.status, 0) << first.result;
  EXPECT_EQ(first.calls, 1);
  for (int i = 0; i < 3; ++i) {
    Build hit = build(proj);
    ASSERT_EQ(hit.result.status, 0) << hit.result;
    EXPECT_EQ(hit.calls, 0) << hit.result;
    EXPECT_TRUE(notes(hit.result, "build").empty()) << hit.result;  // the backend said nothing
    EXPECT_EQ(hit.files, first.files);
    EXPECT_THAT(hit.result.err, HasSubstr("backend:  dummy\noutputs:  3\n"));
  }
  // The default output folder, removed, is written again from the cache.
  Result d1 = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(d1.status, 0) << d1;
  fs::remove_all(fs::path(proj) / ".ppy-cache/backends");
  Result d2 = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(d2.status, 0) << d2;
  EXPECT_TRUE(notes(d2, "build").empty()) << d2;
  EXPECT_EQ(tree(fs::path(proj) / ".ppy-cache/backends/dummy"), first.files);
  EXPECT_EQ(grep(read_file(path("calls.txt")), "build").size(), 1u);
}

// A rebuild with unchanged sources takes its keys from the keys memo and
// compiles nothing; when the artifact is gone it compiles then, and builds
// what the first build built, under the same identities.
TEST_F(Cache, ARememberedKeyWhoseArtifactIsGoneCompilesAndBuildsAgain) {
  std::string proj = multi(counting_table());
  Build first = build(proj);
  ASSERT_EQ(first.result.status, 0) << first.result;
  EXPECT_EQ(first.calls, 1);
  fs::path cache = fs::path(proj) / ".ppy-cache";
  ASSERT_TRUE(fs::is_directory(cache / "keys")) << "the build remembered no keys";
  EXPECT_FALSE(fs::is_empty(cache / "keys"));
  fs::remove_all(cache / "artifacts");
  Build again = build(proj);
  ASSERT_EQ(again.result.status, 0) << again.result;
  EXPECT_EQ(again.calls, 1) << again.result;
  EXPECT_EQ(again.ids, first.ids);
  EXPECT_EQ(again.files, first.files);
  Build hit = build(proj);
  ASSERT_EQ(hit.result.status, 0) << hit.result;
  EXPECT_EQ(hit.calls, 0) << hit.result;
  EXPECT_EQ(hit.files, first.files);
  // A source error is found when the memo cannot answer: nothing is remembered for it.
  write_file((fs::path(proj) / "src/app/util.ppy").string(), "def broken(:\n");
  Build bad = build(proj);
  EXPECT_EQ(bad.result.status, 1) << bad.result;
  EXPECT_EQ(bad.calls, 0);
}

TEST_F(Cache, EmitHitDoesNotCallTheBackendAndMissesOnlyWhatChanged) {
  std::string proj = multi(counting_table());
  Result first = ppy({"emit", "dummy", proj, "-o", p("e1") + "/"});
  ASSERT_EQ(first.status, 0) << first;
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit dummy").size(), 3u);
  Result hit = ppy({"emit", "dummy", proj, "-o", p("e2") + "/"});
  ASSERT_EQ(hit.status, 0) << hit;
  // A hit says again what the backend said (issue 34: never silent), without calling it.
  EXPECT_EQ(notes(hit, "emit"), notes(first, "emit")) << hit;
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit dummy").size(), 3u);
  EXPECT_EQ(tree(path("e2")), tree(path("e1")));
  // Program scope: cached as one artifact.
  Result prog1 = ppy({"emit", "dummy-prog", proj});
  Result prog2 = ppy({"emit", "dummy-prog", proj});
  ASSERT_EQ(prog2.status, 0) << prog2;
  EXPECT_EQ(prog1.out, prog2.out);
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit_program").size(), 1u);
  // A change to one module's source: that module misses; an unrelated one still hits.
  std::string shapes = (fs::path(proj) / "src/app/shapes.ppy").string();
  write_file(shapes, read_file(shapes) + "\n\ndef perimeter(w: float, h: float) -> float:\n    return 2.0 * (w + h)\n");
  Result changed = ppy({"emit", "dummy", proj, "-o", p("e3") + "/"});
  ASSERT_EQ(changed.status, 0) << changed;
  auto calls = grep(read_file(path("calls.txt")), "emit dummy");
  ASSERT_GE(calls.size(), 4u);
  EXPECT_THAT(std::vector<std::string>(calls.begin() + 3, calls.end()), testing::Contains("emit dummy app.shapes"));
  EXPECT_THAT(std::vector<std::string>(calls.begin() + 3, calls.end()),
              Not(testing::Contains("emit dummy app.util")));
  EXPECT_THAT(read_file(path("e3/app.shapes.dummy")), HasSubstr("perimeter"));
  EXPECT_EQ(read_file(path("e3/app.util.dummy")), read_file(path("e1/app.util.dummy")));
}

TEST_F(Cache, SourceChange) {
  std::string proj = multi(counting_table());
  std::string util = (fs::path(proj) / "src/app/util.ppy").string();
  expect_row(proj, [&] { write_file(util, read_file(util) + "\n\ndef one() -> int:\n    return 1\n"); }, {}, {}, "",
             "", {"app.util"});
  EXPECT_THAT(read_file(path("out3/app.util.dummy")), HasSubstr("@app_util_one"));
}

TEST_F(Cache, DependencyPublicAbiChange) {
  // util.total's signature changes (it answers a float): util's key and that of
  // app.main, which imports it, change; app.shapes' does not.
  std::string proj = multi(counting_table());
  std::string util = (fs::path(proj) / "src/app/util.ppy").string();
  expect_row(proj, [&] {
    write_file(util, "def total(n: int) -> float:\n    s = 0.0\n    for i in range(n + 1):\n        s += i\n"
                     "    return s\n");
  }, {}, {}, "", "", {"app.util", "app.main"});
}

TEST_F(Cache, OptLevelChange) {
  std::string proj = multi(counting_table());
  expect_row(proj, [] {}, {"-O", "2"}, {"-O", "0"});
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), StartsWith("# build app.main opt=0 "));
}

TEST_F(Cache, BackendTableChange) {
  std::string proj = multi(counting_table("level = 1\n"));
  expect_row(proj, [&] { write_pyproject(proj, counting_table("level = 2\n")); });
}

TEST_F(Cache, OtherBackendsTableDoesNotChangeTheKey) {
  std::string proj = multi(counting_table());
  Build first = build(proj);
  ASSERT_EQ(first.result.status, 0) << first.result;
  write_pyproject(proj, counting_table() + "\n[tool.ppy.backends.toy]\nsdk-version = \"9\"\n");
  Build after = build(proj);
  ASSERT_EQ(after.result.status, 0) << after.result;
  EXPECT_EQ(after.calls, 0) << "another backend's table changed this one's key\n" << after.result;
  EXPECT_EQ(after.files, first.files);
}

TEST_F(Cache, TargetChange) {
  std::string proj = multi(counting_table("target = \"alpha\"\n"));
  expect_row(proj, [&] { write_pyproject(proj, counting_table("target = \"beta\"\n")); });
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), HasSubstr(" target=beta "));
}

TEST_F(Cache, DistributionVersionChange) {
  // Two manifests differing only in the version, one helper executable.
  std::string proj = multi(counting_table());
  expect_row(proj, [] {}, {}, {}, sets({"v1"}), sets({"v2"}));
}

TEST_F(Cache, FingerprintChange) {
  // The fingerprint changes and nothing else (the table names a file it reads).
  write_file(path("sdk.txt"), "firmware 1");
  std::string proj = multi(counting_table("fingerprint-file = \"" + p("sdk.txt") + "\"\n"));
  expect_row(proj, [&] { write_file(path("sdk.txt"), "firmware 2"); });
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), HasSubstr(" fingerprint=dummy:0:firmware 2 "));
}

TEST_F(Cache, ToySdkVersionChange) {
  std::string proj = multi("[tool.ppy.backends.toy]\nsdk-version = \"1.4\"\n");
  auto toy = [&](const std::string& out) { return ppy({"build", proj, "--backend", "toy", "-o", p(out)}); };
  Result a = toy("t1");
  ASSERT_EQ(a.status, 0) << a;
  EXPECT_THAT(a.err, HasSubstr("note: toy: built 3 module(s) with toy sdk 1.4"));
  Result hit = toy("t2");
  ASSERT_EQ(hit.status, 0) << hit;
  EXPECT_THAT(hit.err, Not(HasSubstr("note: toy:"))) << hit;  // served from the cache
  EXPECT_EQ(tree(path("t2")), tree(path("t1")));
  write_pyproject(proj, "[tool.ppy.backends.toy]\nsdk-version = \"1.5\"\n");
  Result miss = toy("t3");
  ASSERT_EQ(miss.status, 0) << miss;
  EXPECT_THAT(miss.err, HasSubstr("note: toy: built 3 module(s) with toy sdk 1.5"));
}

TEST_F(Cache, ConcurrentBuildsShareOneCache) {
  std::string proj = multi(counting_table());
  constexpr int kBuilds = 4;
  std::vector<Result> results(kBuilds), defaults(kBuilds);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kBuilds; ++i)
      threads.emplace_back([&, i] {
        results[i] = ppy({"build", proj, "--backend", "dummy", "-o", p("c" + std::to_string(i))});
      });
    for (auto& t : threads) t.join();
  }
  auto reference = tree(path("c0"));
  ASSERT_EQ(reference.size(), 3u);
  for (int i = 0; i < kBuilds; ++i) {
    ASSERT_EQ(results[i].status, 0) << i << "\n" << results[i];
    EXPECT_EQ(tree(path("c" + std::to_string(i))), reference) << i;
    EXPECT_THAT(results[i].err, HasSubstr("outputs:  3\n"));
  }
  // Into the one default folder, all at once (with a cold cache again).
  fs::remove_all(fs::path(proj) / ".ppy-cache");
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kBuilds; ++i)
      threads.emplace_back([&, i] { defaults[i] = ppy({"build", proj, "--backend", "dummy"}); });
    for (auto& t : threads) t.join();
  }
  for (int i = 0; i < kBuilds; ++i) ASSERT_EQ(defaults[i].status, 0) << i << "\n" << defaults[i];
  EXPECT_EQ(tree(fs::path(proj) / ".ppy-cache/backends/dummy"), reference);
  // What the cache holds afterwards serves a later build exactly.
  Result later = ppy({"build", proj, "--backend", "dummy", "-o", p("later")});
  ASSERT_EQ(later.status, 0) << later;
  EXPECT_TRUE(notes(later, "build").empty()) << later;
  EXPECT_EQ(tree(path("later")), reference);
  // Nothing half-written is left in the cache.
  for (auto& [rel, _] : tree(fs::path(proj) / ".ppy-cache/artifacts"))
    EXPECT_THAT(rel, Not(HasSubstr(".tmp-"))) << rel;
}

TEST_F(Cache, BuildKilledMidCallLeavesNoHelperAndNoTornArtifact) {
  std::string pid_file = p("helper.pid");
  std::string proj = multi(counting_table("sleep-ms = 1500\npid-file = \"" + pid_file + "\"\n"));
  Child c = start(spawn({"build", proj, "--backend", "dummy", "-o", p("out")}, sets({"main"})));
  ASSERT_GT(c.pid, 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(pid_file) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(pid_file)) << "the helper never reached build";
  pid_t helper = std::stoi(read_file(pid_file));
  ASSERT_TRUE(process_alive(helper));
  kill(c.pid, SIGKILL);
  Result killed = finish(c, 30);
  EXPECT_EQ(killed.status, 128 + SIGKILL) << killed;
  // The helper does not outlive its driver.
  auto gone = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (process_alive(helper) && std::chrono::steady_clock::now() < gone)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(process_alive(helper)) << "helper " << helper << " outlived its driver";
  // Nothing torn under -o, nothing in the cache.
  for (auto& [rel, bytes] : tree(path("out"))) ADD_FAILURE() << "left in -o: " << rel;
  EXPECT_TRUE(tree(fs::path(proj) / ".ppy-cache/artifacts").empty());

  // A normal build afterwards produces the correct output.
  fs::remove(pid_file);
  Result ok = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(ok.status, 0) << ok;
  auto n = notes(ok, "build");
  ASSERT_EQ(n.size(), 1u) << ok;
  auto ids = ids_of(n[0]);
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  for (auto& [m, id] : ids) {
    EXPECT_THAT(files[m + ".dummy"], StartsWith("# build " + m + " opt=2 "));
    EXPECT_EQ(artifact_id(files[m + ".dummy"]), id);
    EXPECT_THAT(files[m + ".dummy"], HasSubstr("module @" + m + "\n"));
  }
  // And what the killed build had staged is gone.
  EXPECT_THAT(staging_left(path("out")), ElementsAre());
}

TEST_F(Cache, BuildKilledWhileWritingNeverLeavesATornArtifact) {
  // 8 MiB of output: the driver is killed at several moments, some of them while it
  // receives or writes the files; every file under -o is then whole or absent.
  constexpr int kKb = 8 * 1024;
  std::string proj = multi(counting_table("big-kb = " + std::to_string(kKb) + "\n"));
  std::string big;
  for (int i = 0; i < kKb; ++i) big += std::string(1024, static_cast<char>('a' + i % 26));
  auto t0 = std::chrono::steady_clock::now();
  Result reference = ppy({"build", proj, "--backend", "dummy", "-o", p("ref")});
  int cold_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
  ASSERT_EQ(reference.status, 0) << reference;
  ASSERT_EQ(read_file(path("ref/big.bin")), big);
  auto want = tree(path("ref"));
  fs::remove_all(fs::path(proj) / ".ppy-cache");

  // Kills spread over the time a cold build takes here, the later ones while it writes.
  for (int percent : {10, 30, 50, 65, 80, 90, 97}) {
    int delay_ms = cold_ms * percent / 100;
    Child c = start(spawn({"build", proj, "--backend", "dummy", "-o", p("out")}, sets({"main"})));
    ASSERT_GT(c.pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(c.pid, SIGKILL);
    finish(c, 30);
    for (auto& [rel, bytes] : tree(path("out"))) {
      if (rel.find(".tmp-") != std::string::npos) {  // a temporary, never an artifact's name
        std::cerr << "note: a kill at " << delay_ms << " ms left the temporary " << rel << " in -o\n";
        continue;
      }
      auto w = want.find(rel);
      ASSERT_NE(w, want.end()) << "unexpected " << rel << " after a kill at " << delay_ms << " ms";
      EXPECT_EQ(bytes.size(), w->second.size()) << rel << " torn after a kill at " << delay_ms << " ms";
      EXPECT_TRUE(bytes == w->second) << rel << " wrong after a kill at " << delay_ms << " ms";
    }
  }
  Result ok = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(ok.status, 0) << ok;
  for (auto& [rel, bytes] : want) EXPECT_TRUE(read_file(path("out/" + rel)) == bytes) << rel;
  // Nothing a killed build was writing is left: no staging folder, no temporary.
  EXPECT_THAT(staging_left(path("out")), ElementsAre());
  EXPECT_EQ(tree(path("out")).size(), want.size()) << testing::PrintToString(names_in(path("out")));
}

}  // namespace
}  // namespace ppy::e2e
