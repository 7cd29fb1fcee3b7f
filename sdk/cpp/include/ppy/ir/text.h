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

/// Deterministic text of the whole module, ending in exactly one newline, in
/// the reference printer's layout and value names. Where the reference would
/// print text that cannot be read back (IR no parser produces: a lone `void`
/// result, a variant that is not a plain word, a dict-valued inline attribute,
/// a `core.const` without a value, an entry block whose arguments are not the
/// parameters) it prints a spelling that does read back: `(void)`, the value in
/// the attribute dict, `core.const {}`, `^entry(%a: T):`.
std::string print_module(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());
/// One function as the module printer would write it.
std::string print_function(const Function& f, const DialectRegistry& reg = DialectRegistry::builtin());

/// Parses a whole `.ppyir` text. Errors are InvalidArgument with the message
/// `line L:C: reason` (the reason in the reference compiler's words; L and C
/// 1-based, C counting characters; a name's position is its `%` or `^`, and an
/// undefined block is reported where it is first branched to). An unknown
/// schema, an unknown dialect or a dialect newer than `reg` has are refused
/// with the reference's codec messages, which carry no position. The module's
/// `_schema` attribute is dropped and `core` is always among its dialects.
/// Never crashes, hangs or overflows the stack on bad input (nesting is
/// limited to 200 levels).
absl::StatusOr<std::unique_ptr<Module>> parse_module(
    std::string_view text, const DialectRegistry& reg = DialectRegistry::builtin());

/// Reads and parses a file; a parse error reads `PATH: line L:C: reason`, a
/// failed read `cannot read PATH: reason` (NotFound when there is no file).
absl::StatusOr<std::unique_ptr<Module>> read_module_file(
    const std::string& path, const DialectRegistry& reg = DialectRegistry::builtin());

/// Writes print_module's text atomically (a temporary beside it, fsync, then
/// rename), so a concurrent reader sees the old file or the new one.
absl::Status write_module_file(const Module& m, const std::string& path);

/// One attribute value as the parser reads it back (`{k = v}`, `[a, b]`,
/// `"json"`, `@sym`, `!type`, ...); for messages and tools that show attributes.
std::string print_attribute(const Attribute& a);

/// Python's `repr(float)`: shortest round-trip digits, `1e+16`, `1e-05`, `nan`, `inf`.
std::string format_float(double v);

}  // namespace ppy::ir
