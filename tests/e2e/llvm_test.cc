// End-to-end tests of the LLVM road through the real `ppy` binary: `ppy run`
// through the JIT (and its object cache), `ppy build` with the default backend
// and each of the LLVM road's flags, the C library through pkg-config, the
// Python extension, foreign targets, and the helper hosting (identical
// artifacts; a crash inside LLVM is E1905 and the driver lives).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string kPpy = PPY_BINARY_DIR "/bin/ppy";
const std::string kSource = PPY_SOURCE_DIR;

struct Result {
  int status = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "status " << r.status << "\n--- stdout\n" << r.out << "--- stderr\n" << r.err;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class LLVMRoad : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "ppy-llvm-e2e-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir_, ec);
    else std::cerr << "kept " << dir_ << "\n";
  }

  fs::path path(const std::string& rel) const { return dir_ / rel; }
  std::string p(const std::string& rel) const { return path(rel).string(); }

  /// A shell command in the test's folder: exit status, stdout, stderr.
  Result sh(const std::string& command) const {
    std::string out = p(".out"), err = p(".err");
    std::string full = "cd " + quote(dir_.string()) + " && (" + command + ") >" + quote(out) + " 2>" + quote(err);
    int raw = std::system(full.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
  }
  Result ppy(const std::string& args) const { return sh(quote(kPpy) + " " + args); }

  /// A copy of a program of the corpus (tests/programs/NAME.ppy) at <dir>/<as>.
  std::string program(const std::string& name, const std::string& as = "") {
    fs::path to = path(as.empty() ? name + ".ppy" : as);
    fs::create_directories(to.parent_path());
    fs::copy_file(kSource + "/tests/programs/" + name + ".ppy", to, fs::copy_options::overwrite_existing);
    return to.string();
  }

  fs::path dir_;
};

TEST_F(LLVMRoad, RunIsTheInterpretersOutputAndStatus) {
  for (std::string name : {"float_repr", "raises_print_order", "floor_div_mod", "int_limits"}) {
    std::string prog = program(name);
    Result jit = ppy("run " + quote(prog));
    Result interp = ppy("run --interp " + quote(prog));
    EXPECT_EQ(jit.status, interp.status) << name << "\n" << jit << interp;
    EXPECT_EQ(jit.out, interp.out) << name;
    EXPECT_EQ(jit.err, interp.err) << name;
    EXPECT_EQ(jit.out, read_file(kSource + "/tests/programs/" + name + ".expected")) << name;
  }
}

TEST_F(LLVMRoad, ASecondRunTakesItsObjectsFromTheCache) {
  // Two programs with one module name and one entry symbol, in two folders.
  write_file(path("a/prog.ppy"), "def main() -> None:\n    print(\"from a\")\n\n\nif __name__ == \"__main__\":\n    main()\n");
  write_file(path("b/prog.ppy"), "def main() -> None:\n    print(\"from b\")\n\n\nif __name__ == \"__main__\":\n    main()\n");
  ASSERT_EQ(ppy("run a/prog.ppy").out, "from a\n");
  ASSERT_EQ(ppy("run b/prog.ppy").out, "from b\n");
  // Swap a's cached object for b's: a run that makes no code runs b's.
  auto objects = [&](const std::string& root) {
    std::vector<fs::path> found;
    for (auto& e : fs::recursive_directory_iterator(path(root + "/.ppy-cache/artifacts")))
      if (e.is_regular_file() && e.path().filename() == "artifact") found.push_back(e.path());
    return found;
  };
  auto in_a = objects("a"), in_b = objects("b");
  ASSERT_EQ(in_a.size(), 1u);
  ASSERT_EQ(in_b.size(), 1u);
  fs::copy_file(in_b[0], in_a[0], fs::copy_options::overwrite_existing);
  EXPECT_EQ(ppy("run a/prog.ppy").out, "from b\n") << "the second run compiled again";
  EXPECT_EQ(ppy("run --interp a/prog.ppy").out, "from a\n");
}

