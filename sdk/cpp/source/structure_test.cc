// Structuring CFGs into while/if, and refusing those that do not take the shape.
#include "ppy/source/structure.h"

#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"

namespace ppy::source {
namespace {

std::unique_ptr<ir::Module> parse(std::string_view text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

/// A compact rendering: B(label) E I{then|else} L{body} b c R.
std::string show(const Seq& s) {
  std::string out;
  for (const Node& n : s) {
    switch (n.kind) {
      case Node::Kind::Block:
        str_append(out, "B(", n.block->label(), ")");
        break;
      case Node::Kind::Edge:
        out += "E";
        break;
      case Node::Kind::If:
        str_append(out, "I{", show(n.then_seq), "|", show(n.else_seq), "}");
        break;
      case Node::Kind::Loop:
        str_append(out, "L{", show(n.body), "}");
        break;
      case Node::Kind::Break:
        out += "b";
        break;
      case Node::Kind::Continue:
        out += "c";
        break;
      case Node::Kind::Return:
        out += "R";
        break;
    }
    out += " ";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

constexpr const char* kCountedLoop = R"(ppyir 1
module @m

func @f(%n: i64) -> i64 {
^entry:
    %z = core.const 0 : i64
    %one = core.const 1 : i64
    core.br ^head(%z, %z)
^head(%i: i64, %s: i64):
    %c = core.cmp.lt %i, %n : bool
    core.cond_br %c, ^body, ^done
^body:
    %t = core.mod %i, %one {overflow = "python", rounding = "floor"} : i64
    %odd = core.cmp.eq %t, %z : bool
    core.cond_br %odd, ^latch(%s), ^add
^add:
    %s2 = core.add %s, %i {overflow = "python"} : i64
    core.br ^latch(%s2)
^latch(%s3: i64):
    %i2 = core.add %i, %one {overflow = "python"} : i64
    core.br ^head(%i2, %s3)
^done:
    core.ret %s
}
)";

TEST(Structure, ALoopWithABranchInsideIsWhileAndIf) {
  auto m = parse(kCountedLoop);
  auto s = structure(*m->functions()[0]);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(show(*s), "B(entry) E L{B(head) I{B(body) I{E|B(add) E} B(latch) E|b}} B(done) R");
}

TEST(Structure, AnEarlyReturnInALoopIsItsExit) {
  auto m = parse(R"(ppyir 1
module @m

func @f(%n: i64) -> i64 {
^entry:
    %z = core.const 0 : i64
    %one = core.const 1 : i64
    core.br ^head(%z)
^head(%i: i64):
    %c = core.cmp.eq %i, %n : bool
    core.cond_br %c, ^found, ^next
^found:
    core.ret %i
^next:
    %i2 = core.add %i, %one {overflow = "wrap"} : i64
    core.br ^head(%i2)
}
)");
  auto s = structure(*m->functions()[0]);
  ASSERT_TRUE(s.has_value());
  // The return is outside the loop: the loop breaks to it.
  EXPECT_EQ(show(*s), "B(entry) E L{B(head) I{b|B(next) E}} B(found) R");
}

TEST(Structure, AnIrreducibleCFGIsNotStructured) {
  // Two ways into the cycle a <-> b: neither dominates the other.
  auto m = parse(R"(ppyir 1
module @m

func @f(%c: bool, %d: bool) -> () {
^entry:
    core.cond_br %c, ^a, ^b
^a:
    core.cond_br %d, ^b, ^out
^b:
    core.br ^a
^out:
    core.ret
}
)");
  EXPECT_FALSE(structure(*m->functions()[0]).has_value());
  EXPECT_EQ(reachable_blocks(*m->functions()[0]).size(), 4u);
}

TEST(Structure, ALoopLeavingToTwoPlacesIsNotStructured) {
  auto m = parse(R"(ppyir 1
module @m

func @f(%c: bool, %d: bool) -> i64 {
^entry:
    %z = core.const 0 : i64
    %one = core.const 1 : i64
    core.br ^head
^head:
    core.cond_br %c, ^body, ^x
^body:
    core.cond_br %d, ^head, ^y
^x:
    core.ret %z
^y:
    core.ret %one
}
)");
  EXPECT_FALSE(structure(*m->functions()[0]).has_value());
}

}  // namespace
}  // namespace ppy::source
