#include "ppy/backend/struct_type.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ppy {
namespace {

TEST(StructType, MembersInOrderWithoutTheStorage) {
  ir::Type point = ir::Type::struct_("Point", {{"x", ir::Type::f64()}, {"y", ir::Type::f64()}, {"n", ir::Type::i64()}});
  ASSERT_TRUE(is_struct(point));
  EXPECT_EQ(struct_name(point), "Point");
  std::vector<StructMember> members = struct_members(point);
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].name, "x");
  EXPECT_EQ(members[2].name, "n");
  EXPECT_EQ(members[2].type, ir::Type::i64());
  EXPECT_EQ(members[2].index, 2u);
  std::optional<StructMember> y = struct_member(point, "y");
  ASSERT_TRUE(y.has_value());
  EXPECT_EQ(y->index, 1u);
  EXPECT_EQ(y->type, ir::Type::f64());
  EXPECT_EQ(struct_member(point, "z"), std::nullopt);
  EXPECT_EQ(struct_member_at(point, 0)->name, "x");
  EXPECT_EQ(struct_member_at(point, 3), std::nullopt);
}

TEST(StructType, AnotherTypeHasNoMembers) {
  EXPECT_FALSE(is_struct(ir::Type::i64()));
  EXPECT_FALSE(is_struct(ir::Type()));
  EXPECT_EQ(struct_name(ir::Type::i64()), "");
  EXPECT_TRUE(struct_members(ir::Type::tuple({ir::Type::i64()})).empty());
  EXPECT_EQ(struct_member(ir::Type::i64(), "x"), std::nullopt);
}

}  // namespace
}  // namespace ppy
