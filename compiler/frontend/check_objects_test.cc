// The checker's exception classes, special methods and class members
// (docs/language.md, "Classes" and "Exceptions"): what is accepted, what is
// refused and why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exception_classes.h"
#include "frontend_test_support.h"
#include "ppy/frontend/frontend.h"
#include "types.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;

using test_support::check;

constexpr const char* kErrors =
    "class AppError(Exception):\n    pass\n\n\n"
    "class Missing(AppError):\n    def __init__(self, key: str) -> None:\n"
    "        super().__init__(key)\n        self.key = key\n\n\n";

TEST(ExceptionClasses, RaisedCaughtAndTheirFieldsRead) {
  EXPECT_EQ(check(std::string(kErrors) + "def f(k: str) -> str:\n    try:\n        raise Missing(k) from None\n"
                                         "    except (Missing, AppError) as e:\n        return str(e) + repr(e)\n"
                                         "    except ValueError as e:\n        raise\n"),
            "");
  EXPECT_EQ(check(std::string(kErrors) + "def f(k: str) -> str:\n    try:\n        raise Missing(k)\n"
                                         "    except Missing as e:\n        return e.key\n"),
            "");
  // `e` of two clauses is two locals: an instance, then a builtin exception.
  EXPECT_EQ(check(std::string(kErrors) +
                  "def f() -> None:\n    try:\n        raise AppError('a', 1)\n    except AppError as e:\n"
                  "        print(e)\n    try:\n        print(1 // 0)\n    except ZeroDivisionError as e:\n"
                  "        print(e)\n"),
            "");
}

TEST(ExceptionClasses, Refused) {
  EXPECT_THAT(check(std::string(kErrors) + "def f() -> None:\n    raise AppError\n"),
              HasSubstr("E1010 12:11 raising class 'AppError' itself is outside the ppy subset"));
  EXPECT_THAT(check("class Box:\n    pass\n\n\ndef f() -> None:\n    raise Box()\n"),
              HasSubstr("E1030 6:11 exceptions must derive from BaseException, not Box"));
  EXPECT_THAT(check(std::string(kErrors) + "def f(e: Missing) -> int:\n    return len(e.__str)\n"),
              HasSubstr("'Missing' object has no attribute '__str'"));
}

TEST(ExceptionClasses, HiddenFieldsAndClasses) {
  ClassInfo base, sub;
  base.name = "AppError";
  make_exception_class(base, "ValueError");
  EXPECT_EQ(base.fields.size(), 5u);  // __classes, __str, __args, __argv (e.args), __argraw
  EXPECT_FALSE(has_own_fields(base));
  EXPECT_TRUE(is_hidden_field("__classes"));
  EXPECT_TRUE(is_hidden_field("__argraw"));
  EXPECT_EQ(exception_classes(base), "AppError ValueError");
}

TEST(SpecialMethods, OperatorsCallThem) {
  const char* vec =
      "class V:\n    def __init__(self, x: int) -> None:\n        self.x = x\n\n"
      "    def __add__(self, o: 'V') -> 'V':\n        return V(self.x + o.x)\n\n"
      "    def __lt__(self, o: 'V') -> bool:\n        return self.x < o.x\n\n"
      "    def __len__(self) -> int:\n        return self.x\n\n\n";
  EXPECT_EQ(check(std::string(vec) + "def f(a: V, b: V) -> bool:\n    c = a + b\n    if c:\n        return len(c) > 1\n"
                                     "    return b > a and min([a, b]) is a\n"),
            "");
  EXPECT_THAT(check(std::string(vec) + "def f(a: V, b: V) -> V:\n    return a - b\n"),
              HasSubstr("E1030 16:14 unsupported operand type(s) for -: 'V' and 'V'"));
  EXPECT_THAT(check("class P:\n    def __format__(self, spec: str) -> str:\n        return spec\n"),
              HasSubstr("E1010 2:9 method '__format__' is outside the ppy subset"));
}

TEST(ClassMembers, ConstantsStaticAndClassMethodsProperties) {
  EXPECT_EQ(check("class T:\n    LIMIT = 3\n\n    def __init__(self, v: int) -> None:\n        self.v = v\n\n"
                  "    @property\n    def double(self) -> int:\n        return self.v * 2\n\n"
                  "    @staticmethod\n    def make(v: int) -> 'T':\n        return T(v)\n\n"
                  "    @classmethod\n    def zero(cls) -> 'T':\n        return cls(0)\n\n\n"
                  "def f(t: T) -> int:\n    return t.double + T.LIMIT + t.LIMIT + T.make(1).v + T.zero().v\n"),
            "");
  EXPECT_THAT(check("class T:\n    names = [1]\n"),
              HasSubstr("E1010 2:5 class attributes other than constants are outside the ppy subset"));
}

TEST(ClassMembers, FieldsTypedByDisplaysAndAugmentedThroughAnyOwner) {
  const char* node = "class Node:\n    def __init__(self, v: int) -> None:\n        self.v = v\n\n\n";
  // A display of one known element type types its field; `+=` reaches a field of any expression.
  EXPECT_EQ(check(std::string(node) +
                  "class H:\n    def __init__(self) -> None:\n        self.nodes = [Node(1)]\n"
                  "        self.pos = (0, 0.5)\n        self.seen = {'a': [1]}\n\n\n"
                  "def f(h: H) -> float:\n    h.nodes[0].v += 1\n    h.seen['a'][0] *= 2\n"
                  "    return h.nodes[0].v + h.pos[1]\n"),
            "");
  // Mixed or unknown elements still need the annotation.
  EXPECT_THAT(check("class H:\n    def __init__(self) -> None:\n        self.xs = [1, 'a']\n"),
              HasSubstr("E1031 3:9 field 'xs' of class H needs a type"));
  EXPECT_THAT(check("class H:\n    def __init__(self) -> None:\n        self.xs = []\n"),
              HasSubstr("E1031 3:9 field 'xs' of class H needs a type"));
}

}  // namespace
}  // namespace ppy::frontend
