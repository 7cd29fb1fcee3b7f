// Unset fields (field_init.h): which fields get a set flag, so that a read
// before any assignment raises AttributeError, and which need none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::ir_of;

TEST(FieldInit, FieldsAssignedFirstInInitNeedNoFlag) {
  std::string ir = ir_of(
      "class P:\n    def __init__(self, x: int, y: int) -> None:\n        self.x = x\n        self.y: int = y + self.x\n"
      "        self.show()\n\n    def show(self) -> None:\n        print(self.x, self.y)\n\n\n"
      "class Q(P):\n    def __init__(self, x: int) -> None:\n        super().__init__(x, 1)\n        self.z = 2\n\n\n"
      "def main() -> None:\n    print(Q(1).z)\n");
  EXPECT_THAT(ir, HasSubstr("__isset_z"));  // P's __init__ hands self to show() before Q sets z
  EXPECT_THAT(ir, Not(HasSubstr("__isset_x")));
  EXPECT_THAT(ir, Not(HasSubstr("__isset_y")));
}

TEST(FieldInit, AnEarlyReturnLeavesTheRestFlagged) {
  std::string ir = ir_of(
      "class C:\n    def __init__(self, n: int) -> None:\n        self.a = n\n        if n < 0:\n"
      "            return\n        self.b = n\n\n\ndef main() -> None:\n    print(C(1).b)\n");
  EXPECT_THAT(ir, HasSubstr("__isset_b"));
  EXPECT_THAT(ir, HasSubstr("has no attribute 'b'"));
  EXPECT_THAT(ir, Not(HasSubstr("__isset_a")));
}

}  // namespace
}  // namespace ppy::frontend
