#pragma once
/// Canonical IR (as the frontend writes it, docs/runtime.md) to an LLVM module:
/// one LLVM function per IR function, block arguments as phis, guards as
/// branches to cold blocks that call the runtime's `ppy_rt_raise`.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "ppy/ir/ir.h"

namespace ppy::llvm_backend {

struct LowerOptions {
  /// Integer ops with overflow = "python"/"checked" wrap instead of raising
  /// (--unsafe). Bounds checks stay.
  bool wrap_integers = false;
  /// Frames for tracebacks (issue 34). Off (--no-traceback), a function links
  /// none and an uncaught exception prints its last line alone; a recursive
  /// function still counts its depth (a frame that names nothing): the same
  /// build less what tracebacks cost, which tools/bench/llvm_bench.py measures.
  bool tracebacks = true;
  /// The target triple and data layout the module is made for.
  std::string triple;
  std::string data_layout;
};

/// Lowers `module` into a new LLVM module of `context`. Fails (InvalidArgument,
/// naming the op and its location) on anything `validate` would have refused.
absl::StatusOr<std::unique_ptr<llvm::Module>> lower_module(const ir::Module& module, llvm::LLVMContext& context,
                                                           const LowerOptions& options);

/// Whether a `core.call_extern` of `name` calls the runtime: the runtime ABI
/// table's lookup (ppy/runtime/abi.h), which declares such a call.
bool is_runtime_function(std::string_view name);

}  // namespace ppy::llvm_backend
