// str.format's and %-formatting's templates read at compile time: which
// argument each field takes, the spec a %-field becomes, and Python's messages
// for the templates Python rejects.
#include "format_template.h"
#include "types.h"

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
  // A field reaching through its argument takes the argument, the rest kept for run time (issue 33).
  std::vector<FormatPiece> out;
  FormatError err;
  ASSERT_TRUE(parse_brace_template("{.x} {[1]}", 2, {}, out, err));
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].reach, ".x");
  EXPECT_EQ(out[2].arg, 1u);  // `{[1]}`: the second automatic field, as python3 numbers it
  EXPECT_EQ(out[2].reach, "[1]");
}

TEST(BraceTemplate, ReachStepsAsPythonReadsThem) {
  std::vector<ReachStep> steps;
  ASSERT_TRUE(reach_steps(".where.x[01][key]", steps));
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_TRUE(steps[0].attribute);
  EXPECT_EQ(steps[1].name, "x");
  EXPECT_TRUE(steps[2].index);  // `[01]`: all digits, the int 1 as python3 reads it
  EXPECT_EQ(steps[2].i, 1);
  EXPECT_FALSE(steps[3].index);
  EXPECT_EQ(steps[3].name, "key");
  for (const char* bad : {".", "[1", "[]", "[1]x", "[-1"}) {
    std::vector<ReachStep> none;
    EXPECT_FALSE(reach_steps(bad, none)) << bad;
  }
  std::vector<ReachStep> neg;
  ASSERT_TRUE(reach_steps("[-1]", neg));  // a str key python3 hands to __getitem__
  EXPECT_FALSE(neg[0].index);
  std::string why;
  EXPECT_EQ(reach_type(list_of(Ty::Str), steps[2], why), Ty::Str);
  EXPECT_EQ(reach_type(list_of(Ty::Str), steps[3], why), Ty::Error);  // TypeError, at run time
  EXPECT_EQ(reach_type(dict_of(Ty::Str, Ty::Float), steps[3], why), Ty::Float);
  EXPECT_EQ(reach_type(tuple_of({Ty::Int, Ty::Str}), steps[2], why), Ty::Str);
  EXPECT_EQ(reach_type(Ty::Int, steps[2], why), Ty::Error);  // TypeError: 'int' object is not subscriptable
  EXPECT_TRUE(why.empty());
  EXPECT_EQ(reach_type(dict_of(Ty::Str, Ty::Float), steps[2], why), Ty::Error);  // python3's KeyError 1: refused
  EXPECT_EQ(why, "an item of a dict[str, float]");
  why.clear();
  EXPECT_EQ(reach_type(Ty::Int, steps[0], why), Ty::Error);  // `{0.real}`
  EXPECT_EQ(why, "an attribute of an int");
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
