#include "ppy/project/project.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppy/util/error.h"

namespace ppy {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ppy_project_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) {
    fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  fs::path dir_;
};

TEST(ModuleName, FromPath) {
  EXPECT_EQ(module_name_for("src", "src/pkg/mod.ppy"), "pkg.mod");
  EXPECT_EQ(module_name_for("src", "src/main.ppy"), "main");
  EXPECT_EQ(module_name_for("a/src", "a/src/pkg/__init__.ppy"), "pkg");
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(ProjectTest, SingleFileIsOneModuleNamedAfterStem) {
  write("hello.ppy", "def main() -> None:\n    pass\n");
  auto p = load_project((dir_ / "hello.ppy").string());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->modules.size(), 1u);
  EXPECT_EQ(p->modules[0].name, "hello");
  EXPECT_EQ(p->entry, "hello");
  EXPECT_THAT(p->modules[0].text, HasSubstr("def main"));
}

TEST_F(ProjectTest, ReadsToolPpy) {
  write("pyproject.toml", R"([project]
name = "demo"
[tool.ppy]
source-roots = ["src"]
entry = "app.main"
opt-level = 3
[tool.ppy.backends.nvvm]
arch = "sm_80"
fast = true
[tool.ppy.backends.toy]
level = 2
)");
  write("src/app/main.ppy", "x = 1\n");
  write("src/app/util.ppy", "y = 1\n");
  write("src/app/notes.txt", "ignored\n");
  auto p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->modules.size(), 2u);
  EXPECT_EQ(p->modules[0].name, "app.main");
  EXPECT_EQ(p->modules[1].name, "app.util");
  EXPECT_EQ(p->entry, "app.main");
  EXPECT_EQ(p->opt_level, 3);
  ASSERT_EQ(p->backends.size(), 2u);
  EXPECT_EQ(p->backends["nvvm"].options["arch"], "'sm_80'");
  EXPECT_EQ(p->backends["nvvm"].options["fast"], "true");
  EXPECT_EQ(p->backends["toy"].options["level"], "2");
  EXPECT_EQ(p->backends["nvvm"].digest.size(), 64u);
  EXPECT_NE(p->backends["nvvm"].digest, p->backends["toy"].digest);
}

TEST(ByteSize, NumbersAndBinarySuffixes) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("500M"), 500u << 20);
  EXPECT_EQ(parse_byte_size("2G"), uint64_t{2} << 30);
  EXPECT_EQ(parse_byte_size("2GiB"), uint64_t{2} << 30);
  EXPECT_EQ(parse_byte_size("2gb"), uint64_t{2} << 30);
  EXPECT_EQ(parse_byte_size("1T"), uint64_t{1} << 40);
  EXPECT_EQ(parse_byte_size("64k"), 64u << 10);
  for (const char* bad : {"", "M", "2X", "2 G", "-1", "1.5G", "2Gx", "99999999999999999999", "20000000000T"})
    EXPECT_FALSE(parse_byte_size(bad).has_value()) << bad;
}

TEST_F(ProjectTest, ReadsTheCacheSettings) {
  write("pyproject.toml", "[tool.ppy]\ncache-max-size = \"500M\"\nremote-cache = \"http://cache.internal:8080/ppy\"\n");
  write("main.ppy", "x = 1\n");
  auto p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->cache_max_size, uint64_t{500} << 20);
  EXPECT_EQ(p->remote_cache, "http://cache.internal:8080/ppy");
  write("pyproject.toml", "[tool.ppy]\ncache-max-size = 1048576\n");
  p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->cache_max_size, uint64_t{1} << 20);
}

TEST_F(ProjectTest, RefusesBadCacheSettings) {
  write("main.ppy", "x = 1\n");
  for (std::string bad : {"cache-max-size = \"lots\"", "cache-max-size = -5", "cache-max-size = true",
                          "remote-cache = \"ftp://x\"", "remote-cache = 3"}) {
    write("pyproject.toml", "[tool.ppy]\n" + bad + "\n");
    auto p = load_project(dir_.string());
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_EQ(error_code(p.status()), "E1201") << bad;
    EXPECT_THAT(p.status().message(), HasSubstr(bad.substr(0, bad.find(' ')))) << p.status();
  }
}

TEST_F(ProjectTest, DefaultEntryIsTheMainModule) {
  write("pyproject.toml", "[project]\nname = \"x\"\n");
  write("src/app/main.ppy", "x = 1\n");
  write("src/app/util.ppy", "y = 1\n");
  auto p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->entry, "app.main");
  EXPECT_FALSE(p->opt_level.has_value());
}

TEST_F(ProjectTest, Errors) {
  write("pyproject.toml", "[tool.ppy]\nopt-level = 9\n");
  write("src/a.ppy", "x = 1\n");
  auto p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1201");
  EXPECT_THAT(p.status().message(), HasSubstr("opt-level must be an integer from 0 to 3"));

  write("pyproject.toml", "[tool.ppy]\nentry = \"nope\"\n");
  p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1204");
  EXPECT_THAT(p.status().message(), HasSubstr("the modules are a"));

  write("pyproject.toml", "[tool.ppy\n");
  p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1201");
  EXPECT_THAT(p.status().message(), HasSubstr("pyproject.toml:"));

  p = load_project((dir_ / "missing").string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1202");
}

}  // namespace
}  // namespace ppy

namespace ppy {
namespace {

class ModuleSuffixTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy_suffix_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void put(const std::string& rel, const std::string& text) {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel) << text;
  }
  fs::path dir_;
};

TEST_F(ModuleSuffixTest, PyFilesAreToolingUnlessTheProjectSaysOtherwise) {
  put("pyproject.toml", "[tool.ppy]\n");
  put("src/app/main.ppy", "x = 1\n");
  put("setup.py", "print('tooling')\n");
  put("src/app/conftest.py", "y = 2\n");
  auto p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->modules.size(), 1u);
  EXPECT_EQ(p->modules[0].name, "app.main");
}

TEST_F(ModuleSuffixTest, AProjectOfPyModules) {
  put("pyproject.toml", "[tool.ppy]\nmodule-suffix = \".py\"\n");
  put("src/app/main.py", "x = 1\n");
  put("src/app/util.py", "y = 1\n");
  auto p = load_project(dir_.string());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->modules.size(), 2u);
  EXPECT_EQ(p->modules[1].name, "app.util");
  EXPECT_EQ(p->entry, "app.main");

  put("src/app/util.ppy", "y = 2\n");  // python3 would import util.py, ppy util.ppy: refused
  p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1203");
  EXPECT_THAT(p.status().message(), HasSubstr("module app.util comes from both"));
  // It names the suffix this project configured, and what python3 does.
  EXPECT_THAT(p.status().message(),
              HasSubstr("ppy reads the .py file (module-suffix = \".py\") and python3 imports the .py file"));
}

TEST_F(ModuleSuffixTest, NoModulesOfTheSuffixSaysWhatItFound) {
  put("main.py", "x = 1\n");
  auto p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1202");
  EXPECT_THAT(p.status().message(), HasSubstr("set module-suffix = \".py\" in [tool.ppy]"));
  put("pyproject.toml", "[tool.ppy]\nmodule-suffix = \".pyx\"\n");
  p = load_project(dir_.string());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1201");
}

}  // namespace
}  // namespace ppy
