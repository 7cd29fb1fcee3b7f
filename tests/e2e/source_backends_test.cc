// End-to-end tests of the builtin source backends through the real `ppy`:
// `python` (emit, build into the project cache, run with python3, and the
// refusals its road makes) and `c` (its formats, its flags, what cc, c++ and
// nvcc make of the output).
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
  EXPECT_THAT(r.out, HasSubstr("for i in range(i, 4):"));
  EXPECT_THAT(r.out, EndsWith("if __name__ == \"__main__\":\n    __main__()\n"));
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
  // The module, then the line map its tracebacks are told through (docs/runtime.md, "Tracebacks").
  EXPECT_EQ(r.out, written.string() + "\n" + written.string() + ".trace.json\n");
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

TEST_F(SourceBackends, CRunCompilesAndRunsTheProgramAsPython3Does) {
  fs::path prog = write("tri.ppy", kProgram);
  Result r = ppy({"run", "--backend", "c", prog.string()});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "triangle 1 = 1\ntriangle 2 = 3\ntriangle 3 = 6\n0.3333333333333333\n");
  EXPECT_TRUE(fs::exists(p(".ppy-cache/run/c/program.c")));

  fs::path oops = write("oops.ppy", kRaises);
  Result raised = ppy({"run", "--backend", "c", "-O", "0", oops.string()});
  EXPECT_EQ(raised.status, 1) << raised;
  EXPECT_EQ(raised.out, "2\n");
  EXPECT_THAT(raised.err, EndsWith("IndexError: list index out of range\n"));

  // Without a C compiler on PATH the road says so, before any work.
  Result no_cc = sh({"env", "PATH=" + p("no-tools").string(), kPpy, "run", "--backend", "c", prog.string()});
  EXPECT_EQ(no_cc.status, 2) << no_cc;
  EXPECT_THAT(no_cc.err, HasSubstr("error[E1801]: ppy run --backend c: unavailable: no C compiler"));
}

constexpr const char* kArgsThenRaises = R"(import sys

print(sys.argv)
print("warning", file=sys.stderr)
raise RuntimeError("boom")
)";

