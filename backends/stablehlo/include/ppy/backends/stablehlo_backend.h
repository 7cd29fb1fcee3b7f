#pragma once
/// The builtin `stablehlo` backend: the functions marked `@xla.jit` (IR
/// attribute `xla.jit = true`) as StableHLO in MLIR text (`stablehlo`,
/// `.mlir`), one module per ppy module; every other function is left out.
/// It ships with the interface, so it tracks `kBackendApiVersion`.

#include <memory>

#include "ppy/backend/backend.h"

namespace ppy::backends {

std::unique_ptr<Backend> create_stablehlo_backend(const Options& options);

}  // namespace ppy::backends
