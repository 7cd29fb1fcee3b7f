// End-to-end tests of `ppy conformance`: the checks through spawned helpers.
#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kBadManifest = kSets + "/conformance/ppy-e2e-bad/manifest.toml";

TEST_F(E2E, ConformanceTheToyPassesEveryCheck) {
  Result r = ppy({"conformance", "toy", "--missing-toolchain", "sdk-version=missing"});
  EXPECT_EQ(r.status, 0) << r;
  std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 16u) << r.out;  // a header, 14 checks, a summary
  EXPECT_THAT(lines[0], HasSubstr("conformance of backend 'toy' (ppy-toy 0.1 ("));
  for (size_t i = 1; i + 1 < lines.size(); ++i) EXPECT_EQ(lines[i].substr(0, 5), "ok   ") << lines[i];
  EXPECT_EQ(lines.back(), "all 14 checks passed");
  EXPECT_THAT(r.out, HasSubstr("\nok   fingerprint: expected the same value from every call and process; got handshake "
                               "'toy:0', call 'toy:0', call 'toy:0', another process 'toy:0'\n"));
  EXPECT_THAT(r.out, HasSubstr("got toolchain unavailable ('missing toy-sdk'), emit toy: TOOLCHAIN"));
}

TEST_F(E2E, ConformanceOptionsReachTheBackend) {
  Result r = ppy({"conformance", "toy", "--option", "sdk-version=7"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("got handshake 'toy:7', call 'toy:7'"));
  // No table without the toolchain: that check is skipped, not failed.
  EXPECT_THAT(r.out, HasSubstr("\nskip missing toolchain: "));
}

TEST_F(E2E, ConformanceNamesEachFaultOfABrokenHelper) {
  Result r = ppy({"conformance", "--manifest", kBadManifest});
  EXPECT_EQ(r.status, 1) << r;
  // The fingerprint holds within a process but not across two.
  EXPECT_THAT(r.out, HasSubstr("\nFAIL fingerprint: expected the same value from every call and process; got "
                               "handshake 'bad:"));
  EXPECT_THAT(r.out, HasSubstr("\nFAIL emit bad: expected 2 artifact(s) [app: text] [lib: text]; got TYPE_MISMATCH"));
  EXPECT_THAT(r.out, HasSubstr("\nok   emit fine: "));
  EXPECT_THAT(r.out, HasSubstr("\nok   handshake: "));
  EXPECT_THAT(r.out, HasSubstr("\nskip build: "));
  EXPECT_THAT(r.out, HasSubstr("\n2 of 14 checks failed\n"));
}

TEST_F(E2E, ConformanceRefusesWhatItCannotCheck) {
  Result unknown = ppy({"conformance", "nope"});
  EXPECT_EQ(unknown.status, 2) << unknown;
  EXPECT_THAT(unknown.err, HasSubstr("error[E1903]: "));
  Result builtin = ppy({"conformance", "ir"});
  EXPECT_EQ(builtin.status, 2) << builtin;
  EXPECT_THAT(builtin.err, HasSubstr("'ir' is a builtin"));
  Result bad_option = ppy({"conformance", "toy", "--option", "no-equals"});
  EXPECT_EQ(bad_option.status, 2) << bad_option;
  EXPECT_THAT(bad_option.err, HasSubstr("error[E1002]: --option takes KEY=VALUE, not 'no-equals'"));
  Result unnamed = ppy({"conformance"});
  EXPECT_EQ(unnamed.status, 2) << unnamed;
  EXPECT_THAT(unnamed.err, HasSubstr("error[E1903]: name the backend to check"));
}

}  // namespace
}  // namespace ppy::e2e
