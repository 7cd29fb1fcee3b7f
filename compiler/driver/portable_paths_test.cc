#include "ppy/driver/portable_paths.h"

#include "gtest/gtest.h"

namespace ppy::driver {
namespace {

TEST(PortablePaths, APathInsideTheProjectIsRelativeToIt) {
  EXPECT_EQ(under_root("/home/a/app/src/m.ppy", "/home/a/app"), "src/m.ppy");
  EXPECT_EQ(under_root("/home/a/app/src/m.ppy", "/home/a/app/"), "src/m.ppy");
  EXPECT_EQ(under_root("/home/a/./app/src/m.ppy", "/home/a/app"), "src/m.ppy");
  EXPECT_EQ(under_root("../b/src/m.ppy", "../b"), "src/m.ppy");
  EXPECT_EQ(under_root("src/m.ppy", "."), "src/m.ppy");
  EXPECT_EQ(under_root("m.ppy", "."), "m.ppy");
}

TEST(PortablePaths, APathOutsideTheProjectIsKept) {
  EXPECT_EQ(under_root("/usr/lib/ppy/std.ppy", "/home/a/app"), "/usr/lib/ppy/std.ppy");
  EXPECT_EQ(under_root("/home/a/application/m.ppy", "/home/a/app"), "/home/a/application/m.ppy");
  EXPECT_EQ(under_root("../other/m.ppy", "."), "../other/m.ppy");
  EXPECT_EQ(under_root("/abs/m.ppy", "rel"), "/abs/m.ppy");
  EXPECT_EQ(under_root("", "/a"), "");
}

TEST(PortablePaths, EveryLocationOfAModuleAtAnyDepth) {
  ir::Module m("app.m");
  auto* f = m.add_function(std::make_unique<ir::Function>("f", std::vector<ir::Param>{}, std::vector<ir::Type>{}));
  f->set_loc(ir::Location("/co/a/src/m.ppy", 1, 5));
  ir::Block* entry = f->create_entry_block();
  ir::Operation* loop = entry->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("/co/a/src/m.ppy", 2, 1)));
  auto region = std::make_unique<ir::Region>();
  ir::Block* inner = region->add_block();
  inner->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("/co/a/src/m.ppy", 3, 9)));
  inner->append(ir::Operation::create("core.ret", {}, {}, {}, ir::Location("/elsewhere/x.ppy", 4, 2)));
  loop->regions().push_back(std::move(region));
  make_locations_portable(m, "/co/a");
  EXPECT_EQ(f->loc()->str(), "src/m.ppy:1:5");
  EXPECT_EQ(loop->loc()->str(), "src/m.ppy:2:1");
  EXPECT_EQ(inner->operations()[0]->loc()->str(), "src/m.ppy:3:9");
  EXPECT_EQ(inner->operations()[1]->loc()->str(), "/elsewhere/x.ppy:4:2");
}

}  // namespace
}  // namespace ppy::driver
