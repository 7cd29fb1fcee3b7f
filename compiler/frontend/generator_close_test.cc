// Generators closed before they are exhausted (generator_close.h): which generators get a close
// function, which loops close what they walk, and what g.close() calls.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontend_test_support.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

using test_support::ir_of;

const char* kHeader = "from typing import Iterator\n\n\n";

TEST(GeneratorClose, AFinallyAroundAYieldGivesACloseFunction) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def numbers(n: int) -> Iterator[int]:\n    try:\n        for i in range(n):\n"
                         "            yield i\n    finally:\n        print('done')\n\n\n"
                         "def plain(n: int) -> Iterator[int]:\n    for i in range(n):\n        yield i\n\n\n"
                         "def main() -> None:\n    g = numbers(3)\n    print(next(g))\n    g.close()\n"
                         "    h = plain(2)\n    h.close()\n");
  EXPECT_THAT(ir, HasSubstr("func @m_numbers__close("));
  EXPECT_THAT(ir, Not(HasSubstr("@m_plain__close")));  // nothing to run: close only marks it done
  EXPECT_THAT(ir, HasSubstr("generator ignored GeneratorExit"));
  EXPECT_THAT(ir, HasSubstr("gen.head"));
}

TEST(GeneratorClose, ALoopOverAClosingGeneratorClosesItWhenLeft) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def numbers(n: int) -> Iterator[int]:\n    try:\n        yield n\n        yield n + 1\n"
                         "    finally:\n        print('done')\n\n\n"
                         "def main() -> None:\n    for x in numbers(1):\n        if x > 0:\n            break\n");
  EXPECT_THAT(ir, HasSubstr("_ppy_gc"));                  // the loop's generator, kept to be closed
  EXPECT_THAT(ir, HasSubstr("callee = @m_numbers__close"));  // by the finally the loop is wrapped in
}

TEST(GeneratorClose, ALoopOverAPlainGeneratorIsLeftAsItIs) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def plain(n: int) -> Iterator[int]:\n    for i in range(n):\n        yield i\n\n\n"
                         "def main() -> None:\n    for x in plain(3):\n        if x > 0:\n            break\n");
  EXPECT_THAT(ir, Not(HasSubstr("_ppy_gc")));
  EXPECT_THAT(ir, Not(HasSubstr("__close")));
}

TEST(GeneratorClose, AGeneratorLoopingOverAClosingOneClosesToo) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def inner() -> Iterator[int]:\n    with open('x') as f:\n        yield 1\n\n\n"
                         "def outer() -> Iterator[int]:\n    for v in inner():\n        yield v * 2\n\n\n"
                         "def main() -> None:\n    for v in outer():\n        break\n");
  EXPECT_THAT(ir, HasSubstr("func @m_inner__close("));
  EXPECT_THAT(ir, HasSubstr("func @m_outer__close("));
}

TEST(GeneratorClose, ALocalHoldingOneClosesItWhenReboundAndAtTheEnd) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def numbers(n: int) -> Iterator[int]:\n    try:\n        yield n\n        yield n + 1\n"
                         "    finally:\n        print('done')\n\n\n"
                         "def main() -> None:\n    g = numbers(1)\n    print(next(g))\n    g = numbers(2)\n"
                         "    print(next(g))\n");
  EXPECT_THAT(ir, HasSubstr("_ppy_gk_g"));                   // whether g holds one
  EXPECT_THAT(ir, HasSubstr("callee = @m_numbers__close"));  // at the rebinding and in the finally
}

TEST(GeneratorClose, ALocalHandedOnIsLeftAsItIs) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def numbers(n: int) -> Iterator[int]:\n    try:\n        yield n\n"
                         "    finally:\n        print('done')\n\n\n"
                         "def keep(n: int) -> Iterator[int]:\n    g = numbers(n)\n    return g\n");
  EXPECT_THAT(ir, Not(HasSubstr("_ppy_gk_g")));
}

TEST(GeneratorClose, AFunctionReturningANewGeneratorIsClosedAsItsCall) {
  std::string ir = ir_of(std::string(kHeader) +
                         "def numbers(n: int) -> Iterator[int]:\n    try:\n        yield n\n        yield n + 1\n"
                         "    finally:\n        print('done')\n\n\n"
                         "def make() -> Iterator[int]:\n    return numbers(1)\n\n\n"
                         "def main() -> None:\n    for x in make():\n        break\n");
  EXPECT_THAT(ir, HasSubstr("_ppy_gc"));
  EXPECT_THAT(ir, HasSubstr("callee = @m_numbers__close"));
}

}  // namespace
}  // namespace ppy::frontend
