#include "ppy/driver/output_tree.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/util/error.h"

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace ppy::driver {
namespace {

class OutputTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy-output-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Every entry under `d`: files as their bytes, folders as "<dir>".
  static std::map<std::string, std::string> tree(const fs::path& d) {
    std::map<std::string, std::string> out;
    std::error_code ec;
    if (!fs::exists(d, ec)) return out;
    for (auto& e : fs::recursive_directory_iterator(d)) {
      std::string rel = fs::relative(e.path(), d).string();
      if (e.is_directory()) {
        out[rel] = "<dir>";
      } else {
        std::ifstream in(e.path(), std::ios::binary);
        out[rel] = std::string((std::istreambuf_iterator<char>(in)), {});
      }
    }
    return out;
  }
  /// What is beside the output folder, but the output folder itself.
  std::vector<std::string> siblings() const {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(dir_))
      if (e.path() != out_) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  fs::path out_ = fs::path();
};

const std::vector<OutputFile> kOld = {{"a.toy", "old a"}, {"gone.toy", "only in the old"}, {"sub/b.toy", "old b"}};
const std::vector<OutputFile> kNew = {{"a.toy", "new a"}, {"sub/b.toy", "new b"}, {"sub/deep/c", "new c", true}};

TEST_F(OutputTreeTest, WritesTheFilesAndTheMarkerAndReplacesWhole) {
  out_ = dir_ / "out";
  ASSERT_TRUE(write_tree_atomically(out_, kOld).ok());
  auto old_tree = tree(out_);
  EXPECT_EQ(old_tree["gone.toy"], "only in the old");
  EXPECT_TRUE(has_output_marker(out_));
  ASSERT_TRUE(write_tree_atomically(out_, kNew, {.made_by = "the test"}).ok());
  auto t = tree(out_);
  EXPECT_EQ(t.count("gone.toy"), 0u);
  EXPECT_EQ(t["a.toy"], "new a");
  EXPECT_EQ(t["sub/deep/c"], "new c");
  EXPECT_THAT(t[std::string(kOutputMarker)], HasSubstr("Made by the test."));
  struct stat st;
  ASSERT_EQ(::stat((out_ / "sub/deep/c").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
  ASSERT_EQ(::stat((out_ / "a.toy").c_str(), &st), 0);
  EXPECT_FALSE(st.st_mode & S_IXUSR);
  EXPECT_THAT(siblings(), ElementsAre());  // the previous folder is gone once the new one is in
}

TEST_F(OutputTreeTest, AFolderThatAlreadyHoldsExactlyTheOutputIsNotRewritten) {
  out_ = dir_ / "out";
  ASSERT_TRUE(write_tree_atomically(out_, kNew).ok());
  auto inode = [&](const char* p) {
    struct stat st;
    return ::stat((out_ / p).c_str(), &st) == 0 ? st.st_ino : 0;
  };
  ino_t before = inode("a.toy");
  std::vector<std::string> steps;
  TreeWriteOptions o{.at_step = [&](std::string_view s) {
    steps.emplace_back(s);
    return absl::OkStatus();
  }};
  ASSERT_TRUE(write_tree_atomically(out_, kNew, o).ok());
  EXPECT_THAT(steps, ElementsAre());  // nothing staged, nothing swapped
  EXPECT_EQ(inode("a.toy"), before);
  // Anything else there, or any difference, and the folder is written whole again.
  std::ofstream(out_ / "stray") << "x";
  ASSERT_TRUE(write_tree_atomically(out_, kNew, o).ok());
  EXPECT_FALSE(steps.empty());
  EXPECT_EQ(tree(out_).count("stray"), 0u);
  steps.clear();
  fs::permissions(out_ / "sub/deep/c", fs::perms::owner_exec, fs::perm_options::remove);
  ASSERT_TRUE(write_tree_atomically(out_, kNew, o).ok());
  EXPECT_FALSE(steps.empty());
  struct stat st;
  ASSERT_EQ(::stat((out_ / "sub/deep/c").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
  steps.clear();
  auto changed = kNew;
  changed[0].bytes = "new A";
  ASSERT_TRUE(write_tree_atomically(out_, changed, o).ok());
  EXPECT_FALSE(steps.empty());
  EXPECT_EQ(tree(out_)["a.toy"], "new A");
  steps.clear();
  ASSERT_TRUE(write_tree_atomically(out_, changed, {.made_by = "someone else", .at_step = o.at_step}).ok());
  EXPECT_FALSE(steps.empty());  // the marker differs
}

TEST_F(OutputTreeTest, AFolderPpyDidNotMakeIsRefusedAndLeftAlone) {
  out_ = dir_ / "o";
  fs::create_directories(out_ / "app.util.toy");  // the issue's `mkdir -p o/app.util.toy`
  std::ofstream(out_ / "mine.txt") << "the user's";
  auto before = tree(out_);
  absl::Status s = write_tree_atomically(out_, kNew);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(error_code(s), "E1002");
  EXPECT_THAT(error_text(s), HasSubstr("cannot write the output to " + out_.string() + ": it is a folder that ppy "
                                       "did not make"));
  EXPECT_EQ(tree(out_), before);
  EXPECT_THAT(siblings(), ElementsAre());
  // Unless the caller owns it (the driver's cache), or it is empty.
  EXPECT_TRUE(write_tree_atomically(out_, kNew, {.replace_unmarked = true}).ok());
  fs::path empty = dir_ / "empty";
  fs::create_directories(empty);
  EXPECT_TRUE(write_tree_atomically(empty, kNew).ok());
  // A file is not a folder.
  std::ofstream(dir_ / "file") << "x";
  s = write_tree_atomically(dir_ / "file", kNew);
  EXPECT_EQ(error_code(s), "E1002");
  EXPECT_THAT(error_text(s), HasSubstr("it is a file"));
}

/// Whether this filesystem swaps two folders in one rename.
bool exchange_works(const fs::path& dir) {
  fs::create_directories(dir / "x1");
  fs::create_directories(dir / "x2");
  bool ok = ::renameat2(AT_FDCWD, (dir / "x1").c_str(), AT_FDCWD, (dir / "x2").c_str(), RENAME_EXCHANGE) == 0;
  fs::remove_all(dir / "x1");
  fs::remove_all(dir / "x2");
  return ok;
}

TEST_F(OutputTreeTest, AFailureMidwayLeavesThePreviousOutputExactly) {
  out_ = dir_ / "out";
  ASSERT_TRUE(write_tree_atomically(out_, kOld).ok());
  const auto before = tree(out_);
  // Injected at each step before the swap (after it, nothing can fail).
  const bool exchange = exchange_works(dir_);
  for (std::string_view at : {"staged-file", "staged", "moved-aside"}) {
    for (bool no_exchange : {false, true}) {
      if (at == "moved-aside" && exchange && !no_exchange) continue;  // a step of the two-rename swap only
      TreeWriteOptions o;
      o.no_exchange = no_exchange;
      o.at_step = [&](std::string_view step) {
        return step == at ? coded_error("E1002", "cannot write: injected") : absl::OkStatus();
      };
      absl::Status s = write_tree_atomically(out_, kNew, o);
      ASSERT_FALSE(s.ok()) << at;
      EXPECT_THAT(error_text(s), HasSubstr("injected"));
      EXPECT_EQ(tree(out_), before) << at << " no_exchange=" << no_exchange;
      EXPECT_THAT(siblings(), ElementsAre()) << at << " no_exchange=" << no_exchange;
    }
  }
  // Real write failures: a path that is a file and a folder, a path named twice.
  for (auto bad : std::vector<std::vector<OutputFile>>{{{"x", "1"}, {"x/y", "2"}}, {{"x", "1"}, {"x", "2"}}}) {
    absl::Status s = write_tree_atomically(out_, bad);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(error_code(s), "E1002") << s;
    EXPECT_THAT(error_text(s), HasSubstr("cannot write " + (out_ / "x").string() + ": the output names it"));
    EXPECT_EQ(tree(out_), before);
    EXPECT_THAT(siblings(), ElementsAre());
  }
  // A path leaving the folder, and the marker's own name.
  for (std::string bad : std::vector<std::string>{"../up", "/abs", "a/./b", std::string(kOutputMarker)}) {
    absl::Status s = write_tree_atomically(out_, {{"ok", "1"}, {bad, "2"}});
    EXPECT_EQ(error_code(s), "E1002") << bad;
    EXPECT_EQ(tree(out_), before) << bad;
  }
}

TEST_F(OutputTreeTest, AKillAtAnyStepLeavesTheOldOrTheNewFolder) {
  out_ = dir_ / "out";
  const bool exchange = exchange_works(dir_);
  for (bool no_exchange : {false, true}) {
    for (std::string_view at : {"staged-file", "staged", "exchanged", "moved-aside", "swapped"}) {
      fs::remove_all(out_);
      ASSERT_TRUE(write_tree_atomically(out_, kOld).ok());
      const auto old_tree = tree(out_);
      pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        TreeWriteOptions o;
        o.no_exchange = no_exchange;
        o.at_step = [&](std::string_view step) {
          if (step == at) ::raise(SIGKILL);
          return absl::OkStatus();
        };
        _exit(write_tree_atomically(out_, kNew, o).ok() ? 0 : 1);
      }
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
      if (!killed) ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << at;
      auto now = tree(out_);
      bool is_new = now.count("sub/deep/c") && now["a.toy"] == "new a" && now.count("gone.toy") == 0;
      // With RENAME_EXCHANGE there is no moment without the folder.
      if (exchange && !no_exchange) EXPECT_TRUE(now == old_tree || is_new) << at;
      // What the next writer does first (the killed one's pid is gone).
      recover_output(out_);
      now = tree(out_);
      is_new = now.count("sub/deep/c") && now["a.toy"] == "new a" && now.count("gone.toy") == 0;
      EXPECT_TRUE(now == old_tree || is_new) << at << " no_exchange=" << no_exchange;
      const bool two_renames = no_exchange || !exchange;
      EXPECT_EQ(now == old_tree, at == "staged-file" || at == "staged" || (two_renames && at == "moved-aside"))
          << at << " no_exchange=" << no_exchange;
      EXPECT_THAT(siblings(), ElementsAre()) << at << " no_exchange=" << no_exchange;
    }
  }
}

TEST_F(OutputTreeTest, ReplaceTreeMovesAStagedFolderIntoPlace) {
  out_ = dir_ / "out";
  ASSERT_TRUE(write_tree_atomically(out_, kOld).ok());
  auto staged = make_staging_folder(out_);
  ASSERT_TRUE(staged.ok());
  EXPECT_EQ(staged->parent_path(), dir_);
  std::ofstream(*staged / "built.bin") << "built";
  ASSERT_TRUE(replace_tree(out_, *staged).ok());
  auto t = tree(out_);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t["built.bin"], "built");
  EXPECT_THAT(siblings(), ElementsAre());
}

TEST_F(OutputTreeTest, AFileIsReplacedWholeAndADirectoryIsRefused) {
  fs::path p = dir_ / "out" / "main.toy";
  ASSERT_TRUE(write_file_atomically(p, "first").ok());
  ASSERT_TRUE(write_file_atomically(p, "second").ok());
  EXPECT_EQ(tree(dir_ / "out"), (std::map<std::string, std::string>{{"main.toy", "second"}}));
  fs::create_directories(dir_ / "out" / "d");
  absl::Status s = write_file_atomically(dir_ / "out" / "d", "x");
  EXPECT_EQ(error_code(s), "E1002");
  EXPECT_THAT(error_text(s), HasSubstr("cannot write " + (dir_ / "out" / "d").string() + ": Is a directory"));
}

TEST_F(OutputTreeTest, TheTemporaryOfAKilledFileWriteIsRemoved) {
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  fs::path p = dir_ / "main.toy";
  std::string stale = ".main.toy.ppy-tmp-" + std::to_string(dead) + "-1-0";
  std::string live = ".main.toy.ppy-tmp-" + std::to_string(getppid()) + "-1-0";  // a writer that still runs
  std::ofstream(dir_ / stale) << "half";
  std::ofstream(dir_ / live) << "half";
  ASSERT_TRUE(write_file_atomically(p, "whole").ok());
  EXPECT_THAT(siblings(), ElementsAre(live, "main.toy"));
}

}  // namespace
}  // namespace ppy::driver
