#pragma once
/// Conversion between the in-memory IR and its wire form (`ppy.ir.v1.Module`).
/// Round trips are exact: IR -> proto -> IR prints the same text.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::ir::v1 {
class Module;
}

namespace ppy::ir {

/// Fills `out` (cleared first) from `m`.
void to_proto(const Module& m, ppy::ir::v1::Module& out);
/// Rebuilds a module; refuses (InvalidArgument) dangling value ids, bad types,
/// unknown schema or dialects, without crashing on any input.
absl::StatusOr<std::unique_ptr<Module>> from_proto(const ppy::ir::v1::Module& in,
                                                   const DialectRegistry& reg = DialectRegistry::builtin());

/// The module as serialized protobuf bytes, and back.
std::string to_proto_bytes(const Module& m);
absl::StatusOr<std::unique_ptr<Module>> from_proto_bytes(std::string_view bytes,
                                                         const DialectRegistry& reg = DialectRegistry::builtin());

}  // namespace ppy::ir
