// The traceback helpers every road shares (ppy/ir/trace.h, ppy/ir/block_order.h).
#include "ppy/ir/trace.h"

#include <string>

#include "gtest/gtest.h"
#include "ppy/ir/block_order.h"
#include "ppy/ir/text.h"

namespace ppy::ir {
namespace {

constexpr char kModule[] = R"(ppyir 1
module @h
dialect core 1

func @h_halve(%x: f64, %n: i64) -> f64 attrs {ppy.effects = ["pure"], ppy.qualname = "h.halve"} loc("h.ppy":1:5) {
^entry:
    %1 = core.const 1.0 : f64 loc("h.ppy":2:12)
    %2 = core.cmp.lt %x, %1 : bool
    core.cond_br %2, ^then, ^end
^dead:
    core.ret %x loc("h.ppy":9:9)
^end:
    %4 = core.call %x, %n {callee = @h_halve} : f64 loc("h.ppy":4:12)
    core.ret %4
^then:
    core.ret %x
}

func @h_halve.try1(%x: f64) -> () attrs {ppy.qualname = "h.halve.try1"} loc("h.ppy":3:5) {
^entry:
    core.ret
}
)";

TEST(Trace, ReversePostOrderLeavesOutBlocksNoPathReaches) {
  auto m = parse_module(kModule);
  ASSERT_TRUE(m.ok()) << m.status();
  const Function& f = *(*m)->functions()[0];
  std::vector<const Block*> order = reverse_post_order(f.body());
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0]->label(), "entry");
  for (const Block* b : order) EXPECT_NE(b->label(), "dead");
}

TEST(Trace, AnOpWithoutALineHasTheOneBeforeIt) {
  auto m = parse_module(kModule);
  ASSERT_TRUE(m.ok()) << m.status();
  const Function& f = *(*m)->functions()[0];
  auto lines = trace_lines(f);
  const Block* entry = f.body().entry();
  EXPECT_EQ(lines.at(entry->operations()[1].get()), 2);  // the cmp: its const's line
  for (auto& b : f.body().blocks())
    if (b->label() == "end")
      EXPECT_EQ(lines.at(b->operations()[1].get()), 4);  // the ret after the call
    else if (b->label() == "dead")
      EXPECT_EQ(lines.count(b->operations()[0].get()), 0u);
}

TEST(Trace, ATryBodyIsTransparentAndBorrowsItsFunctionsFrame) {
  auto m = parse_module(kModule);
  ASSERT_TRUE(m.ok()) << m.status();
  const Function& halve = *(*m)->functions()[0];
  const Function& body = *(*m)->functions()[1];
  EXPECT_FALSE(trace_transparent(halve));
  EXPECT_TRUE(trace_transparent(body));
  EXPECT_EQ(trace_role(body), TraceRole::kBorrows);
  EXPECT_EQ(trace_role(halve), TraceRole::kNone);  // pure: it cannot raise
  EXPECT_EQ(trace_frame_name(halve), "halve");
}

TEST(Trace, AFramesOwnNameIsWhatItPrints) {
  // A nested def's symbol names its outer function too (`app_outer__inner`):
  // python3 prints `in inner`, and `in <lambda>` for a lambda.
  auto m = parse_module(R"(ppyir 1
module @app
dialect core 1

private func @app_outer__inner(%closure: ptr<i8>) -> () attrs {ppy.effects = ["raises"], ppy.frame_name = "inner", ppy.qualname = "app.outer__inner"} loc("app.ppy":2:9) {
^entry:
    core.ret
}

private func @app_outer__lambda(%closure: ptr<i8>) -> () attrs {ppy.effects = ["raises"], ppy.qualname = "app.outer__lambda"} loc("app.ppy":3:9) {
^entry:
    core.ret
}
)");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(trace_frame_name(*(*m)->functions()[0]), "inner");
  EXPECT_EQ(trace_frame_name(*(*m)->functions()[1]), "outer__lambda");  // without one: the qualname's last part
}

TEST(Trace, AnOpInAComprehensionCarriesItsFrameAboveTheLine) {
  // `[[f(v) for v in row] for row in grid]`: two <listcomp> frames, the inner
  // one inside the outer; an op in the inner one holds line | 2 << 32.
  auto m = parse_module(R"(ppyir 1
module @app
dialect core 1

func @app_main(%x: i64) -> i64 attrs {ppy.comps = [["<listcomp>", 3, 0], ["<listcomp>", 4, 1]], ppy.effects = ["raises"], ppy.qualname = "app.main"} loc("app.ppy":1:5) {
^entry:
    %1 = core.const 1 : i64 loc("app.ppy":3:5)
    %2 = core.call %x {callee = @app_main, ppy.comp = 2} : i64 loc("app.ppy":5:9)
    %3 = core.add %2, %1 {overflow = "python"} : i64 loc("app.ppy":5:5)
    core.ret %3 loc("app.ppy":6:5)
}
)");
  ASSERT_TRUE(m.ok()) << m.status();
  const Function& f = *(*m)->functions()[0];
  std::vector<TraceComprehension> comps = trace_comprehensions(f);
  ASSERT_EQ(comps.size(), 2u);
  EXPECT_EQ(comps[0].name, "<listcomp>");
  EXPECT_EQ(comps[0].line, 3);
  EXPECT_EQ(comps[0].parent, 0);
  EXPECT_EQ(comps[1].line, 4);
  EXPECT_EQ(comps[1].parent, 1);
  const auto& ops = f.body().entry()->operations();
  EXPECT_EQ(trace_line(*ops[0]), 3);
  EXPECT_EQ(trace_line(*ops[1]), 5 | (int64_t{2} << kTraceComprehensionShift));
  EXPECT_EQ(trace_line(*ops[2]), 5);  // the same line in the function's own frame
  auto lines = trace_lines(f);
  EXPECT_EQ(lines.at(ops[1].get()), trace_line(*ops[1]));
  EXPECT_EQ(lines.at(ops[3].get()), 6);
}

}  // namespace
}  // namespace ppy::ir
