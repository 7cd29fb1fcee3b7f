#include "ppy/driver/cache_eviction.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>

#include "gtest/gtest.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

class CacheEvictionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy-evict-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string key(int i) { return std::string(62, 'a') + static_cast<char>('0' + i / 10) + static_cast<char>('0' + i % 10); }

  /// Stores entry `i` of `kb` KiB, last used `hours_ago`.
  void put(const ArtifactCache& cache, int i, int kb, int hours_ago) {
    ASSERT_TRUE(cache.store(key(i), {{"a.bin", std::string(kb << 10, 'x')}}, "toy").ok());
    fs::last_write_time(fs::path(cache.entry_path(key(i))) / ".ppy-entry",
                        fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
  }

  bool has(const ArtifactCache& cache, int i) { return fs::exists(cache.entry_path(key(i))); }

  fs::path dir_;
};

TEST_F(CacheEvictionTest, UnderTheBoundNothingGoes) {
  ArtifactCache cache(dir_.string());
  for (int i = 0; i < 4; ++i) put(cache, i, 10, 10 + i);
  EvictionReport r = evict_to_bound(cache, 1 << 20);
  EXPECT_EQ(r.entries, 4u);
  EXPECT_EQ(r.removed, 0u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(has(cache, i));
}

TEST_F(CacheEvictionTest, LeastRecentlyUsedGoFirstDownToNinetyPercent) {
  ArtifactCache cache(dir_.string());
  // Ten entries of ~10 KiB; entry i was used i hours ago (9 the oldest).
  for (int i = 0; i < 10; ++i) put(cache, i, 10, i + 1);
  // A bound of 75 KiB: down to 67.5 KiB, so the four oldest go (6 x ~10 KiB stay).
  EvictionReport r = evict_to_bound(cache, 75 << 10);
  EXPECT_EQ(r.removed, 4u);
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(has(cache, i)) << i;
  for (int i = 6; i < 10; ++i) EXPECT_FALSE(has(cache, i)) << i;
  // A lookup makes an old entry the newest: the next eviction takes another.
  put(cache, 10, 10, 100);
  ASSERT_TRUE(cache.lookup(key(5)).has_value());
  r = evict_to_bound(cache, 65 << 10);
  EXPECT_TRUE(has(cache, 5));
  EXPECT_FALSE(has(cache, 10));
  EXPECT_FALSE(has(cache, 4));
}

TEST_F(CacheEvictionTest, NeverWhatARunningBuildUses) {
  ArtifactCache cache(dir_.string());
  put(cache, 0, 10, 5);
  put(cache, 1, 10, 4);
  put(cache, 2, 10, 0);  // used within the grace period
  // Entry 0 is being read: its lookup holds the shared lock.
  int fd = ::open((fs::path(cache.entry_path(key(0))) / ".ppy-entry").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);
  EvictionReport r = evict_to_bound(cache, 1);  // a bound nothing fits
  ::close(fd);
  EXPECT_TRUE(has(cache, 0));
  EXPECT_FALSE(has(cache, 1));
  EXPECT_TRUE(has(cache, 2));
  EXPECT_EQ(r.removed, 1u);
  EXPECT_EQ(r.skipped_in_use, 2u);
}

TEST_F(CacheEvictionTest, OneEvictorAtATime) {
  ArtifactCache cache(dir_.string());
  for (int i = 0; i < 3; ++i) put(cache, i, 10, 5);
  int fd = ::open((dir_ / ".ppy-evict.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  EXPECT_EQ(evict_to_bound(cache, 1).removed, 0u);  // another evicts: this one leaves it
  ::close(fd);
  EXPECT_EQ(evict_to_bound(cache, 1).removed, 3u);
}

TEST_F(CacheEvictionTest, CleanRemovesAllButWhatIsBeingRead) {
  ArtifactCache cache(dir_.string());
  for (int i = 0; i < 3; ++i) put(cache, i, 1, 0);
  int fd = ::open((fs::path(cache.entry_path(key(1))) / ".ppy-entry").c_str(), O_RDONLY);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);
  EvictionReport r = remove_unused(cache);
  ::close(fd);
  EXPECT_EQ(r.removed, 2u);
  EXPECT_EQ(r.skipped_in_use, 1u);
  EXPECT_TRUE(has(cache, 1));
  EXPECT_EQ(remove_unused(cache).removed, 1u);
  EXPECT_TRUE(cache.entries().empty());
}

}  // namespace
}  // namespace ppy::driver
