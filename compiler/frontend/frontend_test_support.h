#pragma once
// What the frontend's unit tests share: a module checked and lowered, its
// diagnostics as text a test can match.
#include <string>

#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"

namespace ppy::frontend::test_support {

/// Module `m` (m.ppy) lowered from `src`: one line per diagnostic,
/// `CODE LINE:COL message`, in the order reported; empty when it compiles.
inline std::string check(const std::string& src) {
  DiagnosticEngine d;
  lower_module({"m", "m.ppy", src}, {}, d);
  std::string out;
  for (auto& diag : d.diagnostics())
    out += diag.code + " " + std::to_string(diag.line) + ":" + std::to_string(diag.col) + " " + diag.message + "\n";
  return out;
}

/// Module `m` (m.ppy) lowered from `src` and printed as IR text; the test
/// fails when `src` has errors, so a match on the text never passes by accident.
inline std::string ir_of(const std::string& src) {
  DiagnosticEngine d;
  LowerResult r = lower_module({"m", "m.ppy", src}, {}, d);
  EXPECT_FALSE(d.has_errors());
  return r.module ? ir::print_module(*r.module) : "";
}

}  // namespace ppy::frontend::test_support
