// The llvm backend through its Backend interface: formats, fingerprint,
// validation of device code, and what it emits (verified by LLVM itself).
#include "ppy/backends/llvm_backend.h"
#include "ppy/runtime/runtime_source.h"

#include "gtest/gtest.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"

namespace ppy {
namespace {

std::unique_ptr<ir::Module> parse(std::string_view text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return std::move(*m);
}

const EmitFormat& format(const Backend& b, std::string_view name) {
  static std::vector<EmitFormat> formats;
  formats = b.emit_formats();
  for (auto& f : formats)
    if (f.name == name) return f;
  ADD_FAILURE() << "no format " << name;
  return formats.front();
}

/// The LLVM IR text `program` emits at `opt_level`, after it validates; empty
/// (with the failure recorded) where either step fails.
std::string emit_llvm_ir(std::string_view program, int opt_level) {
  auto b = backends::create_llvm_backend({});
  auto m = parse(program);
  if (!m) return {};
  BackendContext ctx;
  ctx.opt_level = opt_level;
  auto valid = b->validate(*m, ctx);
  EXPECT_TRUE(valid.ok()) << valid;
  auto art = b->emit(*m, format(*b, "llvm-ir"), ctx);
  EXPECT_TRUE(art.ok()) << art.status();
  return art.ok() ? std::get<std::string>(*art) : std::string();
}

/// Checks that LLVM's own parser and verifier accept `text`.
void expect_llvm_accepts(const std::string& text) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  auto parsed = llvm::parseAssemblyString(text, diag, context);
  ASSERT_TRUE(parsed) << diag.getMessage().str() << "\n" << text;
  EXPECT_FALSE(llvm::verifyModule(*parsed, &llvm::errs()));
}

constexpr std::string_view kProgram = R"(ppyir 1
module @m
dialect core 1

func @m_add(%a: i64, %b: i64) -> i64 attrs {ppy.effects = ["raises"], ppy.export = true, ppy.qualname = "m.add"} loc("m.ppy":1:5) {
^entry:
    %0 = core.add %a, %b {overflow = "python"} : i64 loc("m.ppy":2:12)
    core.ret %0
}

func @m_main() -> () attrs {ppy.effects = ["io", "raises"], ppy.qualname = "m.main"} loc("m.ppy":4:5) {
^entry:
    %0 = core.const 7 : i64
    %1 = core.const 2 : i64
    %2 = core.cmp.ne %1, %0 : bool
    core.guard %2 {kind = "zero_division", message = "integer division or modulo by zero"}
    %3 = core.div %0, %1 {overflow = "python", rounding = "floor"} : i64
    %4 = core.call %3, %1 {callee = @m_add} : i64
    core.call_extern %4 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)";

TEST(LLVMBackend, NamesItsFormatsAndTheLLVMItLinks) {
  auto b = backends::create_llvm_backend({});
  EXPECT_EQ(b->name(), "llvm");
  EXPECT_EQ(b->api_version(), 1);
  EXPECT_NE(b->fingerprint().find(LLVM_VERSION_STRING), std::string::npos);
  // Its objects call the runtime: another runtime is another key.
  EXPECT_NE(b->fingerprint().find(ppy::runtime::digest()), std::string::npos);
  const EmitFormat& ir = format(*b, "llvm-ir");
  EXPECT_EQ(ir.suffix, ".ll");
  EXPECT_FALSE(ir.binary);
  EXPECT_EQ(ir.scope, EmitScope::Module);
  EXPECT_TRUE(format(*b, "object").binary);
  ToolchainStatus status = b->toolchain_status();
  EXPECT_TRUE(status.available) << status.detail;
  EXPECT_NE(status.detail.find("LLVM " LLVM_VERSION_STRING), std::string::npos) << status.detail;
}

TEST(LLVMBackend, EmitsIRThatLLVMsVerifierAccepts) {
  for (int level : {0, 3}) {
    const std::string text = emit_llvm_ir(kProgram, level);
    expect_llvm_accepts(text);
    EXPECT_NE(text.find("define"), std::string::npos);
    EXPECT_NE(text.find("@m_add"), std::string::npos);
    if (level == 0) {
      // The guard and the overflow check are branches to a cold raise.
      EXPECT_NE(text.find("llvm.sadd.with.overflow.i64"), std::string::npos) << text;
      EXPECT_NE(text.find("@ppy_rt_raise"), std::string::npos);
      EXPECT_NE(text.find("!prof"), std::string::npos);
    }
  }
}

// A module variable (a mutable global read and written through its address)
// and a function at `ppy.opt_level = 0`, which stays as lowered at -O3.
constexpr std::string_view kGlobals = R"(ppyir 1
module @g
dialect core 1

private mutable global @g_count : i64 = 0

func @g_bump() -> i64 attrs {ppy.effects = ["globals", "reads", "writes"], ppy.opt_level = 0, ppy.qualname = "g.bump"} {
^entry:
    %p = core.const @g_count : ptr<i64>
    %0 = core.load %p : i64
    %1 = core.const 1 : i64
    %2 = core.add %0, %1 {overflow = "wrap"} : i64
    core.store %2, %p
    core.ret %2
}

func @g_main() -> () attrs {ppy.effects = ["globals", "io", "reads", "writes"], ppy.qualname = "g.main"} {
^entry:
    %0 = core.call {callee = @g_bump} : i64
    core.call_extern %0 {abi = "c", callee = "ppy_print_i64"}
    core.ret
}
)";

