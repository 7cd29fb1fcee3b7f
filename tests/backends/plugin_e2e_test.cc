// End-to-end tests of plugins whose passes run out of process: the hostile
// plugin (tests/backends/hostile_plugin_main.cc), spawned the way the driver
// spawns backend helpers, through the pipeline's plugin API.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/host/plugin_handle.h"
#include "ppy/ir/testing.h"
#include "ppy/ir/verifier.h"
#include "ppy/pipeline/pipeline.h"
#include "ppy/plugin_host/remote_plugin.h"
#include "ppy/plugin_host/started_plugins.h"
#include "ppy/util/error.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

namespace ppy::plugin_host {
namespace {

const fs::path kHostilePlugin = fs::path(PPY_HOST_TEST_DIR) / "hostile-plugin" / "ppy-test-hostile-plugin";

host::PluginLaunch hostile(std::vector<std::string> args, host::HostSettings settings = {}) {
  host::PluginLaunch l;
  l.name = "hostile-plugin";
  l.distribution = "ppy-hostile";
  l.version = "6.6";
  l.manifest = fs::path(PPY_HOST_TEST_DIR) / "hostile-plugin" / "manifest.toml";
  l.executable = kHostilePlugin;
  l.args = std::move(args);
  l.settings = settings;
  return l;
}

host::HostSettings short_calls() {
  host::HostSettings s;
  s.timeout = 300ms;
  s.handshake_timeout = 10000ms;
  return s;
}

/// The shared pipeline at -O1 with the plugin's passes, over a small module.
absl::Status run_pipeline(host::PluginHandle* handle, ir::Module& m) {
  std::shared_ptr<host::PluginHandle> shared(handle, [](host::PluginHandle*) {});
  RemotePlugin plugin(shared);
  ir::PassManager pm;
  pipeline::PipelineOptions options;
  options.opt_level = 1;
  options.plugins = {&plugin};
  if (absl::Status s = pipeline::build_shared_pipeline(pm, options); !s.ok()) return s;
  return pm.run(m);
}

TEST(RemotePlugin, HandshakeSaysWhoItIsAndWhereItsPassRuns) {
  auto h = host::PluginHandle::connect(hostile({}));
  ASSERT_TRUE(h.ok()) << h.status();
  const host::PluginInfo& info = (*h)->info();
  EXPECT_EQ(info.name, "hostile-plugin");
  EXPECT_EQ(info.api_version, 1);
  EXPECT_EQ(info.fingerprint, "hostile-plugin-fp");
  ASSERT_EQ(info.passes.size(), 1u);
  EXPECT_EQ(info.passes[0].name, "hostile-tag");
  EXPECT_EQ(info.passes[0].stage, "after-optimization");
  EXPECT_THAT(info.sdk, HasSubstr("ppy-sdk-cpp"));
}

TEST(RemotePlugin, ItsPassRunsInItsProcessAtItsStageAndTheModuleComesBack) {
  auto h = host::PluginHandle::connect(hostile({}));
  ASSERT_TRUE(h.ok()) << h.status();
  std::shared_ptr<host::PluginHandle> shared = std::move(*h);
  RemotePlugin plugin(shared);
  ir::PassManager pm;
  pipeline::PipelineOptions options;
  options.plugins = {&plugin};
  ASSERT_TRUE(pipeline::build_shared_pipeline(pm, options).ok());
  auto sched = pm.schedule();
  EXPECT_EQ(sched.back(), std::make_pair(ir::Stage::AfterOptimization, std::string("hostile-tag")));
  auto m = ir::testing::small_module("m");
  ASSERT_TRUE(pm.run(*m).ok());
  EXPECT_TRUE(m->attributes().get("hostile.tagged") != nullptr);
  EXPECT_EQ(m->name(), "m");
  ASSERT_NE(m->function("f"), nullptr);
  EXPECT_TRUE(ir::verify(*m).empty());
  // Twice over one process: a plugin serves many passes.
  auto m2 = ir::testing::small_module("m2");
  ASSERT_TRUE(pm.run(*m2).ok());
  EXPECT_EQ(m2->name(), "m2");
}

TEST(RemotePlugin, PpyAddPluginsManifestIsFoundByDiscoveryAndStarts) {
  std::vector<fs::path> manifests{fs::path(PPY_HOST_TEST_DIR) / "hostile-plugin" / "manifest.toml"};
  host::ManifestIndex index = host::ManifestIndex::from_manifests(manifests);
  const host::PluginEntry* entry = index.plugin("hostile-plugin");
  ASSERT_NE(entry, nullptr) << ::testing::PrintToString(index.problems());
  EXPECT_EQ(entry->distribution, "ppy-hostile");
  EXPECT_EQ(entry->version, "6.6");
  EXPECT_EQ(entry->modules, (std::vector<std::string>{"hostile_mod", "hostile_mod2"}));
  EXPECT_EQ(entry->stub.filename(), "hostile_mod.pyi");
  EXPECT_TRUE(fs::exists(entry->stub));
  EXPECT_EQ(entry->executable, kHostilePlugin);
  EXPECT_EQ(index.plugin_for_module("hostile_mod"), entry);
  auto h = host::PluginHandle::connect(host::plugin_launch(*entry));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ((*h)->info().origin, entry->origin());
}

TEST(RemotePlugin, ACrashDuringAPassIsE1905NamingThePluginAndThePass) {
  auto h = host::PluginHandle::connect(hostile({"--crash-at", "pass"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = ir::testing::small_module("m");
  absl::Status s = run_pipeline(h->get(), *m);
  EXPECT_EQ(error_code(s), "E1905");
  EXPECT_THAT(error_text(s), HasSubstr("plugin 'hostile-plugin' (ppy-hostile 6.6 ("));
  EXPECT_THAT(error_text(s), HasSubstr("failed during pass 'hostile-tag' (after-optimization): it crashed"));
  EXPECT_THAT(error_text(s), HasSubstr("SIGSEGV"));
  EXPECT_THAT(error_text(s), HasSubstr("hostile-plugin: crashing in pass"));
  // The handle says so again without a call; another plugin process works.
  absl::Status again = run_pipeline(h->get(), *m);
  EXPECT_EQ(error_code(again), "E1905");
  auto fresh = host::PluginHandle::connect(hostile({}));
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  EXPECT_TRUE(run_pipeline(fresh->get(), *m).ok());
}

TEST(RemotePlugin, ACrashAtTheHandshakeIsE1905) {
  auto h = host::PluginHandle::connect(hostile({"--crash-at", "handshake"}));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(error_code(h.status()), "E1905");
  EXPECT_THAT(error_text(h.status()), HasSubstr("plugin 'hostile-plugin'"));
  EXPECT_THAT(error_text(h.status()), HasSubstr("failed during handshake: it crashed"));
}

TEST(RemotePlugin, AnExitDuringAPassIsE1905WithTheStatus) {
  auto h = host::PluginHandle::connect(hostile({"--exit-at", "pass"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = ir::testing::small_module("m");
  absl::Status s = run_pipeline(h->get(), *m);
  EXPECT_EQ(error_code(s), "E1905");
  EXPECT_THAT(error_text(s), HasSubstr("exited with status 3"));
}

TEST(RemotePlugin, AHangPastTheDeadlineIsE1905AndThePluginIsStopped) {
  auto h = host::PluginHandle::connect(hostile({"--hang-at", "pass"}, short_calls()));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = ir::testing::small_module("m");
  auto t0 = std::chrono::steady_clock::now();
  absl::Status s = run_pipeline(h->get(), *m);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(error_code(s), "E1905");
  EXPECT_THAT(error_text(s), HasSubstr("did not answer within 300 ms"));
  EXPECT_THAT(error_text(s), HasSubstr("hostile-plugin: hanging in pass"));
  EXPECT_FALSE((*h)->process()->poll().running());
}

TEST(RemotePlugin, APassThatBreaksTheIrIsE1902NamingThePass) {
  auto h = host::PluginHandle::connect(hostile({"--break-ir"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = ir::testing::small_module("m");
  absl::Status s = run_pipeline(h->get(), *m);
  EXPECT_EQ(error_code(s), "E1902");
  EXPECT_THAT(error_text(s), HasSubstr("'hostile-tag'"));
}

TEST(RemotePlugin, APassThatFailsIsE1902NamingThePass) {
  auto h = host::PluginHandle::connect(hostile({"--fail"}));
  ASSERT_TRUE(h.ok()) << h.status();
  auto m = ir::testing::small_module("m");
  absl::Status s = run_pipeline(h->get(), *m);
  EXPECT_EQ(error_code(s), "E1902");
  EXPECT_THAT(error_text(s), HasSubstr("plugin pass 'hostile-tag'"));
  EXPECT_THAT(error_text(s), HasSubstr("hostile-tag refuses this module"));
}

TEST(RemotePlugin, APassAskingForTheBackendStageIsRefusedByName) {
  auto h = host::PluginHandle::connect(hostile({"--stage", "backend"}));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(error_code(h.status()), "E1902");
  EXPECT_THAT(error_text(h.status()),
              HasSubstr("plugin 'hostile-plugin' registers pass 'hostile-tag' at the 'backend' stage"));
}

TEST(RemotePlugin, APluginThatDeclaresNoApiVersionIsRefused) {
  auto h = host::PluginHandle::connect(hostile({"--api-version", "none"}));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(error_code(h.status()), "E1903");
  EXPECT_THAT(error_text(h.status()), HasSubstr("does not declare the plugin API version"));
  auto old = host::PluginHandle::connect(hostile({"--api-version", "99"}));
  ASSERT_FALSE(old.ok());
  EXPECT_THAT(error_text(old.status()), HasSubstr("declares plugin API version 99"));
}

TEST(StartedPlugins, ImportStatementsNameTheModulesAsWritten) {
  EXPECT_EQ(imported_modules("import a.b as c, d\nx = 1  # import no\n  from e.f import g\nfrom . import h\n"),
            (std::vector<std::string>{"a.b", "d", "e.f"}));
}

TEST(StartedPlugins, APluginStartsOnlyForAProgramThatImportsAModuleItClaims) {
  std::vector<fs::path> manifests{fs::path(PPY_HOST_TEST_DIR) / "hostile-plugin" / "manifest.toml"};
  host::ManifestIndex index = host::ManifestIndex::from_manifests(manifests);
  auto none = start_plugins_for(index, {"import math\n", "from os import path\n"});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->plugins.empty());
  auto started = start_plugins_for(index, {"import math\n", "from hostile_mod2 import tagged\n"});
  ASSERT_TRUE(started.ok()) << started.status();
  ASSERT_EQ(started->plugins.size(), 1u);
  // Its passes run over the modules that import what it claims, and no other.
  EXPECT_EQ(started->for_source("from hostile_mod2.sub import tagged\n").size(), 1u);
  EXPECT_TRUE(started->for_source("import math\nimport hostile_mod2x\n").empty());
  ir::PassManager pm;
  pipeline::PipelineOptions options;
  options.plugins = started->list();
  ASSERT_TRUE(pipeline::build_shared_pipeline(pm, options).ok());
  auto m = ir::testing::small_module("m");
  ASSERT_TRUE(pm.run(*m).ok());
  EXPECT_TRUE(m->attributes().has("hostile.tagged"));
}

/// `axpy(alpha, x, y)` then `norm(y)` as the vecmath stub lowers them once
/// inlined: each list crosses as its data pointer and its length.
std::unique_ptr<ir::Module> axpy_then_norm(bool something_between) {
  auto m = std::make_unique<ir::Module>("app");
  ir::Type list = ir::Type::ptr(ir::Type::f64());
  ir::Function* f = m->add_function(std::make_unique<ir::Function>(
      "app_f", std::vector<ir::Param>{{ir::Type::f64()}, {list}, {list}}, std::vector<ir::Type>{ir::Type::f64()}));
  ir::Block* b = f->create_entry_block();
  auto op = [&](std::string_view name, std::vector<ir::Value*> args, std::vector<ir::Type> results,
                ir::AttrDict attrs = {}) {
    return b->append(ir::Operation::create(name, args, results, std::move(attrs)));
  };
  auto ext = [](std::string_view symbol) {
    ir::AttrDict a;
    a.set("abi", "c");
    a.set("callee", symbol);
    a.set("library", "vecmath");
    return a;
  };
  ir::Value* x = b->argument(1);
  ir::Value* y = b->argument(2);
  ir::Value* xd = op("core.buffer_data", {x}, {list})->result(0);
  ir::Value* xl = op("core.buffer_len", {x}, {ir::Type::index()})->result(0);
  ir::Value* yd = op("core.buffer_data", {y}, {list})->result(0);
  ir::Value* yl = op("core.buffer_len", {y}, {ir::Type::index()})->result(0);
  op("core.call_extern", {b->argument(0), xd, xl, yd, yl}, {}, ext("vecmath_axpy"));
  if (something_between) op("core.call_extern", {yd, yl}, {}, ext("vecmath_scale"));
  ir::Value* yd2 = op("core.buffer_data", {y}, {list})->result(0);
  ir::Value* yl2 = op("core.buffer_len", {y}, {ir::Type::index()})->result(0);
  ir::Value* n = op("core.call_extern", {yd2, yl2}, {ir::Type::f64()}, ext("vecmath_norm"))->result(0);
  op("core.ret", {n}, {});
  return m;
}

std::vector<std::string> callees(const ir::Module& m) {
  std::vector<std::string> out;
  for (auto& op : m.functions()[0]->body().entry()->operations())
    if (op->name() == "core.call_extern") out.push_back(op->attr("callee")->as_string());
  return out;
}

TEST(VecmathPasses, AxpyThenNormOfItsResultBecomesOneCallOutOfProcess) {
  host::PluginLaunch launch;
  launch.name = "vecmath";
  launch.executable = fs::path(PPY_HOST_TEST_DIR) / "plugin-cases" / "vecmath-passes" / "ppy-test-vecmath-passes";
  auto h = host::PluginHandle::connect(launch);
  ASSERT_TRUE(h.ok()) << h.status();
  ASSERT_EQ((*h)->info().passes.size(), 1u);
  EXPECT_EQ((*h)->info().passes[0].name, "vecmath-fuse-axpy-norm");
  EXPECT_EQ((*h)->info().passes[0].stage, "after-optimization");
  auto m = axpy_then_norm(false);
  auto back = (*h)->run_pass((*h)->info().passes[0], *m, 2);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_NE(*back, nullptr);
  EXPECT_EQ(callees(**back), std::vector<std::string>{"vecmath_axpy_norm"});
  const ir::Operation& ret = *(*back)->functions()[0]->body().entry()->operations().back();
  ASSERT_EQ(ret.name(), "core.ret");
  const ir::Operation* fused = nullptr;
  for (auto& op : (*back)->functions()[0]->body().entry()->operations())
    if (op->name() == "core.call_extern") fused = op.get();
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(ret.operand(0), fused->result(0));  // the norm's users read the fused call
  EXPECT_EQ(fused->num_operands(), 5u);
  EXPECT_EQ(fused->attr("library")->as_string(), "vecmath");
  // A call between them may touch y: nothing is fused.
  auto kept = (*h)->run_pass((*h)->info().passes[0], *axpy_then_norm(true), 2);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept, nullptr);
}

TEST(StartedPlugins, AModuleTwoDistributionsClaimStartsNeitherPlugin) {
  std::vector<fs::path> manifests{fs::path(PPY_HOST_TEST_DIR) / "hostile-plugin" / "manifest.toml",
                                  fs::path(PPY_HOST_TEST_DIR) / "plugin-cases" / "hostile-thief" / "manifest.toml"};
  host::ManifestIndex index = host::ManifestIndex::from_manifests(manifests);
  EXPECT_EQ(index.plugin_for_module("hostile_mod"), nullptr);
  EXPECT_THAT(::testing::PrintToString(index.problems()), HasSubstr("hostile_mod"));
  auto started = start_plugins_for(index, {"import hostile_mod\n"});
  ASSERT_TRUE(started.ok()) << started.status();
  EXPECT_TRUE(started->plugins.empty());
  // The module it did not take from anyone still starts the first plugin.
  auto other = start_plugins_for(index, {"import hostile_mod2\n"});
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->plugins.size(), 1u);
}

TEST(Devicelib, APluginAndABackendShipInOneDistributionAndWorkTogether) {
  std::vector<fs::path> manifests{fs::path(PPY_HOST_TEST_DIR) / "devicelib" / "manifest.toml"};
  host::ManifestIndex index = host::ManifestIndex::from_manifests(manifests);
  ASSERT_TRUE(index.problems().empty()) << ::testing::PrintToString(index.problems());
  auto backend_entry = index.lookup("devicelib");
  ASSERT_TRUE(backend_entry.ok()) << backend_entry.status();
  const host::PluginEntry* plugin_entry = index.plugin("devicelib");
  ASSERT_NE(plugin_entry, nullptr);
  EXPECT_EQ(plugin_entry->distribution, (*backend_entry)->distribution);
  EXPECT_EQ(index.plugin_for_module("devicelib"), plugin_entry);

  // A function calling the device library, and one that does not.
  auto m = std::make_unique<ir::Module>("app");
  for (const char* name : {"app_on_device", "app_on_host"}) {
    ir::Function* f =
        m->add_function(std::make_unique<ir::Function>(name, std::vector<ir::Param>{}, std::vector<ir::Type>{}));
    ir::Block* b = f->create_entry_block();
    if (std::string_view(name) == "app_on_device") {
      ir::AttrDict a;
      a.set("callee", "devicelib_scale");
      a.set("library", "devicelib");
      b->append(ir::Operation::create("core.call_extern", {}, {}, std::move(a)));
    }
    b->append(ir::Operation::create("core.ret", {}, {}));
  }
  auto plugin = host::PluginHandle::connect(host::plugin_launch(*plugin_entry));
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  ASSERT_TRUE(run_pipeline(plugin->get(), *m).ok());

  auto backend = host::connect_backend(**backend_entry);
  ASSERT_TRUE(backend.ok()) << backend.status();
  host::Invocation emit;
  emit.action = host::Invocation::Action::Emit;
  emit.format = "devicelib-plan";
  emit.modules = {m.get()};
  auto r = (*backend)->invoke(emit);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(r->artifacts[0].data, "app_on_device: device\napp_on_host: host\n");
}

}  // namespace
}  // namespace ppy::plugin_host
