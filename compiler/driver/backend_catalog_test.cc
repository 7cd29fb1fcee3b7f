#include "ppy/driver/backend_catalog.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/util/error.h"

namespace ppy::driver {
namespace {

using ::testing::HasSubstr;

/// A started backend whose sandbox is what the test says.
class Sandboxed final : public host::BackendHandle {
 public:
  explicit Sandboxed(host::SandboxReport report) : report_(std::move(report)) { info_.name = "vendor"; }
  const host::BackendInfo& info() const override { return info_; }
  absl::StatusOr<std::string> fingerprint() override { return std::string("vendor:1"); }
  absl::StatusOr<ToolchainStatus> toolchain_status() override { return ToolchainStatus{true, ""}; }
  absl::StatusOr<host::InvocationResult> invoke(const host::Invocation&) override { return host::InvocationResult{}; }
  host::SandboxReport sandbox() const override { return report_; }

 private:
  host::BackendInfo info_;
  host::SandboxReport report_;
};

TEST(SandboxWarning, NamesEveryProtectionTheKernelCannotGive) {
  host::SandboxReport strict;
  strict.mode = host::SandboxMode::Strict;
  strict.missing = {"writes confined to the scratch folder (this kernel has no Landlock)",
                    "no network (neither a network namespace nor seccomp is allowed here)"};
  std::string w = sandbox_warning(Sandboxed(strict));
  EXPECT_THAT(w, HasSubstr("warning: backend 'vendor' runs in the strict sandbox without"));
  EXPECT_THAT(w, HasSubstr("\n  - writes confined to the scratch folder"));
  EXPECT_THAT(w, HasSubstr("\n  - no network"));
  strict.missing.clear();
  EXPECT_EQ(sandbox_warning(Sandboxed(strict)), "");
}

TEST(CommandLineSettings, ReadsTheFlagsAndRefusesAModeThatIsNotOne) {
  auto o = command_line_settings({std::string("strict"), 2500});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->sandbox, host::SandboxMode::Strict);
  EXPECT_EQ(o->timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(o->deadlines().build, std::chrono::milliseconds(2500));
  auto none = command_line_settings({});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->sandbox || none->timeout);
  auto bad = command_line_settings({std::string("paranoid"), std::nullopt});
  EXPECT_EQ(error_code(bad.status()), "E1002");
  EXPECT_THAT(error_text(bad.status()), HasSubstr("paranoid"));
}

// Where a backend runs (a farm's endpoints, their TLS files) is the host's:
// never handed to the backend, no part of the cache key; TLS paths are the
// project's.
TEST(BackendConfig, ReachKeysAreTheHostsAndNotInTheKey) {
  char tmpl[] = "/tmp/ppy-catalog-XXXXXX";
  std::filesystem::path dir = mkdtemp(tmpl);
  std::ofstream(dir / "app.ppy") << "def f() -> int:\n    return 1\n";
  auto config_of = [&](const std::string& table) {
    std::ofstream(dir / "pyproject.toml") << "[tool.ppy]\n\n[tool.ppy.backends.toy]\n" << table;
    auto project = load_project(dir.string());
    EXPECT_TRUE(project.ok()) << project.status();
    auto config = backend_config(&*project, "toy");
    EXPECT_TRUE(config.ok()) << config.status();
    return *config;
  };
  BackendConfig plain = config_of("level = 2\n");
  BackendConfig farm = config_of("level = 2\nendpoints = [\"a:1\", \"b:2\"]\ntls-ca = \"certs/ca.pem\"\n");
  BackendConfig other = config_of("level = 3\n");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(farm.digest, plain.digest);
  EXPECT_NE(other.digest, plain.digest);
  EXPECT_EQ(farm.options.count("endpoints"), 0u);
  EXPECT_EQ(farm.options.count("tls-ca"), 0u);
  EXPECT_EQ(farm.options.count("level"), 1u);
  ASSERT_TRUE(farm.settings.endpoints);
  EXPECT_THAT(*farm.settings.endpoints, ::testing::ElementsAre("a:1", "b:2"));
  EXPECT_EQ(*farm.settings.tls.ca, (dir / "certs/ca.pem").string());
}

// A distribution registering a builtin's name is reported with its manifest
// and never started, whichever builtin it is (issue 18: discovery was told
// only of the builtins the driver linked).
TEST(BackendCatalog, AManifestTakingABuiltinsNameIsReportedAndNeverStarted) {
  char tmpl[] = "/tmp/ppy-catalog-XXXXXX";
  std::filesystem::path dir = mkdtemp(tmpl);
  std::filesystem::path dist = dir / "squatter";
  std::filesystem::create_directories(dist);
  // Started, it would leave a mark.
  std::ofstream(dist / "helper") << "#!/bin/sh\ntouch " << (dir / "started").string() << "\nexit 1\n";
  std::filesystem::permissions(dist / "helper", std::filesystem::perms::owner_all);
  std::string manifest = "[distribution]\nname = \"squatter\"\nversion = \"1\"\n";
  for (std::string_view name : host::kBuiltinBackends)
    manifest += "[backends." + std::string(name) + "]\nexecutable = \"helper\"\n";
  std::ofstream(dist / "manifest.toml") << manifest;
  const char* before = getenv("PPY_BACKEND_PATH");
  std::string saved = before ? before : "";
  setenv("PPY_BACKEND_PATH", dir.c_str(), 1);
  BackendCatalog catalog = BackendCatalog::discover();
  if (before) setenv("PPY_BACKEND_PATH", saved.c_str(), 1);
  else unsetenv("PPY_BACKEND_PATH");

  const std::vector<std::string> names = catalog.names();
  for (std::string_view name : host::kBuiltinBackends) {
    SCOPED_TRACE(name);
    bool reported = false;
    for (const std::string& p : catalog.index().problems())
      reported |= p.find("backend '" + std::string(name) + "' from squatter 1 (" + (dist / "manifest.toml").string()) !=
                  std::string::npos;
    EXPECT_TRUE(reported);
    EXPECT_EQ(std::count(names.begin(), names.end(), std::string(name)),
              catalog.is_builtin(std::string(name)) ? 1 : 0);
    auto h = catalog.load(std::string(name), nullptr, {});
    if (h.ok()) EXPECT_EQ((*h)->process(), nullptr);  // the builtin, in-process
    else EXPECT_THAT(error_text(h.status()), HasSubstr("builtin backend this ppy is built without"));
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "started"));
  std::filesystem::remove_all(dir);
}

