// Identifiers and string literals as a source-emitting backend writes them.
#include "ppy/source/names.h"

#include "gtest/gtest.h"

namespace ppy::source {
namespace {

TEST(Names, AnIdentifierKeepsWordBytesAndStartsWithoutADigit) {
  EXPECT_EQ(identifier("app.main"), "app_main");
  EXPECT_EQ(identifier("2x"), "_2x");
  EXPECT_EQ(identifier(""), "");
}

TEST(Names, ADoubleQuotedLiteralEscapesQuotesBackslashesAndControlBytes) {
  EXPECT_EQ(double_quoted("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(double_quoted("x\ny\t\x01\x7f"), R"("x\ny\t\x01\x7f")");
  EXPECT_EQ(double_quoted("é"), "\"é\"");  // UTF-8 as it is
}

}  // namespace
}  // namespace ppy::source
