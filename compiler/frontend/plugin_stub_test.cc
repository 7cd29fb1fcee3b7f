// plugins (issue 36): a plugin's typed stub, as the frontend reads it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"

namespace ppy::frontend {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

struct Lowered {
  std::string diagnostics;
  std::string ir;
};

/// Project of `main.ppy` and the stub `vecmath.pyi`, lowered.
Lowered lower(const std::string& main, const std::string& stub, const std::string& stub_path = "vecmath.pyi") {
  Project p;
  p.root = ".";
  p.modules = {{"main", "main.ppy", main}, {"vecmath", stub_path, stub}};
  p.entry = "main";
  DiagnosticEngine d;
  auto modules = lower_project(p, d);
  Lowered out;
  for (auto& diag : d.diagnostics())
    out.diagnostics += diag.code + " " + diag.file + ":" + std::to_string(diag.line) + ":" + std::to_string(diag.col) +
                       " " + diag.message + "\n";
  for (auto& m : modules) out.ir += ir::print_module(*m);
  return out;
}

const char* kStub = R"(from ppy import extern


@extern("vecmath_dot", library="vecmath")
def _dot(a: list[float], b: list[float]) -> float: ...


def dot(a: list[float], b: list[float]) -> float:
    if len(a) != len(b):
        raise ValueError("lengths differ")
    return _dot(a, b)
)";

TEST(PluginStub, AnExternLowersToACallOfTheLibrarysSymbolWithListsAsDataAndLength) {
  Lowered l = lower("import vecmath\n\n\ndef main() -> None:\n    print(vecmath.dot([1.0], [2.0]))\n", kStub);
  ASSERT_THAT(l.diagnostics, IsEmpty());
  EXPECT_THAT(l.ir, HasSubstr("core.call_extern %0, %1, %2, %3 {abi = \"c\", callee = \"vecmath_dot\", library = "
                              "\"vecmath\"} : f64"));
  EXPECT_THAT(l.ir, HasSubstr("core.buffer_data %a"));
  // The stub's own functions never take a C symbol's name.
  EXPECT_THAT(l.ir, HasSubstr("@vecmath_P_dot"));
  EXPECT_THAT(l.ir, HasSubstr("@vecmath_P__dot"));
  EXPECT_THAT(l.ir, Not(HasSubstr("func @vecmath_dot(")));
}

/// The IR of module `main` alone (lower() prints main's module first).
std::string main_ir(const Lowered& l) { return l.ir.substr(0, l.ir.find("module @vecmath")); }

TEST(PluginStub, ACallersModuleHoldsPrivateCopiesOfTheStubFunctionsItCalls) {
  Lowered l = lower("import vecmath\n\n\ndef main() -> None:\n    print(vecmath.dot([1.0], [2.0]))\n", kStub);
  ASSERT_THAT(l.diagnostics, IsEmpty());
  std::string ir = main_ir(l);
  // Copies the optimizer inlines into main, so a plugin's pass sees the extern there.
  EXPECT_THAT(ir, HasSubstr("private func @vecmath_P_dot("));
  EXPECT_THAT(ir, HasSubstr("private func @vecmath_P__dot("));
  EXPECT_THAT(ir, HasSubstr("callee = \"vecmath_dot\""));
  EXPECT_THAT(ir, Not(HasSubstr("extern func @vecmath_P_dot")));
}

TEST(PluginStub, AStubFunctionReachingItsModulesVariablesIsCalledAcrossModules) {
  const char* stub = R"(calls = 0


def counted() -> int:
    global calls
    calls += 1
    return calls
)";
  Lowered l = lower("import vecmath\n\n\ndef main() -> None:\n    print(vecmath.counted())\n", stub);
  ASSERT_THAT(l.diagnostics, IsEmpty());
  std::string ir = main_ir(l);
  EXPECT_THAT(ir, HasSubstr("extern func @vecmath_P_counted"));
  EXPECT_THAT(ir, Not(HasSubstr("private func @vecmath_P_counted")));
}

TEST(PluginStub, AWrongCallIsTheCallersDiagnostic) {
  Lowered l = lower("import vecmath\n\n\ndef main() -> None:\n    print(vecmath.dot([1.0], 2))\n", kStub);
  EXPECT_THAT(l.diagnostics, HasSubstr("E1030 main.ppy:5:30 argument 'b' of vecmath.dot() must be list[float]"));
}

