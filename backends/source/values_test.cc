// Which values a source-writing backend inlines, and what their variables are called.
#include "ppy/backends/source/values.h"

#include "gtest/gtest.h"
#include "ppy/ir/text.h"

namespace ppy::backends::source {
namespace {

std::unique_ptr<ir::Module> parse(std::string_view text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

TEST(Values, ReadOnceValuesAreInlinedUnlessAnEffectIsInTheWay) {
  auto m = parse(R"(ppyir 1
module @m

func @f(%a: i64, %b: i64, %x: i64) -> i64 {
^entry:
    %x_slot = core.alloca : ptr<i64, stack>
    core.store %x, %x_slot
    %p = core.mul %a, %b {overflow = "python"} : i64
    %q = core.mul %b, %b {overflow = "python"} : i64
    %r = core.add %p, %q {overflow = "python"} : i64
    %w = core.add %a, %b {overflow = "wrap"} : i64
    %l = core.load %x_slot : i64
    core.store %w, %x_slot
    %s = core.add %r, %l {overflow = "wrap"} : i64
    core.ret %s
}
)");
  const ir::Function& f = *m->functions()[0];
  FunctionValues v(f, m.get(), {});
  auto result = [&](const char* hint) -> const ir::Value* {
    for (auto& op : f.body().entry()->operations())
      if (op->num_results() && op->result(0)->hint() == hint) return op->result(0);
    return nullptr;
  };
  EXPECT_FALSE(v.inlined(result("p")));  // a raising op may not pass another (%q)
  EXPECT_TRUE(v.inlined(result("q")));
  EXPECT_TRUE(v.inlined(result("w")));   // pure: moves past the store
  EXPECT_FALSE(v.inlined(result("l")));  // a load may not pass the store after it
  EXPECT_FALSE(v.inlined(result("r")));  // nor a raising op the store
  // The parameter stored into its slot first and never read again: one variable.
  EXPECT_EQ(v.name(f.body().entry()->argument(2)), "x");
  EXPECT_EQ(v.name(result("x_slot")), "x");
  EXPECT_EQ(v.variables().size(), 3u);  // p, r and l; x is the parameter
}

}  // namespace
}  // namespace ppy::backends::source
