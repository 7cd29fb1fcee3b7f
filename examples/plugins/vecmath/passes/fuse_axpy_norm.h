#pragma once
// The vecmath plugin's pass: `axpy(a, x, y)` followed by `norm(y)` reads y
// twice (once to update it, once to measure it); the library's
// `vecmath_axpy_norm` does both in one sweep. After inlining, the stub's
// externs are two `core.call_extern` ops in one block; this pass replaces
// them with one, when nothing between them could read or write y.

#include "ppy/ir/pass.h"

namespace vecmath {

class FuseAxpyNorm final : public ppy::ir::FunctionPass {
 public:
  std::string_view name() const override { return "vecmath-fuse-axpy-norm"; }
  absl::StatusOr<bool> run_on_function(ppy::ir::Function& f, const ppy::ir::PassContext& ctx) override;
};

}  // namespace vecmath
