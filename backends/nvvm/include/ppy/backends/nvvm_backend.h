#pragma once
/// The builtin `nvvm` backend: `@cuda.kernel` and `@cuda.device` functions as
/// LLVM IR for NVPTX (`nvvm-ir`) and as PTX (`ptx`), through LLVM's NVPTX
/// target; `build` writes one `.ptx` per module with kernels and, where
/// `ptxas` is installed, a `.cubin` beside it. Host functions are not this
/// backend's and are left out. It ships with the interface, so it tracks
/// `kBackendApiVersion` instead of declaring a literal.

#include <memory>

#include "ppy/backend/backend.h"

namespace ppy::backends {

/// Options: `target` (`sm_90`), else the environment's `PPY_CUDA_ARCH`, else `sm_80`.
std::unique_ptr<Backend> create_nvvm_backend(const Options& options);

}  // namespace ppy::backends
