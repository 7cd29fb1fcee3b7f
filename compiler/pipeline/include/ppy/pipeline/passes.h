#pragma once
/// The shared passes above the backend boundary. Each is an ordinary
/// `ppy::ir::Pass`, so the pipeline, `ppy inspect` and the expectation tests
/// (tests/passes) run them the same way.
///
///   canonicalize  the dialects' patterns: constant folding that respects
///                 overflow and rounding modes, algebraic identities, branches
///                 and selects on constants, guards that cannot fail. Runs to a
///                 fixed point, so a second run has nothing to do.
///   mem2reg       promotes `core.alloca` slots used only by load/store into SSA
///                 values carried by block arguments (pruned SSA construction).
///   simplify-cfg  drops unreachable blocks, threads branches through empty
///                 forwarding blocks, merges a block into its only predecessor,
///                 removes unused and redundant block arguments.
///   cse           replaces a pure op by an identical one that dominates it.
///   dce           removes pure ops whose results are unused, loads nobody
///                 reads, and stack slots that are only written.
///   inline        (module pass) inlines small non-recursive `core.call`s of
///                 functions defined in the same module.
///   int-range     marks `overflow = "proven"` on the checked add, sub, mul and
///                 neg that i64 intervals show cannot overflow (intervals
///                 refined by dominating comparisons, widened around loops), so
///                 no backend writes their checks; an integer `//` or `%`
///                 whose operands' signs the intervals show alike (dividend
///                 >= 0 by divisor > 0, or <= 0 by < 0) becomes
///                 `rounding = "trunc"`, which gives the same value without
///                 Python's sign fix-up.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/ir/pass.h"

namespace ppy::pipeline {

std::unique_ptr<ir::Pass> create_canonicalize_pass();
std::unique_ptr<ir::Pass> create_mem2reg_pass();
std::unique_ptr<ir::Pass> create_simplify_cfg_pass();
std::unique_ptr<ir::Pass> create_dce_pass();
std::unique_ptr<ir::Pass> create_cse_pass();
std::unique_ptr<ir::Pass> create_int_range_pass();

struct InlineOptions {
  /// A callee with more ops than this is not inlined.
  size_t max_callee_ops = 40;
  /// A caller stops growing once it has this many ops.
  size_t max_caller_ops = 5000;
};
std::unique_ptr<ir::Pass> create_inline_pass(InlineOptions options = {});

/// The shared pass of that name (`canonicalize`, `mem2reg`, `simplify-cfg`,
/// `cse`, `dce`, `inline`, `int-range`), or NotFound listing the names.
absl::StatusOr<std::unique_ptr<ir::Pass>> create_pass(std::string_view name);
/// The names create_pass knows, in pipeline order.
std::vector<std::string> shared_pass_names();

}  // namespace ppy::pipeline
