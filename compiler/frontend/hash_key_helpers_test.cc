// Objects as dict keys and set members (hash_key_helpers.h): which classes get
// a key helper, which keys call it, which raise TypeError in place, and what is
// refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;
using test_support::check;

using test_support::ir_of;

constexpr const char* kPoint =
    "class P:\n    def __init__(self, x: int) -> None:\n        self.x = x\n\n"
    "    def __eq__(self, other: 'P') -> bool:\n        return self.x == other.x\n\n"
    "    def __hash__(self) -> int:\n        return hash((self.x, 1))\n\n\n";

TEST(HashKeys, EqualityOfItsOwnGoesThroughTheKeyHelper) {
  std::string ir = ir_of(std::string(kPoint) + "def main() -> None:\n    d: dict[P, int] = {}\n    d[P(1)] = 2\n"
                                               "    print(P(1) in d)\n");
  EXPECT_THAT(ir, HasSubstr("__ppy_key_P"));
  EXPECT_THAT(ir, HasSubstr("ppy_hash_lanes"));  // hash((self.x, 1))
  EXPECT_THAT(ir, HasSubstr("\"o:i\""));         // the table's keys are objects
}

TEST(HashKeys, IdentityNeedsNoHelper) {
  std::string ir = ir_of(
      "class N:\n    def __init__(self, x: int) -> None:\n        self.x = x\n\n\n"
      "def main() -> None:\n    s = {N(1), N(1)}\n    print(len(s))\n");
  EXPECT_THAT(ir, Not(HasSubstr("__ppy_key_N")));
  EXPECT_THAT(ir, HasSubstr("ppy_set_add_ptr"));
}

TEST(HashKeys, UnhashableRaisesWhereTheKeyIsUsed) {
  std::string ir = ir_of(
      "from dataclasses import dataclass\n\n\n@dataclass\nclass D:\n    x: int\n\n\n"
      "def main() -> None:\n    s: set[D] = set()\n    s.add(D(1))\n");
  EXPECT_THAT(ir, HasSubstr("unhashable type: 'D'"));
  EXPECT_THAT(ir, Not(HasSubstr("__ppy_key_D")));
}

TEST(HashKeys, FrozenDataclassesKeyByIntAndStrFieldsOnly) {
  EXPECT_THAT(ir_of("from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass C:\n    r: int\n    s: str\n\n\n"
                    "def main() -> None:\n    print(C(1, 'a') in {C(1, 'a'): 1})\n"),
              HasSubstr("__ppy_key_C"));
  EXPECT_THAT(check("from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass C:\n    r: float\n\n\n"
                    "def main() -> None:\n    print(len({C(1.0)}))\n"),
              HasSubstr("E1010 10:15 instances of C as dict keys or set members"));
}

TEST(HashKeys, HashOfValues) {
  EXPECT_EQ(check("def main() -> None:\n    print(hash(3), hash('a'), hash((1, 'b')), hash(True))\n"), "");
  EXPECT_THAT(check("def main() -> None:\n    print(hash(1.5))\n"),
              HasSubstr("E1010 2:16 hash() of float is outside the ppy subset"));
  EXPECT_EQ(check(std::string(kPoint) + "def main() -> None:\n    print(hash(P(1)) == hash(P(1)))\n"), "");
}

}  // namespace
}  // namespace ppy::frontend