TEST_F(LLVMRoad, EmittedIRPassesLLVMsVerifier) {
  std::string prog = program("histogram");
  Result r = ppy("emit llvm-ir " + quote(prog) + " -o out.ll");
  ASSERT_EQ(r.status, 0) << r;
  Result v = sh("/usr/lib/llvm-19/bin/opt -passes=verify -disable-output out.ll");
  EXPECT_EQ(v.status, 0) << v;
}

TEST_F(LLVMRoad, BuildOfTheExampleProjectMakesARunnableExecutableByDefault) {
  fs::copy(kSource + "/examples/project", path("project"), fs::copy_options::recursive);
  Result b = ppy("build project -o out/");
  ASSERT_EQ(b.status, 0) << b;
  EXPECT_THAT(b.err, HasSubstr("backend:  llvm"));
  for (std::string f : {"obj/app.main.o", "obj/app.util.o", "libppy_ppy_sample.a", "libppy_ppy_sample.so",
                        "ppy_ppy_sample.h", "ppy-sample"}) {
    EXPECT_TRUE(fs::exists(path("out/" + f))) << f;
    EXPECT_THAT(b.out, HasSubstr(f)) << f;
  }
  Result run = sh("out/ppy-sample");
  Result interp = ppy("run --interp project");
  EXPECT_EQ(run.status, 0) << run;
  EXPECT_EQ(run.out, interp.out);
  // A cached build (same identity) gives the executable its execute bit again.
  fs::remove_all(path("out"));
  ASSERT_EQ(ppy("build project -o out/").status, 0);
  EXPECT_EQ(sh("out/ppy-sample").out, interp.out);
}

TEST_F(LLVMRoad, StandaloneExecutableNeedsNothingElse) {
  std::string prog = program("raises_index_error");
  Result b = ppy("build " + quote(prog) + " --standalone -o out");
  ASSERT_EQ(b.status, 0) << b;
  Result file = sh("file out/raises_index_error");
  EXPECT_THAT(file.out, HasSubstr("statically linked")) << file;
  Result run = sh("out/raises_index_error");
  Result interp = ppy("run --interp " + quote(prog));
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, interp.out);
  // A built executable names files relative to its project; `ppy run` names
  // them as the command line did, as python3 does (docs/runtime.md, "Tracebacks").
  std::string dir = fs::path(prog).parent_path().string() + "/";
  std::string interp_err = interp.err;
  for (size_t at; (at = interp_err.find(dir)) != std::string::npos;) interp_err.erase(at, dir.size());
  EXPECT_EQ(run.err, interp_err);
}

TEST_F(LLVMRoad, LibraryLinksIntoACProgramThroughPkgConfig) {
  std::string prog = program("export_decorator");
  Result b = ppy("build " + quote(prog) + " --library -o lib");
  ASSERT_EQ(b.status, 0) << b;
  EXPECT_TRUE(fs::exists(path("lib/include/ppy_export_decorator.h")));
  write_file(path("main.c"),
             "#include <stdio.h>\n#include \"ppy_export_decorator.h\"\n"
             "int main(void) { printf(\"%lld %.2f\\n\", (long long)export_decorator_square(12),"
             " export_decorator_mean(1.0, 4.0)); return 0; }\n");
  Result c = sh("PKG_CONFIG_PATH=lib/lib/pkgconfig cc main.c $(PKG_CONFIG_PATH=lib/lib/pkgconfig pkg-config --cflags "
                "--libs ppy_export_decorator) -o main && ./main");
  EXPECT_EQ(c.status, 0) << c;
  EXPECT_EQ(c.out, "144 2.50\n");
}

// A list lives on the collector: the library's pkg-config file names -lgc, and
// a C program makes the list with the runtime's function from the header.
TEST_F(LLVMRoad, LibraryTakingAListLinksThroughPkgConfig) {
  write_file(path("mylib.ppy"), "from ppy import export\n\n\n@export\ndef total(xs: list[int]) -> int:\n"
                                "    s = 0\n    for x in xs:\n        s += x\n    return s\n");
  Result b = ppy("build mylib.ppy --library -o lib");
  ASSERT_EQ(b.status, 0) << b;
  write_file(path("main.c"),
             "#include <stdio.h>\n#include \"ppy_mylib.h\"\n"
             "int main(void) { ppy_list* l = ppy_list_new_i64(4); for (int i = 0; i < 4; ++i) PPY_LIST_I64(l)[i] = i * 10;"
             " printf(\"%lld\\n\", (long long)mylib_total(l)); return 0; }\n");
  Result c = sh("cc main.c $(PKG_CONFIG_PATH=lib/lib/pkgconfig pkg-config --cflags --libs ppy_mylib) -o main && ./main");
  EXPECT_EQ(c.status, 0) << c;
  EXPECT_EQ(c.out, "60\n");
}

