#pragma once
/// `--prover z3` on the LLVM road: the SMT solver proves overflow guards away
/// where the shared pipeline's interval analysis (int-range) could not, from
/// relations between values (`lo + (hi - lo) // 2` under `lo < hi`, `a + b`
/// under `a <= LIMIT - b`). Each checked add, sub, mul or neg still guarded is
/// one query: the comparisons that lead to its block, the definitions of its
/// operands (exact integers, each checked op that completed in i64), and the
/// negated goal "the exact result fits in i64". Unsatisfiable is a proof and
/// the op becomes `overflow = "proven"`; satisfiable, unknown or a timeout keep
/// the guard (the default is the sound one).

#include <string>

#include "absl/status/statusor.h"
#include "ppy/ir/ir.h"

namespace ppy::llvm_backend {

struct ProverReport {
  int asked = 0;      ///< guarded ops the solver was asked about
  int proven = 0;     ///< guards removed
  int undecided = 0;  ///< unknown or timed out (guards kept)
};

/// Whether this build of ppy has z3 in it (Debian's libz3-dev at build time).
[[nodiscard]] bool prover_available();

/// The solver's name and version ("z3 4.8.12"), for the fingerprint and notes.
[[nodiscard]] std::string prover_version();

/// Proves what it can in `module` (marking those ops proven), each query
/// limited to `timeout_ms`. E1801 when built without z3.
[[nodiscard]] absl::StatusOr<ProverReport> prove_overflow_guards(ir::Module& module, unsigned timeout_ms);

}  // namespace ppy::llvm_backend
