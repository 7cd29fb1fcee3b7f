#pragma once
/// The verifier: structure, dominance, symbols, op specs and dialect rules.
///
/// Generic rules come from the registry's OpSpecs (arity, required attributes,
/// variants, terminators) and from the IR's structure (successors, block
/// arguments, SSA dominance per MLIR's region rules, unique labels and symbols);
/// everything a dialect means is checked by its own hooks (`OpSpec::verify`,
/// `Dialect::verify_function`), so a new dialect never edits the verifier.
/// The pass pipeline runs it after every contributed pass, so it is built to be
/// cheap on valid IR: no strings are made unless something is wrong.

#include <vector>

#include "absl/status/status.h"
#include "ppy/ir/attributes.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/types.h"

namespace ppy::ir {

/// Every problem found, each naming its function, block and op; empty when valid.
std::vector<Diagnostic> verify(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());

/// verify() folded into one status: OK, or FailedPrecondition listing each diagnostic on a line.
absl::Status verify_status(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());

/// Whether the constant `a` can stand for a value of type `t`: a global's
/// initializer, `core.const`'s value. An int fits integers and floats; arrays
/// fit vectors, tuples, structs and buffers element by element; a dict fits a
/// struct by field name; strings, symbols and types fit non-scalar types.
bool attribute_fits(const Attribute& a, Type t);

}  // namespace ppy::ir