TEST_F(LLVMRoad, PythonExtensionIsImportedByPython3) {
  std::string prog = program("export_decorator");
  Result b = ppy("build " + quote(prog) + " --python-extension -o ext");
  ASSERT_EQ(b.status, 0) << b;
  Result py = sh("PYTHONPATH=ext python3 -c 'import export_decorator as m; print(m.square(12), m.mean(1.0, 4.0))'");
  EXPECT_EQ(py.status, 0) << py;
  EXPECT_EQ(py.out, "144 2.5\n");
  // An overflow inside is Python's OverflowError, not the end of python3.
  Result ov = sh("PYTHONPATH=ext python3 -c 'import export_decorator as m\ntry:\n    m.square(2**40)\n"
                 "except OverflowError as e:\n    print(\"caught\", e)'");
  EXPECT_EQ(ov.out, "caught integer overflow\n") << ov;
  EXPECT_EQ(ov.err, "") << "the exception is Python's to report";
}

TEST_F(LLVMRoad, PythonExtensionRefusesAListParameter) {
  write_file(path("lists.ppy"), "from ppy import export\n\n\n@export\ndef total(xs: list[int]) -> int:\n"
                                "    return len(xs)\n");
  Result b = ppy("build lists.ppy --python-extension -o ext");
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_THAT(b.err, HasSubstr("E1802"));
  EXPECT_THAT(b.err, HasSubstr("@lists_total"));
}

TEST_F(LLVMRoad, ForeignTargetsGiveObjectsAndNeedALinkerForMore) {
  std::string prog = program("fib_iterative");
  for (auto [triple, machine] : {std::pair<std::string, std::string>{"aarch64-linux-gnu", "EM_AARCH64"},
                                 {"riscv64-linux-gnu", "EM_RISCV"}}) {
    std::string out = "out-" + triple;
    Result b = ppy("build " + quote(prog) + " --target " + triple + " -o " + out);
    ASSERT_EQ(b.status, 0) << b;
    Result obj = sh("/usr/lib/llvm-19/bin/llvm-readobj --file-headers " + out + "/obj/fib_iterative.o");
    EXPECT_THAT(obj.out, HasSubstr(machine)) << obj;
    Result exe = ppy("build " + quote(prog) + " --target " + triple + " --standalone -o exe-" + triple);
    if (exe.status != 0) {  // no cross linker here (the usual case)
      EXPECT_THAT(exe.err, HasSubstr("E1801")) << exe;
      EXPECT_THAT(exe.err, HasSubstr("no linker for")) << exe;
    }
  }
}

TEST_F(LLVMRoad, UnsafeWrapsIntegersAndKeepsBoundsChecks) {
  write_file(path("wrap.ppy"), "def main() -> None:\n    x = 9223372036854775807\n    print(x + 1)\n\n\n"
                               "if __name__ == \"__main__\":\n    main()\n");
  write_file(path("bounds.ppy"), "def main() -> None:\n    xs = [1, 2]\n    i = 5\n    print(xs[i])\n\n\n"
                                 "if __name__ == \"__main__\":\n    main()\n");
  ASSERT_EQ(ppy("build wrap.ppy --standalone -o safe").status, 0);
  Result safe = sh("safe/wrap");
  EXPECT_EQ(safe.status, 1);
  EXPECT_THAT(safe.err, HasSubstr("OverflowError"));
  ASSERT_EQ(ppy("build wrap.ppy --standalone --unsafe -o unsafe").status, 0);
  Result unsafe = sh("unsafe/wrap");
  EXPECT_EQ(unsafe.status, 0) << unsafe;
  EXPECT_EQ(unsafe.out, "-9223372036854775808\n");
  ASSERT_EQ(ppy("build bounds.ppy --standalone --unsafe -o bounds").status, 0);
  Result b = sh("bounds/bounds");
  EXPECT_EQ(b.status, 1);
  EXPECT_EQ(b.err,
            "Traceback (most recent call last):\n  File \"bounds.ppy\", line 8, in <module>\n    main()\n"
            "  File \"bounds.ppy\", line 4, in main\n    print(xs[i])\n"
            "IndexError: list index out of range\n");
}

