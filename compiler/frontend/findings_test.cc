// Issue 34's diagnostics findings that no other test holds: each message true
// in Python's terms, and one error per root cause.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"
#include "ppy/frontend/frontend.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::check;

// A refused unpacking is the one error: neither "can reach its end without
// returning" nor "might be used before it is assigned" follows from it.
TEST(Issue34Findings, ARefusedUnpackingIsTheOnlyError) {
  std::string errors = check(
      "def first(t: tuple[int, int, int]) -> int:\n"
      "    a, *rest = t\n"
      "    if a > 0:\n"
      "        return a\n"
      "    else:\n"
      "        return rest[0]\n");
  EXPECT_THAT(errors, HasSubstr("E1010 2:5"));
  EXPECT_THAT(errors, Not(HasSubstr("without returning")));
  EXPECT_THAT(errors, Not(HasSubstr("E1060")));
}

// The argument is what the caller passes: "must be list[float], not list[int]".
TEST(Issue34Findings, AnArgumentOfTheWrongListTypeIsNamedTheRightWayRound) {
  std::string errors = check(
      "def average(xs: list[float]) -> float:\n"
      "    return sum(xs) / len(xs)\n"
      "\n\n"
      "def main() -> None:\n"
      "    nums = [1, 2, 3]\n"
      "    print(average(nums))\n");
  EXPECT_THAT(errors, HasSubstr("argument 'xs' of average() must be list[float], not list[int]"));
}

// zip and reversed are Python's: a loop over them is accepted, and a stored
// zip is refused saying where one goes, never that zip is undefined.
TEST(Issue34Findings, ZipAndReversedAreKnownNames) {
  EXPECT_EQ(check("def main() -> None:\n    xs = [1, 2]\n    for a, b in zip(xs, xs):\n        print(a + b)\n"
                  "    for x in reversed(xs):\n        print(x)\n"),
            "");
  std::string stored = check("def main() -> None:\n    xs = [1, 2]\n    z = zip(xs, xs)\n");
  EXPECT_THAT(stored, HasSubstr("zip() is outside the ppy subset here"));
  EXPECT_THAT(stored, Not(HasSubstr("not defined")));
}

// One root cause, one error: a refused statement's own names are not
// reported again, a dropped `if` takes its `else` with it, and a refusal hides
// no later independent error of the same function (in source order).
TEST(Issue34Findings, ARefusalImpliesNothingButHidesNothingElse) {
  std::string awaited = check(
      "def f(xs: list[int]) -> int:\n"
      "    if (await xs) > 2:\n"
      "        return 1\n"
      "    else:\n"
      "        return 0\n");
  EXPECT_THAT(awaited, HasSubstr("E1010 2:9 'await'"));
  EXPECT_THAT(awaited, Not(HasSubstr("unexpected 'else'")));
  std::string later = check(
      "def g(b: bool) -> int:\n"
      "    n = eval(\"7\")\n"
      "    print(n)\n"
      "    if b:\n"
      "        k = 1\n"
      "    print(totl)\n"
      "    return k\n");
  EXPECT_EQ(later,
            "E1010 2:9 the builtin 'eval' is outside the ppy subset\n"
            "E1020 6:11 name 'totl' is not defined\n"
            "E1060 7:12 'k' might be used before it is assigned (ppy needs every path to assign a local before "
            "reading it)\n");
}

// A module's function or the module itself as a value is refused saying so,
// and what the refused assignment bound is no second error.
TEST(Issue34Findings, AModuleOrItsFunctionAsAValueIsRefusedByName) {
  std::string module = check("import math\n\n\ndef main() -> None:\n    m = math\n    print(m.pi)\n");
  EXPECT_THAT(module, HasSubstr("E1010 5:9 a module as a value ('math') is outside the ppy subset"));
  EXPECT_THAT(module, Not(HasSubstr("cuda.launch")));
  std::string function = check("import math\n\nsq = math.sqrt\nprint(sq(2.0))\n");
  EXPECT_THAT(function, HasSubstr("E1010 3:6 the function 'math.sqrt' as a value is outside the ppy subset"));
  EXPECT_THAT(function, Not(HasSubstr("name 'sq' is not defined")));
}

}  // namespace
}  // namespace ppy::frontend
