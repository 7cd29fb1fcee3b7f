// Tests of the staged pass manager: order, verification, owners' codes, refusals.
#include "ppy/ir/pass.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/util/error.h"

namespace ppy::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

std::string msg(const absl::Status& s) { return std::string(s.message()); }

/// `func @<name>(%a: i64, %b: i64) -> i64 { %s = core.add %a, %b; core.ret %s }`
Function* add_adder(Module& m, std::string name) {
  Function* f = m.add_function(std::make_unique<Function>(
      std::move(name), std::vector<Param>{{Type::i64(), {}, "a"}, {Type::i64(), {}, "b"}},
      std::vector<Type>{Type::i64()}));
  Block* entry = f->create_entry_block();
  Operation* add = entry->append(Operation::create("core.add", {entry->argument(0), entry->argument(1)},
                                                   {Type::i64()}, {{"overflow", "wrap"}}));
  entry->append(Operation::create("core.ret", {add->result()}, {}));
  return f;
}

/// A valid module: an extern declaration and two definitions.
std::unique_ptr<Module> valid_module() {
  auto m = std::make_unique<Module>("m");
  Function* ext = m->add_function(std::make_unique<Function>(
      "ext", std::vector<Param>{{Type::i64(), {}, "x"}}, std::vector<Type>{Type::i64()}));
  ext->set_visibility(Visibility::Extern);
  add_adder(*m, "f");
  add_adder(*m, "g");
  return m;
}

/// Drops the terminator of @f's entry block: a block without a terminator.
void break_ir(Module& m) { m.function("f")->body().entry()->remove(1); }

/// Puts a `core.ret` back where break_ir took it.
void repair_ir(Module& m) {
  Block* entry = m.function("f")->body().entry();
  entry->append(Operation::create("core.ret", {entry->operations()[0]->result()}, {}));
}

/// A module pass that logs its name and may break, repair or fail.
class TestPass : public ModulePass {
 public:
  enum Action { Log, Break, Repair, Fail };
  TestPass(std::string name, std::vector<std::string>* log, Action action = Log)
      : name_(std::move(name)), log_(log), action_(action) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<bool> run_on_module(Module& m, const PassContext&) override {
    log_->push_back(name_);
    switch (action_) {
      case Log: return false;
      case Break: break_ir(m); return true;
      case Repair: repair_ir(m); return true;
      case Fail: return absl::InternalError("boom");
    }
    return false;
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
  Action action_;
};

std::unique_ptr<Pass> pass(std::string name, std::vector<std::string>* log,
                           TestPass::Action action = TestPass::Log) {
  return std::make_unique<TestPass>(std::move(name), log, action);
}

/// The contract's example pass: counts the ops of each function with a body.
class CountOps : public FunctionPass {
 public:
  explicit CountOps(std::vector<std::string>* seen = nullptr) : seen_(seen) {}
  std::string_view name() const override { return "toy-count-ops"; }
  absl::StatusOr<bool> run_on_function(Function& f, const PassContext&) override {
    if (seen_) seen_->push_back(f.name());
    int64_t n = 0;
    for (auto& b : f.body().blocks()) n += static_cast<int64_t>(b->operations().size());
    f.attributes().set("toy.ops", n);
    return f.name() == "g";  // only @g counts as changed
  }

 private:
  std::vector<std::string>* seen_;
};

// ---- Stages -------------------------------------------------------------

TEST(Stages, NamesRoundTripInOrder) {
  std::vector<std::string> names;
  for (Stage s : kAllStages) {
    names.emplace_back(stage_name(s));
    EXPECT_EQ(parse_stage(stage_name(s)), s);
  }
  EXPECT_THAT(names, ElementsAre("after-ir-generation", "after-canonicalization", "before-optimization",
                                 "after-optimization", "before-backend", "backend"));
  EXPECT_EQ(std::size(kAllStages), 6u);
  EXPECT_EQ(parse_stage("Backend"), std::nullopt);
  EXPECT_EQ(parse_stage("after_ir_generation"), std::nullopt);
  EXPECT_EQ(parse_stage(""), std::nullopt);
}

// ---- Ordering ---------------------------------------------------------------

TEST(PassManager, RunsByStageThenInsertionOrder) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::Backend, pass("be", &log), PassOwner::Backend, "toy").ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("opt1", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("gen1", &log), PassOwner::Plugin, "p").ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("opt2", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::BeforeBackend, pass("pre", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("gen2", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterCanonicalization, pass("canon", &log)).ok());

  using P = std::pair<Stage, std::string>;
  EXPECT_THAT(pm.schedule(),
              ElementsAre(P{Stage::AfterIRGeneration, "gen1"}, P{Stage::AfterIRGeneration, "gen2"},
                          P{Stage::AfterCanonicalization, "canon"}, P{Stage::AfterOptimization, "opt1"},
                          P{Stage::AfterOptimization, "opt2"}, P{Stage::BeforeBackend, "pre"},
                          P{Stage::Backend, "be"}));
  auto m = valid_module();
  ASSERT_TRUE(pm.run(*m).ok());
  EXPECT_THAT(log, ElementsAre("gen1", "gen2", "canon", "opt1", "opt2", "pre", "be"));
}

