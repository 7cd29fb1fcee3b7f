// End-to-end tests of `ppy doctor` and `ppy backends`.
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

TEST_F(E2E, DoctorListsBuiltinAndInstalledBackends) {
  Result r = ppy({"doctor"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("backends:\n"));
  EXPECT_THAT(r.out, HasSubstr("\n  ir         available"));
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  toy        available, toy sdk 0 \\[ppy-toy 0\\.1 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\n  dummy      available, dummy sdk 0 \\[ppy-e2e-dummy 1\\.0 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_THAT(r.out, HasSubstr("emits dummy, dummy-bin, dummy-prog, dummy-prog-bin, dummy-src; fingerprint dummy:0\n"));
  EXPECT_THAT(r.out, HasSubstr("emits toy, toy-image; fingerprint toy:0\n"));
  // The header and the sandbox this machine gives.
  EXPECT_THAT(r.out, StartsWith("ppy               "));
  EXPECT_THAT(r.out, HasSubstr("\nsandbox default   "));
  EXPECT_THAT(r.out, HasSubstr("\nsandbox strict    "));
  // Sorted by name.
  auto a = r.out.find("\n  asked "), d = r.out.find("\n  dummy "), i = r.out.find("\n  ir "),
       t = r.out.find("\n  toy ");
  EXPECT_TRUE(a < d && d < i && i < t) << r.out;
}

TEST_F(E2E, DoctorReportsUnusableBackendsAndGoesOn) {
  Result r = ppy({"doctor"}, sets({"main", "broken"}));
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("\n  broken     unusable: "));
  auto broken = grep(r.out, "  broken     unusable: ");
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_THAT(broken[0], HasSubstr("no-such-helper"));  // why
  // The others are still listed, after it as well as before.
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available, toy sdk 0 [ppy-toy 0.1 ("));
  EXPECT_THAT(r.out, HasSubstr("\n  dummy      available"));
  EXPECT_THAT(r.out, HasSubstr("\n  asked      available"));
}

TEST_F(E2E, DoctorReportsAMissingToolchainWithItsDetail) {
  std::string proj = multi("[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n");
  Spawn s = spawn({"doctor"}, sets({"main"}));
  s.cwd = proj;  // doctor reads the project here for the backends' tables
  Result r = run(s);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\n  dummy      unavailable, missing dummy-sdk \\[ppy-e2e-dummy 1\\.0 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available, toy sdk 0"));
}

TEST_F(E2E, DoctorShowsAFingerprintWhole) {
  std::string proj = multi("[tool.ppy.backends.dummy]\nsdk-version = \"2026.12-firmware-r7-0123456789abcdef\"\n");
  Spawn s = spawn({"doctor"}, sets({"main"}));
  s.cwd = proj;
  Result r = run(s);
  EXPECT_THAT(r.out, HasSubstr("; fingerprint dummy:2026.12-firmware-r7-0123456789abcdef\n")) << r;
}

TEST_F(E2E, DoctorReportsDuplicatedNames) {
  // A second distribution registering `dummy`: unusable until one is gone.
  std::string dup = runtime_dist("ppy-e2e-dup", "[backends.dummy]\nexecutable = \"" + kDummy + "\"\n");
  Result r = ppy({"doctor"}, sets({"main"}) + ":" + dup);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("registered by more than one distribution"));
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available"));
  Result b = ppy({"build", fixture("one.ppy"), "--backend", "dummy", "-o", p("out")}, sets({"main"}) + ":" + dup);
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_THAT(b.err, AllOf(HasSubstr("error[E1903]"), HasSubstr("registered by more than one distribution")));
}

TEST_F(E2E, DoctorSaysWhichFileALinkedBackendReallyRuns) {
  // A vendor's program outside the distribution's folder (here under /tmp,
  // which a strict helper sees empty), linked into it, started strict.
  fs::path vendor = path("vendor/bin/ppy-e2e-dummy");
  fs::create_directories(vendor.parent_path());
  fs::copy_file(kDummy, vendor);
  std::string dists = runtime_dist("ppy-e2e-linked", "[backends.linked]\nexecutable = \"linked-dummy\"\n"
                                                     "args = [\"--e2e-name\", \"linked\"]\nsandbox = \"strict\"\n");
  fs::path link = path("dists/ppy-e2e-linked/linked-dummy");
  fs::create_symlink(vendor, link);
  Result r = ppy({"doctor"}, sets({"main"}) + ":" + dists);
  EXPECT_THAT(r.out, HasSubstr("\n  linked     available")) << r;
  EXPECT_THAT(r.out, HasSubstr("\n             runs " + fs::canonical(vendor).string() + " (the manifest names " +
                               link.string() + ", a link to it)\n"))
      << r;
  // Every installed helper says which file it runs.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  dummy      [^\n]*\n[^\n]*\n             runs /[^\n]+\n")))
      << r.out;
}

TEST_F(E2E, BackendsListsWithoutStartingAnything) {
  std::string started = p("spy-started");
  std::string extra = runtime_dist("ppy-e2e-spy", "[backends.spy]\nexecutable = \"" + kDummy +
                                                      "\"\nargs = [\"--e2e-name\", \"spy\", \"--e2e-touch\", \"" +
                                                      started + "\"]\nsandbox = \"off\"\n");
  Result r = ppy({"backends"}, sets({"main", "broken"}) + ":" + extra);
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_FALSE(fs::exists(started)) << "`ppy backends` started a backend";
  EXPECT_THAT(r.out, HasSubstr("ir           builtin\n"));
  EXPECT_THAT(r.out, HasSubstr("spy          ppy-e2e-spy 0.9"));
  EXPECT_THAT(r.out, HasSubstr("toy          ppy-toy 0.1  formats: toy, toy-image"));
  EXPECT_THAT(r.out, HasSubstr("dummy        ppy-e2e-dummy 1.0  formats: dummy, dummy-bin, dummy-prog, dummy-prog-bin, dummy-src"));
  EXPECT_THAT(r.out, HasSubstr("broken       ppy-e2e-broken 1.0"));
  // Doctor does start it.
  Result d = ppy({"doctor"}, sets({"main"}) + ":" + extra);
  EXPECT_TRUE(fs::exists(started)) << d;
}

}  // namespace
}  // namespace ppy::e2e
