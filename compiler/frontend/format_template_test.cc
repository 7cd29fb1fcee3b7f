// str.format's and %-formatting's templates read at compile time: which
// argument each field takes, the spec a %-field becomes, and Python's messages
// for the templates Python rejects.
#include "format_template.h"

#include "gtest/gtest.h"

namespace ppy::frontend {
namespace {

std::string shape(const std::vector<FormatPiece>& pieces) {
  std::string s;
  for (const FormatPiece& p : pieces) {
    if (!p.field) {
      s += "'" + p.text + "'";
      continue;
    }
    s += "{" + std::to_string(p.arg);
    if (p.conversion) s += std::string("!") + p.conversion;
    if (!p.spec.empty()) s += ":" + p.spec;
    s += "}";
  }
  return s;
}

std::string brace(std::string_view text, size_t n, std::vector<std::string> kw = {}) {
  std::vector<FormatPiece> out;
  FormatError err;
  if (!parse_brace_template(text, n, kw, out, err)) return std::string(err.code) + " " + err.message;
  return shape(out);
}

std::string percent(std::string_view text, size_t n) {
  std::vector<FormatPiece> out;
  FormatError err;
  if (!parse_percent_template(text, n, out, err)) return std::string(err.code) + " " + err.message;
  return shape(out);
}

TEST(BraceTemplate, FieldsTakeTheirArguments) {
  EXPECT_EQ(brace("{} and {}", 2), "{0}' and '{1}");
  EXPECT_EQ(brace("{1}{0}{1}", 2), "{1}{0}{1}");
  EXPECT_EQ(brace("{name!r:>8} {{x}}", 1, {"name"}), "{1!r:>8}' {x}'");
  EXPECT_EQ(brace("{0}{}", 2), "E1030 cannot switch from manual field specification to automatic field numbering");
  EXPECT_EQ(brace("{}{2}", 3), "E1030 cannot switch from automatic field numbering to manual field specification");
  EXPECT_EQ(brace("{2}", 2), "E1030 Replacement index 2 out of range for positional args tuple");
  EXPECT_EQ(brace("a}b", 0), "E1030 Single '}' encountered in format string");
  EXPECT_EQ(brace("a{", 0), "E1030 Single '{' encountered in format string");
  EXPECT_EQ(brace("{:{w}}", 1, {"w"}).substr(0, 4), "run ");  // nested fields: formatted at run time
  EXPECT_EQ(brace("{0.x}", 1).substr(0, 5), "E1010");
}

TEST(PercentTemplate, FieldsBecomeFormatSpecs) {
  EXPECT_EQ(percent("%-10s|%8.2f|%05d|%+d|%#x|%%", 5), "{0!s:<10}'|'{1:8.2f}'|'{2:05d}'|'{3:+d}'|'{4:#x}'|%'");
  EXPECT_EQ(percent("%s %r %.3s", 3), "{0!s}' '{1!r}' '{2!s:>.3}");
  EXPECT_EQ(percent("%e %g", 2), "{0:.6e}' '{1:.6g}");
  EXPECT_EQ(percent("%s %s", 1), "E1030 not enough arguments for format string");
  EXPECT_EQ(percent("%s", 2), "E1030 not all arguments converted during string formatting");
  EXPECT_EQ(percent("%y", 1), "E1030 unsupported format character 'y' (0x79) at index 1");
  EXPECT_EQ(percent("50%", 0), "E1030 incomplete format");
  EXPECT_EQ(percent("%(a)s", 1).substr(0, 4), "run ");  // by name, `*`: formatted at run time
  EXPECT_EQ(percent("%*d", 2).substr(0, 4), "run ");
  EXPECT_EQ(percent("%.3d", 1).substr(0, 4), "run ");
}

TEST(PercentTemplate, KeysInOrderOnce) {
  bool unnamed = false;
  EXPECT_EQ(percent_keys("%(b)s %(a)d %(b)r %%(c)s", unnamed), (std::vector<std::string>{"b", "a"}));
  EXPECT_FALSE(unnamed);
  EXPECT_EQ(percent_keys("%(x)s %s", unnamed), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(unnamed);
}

}  // namespace
}  // namespace ppy::frontend
