// The plugin conformance checks against plugins served in this process: one
// that keeps the contract, and ones that break it in a way a check must see.
#include "ppy/backend/plugin_conformance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ppy::conformance {
namespace {

bool g_break = false;

/// Doubles nothing, tags the module; with g_break adds a second terminator.
class TagPass final : public ir::ModulePass {
 public:
  std::string_view name() const override { return "tag"; }
  absl::StatusOr<bool> run_on_module(ir::Module& m, const ir::PassContext&) override {
    m.attributes().set("test.tagged", true);
    if (g_break)
      for (auto& f : m.functions())
        if (!f->is_declaration()) f->body().entry()->append(ir::Operation::create("core.ret", {}, {}));
    return true;
  }
};

class TestPlugin final : public Plugin {
 public:
  explicit TestPlugin(ir::Stage stage) : stage_(stage) {}
  std::string_view name() const override { return "tagger"; }
  std::optional<int> api_version() const override { return 1; }
  Distribution distribution() const override { return {"ppy-tagger", "1.0"}; }
  std::string fingerprint() const override { return "tagger-1"; }
  void register_passes(PluginPassRegistrar& passes) const override { passes.add<TagPass>(stage_); }

 private:
  ir::Stage stage_;
};

std::vector<Check> check(ir::Stage stage, bool breaks) {
  g_break = breaks;
  Settings settings;
  settings.name = "tagger";
  return run_plugin_conformance_in_process([stage](const Options&) { return std::make_unique<TestPlugin>(stage); },
                                           settings);
}

std::string lines(const std::vector<Check>& checks) {
  std::string out;
  for (const Check& c : checks) out += c.line() + "\n";
  return out;
}

TEST(PluginConformance, APluginThatKeepsTheContractPassesEveryCheck) {
  std::vector<Check> checks = check(ir::Stage::AfterOptimization, false);
  EXPECT_TRUE(all_passed(checks)) << lines(checks);
  EXPECT_THAT(lines(checks), ::testing::HasSubstr("ok   pass tag:"));
  EXPECT_THAT(lines(checks), ::testing::HasSubstr("ok   unknown pass:"));
}

TEST(PluginConformance, APassThatBreaksTheIrFailsItsCheck) {
  std::vector<Check> checks = check(ir::Stage::AfterOptimization, true);
  EXPECT_FALSE(all_passed(checks));
  EXPECT_THAT(lines(checks), ::testing::HasSubstr("FAIL pass tag:"));
}

TEST(PluginConformance, APassAtTheBackendStageFailsTheHandshake) {
  std::vector<Check> checks = check(ir::Stage::Backend, false);
  ASSERT_FALSE(checks.empty());
  EXPECT_TRUE(checks[0].failed()) << lines(checks);
  EXPECT_THAT(checks[0].got, ::testing::HasSubstr("pass 'tag' at 'backend'"));
}

}  // namespace
}  // namespace ppy::conformance
