// The checker's rules, each on a small module: what is accepted, what is refused
// and why, and the effects written on functions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "frontend_test_support.h"
#include "ppy/frontend/frontend.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::check;

TEST(Checker, DefiniteAssignmentFollowsBranchesAndLoops) {
  EXPECT_EQ(check("def f(c: bool) -> int:\n    if c:\n        x = 1\n    else:\n        x = 2\n    return x\n"), "");
  EXPECT_THAT(check("def f(n: int) -> int:\n    for i in range(n):\n        last = i\n    return last\n"),
              HasSubstr("E1060 4:12 'last' might be used before it is assigned"));
  EXPECT_EQ(check("def f() -> int:\n    while True:\n        x = 3\n        break\n    return x\n"), "");
  // After return nothing is reachable, so nothing there is "unassigned".
  EXPECT_EQ(check("def f() -> int:\n    return 1\n    return y\n"), "E1020 3:12 name 'y' is not defined\n");
}

// One root cause, one error: a refused statement may have bound or assigned
// what the rest of the body reads, so those reads are not reported again.
TEST(Checker, WhatARefusalImpliesIsNotASecondError) {
  std::string errors = check("def ask() -> int:\n    if True:\n        n = eval(\"7\")\n    return n\n");
  EXPECT_THAT(errors, HasSubstr("E1010 3:13 the builtin 'eval' is outside the ppy subset"));
  EXPECT_THAT(errors, Not(HasSubstr("E1060")));
  // Without a refusal the same read is still an error.
  EXPECT_THAT(check("def ask(b: bool) -> int:\n    if b:\n        n = 1\n    return n\n"), HasSubstr("E1060 4:12"));
}

TEST(Checker, AnUndefinedNameSuggestsTheNearestVisibleOne) {
  EXPECT_EQ(check("def main() -> None:\n    people = [1, 2]\n    print(len(pepole))\n"),
            "E1020 3:15 name 'pepole' is not defined; did you mean 'people'?\n");
  EXPECT_EQ(check("def total(xs: list[int]) -> int:\n    return sum(xs)\n\n\ndef main() -> None:\n    print(totl([1]))\n"),
            "E1020 6:11 name 'totl' is not defined; did you mean 'total'?\n");
  EXPECT_EQ(check("def main() -> None:\n    print(quux)\n"), "E1020 2:11 name 'quux' is not defined\n");
}

TEST(Checker, ReturnsOnEveryPath) {
  EXPECT_EQ(check("def f(x: int) -> int:\n    if x > 0:\n        return 1\n    else:\n        return 2\n"), "");
  EXPECT_EQ(check("def f() -> int:\n    while True:\n        pass\n"), "");
  EXPECT_THAT(check("def f() -> int:\n    while True:\n        break\n"), HasSubstr("E1050"));
  EXPECT_THAT(check("def f() -> int:\n    return\n"), HasSubstr("E1050 2:5 function 'f' must return a int"));
}

TEST(Checker, PromotionOnlyInArithmetic) {
  EXPECT_EQ(check("def f(a: int, b: float) -> float:\n    return a * b + a / 2\n"), "");
  EXPECT_THAT(check("def f(a: int) -> float:\n    return a\n"), HasSubstr("E1030 2:12 function 'f' returns float, not int"));
  EXPECT_THAT(check("def f() -> None:\n    xs = [0.0] * 2\n    xs[0] = 1\n"), HasSubstr("cannot store int in a list[float]"));
}

TEST(Checker, BoolOpsNeedOneType) {
  EXPECT_EQ(check("def f(a: int, b: int) -> int:\n    return a or b\n"), "");
  EXPECT_THAT(check("def f(a: int, b: float) -> bool:\n    return a and b\n"), HasSubstr("E1030"));
}

TEST(Checker, ImportsResolveAgainstTheProject) {
  EXPECT_THAT(check("from nowhere import f\n"), HasSubstr("E1070 1:21 no module named 'nowhere' in the project"));
  EXPECT_THAT(check("from math import cbrt\n"), HasSubstr("E1070 1:18 'math.cbrt' is not available in the ppy subset"));
  EXPECT_THAT(check("import m\n"), HasSubstr("module m imports itself"));
}

