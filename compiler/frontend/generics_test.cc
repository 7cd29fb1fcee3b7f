// Type aliases and generic functions (docs/language.md, "Type aliases and
// generics"): PEP 695's syntax means what TypeVar's does, each instantiation is
// one function with its own symbol, and what cannot be inferred is said.
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

Lowered lower(const std::string& src, const std::string& name = "m") {
  DiagnosticEngine d;
  SourceModule s{name, name + ".ppy", src};
  LowerResult r = lower_module(s, {}, d);
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

const char* kTypeVarFirst =
    "from typing import TypeVar\n"
    "T = TypeVar(\"T\")\n"
    "def first(xs: list[T]) -> T:\n"
    "    y: T = xs[0]\n"
    "    return y\n"
    "def main() -> None:\n"
    "    print(first([1, 2]), first([\"a\"]), first([3, 4]))\n";

const char* kPep695First =
    "def first[T](xs: list[T]) -> T:\n"
    "    y: T = xs[0]\n"
    "    return y\n"
    "def main() -> None:\n"
    "    print(first([1, 2]), first([\"a\"]), first([3, 4]))\n";

TEST(Generics, EachInstantiationIsOneFunctionWithAMangledSymbol) {
  auto l = lower(kTypeVarFirst);
  ASSERT_TRUE(l.module) << l.diags;
  ir::Function* i = l.module->function("m_first_G_int");
  ASSERT_NE(i, nullptr) << l.text;
  EXPECT_EQ(i->attributes().get("ppy.qualname")->as_string(), "m.first[int]");
  EXPECT_NE(l.module->function("m_first_G_str"), nullptr);
  EXPECT_EQ(l.module->function("m_first"), nullptr);  // the template itself is never lowered
  size_t calls = 0;
  for (size_t at = l.text.find("callee = @m_first_G_int"); at != std::string::npos;
       at = l.text.find("callee = @m_first_G_int", at + 1))
    ++calls;
  EXPECT_EQ(calls, 2u);
  EXPECT_THAT(l.text, Not(HasSubstr("func @m_first_G_int_1")));
}

TEST(Generics, Pep695MeansWhatTypeVarMeans) {
  auto a = lower(kTypeVarFirst), b = lower(kPep695First);
  ASSERT_TRUE(a.module) << a.diags;
  ASSERT_TRUE(b.module) << b.diags;
  auto body = [](const std::string& text) { return text.substr(text.find("func @m_first_G_int")); };
  // The same function, up to the source lines (the PEP 695 module is a line shorter).
  auto strip = [](std::string t) {
    std::string out;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.compare(i, 5, "loc(\"") == 0) {
        i = t.find(')', i);
        continue;
      }
      out += t[i];
    }
    return out;
  };
  EXPECT_EQ(strip(body(a.text)).substr(0, 200), strip(body(b.text)).substr(0, 200));
}

TEST(Generics, TypeAliasesNameTheirTypesEverywhere) {
  auto l = lower(
      "from typing import TypeAlias\n"
      "Vector: TypeAlias = list[float]\n"
      "Matrix = list[Vector]\n"
      "type Grid = list[list[int]]\n"
      "def row(m: Matrix, i: int) -> Vector:\n"
      "    r: Vector = m[i]\n"
      "    return r\n"
      "def size(g: Grid) -> int:\n"
      "    return len(g)\n");
  ASSERT_TRUE(l.module) << l.diags;
  EXPECT_THAT(l.text, HasSubstr("func @m_row(%m: buffer<buffer<f64>>, %i: i64) -> buffer<f64> attrs"));
  EXPECT_THAT(l.text, HasSubstr("func @m_size(%g: buffer<buffer<i64>>) -> i64 attrs"));
}

TEST(Generics, WhatCannotBeInferredIsSaid) {
  auto l = lower(
      "from typing import TypeVar\n"
      "T = TypeVar(\"T\")\n"
      "def pick(a: T, b: T) -> T:\n"
      "    return a\n"
      "def make() -> list[T]:\n"
      "    return []\n"
      "def main() -> None:\n"
      "    print(pick(1, \"x\"))\n");
  EXPECT_FALSE(l.module);
  EXPECT_THAT(l.diags, HasSubstr("type parameter 'T' would be both int and str"));
  auto m = lower(
      "from typing import TypeVar\n"
      "T = TypeVar(\"T\")\n"
      "def make(n: int) -> list[T]:\n"
      "    return []\n"
      "def main() -> None:\n"
      "    print(len(make(3)))\n");
  EXPECT_FALSE(m.module);
  EXPECT_THAT(m.diags, HasSubstr("cannot infer type parameter 'T' of make()"));
}