TEST(PassManager, RunsOnlyTheStagesAsked) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("gen", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("opt", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::BeforeBackend, pass("pre", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::Backend, pass("be", &log), PassOwner::Backend, "toy").ok());
  auto m = valid_module();
  ASSERT_TRUE(pm.run(*m, Stage::AfterIRGeneration, Stage::BeforeBackend).ok());
  EXPECT_THAT(log, ElementsAre("gen", "opt", "pre"));
  log.clear();
  ASSERT_TRUE(pm.run(*m, Stage::Backend, Stage::Backend).ok());
  EXPECT_THAT(log, ElementsAre("be"));
  log.clear();
  ASSERT_TRUE(pm.run(*m, Stage::BeforeOptimization, Stage::AfterOptimization).ok());
  EXPECT_THAT(log, ElementsAre("opt"));
}

TEST(PassManager, ReportsEachStageAfterItsPasses) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterCanonicalization, pass("canon", &log)).ok());
  pm.set_after_stage([&](Stage s, const Module& m) {
    log.push_back(std::string("after ") + std::string(stage_name(s)));
    EXPECT_EQ(m.name(), "m");
  });
  auto m = valid_module();
  ASSERT_TRUE(pm.run(*m, Stage::AfterIRGeneration, Stage::BeforeOptimization).ok());
  EXPECT_THAT(log, ElementsAre("after after-ir-generation", "canon", "after after-canonicalization",
                               "after before-optimization"));
}

TEST(PassManager, ThePassesErrorIsReturnedAsIsAndStopsTheRun) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("first", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterCanonicalization, pass("failing", &log, TestPass::Fail)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("never", &log)).ok());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(s, absl::InternalError("boom"));
  EXPECT_THAT(log, ElementsAre("first", "failing"));
}

// ---- FunctionPass -------------------------------------------------------------

TEST(FunctionPass, SeesDefinitionsOnlyAndOrsTheChanges) {
  std::vector<std::string> seen;
  CountOps count(&seen);
  auto m = valid_module();
  absl::StatusOr<bool> changed = count.run_on_module(*m, PassContext{});
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  EXPECT_THAT(seen, ElementsAre("f", "g"));
  EXPECT_FALSE(m->function("ext")->attributes().has("toy.ops"));
  EXPECT_EQ(m->function("f")->attributes().get("toy.ops")->as_int(), 2);

  m->function("g")->set_name("h");  // nothing reports a change now
  absl::StatusOr<bool> again = count.run_on_module(*m, PassContext{});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(FunctionPass, RunsAtTheBackendStageForABackend) {
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::Backend, std::make_unique<CountOps>(), PassOwner::Backend, "toy").ok());
  auto m = valid_module();
  ASSERT_TRUE(pm.run(*m).ok());
  EXPECT_EQ(m->function("g")->attributes().get("toy.ops")->as_int(), 2);
}

// ---- Verification -------------------------------------------------------------

TEST(PassManager, VerifiesBeforeTheFirstPass) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("never", &log)).ok());
  auto m = valid_module();
  break_ir(*m);
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1901");
  EXPECT_THAT(msg(s), HasSubstr("the IR handed to the passes is invalid: function @f"));
  EXPECT_THAT(log, IsEmpty());

  PassManager empty;  // verified even with nothing to run
  EXPECT_EQ(ppy::error_code(empty.run(*m)), "E1901");
  repair_ir(*m);
  EXPECT_TRUE(empty.run(*m).ok());
}

TEST(PassManager, SharedPassesAreVerifiedAfterTheLastOnly) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_FALSE(pm.verify_each());
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("break", &log, TestPass::Break)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("repair", &log, TestPass::Repair)).ok());
  auto m = valid_module();
  EXPECT_TRUE(pm.run(*m).ok());  // broken in between, valid at the end
  EXPECT_THAT(log, ElementsAre("break", "repair"));
}

TEST(PassManager, AfterTheLastPassTheOnlyPassIsNamed) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterCanonicalization, pass("canon-break", &log, TestPass::Break)).ok());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1901");
  EXPECT_THAT(msg(s), StartsWith("pass 'canon-break' left the IR invalid: function @f, block ^entry"));
}

TEST(PassManager, AfterTheLastPassSeveralSharedPassesAreListed) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("a", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("b", &log, TestPass::Break)).ok());
  ASSERT_TRUE(pm.add(Stage::BeforeBackend, pass("c", &log)).ok());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1901");
  EXPECT_THAT(msg(s), HasSubstr("the IR is invalid after passes 'a', 'b', 'c'"));
  EXPECT_THAT(log, ElementsAre("a", "b", "c"));

  // With verify_each the one that broke it is named, and the rest do not run.
  log.clear();
  pm.set_verify_each(true);
  auto again = valid_module();
  s = pm.run(*again);
  EXPECT_EQ(ppy::error_code(s), "E1901");
  EXPECT_THAT(msg(s), StartsWith("pass 'b' left the IR invalid: "));
  EXPECT_THAT(log, ElementsAre("a", "b"));
}