TEST(Checker, ConstantsFoldAndStayConstant) {
  EXPECT_EQ(check("A = 2 ** 10\nB = A * 3 - 1\nC = -B // 7\n\ndef f() -> int:\n    return C\n"), "");
  EXPECT_THAT(check("A = 2 ** 64\n"), HasSubstr("E1080"));
  // Bound twice, or by a call, a module-level name is a module variable: module
  // code uses it, and a function may read it if module code assigns it first.
  EXPECT_EQ(check("A = 1\nA = 2\nprint(A)\n"), "");
  EXPECT_EQ(check("A = 1\nA = 2\n\ndef g() -> int:\n    return A\n"), "");
  EXPECT_EQ(check("def f() -> int:\n    return 1\nA = f()\n"), "");
  EXPECT_THAT(check("def f() -> int:\n    return 1\n\ndef g() -> int:\n    return A\n\nA = f()\n"),
              HasSubstr("E1010 5:12 'g' uses the module variable 'A', which module-level code does not assign "
                        "before `def g`"));
}

TEST(Checker, GlobalNamesModuleVariables) {
  // Named by `global`, a name bound once is a variable, not a constant.
  EXPECT_EQ(check("N = 0\n\ndef inc() -> None:\n    global N\n    N += 1\n\ninc()\nprint(N)\n"), "");
  // Assigned in a block only, it may be unset when a function runs.
  EXPECT_THAT(check("if True:\n    N = 0\n\ndef inc() -> None:\n    global N\n    N = 1\n"),
              HasSubstr("E1010 5:12 'inc' uses the module variable 'N', which module-level code does not assign"));
  EXPECT_THAT(check("N = 0\n\ndef f(N: int) -> None:\n    global N\n"),
              HasSubstr("E1001 4:12 name 'N' is parameter and global"));
  EXPECT_THAT(check("N = 0\n\ndef f() -> None:\n    global N\n    N: int = 2\n"),
              HasSubstr("E1001 5:5 annotated name 'N' can't be global"));
  EXPECT_THAT(check("def f() -> None:\n    global M\n    M = 2\n"),
              HasSubstr("E1010 2:12 'M' is declared global in 'f' but module-level code does not assign it"));
  EXPECT_THAT(check("N = 0\n\ndef f() -> None:\n    global N\n    N = 2.5\n"),
              HasSubstr("E1030 5:9 'N' holds int; it cannot be given a float"));
  // As Python, the `global` statement comes before the name's uses.
  EXPECT_THAT(check("N = 0\n\ndef f() -> None:\n    N = 1\n    global N\n"),
              HasSubstr("E1001 4:5 name 'N' is assigned to before global declaration"));
  EXPECT_THAT(check("N = 0\n\ndef f() -> None:\n    print(N)\n    global N\n"),
              HasSubstr("E1001 4:11 name 'N' is used prior to global declaration"));
  // A function that assigns the name without `global` has a local of its own.
  EXPECT_EQ(check("N = 0\n\ndef f() -> int:\n    N = 2.5\n    return 1\n\nprint(f(), N)\n"), "");
}

TEST(Checker, PureIsAnEffectClaim) {
  EXPECT_EQ(check("import ppy\n\n@ppy.pure\ndef f(xs: list[int]) -> int:\n    return xs[0] // 2\n"), "");
  EXPECT_EQ(check("import ppy\n\n@ppy.pure\ndef f(x: int) -> None:\n    print(x)\n"),
            "E1110 5:5 'f' is declared @ppy.pure but prints here\n");
  EXPECT_EQ(check("from ppy import pure\n\ndef g(xs: list[int]) -> None:\n    xs[0] = 1\n\n@pure\n"
                  "def f(xs: list[int]) -> int:\n    y = 1\n    g(xs)\n    return y\n"),
            "E1110 9:5 'f' is declared @ppy.pure but calls 'g', which writes to memory (a list element or a module "
            "variable)\n");
  EXPECT_EQ(check("import ppy\nK = 1\nK = 2\n\n@ppy.pure\ndef f() -> int:\n    return K\n"),
            "E1110 7:12 'f' is declared @ppy.pure but uses a module variable here\n");
  // Writing containers it made itself is pure (own_writes.h); an alias of a parameter is not its own.
  EXPECT_EQ(check("import ppy\n\n@ppy.pure\ndef f(n: int) -> dict[int, int]:\n    d: dict[int, int] = {}\n"
                  "    out = []\n    for i in range(n):\n        out.append(i)\n        d[i] = i\n    return d\n"),
            "");
  EXPECT_EQ(check("import ppy\n\n@ppy.pure\ndef f(xs: list[int]) -> None:\n    out = []\n    out = xs\n"
                  "    out.append(1)\n"),
            "E1110 7:5 'f' is declared @ppy.pure but writes to memory (a list element or a module variable) here\n");
}

