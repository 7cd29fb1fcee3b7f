// python3's words for operators their operands do not take, and for attributes
// of builtin types and modules Python does not have (issue 34): each expected
// text is what python3.11 raises for the same operands.
#include "operand_errors.h"

#include <gtest/gtest.h>

#include "python_attributes.h"
#include "types.h"

namespace ppy::frontend {
namespace {

TEST(OperandErrors, EachOrderAndOperatorInPython3sWords) {
  Ty ints = list_of(Ty::Int);
  EXPECT_EQ(operand_type_error("+", Ty::Int, Ty::Str), "unsupported operand type(s) for +: 'int' and 'str'");
  EXPECT_EQ(operand_type_error("+", Ty::Str, Ty::Int), "can only concatenate str (not \"int\") to str");
  EXPECT_EQ(operand_type_error("+", ints, Ty::Str), "can only concatenate list (not \"str\") to list");
  EXPECT_EQ(operand_type_error("+", Ty::Str, ints), "can only concatenate str (not \"list\") to str");
  EXPECT_EQ(operand_type_error("-", Ty::Str, Ty::Int), "unsupported operand type(s) for -: 'str' and 'int'");
  EXPECT_EQ(operand_type_error("*", Ty::Float, Ty::Str), "can't multiply sequence by non-int of type 'float'");
  EXPECT_EQ(operand_type_error("*", Ty::Str, Ty::Float), "can't multiply sequence by non-int of type 'float'");
  EXPECT_EQ(operand_type_error("*", Ty::Str, ints), "can't multiply sequence by non-int of type 'list'");
  EXPECT_EQ(operand_type_error("**", Ty::Int, Ty::Str), "unsupported operand type(s) for ** or pow(): 'int' and 'str'");
  EXPECT_EQ(operand_type_error("//", Ty::Float, Ty::Str), "unsupported operand type(s) for //: 'float' and 'str'");
  EXPECT_EQ(operand_type_error("%", Ty::Float, Ty::Str), "unsupported operand type(s) for %: 'float' and 'str'");
}

TEST(OperandErrors, AnExceptionIsNamedByItsClass) {
  // A caught exception's type is one for every builtin class: the checker gives
  // the class its clause caught (issue 34), else python3's common base.
  EXPECT_EQ(python_type_of(Ty::Exc), "Exception");
  EXPECT_EQ(operand_type_error("+", Ty::Exc, Ty::Int, "ValueError", "int"),
            "unsupported operand type(s) for +: 'ValueError' and 'int'");
  EXPECT_EQ(operand_type_error("+", Ty::Str, Ty::Exc, "str", "KeyError"),
            "can only concatenate str (not \"KeyError\") to str");
}

TEST(PythonAttributes, MissingOnesAreAttributeErrorsAndPythonsOwnAreNot) {
  EXPECT_EQ(missing_attribute("list", "apend"), "'list' object has no attribute 'apend'; did you mean 'append'?");
  EXPECT_EQ(missing_attribute("module math", "sqr"), "module 'math' has no attribute 'sqr'; did you mean 'sqrt'?");
  EXPECT_EQ(missing_attribute("list", "index_of"), "'list' object has no attribute 'index_of'");
  EXPECT_EQ(missing_attribute("str", "istitle"), "");   // Python's: the subset's refusal says so (E1010)
  EXPECT_EQ(missing_attribute("module math", "frexp"), "");
  EXPECT_EQ(missing_attribute("Person", "x"), "");      // not a builtin type: the class's own rule
  ASSERT_NE(python_keywords("sorted"), nullptr);
  EXPECT_EQ(python_keywords("len"), nullptr);
}

}  // namespace
}  // namespace ppy::frontend
