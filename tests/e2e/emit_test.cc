// End-to-end tests of `ppy emit`: scopes (one module, a folder of modules, one
// program), binary formats, -j, the answer's type and the toolchain check.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// ===========================================================================
// ppy emit: scopes.

TEST_F(E2E, EmitOneModuleToStdout) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# dummy one opt=2 target= fingerprint=dummy:0 id="));
  EXPECT_THAT(r.out, HasSubstr("module @one\n"));
  EXPECT_TRUE(is_hex64(artifact_id(r.out))) << r.out;
  EXPECT_EQ(notes(r, "emit dummy").size(), 1u) << r;
}

TEST_F(E2E, EmitOneModuleToFile) {
  std::string one = fixture("one.ppy");
  Result to_stdout = ppy({"emit", "dummy", one});
  ASSERT_EQ(to_stdout.status, 0) << to_stdout;
  Result r = ppy({"emit", "dummy", one, "-o", p("out/one.txt")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(path("out/one.txt")), to_stdout.out);
  EXPECT_THAT(names_in(path("out")), ElementsAre("one.txt"));
}

// docs/writing-a-backend.md, "Where module-scoped artifacts go": a call into
// another module is a declaration of its public `<module>_<function>` symbol
// whose qualname names the module that defines it, `<module><suffix>` beside.
TEST_F(E2E, ModulesReferToEachOtherThroughDeclarations) {
  Result r = ppy({"emit", "ir", multi(), "-o", p("ir") + "/"});
  ASSERT_EQ(r.status, 0) << r;
  auto files = tree(path("ir"));
  ASSERT_TRUE(files.count("app.main.ppyir") && files.count("app.util.ppyir")) << r;
  EXPECT_THAT(files["app.main.ppyir"], HasSubstr("\nextern func @app_util_total(i64) -> i64 attrs {"));
  EXPECT_THAT(files["app.main.ppyir"], HasSubstr("ppy.qualname = \"app.util.total\""));
  EXPECT_THAT(files["app.util.ppyir"], HasSubstr("\nfunc @app_util_total(%n: i64) -> i64 attrs {"));
  EXPECT_THAT(files["app.util.ppyir"], HasSubstr("ppy.qualname = \"app.util.total\""));
}

TEST_F(E2E, EmitSeveralModulesToDirWritesOneFilePerModule) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj, "-o", p("out") + "/"});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  for (auto& [name, text] : files) {
    std::string module = name.substr(0, name.size() - std::string(".dummy").size());
    EXPECT_THAT(text, StartsWith("# dummy " + module + " opt=2")) << name;
    EXPECT_THAT(text, HasSubstr("module @" + module + "\n")) << name;
  }
  // Never concatenated: each file holds one module.
  EXPECT_THAT(files["app.util.dummy"], Not(HasSubstr("module @app.main")));

  // An existing folder named without a trailing slash is a folder too.
  fs::create_directories(path("out2"));
  Result again = ppy({"emit", "dummy", proj, "-o", p("out2")});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_EQ(tree(path("out2")), files);
}

TEST_F(E2E, EmitSeveralModulesToStdoutIsRefused) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("error[E1002]"));
  EXPECT_THAT(r.err, HasSubstr("3 module(s)"));
  EXPECT_THAT(r.err, HasSubstr("one artifact per module"));
  EXPECT_THAT(r.err, HasSubstr("-o DIR"));
  EXPECT_THAT(r.err, HasSubstr("app.main.dummy, app.shapes.dummy, app.util.dummy"));
  EXPECT_TRUE(notes(r, "emit").empty()) << r;  // the backend emitted nothing
}

TEST_F(E2E, AProjectTargetWritesItsModulesIntoTheFolderOutputNames) {
  // The target decides, as in the reference: a folder target's -o is a folder,
  // made if need be, however it is spelled (a name with a suffix, no slash).
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj, "-o", p("all.dummy")});
  ASSERT_EQ(r.status, 0) << r;
  ASSERT_TRUE(fs::is_directory(path("all.dummy"))) << r;
  auto files = tree(path("all.dummy"));
  EXPECT_EQ(files.size(), 3u);
  EXPECT_TRUE(files.count("app.main.dummy") && files.count("app.shapes.dummy") && files.count("app.util.dummy"));
  // The same for a binary module format, into a folder whose parent is new too.
  Result bin = ppy({"emit", "dummy-bin", proj, "-o", p("new/parent/bin")});
  ASSERT_EQ(bin.status, 0) << bin;
  EXPECT_EQ(tree(path("new/parent/bin")).size(), 3u);
}

