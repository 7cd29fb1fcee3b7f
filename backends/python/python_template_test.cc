// The runtime call templates (abi.def's `python` column) and the helpers they
// name: every entry compiles, operands are parenthesized exactly where Python's
// grammar needs it, and a template the writer cannot expand is refused.
#include "python_template.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "python_helpers.h"

namespace ppy::backends::python {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

/// `text` compiled for `n` operands and expanded with `args`.
Expr expand(std::string_view text, const std::vector<Expr>& args, std::string_view text_literal = "") {
  auto t = compile_call_template(text, args.size(), !text_literal.empty());
  EXPECT_TRUE(t.ok()) << text << ": " << t.status();
  if (!t.ok()) return {};
  return t->expand([&](size_t i) { return args.at(i); }, text_literal);
}

TEST(PythonTemplate, EveryEntryOfTheTableIsWritten) {
  for (const runtime::RuntimeFunction& f : runtime::runtime_functions()) {
    const absl::StatusOr<CallTemplate>& t = call_template(f);
    EXPECT_TRUE(t.ok()) << f.symbol << ": " << t.status();
    EXPECT_TRUE(writes_call(f)) << f.symbol << " (\"" << f.python << "\")";
  }
}

TEST(PythonTemplate, OperandsAreParenthesizedWherePythonNeedsIt) {
  Expr sum{"a + b", kAdd}, name{"x", kAtom}, cmp{"a < b", kCmp}, neg{"-a", kUnary}, either{"a if c else b", kTernary};
  Expr e = expand("$0 + $1", {sum, sum});
  EXPECT_EQ(e.text, "a + b + (a + b)");
  EXPECT_EQ(e.prec, kAdd);
  EXPECT_EQ(expand("$0 * $1", {sum, neg}).text, "(a + b) * -a");
  EXPECT_EQ(expand("$0.append($1)", {sum, either}).text, "(a + b).append(a if c else b)");
  EXPECT_EQ(expand("$0[$1]", {neg, sum}).text, "(-a)[a + b]");
  e = expand("int($1 in $0)", {cmp, name});
  EXPECT_EQ(e.text, "int(x in (a < b))");
  EXPECT_EQ(e.prec, kAtom);
  EXPECT_EQ(expand("[0] * $0", {sum}).text, "[0] * (a + b)");
  EXPECT_EQ(expand("(max if $1 else min)($0)", {sum, either}).text, "(max if (a if c else b) else min)(a + b)");
  EXPECT_EQ(expand("[$1] + [None] * ($0 // 8 - 1)", {sum, sum}).text, "[a + b] + [None] * ((a + b) // 8 - 1)");
  EXPECT_EQ(expand("[$1] + [None] * ($0 // 8 - 1)", {name, name}).prec, kAdd);
  EXPECT_EQ(expand("not $0", {cmp}).text, "not a < b");
  EXPECT_EQ(expand("$0 ** $1", {neg, neg}).text, "(-a) ** -a");
  EXPECT_EQ(expand("$0 if $1 else $2", {either, either, either}).text,
            "(a if c else b) if (a if c else b) else a if c else b");
  e = expand("raise _ppy_exc($0, $1)", {either, name});
  EXPECT_EQ(e.text, "raise _ppy_exc(a if c else b, x)");
  EXPECT_EQ(e.prec, kStatement);
}

TEST(PythonTemplate, TextLiteralsBareOperandsAndNothing) {
  EXPECT_EQ(expand("$text", {}, "\"hi\"").text, "\"hi\"");
  Expr e = expand("$0", {Expr{"a or b", kOr}});
  EXPECT_EQ(e.text, "a or b");
  EXPECT_EQ(e.prec, kOr);
  EXPECT_EQ(expand("", {Expr{"x", kAtom}}).text, "");
  auto star = compile_call_template("*", 1, false);
  ASSERT_TRUE(star.ok());
  EXPECT_TRUE(star->by_hand);
}

TEST(PythonTemplate, NamesTheHelpersItCalls) {
  auto t = compile_call_template("_ppy_sum_i64([$1] + $0)", 2, false);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->helpers, ElementsAre("_ppy_sum_i64"));
  t = compile_call_template("type(_ppy_caught[0]).__name__", 0, false);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->helpers, ElementsAre("_ppy_caught"));
}

TEST(PythonTemplate, RefusesWhatItCannotExpand) {
  auto refused = [](std::string_view text, size_t n, bool has_text = false) {
    auto t = compile_call_template(text, n, has_text);
    return t.ok() ? std::string("(compiled)") : std::string(t.status().message());
  };
  EXPECT_THAT(refused("$2", 2), HasSubstr("$2 of 2 operand(s)"));
  EXPECT_THAT(refused("$0 + $0", 1), HasSubstr("twice"));
  EXPECT_THAT(refused("_ppy_nope($0)", 1), HasSubstr("no helper '_ppy_nope'"));
  EXPECT_THAT(refused("str($text)", 0), HasSubstr("text flag"));
  EXPECT_THAT(refused("lambda: $0", 1), HasSubstr("'lambda'"));
  EXPECT_THAT(refused("$0 +", 1), HasSubstr("unexpected the end"));
  EXPECT_THAT(refused("f($0", 1), HasSubstr("unexpected"));
  EXPECT_THAT(refused("$0 ; $1", 2), HasSubstr("';'"));
  EXPECT_THAT(refused("$x", 1), HasSubstr("'$'"));
  EXPECT_FALSE(hand_written_call("ppy_str_concat"));
  EXPECT_TRUE(hand_written_call("ppy_list_slice"));
}

TEST(PythonHelpers, SplitsTheFileOneHelperEach) {
  ASSERT_FALSE(helpers().empty());
  for (const Helper& h : helpers()) {
    EXPECT_TRUE(h.text.starts_with("def " + h.name + "(") || h.text.starts_with(h.name + " = ")) << h.text;
    EXPECT_TRUE(h.text.ends_with("\n") && !h.text.ends_with("\n\n")) << h.name;
    EXPECT_THAT(h.text, Not(HasSubstr("import math"))) << h.name;
  }
  ASSERT_NE(find_helper("_ppy_caught"), nullptr);
  ASSERT_NE(find_helper("_ppy_dict_repr"), nullptr);
  EXPECT_THAT(find_helper("_ppy_dict_repr")->calls, Contains("_ppy_repr_of"));
  EXPECT_EQ(find_helper("_ppy_nope"), nullptr);
}

TEST(PythonHelpers, AModuleGetsWhatItUsesAndWhatThatCalls) {
  bool math = false;
  std::string text = helper_definitions({"_ppy_dict_repr"}, &math);
  for (const char* name : {"_ppy_dict_repr", "_ppy_repr_of", "_ppy_list_repr", "_ppy_desc_end"})
    EXPECT_THAT(text, HasSubstr(std::string("\n\ndef ") + name + "(")) << text;
  EXPECT_THAT(text, Not(HasSubstr("_ppy_exc")));
  EXPECT_FALSE(math);
  // In the file's order, whatever the order asked.
  EXPECT_LT(text.find("def _ppy_dict_repr("), text.find("def _ppy_list_repr("));
  EXPECT_TRUE(text.starts_with("\n\n"));
  text = helper_definitions({"_ppy_fdiv_trunc"}, &math);
  EXPECT_THAT(text, HasSubstr("def _ppy_trunc("));
  EXPECT_TRUE(math);
  EXPECT_EQ(helper_definitions({}, &math), "");
}

}  // namespace
}  // namespace ppy::backends::python
