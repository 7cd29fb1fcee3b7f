#include "ppy/driver/cache_counts.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

TEST(CacheCounts, AddsUpPerBackendAcrossProcesses) {
  fs::path dir = fs::temp_directory_path() / ("ppy-counts-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  EXPECT_TRUE(read_cache_counts(dir.string()).empty());
  std::vector<pid_t> kids;
  for (int k = 0; k < 4; ++k) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int i = 0; i < 25; ++i) {
        CountsByBackend c;
        c["toy"].local_hits = 1;
        c["toy"].misses = 2;
        c["c"].remote_hits = 3;
        c["c"].remote_refused = 1;
        if (!add_cache_counts(dir.string(), c)) _exit(1);
      }
      _exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto all = read_cache_counts(dir.string());
  EXPECT_EQ(all["toy"].local_hits, 100u);
  EXPECT_EQ(all["toy"].misses, 200u);
  EXPECT_EQ(all["toy"].remote_hits, 0u);
  EXPECT_EQ(all["c"].remote_hits, 300u);
  EXPECT_EQ(all["c"].remote_refused, 100u);
  // A damaged line is skipped, not a failure.
  std::ofstream(dir / ".ppy-stats", std::ios::app) << "garbage line\n";
  EXPECT_EQ(read_cache_counts(dir.string())["toy"].local_hits, 100u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ppy::driver