// sys.argv is the script's path as given, then its arguments, as python3 shows it
// (not the executable the road compiled); in one pipe holding stdout and stderr,
// stdout is flushed before the traceback, as `python3 args.ppy` flushes it.
TEST_F(SourceBackends, CRunPassesSysArgvAndFlushesStdoutBeforeTheTraceback) {
  write("args.ppy", kArgsThenRaises);
  Result r = sh({"sh", "-c", kPpy + " run --backend c -O 0 args.ppy -- a 'b c' 2>&1"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_THAT(r.out, StartsWith("warning\n['args.ppy', 'a', 'b c']\nTraceback (most recent call last):\n")) << r;
  EXPECT_THAT(r.out, EndsWith("RuntimeError: boom\n")) << r;
}

TEST_F(SourceBackends, AModuleWithNothingToRunSaysSoOnEveryRoad) {
  fs::path lib = write("shapes.ppy", "def area(w: float, h: float) -> float:\n    return w * h\n");
  for (std::vector<std::string> road : {std::vector<std::string>{"run"}, {"run", "--interp"}}) {
    road.push_back(lib.string());
    Result r = ppy(road);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_THAT(r.err, HasSubstr("error: module 'shapes' has nothing to run: no module-level code and no "
                                 "`def main()`"));
  }
}

TEST_F(SourceBackends, AnEmptyStablehloModuleIsNeverSilent) {
  fs::path prog = write("tri.ppy", kProgram);
  // The second emit is a cache hit: it says the same as the first.
  for (int run = 0; run < 2; ++run) {
    Result r = ppy({"emit", "stablehlo", prog.string()});
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_THAT(r.err, HasSubstr("note: module @tri has no @xla.jit function: its StableHLO module is empty"))
        << "run " << run << ": " << r;
  }
}

TEST_F(SourceBackends, DoctorListsPython) {
  Result r = ppy({"doctor"});
  EXPECT_THAT(r.out, HasSubstr("  python     available"));
  EXPECT_THAT(r.out, HasSubstr("emits python; fingerprint python:2"));
}

const std::string kNvcc = "/usr/local/cuda/bin/nvcc";

TEST_F(SourceBackends, CStandaloneBuildsWithCcAndPrintsWhatPython3Prints) {
  fs::path prog = write("tri.ppy", kProgram);
  Result py = sh({"python3", prog.string()});
  for (const char* level : {"0", "3"}) {
    Result r = ppy({"emit", "c", prog.string(), "--standalone", "-O", level, "-o", p("tri.c").string()});
    ASSERT_EQ(r.status, 0) << r;
    std::string c = slurp(p("tri.c"));
    EXPECT_THAT(c, HasSubstr("int main(void) { return ppy_rt_run(tri___main__); }"));
    EXPECT_THAT(c, HasSubstr("int64_t tri_triangle(int64_t n) {"));
    Result cc = sh({"cc", "-std=c11", "-Wall", "-Werror", "tri.c", "-o", "tri", "-lm"});
    ASSERT_EQ(cc.status, 0) << cc;
    Result run = sh({p("tri").string()});
    EXPECT_EQ(run.status, 0) << run;
    EXPECT_EQ(run.out, py.out);
  }
}

TEST_F(SourceBackends, CRaisesWithPythonsMessageAndStatus) {
  fs::path prog = write("oops.ppy", kRaises);
  ASSERT_EQ(ppy({"emit", "cpp", prog.string(), "--standalone", "-o", p("oops.cpp").string()}).status, 0);
  // A list lives on the collector (docs/runtime.md, "Lists"): link it.
  Result cxx = sh({"c++", "-std=c++17", "-Wall", "-Werror", "oops.cpp", "-o", "oops", "-lgc"});
  ASSERT_EQ(cxx.status, 0) << cxx;
  Result run = sh({p("oops").string()});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "2\n");
  // python3's traceback: the frame's file, line and function, then the line quoted.
  EXPECT_EQ(run.err,
            "Traceback (most recent call last):\n  File \"oops.ppy\", line 8, in <module>\n    main()\n"
            "  File \"oops.ppy\", line 4, in main\n    print(xs[5])\n"
            "IndexError: list index out of range\n");
}

// Issue 34: an overflow's frame shows the operation's line, not the function's
// first (the checked helper writes it as it raises), and a call in a value a
// loop carries (`total = total + step(i)` at -O3) writes its line too.
TEST_F(SourceBackends, CTracebackLinesOfOverflowAndLoopCarriedCalls) {
  fs::path prog = write("grow.ppy",
                        "def step(i: int) -> int:\n    return 10 // (3 - i)\n\n\n"
                        "def grow(n: int) -> int:\n    x = 1\n    for i in range(n):\n        x = x * 1000\n"
                        "    return x\n\n\n"
                        "def total(n: int) -> int:\n    t = 0\n    for i in range(n):\n        t = t + step(i)\n"
                        "    return t\n\n\n"
                        "def main() -> None:\n    print(total(3))\n    print(grow(10))\n\n\nmain()\n");
  for (std::string level : {"0", "3"}) {
    ASSERT_EQ(ppy({"emit", "c", prog.string(), "--standalone", "-O" + level, "-o", p("grow.c").string()}).status, 0);
    ASSERT_EQ(sh({"cc", "-std=c11", "-Wall", "-Werror", "grow.c", "-o", "grow", "-lm"}).status, 0);
    Result run = sh({p("grow").string()});
    EXPECT_EQ(run.out, "18\n") << level;
    EXPECT_THAT(run.err, HasSubstr("  File \"grow.ppy\", line 8, in grow\n    x = x * 1000\nOverflowError")) << level;
  }
  fs::path div = write("div.ppy",
                       "def step(i: int) -> int:\n    return 10 // (3 - i)\n\n\n"
                       "def total(n: int) -> int:\n    t = 0\n    for i in range(n):\n        t = t + step(i)\n"
                       "    return t\n\n\nprint(total(5))\n");
  ASSERT_EQ(ppy({"emit", "c", div.string(), "--standalone", "-O3", "-o", p("div.c").string()}).status, 0);
  ASSERT_EQ(sh({"cc", "-std=c11", "-Wall", "-Werror", "div.c", "-o", "div", "-lm"}).status, 0);
  EXPECT_THAT(sh({p("div").string()}).err,
              HasSubstr("  File \"div.ppy\", line 8, in total\n    t = t + step(i)\n"
                        "  File \"div.ppy\", line 2, in step\n    return 10 // (3 - i)\nZeroDivisionError"));
}

TEST_F(SourceBackends, AHeaderDeclaresTheExportsForACProgram) {
  fs::path prog = p("lib.ppy");
  fs::copy_file(kPrograms + "/export_decorator.ppy", prog);
  Result h = ppy({"emit", "header", prog.string(), "-o", p("lib.h").string()});
  ASSERT_EQ(h.status, 0) << h;
  EXPECT_THAT(slurp(p("lib.h")), HasSubstr("int64_t lib_square(int64_t x);"));
  ASSERT_EQ(ppy({"emit", "c", prog.string(), "-o", p("lib.c").string()}).status, 0);
  write("use.c", "#include <stdio.h>\n#include \"lib.h\"\nint main(void) {\n"
                 "  printf(\"%lld %g\\n\", (long long)lib_square(7), lib_mean(1.0, 2.0));\n"
                 "  return 0;\n}\n");
  Result cc = sh({"cc", "-std=c11", "-Wall", "-Werror", "use.c", "lib.c", "-o", "use", "-lm"});
  ASSERT_EQ(cc.status, 0) << cc;
  Result run = sh({p("use").string()});
  EXPECT_EQ(run.out, "49 1.5\n");
}

TEST_F(SourceBackends, HeaderOnlyIsStaticInlineUnderAnIncludeGuard) {
  fs::path prog = write("tri.ppy", kProgram);
  ASSERT_EQ(ppy({"emit", "c", prog.string(), "--header-only", "-o", p("tri.h").string()}).status, 0);
  std::string h = slurp(p("tri.h"));
  EXPECT_THAT(h, StartsWith("/* Module tri"));
  EXPECT_THAT(h, HasSubstr("#ifndef PPY_TRI_H\n#define PPY_TRI_H\n"));
  EXPECT_THAT(h, HasSubstr("static inline int64_t tri_triangle(int64_t n)"));
  write("use.c", "#include \"tri.h\"\n#include \"tri.h\"\nint main(void) { return tri_triangle(3) == 6 ? 0 : 1; }\n");
  Result cc = sh({"cc", "-std=c11", "-Wall", "-Werror", "use.c", "-o", "use", "-lm"});
  ASSERT_EQ(cc.status, 0) << cc;
  EXPECT_EQ(sh({p("use").string()}).status, 0);
}

TEST_F(SourceBackends, CRefusesWhatItCannotTake) {
  fs::path prog = write("tri.ppy", kProgram);
  Result b = ppy({"build", prog.string(), "--backend", "c"});
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_THAT(b.err, HasSubstr("error[E1802]: backend 'c' does not build"));

  Result ir = ppy({"emit", "ir", prog.string(), "--standalone"});
  EXPECT_EQ(ir.status, 2) << ir;
  EXPECT_THAT(ir.err, HasSubstr("error[E1002]: --standalone is an option of the c backend's formats"));
  Result hdr = ppy({"emit", "header", prog.string(), "--unsafe"});
  EXPECT_EQ(hdr.status, 2) << hdr;
  EXPECT_THAT(hdr.err, HasSubstr("the format 'header' does not take it"));

  Result kernel = ppy({"emit", "c", PPY_SOURCE_DIR "/examples/gpu/saxpy.ppy"});
  EXPECT_EQ(kernel.status, 2) << kernel;
  EXPECT_THAT(kernel.err, HasSubstr("error[E1802]: backend 'c' cannot take the kernel function saxpy_saxpy at "));
  EXPECT_THAT(kernel.err, HasSubstr("saxpy.ppy:6:5 (needs device code"));
}

TEST_F(SourceBackends, UnsafeWrapsButKeepsTheGuards) {
  fs::path prog = write("wrap.ppy", "def main() -> None:\n    x = 9223372036854775807\n    print(x + 1)\n"
                                     "    xs = [1]\n    print(xs[3])\n\n\nif __name__ == \"__main__\":\n    main()\n");
  ASSERT_EQ(ppy({"emit", "c", prog.string(), "--standalone", "--unsafe", "-O0", "-o", p("wrap.c").string()}).status, 0);
  ASSERT_EQ(sh({"cc", "-std=c11", "-Wall", "-Werror", "wrap.c", "-o", "wrap", "-lgc", "-lm"}).status, 0);
  Result run = sh({p("wrap").string()});
  EXPECT_EQ(run.out, "-9223372036854775808\n");
  EXPECT_EQ(run.err,
            "Traceback (most recent call last):\n  File \"wrap.ppy\", line 9, in <module>\n    main()\n"
            "  File \"wrap.ppy\", line 5, in main\n    print(xs[3])\n"
            "IndexError: list index out of range\n");
}

TEST_F(SourceBackends, FormatRunsClangFormat) {
  if (sh({"sh", "-c", "command -v clang-format"}).status != 0) GTEST_SKIP() << "no clang-format here";
  fs::path prog = write("tri.ppy", kProgram);
  write(".clang-format", "BasedOnStyle: LLVM\nIndentWidth: 8\n");
  Result r = ppy({"emit", "c", prog.string(), "--format"});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("\n        return "));  // the project's style: 8 columns
  Result legacy = ppy({"emit", "ir", prog.string(), "--format", "ir"});
  EXPECT_THAT(legacy.err, HasSubstr("`--format` applies to the builtin kinds"));
}

