#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::body_of;
using testing::run;

std::string promote(std::string_view func, bool* changed = nullptr) {
  auto pass = create_mem2reg_pass();
  auto r = run(*pass, std::string("ppyir 1\nmodule @t\n\n") + std::string(func));
  EXPECT_EQ(r.error, "");
  if (changed) *changed = r.changed;
  return body_of(r.text);
}

TEST(Mem2Reg, StraightLineSlotBecomesValues) {
  EXPECT_EQ(promote(R"(func @f(%a: i64) -> i64 {
^entry:
    %x = core.alloca : ptr<i64, stack>
    core.store %a, %x
    %v = core.load %x : i64
    %w = core.add %v, %v {overflow = "python"} : i64
    core.store %w, %x
    %r = core.load %x : i64
    core.ret %r
}
)"),
            "^entry:\n    %w = core.add %a, %a {overflow = \"python\"} : i64\n    core.ret %w\n");
}

TEST(Mem2Reg, DiamondGetsABlockArgument) {
  EXPECT_EQ(promote(R"(func @f(%c: bool, %a: i64, %b: i64) -> i64 {
^entry:
    %x = core.alloca : ptr<i64, stack>
    core.cond_br %c, ^then, ^else
^then:
    core.store %a, %x
    core.br ^join
^else:
    core.store %b, %x
    core.br ^join
^join:
    %r = core.load %x : i64
    core.ret %r
}
)"),
            "^entry:\n    core.cond_br %c, ^then, ^else\n^then:\n    core.br ^join(%a)\n"
            "^else:\n    core.br ^join(%b)\n^join(%x: i64):\n    core.ret %x\n");
}

TEST(Mem2Reg, LoopCarriesTheVariable) {
  // i = 0; while i < n: i = i + 1; return i
  EXPECT_EQ(promote(R"(func @f(%n: i64) -> i64 {
^entry:
    %i = core.alloca : ptr<i64, stack>
    %zero = core.const 0 : i64
    core.store %zero, %i
    core.br ^head
^head:
    %v = core.load %i : i64
    %c = core.cmp.lt %v, %n : bool
    core.cond_br %c, ^body, ^exit
^body:
    %w = core.load %i : i64
    %one = core.const 1 : i64
    %s = core.add %w, %one {overflow = "python"} : i64
    core.store %s, %i
    core.br ^head
^exit:
    %r = core.load %i : i64
    core.ret %r
}
)"),
            "^entry:\n    %zero = core.const 0 : i64\n    core.br ^head(%zero)\n"
            "^head(%i: i64):\n    %c = core.cmp.lt %i, %n : bool\n    core.cond_br %c, ^body, ^exit\n"
            "^body:\n    %one = core.const 1 : i64\n    %s = core.add %i, %one {overflow = \"python\"} : i64\n"
            "    core.br ^head(%s)\n^exit:\n    core.ret %i\n");
}

TEST(Mem2Reg, ReadBeforeWriteReadsZero) {
  std::string out = promote(R"(func @f(%c: bool) -> f64 {
^entry:
    %x = core.alloca : ptr<f64, stack>
    core.cond_br %c, ^set, ^join
^set:
    %one = core.const 1.5 : f64
    core.store %one, %x
    core.br ^join
^join:
    %r = core.load %x : f64
    core.ret %r
}
)");
  EXPECT_EQ(out, "^entry:\n    %0 = core.const 0.0 : f64\n    core.cond_br %c, ^set, ^join(%0)\n"
                 "^set:\n    %one = core.const 1.5 : f64\n    core.br ^join(%one)\n"
                 "^join(%x: f64):\n    core.ret %x\n");
}

TEST(Mem2Reg, EscapingAndArraySlotsStayInMemory) {
  bool changed = true;
  std::string out = promote(R"(func @f(%p: ptr<ptr<i64, stack>>) -> i64 {
^entry:
    %x = core.alloca : ptr<i64, stack>
    core.store %x, %p
    %arr = core.alloca {count = 4} : ptr<i64, stack>
    %v = core.load %arr : i64
    core.ret %v
}
)", &changed);
  EXPECT_FALSE(changed);
  EXPECT_NE(out.find("%x = core.alloca"), std::string::npos);
  EXPECT_NE(out.find("%arr = core.alloca"), std::string::npos);
}

TEST(Mem2Reg, BufferSlotWrittenOnEveryPathIsPromoted) {
  bool changed = false;
  std::string out = promote(R"(func @f(%n: index) -> i64 {
^entry:
    %l = core.alloca : ptr<buffer<i64>, stack>
    %b = core.call_extern %n {abi = "c", callee = "ppy_list_new_i64"} : buffer<i64>
    core.store %b, %l
    %v = core.load %l : buffer<i64>
    %i = core.const 0 : index
    %e = core.buffer_load %v, %i : i64
    core.ret %e
}
)", &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out.find("alloca"), std::string::npos) << out;
  EXPECT_NE(out.find("core.buffer_load %b, %i"), std::string::npos) << out;
}

}  // namespace
}  // namespace ppy::pipeline
