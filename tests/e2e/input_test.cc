// Bad input through the real `ppy` binary (issue 18): deep expressions, bytes
// that are not UTF-8, garbage .ppyir files and lines of garbage are refused
// with their E-codes, never a crash, a backend's confusion or megabytes of output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const fs::path kPpy = fs::path(PPY_BINARY_DIR) / "bin" / "ppy";

struct Result {
  int status = -1;  ///< the exit status, or 128 + the signal
  std::string err;
};

class InputTest : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() / ("ppy-input-e2e-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir_); }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
  /// `ppy ARGS` in the temporary folder, its stderr kept (and stdout dropped).
  Result ppy(const std::string& args) {
    std::string cmd = "cd '" + dir_.string() + "' && '" + kPpy.string() + "' " + args + " >/dev/null 2>stderr.txt";
    int w = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
    std::ifstream in(dir_ / "stderr.txt", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    return r;
  }
};

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST_F(InputTest, FortyThousandPowersAreE1090NotACrash) {
  write("p.ppy", "def f() -> int:\n    return 2" + repeat(" ** 2", 40000) + "\n");
  Result r = ppy("check p.ppy");
  EXPECT_EQ(r.status, 1) << r.err.substr(0, 400);  // the shell said 139 (SIGSEGV) before
  EXPECT_THAT(r.err, HasSubstr("p.ppy:2:"));
  EXPECT_THAT(r.err, HasSubstr("error[E1090]"));
}

TEST_F(InputTest, SourceThatIsNotUtf8IsRefusedBeforeAnyBackend) {
  write("u.ppy", "def main() -> None:\n    print(\"caf\xe9\")\n");
  Result r = ppy("build u.ppy --backend toy -o out");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("u.ppy:2:15: error[E1001]: 'utf-8' codec can't decode byte 0xe9: invalid continuation byte"));
  EXPECT_THAT(r.err, Not(HasSubstr("E1905")));
  EXPECT_THAT(r.err, Not(HasSubstr("libprotobuf")));
  EXPECT_THAT(r.err, HasSubstr("\\xe9"));  // the echoed line shows the byte escaped
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(InputTest, PpyirThatIsNotUtf8IsRefusedBeforeAnyBackend) {
  write("m.ppyir", "ppyir 1\nmodule @m\ndialect core 1\n\nfunc @f\xe9() -> () {\n^entry:\n    core.ret\n}\n");
  Result r = ppy("build m.ppyir --backend toy -o out");
  EXPECT_NE(r.status, 0);
  EXPECT_THAT(r.err, HasSubstr("error[E1206]: m.ppyir: line 5:8: not UTF-8: byte 0xe9, invalid continuation byte"));
  EXPECT_THAT(r.err, Not(HasSubstr("libprotobuf")));
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(InputTest, GarbagePpyirIsE1206) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 131 + 7) % 256));
  write("g.ppyir", junk);
  Result r = ppy("emit ir g.ppyir");
  EXPECT_NE(r.status, 0);
  EXPECT_THAT(r.err, HasSubstr("error[E1206]: g.ppyir: not a .ppyir file"));
  write("h.ppyir", "ppyir 1\nmodule @m\nfunc @f( -> ()\n");
  r = ppy("emit ir h.ppyir");
  EXPECT_THAT(r.err, HasSubstr("error[E1206]: h.ppyir: line 3:"));
}

TEST_F(InputTest, AMegabyteOfNulBytesPrintsLittle) {
  write("z.ppy", std::string(1 << 20, '\0') + "\n");
  Result r = ppy("check z.ppy");
  EXPECT_EQ(r.status, 1);
  EXPECT_LT(r.err.size(), 20000u);  // 200 errors each echoing the megabyte before
  EXPECT_THAT(r.err, HasSubstr(" more errors in z.ppy"));
  EXPECT_EQ(r.err.find('\0'), std::string::npos);
}

}  // namespace
