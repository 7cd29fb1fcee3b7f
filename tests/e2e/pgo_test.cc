// Profile-guided optimization on the LLVM road (docs/llvm.md, "Profile-guided
// optimization"): `ppy run --profile` writes an indexed profile, `ppy build
// --pgo` and `ppy run --pgo` build with it, the profile's digest is part of the
// build's key, and a profile that cannot be used is a warning (W2009), never a
// wrong build.
#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Branchy enough that the profile has counts to give, and prints its answer.
constexpr const char* kProgram =
    "def collatz(n: int) -> int:\n"
    "    steps = 0\n"
    "    while n != 1:\n"
    "        if n % 2 == 0:\n"
    "            n = n // 2\n"
    "        else:\n"
    "            n = 3 * n + 1\n"
    "        steps += 1\n"
    "    return steps\n\n\n"
    "def main() -> None:\n"
    "    best = 0\n"
    "    for i in range(1, 20000):\n"
    "        best = max(best, collatz(i))\n"
    "    print(best)\n\n\n"
    "main()\n";
constexpr const char* kAnswer = "278\n";

class Pgo : public E2E {
 protected:
  void SetUp() override {
    E2E::SetUp();
    write_file(path("prog.ppy"), kProgram);
  }
  /// The build's key line of `ppy build` (the artifact cache's entry it made or used).
  std::vector<std::string> cache_entries() const { return names_in(path(".ppy-cache/artifacts")); }
};

TEST_F(Pgo, AProfileIsWrittenAndUsed) {
  Result recorded = ppy({"run", "--profile", "prog.ppy"});
  ASSERT_EQ(recorded.status, 0) << recorded;
  EXPECT_EQ(recorded.out, kAnswer);
  ASSERT_TRUE(fs::exists(path("prog.ppyprof"))) << recorded;
  EXPECT_THAT(recorded.err, HasSubstr("profile: "));
  // A second run merges into the same file; --profile-out names another.
  ASSERT_EQ(ppy({"run", "--profile", "--profile-out", "other.ppyprof", "prog.ppy"}).status, 0);
  ASSERT_TRUE(fs::exists(path("other.ppyprof")));

  Result built = ppy({"build", "prog.ppy", "--pgo", "prog.ppyprof", "-o", "out"});
  ASSERT_EQ(built.status, 0) << built;
  EXPECT_THAT(built.err, Not(HasSubstr("W2009"))) << built;
  Result exe = run_file(path("out/prog"));
  EXPECT_EQ(exe.status, 0) << exe;
  EXPECT_EQ(exe.out, kAnswer);
  Result program = ppy({"run", "--pgo", "prog.ppyprof", "prog.ppy"});
  ASSERT_EQ(program.status, 0) << program;
  EXPECT_EQ(program.out, kAnswer);
  EXPECT_THAT(program.err, Not(HasSubstr("W2009"))) << program;
}

TEST_F(Pgo, ACorruptProfileIsAWarningAndTheBuildIsRight) {
  write_file(path("bad.ppyprof"), "this is not an indexed profile\n");
  Result built = ppy({"build", "prog.ppy", "--pgo", "bad.ppyprof", "-o", "out"});
  ASSERT_EQ(built.status, 0) << built;
  EXPECT_THAT(built.err, HasSubstr("warning[W2009]: the profile"));
  Result ran = ppy({"run", "--pgo", "bad.ppyprof", "prog.ppy"});
  EXPECT_EQ(ran.status, 0) << ran;
  EXPECT_EQ(ran.out, kAnswer);
  EXPECT_THAT(ran.err, HasSubstr("warning[W2009]"));
  // A missing file too.
  Result missing = ppy({"build", "prog.ppy", "--pgo", "nowhere.ppyprof", "-o", "out2"});
  ASSERT_EQ(missing.status, 0) << missing;
  EXPECT_THAT(missing.err, HasSubstr("warning[W2009]: the profile 'nowhere.ppyprof' cannot be read"));
}

