// `ppy run` (through the LLVM backend and a JIT, the interpreter, or python3
// over the python backend's build), `ppy check` and `ppy inspect`.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sstream>

#include "diagnostics.h"
#include "jit.h"
#include "plugin_dialects.h"
#include "python_trace_hook.h"
#include "run_c.h"
#include "run_sanitized.h"
#include "ppy/driver/build_cache.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/commands.h"
#include "plugin_libraries.h"
#include "ppy/driver/compile.h"
#include "ppy/frontend/frontend.h"
#include "ppy/interp/interp.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/project/project.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "ppy_sys.h"

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
  // In the caller's folder (a program opens files relative to it), the entry
  // run as `__main__` from the build's folder, its arguments as sys.argv.
  // A module of the build named like one python3 has loaded already (the
  // standard library's bisect, written in ppy: docs/stdlib.md) is the build's.
  std::string runner = str_cat(python_traceback_hook(project->root),  // tracebacks (issue 34)
                               "import runpy, sys, os; sys.path.insert(0, sys.argv.pop(1)); ",
                               "[sys.modules.pop(n[:-3], None) for n in os.listdir(sys.path[0]) if n.endswith('.py')]; ",
                               "sys.argv[0] = sys.argv[1]; del sys.argv[1]\n",
                               // Stdout flushed before the report, as `python3 prog.py` flushes it
                               // (`python3 -c` does not): an uncaught error, sys.exit("message").
                               "try:\n    runpy.run_module('", entry, "', run_name='__main__', alter_sys=False)\n",
                               "except BaseException:\n    sys.stdout.flush()\n    raise\n");
  std::vector<std::string> args = {"python3", "-c", runner, std::filesystem::absolute(folder).string(), opts.target};
  args.insert(args.end(), opts.args.begin(), opts.args.end());
  if (pid == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp("python3", argv.data());
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

int run_interpreted(const RunOptions& opts, Streams io) {
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  if (auto s = refuse_plugin_dialects(*c, "the interpreter"); !s.ok()) return fail(io.err, s);  // plugins
  std::string entry = c->project ? c->project->entry : std::string();
  if (entry.empty()) entry = c->modules.front()->name();
  auto linked = ir::link(std::move(c->modules));
  if (!linked.ok()) {
    report(io.err, linked.status());
    return 1;
  }
  return interp::run_main(**linked, entry, io.out, io.err).exit_code;
}

std::string_view qualname(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? std::string_view(q->as_string()) : std::string_view();
}

/// The entry's symbol, found as the interpreter finds it: by symbol, by
/// qualname, or as `<entry module>.__main__` (its module-level code), else
/// `<entry module>.main`.
const ir::Function* find_entry(const Compilation& c, std::string entry) {
  if (!entry.empty() && entry[0] == '@') entry.erase(0, 1);
  for (auto match : {0, 1, 2, 3})
    for (auto& m : c.modules)
      for (auto& f : m->functions()) {
        if (f->is_declaration()) continue;
        if ((match == 0 && f->name() == entry) || (match == 1 && qualname(*f) == entry) ||
            (match == 2 && qualname(*f) == entry + ".__main__") || (match == 3 && qualname(*f) == entry + ".main"))
          return f.get();
      }
  return nullptr;
}

}  // namespace