TEST_F(E2E, AFileTargetStillWritesAFile) {
  write_file(path("one.ppy"), "def main() -> None:\n    print(1)\n");
  Result r = ppy({"emit", "dummy", p("one.ppy"), "-o", p("one.dummy")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_TRUE(fs::is_regular_file(path("one.dummy")));
}

TEST_F(E2E, EmitProgramScopeIsOneCallAndOneArtifact) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy-prog", proj, "-o", p("prog.txt")});
  ASSERT_EQ(r.status, 0) << r;
  std::string text = read_file(path("prog.txt"));
  EXPECT_THAT(text, StartsWith("# dummy-prog 3 module(s)\n# dummy-prog app.main "));
  EXPECT_THAT(text, AllOf(HasSubstr("module @app.main\n"), HasSubstr("module @app.shapes\n"),
                          HasSubstr("module @app.util\n")));
  auto calls = notes(r, "emit_program dummy-prog");
  ASSERT_EQ(calls.size(), 1u) << r;
  EXPECT_THAT(calls[0], HasSubstr("[app.main,app.shapes,app.util]"));
  EXPECT_TRUE(notes(r, "emit dummy-prog").empty()) << r;  // never per module

  // To standard output: the same single artifact.
  std::string fresh = multi("", "multi2");
  Result out = ppy({"emit", "dummy-prog", fresh});
  ASSERT_EQ(out.status, 0) << out;
  EXPECT_THAT(out.out, StartsWith("# dummy-prog 3 module(s)\n"));
  // Into a folder: one file.
  Result dir = ppy({"emit", "dummy-prog", proj, "-o", p("progdir") + "/"});
  ASSERT_EQ(dir.status, 0) << dir;
  EXPECT_EQ(names_in(path("progdir")).size(), 1u);
}

const std::string kBinOne = std::string("\x7f" "DBIN\0\xff\r\n", 9) + "one" + std::string("\n\0\x80", 3);

TEST_F(E2E, EmitBinaryModuleIsWrittenAsBytes) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy-bin", one, "-o", p("one.bin")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(read_file(path("one.bin")), kBinOne);
  // To a pipe (not a terminal) the bytes go out unchanged.
  Result piped = ppy({"emit", "dummy-bin", one});
  ASSERT_EQ(piped.status, 0) << piped;
  EXPECT_EQ(piped.out, kBinOne);
  // One file per module, each its bytes.
  std::string proj = multi();
  Result dir = ppy({"emit", "dummy-bin", proj, "-o", p("bins") + "/"});
  ASSERT_EQ(dir.status, 0) << dir;
  auto files = tree(path("bins"));
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files["app.shapes.dbin"], std::string("\x7f" "DBIN\0\xff\r\n", 9) + "app.shapes" + std::string("\n\0\x80", 3));
}

TEST_F(E2E, EmitBinaryProgramIsWrittenAsBytes) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy-prog-bin", proj, "-o", p("prog.bin")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(read_file(path("prog.bin")),
            std::string("DPRG\0\xfe\x03", 7) + std::string("app.main\0app.shapes\0app.util\0", 29));
}

TEST_F(E2E, EmitBinaryIsNeverWrittenToATerminal) {
  std::string one = fixture("one.ppy");
  Spawn s = spawn({"emit", "dummy-bin", one}, sets({"main"}));
  s.stdout_tty = true;
  Result r = run(s);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, AllOf(HasSubstr("E1002"), HasSubstr("terminal")));
  EXPECT_THAT(r.out, Not(HasSubstr("DBIN")));
  // A text format goes to the terminal.
  Spawn t = spawn({"emit", "dummy", one}, sets({"main"}));
  t.stdout_tty = true;
  Result text = run(t);
  EXPECT_EQ(text.status, 0) << text;
  EXPECT_THAT(text.out, HasSubstr("# dummy one"));
}

