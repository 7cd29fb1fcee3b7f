#include "ppy/pipeline/pipeline.h"

#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/pipeline/passes.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

constexpr std::string_view kLocals = R"(ppyir 1
module @t

func @t_sq(%x: i64) -> i64 {
^entry:
    %s = core.alloca : ptr<i64, stack>
    core.store %x, %s
    %v = core.load %s : i64
    %y = core.mul %v, %v {overflow = "python"} : i64
    core.ret %y
}

func @t_main() -> i64 {
^entry:
    %three = core.const 3 : i64
    %a = core.call %three {callee = @t_sq} : i64
    %t = core.const true : bool
    core.cond_br %t, ^yes, ^no
^yes:
    core.ret %a
^no:
    %z = core.const 0 : i64
    core.ret %z
}
)";

TEST(Pipeline, LevelsDecideThePasses) {
  auto names = [](int level) {
    std::string out;
    for (auto& p : shared_optimization_passes(level)) ppy::str_append(out, out.empty() ? "" : ",", p->name());
    return out;
  };
  EXPECT_EQ(names(0), "");
  EXPECT_EQ(names(1), "mem2reg,canonicalize,simplify-cfg,dce,canonicalize,int-range");
  EXPECT_EQ(names(2),
            "mem2reg,canonicalize,simplify-cfg,dce,canonicalize,inline,mem2reg,canonicalize,simplify-cfg,cse,dce,"
            "canonicalize,int-range");
}

TEST(Pipeline, O0OnlyCanonicalizesAndO2FoldsEverything) {
  auto m0 = testing::parse(kLocals);
  ASSERT_TRUE(optimize_shared_ir(*m0, 0).ok());
  std::string t0 = ir::print_module(*m0);
  EXPECT_NE(t0.find("core.alloca"), std::string::npos);
  EXPECT_NE(t0.find("core.br ^yes"), std::string::npos);

  auto m2 = testing::parse(kLocals);
  ASSERT_TRUE(optimize_shared_ir(*m2, 2).ok());
  std::string t2 = ir::print_module(*m2);
  size_t main_at = t2.find("func @t_main");
  ASSERT_NE(main_at, std::string::npos);
  EXPECT_EQ(t2.substr(main_at),
            "func @t_main() -> i64 {\n^entry:\n    %y = core.const 9 : i64\n    core.ret %y\n}\n");
}

TEST(Pipeline, StagesRunInTheContractsOrder) {
  ir::PassManager pm;
  PipelineOptions options;
  options.opt_level = 1;
  ASSERT_TRUE(build_shared_pipeline(pm, options).ok());
  auto sched = pm.schedule();
  ASSERT_FALSE(sched.empty());
  EXPECT_EQ(sched.front().first, ir::Stage::AfterCanonicalization);
  EXPECT_EQ(sched.front().second, "canonicalize");
  EXPECT_EQ(sched.back().first, ir::Stage::AfterOptimization);
}

/// A pass that does nothing but record that it ran.
class Probe : public ir::ModulePass {
 public:
  Probe(std::string name, std::vector<std::string>* log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<bool> run_on_module(ir::Module&, const ir::PassContext&) override {
    log_->push_back(name_);
    return false;
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

/// A pass that leaves a block without a terminator.
class Breaker : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "break-it"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    f.body().add_block("broken");
    return true;
  }
};

class TestPlugin : public Plugin {
 public:
  TestPlugin(std::string name, ir::Stage stage, std::vector<std::string>* log, bool breaks = false)
      : name_(std::move(name)), stage_(stage), log_(log), breaks_(breaks) {}
  std::string_view name() const override { return name_; }
  std::string fingerprint() const override { return name_ + ":1"; }
  void register_passes(PluginPassRegistrar& passes) override {
    if (breaks_)
      (void)passes.add(stage_, std::make_unique<Breaker>());
    else
      (void)passes.add(stage_, std::make_unique<Probe>(name_ + "-pass", log_));
  }

 private:
  std::string name_;
  ir::Stage stage_;
  std::vector<std::string>* log_;
  bool breaks_;
};

TEST(Plugins, PassesRunAtTheirStagesAfterTheSharedOnes) {
  std::vector<std::string> log;
  TestPlugin late("late", ir::Stage::BeforeBackend, &log);
  TestPlugin early("early", ir::Stage::AfterIRGeneration, &log);
  TestPlugin canon("canon", ir::Stage::AfterCanonicalization, &log);
  ir::PassManager pm;
  PipelineOptions options;
  options.opt_level = 1;
  options.plugins = {&late, &early, &canon};
  ASSERT_TRUE(build_shared_pipeline(pm, options).ok());
  std::vector<std::string> order;
  for (auto& [stage, name] : pm.schedule()) order.push_back(name);
  ASSERT_GE(order.size(), 4u);
  EXPECT_EQ(order[0], "early-pass");
  EXPECT_EQ(order[1], "canonicalize");
  EXPECT_EQ(order[2], "canon-pass");
  EXPECT_EQ(order.back(), "late-pass");
  auto m = testing::parse(kLocals);
  ASSERT_TRUE(pm.run(*m).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"early-pass", "canon-pass", "late-pass"}));
  EXPECT_EQ(plugin_fingerprints({&late, &early}), (std::vector<std::string>{"late=late:1", "early=early:1"}));
}

TEST(Plugins, BackendStageIsRefusedByName) {
  std::vector<std::string> log;
  TestPlugin sneaky("sneaky", ir::Stage::Backend, &log);
  ir::PassManager pm;
  PipelineOptions options;
  options.plugins = {&sneaky};
  absl::Status s = build_shared_pipeline(pm, options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ppy::error_code(s), "E1902");
  EXPECT_NE(s.message().find("plugin 'sneaky'"), absl::string_view::npos) << s;
  EXPECT_NE(s.message().find("'backend' stage"), absl::string_view::npos) << s;
}

TEST(Plugins, ABreakingPluginPassIsNamedE1902) {
  TestPlugin bad("bad", ir::Stage::AfterOptimization, nullptr, /*breaks=*/true);
  ir::PassManager pm;
  PipelineOptions options;
  options.plugins = {&bad};
  ASSERT_TRUE(build_shared_pipeline(pm, options).ok());
  auto m = testing::parse(kLocals);
  absl::Status s = pm.run(*m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ppy::error_code(s), "E1902");
  EXPECT_NE(s.message().find("break-it"), absl::string_view::npos) << s;
}

TEST(Passes, ByName) {
  for (auto& n : shared_pass_names()) {
    auto p = create_pass(n);
    ASSERT_TRUE(p.ok()) << n;
    EXPECT_EQ((*p)->name(), n);
  }
  auto none = create_pass("nope");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no shared pass is called 'nope'"), absl::string_view::npos);
}

}  // namespace
}  // namespace ppy::pipeline
