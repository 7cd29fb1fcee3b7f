// A plain class's bare field annotations (class_field_annotations.h): each
// declares a field of its type; they are never class attributes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "class_field_annotations.h"
#include "frontend_test_support.h"
#include "parser.h"
#include "ppy/frontend/frontend.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::check;
using test_support::ir_of;

constexpr const char* kPerson =
    "class Person:\n    name: str\n    tags: list[str]\n    LIMIT: int = 3\n\n"
    "    def __init__(self, name: str) -> None:\n        self.name = name\n        self.tags = []\n\n\n";

TEST(ClassFieldAnnotations, OnlyABareNameAnnotationIsOne) {
  DiagnosticEngine d;
  ModuleAst m = parse_module(
      "class P:\n    a: int\n    b: int = 1\n    c = 2\n    d.e: int\n\n    def f(self) -> None:\n        pass\n",
      "m.ppy", d);
  ASSERT_FALSE(d.has_errors());
  const auto& body = m.body[0]->def->body;
  ASSERT_EQ(body.size(), 5u);
  ASSERT_NE(bare_field_annotation(*body[0]), nullptr);
  EXPECT_EQ(*bare_field_annotation(*body[0]), "a");
  for (size_t i = 1; i < body.size(); ++i) EXPECT_EQ(bare_field_annotation(*body[i]), nullptr) << i;
}

TEST(ClassFieldAnnotations, DeclareFieldsOfTheirType) {
  // The annotation types the field: `[]` fits list[str], and a str does not fit it.
  EXPECT_EQ(check(std::string(kPerson) + "def f(p: Person) -> int:\n    p.tags.append(p.name)\n"
                                         "    return len(p.tags) + Person.LIMIT\n"),
            "");
  EXPECT_THAT(check(std::string(kPerson) + "def f(p: Person) -> None:\n    p.tags = p.name\n"),
              HasSubstr("E1030"));
  // A subclass adds its own; one that re-types its base's field is refused.
  EXPECT_EQ(check(std::string(kPerson) +
                  "class Pupil(Person):\n    grade: int\n\n    def __init__(self, name: str) -> None:\n"
                  "        super().__init__(name)\n        self.grade = 1\n\n\n"
                  "def f(p: Pupil) -> int:\n    return p.grade + len(p.name)\n"),
            "");
  EXPECT_THAT(check(std::string(kPerson) + "class Pupil(Person):\n    name: int\n"),
              HasSubstr("E1030 12:5 field 'name' of class Pupil is str; it cannot also be int"));
  // Not a class attribute: python3's `Person.name` is an AttributeError, raised when it runs.
  EXPECT_EQ(check(std::string(kPerson) + "def f() -> str:\n    return Person.name\n"), "");
  EXPECT_THAT(ir_of(std::string(kPerson) + "def f() -> str:\n    return Person.name\n"),
              HasSubstr("type object 'Person' has no attribute 'name'"));
  // A value that is not a constant stays refused.
  EXPECT_THAT(check("class T:\n    names: list[int] = [1]\n"),
              HasSubstr("E1010 2:5 class attributes other than constants are outside the ppy subset"));
}

TEST(ClassFieldAnnotations, AFieldNoMethodSetsFirstIsFlagged) {
  std::string ir = ir_of(
      "class C:\n    n: int\n    label: str\n\n    def __init__(self, label: str) -> None:\n"
      "        self.label = label\n\n    def start(self) -> None:\n        self.n = 0\n\n\n"
      "def main() -> None:\n    print(C('x').n)\n");
  EXPECT_THAT(ir, HasSubstr("__isset_n"));  // read before start() sets it: AttributeError
  EXPECT_THAT(ir, Not(HasSubstr("__isset_label")));
}

}  // namespace
}  // namespace ppy::frontend
