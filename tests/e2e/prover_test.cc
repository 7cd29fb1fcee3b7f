// `--prover z3` (docs/llvm.md): overflow guards the shared range analysis keeps
// and Z3 proves away, counted with --report-opt, the program's output unchanged;
// E1801 where ppy was built without z3.
#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// `a + b` under `a <= LIMIT - b`, and the midpoint `lo + (hi - lo) // 2` under
// `0 <= lo <= hi`: relations an interval cannot hold.
constexpr const char* kProgram =
    "def bounded_add(a: int, b: int) -> int:\n"
    "    if a >= 0:\n"
    "        if b >= 0:\n"
    "            if a <= 4000000000000000000 - b:\n"
    "                return a + b\n"
    "    return -1\n\n\n"
    "def midpoint(lo: int, hi: int) -> int:\n"
    "    if lo >= 0:\n"
    "        if lo <= hi:\n"
    "            return lo + (hi - lo) // 2\n"
    "    return -1\n\n\n"
    "def main() -> None:\n"
    "    print(bounded_add(3, 4), bounded_add(4000000000000000000, 1), bounded_add(-1, 2))\n"
    "    print(midpoint(0, 9223372036854775807), midpoint(10, 20), midpoint(5, 1))\n\n\n"
    "main()\n";
constexpr const char* kAnswer = "7 -1 -1\n4611686018427387903 15 -1\n";

class Prover : public E2E {
 protected:
  void SetUp() override {
    E2E::SetUp();
    write_file(path("prog.ppy"), kProgram);
  }
};

TEST_F(Prover, Z3RemovesGuardsTheRangeAnalysisKeeps) {
  Result plain = ppy({"build", "prog.ppy", "--report-opt", "-o", "plain"});
  ASSERT_EQ(plain.status, 0) << plain;
  EXPECT_THAT(plain.err, Not(HasSubstr("prover:")));
  Result proved = ppy({"build", "prog.ppy", "--prover", "z3", "--report-opt", "-o", "z3"});
  if (proved.status == 2 && proved.err.find("E1801") != std::string::npos)
    GTEST_SKIP() << "this ppy was built without z3 (libz3-dev)";
  ASSERT_EQ(proved.status, 0) << proved;
  // The range analysis keeps three guards (a + b, hi - lo, lo + ...): Z3 proves all three away.
  Result ir = ppy({"emit", "ir", "prog.ppy"});
  ASSERT_EQ(ir.status, 0) << ir;
  EXPECT_EQ(grep(ir.out, "{overflow = \"python\"} : i64").size(), 3u) << ir.out;
  EXPECT_THAT(proved.err, HasSubstr("note: prover: z3 ")) << proved;
  EXPECT_THAT(proved.err, HasSubstr(" removed 3 of 3 overflow guards the range analysis kept")) << proved;
  EXPECT_EQ(run_file(path("plain/prog")).out, kAnswer);
  Result out = run_file(path("z3/prog"));
  EXPECT_EQ(out.status, 0) << out;
  EXPECT_EQ(out.out, kAnswer);
  Result off = ppy({"build", "prog.ppy", "--prover", "off", "--report-opt", "-o", "off"});
  EXPECT_EQ(off.status, 0) << off;
  EXPECT_THAT(off.err, Not(HasSubstr("prover:")));
}

TEST_F(Prover, AnUnknownProverIsRefused) {
  Result r = ppy({"build", "prog.ppy", "--prover", "cvc5", "-o", "out"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1002]: --prover takes z3 or off"));
}

}  // namespace
}  // namespace ppy::e2e
