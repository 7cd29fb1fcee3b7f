#pragma once
/// What the LLVM backend refuses before writing anything (E1802): device code
/// (gpu dialect ops, `gpu.kind` functions) and types it does not lower.

#include "absl/status/status.h"
#include "ppy/ir/ir.h"

namespace ppy::llvm_backend {

/// OK, or `validation_error` naming the op or function, what it needs and
/// where it is.
absl::Status validate_module(const ir::Module& module);

}  // namespace ppy::llvm_backend
