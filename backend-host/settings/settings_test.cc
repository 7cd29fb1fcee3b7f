#include "ppy/host/settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include "ppy/host/env.h"

using ::testing::ElementsAre;

namespace ppy::host {
namespace {

// A project's table points a backend at a farm: its endpoints and TLS keys
// replace the manifest's; relative paths are the project's.
TEST(Settings, AProjectsTableNamesAFarm) {
  HostSettings manifest;
  manifest.endpoints = std::vector<std::string>{"old:1"};
  manifest.tls.ca = "/m/ca.pem";
  auto project = HostSettings::from_toml(toml::parse("endpoints = [\"a:1\", \"b:2\"]\ntls-cert = \"c.pem\"\n"));
  ASSERT_TRUE(project.ok()) << project.status();
  manifest.merge_from(*project);
  EXPECT_THAT(*manifest.endpoints, ElementsAre("a:1", "b:2"));
  TlsFiles tls;
  manifest.tls.apply(tls, "/proj");
  EXPECT_EQ(tls.ca, "/m/ca.pem");
  EXPECT_EQ(tls.cert, "/proj/c.pem");
  EXPECT_FALSE(tls.insecure);
  EXPECT_TRUE(is_reach_key("endpoints"));
  EXPECT_TRUE(is_reach_key("tls-ca"));
  EXPECT_FALSE(is_reach_key("target"));
}

TEST(Settings, LayersMergeAndBadKeysAreRefused) {
  HostSettings base;
  base.sandbox = SandboxMode::Strict;
  base.timeout = std::chrono::milliseconds(100);
  HostSettings over;
  over.sandbox = SandboxMode::Off;
  base.merge_from(over);
  EXPECT_EQ(base.sandbox, SandboxMode::Off);
  EXPECT_EQ(base.timeout, std::chrono::milliseconds(100));
  EXPECT_EQ(base.deadlines().handshake, std::chrono::milliseconds(100));

  auto bad = HostSettings::from_toml(toml::parse("timeout-ms = -3"));
  EXPECT_FALSE(bad.ok());
  auto bad2 = HostSettings::from_toml(toml::parse("pass-env = \"X\""));
  EXPECT_FALSE(bad2.ok());
  auto ok = HostSettings::from_toml(toml::parse("handshake-timeout-ms = 7\ntarget = \"rngd\""));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->deadlines().handshake, std::chrono::milliseconds(7));
  EXPECT_EQ(ok->deadlines().emit, Deadlines{}.emit);
}

TEST(Env, ProcessEnvReadsThisProcesssVariables) {
  setenv("PPY_SETTINGS_TEST_VAR", "here", 1);
  unsetenv("PPY_SETTINGS_TEST_UNSET");
  EnvLookup env = process_env();
  EXPECT_EQ(env("PPY_SETTINGS_TEST_VAR"), "here");
  EXPECT_EQ(env("PPY_SETTINGS_TEST_UNSET"), std::nullopt);
}

}  // namespace
}  // namespace ppy::host
