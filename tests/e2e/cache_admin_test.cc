// End-to-end tests of keeping the artifact cache: its bound and LRU eviction,
// `ppy cache stats` / `ppy cache clean`, `--no-cache`, and the execute bit of a
// built file kept through the cache.
#include <sys/stat.h>

#include <chrono>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CacheAdmin : public E2E {
 protected:
  std::string table(const std::string& extra = "") {
    return "[tool.ppy.backends.dummy]\nsandbox = \"off\"\ncount-file = \"" + p("calls.txt") + "\"\n" + extra;
  }
  int calls(const std::string& what = "build") { return static_cast<int>(grep(read_file(path("calls.txt")), what).size()); }
  Result build(const std::string& proj, std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"build", proj, "--backend", "dummy", "-o", p("out" + std::to_string(++n_))};
    a.insert(a.end(), extra.begin(), extra.end());
    return ppy(a);
  }
  /// The cache's entries, as their index files.
  std::vector<fs::path> entries(const std::string& proj) {
    std::vector<fs::path> out;
    fs::path root = fs::path(proj) / ".ppy-cache/artifacts";
    if (!fs::exists(root)) return out;
    for (auto& e : fs::recursive_directory_iterator(root))
      if (e.path().filename() == ".ppy-entry") out.push_back(e.path());
    return out;
  }
  /// Makes every entry look last used a day ago.
  void age(const std::string& proj) {
    for (auto& e : entries(proj)) fs::last_write_time(e, fs::file_time_type::clock::now() - std::chrono::hours(24));
  }
  int n_ = 0;
};

TEST_F(CacheAdmin, NoCacheNeitherReadsNorWrites) {
  std::string proj = multi(table());
  Result a = build(proj, {"--no-cache"});
  ASSERT_EQ(a.status, 0) << a;
  Result b = build(proj, {"--no-cache"});
  ASSERT_EQ(b.status, 0) << b;
  EXPECT_EQ(calls(), 2);
  EXPECT_TRUE(entries(proj).empty());
  EXPECT_EQ(tree(path("out1")), tree(path("out2")));
  // With the cache filled, --no-cache still calls the backend.
  ASSERT_EQ(build(proj).status, 0);
  EXPECT_EQ(calls(), 3);
  ASSERT_EQ(build(proj, {"--no-cache"}).status, 0);
  EXPECT_EQ(calls(), 4);
  ASSERT_EQ(build(proj).status, 0);
  EXPECT_EQ(calls(), 4);
  // emit too: module-scoped and program-scoped.
  for (int i = 0; i < 2; ++i) {
    Result e = ppy({"emit", "dummy", proj, "--no-cache", "-o", p("e" + std::to_string(i)) + "/"});
    ASSERT_EQ(e.status, 0) << e;
    Result prog = ppy({"emit", "dummy-prog", proj, "--no-cache"});
    ASSERT_EQ(prog.status, 0) << prog;
  }
  EXPECT_EQ(calls("emit dummy "), 6);
  EXPECT_EQ(calls("emit_program"), 2);
  EXPECT_EQ(entries(proj).size(), 1u);  // the one build's
}

TEST_F(CacheAdmin, ExecutableOutputKeepsItsModeFreshAndFromTheCache) {
  std::string proj = multi(table("exec-file = \"run.sh\"\n"));
  auto executable = [](const fs::path& f) {
    struct stat st{};
    return ::stat(f.c_str(), &st) == 0 && (st.st_mode & S_IXUSR) != 0;
  };
  Result fresh = build(proj);
  ASSERT_EQ(fresh.status, 0) << fresh;
  EXPECT_EQ(calls(), 1);
  EXPECT_TRUE(executable(path("out1/run.sh")));
  EXPECT_FALSE(executable(path("out1/app.main.dummy")));
  EXPECT_EQ(read_file(path("out1/run.sh")), "#!/bin/sh\necho built by dummy\n");
  Result hit = build(proj);
  ASSERT_EQ(hit.status, 0) << hit;
  EXPECT_EQ(calls(), 1);  // from the cache
  EXPECT_TRUE(executable(path("out2/run.sh")));
  EXPECT_FALSE(executable(path("out2/app.main.dummy")));
  // The default folder, and a build with no cache.
  ASSERT_EQ(ppy({"build", proj, "--backend", "dummy"}).status, 0);
  EXPECT_TRUE(executable(fs::path(proj) / ".ppy-cache/backends/dummy/run.sh"));
  ASSERT_EQ(build(proj, {"--no-cache"}).status, 0);
  EXPECT_TRUE(executable(path("out3/run.sh")));
}

