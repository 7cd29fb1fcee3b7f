#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "ppy/project/plugins.h"
#include "ppy/project/project.h"
#include "ppy/util/error.h"

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace ppy {
namespace {

class PluginModulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ppy-plugin-modules-XXXXXX";
    root_ = mkdtemp(tmpl);
    write("dists/vecmath/manifest.toml", manifest("1.0"));
    write("dists/vecmath/vecmath.pyi", "def norm(a: list[float]) -> float:\n    return 0.0\n");
    write("dists/vecmath/lib/libvecmath.so", "not really a library");
    setenv("PPY_BACKEND_PATH", (root_ / "dists").c_str(), 1);
    setenv("HOME", (root_ / "home").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("PPY_BACKEND_PATH");
    fs::remove_all(root_);
  }
  static std::string manifest(const std::string& version) {
    return "[distribution]\nname = \"ppy-vecmath\"\nversion = \"" + version +
           "\"\n[plugins.vecmath]\nmodules = [\"vecmath\"]\nstub = \"vecmath.pyi\"\n"
           "libraries = [\"lib/libvecmath.so\"]\n";
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  /// A project of main (imports geometry and words), geometry (imports vecmath), words.
  fs::path project(const std::string& pyproject) {
    write("app/pyproject.toml", pyproject);
    write("app/main.ppy", "import geometry\nimport words\n");
    write("app/geometry.ppy", "import vecmath\n");
    write("app/words.ppy", "import math\n");
    return root_ / "app";
  }
  static std::vector<std::string> names(const Project& p) {
    std::vector<std::string> out;
    for (const auto& m : p.modules) out.push_back(m.name);
    return out;
  }

  fs::path root_;
};

TEST_F(PluginModulesTest, AClaimedModuleTheProjectImportsIsThePluginsStub) {
  auto p = load_project(project("[tool.ppy]\n").string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(names(*p), ElementsAre("geometry", "main", "vecmath", "words"));
  const SourceModule* stub = p->module("vecmath");
  EXPECT_EQ(stub->path, (root_ / "dists/vecmath/vecmath.pyi").string());
  EXPECT_TRUE(is_plugin_stub(*stub));
  auto uses = plugin_uses(*p);
  ASSERT_EQ(uses.size(), 1u);
  const PluginUse& use = uses.at("vecmath");
  EXPECT_EQ(use.distribution, "ppy-vecmath");
  EXPECT_THAT(use.modules, ElementsAre("vecmath"));
  EXPECT_THAT(use.libraries, ElementsAre((root_ / "dists/vecmath/lib/libvecmath.so").string()));
  EXPECT_THAT(use.fingerprint, HasSubstr("ppy-vecmath 1.0; stub "));
  EXPECT_THAT(use.fingerprint, HasSubstr("; library libvecmath.so "));
}

TEST_F(PluginModulesTest, OnlyTheModulesImportingThePluginCarryItsFingerprint) {
  auto p = load_project(project("[tool.ppy]\n").string());
  ASSERT_TRUE(p.ok()) << p.status();
  auto uses = plugin_uses(*p);
  EXPECT_THAT(plugin_fingerprints_of(uses, *p->module("geometry")), ElementsAre(testing::Key("vecmath")));
  EXPECT_THAT(plugin_fingerprints_of(uses, *p->module("vecmath")), ElementsAre(testing::Key("vecmath")));
  EXPECT_THAT(plugin_fingerprints_of(uses, *p->module("main")), IsEmpty());
  EXPECT_THAT(plugin_fingerprints_of(uses, *p->module("words")), IsEmpty());
  // A new version, or another library build, is another fingerprint.
  std::string before = uses.at("vecmath").fingerprint;
  write("dists/vecmath/manifest.toml", manifest("1.1"));
  EXPECT_NE(plugin_uses(*p).at("vecmath").fingerprint, before);
  write("dists/vecmath/manifest.toml", manifest("1.0"));
  EXPECT_EQ(plugin_uses(*p).at("vecmath").fingerprint, before);
  write("dists/vecmath/lib/libvecmath.so", "another build");
  EXPECT_NE(plugin_uses(*p).at("vecmath").fingerprint, before);
}

TEST_F(PluginModulesTest, TheProjectsTableTurnsAPluginOff) {
  auto p = load_project(project("[tool.ppy.plugins.vecmath]\nenabled = false\n").string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(names(*p), ElementsAre("geometry", "main", "words"));
  EXPECT_THAT(disabled_plugins(*p), ElementsAre("vecmath"));
  EXPECT_THAT(plugin_uses(*p), IsEmpty());
  auto on = load_project(project("[tool.ppy.plugins.vecmath]\nenabled = true\n").string());
  ASSERT_TRUE(on.ok()) << on.status();
  EXPECT_NE(on->module("vecmath"), nullptr);
}

TEST_F(PluginModulesTest, AMalformedPluginTableIsE1201) {
  auto p = load_project(project("[tool.ppy.plugins.vecmath]\nenable = false\n").string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1201");
  EXPECT_THAT(p.status().message(), HasSubstr("[tool.ppy.plugins.vecmath]: the one key is 'enabled'"));
}

TEST_F(PluginModulesTest, TheProjectsOwnModuleShadowsAPlugins) {
  fs::path app = project("[tool.ppy]\n");
  write("app/vecmath.ppy", "def norm(a: list[float]) -> float:\n    return 1.0\n");
  auto p = load_project(app.string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(is_plugin_stub(*p->module("vecmath")));
  EXPECT_THAT(plugin_uses(*p), IsEmpty());
}

}  // namespace
}  // namespace ppy
