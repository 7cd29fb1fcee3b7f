// The shared pipeline preserves behaviour: each program prints the same and
// exits the same at -O0..-O3 as it does unoptimized.
#include <sstream>

#include "gtest/gtest.h"
#include "ppy/interp/interp.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/pipeline/pipeline.h"

namespace ppy::interp {
namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome run_at(std::string_view text, int level) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return {-1, "", ""};
  if (level >= 0) {
    absl::Status s = pipeline::optimize_shared_ir(**m, level);
    EXPECT_TRUE(s.ok()) << "-O" << level << ": " << s;
  }
  std::ostringstream out, err;
  int code = run_main(**m, "t.main", out, err).exit_code;
  return {code, out.str(), err.str()};
}

void expect_same_at_every_level(std::string_view text, const Outcome& want) {
  for (int level = -1; level <= 3; ++level) {
    Outcome got = run_at(text, level);
    EXPECT_EQ(got.code, want.code) << "level " << level << ": " << got.err;
    EXPECT_EQ(got.out, want.out) << "level " << level;
    EXPECT_EQ(got.err, want.err) << "level " << level;
  }
}

// def tri(n): s = 0; i = 0; while i < n: s += i; i += 1; return s
// def main(): xs = [0]*5; for i in range(5): xs[i] = tri(i) // 1; print(xs[4], len(xs))
constexpr std::string_view kLoops = R"(ppyir 1
module @t

func @t_tri(%n: i64) -> i64 attrs {ppy.qualname = "t.tri"} {
^entry:
    %np = core.alloca : ptr<i64, stack>
    core.store %n, %np
    %s = core.alloca : ptr<i64, stack>
    %i = core.alloca : ptr<i64, stack>
    %zero = core.const 0 : i64
    core.store %zero, %s
    core.store %zero, %i
    core.br ^head
^head:
    %iv = core.load %i : i64
    %nv = core.load %np : i64
    %c = core.cmp.lt %iv, %nv : bool
    core.cond_br %c, ^body, ^exit
^body:
    %sv = core.load %s : i64
    %iv2 = core.load %i : i64
    %s2 = core.add %sv, %iv2 {overflow = "python"} : i64
    core.store %s2, %s
    %one = core.const 1 : i64
    %i2 = core.add %iv2, %one {overflow = "python"} : i64
    core.store %i2, %i
    core.br ^head
^exit:
    %r = core.load %s : i64
    core.ret %r
}

func @t_main() -> () attrs {ppy.qualname = "t.main"} {
^entry:
    %xs = core.alloca : ptr<buffer<i64>, stack>
    %i = core.alloca : ptr<i64, stack>
    %five = core.const 5 : index
    %l = core.call_extern %five {abi = "c", callee = "ppy_list_new_i64"} : buffer<i64>
    core.store %l, %xs
    %zero = core.const 0 : i64
    core.store %zero, %i
    core.br ^head
^head:
    %iv = core.load %i : i64
    %lim = core.const 5 : i64
    %c = core.cmp.lt %iv, %lim : bool
    core.cond_br %c, ^body, ^exit
^body:
    %t = core.call %iv {callee = @t_tri} : i64
    %one = core.const 1 : i64
    %z = core.const 0 : i64
    %ok = core.cmp.ne %one, %z : bool
    core.guard %ok {kind = "zero_division"}
    %q = core.div %t, %one {overflow = "python", rounding = "floor"} : i64
    %lv = core.load %xs : buffer<i64>
    %idx = core.cast %iv : index
    %len = core.buffer_len %lv : index
    %inb = core.cmp.lt %idx, %len : bool
    core.guard %inb {kind = "bounds"}
    core.buffer_store %q, %lv, %idx
    %next = core.add %iv, %one {overflow = "python"} : i64
    core.store %next, %i
    core.br ^head
^exit:
    %lv2 = core.load %xs : buffer<i64>
    %four = core.const 4 : index
    %x4 = core.buffer_load %lv2, %four : i64
    core.call_extern %x4 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    %n = core.buffer_len %lv2 : index
    %ni = core.cast %n : i64
    core.call_extern %ni {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)";

TEST(Optimized, LoopsCallsAndListsBehaveTheSameAtEveryLevel) {
  expect_same_at_every_level(kLoops, {0, "6 5\n", ""});
}

// def main(): f = 1; i = 1; while True: f *= i; print(f); i += 1   (until OverflowError)
constexpr std::string_view kOverflow = R"(ppyir 1
module @t

func @t_main() -> () attrs {ppy.qualname = "t.main"} {
^entry:
    %f = core.alloca : ptr<i64, stack>
    %i = core.alloca : ptr<i64, stack>
    %one = core.const 1 : i64
    core.store %one, %f
    core.store %one, %i
    core.br ^loop
^loop:
    %fv = core.load %f : i64
    %iv = core.load %i : i64
    %m = core.mul %fv, %iv {overflow = "python"} : i64
    core.store %m, %f
    %iv2 = core.add %iv, %one {overflow = "python"} : i64
    core.store %iv2, %i
    %lim = core.const 19 : i64
    %big = core.cmp.gt %iv2, %lim : bool
    core.cond_br %big, ^print, ^loop
^print:
    %fv2 = core.load %f : i64
    core.call_extern %fv2 {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.br ^loop
}
)";

TEST(Optimized, OverflowStillRaisesAtEveryLevel) {
  expect_same_at_every_level(kOverflow,
                             {1, "121645100408832000\n2432902008176640000\n", "OverflowError: integer overflow\n"});
}

// Constant operands everywhere: the optimizer folds what it may and must leave
// the division by zero (guarded) and the overflow to happen at run time.
constexpr std::string_view kConstants = R"(ppyir 1
module @t

func @t_main() -> () attrs {ppy.qualname = "t.main"} {
^entry:
    %a = core.const -7 : i64
    %b = core.const 2 : i64
    %q = core.div %a, %b {overflow = "python", rounding = "floor"} : i64
    core.call_extern %q {abi = "c", callee = "ppy_print_i64"}
    %x = core.const 7.5 : f64
    %y = core.const -2.0 : f64
    %r = core.mod %x, %y {rounding = "floor"} : f64
    core.call_extern %r {abi = "c", callee = "ppy_print_f64"}
    %p = core.call_extern %b, %b {abi = "c", callee = "ppy_pow_i64"} : i64
    core.call_extern %p {abi = "c", callee = "ppy_print_i64"}
    %z = core.const 0 : i64
    %ok = core.cmp.ne %z, %z : bool
    core.guard %ok {kind = "zero_division"}
    %d = core.div %b, %z {overflow = "python", rounding = "floor"} : i64
    core.call_extern %d {abi = "c", callee = "ppy_print_i64"}
    core.ret
}
)";

TEST(Optimized, FoldingKeepsRunTimeErrors) {
  expect_same_at_every_level(kConstants, {1, "-4-0.54", "ZeroDivisionError: division by zero\n"});
}

}  // namespace
}  // namespace ppy::interp
