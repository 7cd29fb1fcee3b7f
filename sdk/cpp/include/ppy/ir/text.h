#pragma once
/// The `ppyir 1` text format: the `.ppyir` file on disk and `ppy emit ir`.

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

/// The schema this library reads and writes (`ppyir 1`).
inline constexpr int kIRSchemaVersion = 1;

/// Deterministic text of the whole module, ending in exactly one newline.
std::string print_module(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());
/// One function as the module printer would write it.
std::string print_function(const Function& f, const DialectRegistry& reg = DialectRegistry::builtin());

/// Parses a whole `.ppyir` text. Errors are InvalidArgument with the message
/// `line L:C: reason` (the reason in the reference compiler's words); an unknown
/// schema, an unknown dialect or a dialect newer than `reg` has are refused.
/// Never crashes on bad input.
absl::StatusOr<std::unique_ptr<Module>> parse_module(
    std::string_view text, const DialectRegistry& reg = DialectRegistry::builtin());

/// Reads and parses a file; the error names the path.
absl::StatusOr<std::unique_ptr<Module>> read_module_file(
    const std::string& path, const DialectRegistry& reg = DialectRegistry::builtin());

/// Writes atomically (a temporary beside it, then rename).
absl::Status write_module_file(const Module& m, const std::string& path);

/// One attribute value as the parser reads it back (`{k = v}`, `[a, b]`,
/// `"json"`, `@sym`, `!type`, ...); for messages and tools that show attributes.
std::string print_attribute(const Attribute& a);

/// Python's `repr(float)`: shortest round-trip digits, `1e+16`, `1e-05`, `nan`, `inf`.
std::string format_float(double v);

}  // namespace ppy::ir
