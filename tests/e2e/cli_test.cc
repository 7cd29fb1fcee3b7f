// End-to-end tests of the command line itself: bad command lines, an -o that
// cannot be written, the host flags, and the options only LLVM takes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST_F(E2E, BadCommandLinesAreE1002WithAPointerToHelp) {
  std::string one = fixture("one.ppy");
  for (std::vector<std::string> args : {std::vector<std::string>{"build", one, "--backend", "toy", "--backend-timeout", "0"},
                                        {"emit", "toy", one, "--backend-timeout", "soon"},
                                        {"build", one, "--backend", "toy", "--sandbox", "paranoid"},
                                        {"frobnicate"},
                                        {}}) {
    Result r = ppy(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_THAT(r.err, StartsWith("error[E1002]: ")) << r;
    EXPECT_THAT(r.err, HasSubstr("ppy --help")) << r;
    EXPECT_EQ(r.out, "");
  }
  Result help = ppy({"emit", "--help"});
  EXPECT_EQ(help.status, 0) << help;
  EXPECT_THAT(help.out, AllOf(HasSubstr("--sandbox"), HasSubstr("--backend-timeout")));
}

// Every option of every command says what it does: an option line of CLI11's
// help has its description beside it, or on the next line when the option's
// spelling fills the column.
TEST_F(E2E, EveryOptionOfEveryCommandHasADescription) {
  for (std::vector<std::string> command :
       {std::vector<std::string>{}, {"emit"}, {"run"}, {"check"}, {"inspect"}, {"build"}, {"cache", "stats"},
        {"cache", "clean"}, {"doctor"}, {"backends"}, {"conformance"}, {"version"}, {"help"}}) {
    command.push_back("--help");
    Result help = ppy(command);
    ASSERT_EQ(help.status, 0) << help;
    std::vector<std::string> lines;
    std::istringstream in(help.out);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    int options = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, std::regex(R"(( +)(-\S+)(.*))"))) continue;
      ++options;
      std::string rest = std::regex_replace(lines[i], std::regex(R"(\s+$)"), "");
      bool beside = rest.size() > 30 && rest.find("  ", m[1].length()) != std::string::npos &&
                    rest.find_first_not_of(' ', rest.find("  ", m[1].length())) != std::string::npos;
      bool below = i + 1 < lines.size() && std::regex_match(lines[i + 1], std::regex(R"( {20,}\S.*)"));
      EXPECT_TRUE(beside || below) << "ppy " << command.front() << ": " << m[2] << " has no description";
    }
    EXPECT_GT(options, 0) << help.out;
  }
}

TEST_F(E2E, VersionAndHelpCommands) {
  Result flag = ppy({"--version"});
  ASSERT_EQ(flag.status, 0) << flag;
  EXPECT_TRUE(std::regex_match(flag.out, std::regex("ppy [0-9][^\n]*\nIR schema: ppyir 1\nbackend API: 1\n"
                                                    "LLVM: 19[.0-9]*\n")))
      << flag.out;
  Result word = ppy({"version"});
  EXPECT_EQ(word.status, 0) << word;
  EXPECT_EQ(word.out, flag.out);

  Result help = ppy({"help", "build"});
  ASSERT_EQ(help.status, 0) << help;
  EXPECT_EQ(help.out, ppy({"build", "--help"}).out);
  EXPECT_THAT(ppy({"help"}).out, HasSubstr("Subcommands:"));
  Result unknown = ppy({"help", "frobnicate"});
  EXPECT_EQ(unknown.status, 2) << unknown;
  EXPECT_THAT(unknown.err, StartsWith("error[E1002]: there is no command 'frobnicate'"));
}

TEST_F(E2E, DiagnosticsAsSarifOnEveryCompilingCommand) {
  std::string bad = fixture("bad.ppy");
  for (std::vector<std::string> command : {std::vector<std::string>{"check"}, {"build"}, {"emit", "ir"}, {"run"}}) {
    command.insert(command.end(), {bad, "--diagnostics-format", "sarif"});
    Result r = ppy(command);
    EXPECT_NE(r.status, 0) << r;
    EXPECT_THAT(r.err, HasSubstr("\"version\": \"2.1.0\"")) << r;
    EXPECT_THAT(r.err, HasSubstr("\"ruleId\": \"E1")) << r;
    EXPECT_THAT(r.err, HasSubstr("\"uri\": \"" + bad + "\"")) << r;
  }
  Result json = ppy({"check", bad, "--diagnostics-format", "json"});
  EXPECT_THAT(json.err, StartsWith("{\n  \"diagnostics\": [")) << json;
  Result wrong = ppy({"check", bad, "--diagnostics-format", "xml"});
  EXPECT_EQ(wrong.status, 2) << wrong;
  EXPECT_THAT(wrong.err, StartsWith("error[E1002]: "));
}

