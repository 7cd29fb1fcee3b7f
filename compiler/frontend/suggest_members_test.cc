// "Did you mean" for attributes, methods, keyword arguments and modules
// (suggest_members.h, issue 34): each misspelling is answered with the
// nearest candidate, and a name near nothing gets no suggestion.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"
#include "ppy/frontend/frontend.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::check;

constexpr const char* kPerson =
    "class Person:\n"
    "    def __init__(self, name: str, age: int) -> None:\n"
    "        self.name = name\n"
    "        self.age = age\n"
    "\n"
    "    def greet(self) -> str:\n"
    "        return 'hi ' + self.name\n"
    "\n"
    "\n";

TEST(SuggestMembers, AMisspeltAttributeSuggestsTheField) {
  std::string errors = check(std::string(kPerson) + "def main() -> None:\n    p = Person('a', 3)\n    print(p.nmae)\n");
  EXPECT_THAT(errors, HasSubstr("'Person' object has no attribute 'nmae'; did you mean 'name'?"));
}

TEST(SuggestMembers, AMisspeltMethodSuggestsTheMethod) {
  std::string errors =
      check(std::string(kPerson) + "def main() -> None:\n    p = Person('a', 3)\n    print(p.gret())\n");
  EXPECT_THAT(errors, HasSubstr("'Person' object has no attribute 'gret'; did you mean 'greet'?"));
}

TEST(SuggestMembers, AnAttributeNearNothingGetsNoSuggestion) {
  std::string errors =
      check(std::string(kPerson) + "def main() -> None:\n    p = Person('a', 3)\n    print(p.salary)\n");
  EXPECT_THAT(errors, HasSubstr("'Person' object has no attribute 'salary'"));
  EXPECT_THAT(errors, Not(HasSubstr("did you mean")));
}

TEST(SuggestMembers, AMisspeltKeywordArgumentSuggestsTheParameter) {
  std::string errors = check(
      "def repeat(text: str, count: int) -> str:\n    return text * count\n\n\n"
      "def main() -> None:\n    print(repeat('a', cuont=3))\n");
  EXPECT_THAT(errors, HasSubstr("repeat() got an unexpected keyword argument 'cuont'; did you mean 'count'?"));
}

TEST(SuggestMembers, AMisspeltModuleSuggestsTheModule) {
  std::string errors = check("import maht\n\n\ndef main() -> None:\n    print(1)\n");
  EXPECT_THAT(errors, HasSubstr("no module named 'maht' in the project; did you mean 'math'?"));
}

}  // namespace
}  // namespace ppy::frontend
