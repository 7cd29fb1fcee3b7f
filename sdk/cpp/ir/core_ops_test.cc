// Tests of ppy/ir/core_ops.h: op identity, overflow, rounding, predicates, guards.
#include "ppy/ir/core_ops.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "ppy/ir/dialect.h"

namespace ppy::ir {
namespace {

std::unique_ptr<Operation> make(std::string_view name, AttrDict attrs = {}) {
  return Operation::create(name, {}, {}, std::move(attrs));
}

TEST(CoreOps, EveryRegisteredCoreAndMathOpHasItsOwnEnumAndName) {
  const DialectRegistry& reg = DialectRegistry::builtin();
  int seen = 0;
  for (const char* dialect : {"core", "math"})
    for (const OpSpec& spec : reg.dialect(dialect)->ops) {
      auto op = make(spec.name);
      CoreOp c = core_op(*op);
      EXPECT_NE(c, CoreOp::Other) << spec.name;
      EXPECT_EQ(core_op_name(c), spec.name);
      EXPECT_EQ(core_op(std::string_view(spec.name)), c) << spec.name;
      EXPECT_EQ(is_math(c), std::string_view(dialect) == "math") << spec.name;
      EXPECT_EQ(is_terminator(c), spec.terminator) << spec.name;
      ++seen;
    }
  EXPECT_EQ(seen, static_cast<int>(CoreOp::MathPow));  // every enumerator but Other
}

TEST(CoreOps, OtherOpsAndNearMissesAreOther) {
  EXPECT_EQ(core_op(*make("gpu.barrier")), CoreOp::Other);
  EXPECT_EQ(core_op(*make("core.addx")), CoreOp::Other);
  EXPECT_EQ(core_op(*make("toy.add")), CoreOp::Other);
  EXPECT_EQ(core_op("core"), CoreOp::Other);
  EXPECT_EQ(core_op("add"), CoreOp::Other);
  EXPECT_EQ(core_op_name(CoreOp::Other), "");
}

TEST(CoreOps, RenamingAnOpChangesWhatItIs) {
  auto op = make("core.add");
  EXPECT_EQ(core_op(*op), CoreOp::Add);
  op->set_name("core.sub");
  EXPECT_EQ(core_op(*op), CoreOp::Sub);
}

TEST(CoreOps, Groups) {
  EXPECT_TRUE(is_arith(CoreOp::Add));
  EXPECT_TRUE(is_arith(CoreOp::Neg));
  EXPECT_TRUE(is_arith(CoreOp::Mod));
  EXPECT_FALSE(is_arith(CoreOp::And));
  EXPECT_FALSE(is_arith(CoreOp::Const));
  EXPECT_TRUE(is_buffer(CoreOp::BufferData));
  EXPECT_TRUE(is_buffer(CoreOp::BufferStore));
  EXPECT_FALSE(is_buffer(CoreOp::PtrOffset));
  EXPECT_FALSE(is_buffer(CoreOp::TupleMake));
}

TEST(CoreOps, OverflowKeepsAbsentAndUnknownApart) {
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", "python"}})), Overflow::Python);
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", "checked"}})), Overflow::Checked);
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", "wrap"}})), Overflow::Wrap);
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", "proven"}})), Overflow::Proven);
  EXPECT_EQ(overflow_of(*make("core.add")), Overflow::Absent);
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", "saturate"}})), Overflow::Unknown);
  EXPECT_EQ(overflow_of(*make("core.add", {{"overflow", int64_t{1}}})), Overflow::Unknown);
  EXPECT_TRUE(raises_on_overflow(*make("core.add", {{"overflow", "python"}})));
  EXPECT_TRUE(raises_on_overflow(*make("core.add", {{"overflow", "checked"}})));
  EXPECT_FALSE(raises_on_overflow(*make("core.add", {{"overflow", "proven"}})));
  EXPECT_FALSE(raises_on_overflow(*make("core.add")));
  for (std::string_view s : overflow_names()) EXPECT_EQ(overflow_name(*parse_overflow(s)), s);
  EXPECT_EQ(parse_overflow("Python"), std::nullopt);
  EXPECT_EQ(overflow_name(Overflow::Absent), "");
}

TEST(CoreOps, Rounding) {
  EXPECT_EQ(rounding_of(*make("core.div", {{"rounding", "floor"}})), Rounding::Floor);
  EXPECT_EQ(rounding_of(*make("core.div", {{"rounding", "trunc"}})), Rounding::Trunc);
  EXPECT_EQ(rounding_of(*make("core.div")), Rounding::None);
  EXPECT_EQ(rounding_of(*make("core.div", {{"rounding", "ceil"}})), Rounding::Unknown);
  EXPECT_EQ(rounding_of(*make("core.div", {{"rounding", true}})), Rounding::Unknown);
  for (std::string_view s : rounding_names()) EXPECT_EQ(rounding_name(*parse_rounding(s)), s);
  EXPECT_EQ(rounding_names().front(), "floor");  // the verifier's message lists docs/ir.md's order
}

TEST(CoreOps, Predicates) {
  EXPECT_EQ(predicate_of(*make("core.cmp", {{"predicate", "le"}})), Predicate::Le);
  EXPECT_EQ(predicate_of(*make("core.cmp", {{"predicate", "lte"}})), std::nullopt);
  EXPECT_EQ(predicate_of(*make("core.cmp")), std::nullopt);
  for (auto p : {Predicate::Eq, Predicate::Ne, Predicate::Lt, Predicate::Le, Predicate::Gt, Predicate::Ge})
    EXPECT_EQ(parse_predicate(predicate_name(p)), p);
  // The spellings are the verifier's variants, in its order.
  const OpSpec* cmp = DialectRegistry::builtin().op("core.cmp");
  ASSERT_NE(cmp, nullptr);
  ASSERT_EQ(cmp->variants.size(), 6u);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(predicate_name(static_cast<Predicate>(i)), cmp->variants[i]);
}

TEST(CoreOps, NegatedPredicateHoldsExactlyWhenTheOtherDoesNot) {
  auto holds = [](Predicate p, int a, int b) {
    switch (p) {
      case Predicate::Eq:
        return a == b;
      case Predicate::Ne:
        return a != b;
      case Predicate::Lt:
        return a < b;
      case Predicate::Le:
        return a <= b;
      case Predicate::Gt:
        return a > b;
      case Predicate::Ge:
        return a >= b;
    }
    return false;
  };
  for (auto p : {Predicate::Eq, Predicate::Ne, Predicate::Lt, Predicate::Le, Predicate::Gt, Predicate::Ge})
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b) EXPECT_NE(holds(p, a, b), holds(negated(p), a, b)) << predicate_name(p);
}

TEST(CoreOps, GuardTableIsDocsRuntimeGuards) {
  EXPECT_EQ(guard_exception(GuardKind::Overflow), (GuardException{"OverflowError", "integer overflow"}));
  EXPECT_EQ(guard_exception(GuardKind::Bounds), (GuardException{"IndexError", "list index out of range"}));
  EXPECT_EQ(guard_exception(GuardKind::ZeroDivision), (GuardException{"ZeroDivisionError", "division by zero"}));
  EXPECT_EQ(guard_exception(GuardKind::Range), (GuardException{"ValueError", "math range error"}));
  EXPECT_EQ(guard_exception(GuardKind::Contract), (GuardException{"AssertionError", ""}));
  EXPECT_EQ(guard_exception(GuardKind::Assert), (GuardException{"AssertionError", ""}));
  EXPECT_EQ(guard_exception(GuardKind::Unknown), (GuardException{"RuntimeError", "guard failed"}));
  EXPECT_EQ(guard_kind_names().size(), 6u);
  for (std::string_view s : guard_kind_names()) EXPECT_EQ(guard_kind_name(*parse_guard_kind(s)), s);
  EXPECT_EQ(parse_guard_kind("zero_division"), GuardKind::ZeroDivision);
  EXPECT_EQ(parse_guard_kind("ZeroDivisionError"), std::nullopt);
}

TEST(CoreOps, GuardOpTakesItsMessageOverTheDefault) {
  auto plain = make("core.guard", {{"kind", "bounds"}});
  EXPECT_EQ(guard_kind(*plain), GuardKind::Bounds);
  EXPECT_EQ(guard_exception(*plain), (GuardException{"IndexError", "list index out of range"}));
  auto msg = make("core.guard", {{"kind", "range"}, {"message", "range() arg 3 must not be zero"}});
  EXPECT_EQ(guard_exception(*msg), (GuardException{"ValueError", "range() arg 3 must not be zero"}));
  auto odd = make("core.guard", {{"kind", "frobnicate"}, {"message", "m"}});
  EXPECT_EQ(guard_kind(*odd), GuardKind::Unknown);
  EXPECT_EQ(guard_exception(*odd), (GuardException{"RuntimeError", "m"}));
  EXPECT_EQ(guard_kind(*make("core.guard")), GuardKind::Unknown);
}

TEST(CoreOps, TypedAttributeReads) {
  auto op = make("core.call", {{"callee", SymbolRef{"f"}}, {"capture_status", true}, {"count", int64_t{3}}});
  ASSERT_NE(call_callee(*op), nullptr);
  EXPECT_EQ(*call_callee(*op), "f");
  EXPECT_EQ(extern_callee(*op), nullptr);  // a symbol, not a C name
  EXPECT_TRUE(captures_status(*op));
  EXPECT_EQ(attr_or<int64_t>(*op, "count", 1), 3);
  EXPECT_EQ(attr_or<int64_t>(*op, "callee", 7), 7);  // present, another kind
  EXPECT_EQ(attr_or<int64_t>(*op, "missing", 1), 1);
  EXPECT_EQ(attr_if<double>(*op, "count"), nullptr);

  auto ext = make("core.call_extern", {{"callee", "ppy_print_i64"}});
  ASSERT_NE(extern_callee(*ext), nullptr);
  EXPECT_EQ(*extern_callee(*ext), "ppy_print_i64");
  EXPECT_EQ(call_callee(*ext), nullptr);
  EXPECT_FALSE(captures_status(*ext));
}

TEST(CoreOps, ConstantsAreReadOnlyFromCoreConst) {
  auto c = Operation::create("core.const", {}, {Type::i64()}, {{"value", int64_t{-1}}});
  auto f = Operation::create("core.const", {}, {Type::f64()}, {{"value", 2.5}});
  auto other = Operation::create("toy.const", {}, {Type::i64()}, {{"value", int64_t{4}}});
  EXPECT_EQ(int_constant(c->result()), -1);
  EXPECT_EQ(int_constant(f->result()), std::nullopt);
  EXPECT_EQ(int_constant(other->result()), std::nullopt);
  EXPECT_EQ(const_value(*other), nullptr);
  ASSERT_NE(const_value(*f), nullptr);
  EXPECT_EQ(const_value(*f)->as_float(), 2.5);
  Block b;
  EXPECT_EQ(int_constant(b.add_argument(Type::i64(), "x")), std::nullopt);
  EXPECT_EQ(int_constant(nullptr), std::nullopt);
}

}  // namespace
}  // namespace ppy::ir