TEST(Checker, OptLevelIsZeroToThree) {
  EXPECT_EQ(check("import ppy\n\n@ppy.opt(0)\ndef f() -> int:\n    return 1\n"), "");
  EXPECT_EQ(check("import ppy\n\n@ppy.opt(4)\ndef f() -> int:\n    return 1\n"),
            "E1032 3:10 @ppy.opt(level) requires an int level in 0..3\n");
  EXPECT_EQ(check("import ppy\n\n@ppy.opt()\ndef f() -> int:\n    return 1\n"),
            "E1032 3:2 @ppy.opt(level) requires an int level in 0..3\n");
}

TEST(Checker, ModulesDeclaredOnSeveralThreadsReportTheirErrorsInTheModulesOrder) {
  // Parsing and declaring are spread by the ForEach (ppy build -j): each
  // module's errors still come in the project's order, as one at a time.
  Project p;
  p.entry = "a";
  for (int i = 0; i < 6; ++i) {
    std::string name(1, static_cast<char>('a' + i));
    p.modules.push_back({name, name + ".ppy", "def f() -> int:\n    return (1\n\ndef g(x) -> int:\n    return 2\n"});
  }
  DiagnosticEngine serial;
  EXPECT_TRUE(lower_project(p, serial).empty());
  ASSERT_GE(serial.diagnostics().size(), 6u);
  for (int round = 0; round < 5; ++round) {
    DiagnosticEngine spread;
    ForEach two_threads = [](size_t n, const std::function<void(size_t)>& fn) {
      std::atomic<size_t> next{0};
      auto work = [&] {
        for (size_t i; (i = next++) < n;) fn(i);
      };
      std::thread other(work);
      work();
      other.join();
    };
    EXPECT_TRUE(lower_project(p, spread, two_threads, nullptr).empty());
    EXPECT_EQ(render_diagnostics(spread), render_diagnostics(serial));
  }
}

TEST(Checker, EffectsPropagateAcrossTheProject) {
  Project p;
  p.entry = "a";
  p.modules.push_back({"a", "a.ppy", "import b\n\ndef main() -> None:\n    b.g()\n\ndef pure(x: float) -> float:\n    return x * 2.0\n"});
  p.modules.push_back({"b", "b.ppy", "def g() -> None:\n    h()\n\ndef h() -> None:\n    print(1)\n"});
  DiagnosticEngine d;
  auto mods = lower_project(p, d);
  ASSERT_EQ(mods.size(), 2u) << render_diagnostics(d);
  auto effects = [](const ir::Function* f) {
    std::vector<std::string> out;
    for (auto& a : f->attributes().get("ppy.effects")->as_array()) out.push_back(a.as_string());
    return out;
  };
  EXPECT_EQ(effects(mods[0]->function("a_main")), std::vector<std::string>{"io"});
  EXPECT_EQ(effects(mods[0]->function("a_pure")), std::vector<std::string>{"pure"});
  EXPECT_EQ(effects(mods[0]->function("b_g")), std::vector<std::string>{"io"});  // the extern declaration
  EXPECT_EQ(effects(mods[1]->function("b_g")), std::vector<std::string>{"io"});
}

