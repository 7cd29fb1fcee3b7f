// plugins: the ops of a plugin's dialect, taken only by a backend declaring it.
#include "plugin_dialects.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"

namespace ppy::driver {
namespace {

using ::testing::HasSubstr;

/// A compilation of one module whose `@program_filled` calls `devicelib.fill`.
Compilation device_compilation() {
  Compilation c;
  c.plugin_dialects = {{"devicelib", "devicelib"}};
  c.registry = plugin_registry(c.plugin_dialects);
  auto m = std::make_unique<ir::Module>("program");
  m->dialects()["devicelib"] = 1;
  std::vector<ir::Param> ps{{ir::Type::i64(), {}, ""}};
  ir::Function* f = m->add_function(
      std::make_unique<ir::Function>("program_filled", std::move(ps), std::vector<ir::Type>{ir::Type::f64()}));
  ir::Block* b = f->create_entry_block("entry");
  ir::Operation* fill = b->append(ir::Operation::create("devicelib.fill", {b->argument(0)}, {ir::Type::f64()}, {},
                                                        ir::Location("devicelib.pyi", 14, 1)));
  b->append(ir::Operation::create("core.ret", {fill->result()}, {}, {}));
  c.modules.push_back(std::move(m));
  return c;
}

TEST(PluginDialects, TheDriversRegistryHasThePluginsDialectsOpen) {
  Compilation c = device_compilation();
  ASSERT_NE(c.registry, nullptr);
  EXPECT_TRUE(ir::verify(*c.modules[0], *c.registry).empty());
  EXPECT_FALSE(ir::verify(*c.modules[0]).empty());  // the builtin registry lacks it
  EXPECT_EQ(plugin_registry({}), nullptr);
}

TEST(PluginDialects, ABackendNotDeclaringTheDialectRefusesItsOpByName) {
  absl::Status s = refuse_plugin_dialects(device_compilation(), "backend 'llvm'");
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_EQ(s.message(),
            "backend 'llvm' cannot take devicelib.fill in program_filled at devicelib.pyi:14:1 (an op of the dialect "
            "'devicelib' of plugin 'devicelib', which only a backend declaring the dialect takes)");
  EXPECT_THAT(refuse_plugin_dialects(device_compilation(), "the interpreter").message(),
              HasSubstr("the interpreter cannot take devicelib.fill"));
  EXPECT_THAT(refuse_plugin_dialects(device_compilation(), "backend 'c'", {"other"}).message(),
              HasSubstr("backend 'c' cannot take devicelib.fill"));
}

TEST(PluginDialects, TheBackendDeclaringTheDialectTakesIt) {
  EXPECT_TRUE(refuse_plugin_dialects(device_compilation(), "backend 'devicelib'", {"devicelib"}).ok());
  Compilation plain;
  EXPECT_TRUE(refuse_plugin_dialects(plain, "backend 'llvm'").ok());
}

TEST(PluginDialects, AnOpOfADialectNoPluginRegistersIsNamed) {
  Compilation c = device_compilation();
  EXPECT_TRUE(check_plugin_dialects_registered(*c.modules[0], *c.registry).ok());
  absl::Status s = check_plugin_dialects_registered(*c.modules[0], ir::DialectRegistry::builtin());
  EXPECT_EQ(error_code(s), "E1901");
  EXPECT_THAT(s.message(), HasSubstr("uses ops of the dialect 'devicelib' (a plugin stub's @ppy.op), which no plugin"));
}

}  // namespace
}  // namespace ppy::driver
