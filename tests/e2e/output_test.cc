// End-to-end tests of how `-o` is written (compiler/driver/output_tree.h):
// whole or not at all, never into a folder ppy did not make, and what killed
// builds left beside it cleaned up. The swap itself is tested step by step, with
// injected failures and kills, in compiler/driver/output_tree_test.cc.
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class Output : public E2E {};

TEST_F(Output, LeftoversOfAKilledBuildAreRemoved) {
  // What builds into -o killed mid-swap leave beside it (their process gone),
  // and the staging folder of a build that still runs (this process).
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  std::string proj = multi();
  Result first = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(first.status, 0) << first;
  std::string staged = ".out.ppy-build-" + std::to_string(dead) + "-12345-0";
  std::string aside = ".out.ppy-old-" + std::to_string(dead) + "-12345-0";
  std::string live = ".out.ppy-build-" + std::to_string(getpid()) + "-12345-0";
  write_file(path(staged + "/app.main.dummy"), "half");
  write_file(path(aside + "/app.main.dummy"), "old");
  write_file(path(live + "/app.main.dummy"), "half");
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_THAT(staging_left(path("out")), ElementsAre(live));
  EXPECT_FALSE(fs::exists(path(aside)));
  // Killed between its two renames: the previous folder is put back.
  fs::rename(path("out"), path(aside));
  Result again = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_FALSE(fs::exists(path(aside)));
}

TEST_F(Output, AFolderPpyDidNotMakeIsNeverReplaced) {
  // The issue's `mkdir -p o/app.util.toy; ppy build p --backend toy -o o`, and a
  // user's file: refused before anything is built, with nothing written.
  std::string proj = multi();
  fs::create_directories(path("o/app.util.toy"));
  write_file(path("o/mine.txt"), "not the build's");
  auto before = tree(path("o"));
  for (std::string backend : {"toy", "dummy"}) {
    Result r = ppy({"build", proj, "--backend", backend, "-o", p("o")});
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_THAT(r.err, HasSubstr("error[E1002]: cannot write the output to " + p("o") +
                                 ": it is a folder that ppy did not make"));
    EXPECT_TRUE(notes(r, "build").empty()) << r;
    EXPECT_EQ(tree(path("o")), before);
    EXPECT_TRUE(fs::is_directory(path("o/app.util.toy")));
    EXPECT_THAT(staging_left(path("o")), ElementsAre());
  }
  // So is several modules' emit into it; one artifact goes in beside the user's files.
  Result e = ppy({"emit", "dummy", proj, "-o", p("o")});
  EXPECT_EQ(e.status, 2) << e;
  EXPECT_THAT(e.err, HasSubstr("error[E1002]: cannot write the output to " + p("o") + ": it is a folder"));
  EXPECT_EQ(tree(path("o")), before);
  Result one = ppy({"emit", "dummy", fixture("one.ppy"), "-o", p("o")});
  ASSERT_EQ(one.status, 0) << one;
  EXPECT_THAT(names_in(path("o")), ElementsAre("mine.txt", "one.dummy"));
}

}  // namespace
}  // namespace ppy::e2e