TEST(PassManager, ABackendPassThatBreaksTheIRIsNamedWithE1904) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("gen", &log)).ok());
  ASSERT_TRUE(pm.add(Stage::Backend, pass("toy-break", &log, TestPass::Break), PassOwner::Backend, "toy").ok());
  ASSERT_TRUE(pm.add(Stage::Backend, pass("toy-repair", &log, TestPass::Repair), PassOwner::Backend, "toy").ok());
  EXPECT_TRUE(pm.verify_each());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1904");
  EXPECT_THAT(msg(s), StartsWith("backend pass 'toy-break' left the IR invalid: function @f, "
                                      "block ^entry"));
  EXPECT_THAT(msg(s), HasSubstr("terminator"));
  EXPECT_THAT(log, ElementsAre("gen", "toy-break"));  // the repair never ran
}

TEST(PassManager, APluginPassThatBreaksTheIRIsNamedWithE1902) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterCanonicalization, pass("plug-break", &log, TestPass::Break),
                     PassOwner::Plugin, "vendor")
                  .ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("repair", &log, TestPass::Repair)).ok());
  EXPECT_TRUE(pm.verify_each());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1902");
  EXPECT_THAT(msg(s), StartsWith("plugin pass 'plug-break' left the IR invalid: "));
}

TEST(PassManager, WithAPluginPassASharedPassThatBreaksTheIRIsNamedWithE1901) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::AfterIRGeneration, pass("plug", &log), PassOwner::Plugin, "vendor").ok());
  ASSERT_TRUE(pm.add(Stage::AfterOptimization, pass("shared-break", &log, TestPass::Break)).ok());
  ASSERT_TRUE(pm.add(Stage::BeforeBackend, pass("repair", &log, TestPass::Repair)).ok());
  auto m = valid_module();
  absl::Status s = pm.run(*m);
  EXPECT_EQ(ppy::error_code(s), "E1901");
  EXPECT_THAT(msg(s), StartsWith("pass 'shared-break' left the IR invalid: "));
  EXPECT_THAT(log, ElementsAre("plug", "shared-break"));
}

TEST(PassManager, VerifyEachCannotBeTurnedOffOnceAnExtensionPassIsAdded) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_TRUE(pm.add(Stage::Backend, pass("toy-break", &log, TestPass::Break), PassOwner::Backend, "toy").ok());
  pm.set_verify_each(false);
  EXPECT_TRUE(pm.verify_each());
}

// ---- Stage refusals -------------------------------------------------------------

TEST(PassManager, ABackendPassIsRefusedAtEveryStageButBackend) {
  std::vector<std::string> log;
  for (Stage st : kAllStages) {
    if (st == Stage::Backend) continue;
    PassManager pm;
    absl::Status s = pm.add(st, pass("toy-early", &log), PassOwner::Backend, "toy");
    EXPECT_EQ(ppy::error_code(s), "E1802") << stage_name(st);
    EXPECT_THAT(msg(s), StartsWith(std::string("backend 'toy' registers a pass at the '") +
                                        std::string(stage_name(st)) + "' stage: "));
    EXPECT_THAT(msg(s), HasSubstr("'toy-early'"));
    EXPECT_THAT(msg(s), HasSubstr("`BackendPassRegistrar.add(factory)` is how one is hung there"));
    EXPECT_THAT(pm.schedule(), IsEmpty());
    EXPECT_FALSE(pm.verify_each());  // nothing was added
  }
}

TEST(PassManager, OnlyABackendReachesTheBackendStage) {
  std::vector<std::string> log;
  PassManager pm;
  absl::Status plugin = pm.add(Stage::Backend, pass("plug-late", &log), PassOwner::Plugin, "vendor");
  EXPECT_EQ(ppy::error_code(plugin), "E1902");
  EXPECT_THAT(msg(plugin), HasSubstr("plugin 'vendor' registers pass 'plug-late' at the 'backend' stage"));
  absl::Status shared = pm.add(Stage::Backend, pass("shared-late", &log));
  EXPECT_EQ(ppy::error_code(shared), "E1901");
  EXPECT_THAT(msg(shared), HasSubstr("shared pass 'shared-late' is registered at the 'backend' stage"));
  EXPECT_THAT(pm.schedule(), IsEmpty());
  for (Stage st : kAllStages)
    if (st != Stage::Backend) EXPECT_TRUE(pm.add(st, pass("plug", &log), PassOwner::Plugin, "vendor").ok());
  EXPECT_EQ(pm.schedule().size(), 5u);
  EXPECT_EQ(pm.add(Stage::AfterIRGeneration, nullptr).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ppy::ir
