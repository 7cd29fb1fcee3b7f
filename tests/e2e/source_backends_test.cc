// End-to-end tests of the builtin source backends through the real `ppy`:
// `python` (emit, build into the project cache, run with python3, and the
// refusals its road makes).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fs = std::filesystem;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

const std::string kPpy = PPY_BINARY_DIR "/bin/ppy";
const std::string kPrograms = PPY_SOURCE_DIR "/tests/programs";

struct Result {
  int status = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "status " << r.status << "\n--- stdout\n" << r.out << "\n--- stderr\n" << r.err;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A fresh folder per test, removed after it.
class SourceBackends : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ppy-source-e2e-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path p(const std::string& rel) const { return dir_ / rel; }

  fs::path write(const std::string& rel, const std::string& text) const {
    fs::create_directories(p(rel).parent_path());
    std::ofstream(p(rel)) << text;
    return p(rel);
  }

  /// Runs `program args...` in the test's folder.
  Result sh(const std::vector<std::string>& argv) const {
    std::string cmd = "cd " + quote(dir_.string()) + " &&";
    for (auto& a : argv) cmd += " " + quote(a);
    cmd += " >" + quote((dir_ / ".out").string()) + " 2>" + quote((dir_ / ".err").string());
    Result r;
    int status = std::system(cmd.c_str());
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(dir_ / ".out");
    r.err = slurp(dir_ / ".err");
    return r;
  }
  Result ppy(std::vector<std::string> args) const {
    args.insert(args.begin(), kPpy);
    return sh(args);
  }

  fs::path dir_;
};

constexpr const char* kProgram = R"(def triangle(n: int) -> int:
    return n * (n + 1) // 2


def main() -> None:
    for i in range(1, 4):
        print("triangle", i, "=", triangle(i))
    print(1 / 3)


if __name__ == "__main__":
    main()
)";

constexpr const char* kRaises = R"(def main() -> None:
    xs = [1, 2, 3]
    print(xs[1])
    print(xs[5])


if __name__ == "__main__":
    main()
)";

TEST_F(SourceBackends, PythonEmitWritesSourcePython3Runs) {
  fs::path prog = write("tri.ppy", kProgram);
  Result r = ppy({"emit", "python", prog.string()});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("def triangle(n):"));
  EXPECT_THAT(r.out, HasSubstr("while i < 4:"));
  EXPECT_THAT(r.out, EndsWith("if __name__ == \"__main__\":\n    main()\n"));
  write("gen.py", r.out);
  Result run = sh({"python3", "gen.py"});
  EXPECT_EQ(run.status, 0) << run;
  EXPECT_EQ(run.out, "triangle 1 = 1\ntriangle 2 = 3\ntriangle 3 = 6\n0.3333333333333333\n");
}

TEST_F(SourceBackends, PythonBuildWritesIntoTheProjectCacheAndSaysWhere) {
  fs::path prog = write("tri.ppy", kProgram);
  Result r = ppy({"build", prog.string(), "--backend", "python"});
  ASSERT_EQ(r.status, 0) << r;
  fs::path written = p(".ppy-cache/backends/python/tri.py");
  EXPECT_EQ(r.out, written.string() + "\n");
  EXPECT_THAT(r.err, HasSubstr("backend:  python"));
  EXPECT_TRUE(fs::exists(written));
  Result run = sh({"python3", written.string()});
  EXPECT_EQ(run.out, "triangle 1 = 1\ntriangle 2 = 3\ntriangle 3 = 6\n0.3333333333333333\n");
}

TEST_F(SourceBackends, PythonRunRaisesAsPython3Does) {
  fs::path prog = write("oops.ppy", kRaises);
  for (const char* level : {"0", "3"}) {
    Result r = ppy({"run", "--backend", "python", "-O", level, prog.string()});
    EXPECT_EQ(r.status, 1) << r;
    EXPECT_EQ(r.out, "2\n");
    EXPECT_THAT(r.err, EndsWith("IndexError: list index out of range\n"));
    EXPECT_THAT(r.err, HasSubstr("Traceback"));  // python3's own report
  }
}

TEST_F(SourceBackends, PythonRunsAProjectOfPackages) {
  fs::copy(kPrograms + "/multi_package", p("multi_package"), fs::copy_options::recursive);
  Result r = ppy({"run", "--backend", "python", p("multi_package").string()});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, slurp(kPrograms + "/multi_package.expected"));
  EXPECT_TRUE(fs::exists(p("multi_package/.ppy-cache/backends/python/geo/shapes/circle.py")));
}

TEST_F(SourceBackends, PythonRefusesWhatItsRoadDoesNotTake) {
  fs::path prog = write("tri.ppy", kProgram);
  Result o = ppy({"build", prog.string(), "--backend", "python", "-o", p("out").string()});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_THAT(o.err, StartsWith("error[E1002]: -o: the python backend writes"));
  EXPECT_FALSE(fs::exists(p("out")));

  Result ir = ppy({"emit", "ir", prog.string(), "-o", p("tri.ppyir").string()});
  ASSERT_EQ(ir.status, 0) << ir;
  Result from_ir = ppy({"build", p("tri.ppyir").string(), "--backend", "python"});
  EXPECT_EQ(from_ir.status, 2) << from_ir;
  EXPECT_THAT(from_ir.err, HasSubstr("error[E1002]: "));
  EXPECT_THAT(from_ir.err, HasSubstr("a .ppyir file is one module's IR"));

  for (const char* flag : {"--standalone", "--unsafe", "--warm"}) {
    Result f = ppy({"build", prog.string(), "--backend", "python", flag});
    EXPECT_EQ(f.status, 2) << f;
    EXPECT_THAT(f.err, HasSubstr(std::string("error[E1002]: ") + flag + " is an option of the LLVM road"));
    EXPECT_THAT(f.err, HasSubstr("backend 'python' does not take it"));
  }

  Result other = ppy({"run", "--backend", "toy", prog.string()});
  EXPECT_EQ(other.status, 2) << other;
  EXPECT_THAT(other.err, HasSubstr("error[E1002]: ppy run --backend toy"));
}

TEST_F(SourceBackends, DoctorListsPython) {
  Result r = ppy({"doctor"});
  EXPECT_THAT(r.out, HasSubstr("  python     available"));
  EXPECT_THAT(r.out, HasSubstr("emits python; fingerprint python:1"));
}

}  // namespace
