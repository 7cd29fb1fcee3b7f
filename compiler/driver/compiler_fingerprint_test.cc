#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/driver/compile.h"
#include "ppy/project/project.h"
#include "ppy/util/file.h"

namespace ppy::driver {
namespace {

// The digest in the fingerprint is of the sources this test was built from:
// recomputed here from the build's list of them, it must agree.
TEST(CompilerFingerprint, CarriesTheDigestOfTheCompilersSources) {
  std::ifstream list(std::string(PPY_BINARY_DIR) + "/compiler/driver/compiler_sources.txt");
  ASSERT_TRUE(list) << "the build lists the compiler's sources";
  std::string text, path;
  int files = 0;
  while (std::getline(list, path)) {
    if (path.empty()) continue;
    auto body = read_file(std::string(PPY_SOURCE_DIR) + "/" + path);
    ASSERT_TRUE(body.ok()) << path;
    text += path + " " + sha256_hex(*body) + "\n";
    ++files;
  }
  EXPECT_GT(files, 100) << "the frontend, the passes and the builtin backends are listed";
  std::string digest = sha256_hex(text).substr(0, 16);
  EXPECT_EQ(compiler_source_digest(), digest);
  EXPECT_THAT(compiler_fingerprint(), testing::EndsWith("; source " + digest));
}

}  // namespace
}  // namespace ppy::driver
