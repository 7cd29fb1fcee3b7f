#pragma once
/// The verifier: structure, dominance, symbols, op specs and dialect rules.

#include <vector>

#include "absl/status/status.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

/// Every problem found, each naming its function, block and op; empty when valid.
std::vector<Diagnostic> verify(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());

/// verify() folded into one status: OK, or FailedPrecondition listing each diagnostic on a line.
absl::Status verify_status(const Module& m, const DialectRegistry& reg = DialectRegistry::builtin());

}  // namespace ppy::ir