TEST(Generics, AGenericFunctionIsCalledNotPassed) {
  auto l = lower(
      "def first[T](xs: list[T]) -> T:\n"
      "    return xs[0]\n"
      "def main() -> None:\n"
      "    print(sorted([[2], [1]], key=first))\n");
  EXPECT_FALSE(l.module);
  EXPECT_THAT(l.diags, HasSubstr("generic function 'first' as a value is outside the ppy subset"));
}

TEST(Generics, BoundedTypeVarsAndParamSpecsAreRefused) {
  auto l = lower(
      "from typing import TypeVar, ParamSpec\n"
      "T = TypeVar(\"T\", bound=int)\n"
      "P = ParamSpec(\"P\")\n");
  EXPECT_FALSE(l.module);
  EXPECT_THAT(l.diags, HasSubstr("E1010"));
  EXPECT_THAT(l.diags, HasSubstr("a bounded TypeVar"));
  EXPECT_THAT(l.diags, HasSubstr("a ParamSpec is outside the ppy subset"));
  auto m = lower("def f[T: int](x: T) -> T:\n    return x\n");
  EXPECT_THAT(m.diags, HasSubstr("a bounded type parameter ('T: ...') is outside the ppy subset"));
}

// One stack, declared the TypeVar way and the PEP 695 way.
const std::string kStackMembers =
    "    def __init__(self) -> None:\n"
    "        self.items: list[T] = []\n"
    "    def push(self, item: T) -> None:\n"
    "        self.items.append(item)\n"
    "    def top(self) -> T | None:\n"
    "        return self.items[-1] if self.items else None\n"
    "def main() -> None:\n"
    "    a = Stack[int]()\n"
    "    a.push(1)\n"
    "    b: Stack[str] = Stack()\n"
    "    b.push(\"x\")\n"
    "    print(a.top(), b.top())\n";
const std::string kGenericStack =
    "from typing import Generic, TypeVar\nT = TypeVar(\"T\")\nclass Stack(Generic[T]):\n" + kStackMembers;
const std::string kPep695Stack = "class Stack[T]:\n" + kStackMembers;

TEST(Generics, EachGenericClassInstantiationIsAClassOfItsOwn) {
  for (const std::string& src : {kGenericStack, kPep695Stack}) {
    auto l = lower(src);
    ASSERT_TRUE(l.module) << l.diags;
    EXPECT_THAT(l.text, HasSubstr("m.Stack[int].push"));
    EXPECT_THAT(l.text, HasSubstr("m.Stack[str].push"));
    EXPECT_THAT(l.text, Not(HasSubstr("m.Stack.push")));  // the template is no class
    EXPECT_THAT(l.text, Not(HasSubstr("m.Stack[float]")));
  }
}

TEST(Generics, AGenericClassWithoutItsTypeArgumentsIsSaid) {
  auto l = lower(
      "class Box[T]:\n"
      "    def __init__(self, v: T) -> None:\n"
      "        self.v = v\n"
      "def make(n: int) -> None:\n"
      "    b = Box(n * 2)\n"
      "    c = Box[int, str](n)\n");
  EXPECT_FALSE(l.module);
  EXPECT_THAT(l.diags, HasSubstr("the type arguments of generic class 'Box' are not known here"));
  EXPECT_THAT(l.diags, HasSubstr("generic class 'Box' takes 1 type argument, not 2"));
  auto m = lower(
      "class Box[T]:\n"
      "    def __init__(self, v: T) -> None:\n"
      "        self.v = v\n"
      "def make() -> None:\n"
      "    print(Box(\"a\").v, Box([1.5]).v)\n");
  ASSERT_TRUE(m.module) << m.diags;  // literal arguments say which
  EXPECT_THAT(m.text, HasSubstr("m.Box[str].__init__"));
  EXPECT_THAT(m.text, HasSubstr("m.Box[list[float]].__init__"));
}

}  // namespace
}  // namespace ppy::frontend
