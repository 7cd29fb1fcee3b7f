// The interpreter calls every runtime function of the ABI table by its entry:
// none needs an interpreter change, whatever its signature's shape.
#include <sstream>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "internal.h"
#include "ppy/interp/interp.h"
#include "ppy/pipeline/builder.h"
#include "ppy/runtime/abi.h"

namespace ppy::interp {
namespace {

using ir::AttrDict;
using ir::Attribute;
using ir::Type;
using ir::TypeKind;
using ir::Value;

/// A type abi.def's pattern `p` accepts.
Type type_for(std::string_view p) {
  if (p == "i64") return Type::i64();
  if (p == "index") return Type::index();
  if (p == "f64") return Type::f64();
  if (p == "bool") return Type::i1();
  if (p.starts_with("buffer<")) return Type::buffer(Type::i64());
  if (p == "ptr<?>") return Type::ptr(Type::i64());
  return Type::ptr(Type::scalar(TypeKind::I8));  // ptr<i8>, handle
}

TEST(RuntimeCall, EveryEntryOfTheTableBinds) {
  for (const runtime::RuntimeFunction& fn : runtime::runtime_functions()) {
    SCOPED_TRACE(std::string(fn.symbol));
    std::vector<ir::Param> params;
    for (std::string_view p : fn.params) params.push_back({type_for(p), {}, ""});
    ir::Function f("f", params, {});
    f.create_entry_block();
    std::vector<Value*> args;
    for (size_t i = 0; i < fn.params.size(); ++i) args.push_back(f.body().entry()->argument(i));
    std::vector<Type> results;
    if (!fn.result.empty()) results.push_back(type_for(fn.result));
    AttrDict attrs{{"abi", Attribute("c")}, {"callee", Attribute(std::string(fn.symbol))}};
    if (fn.has(runtime::kText)) attrs.set("text", Attribute("x"));
    ir::Operation* op = pipeline::Builder(f.body().entry()).create("core.call_extern", args, results, attrs);
    ASSERT_TRUE(runtime::check_runtime_call(fn, *op).ok());
    detail::RuntimeCall call;
    EXPECT_EQ(detail::bind_runtime_call(*op, call), "");
    EXPECT_NE(call.fn, nullptr);
    EXPECT_NE(call.thunk, nullptr);
    EXPECT_EQ(call.nargs, static_cast<int32_t>(fn.params.size()));
    EXPECT_EQ(call.text >= 0, fn.has(runtime::kText));
  }
}

TEST(RuntimeCall, DoublesAndWordsInterleaved) {
  // ppy_list_insert_f64(list, i64, f64), ppy_list_pop_at_f64(list, i64) -> f64
  // and ppy_str_format_f64(f64, str) -> str: a double between or before words.
  ir::Module m("m");
  auto main = std::make_unique<ir::Function>("m_main", std::vector<ir::Param>{}, std::vector<Type>{});
  main->attributes().set("ppy.qualname", Attribute("m.main"));
  ir::Function* f = m.add_function(std::move(main));
  f->create_entry_block();
  pipeline::Builder b(f->body().entry());
  auto call = [&](std::string callee, std::vector<Value*> args, std::vector<Type> results = {}, AttrDict extra = {}) {
    extra.set("abi", Attribute("c"));
    extra.set("callee", Attribute(callee));
    return b.create("core.call_extern", std::move(args), results, extra);
  };
  Type str = Type::ptr(Type::scalar(TypeKind::I8));
  Value* list = call("ppy_list_new_f64", {b.const_int(0, Type::index())}, {Type::buffer(Type::f64())})->result();
  call("ppy_list_insert_f64", {list, b.const_int(0), b.const_float(2.5)});
  call("ppy_list_insert_f64", {list, b.const_int(0), b.const_float(-1.25)});
  Value* x = call("ppy_list_pop_at_f64", {list, b.const_int(1)}, {Type::f64()})->result();
  call("ppy_print_f64", {x});
  call("ppy_print_space", {});
  Value* spec = call("ppy_str_literal", {}, {str}, {{"text", Attribute(".3f")}})->result();
  call("ppy_print_string", {call("ppy_str_format_f64", {x, spec}, {str})->result()});
  call("ppy_print_space", {});
  call("ppy_print_bool", {b.const_int(1, Type::i1())});
  call("ppy_print_newline", {});
  b.ret();
  std::ostringstream out, err;
  RunResult r = run_main(m, "m.main", out, err);
  EXPECT_EQ(r.exit_code, 0) << err.str();
  EXPECT_EQ(out.str(), "2.5 2.500 True\n");
}

}  // namespace
}  // namespace ppy::interp
