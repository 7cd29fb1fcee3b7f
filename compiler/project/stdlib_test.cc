// The standard library written in ppy (stdlib.cc): what a project that imports
// it gets, and a project module shadowing it as in Python.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "ppy/project/project.h"

namespace ppy {
namespace {
namespace fs = std::filesystem;

class StdlibTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy_stdlib_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    write("std/heapq.ppy", "def heappush(h: list[int], x: int) -> None:\n    h.append(x)\n");
    write("std/bisect.ppy", "import heapq\n");
    write("std/unused.ppy", "X = 1\n");
    ::setenv("PPY_STDLIB", (dir_ / "std").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("PPY_STDLIB");
    fs::remove_all(dir_);
  }
  void write(const std::string& rel, const std::string& text) {
    fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  static std::vector<std::string> names(const Project& p) {
    std::vector<std::string> out;
    for (auto& m : p.modules) out.push_back(m.name);
    return out;
  }
  fs::path dir_;
};

TEST_F(StdlibTest, AnImportedModuleAndWhatItImportsAreAdded) {
  write("app/main.ppy", "import os\nfrom bisect import insort\n\ndef main() -> None:\n    pass\n");
  auto p = load_project((dir_ / "app/main.ppy").string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(names(*p), ::testing::ElementsAre("bisect", "heapq", "main"));
  EXPECT_EQ(p->entry, "main");
  EXPECT_EQ(p->module("heapq")->path, (dir_ / "std/heapq.ppy").string());
}

TEST_F(StdlibTest, AProjectModuleShadowsTheStandardOne) {
  write("proj/pyproject.toml", "[tool.ppy]\nentry = \"main\"\n");
  write("proj/main.ppy", "import heapq, math\n");
  write("proj/heapq.ppy", "def heappush(h: list[int], x: int) -> None:\n    pass\n");
  auto p = load_project((dir_ / "proj").string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(names(*p), ::testing::ElementsAre("heapq", "main"));
  EXPECT_EQ(p->module("heapq")->path, (dir_ / "proj/heapq.ppy").string());
}

TEST_F(StdlibTest, NothingIsAddedWithoutAnImport) {
  write("solo.ppy", "# import heapq is only a comment here\nprint(1)\n");
  auto p = load_project((dir_ / "solo.ppy").string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(names(*p), ::testing::ElementsAre("solo"));
}

}  // namespace
}  // namespace ppy
