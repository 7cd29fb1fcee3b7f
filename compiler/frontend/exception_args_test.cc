// `e.args` and `repr(e)` of exceptions (exception_args.h, check_exception_args.cc):
// the types ppy reads off the program, and what it refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;

using test_support::check;

constexpr const char* kErrors =
    "class AppError(Exception):\n    pass\n\n\n"
    "class Missing(AppError):\n    def __init__(self, key: str, line: int) -> None:\n"
    "        super().__init__(f'missing {key}', line)\n        self.key = key\n\n\n"
    "def fail(n: int) -> None:\n    raise AppError('no', n)\n\n\n";

TEST(ExceptionArgs, TypedFromConstructorsAndSuperInit) {
  // AppError's constructions and Missing's super().__init__ both keep (str, int).
  EXPECT_EQ(check(std::string(kErrors) + "def f() -> int:\n    try:\n        fail(1)\n"
                                         "    except AppError as e:\n        return len(e.args[0]) + e.args[1]\n"
                                         "    return 0\n"),
            "");
  EXPECT_EQ(check("def f() -> str:\n    try:\n        raise ValueError('x')\n"
                  "    except ValueError as e:\n        return e.args[0] + repr(e)\n"),
            "");
}

TEST(ExceptionArgs, RefusedWhenTheTypesCannotBeTold) {
  EXPECT_THAT(check(std::string(kErrors) + "def g() -> None:\n    raise AppError('other', 'types')\n\n\n"
                                           "def f() -> None:\n    try:\n        fail(1)\n"
                                           "    except AppError as e:\n        print(e.args)\n"),
              HasSubstr("e.args of 'AppError' is outside the ppy subset: constructions with arguments of different"));
  EXPECT_THAT(check("class E(Exception):\n    pass\n\n\ndef f() -> None:\n    try:\n        raise E()\n"
                    "    except E as e:\n        print(e.args)\n"),
              HasSubstr("no arguments (the empty tuple is outside the ppy subset)"));
}

}  // namespace
}  // namespace ppy::frontend