TEST(BackendCatalog, LinkedBuiltinsAreAmongTheContractsNames) {
  for (const std::string& name : linked_builtins()) EXPECT_TRUE(host::is_builtin_backend_name(name)) << name;
  EXPECT_FALSE(linked_builtins().empty());
}

}  // namespace
}  // namespace ppy::driver

namespace ppy::driver {
namespace {

// The plain `ppy` knows the LLVM roads' builtins and formats by these lists
// alone; this binary links the roads (whole), so the lists can be checked.
TEST(LlvmRoads, TheListsEveryDriverKnowsAreTheRoadsOwn) {
  const LlvmRoads* roads = llvm_roads();
  ASSERT_NE(roads, nullptr) << "ppy_driver_test links ppy_driver_llvm whole";
  std::vector<std::string> names, formats;
  for (auto& [name, factory] : roads->builtins) {
    names.push_back(name);
    for (const EmitFormat& f : factory({})->emit_formats()) formats.push_back(f.name);
  }
  std::sort(formats.begin(), formats.end());
  EXPECT_EQ(names, llvm_road_builtins());
  EXPECT_EQ(formats, llvm_road_formats());
  EXPECT_TRUE(roads->run_objects);
  // And the catalog lists them as builtins with the rest.
  BackendCatalog catalog{host::ManifestIndex::from_manifests({})};
  for (const std::string& name : llvm_road_builtins()) EXPECT_TRUE(catalog.is_builtin(name)) << name;
}

}  // namespace
}  // namespace ppy::driver
