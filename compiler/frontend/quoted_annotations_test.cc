// Quoted annotations (quoted_annotations.h): the text becomes the annotation it
// spells, nested quotes too; text that does not parse stays a str.
#include <gtest/gtest.h>

#include "frontend_test_support.h"
#include "parser.h"
#include "quoted_annotations.h"

namespace ppy::frontend {
namespace {

using test_support::check;

TEST(QuotedAnnotations, TextBecomesTheExpression) {
  DiagnosticEngine d;
  ModuleAst m = parse_module(
      "class Node:\n    def __init__(self, nxt: \"Node | None\") -> None:\n        self.nxt: \"Node | None\" = nxt\n\n"
      "def f(x: list[\"Node\"]) -> \"list[int]\":\n    return []\n\ny: \"not valid ((\" = 1\n",
      "m.ppy", d);
  ASSERT_FALSE(d.has_errors());
  unquote_annotations(m, "m.ppy");
  const FuncDef& init = *m.body[0]->def->body[0]->def;
  ASSERT_EQ(init.params.size(), 2u);
  EXPECT_EQ(init.params[1].annotation->kind, ExprKind::Binary);
  EXPECT_EQ(init.params[1].annotation->pos.line, 2);  // the quoted text's own place
  EXPECT_EQ(init.body[0]->annotation->kind, ExprKind::Binary);
  const FuncDef& f = *m.body[1]->def;
  EXPECT_EQ(f.params[0].annotation->kids[1]->kind, ExprKind::Name);  // list["Node"]
  EXPECT_EQ(f.returns->kind, ExprKind::Subscript);
  EXPECT_EQ(m.body[2]->annotation->kind, ExprKind::Str);  // left for the checker to refuse
}

TEST(QuotedAnnotations, CheckAsUnquoted) {
  EXPECT_EQ(check("class Node:\n    def __init__(self, v: int, nxt: \"Node | None\" = None) -> None:\n"
                  "        self.v = v\n        self.nxt = nxt\n\n"
                  "def second(n: \"Node\") -> \"Node | None\":\n    return n.nxt\n\n"
                  "def value(n: \"Node | None\") -> int:\n    return n.v if n is not None else -1\n"),
            "");
}

}  // namespace
}  // namespace ppy::frontend