TEST_F(SourceBackends, CudaOfTheGpuExampleCompilesWithNvcc) {
  Result r = ppy({"emit", "cuda", PPY_SOURCE_DIR "/examples/gpu/saxpy.ppy", "-o", p("saxpy.cu").string()});
  ASSERT_EQ(r.status, 0) << r;
  std::string cu = slurp(p("saxpy.cu"));
  EXPECT_THAT(cu, HasSubstr("__global__ void saxpy_saxpy(int64_t n, double a, const double* x, double* y)"));
  // a * x + y rounds twice, as python3 does: never one fused multiply-add.
  EXPECT_THAT(cu, HasSubstr("__dadd_rn(__dmul_rn(a, "));
  Result hip = ppy({"emit", "hip", PPY_SOURCE_DIR "/examples/gpu/saxpy.ppy"});
  ASSERT_EQ(hip.status, 0) << hip;
  EXPECT_THAT(hip.out, HasSubstr("#include <hip/hip_runtime.h>"));
  if (!fs::exists(kNvcc)) GTEST_SKIP() << "no " << kNvcc << " here: the CUDA is not compiled";
  Result nvcc = sh({kNvcc, "-c", "saxpy.cu", "-o", "saxpy.o"});
  EXPECT_EQ(nvcc.status, 0) << nvcc;
}

TEST_F(SourceBackends, DoctorListsC) {
  Result r = ppy({"doctor"});
  EXPECT_THAT(r.out, HasSubstr("  c          available"));
  EXPECT_THAT(r.out, HasSubstr("emits c, cpp, header, cuda, hip; fingerprint c:2; runtime "));
}

}  // namespace