TEST_F(LLVMRoad, NoTracebackLinksNoFramesAndKeepsTheRecursionLimit) {
  // --no-traceback: the same build less the frames (what llvm_bench.py's
  // frames figure compares): the last line alone, the depth still counted.
  write_file(path("bounds.ppy"), "def main() -> None:\n    xs = [1, 2]\n    i = 5\n    print(xs[i])\n\n\n"
                                 "if __name__ == \"__main__\":\n    main()\n");
  write_file(path("deep.ppy"), "def down(n: int) -> int:\n    if n < 0:\n        return 0\n"
                               "    return down(n + 1) + 1\n\n\n"
                               "def main() -> None:\n    print(down(1))\n\n\n"
                               "if __name__ == \"__main__\":\n    main()\n");
  ASSERT_EQ(ppy("build bounds.ppy --standalone -O 2 --no-traceback -o bounds").status, 0);
  Result b = sh("bounds/bounds");
  EXPECT_EQ(b.status, 1);
  EXPECT_EQ(b.err, "IndexError: list index out of range\n");
  ASSERT_EQ(ppy("build bounds.ppy --standalone -O 2 -o framed").status, 0);
  EXPECT_THAT(sh("framed/bounds").err, HasSubstr("Traceback (most recent call last):"));
  ASSERT_EQ(ppy("build deep.ppy --standalone -O 2 --no-traceback -o deep").status, 0);
  Result d = sh("deep/deep");
  EXPECT_EQ(d.status, 1) << d;
  EXPECT_EQ(d.err, "RecursionError: maximum recursion depth exceeded\n");
}

TEST_F(LLVMRoad, ATracebackQuotesItsSourceWhicheverFolderItRunsFrom) {
  // Issue 34: the compile cache's key holds the path as this run spells it, so
  // `ppy run app.ppy` in sub/ after `ppy run sub/app.ppy` here names (and quotes)
  // the file as it is spelled now, not the first run's spelling.
  write_file(path("sub/app.ppy"), "def main() -> None:\n    xs = [1, 2]\n    print(xs[5])\n\n\nmain()\n");
  Result first = ppy("run sub/app.ppy");
  EXPECT_EQ(first.status, 1);
  EXPECT_THAT(first.err, HasSubstr("  File \"sub/app.ppy\", line 3, in main\n    print(xs[5])\n"));
  Result again = sh("cd sub && " + quote(kPpy) + " run app.ppy");
  EXPECT_EQ(again.status, 1);
  EXPECT_THAT(again.err, HasSubstr("  File \"app.ppy\", line 3, in main\n    print(xs[5])\n")) << again.err;
}

TEST_F(LLVMRoad, OptimizationRemarksAreReported) {
  std::string prog = program("bubble_sort");
  Result r = ppy("build " + quote(prog) + " -O 3 --report-opt -o out");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("note: remark: "));
  Result plain = ppy("build " + quote(prog) + " -O 3 -o plain");
  EXPECT_THAT(plain.err, Not(HasSubstr("remark: ")));
  Result j = ppy("build " + quote(prog) + " -O 3 --report-opt-json remarks.json -o outj");
  ASSERT_EQ(j.status, 0) << j;
  std::string json = read_file(path("outj/remarks.json"));
  EXPECT_THAT(json, HasSubstr("\"pass\": \""));
  EXPECT_THAT(json, HasSubstr("\"function\": \"bubble_sort_"));
}

