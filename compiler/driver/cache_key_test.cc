#include "ppy/driver/cache_key.h"

#include <functional>

#include "gtest/gtest.h"

namespace ppy::driver {
namespace {

ModuleKey base_module() {
  ModuleKey m;
  m.source_digest = sha256_hex("def main() -> None: pass\n");
  m.compiler_version = "0.1.0";
  m.compiler_fingerprint = "ppy:0.1.0";
  m.dependency_abi = {{"util", "abc"}};
  m.directives = {"nocheck"};
  m.opt_level = 2;
  m.project_options = {{"entry", "app.main"}};
  m.plugin_fingerprints = {{"numpy", "np:1"}};
  return m;
}

BackendIdentity base_backend() {
  return {"toy", "ppy-toy", "0.1", 1, "toy:0", sha256_hex("sdk-version=0"), "rngd", 1};
}

TEST(CacheKey, IsSixtyFourHexAndStable) {
  std::string k = artifact_identity(base_module(), base_backend());
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(k, artifact_identity(base_module(), base_backend()));
}

TEST(CacheKey, Sha256KnownAnswer) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// One case per row of the contract's table: changing that one part changes the key.
TEST(CacheKey, EveryPartChangesTheKey) {
  const std::string base = artifact_identity(base_module(), base_backend());
  std::vector<std::pair<const char*, std::function<void(ModuleKey&, BackendIdentity&)>>> rows = {
      {"source digest", [](ModuleKey& m, BackendIdentity&) { m.source_digest = sha256_hex("x"); }},
      {"compiler version", [](ModuleKey& m, BackendIdentity&) { m.compiler_version = "0.2.0"; }},
      {"compiler fingerprint", [](ModuleKey& m, BackendIdentity&) { m.compiler_fingerprint = "ppy:other"; }},
      {"dependency ABI", [](ModuleKey& m, BackendIdentity&) { m.dependency_abi["util"] = "abd"; }},
      {"directives", [](ModuleKey& m, BackendIdentity&) { m.directives.push_back("x"); }},
      {"optimization level", [](ModuleKey& m, BackendIdentity&) { m.opt_level = 3; }},
      {"project options", [](ModuleKey& m, BackendIdentity&) { m.project_options["entry"] = "b"; }},
      {"plugin fingerprints", [](ModuleKey& m, BackendIdentity&) { m.plugin_fingerprints["numpy"] = "np:2"; }},
      {"backend name", [](ModuleKey&, BackendIdentity& b) { b.name = "toy2"; }},
      {"distribution", [](ModuleKey&, BackendIdentity& b) { b.distribution = "ppy-toy-fork"; }},
      {"distribution version", [](ModuleKey&, BackendIdentity& b) { b.distribution_version = "0.2"; }},
      {"declared api version", [](ModuleKey&, BackendIdentity& b) { b.api_version = std::nullopt; }},
      {"fingerprint()", [](ModuleKey&, BackendIdentity& b) { b.fingerprint = "toy:1"; }},
      {"config table digest", [](ModuleKey&, BackendIdentity& b) { b.config_digest = sha256_hex("sdk-version=1"); }},
      {"target", [](ModuleKey&, BackendIdentity& b) { b.target = "other"; }},
      {"IR schema version", [](ModuleKey&, BackendIdentity& b) { b.ir_schema_version = 2; }},
  };
  for (auto& [what, change] : rows) {
    ModuleKey m = base_module();
    BackendIdentity b = base_backend();
    change(m, b);
    EXPECT_NE(artifact_identity(m, b), base) << what;
  }
}

TEST(CacheKey, FieldBoundariesDoNotAlias) {
  ModuleKey a = base_module(), b = base_module();
  a.compiler_version = "0.1";
  a.compiler_fingerprint = "0ppy";
  b.compiler_version = "0.10";
  b.compiler_fingerprint = "ppy";
  EXPECT_NE(artifact_identity(a, base_backend()), artifact_identity(b, base_backend()));
}

}  // namespace
}  // namespace ppy::driver
