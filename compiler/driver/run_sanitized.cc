// `ppy run --sanitize LIST`: the JIT cannot host ASan (its runtime must own the
// process from its first instruction: shadow memory, interceptors of malloc
// and libc), so the program is built as a sanitized executable and run.
#include "run_sanitized.h"

#include <cerrno>
#include <cstring>

#include "child_program.h"
#include "diagnostics.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/util/str_cat.h"
#include "run_built.h"

namespace ppy::driver {

std::optional<std::string> sanitize_in_project_flags(const BackendContext& context) {
  auto flags = context.backend_config.find("flags");
  if (flags == context.backend_config.end() || !flags->second.is<ConfigValue::Table>()) return std::nullopt;
  const ConfigValue::Table& table = flags->second.as<ConfigValue::Table>();
  auto it = table.find("sanitize");
  if (it == table.end()) return std::nullopt;
  return it->second.str();
}

int run_sanitized(const RunOptions& opts, Streams io) {
  if (opts.interp || (opts.backend && *opts.backend != "llvm"))
    return fail(io.err, coded_error("E1002", str_cat("--sanitize is an option of the LLVM road, and ",
                                                     opts.interp ? "--interp runs the reference interpreter"
                                                                 : "--backend " + *opts.backend + " runs without it",
                                                     "; drop --sanitize, or run through llvm")));
  // The build is the LLVM road's: hand over to `ppy-llvm` before making a
  // folder that a process replaced by exec would never remove.
  if (auto s = need_llvm_roads(); !s.ok()) return fail(io.err, s);
  ScratchFolder scratch;
  if (!scratch.make("ppy-sanitize"))
    return fail(io.err,
                absl::InternalError(str_cat("cannot make a folder for the sanitized build: ", std::strerror(errno))));

  // Cached like any build: a second run with nothing changed compiles nothing.
  BuiltForRun built =
      build_for_run(opts, scratch.path(), {"--sanitize"}, {{"--sanitize", opts.sanitize.value_or("")}}, io);
  if (built.status != 0) return built.status;
  return run_built(opts, built, io);
}

}  // namespace ppy::driver
