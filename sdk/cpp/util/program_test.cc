#include "ppy/util/program.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace ppy {
namespace {

TEST(FindProgram, FindsTheFirstExecutableOnTheSearchPath) {
  fs::path root = fs::temp_directory_path() / ("ppy-find-program-" + std::to_string(::getpid()));
  fs::create_directories(root / "a");
  fs::create_directories(root / "b");
  fs::create_directories(root / "c" / "tool");  // a folder is no program
  std::ofstream(root / "a" / "tool") << "not executable";
  std::ofstream(root / "b" / "tool") << "#!/bin/sh\n";
  fs::permissions(root / "b" / "tool", fs::perms::owner_all);
  std::string path = (root / "c").string() + "::" + (root / "a").string() + ":" + (root / "b").string();

  EXPECT_EQ(find_program("tool", path), root / "b" / "tool");
  EXPECT_EQ(find_program("absent", path), std::nullopt);
  EXPECT_EQ(find_program((root / "b" / "tool").string()), root / "b" / "tool");
  EXPECT_EQ(find_program((root / "a" / "tool").string()), std::nullopt);
  EXPECT_EQ(find_program(""), std::nullopt);
  fs::remove_all(root);
}

TEST(FindProgram, SearchesPathAsTheBuiltinsReportTheirTools) {
  // `ppy doctor`'s `cc at /usr/bin/cc`: the shell's own lookup agrees.
  std::optional<fs::path> sh = find_program("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_TRUE(sh->is_absolute());
  EXPECT_EQ(::access(sh->c_str(), X_OK), 0);
}

}  // namespace
}  // namespace ppy
