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
      "def first(xs: list[int]) -> int:\n"
      "    a, *rest = xs\n"
      "    if a > 0:\n"
      "        return a\n"
      "    else:\n"
      "        return rest[0]\n");
  EXPECT_THAT(errors, HasSubstr("E1010 2:8"));
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

}  // namespace
}  // namespace ppy::frontend
