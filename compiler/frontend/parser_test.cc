// The lexer, the parser and diagnostics: tokens, recovery, limits, rendering.
#include "parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lexer.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/frontend/frontend.h"
#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"
#include "ppy/util/utf8.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<Tok> kinds(const std::vector<Token>& ts) {
  std::vector<Tok> out;
  for (auto& t : ts) out.push_back(t.kind);
  return out;
}

TEST(Lexer, IndentDedentAndBrackets) {
  DiagnosticEngine d;
  auto ts = lex("if x:\n    y = (1,\n  2)\n\n    # c\nz\n", "t.ppy", d);
  EXPECT_FALSE(d.has_errors());
  std::vector<Tok> want = {Tok::Name, Tok::Name, Tok::Op, Tok::Newline, Tok::Indent, Tok::Name, Tok::Op,
                           Tok::Op, Tok::Int, Tok::Op, Tok::Int, Tok::Op, Tok::Newline, Tok::Dedent,
                           Tok::Name, Tok::Newline, Tok::End};
  EXPECT_EQ(kinds(ts), want);
}

TEST(Lexer, Numbers) {
  DiagnosticEngine d;
  auto ts = lex("0x1F 0o17 0b101 1_000 2.5 1e3 .5 9223372036854775807", "t.ppy", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(ts[0].ival, 31);
  EXPECT_EQ(ts[1].ival, 15);
  EXPECT_EQ(ts[2].ival, 5);
  EXPECT_EQ(ts[3].ival, 1000);
  EXPECT_EQ(ts[4].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(ts[4].fval, 2.5);
  EXPECT_DOUBLE_EQ(ts[5].fval, 1000.0);
  EXPECT_DOUBLE_EQ(ts[6].fval, 0.5);
  EXPECT_EQ(ts[7].ival, INT64_MAX);
  auto big = lex("18446744073709551616", "t.ppy", d);
  EXPECT_TRUE(big[0].too_big);
}

TEST(Lexer, StringEscapes) {
  DiagnosticEngine d;
  auto ts = lex(R"("a\tb\n\\\x41\u00e9" r"\n" '''x
y''')", "t.ppy", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(ts[0].text, "a\tb\n\\A\xc3\xa9");
  EXPECT_EQ(ts[1].text, "\\n");
  EXPECT_EQ(ts[2].text, "x\ny");
}

TEST(Lexer, SkipsAByteOrderMark) {
  DiagnosticEngine d;
  auto ts = lex("\xEF\xBB\xBFx = 1\n", "t.ppy", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(ts[0].text, "x");
  EXPECT_EQ(ts[0].pos.col, 1u);
}

TEST(Lexer, ErrorsCarryLocations) {
  DiagnosticEngine d;
  lex("x = 1\ny = ?\n", "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 1u);
  EXPECT_EQ(d.diagnostics()[0].line, 2u);
  EXPECT_EQ(d.diagnostics()[0].col, 5u);
  EXPECT_EQ(d.diagnostics()[0].message, "invalid character '?'");
}

TEST(Parser, Precedence) {
  DiagnosticEngine d;
  auto m = parse_module("x = -2 ** 2 + 3 * 4 < 5 and not y or z\n", "t.ppy", d);
  ASSERT_FALSE(d.has_errors()) << render_diagnostics(d);
  const Expr& e = *m.body[0]->value;
  ASSERT_EQ(e.kind, ExprKind::BoolOp);
  EXPECT_EQ(e.str, "or");
  const Expr& a = *e.kids[0];
  EXPECT_EQ(a.str, "and");
  const Expr& cmp = *a.kids[0];
  ASSERT_EQ(cmp.kind, ExprKind::Compare);
  const Expr& sum = *cmp.kids[0];
  EXPECT_EQ(sum.str, "+");
  EXPECT_EQ(sum.kids[0]->kind, ExprKind::Unary);  // -(2 ** 2)
  EXPECT_EQ(sum.kids[0]->kids[0]->str, "**");
}

TEST(Parser, RecoversAndReportsEveryError) {
  DiagnosticEngine d;
  d.add_source("t.ppy",
               "def f() -> None:\n    x = = 1\n    y = 2\n    z = "
               ")\nclass C(metaclass=M):\n    pass\n");
  parse_module(d.sources().at("t.ppy"), "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 3u) << render_diagnostics(d);
  EXPECT_EQ(d.diagnostics()[0].line, 2u);
  EXPECT_EQ(d.diagnostics()[1].line, 4u);
  EXPECT_EQ(d.diagnostics()[2].code, "E1010");
  EXPECT_EQ(d.diagnostics()[2].line, 5u);
}

TEST(Parser, MatchIsASoftKeyword) {
  // `match x:` is a match statement (issue 32: parsed into an if/elif chain);
  // `match` as a name (assigned, annotated, called, an attribute base) parses.
  DiagnosticEngine d;
  d.add_source("t.ppy",
               "def f(n: int) -> None:\n    match n:\n        case 1:\n            pass\n"
               "    match = 1\n    match: int = 2\n    match(n)\n    match.x\n    match += 1\n"
               "    match (n):\n        case _:\n            pass\n    type T = int\n    type = 3\n");
  parse_module(d.sources().at("t.ppy"), "t.ppy", d);
  // (`type T = int` parses too: a type alias statement, generics' type_params.cc.)
  EXPECT_TRUE(d.diagnostics().empty()) << render_diagnostics(d);
}

TEST(Parser, ConstructsOutsideTheSubsetAreNamed) {
  // Each is one E1010 naming the construct at its place: never a parse error.
  struct Case {
    const char* src;
    const char* named;
    uint32_t line, col;
  };
  const Case cases[] = {
      {"def f() -> None:\n    with (open('x') as g):\n        pass\n", "a parenthesized with statement", 2, 10},
      {"async def f() -> None:\n    pass\n", "async code", 1, 1},
      {"def f() -> None:\n    x = yield 1\n", "a 'yield' expression (a generator yields in a statement of its own)", 2, 9},
      {"def f(n: dict[str, int]) -> None:\n    match n:\n        case {\"a\": 1, **rest}:\n            "
       "pass\n",
       "a '**rest' mapping pattern", 3, 23},
      {"def f() -> None:\n    try:\n        pass\n    except* ValueError:\n    "
       "    pass\n",
       "'except*'", 4, 11},
      {"class C(metaclass=M):\n    pass\n", "a class keyword (metaclass=...)", 1, 9},
      {"def f(xs: list[int]) -> None:\n    del xs\n", "a 'del' statement", 2, 5},
      {"async def f() -> None:\n    await g()\n", "async code", 1, 1},
  };
  for (const Case& c : cases) {
    DiagnosticEngine d;
    d.add_source("t.ppy", c.src);
    parse_module(d.sources().at("t.ppy"), "t.ppy", d);
    ASSERT_EQ(d.diagnostics().size(), 1u) << c.src << render_diagnostics(d);
    EXPECT_EQ(d.diagnostics()[0].code, "E1010") << c.src;
    EXPECT_THAT(d.diagnostics()[0].message, HasSubstr(c.named)) << c.src;
    EXPECT_EQ(d.diagnostics()[0].line, c.line) << c.src;
    EXPECT_EQ(d.diagnostics()[0].col, c.col) << c.src;
  }
}

TEST(Parser, OrPatternAlternativesBindTheSameNames) {
  // Issue 32: `case ["go", d] | [d]:` binds d in each alternative; python3's
  // SyntaxError where they differ.
  DiagnosticEngine ok;
  parse_module("def f(w: list[str]) -> str:\n    match w:\n        case [\"go\", d] | [(\"n\" | \"s\") as d]:\n"
               "            return d\n    return \"\"\n",
               "t.ppy", ok);
  EXPECT_TRUE(ok.diagnostics().empty()) << render_diagnostics(ok);
  DiagnosticEngine d;
  parse_module("def f(w: list[int]) -> None:\n    match w:\n        case [a] | [b]:\n            pass\n", "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 1u) << render_diagnostics(d);
  EXPECT_EQ(d.diagnostics()[0].code, "E1001");
  EXPECT_EQ(d.diagnostics()[0].message, "alternative patterns bind different names");
  EXPECT_EQ(d.diagnostics()[0].line, 3u);
  EXPECT_EQ(d.diagnostics()[0].col, 20u);
}

TEST(Parser, ARefusedCaseLeavesTheOtherCasesAndStatements) {
  // A case the parser refuses is dropped with its block; the cases after it and
  // the statements after the match parse without follow-on errors.
  DiagnosticEngine d;
  SourceModule s{"m", "m.ppy",
                 "def f(w: list[str], m: dict[str, int]) -> str:\n    match w:\n        case [a] | []:\n"
                 "            return \"x\"\n        case [\"go\", d]:\n            return d\n    match m:\n"
                 "        case {\"k\": 1, **rest}:\n            print(rest)\n        case {\"k\": v}:\n"
                 "            return str(v)\n    match w:\n        case {**rest}:\n            pass\n"
                 "    y = 1\n    return str(y)\n"};
  LowerResult r = lower_module(s, {}, d);
  EXPECT_EQ(r.module, nullptr);
  ASSERT_EQ(d.error_count(), 3u) << render_diagnostics(d);
  EXPECT_EQ(d.diagnostics()[0].code, "E1001");
  EXPECT_EQ(d.diagnostics()[0].line, 3u);
  EXPECT_EQ(d.diagnostics()[1].code, "E1010");
  EXPECT_EQ(d.diagnostics()[1].line, 8u);
  EXPECT_EQ(d.diagnostics()[2].code, "E1010");
  EXPECT_EQ(d.diagnostics()[2].line, 13u);
}

TEST(Parser, GlobalNamesItsVariables) {
  DiagnosticEngine d;
  auto m = parse_module("def f() -> None:\n    global a, b\n", "t.ppy", d);
  ASSERT_FALSE(d.has_errors()) << render_diagnostics(d);
  const Stmt& g = *m.body[0]->def->body[0];
  ASSERT_EQ(g.kind, StmtKind::Global);
  ASSERT_EQ(g.names.size(), 2u);
  EXPECT_EQ(g.names[1].name, "b");
  EXPECT_EQ(g.names[1].pos.col, 15u);
}

TEST(Parser, ADroppedStatementCausesNoFollowOnErrors) {
  // The names a refused statement would bind are not "undefined" afterwards.
  DiagnosticEngine d;
  SourceModule s{"m", "m.ppy",
                 "def main() -> None:\n    n = 1\n    try:\n        y = 2\n    except* ValueError:\n"
                 "            pass\n    print(y)\n    t = (1, 2)\n    a, *b = t\n    print(a, b)\n"};
  LowerResult r = lower_module(s, {}, d);
  EXPECT_EQ(r.module, nullptr);
  ASSERT_EQ(d.error_count(), 2u) << render_diagnostics(d);
  EXPECT_EQ(d.diagnostics()[0].code, "E1010");
  EXPECT_EQ(d.diagnostics()[1].code, "E1010");
  EXPECT_EQ(d.diagnostics()[1].line, 9u);
}

TEST(Parser, DeepNestingIsRefusedNotACrash) {
  DiagnosticEngine d;
  std::string src = "x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "\n";
  parse_module(src, "t.ppy", d);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(d.diagnostics()[0].code, "E1090");
  DiagnosticEngine d2;
  std::string chain = "x = 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  parse_module(chain + "\n", "t.ppy", d2);
  ASSERT_TRUE(d2.has_errors());
  EXPECT_EQ(d2.diagnostics()[0].message, "the expression is nested too deeply");
  DiagnosticEngine d3;
  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(i, ' ') + "if x:\n";
  blocks += std::string(300, ' ') + "pass\n";
  parse_module(blocks, "t.ppy", d3);
  EXPECT_TRUE(d3.has_errors());
}

/// `n` copies of `s`.
std::string rep(std::string_view s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// Every operator shape, at a size that overflowed the stack before (`**` did
// at 40,000 operands): parsing, checking and lowering end in E1090 with a
// place, or in a module, never in a crash.
TEST(Parser, EveryShapeIsBoundedThroughLowering) {
  constexpr int n = 100000;
  const std::string fn = "def f(x: int) -> int:\n    return ";
  const std::string fb = "def f(x: bool) -> bool:\n    return ";
  struct Shape {
    const char* name;
    std::string src;
    bool refused;
  };
  std::string nested_ifs = "def f(x: int) -> int:\n";
  for (int i = 1; i <= 5000; ++i) nested_ifs += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  nested_ifs += std::string(5001, ' ') + "return x\n return x\n";
  std::string flat_ifs = "def f(x: int) -> int:\n" + rep("    if x > 1:\n        x = x - 1\n", 5000) + "    return x\n";
  const Shape shapes[] = {
      {"power", fn + "2" + rep(" ** 2", n) + "\n", true},
      {"negation", fn + rep("- ", n) + "x\n", true},
      {"not", fb + rep("not ", n) + "x\n", true},
      {"parentheses", fn + rep("(", n) + "x" + rep(")", n) + "\n", true},
      {"brackets", fn + rep("[", n) + "x" + rep("]", n) + "\n", true},
      {"calls", fn + rep("f(", n) + "x" + rep(")", n) + "\n", true},
      {"sum", fn + "x" + rep(" + x", n) + "\n", true},
      {"and", fb + "x" + rep(" and x", n) + "\n", true},
      {"conditional", fn + rep("x if x else ", n) + "x\n", true},
      {"subscripts", fn + "x" + rep("[0]", n) + "\n", true},
      {"attributes", fn + "x" + rep(".a", n) + "\n", true},
      {"comparison", "def f(x: int) -> bool:\n    return x" + rep(" < x", n) + "\n", false},
      {"nested ifs", nested_ifs, true},
      {"sequential ifs", flat_ifs, false},
  };
  for (const Shape& s : shapes) {
    DiagnosticEngine d;
    d.max_errors = 1000000;  // every error is kept, to count them
    LowerResult r = lower_module({"m", "m.ppy", s.src}, {}, d);
    if (!s.refused) {
      EXPECT_NE(r.module, nullptr) << s.name << ": " << render_diagnostics(d).substr(0, 500);
      continue;
    }
    ASSERT_TRUE(d.has_errors()) << s.name;
    const SourceDiagnostic& first = d.diagnostics()[0];
    EXPECT_EQ(first.code, "E1090") << s.name << ": " << first.message;
    EXPECT_GE(first.line, 2u) << s.name;
    EXPECT_GT(first.col, 0u) << s.name;
    EXPECT_LE(d.error_count(), 2u) << s.name << ": one shape, one error";
  }
}

TEST(Parser, LongElifChainsAreBounded) {
  std::string src = "def f(x: int) -> int:\n    if x == 0:\n        return 0\n";
  for (int i = 1; i < 1500; ++i) src += "    elif x == " + std::to_string(i) + ":\n        return " + std::to_string(i) + "\n";
  src += "    return -1\n";
  DiagnosticEngine d;
  parse_module(src, "t.ppy", d);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(d.diagnostics()[0].message, "the if/elif chain is too long");
  EXPECT_EQ(d.diagnostics()[0].code, "E1090");
  // One error for the chain, not one for each clause beyond the limit.
  EXPECT_EQ(d.error_count(), 1u) << render_diagnostics(d).substr(0, 500);
}

// python3 refuses a file that is not UTF-8; ppy did not, and the bytes
// reached a backend that could not read the module.
TEST(Lexer, SourceThatIsNotUtf8IsRefusedWhereItGoesWrong) {
  DiagnosticEngine d;
  lex("x = 1\nprint(\"caf\xe9\")\n", "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 1u);
  const SourceDiagnostic& e = d.diagnostics()[0];
  EXPECT_EQ(e.code, "E1001");
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.col, 11u);
  EXPECT_EQ(e.message, "'utf-8' codec can't decode byte 0xe9: invalid continuation byte (ppy source must be UTF-8)");
  DiagnosticEngine comment;
  lex("# \xff\n", "t.ppy", comment);  // in a comment too, as `python3 file` says
  EXPECT_EQ(comment.error_count(), 1u);
  DiagnosticEngine ok;
  lex("\xef\xbb\xbfx = \"caf\xc3\xa9 \\u00e9\"\n", "t.ppy", ok);
  EXPECT_FALSE(ok.has_errors());
}

TEST(Lexer, LoneSurrogateEscapesAreRefused) {
  DiagnosticEngine d;
  lex("x = \"\\ud800\"\n", "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 1u);
  EXPECT_EQ(d.diagnostics()[0].code, "E1010");
}

TEST(Lexer, BadDigitsForTheBase) {
  DiagnosticEngine d;
  lex("0b102 0o9", "t.ppy", d);
  ASSERT_EQ(d.diagnostics().size(), 2u);
  EXPECT_EQ(d.diagnostics()[0].message, "invalid number literal '0b102'");
}

TEST(Diagnostics, RenderShowsLineAndCaret) {
  SourceDiagnostic diag{"E1020", "a.ppy", 2, 7, "name 'q' is not defined"};
  EXPECT_EQ(render_diagnostic(diag, "def f() -> int:\n\treturn q\n"),
            "a.ppy:2:7: error[E1020]: name 'q' is not defined\n    \treturn q\n    \t     ^\n");
  EXPECT_EQ(render_diagnostic(diag, ""), "a.ppy:2:7: error[E1020]: name 'q' is not defined\n");
}

TEST(Diagnostics, SeveralCheckErrorsInOneRun) {
  DiagnosticEngine d;
  SourceModule s{"m", "m.ppy",
                 "def f(a: int) -> int:\n    b = a + 1.5\n    c = undefined\n    return b\n\n"
                 "def g() -> None:\n    print(f(1.0))\n"};
  LowerResult r = lower_module(s, {}, d);
  EXPECT_EQ(r.module, nullptr);
  std::string text = render_diagnostics(d);
  EXPECT_THAT(text, HasSubstr("m.ppy:3:9: error[E1020]: name 'undefined' is not defined\n        c = undefined\n            ^\n"));
  EXPECT_THAT(text, HasSubstr("m.ppy:4:12: error[E1030]: function 'f' returns int, not float"));
  EXPECT_THAT(text, HasSubstr("m.ppy:7:13: error[E1030]: argument 'a' of f() must be int, not float"));
  EXPECT_EQ(d.error_count(), 3u);
}

// A megabyte of NUL bytes on one line was 200 errors echoing the whole line
// each (200 MB): now 20 per file, each with a window of the line, escaped.
TEST(Diagnostics, GarbageLinesPrintLittle) {
  DiagnosticEngine d;
  std::string src(1 << 20, '\0');
  lower_module({"m", "m.ppy", src}, {}, d);
  EXPECT_EQ(d.diagnostics().size(), d.max_errors_per_file);
  std::string text = render_diagnostics(d);
  EXPECT_LT(text.size(), 20000u);
  EXPECT_EQ(text.find('\0'), std::string::npos);
  EXPECT_THAT(text, HasSubstr(str_cat("... and ", d.error_count() - 20, " more errors in m.ppy\n")));
}

TEST(Diagnostics, CapsEachFileOnItsOwn) {
  DiagnosticEngine d;
  for (int i = 0; i < 30; ++i) d.error("E1001", "a.ppy", 1, 1, "x");
  for (int i = 0; i < 3; ++i) d.error("E1001", "b.ppy", 1, 1, "y");
  EXPECT_EQ(d.diagnostics().size(), 23u);
  std::string text = render_diagnostics(d);
  EXPECT_THAT(text, HasSubstr("... and 10 more errors in a.ppy\n"));
  EXPECT_THAT(text, Not(HasSubstr("in b.ppy")));
}

TEST(Diagnostics, LongLinesShowAWindowAroundTheCaret) {
  std::string line = std::string(5000, 'a') + "?" + std::string(5000, 'b');
  std::string text = render_diagnostic({"E1001", "m.ppy", 1, 5001, "invalid character '?'"}, line + "\n");
  EXPECT_EQ(text, "m.ppy:1:5001: error[E1001]: invalid character '?'\n    ..." + std::string(60, 'a') + "?" +
                      std::string(59, 'b') + "...\n    " + std::string(63, ' ') + "^\n");
  // Near the start: no leading cut.
  text = render_diagnostic({"E1001", "m.ppy", 1, 3, "x"}, line);
  EXPECT_THAT(text, HasSubstr("\n    aaa"));
  EXPECT_THAT(text, HasSubstr("\n      ^\n"));
}

TEST(Diagnostics, ControlCharactersInTheEchoAreEscapedAndTheCaretFollows) {
  // ESC ] 52 is OSC 52 (write the clipboard); BEL ends it.
  std::string src = "x = \x1b]52;c;aGk=\x07 $\n";
  std::string text = render_diagnostic({"E1001", "m.ppy", 1, 18, "invalid character '$'"}, src);
  EXPECT_EQ(text, "m.ppy:1:18: error[E1001]: invalid character '$'\n    x = \\x1b]52;c;aGk=\\x07 $\n    " +
                      std::string(23, ' ') + "^\n");
  // UTF-8 takes one column per character; a byte that is not UTF-8 is escaped.
  text = render_diagnostic({"E1001", "m.ppy", 1, 7, "m"}, "\xc3\xa9\xff = $\n");
  EXPECT_EQ(text, "m.ppy:1:7: error[E1001]: m\n    \xc3\xa9\\xff = $\n            ^\n");
}

TEST(Escape, ControlsAreEscapedTheRestKept) {
  EXPECT_EQ(escape_control("plain caf\xc3\xa9 \xe5\x90\x8d\ttab"), "plain caf\xc3\xa9 \xe5\x90\x8d\ttab");
  EXPECT_EQ(escape_control("\x1b[2J\x07\b\r\x7f\n"), "\\x1b[2J\\x07\\x08\\r\\x7f\\n");
  EXPECT_EQ(escape_control("a\nb", /*keep_newlines=*/true), "a\nb");
  // C1 controls (U+009B is a one-byte CSI), bidi overrides, bad UTF-8.
  EXPECT_EQ(escape_control("\xc2\x9b" "2J \xe2\x80\xae \xed\xa0\x80 \xc0\xaf \xe9"),
            "\\u009b2J \\u202e \\xed\\xa0\\x80 \\xc0\\xaf \\xe9");
}

TEST(Utf8, ReasonsAsPythonGivesThem) {
  EXPECT_FALSE(check_utf8("plain caf\xc3\xa9 \xf0\x9f\x98\x80"));
  Utf8Error e = check_utf8("caf\xe9\")");
  ASSERT_TRUE(e);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_STREQ(e.reason, "invalid continuation byte");
  EXPECT_STREQ(check_utf8("ab\xff").reason, "invalid start byte");
  EXPECT_STREQ(check_utf8("ab\xc0\xaf").reason, "invalid start byte");  // overlong
  EXPECT_STREQ(check_utf8("\xed\xa0\x80").reason, "invalid continuation byte");  // a surrogate
  EXPECT_STREQ(check_utf8("ab\xe5\x90").reason, "unexpected end of data");
}

TEST(Diagnostics, CapsTheList) {
  DiagnosticEngine d;
  d.max_errors = 2;
  for (int i = 0; i < 5; ++i) d.error("E1001", "f", 1, 1, "x");
  EXPECT_EQ(d.diagnostics().size(), 2u);
  EXPECT_THAT(render_diagnostics(d), HasSubstr("... and 3 more errors"));
}

}  // namespace
}  // namespace ppy::frontend