TEST_F(CacheAdmin, StatsCountHitsAndMissesPerBackendAndCleanEmptiesIt) {
  std::string proj = multi(table());
  Result empty = ppy({"cache", "stats", proj});
  ASSERT_EQ(empty.status, 0) << empty;
  EXPECT_THAT(empty.out, HasSubstr("size:         0 B of 1.0 GiB (0 entries)"));
  ASSERT_EQ(build(proj).status, 0);
  ASSERT_EQ(build(proj).status, 0);
  ASSERT_EQ(build(proj).status, 0);
  ASSERT_EQ(ppy({"emit", "dummy", proj, "-o", p("e") + "/"}).status, 0);
  ASSERT_EQ(ppy({"build", proj, "--backend", "toy", "-o", p("t")}).status, 0);
  Result stats = ppy({"cache", "stats", proj});
  ASSERT_EQ(stats.status, 0) << stats;
  EXPECT_THAT(stats.out, HasSubstr("(5 entries)")) << stats;  // a build and three emits of dummy's, toy's build
  EXPECT_THAT(stats.out, HasSubstr("local hits:   2\n")) << stats;
  EXPECT_THAT(stats.out, HasSubstr("misses:       5\n")) << stats;
  auto dummy = grep(stats.out, "dummy ");
  ASSERT_EQ(dummy.size(), 1u) << stats;
  EXPECT_THAT(dummy[0], testing::MatchesRegex("dummy +4 +[0-9.]+ [KMG]?i?B +2 +0 +4")) << stats;
  auto toy = grep(stats.out, "toy ");
  ASSERT_EQ(toy.size(), 1u) << stats;
  EXPECT_THAT(toy[0], testing::MatchesRegex("toy +1 +[0-9.]+ [KMG]?i?B +0 +0 +1")) << stats;
  // From inside the project folder too (the default target is `.`).
  Spawn s = spawn({"cache", "stats"}, sets({"main"}));
  s.cwd = proj;
  Result here = run(s);
  EXPECT_EQ(here.out, stats.out);

  Result clean = ppy({"cache", "clean", proj});
  ASSERT_EQ(clean.status, 0) << clean;
  EXPECT_THAT(clean.out, HasSubstr("removed 5 entries"));
  EXPECT_TRUE(entries(proj).empty());
  ASSERT_EQ(build(proj).status, 0);
  EXPECT_EQ(calls(), 2);  // cleaned: built again
  EXPECT_THAT(ppy({"cache", "stats", proj}).out, HasSubstr("(1 entries)"));
  // A target that does not exist is the usual error.
  Result missing = ppy({"cache", "stats", p("nowhere")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("error[E1202]"));
}

TEST_F(CacheAdmin, KeptWithinItsBoundLeastRecentlyUsedFirst) {
  // Each build's entry is ~60 KiB (big.bin); the bound holds one.
  std::string proj = multi("cache-max-size = \"100K\"\n" + table("big-kb = 60\n"));
  ASSERT_EQ(build(proj).status, 0);
  ASSERT_EQ(entries(proj).size(), 1u);
  age(proj);
  std::string util = (fs::path(proj) / "src/app/util.ppy").string();
  std::string before = read_file(util);
  write_file(util, before + "\n\ndef one() -> int:\n    return 1\n");
  ASSERT_EQ(build(proj).status, 0);
  // Over the bound: the older entry went, the one just built stayed.
  ASSERT_EQ(entries(proj).size(), 1u);
  EXPECT_EQ(calls(), 2);
  ASSERT_EQ(build(proj).status, 0);
  EXPECT_EQ(calls(), 2);  // the new one still hits
  write_file(util, before);
  ASSERT_EQ(build(proj).status, 0);
  EXPECT_EQ(calls(), 3);  // the evicted one is built again
  // Entries used within the grace period stay whatever the bound: both are
  // fresh now, and 120 KiB.
  EXPECT_EQ(entries(proj).size(), 2u);
}

TEST_F(CacheAdmin, ABadBoundIsRefused) {
  std::string proj = multi(table());
  write_file(fs::path(proj) / "pyproject.toml", "[tool.ppy]\nsource-roots = [\"src\"]\ncache-max-size = \"huge\"\n");
  Result r = build(proj);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("E1201"));
  EXPECT_THAT(r.err, HasSubstr("cache-max-size"));
}

}  // namespace
}  // namespace ppy::e2e