TEST_F(E2E, InspectsTheIrAfterABackendsPasses) {
  std::string one = fixture("one.ppy");
  Result before = ppy({"inspect", one, "--stage", "before-backend"});
  ASSERT_EQ(before.status, 0) << before;
  Result after = ppy({"inspect", one, "--stage", "backend", "--backend", "toy"});
  ASSERT_EQ(after.status, 0) << after;
  // The toy's pass counted each function's ops; nothing else changed.
  EXPECT_THAT(before.out, Not(HasSubstr("toy.ops")));
  EXPECT_THAT(after.out, StartsWith("ppyir 1\n"));
  EXPECT_TRUE(std::regex_search(after.out, std::regex("toy\\.ops = [0-9]+"))) << after.out;
  EXPECT_EQ(std::regex_replace(after.out, std::regex(",? ?toy\\.ops = [0-9]+,? ?"), ""),
            std::regex_replace(before.out, std::regex(" attrs \\{\\}"), ""))
      << after.out;

  Result bare = ppy({"inspect", one, "--stage", "backend"});
  EXPECT_EQ(bare.status, 2) << bare;
  EXPECT_THAT(bare.err, HasSubstr("error[E1002]: --stage backend needs --backend NAME"));
  Result shared = ppy({"inspect", one, "--stage", "before-backend", "--backend", "toy"});
  EXPECT_EQ(shared.status, 2) << shared;
  EXPECT_THAT(shared.err, HasSubstr("error[E1002]: --backend toy goes with --stage backend"));
  Result unknown = ppy({"inspect", one, "--stage", "backend", "--backend", "no-such-backend"});
  EXPECT_EQ(unknown.status, 2) << unknown;
  EXPECT_THAT(unknown.err, HasSubstr("error[E1903]"));
}

TEST_F(E2E, AnOutputThatCannotBeWrittenIsRefusedBeforeAnythingIsBuilt) {
  std::string one = fixture("one.ppy");
  std::ofstream(path("a-file")) << "not a folder\n";
  Result build = ppy({"build", one, "--backend", "toy", "-o", p("a-file/out")});
  EXPECT_EQ(build.status, 2) << build;
  EXPECT_THAT(build.err, HasSubstr("error[E1002]: cannot write the output to " + p("a-file/out") + ": " +
                                   p("a-file") + " is not a folder"));
  Result emit = ppy({"emit", "toy", one, "-o", "/proc/ppy-cannot-be-here.toy"});
  EXPECT_EQ(emit.status, 2) << emit;
  EXPECT_THAT(emit.err, HasSubstr("error[E1002]: cannot write the output to /proc/ppy-cannot-be-here.toy: "
                                  "no file can be made in /proc"));
  EXPECT_EQ(emit.out, "");
}

TEST_F(E2E, EmitAcceptsTheHostFlagsBuildDoes) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "toy", one, "-o", p("flags.toy"), "--sandbox", "strict", "--backend-timeout", "60000"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_TRUE(fs::exists(path("flags.toy")));
}

