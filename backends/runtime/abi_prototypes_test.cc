// The runtime ABI table (ppy/runtime/abi.def) against the runtime's own C
// prototypes and docs/runtime.md, so the three cannot drift apart.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

#include "gtest/gtest.h"
#include "ppy/runtime/abi.h"
#include "ppy_dict.h"
#include "ppy_obj.h"
#include "ppy_runtime.h"
#include "ppy_math.h"
#include "ppy_num.h"
#include "ppy_str_more.h"
#include "ppy_unicode.h"
#include "ppy_vformat.h"
#include "ppy_str.h"

namespace {

/// One C type as a letter: v void, i int64_t, b int32_t, f double, l ppy_list*,
/// s ppy_str*, c const char*, p void*; ? anything else.
template <class T>
constexpr char c_code() {
  if constexpr (std::is_void_v<T>) {
    return 'v';
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return 'i';
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return 'b';
  } else if constexpr (std::is_same_v<T, double>) {
    return 'f';
  } else if constexpr (std::is_pointer_v<T>) {
    using U = std::remove_cv_t<std::remove_pointer_t<T>>;
    if constexpr (std::is_same_v<U, ppy_list>) return 'l';
    if constexpr (std::is_same_v<U, ppy_str>) return 's';
    if constexpr (std::is_same_v<U, char>) return 'c';
    if constexpr (std::is_void_v<U>) return 'p';
    return '?';
  } else {
    return '?';
  }
}

/// `r:abc`: the result's letter, then the parameters'.
template <class R, class... A>
std::string c_signature(R (*)(A...)) {
  std::string s(1, c_code<R>());
  s += ':';
  (s.push_back(c_code<A>()), ...);
  return s;
}

/// Whether a C letter may carry a value of the table's IR type pattern.
bool carries(std::string_view pattern, char c) {
  if (pattern.empty()) return c == 'v';
  if (pattern == "i64" || pattern == "index") return c == 'i';
  if (pattern == "f64") return c == 'f';
  if (pattern == "bool") return c == 'b';
  if (pattern.starts_with("buffer<")) return c == 'l';
  if (pattern == "ptr<i8>") return c == 's' || c == 'p';  // a str, or a table's or object's handle
  return c == 'p';                                        // handle, ptr<?>
}

struct Prototype {
  const char* symbol;
  std::string signature;
};

const std::vector<Prototype>& prototypes() {
  static const std::vector<Prototype> p = {
#define PPY_RUNTIME_FUNCTION(symbol, result, params, flags, python) {#symbol, c_signature(&symbol)},
#include "ppy/runtime/abi.def"
#undef PPY_RUNTIME_FUNCTION
  };
  return p;
}

TEST(RuntimeAbi, EveryEntryMatchesItsCPrototype) {
  ASSERT_EQ(prototypes().size(), ppy::runtime::runtime_functions().size());
  for (const Prototype& p : prototypes()) {
    const ppy::runtime::RuntimeFunction* f = ppy::runtime::find_runtime_function(p.symbol);
    ASSERT_NE(f, nullptr) << p.symbol;
    SCOPED_TRACE(std::string(p.symbol) + " is " + p.signature + " in C");
    EXPECT_TRUE(carries(f->result, p.signature[0])) << "result " << f->result;
    std::string_view params = std::string_view(p.signature).substr(2);
    if (f->has(ppy::runtime::kText)) {  // the `text` attribute: (bytes, length) first
      ASSERT_TRUE(params.starts_with("ci"));
      params.remove_prefix(2);
    }
    ASSERT_EQ(params.size(), f->params.size());
    for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(carries(f->params[i], params[i])) << "param " << i;
  }
}

TEST(RuntimeAbi, FlagsAgreeWithEachOther) {
  for (const auto& f : ppy::runtime::runtime_functions()) {
    SCOPED_TRACE(std::string(f.symbol));
    if (f.has(ppy::runtime::kNoReturn)) {
      EXPECT_TRUE(f.has(ppy::runtime::kRaises));
      EXPECT_TRUE(f.result.empty());
    }
    if (f.has(ppy::runtime::kAllocates)) EXPECT_TRUE(f.has(ppy::runtime::kCollector));
    EXPECT_FALSE(f.has(ppy::runtime::kPure) && f.has(ppy::runtime::kReadOnly)) << "pure already reads only";
    EXPECT_FALSE(f.python.empty() && !f.result.empty()) << "a value needs a Python spelling";
  }
}

TEST(RuntimeAbi, DocsListEveryFunction) {
  std::ifstream in(std::string(PPY_SOURCE_DIR) + "/docs/runtime.md");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& f : ppy::runtime::runtime_functions())
    EXPECT_NE(text.str().find(std::string("`") + std::string(f.symbol) + "`"), std::string::npos)
        << f.symbol << " is not in docs/runtime.md";
}

}  // namespace