TEST_F(E2E, EmitOutputDoesNotDependOnJobs) {
  // One project, its cache emptied before each run so that every module is emitted.
  std::string proj = multi();
  std::map<std::string, std::string> first;
  for (std::string jobs : {"1", "2", "3", "8"}) {
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result r = ppy({"emit", "dummy", proj, "-j", jobs, "-o", p("out-j" + jobs) + "/"});
    ASSERT_EQ(r.status, 0) << r;
    EXPECT_EQ(notes(r, "emit dummy").size(), 3u) << r;
    auto files = tree(path("out-j" + jobs));
    ASSERT_EQ(files.size(), 3u);
    if (first.empty()) first = files;
    EXPECT_EQ(files, first) << "-j " << jobs;
  }
  // A program-scoped format and binary formats too.
  for (std::string format : {"dummy-bin", "dummy-prog"}) {
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result a = ppy({"emit", format, proj, "-j", "1", "-o", p(format + "-1") + "/"});
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result b = ppy({"emit", format, proj, "-j", "2", "-o", p(format + "-2") + "/"});
    ASSERT_EQ(a.status, 0) << a;
    ASSERT_EQ(b.status, 0) << b;
    EXPECT_EQ(tree(path(format + "-1")), tree(path(format + "-2"))) << format;
  }
  // To stdout (one module), -j makes no difference either.
  std::string one = fixture("one.ppy");
  Result s1 = ppy({"emit", "dummy", one, "-j", "1"});
  fs::remove_all(path(".ppy-cache"));
  Result s2 = ppy({"emit", "dummy", one, "-j", "2"});
  EXPECT_EQ(notes(s2, "emit dummy").size(), 1u) << s2;
  EXPECT_EQ(s1.out, s2.out);
}

TEST_F(E2E, NotesAreStreamedFromEmitToo) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "emit dummy");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_THAT(n[0], HasSubstr("[one] opt=2 target= entry="));
}

// ===========================================================================
// The answer's type, and the toolchain.

TEST_F(E2E, AnswerOfTheWrongTypeIsRefused) {
  std::string proj = project_of("one.ppy", "[tool.ppy.backends.dummy]\nwrong-type = true\n", "wrong");
  Result text = ppy({"emit", "dummy", proj, "-o", p("wrong.out")});
  EXPECT_EQ(text.status, 2) << text;
  EXPECT_THAT(text.err, HasSubstr("error[E1802]: backend 'dummy' answered bytes for 'dummy', a text format"));
  EXPECT_FALSE(fs::exists(path("wrong.out")));
  Result bin = ppy({"emit", "dummy-bin", proj, "-o", p("wrong.bin")});
  EXPECT_EQ(bin.status, 2) << bin;
  EXPECT_THAT(bin.err, AllOf(HasSubstr("error[E1802]"), HasSubstr("'dummy-bin'")));
  EXPECT_FALSE(fs::exists(path("wrong.bin")));
  Result prog = ppy({"emit", "dummy-prog", proj});
  EXPECT_EQ(prog.status, 2) << prog;
  EXPECT_THAT(prog.err, HasSubstr("answered bytes for 'dummy-prog', a text format"));
  EXPECT_EQ(prog.out, "");
}

TEST_F(E2E, MissingToolchainIsReportedBeforeAnalysis) {
  // The only module does not parse: a toolchain check after analysis would report E1001.
  std::string proj = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  for (std::string format : {"dummy", "dummy-bin", "dummy-prog", "dummy-prog-bin"}) {
    Result r = ppy({"emit", format, proj});
    EXPECT_EQ(r.status, 2) << format << "\n" << r;
    EXPECT_THAT(r.err, HasSubstr("error[E1801]: backend 'dummy' is unavailable here: missing dummy-sdk")) << format;
    EXPECT_THAT(r.err, Not(HasSubstr("E1001"))) << format;
    EXPECT_EQ(r.out, "");
  }
  // With the toolchain there, the same target reaches analysis and fails there.
  std::string ok = project_of("bad.ppy", "", "withtool");
  Result r = ppy({"emit", "dummy", ok});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_THAT(r.err, HasSubstr("E1001"));
}

TEST_F(E2E, FormatThatDoesNotRequireTheToolchainEmitsWithoutIt) {
  std::string proj = project_of("one.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  Result r = ppy({"emit", "dummy-src", proj});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# dummy-src one "));
  // Analysis still runs for it (a syntax error is reported as one).
  std::string bad = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool-bad");
  Result b = ppy({"emit", "dummy-src", bad});
  EXPECT_EQ(b.status, 1) << b;
  EXPECT_THAT(b.err, HasSubstr("E1001"));
  EXPECT_THAT(b.err, Not(HasSubstr("E1801")));
}

}  // namespace
}  // namespace ppy::e2e
