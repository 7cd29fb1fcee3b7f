#pragma once
/// What only the LLVM-linked driver carries: the `llvm` and `nvvm` builtins
/// and `ppy run`'s JIT. The plain `ppy` executable links no LLVM: loading and
/// relocating libLLVM (and what it pulls in) was half of every command's
/// start, a no-op rebuild's included (issue 20). `ppy-llvm`, beside it, is the
/// same driver with these roads; the plain one hands it, whole, a command that
/// needs them (the same arguments, environment and standard streams), before
/// it has said anything.

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"

namespace ppy::driver {

struct ObjectFile;

/// The roads, as the LLVM-linked driver installs them.
struct LlvmRoads {
  /// The builtins they add: name -> factory (`llvm`, `nvvm`).
  std::map<std::string, BackendFactory> builtins;
  /// Loads objects into a JIT and runs `entry` (driver/jit.h, run_objects).
  std::function<absl::StatusOr<int>(const std::vector<ObjectFile>& objects, const std::string& entry, std::ostream& out,
                                    std::ostream& err)>
      run_objects;
};

/// The builtins' names the roads carry, known to every driver: they are
/// listed, reserved and selected alike whether this driver links them or not.
const std::vector<std::string>& llvm_road_builtins();

/// The formats those builtins emit, known to every driver so that `ppy emit
/// FORMAT` knows without LLVM that a format is theirs (a test holds the list
/// to the backends' own emit_formats()).
const std::vector<std::string>& llvm_road_formats();

/// Called once by the LLVM-linked driver (ppy_driver_llvm, when linked in).
void install_llvm_roads(LlvmRoads roads);

/// The roads, or null in the plain driver.
const LlvmRoads* llvm_roads();

/// Keeps the command line, for handing the command over (the CLI calls it
/// before parsing).
void remember_command_line(int argc, char** argv);

/// Returns OK when this driver has the roads; else replaces this process with
/// `ppy-llvm` beside it (running the remembered command line), and answers
/// E1903 only when that cannot be done (no `ppy-llvm`, no command line).
absl::Status need_llvm_roads();

}  // namespace ppy::driver
