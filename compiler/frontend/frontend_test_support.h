#pragma once
// What the frontend's unit tests share: a module checked and lowered, its
// diagnostics as text a test can match.
#include <string>

#include "ppy/frontend/frontend.h"

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

}  // namespace ppy::frontend::test_support
