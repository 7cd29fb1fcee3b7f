#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "ppy/driver/commands.h"
#include "ppy/host/sandbox.h"

namespace ppy::driver {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// The line `ppy doctor` prints for `mode`.
std::string sandbox_line(const std::string& out, const std::string& mode) {
  std::string key = "\nsandbox " + mode;
  size_t at = out.find(key);
  if (at == std::string::npos) return {};
  size_t end = out.find('\n', at + 1);
  return out.substr(at + 1, end - at - 1);
}

TEST(Doctor, SaysWhatEachSandboxModeGivesHere) {
  std::ostringstream out, err;
  doctor({out, err});
  std::string off = sandbox_line(out.str(), "off"), def = sandbox_line(out.str(), "default"),
              strict = sandbox_line(out.str(), "strict");
  EXPECT_THAT(off, HasSubstr("off: none"));
  // Each claim only where it is in force, each missing protection named.
  const host::SandboxSupport& s = host::sandbox_support();
  if (s.landlock_abi > 0) {
    EXPECT_THAT(def, HasSubstr("writes only beneath the scratch folder"));
  } else {
    EXPECT_THAT(def, HasSubstr("NOT in force: writes confined to the scratch folder"));
  }
  if (s.pid_namespace) {
    EXPECT_THAT(def, HasSubstr("PID namespace of its own: no process it starts outlives it"));
  } else {
    EXPECT_THAT(def, HasSubstr("NOT in force: what it starts ends with it even when it is killed outright"));
  }
  if (!host::bubblewrap_support().program.empty()) {
    EXPECT_THAT(strict, HasSubstr("bubblewrap: PID, mount, network, IPC and UTS namespaces: a private /proc"));
    EXPECT_THAT(strict, HasSubstr("no unix socket outside them"));
    EXPECT_THAT(strict, Not(HasSubstr("NOT in force")));
  } else {
    EXPECT_THAT(strict, HasSubstr("NOT in force: the driver's process hidden from it"));
    EXPECT_THAT(strict, HasSubstr(host::bubblewrap_support().why));
  }
}

}  // namespace
}  // namespace ppy::driver
