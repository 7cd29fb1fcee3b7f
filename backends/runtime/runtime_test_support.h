#pragma once
// What the runtime's unit tests share: a raise comes back as a C++ exception
// (as the interpreter sees it), so a test can ask what a call raised.
#include <string>

#include "gtest/gtest.h"
#include "ppy_runtime.h"
#include "ppy_str.h"

namespace ppy::runtime_test {

/// What the runtime raised: the exception's class name and message.
struct Raised {
  std::string name, message;
};

/// The collector started and the raise hook set for each test.
class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ppy_rt_gc_init();
    ppy_rt_set_raise_hook(+[](const char* n, const char* m) { throw Raised{n, m ? m : ""}; });
  }
  void TearDown() override { ppy_rt_set_raise_hook(nullptr); }
};

inline ppy_str* S(const std::string& s) { return ppy_str_literal(s.data(), static_cast<int64_t>(s.size())); }
inline std::string T(const ppy_str* s) { return std::string(PPY_STR_BYTES(s), static_cast<size_t>(s->len)); }

/// What `f()` raised; `(nothing)` when it returned.
template <typename F>
Raised raised(F f) {
  try {
    f();
  } catch (const Raised& r) {
    return r;
  }
  return {"(nothing)", ""};
}

}  // namespace ppy::runtime_test
