#pragma once
// Test helpers: parse a module, run one pass, print the result.

#include <memory>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "ppy/ir/pass.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::pipeline::testing {

inline std::unique_ptr<ir::Module> parse(std::string_view text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

struct PassRun {
  bool changed = false;
  std::string text;  ///< the module printed after the pass
  std::string error; ///< the pass's error, or the verifier's complaint afterwards
};

/// Runs `pass` over `text`, verifying the result.
inline PassRun run(ir::Pass& pass, std::string_view text) {
  auto m = parse(text);
  PassRun out;
  ir::PassContext ctx;
  auto r = pass.run_on_module(*m, ctx);
  if (!r.ok()) {
    out.error = std::string(r.status().message());
    return out;
  }
  out.changed = *r;
  if (absl::Status v = ir::verify_status(*m); !v.ok()) out.error = std::string(v.message());
  out.text = ir::print_module(*m);
  return out;
}

/// The body of the first function as printed (between its `{` line and `}`).
inline std::string body_of(const std::string& printed) {
  size_t start = printed.find("{\n");
  size_t end = printed.find("\n}", start);
  if (start == std::string::npos || end == std::string::npos) return printed;
  return printed.substr(start + 2, end - start - 1);
}

}  // namespace ppy::pipeline::testing
