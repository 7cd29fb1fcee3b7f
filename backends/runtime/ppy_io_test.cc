// Streams, files and the process (ppy_io.h, ppy_sys.h) as compiled code calls
// them: posixpath's answers, Python's exceptions and messages through the raise
// hook, newline translation and UTF-8 checks, sys.argv and SystemExit.
#include <gc.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "ppy_dict.h"  // ppy_io.h, ppy_sys.h
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "runtime_test_support.h"

namespace {

using namespace ppy::runtime_test;  // NOLINT: the runtime tests' shared helpers

class Io : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    dir_ = std::filesystem::temp_directory_path() / ("ppy_io_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    RuntimeTest::TearDown();
    std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

void write_bytes(const std::string& p, const std::string& bytes) {
  FILE* f = std::fopen(p.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

TEST_F(Io, PathsFollowPosixpath) {
  EXPECT_EQ(T(ppy_os_path_join(S("a"), S("b"))), "a/b");
  EXPECT_EQ(T(ppy_os_path_join(S("a/"), S("b"))), "a/b");
  EXPECT_EQ(T(ppy_os_path_join(S("a"), S("/b"))), "/b");
  EXPECT_EQ(T(ppy_os_path_join(S(""), S("b"))), "b");
  EXPECT_EQ(T(ppy_os_path_basename(S("a/b.txt"))), "b.txt");
  EXPECT_EQ(T(ppy_os_path_basename(S("dir/"))), "");
  EXPECT_EQ(T(ppy_os_path_dirname(S("/usr//lib"))), "/usr");
  EXPECT_EQ(T(ppy_os_path_dirname(S("//x"))), "//");
  EXPECT_EQ(T(ppy_os_path_dirname(S("file"))), "");
  EXPECT_EQ(T(ppy_os_path_splitext(S("a.tar.gz"), 0)), "a.tar");
  EXPECT_EQ(T(ppy_os_path_splitext(S("a.tar.gz"), 1)), ".gz");
  EXPECT_EQ(T(ppy_os_path_splitext(S(".bashrc"), 1)), "");
  EXPECT_EQ(T(ppy_os_path_splitext(S("a.b/c"), 1)), "");
}

TEST_F(Io, OpenRaisesPythonsOsErrors) {
  Raised r = raised([&] { ppy_io_open(S(path("missing")), S("r")); });
  EXPECT_EQ(r.name, "FileNotFoundError");
  EXPECT_EQ(r.message, "[Errno 2] No such file or directory: '" + path("missing") + "'");
  EXPECT_EQ(raised([&] { ppy_io_open(S(dir_.string()), S("r")); }).name, "IsADirectoryError");
  write_bytes(path("x"), "");
  EXPECT_EQ(raised([&] { ppy_io_open(S(path("x")), S("x")); }).message, "[Errno 17] File exists: '" + path("x") + "'");
  EXPECT_EQ(raised([&] { ppy_io_open(S(path("x")), S("rb")); }).message, "invalid mode: 'rb'");
}

TEST_F(Io, ReadingTranslatesNewlinesAndChecksUtf8) {
  write_bytes(path("t"), "a\r\nb\rc\n\xc3\xa9");
  void* f = ppy_io_open(S(path("t")), S("r"));
  EXPECT_EQ(T(ppy_io_readline(f)), "a\n");
  EXPECT_EQ(T(ppy_io_read(f)), "b\nc\n\xc3\xa9");
  EXPECT_EQ(T(ppy_io_readline(f)), "");
  ppy_io_close(f);
  EXPECT_EQ(raised([&] { ppy_io_read(f); }).message, "I/O operation on closed file.");
  write_bytes(path("bad"), "ok\n\xe2\x82");
  void* g = ppy_io_open(S(path("bad")), S("r"));
  Raised r = raised([&] { ppy_io_read(g); });
  EXPECT_EQ(r.name, "UnicodeDecodeError");
  EXPECT_EQ(r.message, "'utf-8' codec can't decode bytes in position 3-4: unexpected end of data");
}

// speedrt: lines are taken from a 64 KiB read-ahead block; what crosses a
// block's end (a line, a \r\n, a multi-byte character) reads as it would a
// character at a time, and a file open for writing too reads as before.
TEST_F(Io, ReadingAcrossBlocksMatchesReadingByCharacter) {
  const size_t block = 64 * 1024;
  std::string text(block - 1, 'a');
  text += "\r\n";                       // \r ends the first block, \n starts the next
  text += std::string(3 * block, 'b');  // a line longer than a block
  text += "\n";
  text += std::string(block - 1 - text.size() % block, 'c');
  text += "\xc3\xa9\rlast";  // a character cut by the block's end, a lone \r, no final newline
  write_bytes(path("blocks"), text);
  std::string want = text;
  for (size_t at; (at = want.find("\r\n")) != std::string::npos;) want.erase(at, 1);
  for (char& c : want)
    if (c == '\r') c = '\n';
  void* f = ppy_io_open(S(path("blocks")), S("r"));
  std::string got;
  int lines = 0;
  for (;; ++lines) {
    std::string line = T(ppy_io_readline(f));
    if (line.empty()) break;
    got += line;
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(lines, 4);
  ppy_io_close(f);
  void* g = ppy_io_open(S(path("blocks")), S("r"));
  EXPECT_EQ(T(ppy_io_readline(g)), std::string(block - 1, 'a') + "\n");
  EXPECT_EQ(T(ppy_io_read(g)), want.substr(block));
  ppy_io_close(g);
  void* h = ppy_io_open(S(path("blocks")), S("r+"));
  EXPECT_EQ(T(ppy_io_readline(h)), std::string(block - 1, 'a') + "\n");
  EXPECT_EQ(T(ppy_io_read(h)), want.substr(block));
  ppy_io_close(h);
  write_bytes(path("cut"), std::string(block - 1, 'x') + "\n\xff");
  void* k = ppy_io_open(S(path("cut")), S("r"));
  EXPECT_EQ(ppy_str_len(ppy_io_readline(k)), static_cast<int64_t>(block));
  EXPECT_EQ(raised([&] { ppy_io_readline(k); }).message,
            "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");  // python3's: its chunk's first
}

// Walking a file line by line holds one line at a time: a 37 MB file read
// while the collector's heap grows by less than 8 MB.
TEST_F(Io, ReadingLineByLineRunsInBoundedMemory) {
  {
    FILE* out = std::fopen(path("big").c_str(), "w");
    for (int i = 0; i < 800000; ++i) std::fprintf(out, "%08d some words of a log line, forty bytes\n", i);
    std::fclose(out);
  }
  size_t heap_before = GC_get_heap_size();
  void* f = ppy_io_open(S(path("big")), S("r"));
  int64_t lines = 0, bytes = 0;
  for (;;) {
    ppy_str* line = ppy_io_readline(f);
    if (line->len == 0) break;
    ++lines;
    bytes += line->len;
  }
  ppy_io_close(f);
  EXPECT_EQ(lines, 800000);
  EXPECT_GT(bytes, 32 * 1000 * 1000);
  EXPECT_LT(GC_get_heap_size(), heap_before + (size_t{8} << 20));  // the heap may also shrink
}

TEST_F(Io, WriteAnswersCodePoints) {
  void* f = ppy_io_open(S(path("w")), S("w"));
  EXPECT_EQ(ppy_io_write(f, S("h\xc3\xa9!")), 3);
  EXPECT_EQ(raised([&] { ppy_io_read(f); }).message, "not readable");
  ppy_io_close(f);
  ppy_io_close(f);  // twice: no error, as in Python
}

TEST_F(Io, ArgvAndExit) {
  static char a0[] = "prog", a1[] = "x y";
  static char* argv[] = {a0, a1};
  ppy_sys_set_argv(2, argv);
  ppy_list* l = ppy_sys_argv();
  ASSERT_EQ(l->len, 2);
  EXPECT_EQ(T(static_cast<ppy_str**>(l->data)[1]), "x y");
  Raised r = raised([] { ppy_sys_exit(3); });
  EXPECT_EQ(r.name, "SystemExit");
  EXPECT_EQ(r.message, "3");
}

}  // namespace
