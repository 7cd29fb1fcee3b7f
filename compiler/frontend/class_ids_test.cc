// Class ids and exception names across modules (class_ids.h) and the skipped
// first fill of an exception's arguments (exception_init_args.h), on the IR.
#include "class_ids.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ClassIds, EntryFromOneOthersFromTheirNames) {
  EXPECT_EQ(first_class_id("app.main", true), 1);
  int64_t a = first_class_id("shop.stock", false), b = first_class_id("shop.basket", false);
  EXPECT_NE(a, b);
  EXPECT_GE(a, int64_t{1} << kClassIdBits);
  EXPECT_EQ((a - 1) % (int64_t{1} << kClassIdBits), 0);
  EXPECT_EQ(a, first_class_id("shop.stock", false));  // the name alone decides: cached modules stay apart
}

constexpr const char* kStock =
    "class OutOfStock(ValueError):\n"
    "    def __init__(self, name: str, left: int) -> None:\n"
    "        super().__init__(f\"{name}: {left} left\")\n"
    "        self.left = left\n\n\n"
    "def take(n: int) -> int:\n"
    "    if n > 3:\n        raise OutOfStock(\"milk\", 3)\n"
    "    return n\n";
constexpr const char* kMain =
    "from shop import stock\n\n\n"
    "class OutOfStock(Exception):\n    pass\n\n\n"
    "def main() -> None:\n"
    "    try:\n        stock.take(5)\n"
    "    except OutOfStock:\n        print(\"mine\")\n"
    "    except ValueError as e:\n        print(e)\n";

std::map<std::string, std::string> lower_shop() {
  Project p;
  p.entry = "shop.main";
  p.modules = {SourceModule{"shop.main", "shop/main.ppy", kMain}, SourceModule{"shop.stock", "shop/stock.ppy", kStock}};
  DiagnosticEngine d;
  std::map<std::string, std::string> text;
  for (auto& m : lower_project(p, d)) text[m->name()] = ir::print_module(*m);
  EXPECT_EQ(render_diagnostics(d), "");
  return text;
}

TEST(ClassIds, ExceptionClassesOfTwoModulesStayApart) {
  auto text = lower_shop();
  ASSERT_EQ(text.size(), 2u);
  // The entry's class is named alone; the other module's by its module.
  EXPECT_THAT(text["shop.main"], HasSubstr("text = \"OutOfStock\""));
  EXPECT_THAT(text["shop.stock"], HasSubstr("text = \"shop.stock.OutOfStock ValueError\""));
  EXPECT_THAT(text["shop.main"], Not(HasSubstr("shop.stock.OutOfStock")));
  // Its type id is drawn from its module's name, not 1.
  EXPECT_THAT(text["shop.stock"], HasSubstr(std::to_string(first_class_id("shop.stock", false))));
}

TEST(ExceptionInitArgs, ConstructorLeavesTheFillToSuperInit) {
  auto text = lower_shop();
  // `OutOfStock("milk", 3)` makes no `('milk', 3)` text: __init__'s super().__init__ fills the fields.
  EXPECT_THAT(text["shop.stock"], Not(HasSubstr("text = \"(\"")));
  EXPECT_THAT(text["shop.stock"], Not(HasSubstr("text = \", \"")));
}

}  // namespace
}  // namespace ppy::frontend
