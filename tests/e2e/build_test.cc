// End-to-end tests of `ppy build`: where it writes, what it lists, -O, builds from
// a .ppyir, validation refusals, the toolchain, and the BackendContext out of process.
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
// ppy build.

TEST_F(E2E, BuildWritesToOutputAndListsWhatItWrote) {
  std::string proj = multi();
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, p("out") + "/app.main.dummy\n" + p("out") + "/app.shapes.dummy\n" + p("out") +
                       "/app.util.dummy\n");
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_THAT(files["app.util.dummy"], StartsWith("# build app.util opt=2 "));
  // stderr: backend, outputs, then the notes.
  auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 3u) << r;
  EXPECT_EQ(lines[0], "backend:  dummy");
  EXPECT_EQ(lines[1], "outputs:  3");
  EXPECT_THAT(lines[2], StartsWith("note: dummy: build [app.main,app.shapes,app.util] "));
}

TEST_F(E2E, BuildWritesToTheProjectCacheByDefault) {
  std::string proj = multi();
  Result r = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(r.status, 0) << r;
  fs::path out = fs::path(proj) / ".ppy-cache/backends/dummy";
  EXPECT_THAT(names_in(out), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_THAT(r.out, HasSubstr(".ppy-cache/backends/dummy/app.main.dummy\n"));
  EXPECT_THAT(r.err, HasSubstr("backend:  dummy\noutputs:  3\n"));
  // The toy backend, on a file target: <folder of the file>/.ppy-cache/backends/toy.
  std::string one = fixture("one.ppy", "single/one.ppy");
  Result toy = ppy({"build", one, "--backend", "toy"});
  ASSERT_EQ(toy.status, 0) << toy;
  EXPECT_TRUE(fs::exists(path("single/.ppy-cache/backends/toy/one.toy"))) << toy;
  EXPECT_THAT(toy.err, HasSubstr("backend:  toy\noutputs:  1\nnote: toy: built 1 module(s) with toy sdk 0\n"));
}

TEST_F(E2E, OptLevelReachesTheBackend) {
  std::string one = fixture("one.ppy");
  for (std::string level : {"0", "1", "3"}) {
    Result r = ppy({"build", one, "--backend", "dummy", "-O", level, "-o", p("out" + level)});
    ASSERT_EQ(r.status, 0) << r;
    auto n = notes(r, "build");
    ASSERT_EQ(n.size(), 1u) << r;
    EXPECT_EQ(field(n[0], "opt"), level);
    EXPECT_THAT(read_file(path("out" + level + "/one.dummy")), StartsWith("# build one opt=" + level + " "));
  }
  Result d = ppy({"build", one, "--backend", "dummy", "-o", p("outd")});
  ASSERT_EQ(d.status, 0) << d;
  EXPECT_EQ(field(notes(d, "build").at(0), "opt"), "2");  // the default
  // The project's opt-level when -O is not given; -O wins over it.
  std::string proj = multi("", "multi");
  std::string text = read_file(fs::path(proj) / "pyproject.toml");
  text.replace(text.find("[tool.ppy]\n"), 11, "[tool.ppy]\nopt-level = 1\n");
  write_file(fs::path(proj) / "pyproject.toml", text);
  Result pr = ppy({"build", proj, "--backend", "dummy", "-o", p("outp")});
  ASSERT_EQ(pr.status, 0) << pr;
  EXPECT_EQ(field(notes(pr, "build").at(0), "opt"), "1");
  Result po = ppy({"build", proj, "--backend", "dummy", "-O", "3", "-o", p("outp3")});
  ASSERT_EQ(po.status, 0) << po;
  EXPECT_EQ(field(notes(po, "build").at(0), "opt"), "3");
  // And emit.
  Result e = ppy({"emit", "dummy", one, "-O", "0"});
  ASSERT_EQ(e.status, 0) << e;
  EXPECT_THAT(e.out, StartsWith("# dummy one opt=0 "));
}

TEST_F(E2E, BuildFromPpyir) {
  std::string one = fixture("one.ppy");
  Result ir = ppy({"emit", "ir", one, "-o", p("one.ppyir")});
  ASSERT_EQ(ir.status, 0) << ir;
  Result r = ppy({"build", p("one.ppyir"), "--backend", "toy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, p("out") + "/one.toy\n");
  EXPECT_THAT(r.err, HasSubstr("backend:  toy\noutputs:  1\n"));
  std::string toy = read_file(path("out/one.toy"));
  EXPECT_THAT(toy, HasSubstr("// one_twice: "));
  // The same road as from source below the boundary: the same toy text.
  Result from_source = ppy({"build", one, "--backend", "toy", "-o", p("out-src")});
  ASSERT_EQ(from_source.status, 0) << from_source;
  EXPECT_EQ(toy, read_file(path("out-src/one.toy")));
  // The chosen backend is used, with the .ppyir as the entry of a build of one,
  // and an identity of its own (the module's encoded bytes, not a source bundle).
  Result d = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd")});
  ASSERT_EQ(d.status, 0) << d;
  auto n = notes(d, "build");
  ASSERT_EQ(n.size(), 1u) << d;
  EXPECT_EQ(field(n[0], "entry"), p("one.ppyir"));
  EXPECT_EQ(field(n[0], "entry_module"), "one");
  EXPECT_EQ(field(n[0], "entry_symbol"), "one___main__");
  Result ds = ppy({"build", one, "--backend", "dummy", "-o", p("outds")});
  ASSERT_EQ(ds.status, 0) << ds;
  EXPECT_TRUE(is_hex64(ids_of(n[0])["one"]));
  EXPECT_NE(ids_of(n[0])["one"], ids_of(notes(ds, "build").at(0))["one"]);
  // And the .ppyir's own cache: a repeat is a hit, a changed file is not.
  Result again = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd2")});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_TRUE(notes(again, "build").empty()) << again;
  EXPECT_EQ(tree(path("outd2")), tree(path("outd")));
  std::string src = read_file(one);
  write_file(one, src.replace(src.find("n * 2"), 5, "n * 3"));
  Result ir3 = ppy({"emit", "ir", one, "-o", p("one.ppyir")});
  ASSERT_EQ(ir3.status, 0) << ir3;
  Result changed = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd3")});
  ASSERT_EQ(changed.status, 0) << changed;
  ASSERT_EQ(notes(changed, "build").size(), 1u) << changed;
  EXPECT_NE(ids_of(notes(changed, "build")[0])["one"], ids_of(n[0])["one"]);
  EXPECT_THAT(read_file(path("outd3/one.dummy")), HasSubstr("3"));
}

TEST_F(E2E, UnknownBackendListsTheBackends) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"build", one, "--backend", "nope", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1903]: no backend is called 'nope'; the backends are "));
  for (std::string b : {"asked", "dummy", "ir", "toy"}) EXPECT_THAT(r.err, HasSubstr(b));
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(E2E, ValidationRefusalWritesNothing) {
  std::string kernel = fixture("kernel.ppy");
  write_file(path("out/.ppy-output"), "");  // what an earlier build left: ppy's to replace
  write_file(path("out/keep.txt"), "mine\n");
  Result r = ppy({"build", kernel, "--backend", "toy", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1802]: backend 'toy' cannot take gpu."));
  EXPECT_THAT(r.err, HasSubstr(" in kernel_saxpy at "));
  EXPECT_TRUE(std::regex_search(r.err, std::regex("at [^ ]*kernel\\.ppy:[0-9]+:[0-9]+ \\(needs device kernels\\)")))
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(names_in(path("out")), ElementsAre("keep.txt"));
  // Nothing beside it either (no staging folder left behind).
  std::vector<std::string> top;
  for (auto& e : fs::directory_iterator(dir_))
    if (e.path().filename() != ".ppy-cache") top.push_back(e.path().filename().string());
  std::sort(top.begin(), top.end());
  EXPECT_THAT(top, ElementsAre("home", "kernel.ppy", "out"));
  // Nor into a folder that did not exist.
  Result fresh = ppy({"build", kernel, "--backend", "toy", "-o", p("fresh")});
  EXPECT_EQ(fresh.status, 2) << fresh;
  EXPECT_FALSE(fs::exists(path("fresh")));
  // The emit road refuses it the same way.
  Result e = ppy({"emit", "toy", kernel, "-o", p("k.toy")});
  EXPECT_EQ(e.status, 2) << e;
  EXPECT_THAT(e.err, HasSubstr("error[E1802]: backend 'toy' cannot take gpu."));
  EXPECT_FALSE(fs::exists(path("k.toy")));
}

TEST_F(E2E, BuildAlwaysChecksTheToolchain) {
  std::string proj = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1801]: backend 'dummy' is unavailable here: missing dummy-sdk"));
  EXPECT_THAT(r.err, Not(HasSubstr("E1001")));
  EXPECT_FALSE(fs::exists(path("out")));
  // Even though one of its formats (dummy-src) does not need it.
  std::string good = project_of("one.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool-good");
  Result g = ppy({"build", good, "--backend", "dummy", "-o", p("out")});
  EXPECT_EQ(g.status, 2) << g;
  EXPECT_THAT(g.err, HasSubstr("error[E1801]"));
  EXPECT_FALSE(fs::exists(path("out")));
}

// ===========================================================================
// BackendContext, out of process.

TEST_F(E2E, ContextReachesTheBackendOutOfProcess) {
  std::string proj = multi(
      "[tool.ppy.backends.dummy]\nlevel = 3\ntarget = \"t1\"\nsdk-version = \"7\"\n\n"
      "[tool.ppy.backends.toy]\nsecret = \"for toy only\"\n\n"
      "[tool.ppy.backends.not-installed]\nanything = 1\n");
  Result r = ppy({"build", proj, "--backend", "dummy", "-O", "1", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;  // a table for a backend that is not installed is no error
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "opt"), "1");
  EXPECT_EQ(field(n[0], "target"), "t1");
  EXPECT_EQ(field(n[0], "root"), proj);
  // The entry module's file, of three, relative to the root (the same in every checkout: docs/cache.md).
  EXPECT_EQ(field(n[0], "entry"), "src/app/main.ppy");
  // Its name and the symbol the program starts at: a module carries no file.
  EXPECT_EQ(field(n[0], "entry_module"), "app.main");
  EXPECT_EQ(field(n[0], "entry_symbol"), "app_main___main__");
  // Its own table, and no other backend's.
  EXPECT_THAT(n[0], HasSubstr("table={level=3;sdk-version=7;target=t1}"));
  EXPECT_THAT(n[0], Not(HasSubstr("secret")));
  EXPECT_THAT(n[0], Not(HasSubstr("anything")));
  // An identity per module, 64 hex characters each, all different.
  auto ids = ids_of(n[0]);
  ASSERT_EQ(ids.size(), 3u) << n[0];
  std::set<std::string> distinct;
  for (auto& [m, id] : ids) {
    EXPECT_TRUE(is_hex64(id)) << m << " " << id;
    distinct.insert(id);
  }
  EXPECT_EQ(distinct.size(), 3u);
  EXPECT_EQ(artifact_id(read_file(path("out/app.util.dummy"))), ids["app.util"]);
  // The fingerprint the table asks for.
  EXPECT_THAT(read_file(path("out/app.main.dummy")), HasSubstr(" fingerprint=dummy:7 "));

  // The same context on the emit road.
  Result e = ppy({"emit", "dummy-prog", proj, "-O", "1"});
  ASSERT_EQ(e.status, 0) << e;
  auto en = notes(e, "emit_program dummy-prog");
  ASSERT_EQ(en.size(), 1u) << e;
  EXPECT_EQ(field(en[0], "target"), "t1");
  EXPECT_EQ(ids_of(en[0]), ids);

  // The toy backend gets its table (and the not-installed one's table is no error for it).
  Result toy = ppy({"build", proj, "--backend", "toy", "-o", p("toyout")});
  EXPECT_EQ(toy.status, 0) << toy;
}

TEST_F(E2E, ALibraryOfSeveralModulesHasNoEntry) {
  std::string lib = p("lib");
  write_file(fs::path(lib) / "pyproject.toml", "[tool.ppy]\nsource-roots = [\"src\"]\n");
  write_file(fs::path(lib) / "src" / "a.ppy", "def f(x: int) -> int:\n    return x + 1\n");
  write_file(fs::path(lib) / "src" / "b.ppy", "def g(x: int) -> int:\n    return x * 2\n");
  Result r = ppy({"build", lib, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "entry"), "");
  EXPECT_EQ(field(n[0], "entry_module"), "");
  EXPECT_EQ(field(n[0], "entry_symbol"), "");
  EXPECT_EQ(ids_of(n[0]).size(), 2u) << n[0];
}

TEST_F(E2E, ALinkedPpyirNamesTheEntryItsModulesHad) {
  Result ir = ppy({"emit", "linked-ir", multi(""), "-o", p("program.ppyir")});
  ASSERT_EQ(ir.status, 0) << ir;
  Result r = ppy({"build", p("program.ppyir"), "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "entry"), p("program.ppyir"));
  EXPECT_EQ(field(n[0], "entry_module"), "app.main");
  EXPECT_EQ(field(n[0], "entry_symbol"), "app_main___main__");
}

TEST_F(E2E, EntryIsTheFileForABuildOfOne) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"build", one, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "entry"), "one.ppy");  // relative to the root, the file's folder
  EXPECT_EQ(field(n[0], "root"), dir_.string());
  EXPECT_EQ(dir_ / "one.ppy", fs::path(one));
  EXPECT_EQ(field(n[0], "target"), "");
  EXPECT_THAT(n[0], HasSubstr("table={}"));
  auto ids = ids_of(n[0]);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_TRUE(is_hex64(ids["one"]));
}

// What the user sees: a summary of where the modules came from; progress only
// on a terminal; nothing but errors with --quiet.
TEST_F(E2E, BuildSaysWhereItsModulesCameFrom) {
  std::string proj = multi("[tool.ppy.backends.dummy]\nsandbox = \"off\"\n");
  Result first = ppy({"build", proj, "--backend", "dummy", "-o", p("o1")});
  ASSERT_EQ(first.status, 0) << first;
  EXPECT_THAT(first.err, testing::MatchesRegex("(.|\n)*modules:  3 \\(3 built by dummy \\(ppy-e2e-dummy 1.0 \\([^\n]*manifest.toml\\)\\)\\)\n"));
  EXPECT_EQ(first.err.find('\r'), std::string::npos) << "progress in a log";
  EXPECT_EQ(first.err.find("\033"), std::string::npos);
  Result hit = ppy({"build", proj, "--backend", "dummy", "-o", p("o2")});
  ASSERT_EQ(hit.status, 0) << hit;
  EXPECT_THAT(hit.err, testing::HasSubstr("modules:  3 (3 from the local cache)\n"));
  Result fresh = ppy({"build", proj, "--backend", "dummy", "--no-cache", "-o", p("o3")});
  EXPECT_THAT(fresh.err, testing::HasSubstr("modules:  3 (3 built by dummy"));
}

TEST_F(E2E, BuildShowsProgressOnATerminal) {
  std::string proj = multi("[tool.ppy.backends.dummy]\nsandbox = \"off\"\n");
  Spawn s = spawn({"build", proj, "--backend", "dummy", "-o", p("o")}, sets({"main"}));
  s.stdout_tty = true;
  s.stderr_tty = true;
  Result r = run(s);
  ASSERT_EQ(r.status, 0) << r;
  // One line rewritten in place per module, in any order, then cleared.
  for (std::string m : {"app.main", "app.shapes", "app.util"})
    EXPECT_THAT(r.out, testing::ContainsRegex("\r\\[[123]/3\\] " + m)) << r.out;
  EXPECT_THAT(r.out, testing::HasSubstr("[3/3] "));
  EXPECT_THAT(r.out, testing::HasSubstr("\r\033[Kbackend:  dummy"));
  EXPECT_THAT(r.out, testing::HasSubstr("modules:  3 ("));
}

TEST_F(E2E, QuietBuildPrintsOnlyErrors) {
  std::string proj = multi("[tool.ppy.backends.dummy]\nsandbox = \"off\"\n");
  Result q = ppy({"build", proj, "--backend", "dummy", "--quiet", "-o", p("o")});
  ASSERT_EQ(q.status, 0) << q;
  EXPECT_EQ(q.out, "");
  EXPECT_EQ(q.err, "");
  EXPECT_TRUE(fs::exists(path("o/app.main.dummy")));
  Spawn s = spawn({"build", proj, "--backend", "dummy", "-q", "-o", p("o2")}, sets({"main"}));
  s.stdout_tty = true;
  s.stderr_tty = true;
  Result tty = run(s);
  ASSERT_EQ(tty.status, 0) << tty;
  EXPECT_EQ(tty.out, "");
  write_file(fs::path(proj) / "src/app/util.ppy", "def total(n: int) -> int:\n    return undefined_name\n");
  Result bad = ppy({"build", proj, "--backend", "dummy", "--quiet", "-o", p("o3")});
  EXPECT_NE(bad.status, 0);
  EXPECT_THAT(bad.err, testing::HasSubstr("error"));
}

}  // namespace
}  // namespace ppy::e2e