TEST(Checker, ListsAreHeapValuesOfAnyElementType) {
  EXPECT_EQ(check("def f() -> list[float]:\n    return [1.0]\n"), "");
  EXPECT_EQ(check("def f(n: int) -> list[list[str]]:\n    xs: list[list[str]] = []\n    xs.append([\"a\"])\n"
                  "    return xs\n"),
            "");
  EXPECT_THAT(check("def f() -> None:\n    xs = [1, \"a\"]\n"), HasSubstr("E1030"));
  EXPECT_THAT(check("def f() -> None:\n    xs: list[int] = []\n    xs.append(1.5)\n"), HasSubstr("E1030"));
  // A module-level list is a module variable: functions read and change it; a tuple too,
  // unless it mixes a bool with a handle (module_vars.h: its words are rooted one by one).
  EXPECT_EQ(check("XS = [0] * 3\n\ndef f() -> int:\n    XS.append(1)\n    return XS[-1]\n"), "");
  EXPECT_EQ(check("T = (1, 2)\n\ndef f() -> int:\n    return T[0]\n"), "");
  EXPECT_THAT(check("T = (\"a\", True)\n\ndef f() -> str:\n    return T[0]\n"),
              HasSubstr("E1010 4:12 the module variable 'T'"));
  EXPECT_EQ(check("def fill(xs: list[int]) -> None:\n    xs[0] = 1\n\ndef f() -> int:\n    ys = [0] * 2\n    fill(ys)\n    return ys[0]\n"), "");
}

TEST(Checker, TuplesAreValues) {
  EXPECT_EQ(check("def f(a: int, b: int) -> tuple[int, int]:\n    return a // b, a % b\n\n"
                  "def g() -> int:\n    q, r = f(7, 2)\n    t = f(1, 1)\n    return q + r + t[0] + t[-1]\n"),
            "");
  // Nested tuples, displays taking a declared element type, unpacking a nested target.
  EXPECT_EQ(check("def f() -> tuple[tuple[int, float], bool]:\n    return (1, 2.5), True\n\n"
                  "def g() -> float:\n    (a, b), c = f()\n    return b\n"),
            "");
  EXPECT_THAT(check("def f(t: tuple[int, int]) -> int:\n    return t[2]\n"),
              HasSubstr("E1030 2:14 tuple index out of range: 2 indexes a tuple[int, int] of 2 elements"));
  EXPECT_THAT(check("def f(t: tuple[int, str], i: int) -> int:\n    return t[i]\n"),
              HasSubstr("E1010 2:14 a tuple is indexed by a constant int"));
  // ... unless its elements share one type: it is walked as their list (tuple_as_list.h).
  EXPECT_EQ(check("def f(t: tuple[int, int], i: int) -> int:\n    return t[i]\n"), "");
  EXPECT_THAT(check("def f(t: tuple[int, int, int]) -> int:\n    a, b = t\n    return a\n"),
              HasSubstr("E1030 2:12 too many values to unpack (expected 2, got 3)"));
  EXPECT_THAT(check("def f(t: tuple[int, int]) -> int:\n    a, b, c = t\n    return a\n"),
              HasSubstr("not enough values to unpack (expected 3, got 2)"));
  EXPECT_THAT(check("def f() -> tuple[int, float]:\n    return 1, 2\n"),
              HasSubstr("E1030 2:12 function 'f' returns tuple[int, float], not tuple[int, int]"));
  // A tuple holds lists and strs; a list holds tuples and optionals (boxed); None is neither.
  EXPECT_EQ(check("def f(t: tuple[int, list[int]], u: list[tuple[str, int | None]]) -> list[int] | None:\n"
                  "    u.append(('a', None))\n    return t[1]\n"),
            "");
  EXPECT_THAT(check("def f(t: tuple[int, list[None]]) -> None:\n    pass\n"), HasSubstr("E1031"));
  EXPECT_THAT(check("def f() -> None:\n    t = ()\n"), HasSubstr("E1010 2:9 the empty tuple"));
  // Lexicographic order needs elements that order; equality takes any two tuples.
  EXPECT_EQ(check("def f(a: tuple[int, float], b: tuple[int, int, int]) -> bool:\n    return a < b or a == b\n"), "");
  EXPECT_THAT(check("def f(a: tuple[int, int], b: int) -> bool:\n    return a < b\n"), HasSubstr("E1030"));
}

