#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "ppy/host/discovery.h"

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace ppy::host {
namespace {

class PluginDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ppy-plugin-discovery-XXXXXX";
    root_ = mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string& dist_folder, const std::string& text) {
    fs::create_directories(root_ / dist_folder);
    std::ofstream(root_ / dist_folder / "manifest.toml") << text;
  }
  ManifestIndex scan() {
    std::vector<fs::path> path{root_};
    return ManifestIndex::scan(path);
  }
  static std::string dist(const std::string& name, const std::string& version) {
    return "[distribution]\nname = \"" + name + "\"\nversion = \"" + version + "\"\n";
  }

  fs::path root_;
};

TEST_F(PluginDiscoveryTest, ADistributionOfPluginsOnlyIsListedWithItsPathsResolved) {
  write("vecmath", dist("ppy-vecmath", "1.0") +
                       "[plugins.vecmath]\nmodules = [\"vecmath\"]\nstub = \"vecmath.pyi\"\n"
                       "libraries = [\"lib/libvecmath.so\"]\nexecutable = \"bin/ppy-plugin-vecmath\"\n"
                       "args = [\"-v\"]\n");
  ManifestIndex index = scan();
  EXPECT_THAT(index.problems(), IsEmpty());
  EXPECT_THAT(index.backends(), IsEmpty());
  ASSERT_EQ(index.plugins().size(), 1u);
  const PluginEntry& p = index.plugins()[0];
  EXPECT_EQ(p.name, "vecmath");
  EXPECT_EQ(p.distribution, "ppy-vecmath");
  EXPECT_EQ(p.version, "1.0");
  EXPECT_THAT(p.modules, ElementsAre("vecmath"));
  EXPECT_EQ(p.stub, root_ / "vecmath" / "vecmath.pyi");
  EXPECT_THAT(p.libraries, ElementsAre(root_ / "vecmath" / "lib" / "libvecmath.so"));
  EXPECT_EQ(p.executable, root_ / "vecmath" / "bin" / "ppy-plugin-vecmath");
  EXPECT_TRUE(p.real_executable.empty());  // no such file: discovery never starts it
  EXPECT_THAT(p.args, ElementsAre("-v"));
  EXPECT_EQ(index.plugin_for_module("vecmath"), &p);
  EXPECT_EQ(index.plugin_for_module("vecmath.sub"), &p);
  EXPECT_EQ(index.plugin_for_module("vecmathx"), nullptr);
  EXPECT_EQ(index.plugin("vecmath"), &p);
}

TEST_F(PluginDiscoveryTest, ABrokenPluginRejectsOnlyItself) {
  write("a", dist("ppy-a", "1") + "[plugins.good]\nmodules = [\"good\"]\nstub = \"good.pyi\"\n" +
                 "[plugins.bad]\nmodules = \"bad\"\nstub = \"bad.pyi\"\n" + "[plugins.nostub]\nmodules = [\"n\"]\n");
  write("b", "[distribution\nname = ");  // not TOML at all
  write("c", dist("ppy-c", "2") + "[plugins.other]\nmodules = [\"other\"]\nstub = \"o.pyi\"\n");
  ManifestIndex index = scan();
  ASSERT_EQ(index.plugins().size(), 2u);
  EXPECT_EQ(index.plugins()[0].name, "good");
  EXPECT_EQ(index.plugins()[1].name, "other");
  ASSERT_EQ(index.problems().size(), 3u);
  EXPECT_THAT(index.problems()[0], HasSubstr("the plugin 'bad' of ppy-a 1 ("));
  EXPECT_THAT(index.problems()[0], HasSubstr("'modules' must be an array of strings; it is ignored"));
  EXPECT_THAT(index.problems()[1], HasSubstr("the plugin 'nostub' of ppy-a 1"));
  EXPECT_THAT(index.problems()[1], HasSubstr("has no 'stub'"));
  EXPECT_THAT(index.problems()[2], HasSubstr("b/manifest.toml is malformed"));
}

