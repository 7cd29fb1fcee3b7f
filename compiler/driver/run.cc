// `ppy run`, `ppy check` and `ppy inspect`: the roads that stay above the boundary.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sstream>

#include "diagnostics.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/frontend/frontend.h"
#include "ppy/interp/interp.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/project/project.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

/// `ppy run --backend python`: the python backend's build (into the project
/// cache), then `python3 -m ENTRY` in that folder, so the entry module runs as
/// `__main__` and imports its siblings as python3 imports the original's.
int run_python(const RunOptions& opts, Streams io) {
  std::ostringstream out, err;
  BuildOptions b;
  b.target = opts.target;
  b.backend = "python";
  b.opt_level = opts.opt_level;
  if (int status = build(b, {out, err}); status != 0) {
    io.err << err.str();
    return status;
  }
  auto project = load_project(opts.target);
  if (!project.ok()) return fail(io.err, project.status());
  std::string entry = project->entry;
  if (entry.empty() && project->modules.size() == 1) entry = project->modules.front().name;
  if (entry.empty())
    return fail(io.err, coded_error("E1002", str_cat(opts.target, " names no entry module to run (set `entry` in "
                                                     "[tool.ppy])")));
  std::filesystem::path folder = std::filesystem::path(project->root) / ".ppy-cache" / "backends" / "python";
  io.out.flush();
  std::cout.flush();
  pid_t pid = fork();
  if (pid < 0) return fail(io.err, absl::InternalError("cannot start python3: fork failed"));
  if (pid == 0) {
    if (chdir(folder.c_str()) != 0) _exit(127);
    execlp("python3", "python3", "-m", entry.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 127)
      io.err << "error: python3 could not be started in " << folder.string() << " (is it on PATH?)\n";
    return WEXITSTATUS(status);
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

}  // namespace

int run(const RunOptions& opts, Streams io) {
  if (opts.backend && *opts.backend == "python") return run_python(opts, io);
  if (opts.backend)
    return fail(io.err, coded_error("E1002", str_cat("ppy run --backend ", *opts.backend, ": `ppy run` runs a program "
                                                     "with the reference interpreter, or with --backend python; ",
                                                     "build with `ppy build --backend ", *opts.backend, "`")));
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  std::string entry = c->project ? c->project->entry : std::string();
  if (entry.empty()) entry = c->modules.front()->name();
  auto linked = ir::link(std::move(c->modules));
  if (!linked.ok()) {
    report(io.err, linked.status());
    return 1;
  }
  return interp::run_main(**linked, entry, io.out, io.err).exit_code;
}

int check(const std::string& target, Streams io) {
  auto project = load_project(target);
  if (!project.ok()) {
    report(io.err, project.status());
    return 1;
  }
  frontend::DiagnosticEngine diags;
  bool clean = frontend::check_project(*project, diags);
  io.err << frontend::render_diagnostics(diags);
  return clean && !diags.has_errors() ? 0 : 1;
}

int inspect(const InspectOptions& opts, Streams io) {
  auto stage = ir::parse_stage(opts.stage);
  if (!stage || *stage == ir::Stage::Backend) {
    report(io.err, absl::InvalidArgumentError(
                       "--stage takes after-ir-generation, after-canonicalization, before-optimization, "
                       "after-optimization or before-backend"));
    return 2;
  }
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level, *stage}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  for (auto& m : c->modules) io.out << ir::print_module(*m);
  return 0;
}

}  // namespace ppy::driver
