// The python backend on hand-written IR: what the frontend never makes (an
// irreducible CFG, wrapping and truncating arithmetic) still runs right, and
// what python3 cannot run is refused in validate.
#include "ppy/backends/python_backend.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "python_helpers.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::unique_ptr<ir::Module> parse(std::string_view text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

/// Runs `source` with python3; stdout, then `exit N` and stderr's last line.
std::string run_python(const std::string& source) {
  auto dir = std::filesystem::temp_directory_path() / ("ppy-python-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "prog.py") << source;
  std::string cmd = "cd " + dir.string() + " && python3 prog.py 2>err.txt; echo \"exit $?\"; tail -n 1 err.txt";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  std::filesystem::remove_all(dir);
  return out;
}

TEST(PythonBackend, DescribesItself) {
  auto b = create_python_backend({});
  EXPECT_EQ(b->name(), "python");
  EXPECT_EQ(b->api_version(), 1);
  ASSERT_EQ(b->emit_formats().size(), 1u);
  EXPECT_EQ(b->emit_formats()[0].name, "python");
  EXPECT_EQ(b->emit_formats()[0].suffix, ".py");
  EXPECT_FALSE(b->emit_formats()[0].requires_toolchain);
  EXPECT_TRUE(b->toolchain_status().available);
}

// The cache key covers ppy_helpers.py: its digest, of the text embedded, is
// in the fingerprint (a changed helper reused an old module before).
TEST(PythonBackend, TheFingerprintNamesTheHelpersDigest) {
  std::string_view d = python::helpers_digest();
  ASSERT_EQ(d.size(), 16u);
  EXPECT_EQ(d.find_first_not_of("0123456789abcdef"), std::string_view::npos);
  EXPECT_EQ(create_python_backend({})->fingerprint(), str_cat("python:2; helpers ", d));
  std::ifstream in(PPY_SOURCE_DIR "/backends/python/ppy_helpers.py", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, python::helpers_source());
}

TEST(PythonBackend, AnIrreducibleCFGRunsAsABlockDispatchLoop) {
  // Entered at a or b by %c; the cycle a -> b -> a counts %k down to 0.
  auto m = parse(R"(ppyir 1
module @m

func @m_count(%c: bool, %k: i64) -> i64 attrs {ppy.qualname = "m.count"} {
^entry:
    %z = core.const 0 : i64
    core.cond_br %c, ^a(%k, %z), ^b(%k, %z)
^a(%x: i64, %n: i64):
    %done = core.cmp.le %x, %z : bool
    core.cond_br %done, ^out(%n), ^b(%x, %n)
^b(%y: i64, %m: i64):
    %one = core.const 1 : i64
    %y2 = core.sub %y, %one {overflow = "python"} : i64
    %m2 = core.add %m, %one {overflow = "python"} : i64
    core.br ^a(%y2, %m2)
^out(%r: i64):
    core.ret %r
}

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %t = core.const true : bool
    %f = core.const false : bool
    %five = core.const 5 : i64
    %r1 = core.call %t, %five {callee = @m_count} : i64
    core.call_extern %r1 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    %r2 = core.call %f, %five {callee = @m_count} : i64
    core.call_extern %r2 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)");
  auto text = python_source(*m);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("_block = 0"));
  // The second call comes after the first number is printed, as in the IR.
  EXPECT_THAT(*text, HasSubstr("print(count(True, 5), \" \", sep=\"\", end=\"\")\n    print(count(False, 5))"));
  EXPECT_EQ(run_python(*text), "5 5\nexit 0\n");
}

