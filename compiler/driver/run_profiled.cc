// `ppy run --profile [--profile-out FILE]` and `ppy run --pgo FILE`: the JIT
// loads no profile runtime, so each builds an executable into a temporary
// folder (cached like any build) and runs it. A profiling run merges the raw
// counters it wrote into an indexed profile with llvm-profdata-19 (merging
// into FILE when it exists, so several runs add up).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "child_program.h"
#include "diagnostics.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/util/str_cat.h"
#include "run_built.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

/// `llvm-profdata-19` (or `llvm-profdata`) on PATH, or "".
std::string profdata_tool() {
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (const char* name : {"llvm-profdata-19", "llvm-profdata"}) {
    size_t start = 0;
    while (start <= dirs.size()) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
      start = end + 1;
    }
  }
  return "";
}

/// `foo.ppy` -> `foo.ppyprof` beside it; a project folder -> `<folder>/<name>.ppyprof`.
std::string default_profile(const std::string& target) {
  fs::path t(target);
  if (fs::is_directory(t)) return (t / (fs::absolute(t).filename().string() + ".ppyprof")).string();
  return t.replace_extension(".ppyprof").string();
}

}  // namespace

int run_profiled(const RunOptions& opts, Streams io) {
  if (opts.interp || (opts.backend && *opts.backend != "llvm") || opts.sanitize)
    return fail(io.err,
                coded_error("E1002", str_cat(opts.profile ? "--profile" : "--pgo",
                                             " is an option of the LLVM road's native code, and ",
                                             opts.interp     ? "--interp runs the reference interpreter"
                                             : opts.sanitize ? "--sanitize builds for the sanitizers"
                                                             : "--backend " + *opts.backend + " runs without it",
                                             "; drop one of them")));
  if (opts.profile && opts.pgo)
    return fail(io.err,
                coded_error("E1002", "--profile records a profile and --pgo builds with one: give one of them"));
  if (opts.profile_out && !opts.profile)
    return fail(io.err, coded_error("E1002", "--profile-out names the file --profile writes; give --profile too"));
  std::string profdata;
  if (opts.profile && (profdata = profdata_tool()).empty())
    return fail(io.err, coded_error("E1801",
                                    "ppy run --profile: unavailable: no llvm-profdata-19 on PATH to merge the "
                                    "profile (install llvm-19)"));
  std::error_code ec;
  // The build is the LLVM road's: hand over to `ppy-llvm` before making a
  // folder that a process replaced by exec would never remove.
  if (auto s = need_llvm_roads(); !s.ok()) return fail(io.err, s);
  ScratchFolder scratch;
  if (!scratch.make("ppy-profile"))
    return fail(io.err, absl::InternalError(str_cat("cannot make a folder for the build: ", std::strerror(errno))));
  const std::string& folder = scratch.path();

  BuiltForRun built = opts.profile ? build_for_run(opts, folder, {"--profile-generate"}, {}, io)
                                   : build_for_run(opts, folder, {"--pgo"}, {{"--pgo", *opts.pgo}}, io);
  if (built.status != 0) return built.status;
  std::vector<std::string> env;
  if (opts.profile) env.push_back(str_cat("LLVM_PROFILE_FILE=", folder, "/raw-%p.profraw"));
  int status = run_built(opts, built, io, env);
  if (!opts.profile) return status;

  // The raw counters (one file per process) merged into FILE, FILE's own
  // counts included when it exists.
  std::string target = opts.profile_out.value_or(default_profile(opts.target));
  std::vector<std::string> merge = {profdata, "merge", "-o", folder + "/merged.ppyprof"};
  for (auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".profraw") merge.push_back(entry.path().string());
  if (merge.size() == 4) {
    io.err << "warning[W2009]: the program wrote no profile (it ended before exit); " << target << " is unchanged\n";
    return status;
  }
  int merged = -1;
  std::string said;  // what llvm-profdata-19 printed
  if (fs::exists(target, ec)) {
    merge.push_back(target);
    if ((merged = run_tool_captured(merge, said)) != 0) {
      io.err << "warning[W2009]: " << target << " is not a profile llvm-profdata-19 can read; it is replaced\n";
      merge.pop_back();
    }
  }
  if (merged != 0 && (merged = run_tool_captured(merge, said)) != 0)
    return fail(io.err, absl::InternalError(
                            str_cat("llvm-profdata-19 merge failed (exit ", merged, ") writing ", target, ": ", said)));
  fs::copy_file(folder + "/merged.ppyprof", target, fs::copy_options::overwrite_existing, ec);
  if (ec) return fail(io.err, absl::InternalError(str_cat("cannot write ", target, ": ", ec.message())));
  io.err << "profile: " << target << "\n";
  return status;
}

}  // namespace ppy::driver
