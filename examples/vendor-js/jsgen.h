#pragma once
/// jsgen: canonical IR to JavaScript for Node.js, written against the installed
/// SDK alone (the IR library and the structurizer, PpySdk::source). Ints are
/// BigInts checked to i64 as Python's overflow rules ask, floats are Numbers
/// printed with Python's repr, and a program is one file of every module's
/// functions that `node` runs.

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"

namespace jsgen {

/// OK when jsgen can write every function of `module`, else the contract's
/// refusal (E1802) naming the first op or CFG it cannot and what it lacks.
[[nodiscard]] absl::Status refusal(const ppy::ir::Module& module, std::string_view backend);

/// The program: every function `modules` define (their symbols are unique
/// across modules, so a call through a declaration needs no linking), then a
/// call of `entry_symbol` (`@app_main___main__`) unless it is empty (a library).
/// Call only on modules `refusal` accepted.
[[nodiscard]] std::string program(ppy::ModuleList modules, std::string_view entry_symbol);

/// `program` written to `out/<entry_module>.js` (`program.js` for a library),
/// marked executable: what `build` answers.
[[nodiscard]] absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& out,
                                                     std::string_view entry_module, std::string_view entry_symbol);

/// Whether `node` (a name on PATH or a path) is there to run what `build` writes.
[[nodiscard]] ppy::ToolchainStatus node(std::string_view node);

}  // namespace jsgen