TEST(Checker, OptionalValuesNarrowAfterIsNotNone) {
  const std::string find =
      "def find(xs: list[int], v: int) -> int | None:\n    for i in range(len(xs)):\n"
      "        if xs[i] == v:\n            return i\n    return None\n\n";
  EXPECT_EQ(check(find + "def f(xs: list[int]) -> int:\n    i = find(xs, 3)\n    if i is not None:\n"
                         "        return i + 1\n    return 0\n"),
            "");
  // After an early return, and on the right of `and`, and in a conditional expression.
  EXPECT_EQ(check(find + "def f(xs: list[int]) -> int:\n    i = find(xs, 3)\n    if i is None:\n        return -1\n"
                         "    return i * 2\n"),
            "");
  EXPECT_EQ(check(find + "def f(xs: list[int]) -> bool:\n    i = find(xs, 3)\n    return i is not None and i > 2\n"),
            "");
  EXPECT_EQ(
      check(find + "def f(xs: list[int]) -> int:\n    i = find(xs, 3)\n    return i + 1 if i is not None else 0\n"),
      "");
  EXPECT_THAT(check(find + "def f(xs: list[int]) -> int:\n    i = find(xs, 3)\n    return i + 1\n"),
              HasSubstr("E1034 9:12 'i' may be None here (int | None); test `i is not None` first"));
  // Merging paths: narrowed on one branch only is not narrowed after the if.
  EXPECT_THAT(check(find + "def f(xs: list[int], c: bool) -> int:\n    i = find(xs, 3)\n    if c:\n"
                           "        if i is None:\n            return 0\n    return i\n"),
              HasSubstr("E1034 12:12"));
  // A loop that may assign None forgets what was known before it.
  EXPECT_THAT(check("def f(n: int) -> int:\n    x: int | None = 1\n    total = 0\n    for k in range(n):\n"
                    "        total += x\n        x = None\n    return total\n"),
              HasSubstr("E1034 5:18"));
  EXPECT_THAT(check("def f() -> None:\n    x = None\n"), HasSubstr("E1030 2:9 'x' is first given None"));
  // ... said once: the reads and assignments below it add nothing (no E1060, no E1030).
  EXPECT_EQ(check("def f(xs: list[int]) -> int:\n    best = None\n    for x in xs:\n"
                  "        if best is None or x > best:\n            best = x\n    return best or 0\n"),
            "E1030 2:12 'best' is first given None: declare what else it may hold, `best: int | None = None`\n");
  EXPECT_THAT(check("def f(a: int, b: int) -> bool:\n    return a is b\n"), HasSubstr("E1010"));
  EXPECT_THAT(check("def f(x: int | None) -> bool:\n    return x < 3\n"), HasSubstr("E1034 2:12"));
  // Values and None pass where an optional is declared; `-> int | None` may return None or fall back to it.
  EXPECT_EQ(check("def g(x: int | None) -> int | None:\n    if x is None:\n        return None\n    return x\n\n"
                  "def f() -> None:\n    print(g(3), g(None))\n    y: tuple[int | None, float] = (None, 1.5)\n"
                  "    print(y, y == (None, 1.5))\n"),
            "");
}

TEST(Checker, OptionalParametersTakeNoneDefaultsAndTypingSpellings) {
  EXPECT_EQ(check("def f(x: int, lo: int | None = None, hi: int | None = 3) -> int:\n"
                  "    if lo is not None and x < lo:\n        return lo\n    return x\n\n"
                  "def g() -> int:\n    return f(1) + f(1, 2) + f(1, hi=None)\n"),
            "");
  EXPECT_THAT(check("def f(x: int = None) -> int:\n    return x\n"), HasSubstr("E1010 1:16"));
  EXPECT_EQ(
      check(
          "from typing import Optional, Tuple\n\n"
          "def f(x: Optional[int]) -> Tuple[int, Optional[float]]:\n    return (0, None) if x is None else (x, 1.5)\n"),
      "");
  EXPECT_THAT(check("from typing import Optional\n\ndef f(x: Optional[int, float]) -> None:\n    pass\n"),
              HasSubstr("E1031 3:10 Optional takes one type"));
}

}  // namespace
}  // namespace ppy::frontend
