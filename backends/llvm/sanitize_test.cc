// --sanitize on the LLVM road: the names it takes and refuses (E1002), the
// AddressSanitizer instrumentation of the generated code, and a sanitized
// executable that runs (when clang and libclang-rt-19-dev are here).
#include "sanitize.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "native.h"
#include "ppy/backends/llvm_backend.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"

namespace ppy {
namespace {

namespace fs = std::filesystem;
using llvm_backend::Sanitizers;
using llvm_backend::sanitizers_of;

BackendContext with_sanitize(std::string value, ConfigValue::Table more = {}) {
  BackendContext ctx;
  more["sanitize"] = ConfigValue(value);
  ctx.backend_config["flags"] = ConfigValue(std::move(more));
  return ctx;
}

constexpr std::string_view kProgram = R"(ppyir 1
module @m
dialect core 1

func @m_main() -> () attrs {ppy.effects = ["io", "raises"], ppy.qualname = "m.main"} loc("m.ppy":1:5) {
^entry:
    %0 = core.const 7 : i64
    %1 = core.const 2 : i64
    %2 = core.add %0, %1 {overflow = "python"} : i64
    core.call_extern %2 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)";

TEST(Sanitize, TakesAddressUndefinedAndBoth) {
  auto both = sanitizers_of(with_sanitize("address,undefined"));
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_TRUE(both->address && both->undefined);
  EXPECT_EQ(both->spelled(), "address,undefined");
  auto one = sanitizers_of(with_sanitize("undefined"));
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one->address);
  EXPECT_EQ(one->spelled(), "undefined");
  auto none = sanitizers_of(BackendContext{});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->any());
}

TEST(Sanitize, RefusesUnknownEmptyAndUnsupportedNamesWithE1002) {
  struct Case {
    std::string value, says;
  };
  for (const Case& c :
       {Case{"adress", "unknown sanitizer 'adress'"}, Case{"", "needs a sanitizer"}, Case{",", "needs a sanitizer"},
        Case{"thread", "one thread"}, Case{"address,memory", "MemorySanitizer"}, Case{"leak", "never freed"}}) {
    auto s = sanitizers_of(with_sanitize(c.value));
    ASSERT_FALSE(s.ok()) << c.value;
    EXPECT_EQ(error_code(s.status()), "E1002") << c.value;
    EXPECT_NE(s.status().message().find(c.says), std::string::npos) << s.status();
  }
}

TEST(Sanitize, AddressInstrumentsTheGeneratedCodeUndefinedLeavesItToTheGuards) {
  auto b = backends::create_llvm_backend({});
  auto m = ir::parse_module(kProgram);
  ASSERT_TRUE(m.ok()) << m.status();
  EmitFormat ll;
  for (auto& f : b->emit_formats())
    if (f.name == "llvm-ir") ll = f;
  for (int level : {0, 3}) {
    BackendContext ctx = with_sanitize("address");
    ctx.opt_level = level;
    auto art = b->emit(**m, ll, ctx);
    ASSERT_TRUE(art.ok()) << art.status();
    const std::string& text = std::get<std::string>(*art);
    EXPECT_NE(text.find("sanitize_address"), std::string::npos) << "-O" << level;
    EXPECT_NE(text.find("asan.module_ctor"), std::string::npos) << "-O" << level;
  }
  BackendContext plain;
  auto art = b->emit(**m, ll, plain);
  ASSERT_TRUE(art.ok());
  EXPECT_EQ(std::get<std::string>(*art).find("asan"), std::string::npos);
  BackendContext bad = with_sanitize("bogus");
  EXPECT_EQ(error_code(b->emit(**m, ll, bad).status()), "E1002");
}

TEST(Sanitize, RefusesALibraryAndAnotherMachine) {
  auto b = backends::create_llvm_backend({});
  auto m = ir::parse_module(kProgram);
  ASSERT_TRUE(m.ok());
  const ir::Module* mods[] = {m->get()};
  fs::path out = fs::temp_directory_path() / ("ppy_sanitize_refused_" + std::to_string(::getpid()));
  BackendContext lib = with_sanitize("address", {{"library", ConfigValue("")}});
  auto r = b->build(mods, out, lib);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1002");
  EXPECT_NE(r.status().message().find("--library"), std::string::npos) << r.status();
  BackendContext cross = with_sanitize("address", {{"target", ConfigValue("aarch64-linux-gnu")}});
  r = b->build(mods, out, cross);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1002");
  fs::remove_all(out);
}

/// The sanitized executable runs and prints; ASan's runtime is in it.
TEST(Sanitize, AStandaloneExecutableRunsWithTheSanitizerRuntimeLinkedIn) {
  if (!llvm_backend::sanitizer_c_compiler().ok() ||
      !llvm_backend::sanitizer_link_args({.address = true, .undefined = true}).ok())
    GTEST_SKIP() << "no clang or no libclang-rt-19-dev here";
  auto b = backends::create_llvm_backend({});
  auto m = ir::parse_module(kProgram);
  ASSERT_TRUE(m.ok());
  const ir::Module* mods[] = {m->get()};
  fs::path out = fs::temp_directory_path() / ("ppy_sanitize_exe_" + std::to_string(::getpid()));
  BackendContext ctx =
      with_sanitize("address,undefined", {{"standalone", ConfigValue("")}, {"name", ConfigValue("prog")}});
  auto r = b->build(mods, out, ctx);
  ASSERT_TRUE(r.ok()) << r.status();
  fs::path exe = out / "prog";
  ASSERT_TRUE(fs::exists(exe));
  auto nm = llvm_backend::run_tool({"/bin/sh", "-c", "nm " + exe.string() + " | grep -c __asan_report_load8"}, out);
  ASSERT_TRUE(nm.ok()) << nm.status();
  auto ran = llvm_backend::run_tool({exe.string()}, out);
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(*ran, "9\n");
  fs::remove_all(out);
}

}  // namespace
}  // namespace ppy