TEST(LLVMBackend, GlobalsByAddressAndOptLevelZero) {
  const std::string text = emit_llvm_ir(kGlobals, 3);
  EXPECT_NE(text.find("@g_count = internal"), std::string::npos) << text;
  EXPECT_NE(text.find("load i64, ptr @g_count"), std::string::npos) << text;
  EXPECT_NE(text.find("store i64 %"), std::string::npos) << text;
  // bump is neither inlined into main nor optimized.
  EXPECT_NE(text.find("call i64 @g_bump()"), std::string::npos) << text;  // the call stays
  size_t bump = text.find("i64 @g_bump() ");
  ASSERT_NE(bump, std::string::npos) << text;
  size_t attrs = text.find("#", bump);
  ASSERT_NE(attrs, std::string::npos);
  std::string group = text.substr(attrs, text.find(' ', attrs) - attrs);
  size_t def = text.find("attributes " + group + " = {");
  ASSERT_NE(def, std::string::npos) << text;
  std::string line = text.substr(def, text.find('\n', def) - def);
  EXPECT_NE(line.find("optnone"), std::string::npos) << line;
  EXPECT_NE(line.find("noinline"), std::string::npos) << line;
}

// Tuples are LLVM literal structs, passed and returned by value.
constexpr std::string_view kTuples = R"(ppyir 1
module @t
dialect core 1

func @t_pair(%a: i64, %b: f64) -> tuple<i64, tuple<bool, f64>> attrs {ppy.effects = ["pure"], ppy.qualname = "t.pair"} {
^entry:
    %yes = core.const true : bool
    %in = core.tuple_make %yes, %b : tuple<bool, f64>
    %t = core.tuple_make %a, %in : tuple<i64, tuple<bool, f64>>
    core.ret %t
}

func @t_main() -> () attrs {ppy.effects = ["io"], ppy.qualname = "t.main"} {
^entry:
    %one = core.const 1 : i64
    %h = core.const 0.5 : f64
    %t = core.call %one, %h {callee = @t_pair} : tuple<i64, tuple<bool, f64>>
    %in = core.tuple_extract %t {index = 1} : tuple<bool, f64>
    %x = core.tuple_extract %in {index = 1} : f64
    core.call_extern %x {abi = "c", callee = "ppy_print_f64"}
    core.ret
}
)";

TEST(LLVMBackend, TuplesAreStructsByValue) {
  const std::string text = emit_llvm_ir(kTuples, 0);
  expect_llvm_accepts(text);
  EXPECT_NE(text.find("{ i64, { i1, double } } @t_pair(i64"), std::string::npos) << text;
  EXPECT_NE(text.find("insertvalue"), std::string::npos) << text;
  EXPECT_NE(text.find("extractvalue"), std::string::npos) << text;
}

/// `p.y = v` as the frontend spells a field set: the struct loaded, one field
/// changed, the struct stored back.
constexpr const char* kFieldSet = R"(ppyir 1
module @t

func @t_set(%p: ptr<struct<Point, x: f64, y: i64, ok: bool, tag: ptr<i8>>>, %v: i64) -> () attrs {ppy.effects = ["reads", "writes"], ppy.qualname = "t.set"} {
^entry:
    %s = core.load %p : struct<Point, x: f64, y: i64, ok: bool, tag: ptr<i8>>
    %x = core.struct_extract %s {field = "x"} : f64
    %ok = core.struct_extract %s {field = "ok"} : bool
    %tag = core.struct_extract %s {field = "tag"} : ptr<i8>
    %n = core.struct_make %x, %v, %ok, %tag : struct<Point, x: f64, y: i64, ok: bool, tag: ptr<i8>>
    core.store %n, %p
    core.ret
}
)";