TEST_F(LLVMRoad, HelperHostingGivesIdenticalArtifacts) {
  fs::copy(kSource + "/examples/project", path("inproc"), fs::copy_options::recursive);
  fs::copy(kSource + "/examples/project", path("helper"), fs::copy_options::recursive);
  std::ofstream(path("helper/pyproject.toml"), std::ios::app) << "\n[tool.ppy.backends.llvm]\nhosting = \"helper\"\n";
  Result a = ppy("build inproc -o out-a");
  Result b = ppy("build helper -o out-b");
  ASSERT_EQ(a.status, 0) << a;
  ASSERT_EQ(b.status, 0) << b;
  for (std::string f : {"obj/app.main.o", "obj/app.util.o", "ppy_ppy_sample.h"})
    EXPECT_EQ(read_file(path("out-a/" + f)), read_file(path("out-b/" + f))) << f;
  EXPECT_EQ(sh("out-b/ppy-sample").out, sh("out-a/ppy-sample").out);
  Result run = ppy("run helper");
  EXPECT_EQ(run.status, 0) << run;
  EXPECT_EQ(run.out, sh("out-a/ppy-sample").out);
}

TEST_F(LLVMRoad, ACrashInsideLLVMInTheHelperIsE1905AndTheDriverLives) {
  fs::copy(kSource + "/examples/project", path("crash"), fs::copy_options::recursive);
  std::ofstream(path("crash/pyproject.toml"), std::ios::app)
      << "\n[tool.ppy.backends.llvm]\nhosting = \"helper\"\ndebug-crash = \"codegen\"\n";
  Result r = ppy("build crash -o out");
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1905]"));
  EXPECT_THAT(r.err, HasSubstr("injected crash inside LLVM"));
  EXPECT_FALSE(fs::exists(path("out/ppy-sample")));
}

TEST_F(LLVMRoad, WarmFillsTheCacheRunTakes) {
  write_file(path("w/prog.ppy"), "def main() -> None:\n    print(\"warm\")\n\n\nif __name__ == \"__main__\":\n    main()\n");
  ASSERT_EQ(ppy("build w/prog.ppy --warm -o out").status, 0);
  size_t entries = 0;
  for (auto& e : fs::recursive_directory_iterator(path("w/.ppy-cache/artifacts")))
    if (e.is_regular_file() && e.path().filename() == "artifact") ++entries;
  EXPECT_EQ(entries, 1u) << "the object `ppy run` loads";
  EXPECT_EQ(ppy("run w/prog.ppy").out, "warm\n");
}

}  // namespace

// RecursionError counts the levels python3 counts, the same across modules: a
// try body is no frame of its own (700 levels of recursion inside a try are
// fine, as in python3), and a module's recursion inside a try adds to another
// module's count (600 levels there and 600 here pass the limit of 1000).
TEST_F(LLVMRoad, RecursionLimitCountsFramesAcrossModules) {
  write_file(path("deep/pyproject.toml"),
             "[project]\nname = \"deep\"\n\n[tool.ppy]\nsource-roots = [\"src\"]\nentry = \"outer\"\n");
  write_file(path("deep/src/inner.ppy"),
             "def countdown(n: int) -> int:\n    if n == 0:\n        return 0\n    return 1 + countdown(n - 1)\n");
  write_file(path("deep/src/outer.ppy"),
             "import inner\n\n\n"
             "def nest(n: int, then: int) -> int:\n"
             "    if n == 0:\n        return inner.countdown(then)\n"
             "    try:\n        below = nest(n - 1, then)\n    except KeyError:\n        below = -1\n"
             "    return below + 1\n\n\n"
             "def attempt(n: int, then: int) -> None:\n"
             "    try:\n        print(n, then, nest(n, then))\n"
             "    except RecursionError:\n        print(n, then, \"RecursionError\")\n\n\n"
             "def main() -> None:\n    attempt(700, 0)\n    attempt(400, 400)\n    attempt(600, 600)\n\n\n"
             "if __name__ == \"__main__\":\n    main()\n");
  const std::string want = "700 0 700\n400 400 800\n600 600 RecursionError\n";
  Result jit = ppy("run deep");
  EXPECT_EQ(jit.status, 0) << jit;
  EXPECT_EQ(jit.out, want) << jit;
  Result interp = ppy("run --interp deep");  // the interpreter counts Python's levels too
  EXPECT_EQ(interp.out, want) << interp;
  ASSERT_EQ(ppy("build deep --standalone -o deep-out").status, 0);
  Result exe = sh("deep-out/deep");
  EXPECT_EQ(exe.out, want) << exe;
}
