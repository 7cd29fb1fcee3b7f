// plugins: the link inputs of the native libraries a program's externs name
// (plugin_link.h): the driver's file with an rpath to its folder, `-lNAME` for
// a library no plugin ships, nothing for a program without externs.
#include "plugin_link.h"

#include "gtest/gtest.h"
#include "ppy/ir/text.h"

namespace ppy::llvm_backend {
namespace {

constexpr std::string_view kCalls = R"(ppyir 1
module @m
dialect core 1

func @m_f(%a: buffer<f64>) -> (f64) {
^entry:
    %0 = core.buffer_data %a : ptr<f64>
    %1 = core.buffer_len %a : index
    %2 = core.call_extern %0, %1 {abi = "c", callee = "vecmath_norm", library = "vecmath"} : f64
    core.call_extern %0, %1 {abi = "c", callee = "other_touch", library = "other"}
    %3 = core.call_extern %0, %1 {abi = "c", callee = "vecmath_norm", library = "vecmath"} : f64
    core.ret %3
}
)";

TEST(PluginLink, LinksTheDriversFileWithAnRpathAndAnUnknownLibraryByName) {
  auto m = ir::parse_module(kCalls);
  ASSERT_TRUE(m.ok()) << m.status();
  const ir::Module* modules[] = {m->get()};
  BackendContext context;
  ConfigValue::Table flags;
  flags["library.vecmath"] = ConfigValue(std::string("/opt/v/lib/libvecmath.so"));
  flags["library.unused"] = ConfigValue(std::string("/opt/u/lib/libunused.so"));
  context.backend_config["flags"] = ConfigValue(std::move(flags));
  PluginLink link = plugin_link(modules, context);
  EXPECT_EQ(link.names, (std::vector<std::string>{"other", "vecmath"}));
  EXPECT_EQ(link.args, (std::vector<std::string>{"-lother", "/opt/v/lib/libvecmath.so", "-Wl,-rpath,/opt/v/lib"}));
}

TEST(PluginLink, AProgramWithoutExternsLinksNothingMore) {
  auto m = ir::parse_module("ppyir 1\nmodule @m\ndialect core 1\n\nfunc @m_f() -> () {\n^entry:\n    core.ret\n}\n");
  ASSERT_TRUE(m.ok()) << m.status();
  const ir::Module* modules[] = {m->get()};
  PluginLink link = plugin_link(modules, BackendContext{});
  EXPECT_TRUE(link.args.empty());
  EXPECT_TRUE(link.names.empty());
}

}  // namespace
}  // namespace ppy::llvm_backend
