#include "ppy/runtime/abi.h"

#include <gtest/gtest.h>

#include "ppy/ir/ir.h"

namespace ppy::runtime {
namespace {

using ir::Type;

TEST(RuntimeAbiTable, FindsEntriesBySymbol) {
  const RuntimeFunction* f = find_runtime_function("ppy_str_replace");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->result, "ptr<i8>");
  ASSERT_EQ(f->params.size(), 3u);
  EXPECT_EQ(f->params[2], "ptr<i8>");
  EXPECT_TRUE(f->has(kAllocates));
  EXPECT_FALSE(f->has(kNoReturn));
  EXPECT_EQ(find_runtime_function("ppy_no_such_thing"), nullptr);
  EXPECT_EQ(find_runtime_function("ppy_rt_run"), nullptr) << "not callable from the IR";
}

TEST(RuntimeAbiTable, TypePatterns) {
  Type str = Type::ptr(Type::scalar(ir::TypeKind::I8));
  Type ints = Type::buffer(Type::i64());
  EXPECT_TRUE(type_matches("ptr<i8>", str));
  EXPECT_FALSE(type_matches("ptr<i8>", ints));
  EXPECT_TRUE(type_matches("buffer<?>", ints));
  EXPECT_TRUE(type_matches("buffer<i64>", ints));
  EXPECT_FALSE(type_matches("buffer<f64>", ints));
  EXPECT_TRUE(type_matches("handle", ints));
  EXPECT_TRUE(type_matches("handle", str));
  EXPECT_FALSE(type_matches("handle", Type::i64()));
  EXPECT_TRUE(type_matches("ptr<?>", Type::ptr(ints)));
  EXPECT_FALSE(type_matches("i64", Type::index()));
  EXPECT_TRUE(type_matches("index", Type::index()));
  EXPECT_EQ(abi_class(""), AbiClass::kVoid);
  EXPECT_EQ(abi_class("index"), AbiClass::kInt);
  EXPECT_EQ(abi_class("handle"), AbiClass::kPointer);
  EXPECT_EQ(abi_class("bool"), AbiClass::kBool);
  EXPECT_EQ(c_type(AbiClass::kBool), "int32_t");
  EXPECT_EQ(c_type(AbiClass::kPointer), "void*");
}

TEST(RuntimeAbiTable, ChecksACallAgainstItsEntry) {
  Type str = Type::ptr(Type::scalar(ir::TypeKind::I8));
  ir::Function f("f", {}, {});
  ir::Block* b = f.body().add_block();
  ir::Value* s = b->append(ir::Operation::create("core.undef", {}, {str}))->result(0);
  ir::Value* n = b->append(ir::Operation::create("core.undef", {}, {Type::i64()}))->result(0);
  auto good = ir::Operation::create("core.call_extern", {s, n}, {str}, {{"callee", "ppy_str_repeat"}});
  const RuntimeFunction* rt = runtime_callee(*good);
  ASSERT_NE(rt, nullptr);
  EXPECT_TRUE(check_runtime_call(*rt, *good).ok());
  auto swapped = ir::Operation::create("core.call_extern", {n, s}, {str}, {{"callee", "ppy_str_repeat"}});
  EXPECT_FALSE(check_runtime_call(*rt, *swapped).ok());
  auto no_result = ir::Operation::create("core.call_extern", {s, n}, {}, {{"callee", "ppy_str_repeat"}});
  EXPECT_FALSE(check_runtime_call(*rt, *no_result).ok());
  auto other = ir::Operation::create("core.call_extern", {}, {}, {{"callee", "printf"}});
  EXPECT_EQ(runtime_callee(*other), nullptr);
}

}  // namespace
}  // namespace ppy::runtime