TEST(PythonBackend, WrappingAndTruncatingArithmeticAsTheIRSays) {
  auto m = parse(R"(ppyir 1
module @m

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %max = core.const 9223372036854775807 : i64
    %one = core.const 1 : i64
    %w = core.add %max, %one {overflow = "wrap"} : i64
    core.call_extern %w {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    %a = core.const -7 : i64
    %b = core.const 2 : i64
    %q = core.div %a, %b {overflow = "wrap", rounding = "trunc"} : i64
    %r = core.mod %a, %b {overflow = "wrap", rounding = "trunc"} : i64
    core.call_extern %q {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    core.call_extern %r {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    %o = core.add %max, %one {overflow = "python"} : i64
    core.call_extern %o {abi = "c", callee = "ppy_print_i64"}
    core.ret
}
)");
  auto text = python_source(*m);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, Not(HasSubstr("_block")));
  EXPECT_EQ(run_python(*text), "-9223372036854775808\n-3 -1\nexit 1\nOverflowError: integer overflow\n");
}

TEST(PythonBackend, TuplesArePythonTuples) {
  auto m = parse(R"(ppyir 1
module @m

func @m_pair(%a: i64) -> tuple<i64, tuple<f64>> attrs {ppy.qualname = "m.pair"} {
^entry:
    %h = core.const 0.5 : f64
    %one = core.tuple_make %h : tuple<f64>
    %t = core.tuple_make %a, %one : tuple<i64, tuple<f64>>
    core.ret %t
}

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %n = core.const 3 : i64
    %t = core.call %n {callee = @m_pair} : tuple<i64, tuple<f64>>
    %a = core.tuple_extract %t {index = 0} : i64
    %in = core.tuple_extract %t {index = 1} : tuple<f64>
    %h = core.tuple_extract %in {index = 0} : f64
    core.call_extern %a {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    core.call_extern %h {abi = "c", callee = "ppy_print_f64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)");
  auto b = create_python_backend({});
  ASSERT_TRUE(b->validate(*m, BackendContext{}).ok());
  auto text = python_source(*m);
  ASSERT_TRUE(text.ok()) << text.status();
  // A one-element tuple keeps its comma.
  EXPECT_THAT(*text, HasSubstr("(0.5,)"));
  EXPECT_EQ(run_python(*text), "3 0.5\nexit 0\n");
}

TEST(PythonBackend, ACopyIsDroppedOnlyWhereNeitherValueIsStillNeeded) {
  // fib's loop passes (b, a + b) back for (a, b): a + b may take b's
  // variable only if old b is not read after it (it is: the edge passes it to a),
  // and the counter's step takes the counter's variable.
  auto m = parse(R"(ppyir 1
module @m

func @m_fib(%k: i64) -> i64 attrs {ppy.qualname = "m.fib"} {
^entry:
    %z = core.const 0 : i64
    %one = core.const 1 : i64
    core.br ^head(%z, %one, %z)
^head(%a: i64, %b: i64, %i: i64):
    %go = core.cmp.lt %i, %k : bool
    core.cond_br %go, ^body, ^out(%a)
^body:
    %s = core.add %a, %b {overflow = "python"} : i64
    %i2 = core.add %i, %one {overflow = "python"} : i64
    %twice = core.mul %i2, %i2 {overflow = "python"} : i64
    core.br ^head(%b, %s, %i2)
^out(%r: i64):
    core.ret %r
}

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %ten = core.const 10 : i64
    %r = core.call %ten {callee = @m_fib} : i64
    core.call_extern %r {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)");
  auto text = python_source(*m);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("s = a + b\n"));
  EXPECT_THAT(*text, HasSubstr("a, b = b, s\n"));
  EXPECT_THAT(*text, HasSubstr("i = i + 1\n"));
  EXPECT_THAT(*text, HasSubstr("return a\n"));
  EXPECT_EQ(run_python(*text), "55\nexit 0\n");
}

TEST(PythonBackend, ASumOfAConstantChecksTheOpInsideItToo) {
  // x * 3 + 1 written as one expression with one check: -3074457345618258603 * 3
  // is one below i64's minimum though the sum is the minimum itself, and it
  // still raises; 3074457345618258602 * 3 + 1 is i64's maximum and does not.
  auto program = [](std::string_view x) {
    return parse(str_cat(R"(ppyir 1
module @m

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %x = core.const )",
                         x, R"( : i64
    %three = core.const 3 : i64
    %one = core.const 1 : i64
    %go = core.cmp.ne %x, %one : bool
    core.cond_br %go, ^body, ^out
^body:
    %t = core.mul %x, %three {overflow = "python"} : i64
    %r = core.add %t, %one {overflow = "python"} : i64
    core.call_extern %r {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.br ^out
^out:
    core.ret
}
)"));
  };
  auto low = python_source(*program("-3074457345618258603"));
  ASSERT_TRUE(low.ok()) << low.status();
  EXPECT_THAT(*low, HasSubstr("r = -3074457345618258603 * 3 + 1\n"));
  EXPECT_THAT(*low, HasSubstr("if r > 0x7FFFFFFFFFFFFFFF or r < -0x7FFFFFFFFFFFFFFF:"));
  EXPECT_EQ(run_python(*low), "exit 1\nOverflowError: integer overflow\n");
  auto high = python_source(*program("3074457345618258602"));
  ASSERT_TRUE(high.ok()) << high.status();
  EXPECT_EQ(run_python(*high), "9223372036854775807\nexit 0\n");
}

TEST(PythonBackend, DeviceCodeIsRefusedWithItsPlace) {
  auto m = parse(R"(ppyir 1
module @k
dialect gpu 1

func @k_kern() -> () attrs {gpu.kind = "kernel"} loc("k.ppy":3:5) {
^entry:
    %t = gpu.thread_id.x : index loc("k.ppy":4:9)
    core.ret
}
)");
  auto b = create_python_backend({});
  BackendContext ctx;
  absl::Status s = b->validate(*m, ctx);
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("backend 'python' cannot take the kernel function k_kern at k.ppy:3:5"));
  auto refusal = validation_error_of(s);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->capability, "device code, which python3 cannot run");
}

TEST(PythonBackend, RuntimeCallsAreTheTablesTemplatesWithTheHelpersTheyName) {
  auto m = parse(R"(ppyir 1
module @t

func @t_main() -> () attrs {ppy.qualname = "t.main"} {
^entry:
    %0 = core.call_extern {abi = "c", callee = "ppy_str_literal", text = "b"} : ptr<i8>
    %1 = core.call_extern {abi = "c", callee = "ppy_str_literal", text = "a"} : ptr<i8>
    %2 = core.call_extern %0, %1 {abi = "c", callee = "ppy_str_compare"} : i64
    core.call_extern %2 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    %3 = core.call_extern %0, %1 {abi = "c", callee = "ppy_str_concat"} : ptr<i8>
    %4 = core.call_extern %3, %1 {abi = "c", callee = "ppy_str_concat"} : ptr<i8>
    core.call_extern %4 {abi = "c", callee = "ppy_print_string"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)");
  auto b = create_python_backend({});
  ASSERT_TRUE(b->validate(*m, BackendContext{}).ok());
  auto text = python_source(*m);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("def _ppy_str_cmp("));
  EXPECT_THAT(*text, Not(HasSubstr("import math")));  // no helper of this module needs it
  EXPECT_THAT(*text, Not(HasSubstr("_ppy_exc")));
  EXPECT_EQ(run_python(*text), "1\nbaa\nexit 0\n");
}

TEST(PythonBackend, ARuntimeFunctionTheTableLacksIsRefused) {
  auto m = parse(R"(ppyir 1
module @t

func @t_main() -> () attrs {ppy.qualname = "t.main"} {
^entry:
    %0 = core.call_extern {abi = "c", callee = "ppy_str_literal", text = "b"} : ptr<i8>
    %1 = core.call_extern %0 {abi = "c", callee = "ppy_str_translate"} : ptr<i8>
    core.ret
}
)");
  auto b = create_python_backend({});
  absl::Status s = b->validate(*m, BackendContext{});
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_THAT(std::string(s.message()), HasSubstr("the runtime function 'ppy_str_translate' in t_main"));
}

TEST(PythonBackend, ModulesNestUnderTheirPackages) {
  ir::Module pkg("geo"), vec("geo.vec"), circle("geo.shapes.circle"), main_mod("main");
  const ir::Module* all[] = {&pkg, &vec, &circle, &main_mod};
  EXPECT_EQ(python_module_path("geo", all), "geo/__init__.py");
  EXPECT_EQ(python_module_path("geo.vec", all), "geo/vec.py");
  EXPECT_EQ(python_module_path("geo.shapes.circle", all), "geo/shapes/circle.py");
  EXPECT_EQ(python_module_path("main", all), "main.py");
}

}  // namespace
}  // namespace ppy::backends
