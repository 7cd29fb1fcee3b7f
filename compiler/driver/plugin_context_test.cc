// plugins (issue 36): a plugin's fingerprint in the keys of exactly the modules
// importing what it claims, and in the BackendContext.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/driver/backend_context.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace ppy::driver {
namespace {

class PluginContext : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ppy-plugin-context-" + std::to_string(getpid()));
    write("dists/vm/manifest.toml", manifest("1.0"));
    write("dists/vm/vecmath.pyi", "def twice(x: float) -> float:\n    return 2.0 * x\n");
    write("app/main.ppy",
          "import geometry\nimport words\n\n\ndef main() -> None:\n    print(geometry.g(1.0), words.w())\n");
    write("app/geometry.ppy", "import vecmath\n\n\ndef g(x: float) -> float:\n    return vecmath.twice(x)\n");
    write("app/words.ppy", "def w() -> str:\n    return \"w\"\n");
    setenv("PPY_BACKEND_PATH", (root_ / "dists").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("PPY_BACKEND_PATH");
    fs::remove_all(root_);
  }
  static std::string manifest(const std::string& version) {
    return "[distribution]\nname = \"ppy-vm\"\nversion = \"" + version +
           "\"\n[plugins.vecmath]\nmodules = [\"vecmath\"]\nstub = \"vecmath.pyi\"\n";
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  Compilation compiled() {
    frontend::DiagnosticEngine diags;
    auto c = compile(CompileOptions{(root_ / "app").string()}, diags);
    EXPECT_TRUE(c.ok()) << c.status();
    return std::move(*c);
  }

  fs::path root_;
};

TEST_F(PluginContext, ANewVersionChangesTheKeysOfExactlyTheModulesImportingIt) {
  Compilation before = compiled();
  ASSERT_EQ(before.keys.size(), 4u);
  EXPECT_THAT(before.keys.at("geometry").plugin_fingerprints.at("vecmath"), HasSubstr("ppy-vm 1.0; stub "));
  EXPECT_THAT(before.keys.at("main").plugin_fingerprints, IsEmpty());
  BackendContext ctx = make_context(before, host::BackendInfo{}, BackendConfig{}, (root_ / "app").string());
  EXPECT_THAT(ctx.plugin_fingerprints.at("vecmath"), HasSubstr("ppy-vm 1.0; stub "));

  write("dists/vm/manifest.toml", manifest("1.1"));
  Compilation after = compiled();
  BackendIdentity llvm{"llvm"};
  for (const char* m : {"geometry", "vecmath"})
    EXPECT_NE(artifact_identity(before.keys.at(m), llvm), artifact_identity(after.keys.at(m), llvm)) << m;
  for (const char* m : {"main", "words"})
    EXPECT_EQ(artifact_identity(before.keys.at(m), llvm), artifact_identity(after.keys.at(m), llvm)) << m;
}

}  // namespace
}  // namespace ppy::driver
