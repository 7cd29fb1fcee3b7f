// End-to-end tests of which backend owns a format: the builtin formats, the
// distributions' format hints, asking, and the errors when no one or two own it.
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

TEST_F(E2E, BuiltinIrNeedsNoBackendPath) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "ir", one}, "");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("ppyir 1\nmodule @one\n"));
  Result linked = ppy({"emit", "linked-ir", multi()}, "");
  ASSERT_EQ(linked.status, 0) << linked;
  EXPECT_THAT(linked.out, StartsWith("ppyir 1\n"));
  Result listed = ppy({"backends"}, "");
  ASSERT_EQ(listed.status, 0) << listed;
  // Only the builtins (and whatever the install prefix holds: <build>/lib/ppy/backends).
  EXPECT_THAT(listed.out, StartsWith("c            builtin\nir           builtin\nllvm         builtin\n"
                                     "nvvm         builtin\npython       builtin\nstablehlo    builtin\n"));
  EXPECT_THAT(listed.out, Not(HasSubstr("dummy")));
}

TEST_F(E2E, FormatsHintStartsOnlyTheBackendItNames) {
  std::string spy_started = p("spy-started");
  std::string extra = runtime_dist("ppy-e2e-spy", "[backends.spy]\nexecutable = \"" + kDummy +
                                                      "\"\nargs = [\"--e2e-name\", \"spy\", \"--e2e-formats\", "
                                                      "\"spyfmt:.spy\", \"--e2e-touch\", \"" + spy_started +
                                                      "\"]\nsandbox = \"off\"\n");
  std::string path = sets({"main"}) + ":" + extra;
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one}, path);
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_FALSE(fs::exists(spy_started)) << "a declared format started another backend";

  // An undeclared format is found by asking each installed backend (which starts them).
  Result asked = ppy({"emit", "spyfmt", one}, path);
  ASSERT_EQ(asked.status, 0) << asked;
  EXPECT_THAT(asked.out, StartsWith("# spyfmt one "));
  EXPECT_TRUE(fs::exists(spy_started));
}

TEST_F(E2E, UndeclaredFormatIsFoundByAsking) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "asked", one});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# asked one opt=2 target= fingerprint=asked:0 "));
  EXPECT_EQ(notes(r, "emit asked", "asked").size(), 1u) << r;
}

TEST_F(E2E, TwoDistributionsDeclaringOneFormatLeaveNeitherOwningIt) {
  std::string one = fixture("one.ppy");
  // Both declare `twin` and both emit it: asked, both answer, so neither owns it.
  Result twin = ppy({"emit", "twin", one}, sets({"twins"}));
  EXPECT_NE(twin.status, 0) << twin;
  EXPECT_THAT(twin.err, AllOf(HasSubstr("error[E1903]"),
                              HasSubstr("the format 'twin' is registered by backends 'twin-a', 'twin-b'")));
  EXPECT_EQ(twin.out, "");
  // Both declare `solo`, only twin-a emits it: the hint is dropped, asking finds twin-a.
  Result solo = ppy({"emit", "solo", one}, sets({"twins"}));
  ASSERT_EQ(solo.status, 0) << solo;
  EXPECT_THAT(solo.out, StartsWith("# solo one "));
  EXPECT_EQ(notes(solo, "emit solo", "twin-a").size(), 1u) << solo;
  // Discovery reports the claim (without starting anything).
  Result listed = ppy({"backends"}, sets({"twins"}));
  EXPECT_THAT(listed.out, HasSubstr("the format 'twin' is claimed by more than one distribution"));
}

TEST_F(E2E, AHintTheBackendDisagreesWithIsAnError) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "lie", one}, sets({"liar"}));
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, AllOf(HasSubstr("error[E1903]"), HasSubstr("'lie'"), HasSubstr("disagree")));
  EXPECT_EQ(r.out, "");
}

TEST_F(E2E, UnknownFormatListsTheFormatsThereAre) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "nothing", one});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1903]: no backend emits 'nothing'; the formats are "));
  for (std::string f : {"ir", "linked-ir", "toy", "toy-image", "dummy", "dummy-bin", "dummy-prog", "asked"})
    EXPECT_THAT(r.err, HasSubstr(f)) << f;
  EXPECT_EQ(r.out, "");
}

TEST_F(E2E, LegacyFormatOptionIsRefused) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "ir", one, "--format", "ir"});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("`--format` applies to the builtin kinds"));
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace ppy::e2e