TEST(LLVMBackend, AFieldSetStoresThatFieldAlone) {
  // Issue 35: a whole-struct store wrote every field back (an exception's
  // constructor rewrote its eight fields for each it set).
  const std::string text = emit_llvm_ir(kFieldSet, 2);
  size_t stores = 0;
  for (size_t at = 0; (at = text.find(" store ", at)) != std::string::npos; ++at) ++stores;
  EXPECT_EQ(stores, 1u) << text;
  EXPECT_NE(text.find("store i64 %v"), std::string::npos) << text;
  EXPECT_EQ(text.find("load {"), std::string::npos) << text;
  EXPECT_EQ(text.find("store {"), std::string::npos) << text;
}

TEST(LLVMBackend, UnsafeWrapsIntegerArithmetic) {
  auto b = backends::create_llvm_backend({});
  auto m = parse(kProgram);
  BackendContext ctx;
  ctx.opt_level = 0;
  ctx.backend_config["flags"] = ConfigValue::Table{{"unsafe", ""}};
  auto art = b->emit(*m, format(*b, "llvm-ir"), ctx);
  ASSERT_TRUE(art.ok()) << art.status();
  EXPECT_EQ(std::get<std::string>(*art).find("with.overflow"), std::string::npos);
}

TEST(LLVMBackend, EmitsAnELFObject) {
  auto b = backends::create_llvm_backend({});
  auto m = parse(kProgram);
  BackendContext ctx;
  auto art = b->emit(*m, format(*b, "object"), ctx);
  ASSERT_TRUE(art.ok()) << art.status();
  const std::string& bytes = std::get<Bytes>(*art).data;
  ASSERT_GT(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 4), "\x7f" "ELF");
}

TEST(LLVMBackend, RefusesDeviceCodeNamingTheOpFunctionAndLocation) {
  auto b = backends::create_llvm_backend({});
  auto kernel = parse(R"(ppyir 1
module @k
dialect core 1
dialect gpu 1

func @k_kern(%n: i64) -> () attrs {gpu.kind = "kernel", ppy.effects = ["pure"], ppy.qualname = "k.kern"} loc("k.ppy":3:5) {
^entry:
    core.ret
}
)");
  BackendContext ctx;
  absl::Status s = b->validate(*kernel, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(error_code(s), "E1802") << s;
  EXPECT_NE(s.message().find("@k_kern"), std::string_view::npos) << s;
  EXPECT_NE(s.message().find("k.ppy:3:5"), std::string_view::npos) << s;

  auto op = parse(R"(ppyir 1
module @h
dialect core 1
dialect gpu 1

func @h_f() -> i64 attrs {ppy.effects = ["pure"], ppy.qualname = "h.f"} loc("h.ppy":1:5) {
^entry:
    %0 = gpu.thread_id {dim = "x"} : index loc("h.ppy":2:9)
    %1 = core.cast %0 : i64
    core.ret %1
}
)");
  s = b->validate(*op, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("gpu.thread_id"), std::string_view::npos) << s;
  EXPECT_NE(s.message().find("@h_f"), std::string_view::npos) << s;
  EXPECT_NE(s.message().find("h.ppy:2:9"), std::string_view::npos) << s;
}

TEST(LLVMBackend, ForeignTargetsGiveTheirObjects) {
  auto b = backends::create_llvm_backend({});
  auto m = parse(kProgram);
  for (std::string triple : {"aarch64-linux-gnu", "riscv64-linux-gnu"}) {
    BackendContext ctx;
    ctx.backend_config["flags"] = ConfigValue::Table{{"target", triple}};
    auto art = b->emit(*m, format(*b, "llvm-ir"), ctx);
    ASSERT_TRUE(art.ok()) << art.status();
    EXPECT_NE(std::get<std::string>(*art).find(triple.substr(0, triple.find('-'))), std::string::npos);
  }
  BackendContext bad;
  bad.backend_config["flags"] = ConfigValue::Table{{"target", "nonsense-none-none"}};
  auto art = b->emit(*m, format(*b, "object"), bad);
  ASSERT_FALSE(art.ok());
  EXPECT_EQ(error_code(art.status()), "E1801") << art.status();
}

}  // namespace
}  // namespace ppy
