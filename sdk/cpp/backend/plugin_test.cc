// The plugin class's own contract: the passes it describes and the manifest
// `--print-manifest` prints from it.
#include "ppy/backend/plugin.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ppy {
namespace {

class Noop final : public ir::ModulePass {
 public:
  std::string_view name() const override { return "noop"; }
  absl::StatusOr<bool> run_on_module(ir::Module&, const ir::PassContext&) override { return false; }
};

class Sample final : public Plugin {
 public:
  explicit Sample(Distribution d, std::string name = "sample") : dist_(std::move(d)), name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  Distribution distribution() const override { return dist_; }
  void register_passes(PluginPassRegistrar& passes) const override {
    passes.add<Noop>(ir::Stage::AfterIRGeneration);
    passes.add<Noop>(ir::Stage::BeforeBackend);
  }

 private:
  Distribution dist_;
  std::string name_;
};

TEST(PluginClass, DescribesEachPassWithTheStageItAsksFor) {
  std::vector<PassInfo> passes = describe_passes(Sample({"ppy-sample", "1.0"}));
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].name, "noop");
  EXPECT_EQ(passes[0].stage, "after-ir-generation");
  EXPECT_EQ(passes[1].stage, "before-backend");
  EXPECT_EQ(Sample({"d", "1"}).api_version(), std::nullopt);  // declared by the vendor, never inherited
}

TEST(PluginClass, TheManifestNamesTheDistributionThePluginAndItsExecutable) {
  absl::StatusOr<std::string> toml = manifest_toml(Sample({"ppy-sample", "1.0"}), "ppy-plugin-sample");
  ASSERT_TRUE(toml.ok()) << toml.status();
  EXPECT_THAT(*toml, ::testing::HasSubstr("[distribution]\nname = \"ppy-sample\"\nversion = \"1.0\"\n\n"
                                          "[plugins.sample]\nexecutable = \"ppy-plugin-sample\"\n"));
  // The [plugins.NAME] table is last: ppy_add_plugin appends its modules, stub and libraries.
  EXPECT_TRUE(toml->ends_with("executable = \"ppy-plugin-sample\"\n"));
}

TEST(PluginClass, NoManifestWithoutADistributionOrWithABadName) {
  EXPECT_FALSE(manifest_toml(Sample({"", "1.0"}), "x").ok());
  EXPECT_FALSE(manifest_toml(Sample({"d", ""}), "x").ok());
  absl::StatusOr<std::string> bad = manifest_toml(Sample({"d", "1"}, "a b"), "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("'a b' is not a plugin name"));
}

}  // namespace
}  // namespace ppy
