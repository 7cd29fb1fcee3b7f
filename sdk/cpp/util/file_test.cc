#include "ppy/util/file.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace ppy {
namespace {

class FileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ppy-file-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    (void)set_file_observer({});
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  /// The folder's entries, so a test sees that no temporary was left.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  mode_t mode(const fs::path& p) const {
    struct stat st{};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 0777;
  }
  fs::path dir_;
};

TEST_F(FileTest, WritesReadBackWholeAndReplaces) {
  fs::path p = dir_ / "a.bin";
  std::string bytes("one\0two", 7);
  ASSERT_TRUE(write_file_atomic(p, bytes).ok());
  auto got = read_file(p);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, bytes);
  ASSERT_TRUE(write_file_atomic(p, "second").ok());
  EXPECT_EQ(*read_file(p), "second");
  EXPECT_EQ(entries(), std::vector<std::string>{"a.bin"});  // no temporary left
}

TEST_F(FileTest, KeepsTheExecuteBitLessTheUmask) {
  mode_t old = ::umask(022);
  ASSERT_TRUE(write_file_atomic(dir_ / "tool", "#!/bin/sh\n", {.executable = true}).ok());
  ASSERT_TRUE(write_file_atomic(dir_ / "data", "x").ok());
  ASSERT_TRUE(write_new_file(dir_ / "new-tool", "x", {.executable = true}).ok());
  ::umask(old);
  EXPECT_EQ(mode(dir_ / "tool"), 0755u);
  EXPECT_EQ(mode(dir_ / "data"), 0644u);
  EXPECT_EQ(mode(dir_ / "new-tool"), 0755u);
  EXPECT_TRUE(is_executable(dir_ / "tool"));
  EXPECT_FALSE(is_executable(dir_ / "data"));
  EXPECT_FALSE(is_executable(dir_ / "absent"));
  // Replacing an executable with a plain file drops the bit: the mode is the new file's.
  ASSERT_TRUE(write_file_atomic(dir_ / "tool", "data now").ok());
  EXPECT_FALSE(is_executable(dir_ / "tool"));
}

TEST_F(FileTest, MarkExecutableAddsTheExecuteBitsWhereReadIsAllowed) {
  fs::path out = dir_ / "a.out";
  std::ofstream(out) << "#!/bin/sh\n";  // as a backend's build writes it: 0666 less the umask
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_FALSE(is_executable(out));
  ASSERT_TRUE(mark_executable(out).ok());
  EXPECT_EQ(mode(out), 0750u);
  EXPECT_TRUE(is_executable(out));
  absl::Status absent = mark_executable(dir_ / "absent");
  EXPECT_TRUE(absl::IsNotFound(absent)) << absent;
  EXPECT_NE(absent.message().find("cannot mark executable " + (dir_ / "absent").string()), std::string::npos);
}

TEST_F(FileTest, ErrorsNameThePathAndKeepTheErrnoKind) {
  auto missing = read_file(dir_ / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  EXPECT_NE(missing.status().message().find((dir_ / "nope").string()), std::string::npos);

  auto folder = read_file(dir_);
  EXPECT_FALSE(folder.ok());

  absl::Status s = write_file_atomic(dir_ / "no-such-folder" / "f", "x");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_NE(s.message().find("cannot write " + (dir_ / "no-such-folder" / "f").string()), std::string::npos) << s;

  fs::create_directory(dir_ / "sub");
  s = write_file_atomic(dir_ / "sub", "x");  // a folder is never replaced by a file
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(fs::is_directory(dir_ / "sub"));

  ASSERT_TRUE(write_new_file(dir_ / "once", "1").ok());
  s = write_new_file(dir_ / "once", "2", {.shown = "out/once"});
  EXPECT_TRUE(absl::IsAlreadyExists(s)) << s;
  EXPECT_NE(s.message().find("cannot write out/once"), std::string::npos) << s;
  EXPECT_EQ(*read_file(dir_ / "once"), "1");
}

TEST_F(FileTest, AFailedWriteLeavesTheFileAsItWasAndNoTemporary) {
  ASSERT_TRUE(write_file_atomic(dir_ / "keep", "old").ok());
  // A file-size limit fails the write halfway, for root too (EFBIG).
  struct rlimit was{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit small = was;
  small.rlim_cur = 4096;
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  absl::Status s = write_file_atomic(dir_ / "keep", std::string(100000, 'x'));
  absl::Status n = write_new_file(dir_ / "fresh", std::string(100000, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &was);
  ::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot write " + (dir_ / "keep").string()), std::string::npos) << s;
  EXPECT_FALSE(n.ok());
  EXPECT_EQ(*read_file(dir_ / "keep"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"keep"});  // neither a temporary nor half of "fresh"
}

TEST_F(FileTest, TheObserverSeesEachWholeWriteAndRead) {
  std::vector<std::string> wrote, read;
  (void)set_file_observer({.wrote = [&](const fs::path& p) { wrote.push_back(p.filename().string()); },
                           .read = [&](const fs::path& p) { read.push_back(p.filename().string()); }});
  ASSERT_TRUE(write_file_atomic(dir_ / "a", "1").ok());
  ASSERT_TRUE(write_new_file(dir_ / "b", "2").ok());
  EXPECT_FALSE(write_new_file(dir_ / "b", "3").ok());  // failed: not a write
  ASSERT_TRUE(read_file(dir_ / "a").ok());
  EXPECT_FALSE(read_file(dir_ / "zz").ok());
  EXPECT_EQ(wrote, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read, std::vector<std::string>{"a"});
  FileObserver previous = set_file_observer({});
  EXPECT_TRUE(previous.wrote != nullptr);
}

}  // namespace
}  // namespace ppy