absl::StatusOr<std::vector<ObjectFile>> native_objects(host::BackendHandle& backend, const Compilation& c,
                                                       const BackendContext& ctx, const std::string& target,
                                                       std::vector<std::string>& notes) {
  // Keyed as `ppy emit object` keys them: the two roads share the entries.
  BuildCache cache(cache_settings(c, target), std::cerr);
  std::vector<ObjectFile> objects;
  std::map<std::string, std::string> keys;
  host::Invocation inv;
  inv.action = host::Invocation::Action::Emit;
  inv.format = "object";
  inv.context = &ctx;
  for (auto& m : c.modules) {
    keys[m->name()] = combined_key("emit object", {{m->name(), ctx.identity.at(m->name())}});
    if (auto hit = cache.lookup(keys[m->name()], backend.info().name); hit && hit->size() == 1)
      objects.push_back({m->name() + ".o", std::move(hit->at(0).bytes)});
    else
      inv.modules.push_back(m.get());
  }
  if (inv.modules.empty()) {
    cache.finish();
    return objects;
  }
  PPY_ASSIGN_OR_RETURN(host::InvocationResult r, backend.invoke(inv));
  for (auto& n : r.notes) notes.push_back(n);
  for (auto& a : r.artifacts) {
    cache.store(keys[a.module], {{"artifact", a.data}}, backend.info().name);
    objects.push_back({a.module + ".o", std::move(a.data)});
  }
  cache.finish();
  return objects;
}

int run(const RunOptions& opts, Streams io) {
  // sys.argv of a program run here (the interpreter, the JIT): its path as
  // given, then its arguments. The runtime keeps the pointers: they live as
  // long as this process.
  static std::vector<std::string> argv_text;
  static std::vector<char*> argv;
  argv_text = {opts.target};
  argv_text.insert(argv_text.end(), opts.args.begin(), opts.args.end());
  argv.clear();
  for (std::string& a : argv_text) argv.push_back(a.data());
  ppy_sys_set_argv(static_cast<int>(argv.size()), argv.data());
  // Tracebacks (issue 34) quote source lines from the files the locations
  // name, relative to the program's folder.
  static std::string source_root;
  std::error_code ec;
  std::filesystem::path target_path = std::filesystem::absolute(opts.target, ec);
  source_root = std::filesystem::is_directory(target_path, ec) ? target_path.string()
                                                               : target_path.parent_path().string();
  ppy_rt_set_source_root(source_root.c_str());
  if (opts.profile || opts.pgo || opts.profile_out) return run_profiled(opts, io);
  if (opts.sanitize) return run_sanitized(opts, io);
  if (opts.backend && *opts.backend == "python") return run_python(opts, io);
  if (opts.backend && *opts.backend == "c") return run_c(opts, io);
  if (opts.backend && *opts.backend != "llvm")
    return fail(io.err, coded_error("E1002", str_cat("ppy run --backend ", *opts.backend, ": `ppy run` runs a program "
                                                     "through llvm's JIT, the C compiler (--backend c), python3 "
                                                     "(--backend python) or the reference interpreter (--interp); "
                                                     "build with `ppy build --backend ", *opts.backend,
                                                     "` and run what it wrote")));
  if (opts.interp) return run_interpreted(opts, io);
  // The JIT is the LLVM roads': in `ppy-llvm` (this returns only there, or when it cannot hand over).
  if (auto s = need_llvm_roads(); !s.ok()) return fail(io.err, s);
  auto project = opts.target.ends_with(".ppyir") ? absl::StatusOr<Project>(absl::NotFoundError(""))
                                                 : load_project(opts.target);
  const Project* p = project.ok() ? &*project : nullptr;
  BackendCatalog catalog = BackendCatalog::discover();
  auto backend = catalog.load("llvm", p, host::HostSettings{});
  if (!backend.ok()) return fail(io.err, backend.status());
  const host::BackendInfo& info = (*backend)->info();
  if (auto s = host::require_toolchain(info, info.format("object")); !s.ok()) return fail(io.err, s);
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level, ir::Stage::BeforeBackend, 0, p}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  if (auto s = refuse_plugin_dialects(*c, "backend 'llvm'"); !s.ok()) return fail(io.err, s);  // plugins
  std::string entry_name = c->project ? c->project->entry : std::string();
  if (entry_name.empty()) entry_name = c->modules.front()->name();
  const ir::Function* entry = find_entry(*c, entry_name);
  if (!entry) {
    io.err << interp::nothing_to_run(entry_name) << "\n";
    return 2;
  }
  if (!entry->params().empty() || !entry->results().empty()) {
    io.err << "error: the entry @" << entry->name() << " takes parameters\n";
    return 2;
  }
  auto config = backend_config(c->project ? &*c->project : nullptr, info.name);
  if (!config.ok()) return fail(io.err, config.status());
  BackendContext ctx = make_context(*c, info, *config, opts.target);
  if (auto sanitize = sanitize_in_project_flags(ctx)) {  // [tool.ppy.backends.llvm.flags] sanitize
    RunOptions sanitized = opts;
    sanitized.sanitize = *sanitize;
    return run_sanitized(sanitized, io);
  }
  std::vector<std::string> notes;
  auto objects = native_objects(**backend, *c, ctx, opts.target, notes);
  if (!objects.ok()) return fail(io.err, objects.status());
  for (auto& n : notes) io.err << "note: " << n << "\n";
  if (auto s = load_plugin_libraries(*c); !s.ok()) return fail(io.err, s);  // plugins (plugin_libraries.cc)
  auto status = llvm_roads()->run_objects(*objects, entry->name(), io.out, io.err);
  if (!status.ok()) return fail(io.err, status.status());
  return *status;
}

