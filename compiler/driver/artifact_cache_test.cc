#include "ppy/driver/artifact_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "gtest/gtest.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

class ArtifactCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy-cache-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const std::string kKey = std::string(64, 'a');

TEST_F(ArtifactCacheTest, MissThenHit) {
  ArtifactCache cache(dir_.string());
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  ASSERT_TRUE(cache.store(kKey, {{"main.toy", "one"}, {"sub/util.toy", "two"}}).ok());
  auto got = cache.lookup(kKey);
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].path, "main.toy");
  EXPECT_EQ((*got)[0].bytes, "one");
  EXPECT_EQ((*got)[1].path, "sub/util.toy");
  EXPECT_EQ((*got)[1].bytes, "two");
}

TEST_F(ArtifactCacheTest, RefusesPathsLeavingTheEntry) {
  ArtifactCache cache(dir_.string());
  auto s = cache.store(kKey, {{"../escape", "x"}});
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  EXPECT_FALSE(fs::exists(dir_ / "escape"));
}

// What a build killed mid-write leaves behind: a temporary folder, never read.
TEST_F(ArtifactCacheTest, TornTemporaryIsIgnored) {
  ArtifactCache cache(dir_.string());
  fs::path torn = cache.entry_path(kKey) + ".tmp-123-4-5";
  fs::create_directories(torn);
  std::ofstream(torn / "main.toy") << "half";
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  ASSERT_TRUE(cache.store(kKey, {{"main.toy", "whole"}}).ok());
  EXPECT_EQ(cache.lookup(kKey)->at(0).bytes, "whole");
}

// An entry folder without its index (a crash between mkdir and rename cannot
// make one, but a hand-edited cache can) is a miss, not a partial artifact.
TEST_F(ArtifactCacheTest, EntryWithoutIndexIsAMiss) {
  ArtifactCache cache(dir_.string());
  fs::create_directories(cache.entry_path(kKey));
  std::ofstream(fs::path(cache.entry_path(kKey)) / "main.toy") << "x";
  EXPECT_FALSE(cache.lookup(kKey).has_value());
}