TEST_F(Pgo, AProfileOfAnotherProgramIsAWarning) {
  write_file(path("other/prog2.ppy"), "def main() -> None:\n    print(sum([i for i in range(10)]))\n\n\nmain()\n");
  ASSERT_EQ(ppy({"run", "--profile", "--profile-out", "foreign.ppyprof", "other/prog2.ppy"}).status, 0);
  Result built = ppy({"build", "prog.ppy", "--pgo", "foreign.ppyprof", "-o", "out"});
  ASSERT_EQ(built.status, 0) << built;
  EXPECT_THAT(built.err, HasSubstr("warning[W2009]")) << built;
  EXPECT_THAT(built.err, HasSubstr("has no counts")) << built;
  Result ran = ppy({"run", "--pgo", "foreign.ppyprof", "prog.ppy"});
  EXPECT_EQ(ran.out, kAnswer) << ran;
}

TEST_F(Pgo, AFunctionChangedSinceTheProfileIsAWarning) {
  ASSERT_EQ(ppy({"run", "--profile", "prog.ppy"}).status, 0);
  std::string changed = kProgram;
  changed.replace(changed.find("        steps += 1\n"), 19,
                  "        steps += 1\n        if steps > 100000:\n            return -1\n");
  write_file(path("prog.ppy"), changed);
  Result built = ppy({"build", "prog.ppy", "--pgo", "prog.ppyprof", "-o", "out"});
  ASSERT_EQ(built.status, 0) << built;
  EXPECT_THAT(built.err, HasSubstr("warning[W2009]: prog: function control flow change detected (hash mismatch) "
                                   "prog_collatz"))
      << built;
  EXPECT_EQ(run_file(path("out/prog")).out, kAnswer);
}

TEST_F(Pgo, TheProfilesDigestIsPartOfTheKey) {
  ASSERT_EQ(ppy({"run", "--profile", "--profile-out", "a.ppyprof", "prog.ppy"}).status, 0);
  ASSERT_EQ(ppy({"build", "prog.ppy", "-o", "plain"}).status, 0);
  size_t plain = cache_entries().size();
  ASSERT_EQ(ppy({"build", "prog.ppy", "--pgo", "a.ppyprof", "-o", "with_a"}).status, 0);
  size_t with_a = cache_entries().size();
  EXPECT_GT(with_a, plain);
  // The same profile under another name is the same build; other counts are another.
  fs::copy_file(path("a.ppyprof"), path("copy.ppyprof"));
  ASSERT_EQ(ppy({"build", "prog.ppy", "--pgo", "copy.ppyprof", "-o", "with_copy"}).status, 0);
  EXPECT_EQ(cache_entries().size(), with_a);
  ASSERT_EQ(ppy({"run", "--profile", "--profile-out", "a.ppyprof", "prog.ppy"}).status, 0);  // merged: twice the counts
  ASSERT_EQ(ppy({"build", "prog.ppy", "--pgo", "a.ppyprof", "-o", "with_a2"}).status, 0);
  EXPECT_GT(cache_entries().size(), with_a);
}

TEST_F(Pgo, ProfileOptionsAreTheLLVMRoads) {
  Result interp = ppy({"run", "--interp", "--profile", "prog.ppy"});
  EXPECT_EQ(interp.status, 2) << interp;
  EXPECT_THAT(interp.err, HasSubstr("error[E1002]: --profile"));
  Result both = ppy({"run", "--profile", "--pgo", "x.ppyprof", "prog.ppy"});
  EXPECT_EQ(both.status, 2) << both;
  Result out_alone = ppy({"run", "--profile-out", "x.ppyprof", "prog.ppy"});
  EXPECT_EQ(out_alone.status, 2) << out_alone;
  Result toy = ppy({"build", "prog.ppy", "--backend", "toy", "--pgo", "x.ppyprof", "-o", "t"});
  EXPECT_EQ(toy.status, 2) << toy;
  EXPECT_THAT(toy.err, HasSubstr("error[E1002]: --pgo is an option of the LLVM road"));
}

}  // namespace
}  // namespace ppy::e2e