TEST_F(E2E, LlvmOnlyOptionsAreRefused) {
  std::string one = fixture("one.ppy");
  struct Case {
    std::vector<std::string> args;
    std::string flag;
  };
  std::vector<Case> cases = {
      {{"--unsafe"}, "--unsafe"},
      {{"--sanitize", "address"}, "--sanitize"},
      {{"--pgo", p("x.ppyprof")}, "--pgo"},
      {{"--prover", "z3"}, "--prover"},
      {{"--host-cpu"}, "--host-cpu"},
      {{"--no-traceback"}, "--no-traceback"},
      {{"--standalone"}, "--standalone"},
      {{"--python-extension"}, "--python-extension"},
      {{"--library"}, "--library"},
      {{"--report-opt"}, "--report-opt"},
      {{"--report-opt-json", p("r.json")}, "--report-opt-json"},
      {{"--target", "x86_64-linux-gnu"}, "--target"},
      {{"--warm"}, "--warm"},
  };
  for (std::string backend : {"toy", "dummy"}) {
    for (auto& c : cases) {
      std::vector<std::string> args = {"build", one, "--backend", backend, "-o", p("out")};
      args.insert(args.end(), c.args.begin(), c.args.end());
      Result r = ppy(args);
      EXPECT_EQ(r.status, 2) << c.flag << "\n" << r;
      auto errors = grep(r.err, "error[E1002]: ");
      ASSERT_EQ(errors.size(), 1u) << c.flag << "\n" << r;
      EXPECT_THAT(errors[0], HasSubstr(c.flag + " ")) << c.flag;
      EXPECT_THAT(errors[0], HasSubstr("backend '" + backend + "'")) << c.flag;
      EXPECT_THAT(errors[0], HasSubstr(" (it ")) << c.flag;  // what the option does
      if (c.flag == "--target")
        EXPECT_THAT(errors[0], AllOf(HasSubstr("`target`"), HasSubstr("[tool.ppy.backends." + backend + "]")));
      if (c.flag == "--warm") EXPECT_THAT(errors[0], HasSubstr("ppy run"));
      EXPECT_FALSE(fs::exists(path("out"))) << c.flag;
      EXPECT_FALSE(fs::exists(path("r.json"))) << c.flag;
    }
  }
  // -o and -O reach every backend.
  Result ok = ppy({"build", one, "--backend", "toy", "-O", "1", "-o", p("out")});
  EXPECT_EQ(ok.status, 0) << ok;
}

// The plain `ppy` links no LLVM: a command that needs it (ppy run's JIT, the
// llvm backend) is handed to `ppy-llvm` beside it; alone, that is E1903 naming
// what is missing, and a road without LLVM still runs.
TEST_F(E2E, WithoutPpyLlvmBesideItPlainPpyRunsWhatNeedsNoLlvm) {
  fs::path alone = fs::path(PPY_BINARY_DIR) / ("ppy-alone-" + std::to_string(getpid()));
  fs::create_directories(alone);
  std::error_code ec;
  fs::create_hard_link(kPpy, alone / "ppy", ec);  // /proc/self/exe is where it finds ppy-llvm
  if (ec) fs::copy_file(kPpy, alone / "ppy", ec);
  ASSERT_FALSE(ec) << ec.message();
  std::string one = fixture("one.ppy");
  auto alone_ppy = [&](std::vector<std::string> args) {
    std::string cmd = (alone / "ppy").string();
    for (auto& a : args) cmd += " '" + a + "'";
    cmd += " > " + path("alone.out").string() + " 2> " + path("alone.err").string();
    int rc = std::system(cmd.c_str());
    return std::pair{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, read_file(path("alone.err"))};
  };
  auto [run_status, run_err] = alone_ppy({"run", one});
  auto [emit_status, emit_err] = alone_ppy({"emit", "llvm-ir", one});
  auto [toy_status, toy_err] = alone_ppy({"emit", "ir", one});
  std::string toy_out = read_file(path("alone.out"));
  fs::remove_all(alone, ec);
  EXPECT_EQ(run_status, 2) << run_err;
  EXPECT_THAT(run_err, AllOf(HasSubstr("error[E1903]"), HasSubstr("ppy-llvm"), HasSubstr("does not link")));
  EXPECT_EQ(emit_status, 2) << emit_err;
  EXPECT_THAT(emit_err, HasSubstr("ppy-llvm"));
  EXPECT_EQ(toy_status, 0) << toy_err;
  EXPECT_THAT(toy_out, StartsWith("ppyir 1"));
  // Beside it, the same commands run.
  Result ran = ppy({"run", one});
  EXPECT_EQ(ran.status, 0) << ran;
  Result emitted = ppy({"emit", "llvm-ir", one});
  EXPECT_EQ(emitted.status, 0) << emitted;
  EXPECT_THAT(emitted.out, HasSubstr("ModuleID"));
}

}  // namespace
}  // namespace ppy::e2e
