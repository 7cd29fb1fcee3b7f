// IR generation: the shapes docs/runtime.md promises, checked on the IR itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

struct Lowered {
  std::unique_ptr<ir::Module> module;
  std::string text;
  std::string diags;
};

Lowered lower(const std::string& src, const std::string& name = "m", const ModuleInterfaces& others = {}) {
  DiagnosticEngine d;
  SourceModule s{name, name + ".ppy", src};
  LowerResult r = lower_module(s, others, d);
  Lowered out;
  out.diags = render_diagnostics(d);
  if (r.module) {
    out.text = ir::print_module(*r.module);
    std::string problems;
    for (auto& p : ir::verify(*r.module)) problems += p.str() + "\n";
    EXPECT_EQ(problems, "") << out.text;
  }
  out.module = std::move(r.module);
  return out;
}

TEST(Lower, FunctionSymbolsAttributesAndLocations) {
  auto l = lower("from ppy import export\n\n@export\ndef sq(x: int) -> int:\n    return x * x\n\ndef f(a: float) -> float:\n    return a\n",
                 "pkg.mod");
  ASSERT_TRUE(l.module) << l.diags;
  ir::Function* sq = l.module->function("pkg_mod_sq");
  ASSERT_NE(sq, nullptr);
  EXPECT_EQ(sq->attributes().get("ppy.qualname")->as_string(), "pkg.mod.sq");
  EXPECT_TRUE(sq->attributes().get("ppy.export")->as_bool());
  EXPECT_EQ(sq->attributes().get("ppy.effects")->as_array()[0].as_string(), "raises");
  ir::Function* f = l.module->function("pkg_mod_f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->attributes().get("ppy.effects")->as_array()[0].as_string(), "pure");
  EXPECT_EQ(f->loc()->str(), "pkg.mod.ppy:7:5");
  EXPECT_THAT(l.text, HasSubstr("core.mul %0, %1 {overflow = \"python\"} : i64 loc(\"pkg.mod.ppy\":5:14)"));
}

TEST(Lower, ModuleVariablesFunctionsUseAreGlobals) {
  auto l = lower(
      "import ppy\nn = 0\nk = 1\nk = 2\nlocal = 3.5\nlocal = 4.5\n\n@ppy.opt(0)\ndef bump() -> int:\n    global n\n"
      "    n += k\n    return n\n\nprint(bump(), local)\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("private mutable global @m_k : i64 = 0"));
  EXPECT_THAT(l.text, HasSubstr("private mutable global @m_n : i64 = 0"));
  EXPECT_THAT(l.text, Not(HasSubstr("@m_local")));  // only the module's code uses it: a stack slot
  EXPECT_THAT(l.text, HasSubstr("core.const @m_n : ptr<i64>"));
  ir::Function* bump = l.module->function("m_bump");
  ASSERT_NE(bump, nullptr);
  EXPECT_EQ(bump->attributes().get("ppy.opt_level")->as_int(), 0);
  std::vector<std::string> effects;
  for (auto& a : bump->attributes().get("ppy.effects")->as_array()) effects.push_back(a.as_string());
  EXPECT_EQ(effects, (std::vector<std::string>{"globals", "raises", "reads", "writes"}));
  // The module's code reaches n and k through the same globals.
  ir::Function* code = l.module->function("m___main__");
  ASSERT_NE(code, nullptr);
  std::string code_text = l.text.substr(l.text.find("func @m___main__"));
  EXPECT_THAT(code_text, HasSubstr("core.const @m_n : ptr<i64>"));
  EXPECT_THAT(code_text, HasSubstr("core.alloca : ptr<f64, stack>"));
}

TEST(Lower, DivisionGuardsAndRounding) {
  auto l = lower("def f(a: int, b: int) -> int:\n    return a // b\n\ndef g(a: float, b: float) -> float:\n    return a % b\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("core.guard %3 {kind = \"zero_division\", message = \"integer division or modulo by zero\"}"));
  EXPECT_THAT(l.text, HasSubstr("core.div %0, %1 {overflow = \"python\", rounding = \"floor\"} : i64"));
  EXPECT_THAT(l.text, HasSubstr("core.mod %0, %1 {rounding = \"floor\"} : f64"));
}

TEST(Lower, ListIndexNormalisedAndGuarded) {
  auto l = lower("def f(xs: list[int], i: int) -> int:\n    return xs[i]\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("core.buffer_len"));
  EXPECT_THAT(l.text, HasSubstr("core.select"));
  EXPECT_THAT(l.text, HasSubstr("{kind = \"bounds\", message = \"list index out of range\"}"));
  EXPECT_THAT(l.text, HasSubstr("core.buffer_load"));
  EXPECT_THAT(l.text, HasSubstr("func @m_f(%xs: buffer<i64>, %i: i64) -> i64"));
}

TEST(Lower, PrintSequence) {
  auto l = lower("def main() -> None:\n    print(1, 2.5, True, \"s\")\n");
  ASSERT_TRUE(l.module) << l.diags;
  for (const char* c : {"ppy_print_i64", "ppy_print_f64", "ppy_print_bool", "ppy_print_space", "ppy_print_newline"})
    EXPECT_THAT(l.text, HasSubstr(c));
  EXPECT_THAT(l.text, HasSubstr("core.call_extern {abi = \"c\", callee = \"ppy_print_str\", text = \"s\"}"));
  EXPECT_THAT(l.text, HasSubstr("ppy.effects = [\"io\"]"));
}

TEST(Lower, IntPowIsARuntimeCall) {
  auto l = lower("def f(a: int, b: int) -> int:\n    return a ** b\n\ndef g(a: float) -> float:\n    return a ** 2\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("callee = \"ppy_pow_i64\"} : i64"));
  EXPECT_THAT(l.text, HasSubstr("math.pow"));
  EXPECT_THAT(l.text, HasSubstr("dialect math 1"));
}

TEST(Lower, ConstantsInlinedAndRecorded) {
  auto l = lower("N = 4\nK: float = 0.5\n\ndef f() -> int:\n    return N\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("global @m_N : i64 = 4"));
  EXPECT_THAT(l.text, HasSubstr("global @m_K : f64 = 0.5"));
  EXPECT_THAT(l.text, HasSubstr("core.const 4 : i64"));
}

TEST(Lower, CrossModuleCallIsAnExternDeclaration) {
  ModuleInterfaces others;
  SourceModule util{"app.util", "util.ppy", "def twice(x: int) -> int:\n    return 2 * x\n"};
  DiagnosticEngine d;
  others["app.util"] = lower_module(util, {}, d).interface;
  ASSERT_FALSE(d.has_errors()) << render_diagnostics(d);
  EXPECT_EQ(others["app.util"].functions["twice"].effects, std::vector<std::string>{"raises"});
  auto l = lower("from app.util import twice\n\ndef main() -> None:\n    print(twice(3))\n", "app.main", others);
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("core.call %0 {callee = @app_util_twice} : i64"));
  EXPECT_THAT(l.text, HasSubstr("extern func @app_util_twice(i64) -> i64 attrs {ppy.effects = [\"raises\"], ppy.external = true, ppy.qualname = \"app.util.twice\"}"));
  EXPECT_THAT(l.text, HasSubstr("ppy.effects = [\"io\", \"raises\"], ppy.qualname = \"app.main.main\""));
}

TEST(Lower, ShortCircuitUsesBlockArguments) {
  auto l = lower("def f(a: int, b: int) -> bool:\n    return a > 0 and b > 0\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("core.cond_br"));
  EXPECT_THAT(l.text, HasSubstr("^and.end1(%"));
}

TEST(Lower, RangeWithRuntimeStepIsGuarded) {
  auto l = lower("def f(n: int, s: int) -> int:\n    t = 0\n    for i in range(0, n, s):\n        t += i\n    return t\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("{kind = \"range\", message = \"range() arg 3 must not be zero\"}"));
  EXPECT_THAT(l.text, HasSubstr("^for.head1(%i: i64):"));
}

TEST(Lower, GpuKernelDeviceAndLaunch) {
  const char* src = R"(from ppy import cuda, native


@cuda.device
def fma(a: float, x: float, y: float) -> float:
    return a * x + y


@cuda.kernel
def saxpy(n: int, a: float, x: native.const_ptr[float], y: native.ptr[float]) -> None:
    i = cuda.global_id()
    if i < n:
        slot = native.offset(y, i)
        native.store(slot, fma(a, native.load(native.offset(x, i)), native.load(slot)))
    cuda.syncthreads()


@cuda.kernel
def fill(y: native.ptr[int], v: int) -> None:
    native.store(native.offset(y, cuda.thread_id("y") + cuda.block_dim() // 2), v + 1)


def main() -> None:
    xs = [1.0, 2.0, 3.0]
    ys = [0.0] * 3
    cuda.launch(saxpy, 1, (3, 1), 3, 2.0, xs, ys)
    zs = [0] * 4
    cuda.launch(fill, (1, 1, 1), 4, zs, 7)
    print(ys)
)";
  auto l = lower(src);
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("dialect gpu 1"));
  EXPECT_THAT(l.text, HasSubstr("func @m_saxpy(%n: i64, %a: f64, %x: ptr<f64, generic, const>, %y: ptr<f64>) -> ()"));
  EXPECT_THAT(l.text, HasSubstr("gpu.kind = \"kernel\""));
  EXPECT_THAT(l.text, HasSubstr("gpu.kind = \"device\""));
  EXPECT_THAT(l.text, HasSubstr("gpu.thread_id.x : index"));
  EXPECT_THAT(l.text, HasSubstr("gpu.thread_id.y : index"));
  EXPECT_THAT(l.text, HasSubstr("gpu.block_id.x"));
  EXPECT_THAT(l.text, HasSubstr("gpu.barrier"));
  EXPECT_THAT(l.text, HasSubstr("core.ptr_offset"));
  EXPECT_THAT(l.text, HasSubstr("{callee = @m_saxpy}"));
  EXPECT_THAT(l.text, HasSubstr("core.buffer_data"));
  // Device code wraps and is never guarded.
  ir::Function* k = l.module->function("m_saxpy");
  ASSERT_NE(k, nullptr);
  std::string kt = ir::print_function(*k);
  EXPECT_THAT(kt, Not(HasSubstr("core.guard")));
  EXPECT_THAT(kt, Not(HasSubstr("\"python\"")));
  EXPECT_THAT(ir::print_function(*l.module->function("m_fill")), HasSubstr("overflow = \"wrap\", rounding = \"floor\""));
}

TEST(Lower, ErrorsLeaveNoModule) {
  auto l = lower("def f() -> int:\n    return x\n");
  EXPECT_EQ(l.module, nullptr);
  EXPECT_THAT(l.diags, HasSubstr("m.ppy:2:12: error[E1020]: name 'x' is not defined"));
}
}  // namespace
}  // namespace ppy::frontend

namespace ppy::frontend {
namespace {

TEST(Lower, ModuleCodeIsTheEntrysMainAndCallsImportedInitsFirst) {
  // The imported module's interface says it has code (`__init__`) and what it imports.
  ModuleInterfaces others;
  DiagnosticEngine d;
  others["lib"] = collect_interface({"lib", "lib.ppy", "print(1)\n\ndef f(n: int) -> int:\n    return n\n"}, d);
  // Collected alone, lib is an entry (its code is `__main__`); imported, it is `__init__`.
  ASSERT_TRUE(others["lib"].functions.count("__main__"));
  FuncSignature s = others["lib"].functions.at("__main__");
  s.name = "__init__";
  others["lib"].functions.erase("__main__");
  others["lib"].functions["__init__"] = s;
  auto l = lower("import lib\n\nx = lib.f(2)\nprint(x)\n", "app", others);
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("func @app___main__() -> ()"));
  EXPECT_THAT(l.text, HasSubstr("ppy.qualname = \"app.__main__\""));
  EXPECT_THAT(l.text, HasSubstr("extern func @lib___init__() -> ()"));
  // The init call comes before the module's own first call.
  size_t init = l.text.find("core.call {callee = @lib___init__}");
  size_t own = l.text.find("callee = @lib_f}");
  ASSERT_NE(init, std::string::npos) << l.text;
  EXPECT_LT(init, own) << l.text;
}

// Issue 34: the guard is the module's code, as python3 runs it, so a
// traceback has its `<module>` frame at the guard's call.
TEST(Lower, AGuardCallingMainIsTheModulesCode) {
  auto l = lower("def main() -> None:\n    print(1)\n\nif __name__ == \"__main__\":\n    main()\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("func @m___main__() -> ()"));
  EXPECT_THAT(l.text, HasSubstr("{callee = @m_main}"));
  auto g = lower("def main() -> None:\n    print(1)\n\nif __name__ == \"__main__\":\n    main()\n    main()\n");
  ASSERT_TRUE(g.module) << g.diags;
  EXPECT_THAT(g.text, HasSubstr("func @m___main__() -> ()"));
}

TEST(Lower, TuplesAreTupleMakeAndTupleExtract) {
  auto l = lower(
      "def f(a: int, b: float) -> tuple[int, float]:\n    return a, b\n\n"
      "def g() -> float:\n    q, r = f(1, 2.5)\n    t = f(2, 0.5)\n    return r + t[-1]\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("func @m_f(%a: i64, %b: f64) -> tuple<i64, f64>"));
  EXPECT_THAT(l.text, HasSubstr("core.tuple_make %0, %1 : tuple<i64, f64>"));
  EXPECT_THAT(l.text, HasSubstr("core.tuple_extract %9 {index = 1} : f64"));
  EXPECT_THAT(l.text, HasSubstr("core.tuple_extract %2 {index = 0} : i64"));
  EXPECT_THAT(l.text, HasSubstr("core.alloca : ptr<tuple<i64, f64>, stack>"));
}

TEST(Lower, AnOptionalIsAPresentFlagAndAValue) {
  auto l = lower(
      "def f(x: int | None) -> int:\n    if x is None:\n        return 0\n    return x\n\n"
      "def g() -> int:\n    return f(None) + f(4)\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("func @m_f(%x: tuple<bool, i64>) -> i64"));
  // `x is None` reads the flag; the narrowed `x` reads the value.
  EXPECT_THAT(l.text, HasSubstr("core.tuple_extract %0 {index = 0} : bool"));
  EXPECT_THAT(l.text, HasSubstr("core.tuple_extract %6 {index = 1} : i64"));
  // None is (false, 0); a value is (true, value).
  EXPECT_THAT(l.text, HasSubstr("%1 = core.const false : bool"));
  EXPECT_THAT(l.text, HasSubstr("%2 = core.const 0 : i64\n    %3 = core.tuple_make %1, %2 : tuple<bool, i64>"));
  EXPECT_THAT(l.text, HasSubstr("%6 = core.const true : bool"));
  EXPECT_THAT(l.text, HasSubstr("core.tuple_make %6, %5 : tuple<bool, i64>"));
  ir::Function* g = l.module->function("m_g");
  ASSERT_NE(g, nullptr);
  int makes = 0;
  for (auto& op : g->body().entry()->operations())
    if (op->name() == "core.tuple_make") ++makes;
  EXPECT_EQ(makes, 2);
}

TEST(Lower, StringsAreHandlesAndRuntimeCalls) {
  auto l = lower(
      "GREETING = \"hi\"\n\ndef f(s: str, n: int) -> str:\n    t = s[1:n] + GREETING * 2\n"
      "    if \"x\" in t and t < s:\n        return f\"{n:>4}{t!r}\"\n    return t.upper()\n");
  ASSERT_TRUE(l.module) << l.diags;
  ir::Function* f = l.module->function("m_f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params()[0].type.str(), "ptr<i8>");
  EXPECT_EQ(f->results()[0].str(), "ptr<i8>");
  EXPECT_THAT(l.text, Not(HasSubstr("@m_GREETING")));  // a str constant is inlined, no global
  EXPECT_THAT(l.text, HasSubstr("core.call_extern {abi = \"c\", callee = \"ppy_str_literal\", text = \"hi\"} : ptr<i8>"));
  for (const char* fn : {"ppy_str_slice", "ppy_str_repeat", "ppy_str_concat", "ppy_str_contains", "ppy_str_compare",
                         "ppy_fmt_new", "ppy_fmt_i64", "ppy_fmt_end", "ppy_str_repr", "ppy_str_upper"})
    EXPECT_THAT(l.text, HasSubstr(std::string("callee = \"") + fn + "\"")) << fn;
  // A slice without a step passes 1, and says which bounds were left out (none here).
  EXPECT_THAT(l.text, HasSubstr("core.const 0 : i64"));
}

TEST(Lower, AHandlerKeepsItsExceptionOnlyToRaiseItAgain) {
  // Issue 35: the caught exception went to the handler's slot at every catch,
  // which kept every ppy_exc_* call alive; only a bare raise reads it back.
  auto l = lower(
      "def f(i: int) -> int:\n    try:\n        return 10 // i\n    except ZeroDivisionError:\n        return 0\n\n"
      "def g(i: int) -> int:\n    try:\n        return 10 // i\n    except ZeroDivisionError:\n"
      "        if i == 0:\n            raise\n        return 1\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, Not(testing::ContainsRegex("core.store %[0-9]+, %exc4_5_slot"))) << l.text;
  EXPECT_THAT(l.text, testing::ContainsRegex("core.store %[0-9]+, %exc10_5_slot")) << l.text;
}

TEST(Lower, AClauseTestReadsTheCaughtClassesAlone) {
  // Issue 32: every catch asked for its name, message, object, classes and args
  // before the clauses' tests; the tests read the classes, and the rest is asked
  // for where it is read: here only by the raise on up where no clause matched.
  auto l = lower("def f(i: int) -> int:\n    try:\n        return 10 // i\n    except ZeroDivisionError:\n"
                 "        return 0\n");
  ASSERT_TRUE(l.module) << l.diags;
  size_t classes = l.text.find("callee = \"ppy_exc_classes\"");
  size_t test = l.text.find("callee = \"ppy_exc_matches\"");
  size_t message = l.text.find("callee = \"ppy_exc_message\"");
  ASSERT_NE(classes, std::string::npos) << l.text;
  ASSERT_NE(test, std::string::npos) << l.text;
  ASSERT_NE(message, std::string::npos) << l.text;
  EXPECT_LT(classes, test) << l.text;
  EXPECT_LT(test, message) << l.text;
}

TEST(Lower, ATryBodyIsOutlinedAndCalledCapturingItsStatus) {
  auto l = lower(
      "def f(xs: list[int], i: int) -> int:\n    n = 0\n    try:\n        n = xs[i]\n        return n\n"
      "    except IndexError as e:\n        print(e)\n    finally:\n        n += 1\n    return n\n\n"
      "def g() -> None:\n    raise ValueError('bad')\n");
  ASSERT_TRUE(l.module) << l.diags;
  // The whole try (finally around it) and its body: private functions of the slots.
  ir::Function* outer = l.module->function("m_f__try1");
  ASSERT_NE(outer, nullptr) << l.text;
  EXPECT_EQ(outer->visibility(), ir::Visibility::Private);
  EXPECT_TRUE(outer->attributes().get("ppy.synthesized")->as_bool());
  EXPECT_EQ(outer->attributes().get("ppy.qualname")->as_string(), "m.f.try1");
  EXPECT_THAT(l.text, HasSubstr("func @m_f__try1__try2("));
  EXPECT_THAT(l.text, HasSubstr("{callee = @m_f__try1, capture_status = true} : i64, i64"));
  EXPECT_THAT(l.text, HasSubstr("{callee = @m_f__try1__try2, capture_status = true} : i64, i64"));
  EXPECT_THAT(l.text, HasSubstr("ptr<i64, stack>"));
  EXPECT_THAT(l.text, HasSubstr("callee = \"ppy_exc_matches\""));
  EXPECT_THAT(l.text, HasSubstr("callee = \"ppy_exc_name\""));
  // (name, message, instance of an exception class, classes, args)
  EXPECT_THAT(l.text, HasSubstr("tuple<ptr<i8>, ptr<i8>, ptr<i8>, ptr<i8>, ptr<i8>>"));
  // The guard inside the body stays a guard: the status carries what it raised.
  EXPECT_THAT(l.text, HasSubstr("{kind = \"bounds\", message = \"list index out of range\"}"));
  EXPECT_THAT(l.text, HasSubstr("callee = \"ppy_exc_raise\""));
  // A function without try is as before: no capture, no outlined body.
  EXPECT_EQ(l.module->function("m_g__try1"), nullptr);
}

TEST(Lower, ObjectsAreHandlesToTheirClassStructAndDispatchOnTheTypeId) {
  auto l = lower(
      "class A:\n    def __init__(self, x: int) -> None:\n        "
      "self.x = x\n\n    def f(self) -> int:\n"
      "        return self.x\n\n\nclass B(A):\n    def f(self) -> "
      "int:\n        return 2\n\n\n"
      "def g(a: A) -> int:\n    a.x = 5\n    return a.f()\n\n\ndef "
      "h() -> bool:\n    return isinstance(B(1), A)\n");
  ASSERT_TRUE(l.module) << l.diags;
  ir::Function* init = l.module->function("m_A____init__");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->attributes().get("ppy.qualname")->as_string(), "m.A.__init__");
  ASSERT_NE(l.module->function("m_B__f"), nullptr);
  // A field write: the struct loaded, made again with the field, stored.
  EXPECT_THAT(l.text, HasSubstr("core.cast %2 : ptr<struct<A, __tid: i64, x: i64>>"));
  EXPECT_THAT(l.text, HasSubstr("core.struct_extract"));
  EXPECT_THAT(l.text, HasSubstr("core.struct_make"));
  // The call through an A dispatches on the type id between A.f and B.f.
  EXPECT_THAT(l.text, HasSubstr("{field = \"__tid\"}"));
  EXPECT_THAT(l.text, HasSubstr("callee = @m_A__f"));
  EXPECT_THAT(l.text, HasSubstr("callee = @m_B__f"));
  EXPECT_THAT(l.text, HasSubstr("callee = \"ppy_obj_new\""));
}

}  // namespace
}  // namespace ppy::frontend
