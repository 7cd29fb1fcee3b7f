#include "builtin_exceptions.h"

#include <gtest/gtest.h>

namespace ppy::frontend {
namespace {

TEST(BuiltinExceptions, AnExceptCatchesTheClassAndItsSubclasses) {
  EXPECT_EQ(caught_by("ZeroDivisionError"), "ZeroDivisionError");
  EXPECT_EQ(caught_by("ArithmeticError"), "ArithmeticError ZeroDivisionError OverflowError FloatingPointError");
  EXPECT_EQ(caught_by("LookupError"), "LookupError IndexError KeyError");
  EXPECT_EQ(caught_by("RuntimeError"), "RuntimeError NotImplementedError RecursionError");
  EXPECT_EQ(caught_by("Exception"), "Exception");
  EXPECT_TRUE(is_builtin_exception("KeyError"));
  EXPECT_FALSE(is_builtin_exception("AppError"));
}

TEST(BuiltinExceptions, TheClassesProgramsRaiseThemselves) {
  EXPECT_EQ(caught_by("NameError"), "NameError UnboundLocalError");
  EXPECT_EQ(caught_by("ImportError"), "ImportError ModuleNotFoundError");
  EXPECT_EQ(caught_by("OSError"),
            "OSError FileNotFoundError FileExistsError PermissionError IsADirectoryError NotADirectoryError "
            "TimeoutError ConnectionError");
  EXPECT_EQ(caught_by("SyntaxError"), "SyntaxError");
  for (const char* n : {"StopIteration", "AttributeError", "EOFError", "SyntaxError"})
    EXPECT_TRUE(is_builtin_exception(n)) << n;
}

}  // namespace
}  // namespace ppy::frontend
