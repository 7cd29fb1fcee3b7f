#include "ppy/driver/build_report.h"

#include <sstream>

#include "gtest/gtest.h"

namespace ppy::driver {
namespace {

TEST(BuildReport, TerminalProgressIsRewrittenInPlaceAndClearedBeforeALine) {
  std::ostringstream err;
  BuildReport r(err, BuildReport::Mode::kTerminal);
  r.module_done("app.main", 3);
  r.module_done("app.util", 3);
  r.say("backend:  toy\n");
  EXPECT_EQ(err.str(), "\r[1/3] app.main\033[K\r[2/3] app.util\033[K\r\033[Kbackend:  toy\n");
}

TEST(BuildReport, LinesHaveNoProgressAndQuietSaysNothing) {
  std::ostringstream lines, quiet;
  BuildReport l(lines, BuildReport::Mode::kLines), q(quiet, BuildReport::Mode::kQuiet);
  for (auto* r : {&l, &q}) {
    r->module_done("app.main", 1);
    r->say("backend:  toy\n");
    r->summary({1, 0, 0, 1, "toy", "ppy-toy 0.1 (m)", 0});
  }
  EXPECT_EQ(lines.str(), "backend:  toy\nmodules:  1 (1 built by toy (ppy-toy 0.1 (m)))\n");
  EXPECT_EQ(quiet.str(), "");
}

TEST(BuildReport, SummarySaysWhereEachModuleCameFromAndTheRetries) {
  EXPECT_EQ(summary_text({3, 3, 0, 0, "toy", "x", 0}), "modules:  3 (3 from the local cache)\n");
  EXPECT_EQ(summary_text({3, 0, 3, 0, "toy", "x", 0}), "modules:  3 (3 from the remote cache)\n");
  EXPECT_EQ(summary_text({2, 0, 0, 2, "llvm", "builtin", 2}),
            "modules:  2 (2 built by llvm (builtin))\nretries:  2 (calls a server lost, answered by another)\n");
  // Built on a server of the backend's farm: which one.
  EXPECT_EQ(summary_text({2, 0, 0, 2, "toy", "x", 1, "b.farm:7000 (10.0.0.2:7000)"}),
            "modules:  2 (2 built by toy (x) on b.farm:7000 (10.0.0.2:7000))\nretries:  1 (calls a server lost, "
            "answered by another)\n");
  EXPECT_EQ(retries_in({"unrelated", "the call was retried: a:1 lost it (reset); b:2 lost it (gone); c:3 answered"}), 2u);
}

}  // namespace
}  // namespace ppy::driver