int check(const std::string& target, Streams io) {
  auto project = load_project(target);
  if (!project.ok()) {
    report(io.err, project.status());
    return 1;
  }
  frontend::DiagnosticEngine diags;
  bool clean = frontend::check_project(*project, diags);
  write_diagnostics(io.err, diags);
  return clean && !diags.has_errors() ? 0 : 1;
}

int inspect(const InspectOptions& opts, Streams io) {
  auto stage = ir::parse_stage(opts.stage);
  if (!stage) {
    report(io.err, absl::InvalidArgumentError(
                       "--stage takes after-ir-generation, after-canonicalization, before-optimization, "
                       "after-optimization, before-backend, or backend (with --backend NAME)"));
    return 2;
  }
  const bool backend_stage = *stage == ir::Stage::Backend;
  if (backend_stage && !opts.backend)
    return fail(io.err, coded_error("E1002", "--stage backend needs --backend NAME: the backend stage's passes are "
                                             "the backend's own, run where it runs"));
  if (!backend_stage && opts.backend)
    return fail(io.err, coded_error("E1002", str_cat("--backend ", *opts.backend, " goes with --stage backend; --stage ",
                                                     opts.stage, " is the shared pipeline's, the same for every backend")));
  if (!backend_stage) {
    frontend::DiagnosticEngine diags;
    auto c = compile({opts.target, opts.opt_level, *stage}, diags);
    if (!c.ok()) return report_failure(io.err, c.status(), diags);
    for (auto& m : c->modules) io.out << ir::print_module(*m);
    return 0;
  }

  // The backend stage: the IR as the driver hands it over, through the
  // backend's passes (verified after each, in its process), sent back.
  auto project = opts.target.ends_with(".ppyir") ? absl::StatusOr<Project>(absl::NotFoundError(""))
                                                 : load_project(opts.target);
  BackendCatalog catalog = BackendCatalog::discover();
  auto backend = catalog.load(*opts.backend, project.ok() ? &*project : nullptr, {});
  if (!backend.ok()) return fail(io.err, backend.status());
  io.err << sandbox_warning(**backend);
  const host::BackendInfo& info = (*backend)->info();
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level, ir::Stage::BeforeBackend, 0, project.ok() ? &*project : nullptr},
                   diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  auto config = backend_config(c->project ? &*c->project : nullptr, info.name);
  if (!config.ok()) return fail(io.err, config.status());
  BackendContext ctx = make_context(*c, info, *config, opts.target);
  host::Invocation inv;
  inv.action = host::Invocation::Action::Validate;
  inv.return_modules = true;
  inv.context = &ctx;
  inv.modules = c->module_list();
  auto r = (*backend)->invoke(inv);
  if (!r.ok()) return fail(io.err, r.status());
  for (const std::string& note : r->notes) io.err << "note: " << note << "\n";
  for (auto& m : r->modules) io.out << ir::print_module(*m);
  return 0;
}

}  // namespace ppy::driver
