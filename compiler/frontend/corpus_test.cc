// The corpus: every program under tests/programs lowers to IR that verifies;
// every program under tests/refused is refused with its expected diagnostic.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ppy/frontend/frontend.h"
#include "ppy/interp/interp.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/runtime/abi.h"

namespace ppy::frontend {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> corpus(const char* sub, bool dirs) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(fs::path(PPY_SOURCE_DIR) / "tests" / sub)) {
    if (dirs && e.is_directory() && fs::exists(e.path() / "pyproject.toml")) out.push_back(e.path().string());
    if (!dirs && e.is_regular_file() && e.path().extension() == ".ppy") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = fs::path(info.param).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

class Programs : public ::testing::TestWithParam<std::string> {};

TEST_P(Programs, LowersToVerifiedIR) {
  auto project = load_project(GetParam());
  ASSERT_TRUE(project.ok()) << project.status();
  DiagnosticEngine diags;
  auto mods = lower_project(*project, diags);
  ASSERT_FALSE(diags.has_errors()) << render_diagnostics(diags);
  ASSERT_EQ(mods.size(), project->modules.size());
  bool has_main = false;
  for (auto& m : mods) {
    if (std::getenv("PPY_DUMP")) std::cerr << ir::print_module(*m);
    auto problems = ir::verify(*m);
    std::string text;
    for (auto& d : problems) text += d.str() + "\n";
    EXPECT_TRUE(problems.empty()) << text << ir::print_module(*m);
    // The printed text parses back and prints the same.
    std::string printed = ir::print_module(*m);
    auto back = ir::parse_module(printed);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << printed;
    EXPECT_EQ(ir::print_module(**back), printed);
    for (auto& f : m->functions()) {
      auto* q = f->attributes().get("ppy.qualname");
      ASSERT_NE(q, nullptr);
      if (q->as_string() == project->entry + ".main" || q->as_string() == project->entry + ".__main__") has_main = true;
      EXPECT_NE(f->attributes().get("ppy.effects"), nullptr) << f->name();
    }
    // Every runtime call is one the runtime ABI table allows (ppy/runtime/abi.def).
    for (auto& f : m->functions())
      ir::walk(static_cast<const ir::Region&>(f->body()), [&](const ir::Operation& op) {
        if (op.name() != "core.call_extern") return;
        const runtime::RuntimeFunction* rt = runtime::runtime_callee(op);
        EXPECT_NE(rt, nullptr) << "not in the runtime ABI table: " << ir::print_attribute(*op.attr("callee")) << " in "
                               << f->name();
        if (!rt) return;
        absl::Status ok = runtime::check_runtime_call(*rt, op);
        EXPECT_TRUE(ok.ok()) << ok << " in " << f->name();
      });
  }
  EXPECT_TRUE(has_main) << "no " << project->entry << ".main or .__main__";
}

// Runs the unoptimized IR in the reference interpreter: stdout must be python3's.
TEST_P(Programs, RunsLikePython) {
  // io (issue 33): an io_* program reads its arguments, standard input and
  // files (NAME.args, NAME.stdin, NAME.files/): the differential suite runs it
  // with them in a working directory of its own.
  if (fs::path(GetParam()).filename().string().starts_with("io_"))
    GTEST_SKIP() << "runs with its fixtures in the differential suite";
  auto project = load_project(GetParam());
  ASSERT_TRUE(project.ok()) << project.status();
  DiagnosticEngine diags;
  auto mods = lower_project(*project, diags);
  ASSERT_FALSE(diags.has_errors()) << render_diagnostics(diags);
  auto linked = ir::link(std::move(mods));
  ASSERT_TRUE(linked.ok()) << linked.status();
  std::ostringstream out, err;
  auto r = interp::run_main(**linked, project->entry, out, err);
  fs::path p(GetParam());
  std::ifstream want_in(fs::is_directory(p) ? GetParam() + ".expected" : p.replace_extension(".expected").string());
  std::stringstream want;
  want << want_in.rdbuf();
  EXPECT_EQ(out.str(), want.str()) << err.str();
  // Programs named raises_*, and any with a recorded `<name>.error`, end in a
  // Python exception: exit status 1, its name on stderr.
  bool raises = fs::path(GetParam()).filename().string().starts_with("raises_") ||
                fs::exists(fs::path(GetParam()).replace_extension(".error"));
  EXPECT_EQ(r.exit_code, raises ? 1 : 0) << err.str();
  if (raises) {
    // `<name>.error` holds the last line python3 wrote to stderr.
    std::ifstream ein(fs::path(GetParam()).replace_extension(".error"));
    std::string line;
    std::getline(ein, line);
    EXPECT_THAT(err.str(), ::testing::HasSubstr(line));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, Programs, ::testing::ValuesIn(corpus("programs", false)), test_name);
INSTANTIATE_TEST_SUITE_P(Projects, Programs, ::testing::ValuesIn(corpus("programs", true)), test_name);

// examples/: the README's programs lower to verified IR and run to completion.
TEST(Examples, LowerVerifyAndRun) {
  for (const char* rel : {"examples/hello.ppy", "examples/project"}) {
    auto project = load_project((fs::path(PPY_SOURCE_DIR) / rel).string());
    ASSERT_TRUE(project.ok()) << project.status();
    DiagnosticEngine diags;
    auto mods = lower_project(*project, diags);
    ASSERT_FALSE(diags.has_errors()) << render_diagnostics(diags);
    for (auto& m : mods) EXPECT_TRUE(ir::verify(*m).empty()) << ir::print_module(*m);
    auto linked = ir::link(std::move(mods));
    ASSERT_TRUE(linked.ok()) << linked.status();
    std::ostringstream out, err;
    EXPECT_EQ(interp::run_main(**linked, project->entry, out, err).exit_code, 0) << err.str();
    EXPECT_FALSE(out.str().empty());
  }
}

TEST(Corpus, HasEnoughPrograms) {
  EXPECT_GE(corpus("programs", false).size() + corpus("programs", true).size(), 60u);
  EXPECT_GE(corpus("refused", false).size(), 30u);
}

TEST(Corpus, EveryProgramHasExpectedOutput) {
  for (auto& p : corpus("programs", false)) {
    fs::path e = fs::path(p).replace_extension(".expected");
    EXPECT_TRUE(fs::exists(e)) << e;
  }
  for (auto& p : corpus("programs", true)) EXPECT_TRUE(fs::exists(p + ".expected")) << p;
}

class Refused : public ::testing::TestWithParam<std::string> {};

// The first line is `# expect: E1xxx: <message substring>`; an optional second
// line `# at: LINE:COL` pins the location of that diagnostic.
TEST_P(Refused, ReportsExpectedDiagnostic) {
  std::ifstream in(GetParam());
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  ASSERT_TRUE(first.starts_with("# expect: E")) << GetParam();
  std::string code = first.substr(10, 5);
  std::string msg = first.substr(17);
  int line = 0, col = 0;
  if (second.starts_with("# at: ")) ASSERT_EQ(std::sscanf(second.c_str() + 6, "%d:%d", &line, &col), 2);
  auto project = load_project(GetParam());
  ASSERT_TRUE(project.ok()) << project.status();
  DiagnosticEngine diags;
  auto mods = lower_project(*project, diags);
  EXPECT_TRUE(mods.empty());
  ASSERT_TRUE(diags.has_errors());
  bool found = false;
  for (auto& d : diags.diagnostics())
    if (d.code == code && d.message.find(msg) != std::string::npos &&
        (line == 0 || (static_cast<int>(d.line) == line && static_cast<int>(d.col) == col)))
      found = true;
  EXPECT_TRUE(found) << "wanted " << code << " " << line << ":" << col << " '" << msg << "', got:\n"
                     << render_diagnostics(diags);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Refused);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Programs);
INSTANTIATE_TEST_SUITE_P(Files, Refused, ::testing::ValuesIn(corpus("refused", false)), test_name);

}  // namespace
}  // namespace ppy::frontend