TEST_F(PluginDiscoveryTest, AModuleTwoDistributionsClaimIsOwnedByNeither) {
  write("a", dist("ppy-a", "1") + "[plugins.pa]\nmodules = [\"shared\", \"mine\"]\nstub = \"a.pyi\"\n");
  write("b", dist("ppy-b", "2") + "[plugins.pb]\nmodules = [\"shared\"]\nstub = \"b.pyi\"\n");
  ManifestIndex index = scan();
  ASSERT_EQ(index.plugins().size(), 2u);
  EXPECT_EQ(index.plugin_for_module("shared"), nullptr);
  ASSERT_NE(index.plugin_for_module("mine"), nullptr);
  EXPECT_EQ(index.plugin_for_module("mine")->name, "pa");
  EXPECT_THAT(index.problems(), ElementsAre("the module 'shared' is claimed by more than one distribution "
                                            "(ppy-a 1, ppy-b 2); neither owns it"));
}

TEST_F(PluginDiscoveryTest, APluginNameTwoDistributionsRegisterIsUsedByNeither) {
  write("a", dist("ppy-a", "1") + "[plugins.p]\nmodules = [\"x\"]\nstub = \"a.pyi\"\n");
  write("b", dist("ppy-b", "2") + "[plugins.p]\nmodules = [\"y\"]\nstub = \"b.pyi\"\n");
  ManifestIndex index = scan();
  EXPECT_THAT(index.plugins(), IsEmpty());
  EXPECT_THAT(index.problems(), ElementsAre("plugin 'p' is registered by more than one distribution "
                                            "(ppy-a 1, ppy-b 2); uninstall all but one"));
}

TEST_F(PluginDiscoveryTest, ADistributionMayShipABackendAndAPlugin) {
  write("dev", dist("ppy-dev", "3") + "[backends.devbe]\nexecutable = \"bin/devbe\"\n" +
                   "[plugins.devlib]\nmodules = [\"devlib\"]\nstub = \"devlib.pyi\"\n");
  ManifestIndex index = scan();
  EXPECT_THAT(index.problems(), IsEmpty());
  ASSERT_EQ(index.backends().size(), 1u);
  ASSERT_EQ(index.plugins().size(), 1u);
  EXPECT_EQ(index.plugins()[0].distribution, "ppy-dev");
}

TEST_F(PluginDiscoveryTest, APluginRegistersDialectsAndItsBackendTakesThem) {
  write("dev", dist("ppy-dev", "3") + "[backends.devbe]\nexecutable = \"bin/devbe\"\ndialects = [\"devlib\"]\n" +
                   "[plugins.devlib]\nmodules = [\"devlib\"]\nstub = \"devlib.pyi\"\ndialects = [\"devlib\"]\n" +
                   "[plugins.bad]\nmodules = [\"bad\"]\nstub = \"bad.pyi\"\ndialects = [\"core\"]\n");
  ManifestIndex index = scan();
  ASSERT_EQ(index.backends().size(), 1u);
  EXPECT_THAT(index.backends()[0].dialects, ElementsAre("devlib"));
  ASSERT_EQ(index.plugins().size(), 1u);
  EXPECT_THAT(index.plugins()[0].dialects, ElementsAre("devlib"));
  ASSERT_EQ(index.problems().size(), 1u);
  EXPECT_THAT(index.problems()[0], HasSubstr("'core' is not a dialect a plugin may register"));
}

TEST_F(PluginDiscoveryTest, UnknownKeysAndBadModuleNamesAreRefusedByName) {
  write("a", dist("ppy-a", "1") + "[plugins.p]\nmodules = [\"x\"]\nstub = \"a.pyi\"\nlibrary = \"l.so\"\n" +
                 "[plugins.q]\nmodules = [\"1x\"]\nstub = \"q.pyi\"\n");
  ManifestIndex index = scan();
  EXPECT_THAT(index.plugins(), IsEmpty());
  ASSERT_EQ(index.problems().size(), 2u);
  EXPECT_THAT(index.problems()[0], HasSubstr("unknown key 'library'"));
  EXPECT_THAT(index.problems()[1], HasSubstr("'1x' is not a module name"));
}

}  // namespace
}  // namespace ppy::host