TEST_F(ArtifactCacheTest, ConcurrentStoresOfOneKeyBothSucceed) {
  ArtifactCache cache(dir_.string());
  std::string big(1 << 20, 'z');
  std::vector<pid_t> kids;
  for (int i = 0; i < 4; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int k = 0; k < 20; ++k) {
        std::string key = std::string(63, 'b') + static_cast<char>('0' + k % 10);
        if (!cache.store(key, {{"a.bin", big}, {"b.txt", "b"}}).ok()) _exit(1);
        auto got = cache.lookup(key);
        if (!got || got->size() != 2 || (*got)[0].bytes != big) _exit(2);
      }
      _exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  // No temporaries left behind by the losers of each race.
  for (auto& e : fs::recursive_directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(ArtifactCacheTest, KeepsTheExecutableBit) {
  ArtifactCache cache(dir_.string());
  ASSERT_TRUE(cache.store(kKey, {{"tool", "#!/bin/sh\n", true}, {"data.txt", "d", false}}).ok());
  auto hit = cache.lookup(kKey);
  ASSERT_TRUE(hit.has_value());
  ASSERT_EQ(hit->size(), 2u);
  EXPECT_TRUE((*hit)[0].executable);
  EXPECT_FALSE((*hit)[1].executable);
}

TEST_F(ArtifactCacheTest, EntriesSayWhoMadeThemAndTheirSize) {
  ArtifactCache cache(dir_.string());
  ASSERT_TRUE(cache.store(kKey, {{"a", std::string(1000, 'x')}}, "toy").ok());
  ASSERT_TRUE(cache.store(std::string(64, 'c'), {{"b", "yy"}}, "c").ok());
  fs::create_directories(cache.entry_path(std::string(64, 'd')) + ".tmp-1-2-3");  // a torn write: not an entry
  auto entries = cache.entries();
  ASSERT_EQ(entries.size(), 2u);
  std::map<std::string, CacheEntryInfo> by_key;
  for (auto& e : entries) by_key[e.key] = e;
  EXPECT_EQ(by_key[kKey].backend, "toy");
  EXPECT_GE(by_key[kKey].bytes, 1000u);
  EXPECT_LT(by_key[kKey].bytes, 1100u);
  EXPECT_EQ(by_key[std::string(64, 'c')].backend, "c");
}

TEST_F(ArtifactCacheTest, ALookupMarksTheEntryUsed) {
  ArtifactCache cache(dir_.string());
  ASSERT_TRUE(cache.store(kKey, {{"a", "x"}}).ok());
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(24);
  fs::last_write_time(fs::path(cache.entry_path(kKey)) / ".ppy-entry", old);
  ASSERT_LT(cache.entries().at(0).last_use, old + std::chrono::seconds(1));
  ASSERT_TRUE(cache.lookup(kKey).has_value());
  EXPECT_GT(cache.entries().at(0).last_use, old + std::chrono::hours(23));
}

TEST_F(ArtifactCacheTest, RemovesOnlyUnusedEntries) {
  ArtifactCache cache(dir_.string());
  ASSERT_TRUE(cache.store(kKey, {{"a", "x"}}).ok());
  auto now = fs::file_time_type::clock::now();
  // Used after the cut-off: kept.
  EXPECT_FALSE(cache.remove_if_unused(kKey, now - std::chrono::hours(1)));
  ASSERT_TRUE(cache.lookup(kKey).has_value());
  // Being read (a lookup holds the index's shared lock): kept.
  int fd = ::open((fs::path(cache.entry_path(kKey)) / ".ppy-entry").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);
  EXPECT_FALSE(cache.remove_if_unused(kKey, now + std::chrono::hours(1)));
  ::close(fd);
  // Neither: removed whole, nothing left beside the other entries.
  EXPECT_TRUE(cache.remove_if_unused(kKey, now + std::chrono::hours(1)));
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  EXPECT_TRUE(cache.entries().empty());
  EXPECT_FALSE(fs::exists(cache.entry_path(kKey)));
  for (auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".trash-"), std::string::npos) << e.path();
  // And it can be stored again.
  ASSERT_TRUE(cache.store(kKey, {{"a", "y"}}).ok());
  EXPECT_EQ(cache.lookup(kKey)->at(0).bytes, "y");
}

// Lookups racing removals: every lookup sees the whole entry or a miss, never
// a part of one.
TEST_F(ArtifactCacheTest, LookupsRacingRemovalsSeeWholeEntriesOrNone) {
  ArtifactCache cache(dir_.string());
  std::string big(256 << 10, 'q');
  pid_t kid = fork();
  ASSERT_GE(kid, 0);
  if (kid == 0) {
    for (int i = 0; i < 200; ++i) {
      (void)cache.store(kKey, {{"a.bin", big}, {"b.txt", "b"}});
      (void)cache.remove_if_unused(kKey, fs::file_time_type::clock::now() + std::chrono::hours(1));
    }
    _exit(0);
  }
  int hits = 0;
  for (int i = 0; i < 400; ++i) {
    auto got = cache.lookup(kKey);
    if (!got) continue;
    ++hits;
    ASSERT_EQ(got->size(), 2u);
    ASSERT_EQ((*got)[0].bytes, big);
    ASSERT_EQ((*got)[1].bytes, "b");
  }
  int status = 0;
  waitpid(kid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  (void)hits;
}

TEST_F(ArtifactCacheTest, RefusesFilesNamedLikeItsOwn) {
  ArtifactCache cache(dir_.string());
  EXPECT_FALSE(cache.store(kKey, {{".ppy-entry", "x"}}).ok());
  EXPECT_FALSE(cache.store(kKey, {{".ppy-about", "x"}}).ok());
  EXPECT_FALSE(cache.lookup(kKey).has_value());
}

}  // namespace
}  // namespace ppy::driver
