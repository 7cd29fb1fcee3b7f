// The c backend's calls of the native runtime, shaped by the ABI table: the C
// result types it assumes against the runtime's own prototypes, and what the
// table makes it write and refuse.
#include <string>
#include <string_view>
#include <type_traits>

#include "c_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backends/c_backend.h"
#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"
#include "ppy_dict.h"
#include "ppy_obj.h"
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "ppy_math.h"
#include "ppy_num.h"
#include "ppy_str_more.h"
#include "ppy_unicode.h"
#include "ppy_vformat.h"

namespace ppy::backends::cgen {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// A C type as the backend spells it (runtime_result_c_type).
template <class T>
std::string_view c_spelling() {
  if constexpr (std::is_void_v<T>)
    return "void";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, ppy_list*>)
    return "ppy_list*";
  else if constexpr (std::is_same_v<T, ppy_str*>)
    return "ppy_str*";
  else if constexpr (std::is_same_v<T, void*>)
    return "void*";
  else
    return "?";
}

template <class R, class... A>
std::string_view result_spelling(R (*)(A...)) {
  return c_spelling<R>();
}

TEST(CBackendRuntimeCalls, ResultTypesAreThePrototypes) {
  size_t checked = 0;
#define PPY_RUNTIME_FUNCTION(symbol, result, params, flags, python)                     \
  {                                                                                     \
    const runtime::RuntimeFunction* fn = runtime::find_runtime_function(#symbol);       \
    ASSERT_NE(fn, nullptr) << #symbol;                                                  \
    EXPECT_EQ(runtime_result_c_type(*fn), result_spelling(&symbol)) << #symbol " in C"; \
    ++checked;                                                                          \
  }
#include "ppy/runtime/abi.def"
#undef PPY_RUNTIME_FUNCTION
  EXPECT_EQ(checked, runtime::runtime_functions().size());
}

std::string emit(std::string_view ir_text, absl::Status* refusal = nullptr) {
  auto m = ir::parse_module(ir_text);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return "";
  absl::StatusOr<std::string> c = c_source(**m, COptions{});
  if (refusal)
    *refusal = c.status();
  else
    EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : "";
}

std::string module(std::string_view body) {
  return str_cat("ppyir 1\nmodule @m\ndialect core 1\n\nfunc @m_f() -> () {\n^entry:\n", body, "    core.ret\n}\n");
}

TEST(CBackendRuntimeCalls, WritesTextBoolOperandsAndVoidResultsByTheTable) {
  std::string c =
      emit(module(R"(    %0 = core.call_extern {abi = "c", callee = "ppy_str_literal", text = "hi"} : ptr<i8>
    %1 = core.const 1 : index
    %2 = core.call_extern %1 {abi = "c", callee = "ppy_list_new_ptr"} : buffer<ptr<i8>>
    core.call_extern %2, %0 {abi = "c", callee = "ppy_list_append_ptr"}
    %3 = core.call_extern %2 {abi = "c", callee = "ppy_list_pop_ptr"} : ptr<i8>
    core.call_extern %3 {abi = "c", callee = "ppy_print_string"}
    %4 = core.const true : bool
    core.call_extern %4 {abi = "c", callee = "ppy_print_bool"}
    core.call_extern {abi = "c", callee = "ppy_print_str", text = "a\"b"}
)"));
  EXPECT_THAT(c, HasSubstr("#define PPY_RT_STRINGS 1"));
  EXPECT_THAT(c, HasSubstr("ppy_str_literal(\"hi\", 2)"));
  EXPECT_THAT(c, HasSubstr("(ppy_str*)ppy_list_pop_ptr("));  // a void* result as its value's type
  EXPECT_THAT(c, HasSubstr("ppy_print_bool((int32_t)true);"));
  EXPECT_THAT(c, HasSubstr("ppy_print_str(\"a\\\"b\", 3);"));
  EXPECT_THAT(c, Not(HasSubstr("(ppy_str*)ppy_str_literal")));  // already a ppy_str*
  EXPECT_THAT(c, Not(HasSubstr("(ppy_list*)ppy_list_new_ptr")));
}

TEST(CBackendRuntimeCalls, OnlyACollectorFunctionNeedsTheCollector) {
  std::string c = emit(module(R"(    %0 = core.const 2 : i64
    %1 = core.call_extern %0, %0 {abi = "c", callee = "ppy_pow_i64"} : i64
    core.call_extern %1 {abi = "c", callee = "ppy_print_i64"}
)"));
  EXPECT_THAT(c, HasSubstr("ppy_print_i64(ppy_pow_i64(2, 2));"));
  EXPECT_THAT(c, Not(HasSubstr("#define PPY_RT_STRINGS")));
}

TEST(CBackendRuntimeCalls, RefusesACalleeOutsideTheTable) {
  absl::Status refusal;
  emit(module("    core.call_extern {abi = \"c\", callee = \"ppy_no_such_thing\"}\n"), &refusal);
  EXPECT_THAT(refusal.message(), HasSubstr("cannot take the runtime function 'ppy_no_such_thing' in m_f"));
}

TEST(CBackendRuntimeCalls, RefusesACallItsEntryDoesNotAllowWithTheChecksMessage) {
  absl::Status refusal;
  emit(module(R"(    %0 = core.const 2 : i64
    %1 = core.call_extern %0 {abi = "c", callee = "ppy_str_len"} : i64
    core.call_extern %1 {abi = "c", callee = "ppy_print_i64"}
)"),
       &refusal);
  EXPECT_THAT(refusal.message(), HasSubstr("operand 0 of the runtime function 'ppy_str_len' is i64, not ptr<i8>"));
}

// plugins (docs/writing-a-plugin.md): a native library's symbol is declared
// with the C signature its operands give (a list as its data and length), once.
TEST(CBackendRuntimeCalls, DeclaresANativeLibrarysSymbolAndNamesTheLibrary) {
  std::string c = emit(R"(ppyir 1
module @m
dialect core 1

func @m_f(%a: buffer<f64>) -> (f64) {
^entry:
    %0 = core.buffer_data %a : ptr<f64>
    %1 = core.buffer_len %a : index
    %2 = core.call_extern %0, %1 {abi = "c", callee = "vecmath_norm", library = "vecmath"} : f64
    %3 = core.call_extern %0, %1 {abi = "c", callee = "vecmath_norm", library = "vecmath"} : f64
    %4 = core.const 2.0 : f64
    core.call_extern %4, %0, %1, %0, %1 {abi = "c", callee = "vecmath_axpy", library = "vecmath"}
    %5 = core.add %2, %3 : f64
    core.ret %5
}
)");
  EXPECT_THAT(c, HasSubstr("/* of the native library 'vecmath': link it (-lvecmath, or its file) */\n"
                           "double vecmath_norm(double*, int64_t);\n"));
  EXPECT_THAT(c, HasSubstr("void vecmath_axpy(double, double*, int64_t, double*, int64_t);\n"));
  EXPECT_EQ(c.find("double vecmath_norm("), c.rfind("double vecmath_norm("));  // declared once
  EXPECT_THAT(c, HasSubstr("vecmath_axpy(2.0, _0, _1, _0, _1);"));
}

}  // namespace
}  // namespace ppy::backends::cgen