TEST(PluginStub, AnExternOutsideAStubOrWithABodyOrAnUncrossableTypeIsRefused) {
  std::string main = "import vecmath\n\n\ndef main() -> None:\n    pass\n";
  Lowered outside =
      lower(main, "from ppy import extern\n\n\n@extern(\"f\")\ndef f(x: int) -> int:\n    return x\n", "vecmath.ppy");
  EXPECT_THAT(outside.diagnostics, HasSubstr("E1010 vecmath.ppy:4:"));
  EXPECT_THAT(outside.diagnostics, HasSubstr("@ppy.extern declares a function of a plugin's "
                                             "native library: it belongs in the plugin's typed stub"));
  Lowered body = lower(main, "from ppy import extern\n\n\n@extern(\"f\")\ndef f(x: int) -> int:\n    return x\n");
  EXPECT_THAT(body.diagnostics, HasSubstr("the @ppy.extern function 'f' has a body"));
  Lowered type = lower(main, "from ppy import extern\n\n\n@extern(\"f\")\ndef f(x: str) -> int: ...\n");
  EXPECT_THAT(type.diagnostics, HasSubstr("parameter 'x' of the @ppy.extern function 'f' is str, which does not "
                                          "cross to C"));
  Lowered bad = lower(main, "from ppy import extern\n\n\n@extern(3)\ndef f(x: int) -> int: ...\n");
  EXPECT_THAT(bad.diagnostics, HasSubstr("@ppy.extern takes the C symbol"));
}

const char* kOpStub = R"(from ppy import op


@op("devicelib.fill")
def fill(count: int, value: float) -> float: ...
)";

TEST(PluginStub, AnOpDeclarationLowersToTheOpOfThePluginsDialect) {
  Lowered l = lower("import vecmath\n\n\ndef main() -> None:\n    print(vecmath.fill(4, 2.5))\n", kOpStub);
  ASSERT_THAT(l.diagnostics, IsEmpty());
  // The stub's function is the op, its arguments the operands, its result the op's;
  // the caller's module holds a copy, so it declares the dialect too.
  EXPECT_THAT(l.ir, HasSubstr("devicelib.fill %count, %value : f64"));
  std::string ir = main_ir(l);
  EXPECT_THAT(ir, HasSubstr("private func @vecmath_P_fill("));
  EXPECT_THAT(ir, HasSubstr("devicelib"));
}

TEST(PluginStub, AnOpOutsideAStubWithABodyOrOfABuiltinDialectIsRefused) {
  std::string main = "import vecmath\n\n\ndef main() -> None:\n    pass\n";
  Lowered outside =
      lower(main, "from ppy import op\n\n\n@op(\"dev.f\")\ndef f(x: int) -> int:\n    return x\n", "vecmath.ppy");
  EXPECT_THAT(outside.diagnostics, HasSubstr("E1010 vecmath.ppy:4:"));
  EXPECT_THAT(outside.diagnostics, HasSubstr("@ppy.op declares an op of a plugin's dialect: it belongs in"));
  Lowered body = lower(main, "from ppy import op\n\n\n@op(\"dev.f\")\ndef f(x: int) -> int:\n    return x\n");
  EXPECT_THAT(body.diagnostics, HasSubstr("the @ppy.op function 'f' has a body"));
  Lowered core = lower(main, "from ppy import op\n\n\n@op(\"core.add\")\ndef f(x: int) -> int: ...\n");
  EXPECT_THAT(core.diagnostics, HasSubstr("E1032 vecmath.pyi:4:"));
  EXPECT_THAT(core.diagnostics, HasSubstr("@ppy.op takes the full name of an op of the plugin's own dialect"));
  Lowered bare = lower(main, "from ppy import op\n\n\n@op(\"fill\")\ndef f(x: int) -> int: ...\n");
  EXPECT_THAT(bare.diagnostics, HasSubstr("@ppy.op takes the full name"));
}

TEST(PluginStub, EllipsisStaysRefusedOutsideAStub) {
  Lowered l = lower("def main() -> None:\n    x = ...\n", "");
  EXPECT_THAT(l.diagnostics, HasSubstr("E1010 main.ppy:2:9 '...' (Ellipsis)"));
}

}  // namespace
}  // namespace ppy::frontend
