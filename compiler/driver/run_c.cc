// `ppy run --backend c`: the program linked, emitted as one standalone C file,
// compiled by the system's C compiler against the collector, and run, as
// `--backend python` runs the python backend's output.
#include <filesystem>
#include <sstream>

#include "child_program.h"
#include "diagnostics.h"
#include "plugin_libraries.h"
#include "ppy/driver/commands.h"
#include "ppy/project/project.h"
#include "ppy/util/program.h"
#include "ppy/util/str_cat.h"
#include "run_c.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

/// The collector's link flags as its pkg-config file gives them (Debian's
/// `bdw-gc`), else the plain `-lgc`.
std::vector<std::string> collector_libs() {
  std::string out;
  if (find_program("pkg-config") && run_tool_captured({"pkg-config", "--libs", "bdw-gc"}, out) == 0) {
    std::vector<std::string> libs;
    std::istringstream words(out);
    for (std::string w; words >> w;) libs.push_back(w);
    if (!libs.empty()) return libs;
  }
  return {"-lgc"};
}

/// Runs `ppy emit` quietly into `output`, passing its diagnostics on.
int emit_quietly(EmitOptions opts, const fs::path& output, Streams io) {
  opts.output = output.string();
  std::ostringstream out, err;
  int status = emit(opts, {out, err});
  if (status != 0) io.err << err.str();
  return status;
}

}  // namespace

int run_c(const RunOptions& opts, Streams io) {
  auto cc = find_program("cc");
  if (!cc) return fail(io.err, coded_error("E1801", "ppy run --backend c: unavailable: no C compiler (`cc`) on PATH"));
  auto project = load_project(opts.target);
  fs::path folder = project.ok() ? fs::path(project->root) / ".ppy-cache" / "run" / "c"
                                 : fs::path(opts.target).parent_path() / ".ppy-cache" / "run" / "c";
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return fail(io.err, coded_error("E1002", str_cat("cannot create ", folder.string(), ": ", ec.message())));

  EmitOptions linked;
  linked.format = "linked-ir";
  linked.target = opts.target;
  linked.opt_level = opts.opt_level;
  if (int s = emit_quietly(linked, folder / "program.ppyir", io); s != 0) return s;
  EmitOptions c;
  c.format = "c";
  c.target = (folder / "program.ppyir").string();
  c.flags = {"standalone"};
  if (int s = emit_quietly(c, folder / "program.c", io); s != 0) return s;

  fs::path exe = folder / "program";
  std::vector<std::string> compile = {cc->string(), "-std=c11", "-O2", (folder / "program.c").string(), "-o",
                                      exe.string()};
  if (project.ok())  // plugins: the native libraries the program's externs call
    for (std::string& arg : plugin_link_args(*project)) compile.push_back(std::move(arg));
  for (std::string& lib : collector_libs()) compile.push_back(std::move(lib));
  compile.push_back("-lm");
  std::string output;
  if (int s = run_tool_captured(compile, output); s != 0) {
    fs::remove(exe, ec);  // nothing half-built is left to run by mistake
    if (output.size() > 3000) output = "..." + output.substr(output.size() - 3000);
    return fail(io.err, coded_error("E1802", str_cat("ppy run --backend c: the C compiler failed (status ", s,
                                                     ") on ", (folder / "program.c").string(), ":\n", output)));
  }
  // sys.argv as python3 shows it: the script's path as given, then its arguments.
  std::vector<std::string> argv = {opts.target};
  argv.insert(argv.end(), opts.args.begin(), opts.args.end());
  return run_child(argv, {}, io.out, {}, exe);
}

}  // namespace ppy::driver
