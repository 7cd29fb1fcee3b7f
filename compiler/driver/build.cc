// `ppy build TARGET --backend NAME`: the contract's build road.

#include <filesystem>
#include <ostream>
#include <unistd.h>

#include <toml++/toml.h>

#include "diagnostics.h"
#include "jit.h"
#include "opening.h"
#include "plugin_libraries.h"
#include "ppy/driver/build_cache.h"
#include "ppy/driver/build_files.h"
#include "ppy/driver/build_report.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/output.h"
#include "ppy/driver/output_tree.h"
#include "ppy/project/project.h"
#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

/// What each LLVM-only option does, for its refusal.
std::string llvm_option_purpose(const std::string& flag, const std::string& backend) {
  static const std::map<std::string, std::string> kPurpose = {
      {"--unsafe", "it makes LLVM code's integer arithmetic wrap instead of raising OverflowError"},
      {"--sanitize", "it builds LLVM code with a sanitizer"},
      {"--pgo", "it optimizes LLVM code with a profile"},
      {"--prover", "it proves guards away before LLVM code generation"},
      {"--host-cpu", "it tunes LLVM code for this machine's processor"},
      {"--no-traceback", "it leaves the frames for tracebacks out of LLVM code"},
      {"--standalone", "it links a standalone executable from LLVM objects"},
      {"--python-extension", "it builds a CPython extension module from LLVM objects"},
      {"--library", "it builds a shared library from LLVM objects"},
      {"--report-opt", "it reports LLVM's optimization remarks"},
      {"--report-opt-json", "it reports LLVM's optimization remarks as JSON"},
      {"--warm", "it builds the artifact `ppy run` and `import ppy` take, which is the LLVM backend's"},
  };
  if (flag == "--target")
    return str_cat("it is the LLVM road's target triple; to name what backend '", backend,
                   "' builds for, set `target` in [tool.ppy.backends.", backend, "]");
  auto it = kPurpose.find(flag);
  return it == kPurpose.end() ? "it belongs to the LLVM road" : it->second;
}

/// What a native build names its executable and libraries: the project's
/// `[project] name`, else the file's stem.
std::string program_name(const Compilation& c, const std::string& target) {
  if (c.project && !c.project->pyproject.empty()) {
    try {
      toml::table t = toml::parse_file(c.project->pyproject);
      if (auto name = t["project"]["name"].value<std::string>(); name && !name->empty()) return *name;
    } catch (const toml::parse_error&) {
    }
    return fs::path(c.project->root).filename().string();
  }
  fs::path t(target);
  std::string stem = t.stem().string();
  return stem.empty() ? "program" : stem;
}

/// `--pgo FILE`: the profile's absolute path for the backend and its digest
/// for the key (docs/cache.md); a file that cannot be read is a warning and the
/// build goes on without a profile (the flag is dropped).
std::optional<std::string> resolve_profile(std::map<std::string, std::string>& flags) {
  std::string given = flags["pgo"];
  std::error_code ec;
  fs::path path = fs::absolute(given, ec);
  auto bytes = given.empty() ? absl::StatusOr<std::string>(absl::NotFoundError("no file named"))
                             : read_file(path.string());
  if (!bytes.ok() || bytes->empty()) {
    flags.erase("pgo");
    return str_cat("warning[W2009]: the profile '", given, "' cannot be read (",
                   bytes.ok() ? std::string("it is empty") : std::string(bytes.status().message()),
                   "); building without it (write one with `ppy run --profile`)");
  }
  flags["pgo"] = path.string();
  flags["pgo-digest"] = sha256_hex(*bytes);
  return std::nullopt;
}

}  // namespace

int build(const BuildOptions& opts, Streams io) {
  for (auto& flag : opts.llvm_only) {
    if (opts.backend != "llvm")
      return fail(io.err, coded_error("E1002", str_cat(flag, " is an option of the LLVM road (",
                                                       llvm_option_purpose(flag, opts.backend), "); backend '",
                                                       opts.backend, "' does not take it")));
    if (flag == "--prover")  // docs/llvm.md, "--prover z3"
      if (auto v = opts.llvm_values.find(flag); v != opts.llvm_values.end() && v->second != "z3" && v->second != "off")
        return fail(io.err, coded_error("E1002", str_cat("--prover takes z3 or off, not '", v->second, "'")));
  }
  if (opts.backend == "python") {
    if (opts.output)
      return fail(io.err, coded_error("E1002", "-o: the python backend writes a program's modules into the project "
                                               "cache (.ppy-cache/backends/python), where `ppy run --backend python` "
                                               "runs them, and takes no -o (`ppy emit python -o DIR` writes the "
                                               "source elsewhere)"));
    if (opts.target.ends_with(".ppyir"))
      return fail(io.err, coded_error("E1002", str_cat(opts.target, ": the python backend builds a program from its "
                                                       "source, and a .ppyir file is one module's IR with no program "
                                                       "around it; give the .ppy file or the project folder")));
  }
  // Progress on a terminal (stderr), whole lines elsewhere, only errors with --quiet.
  BuildReport report(io.err, BuildReport::mode_for(opts.quiet, &io.err == &std::cerr ? STDERR_FILENO : -1));
  std::ostream silent(nullptr);
  std::ostream& said = opts.quiet ? silent : io.err;  // warnings and notes
  // -o is checked before anything starts; the default folder (in the
  // project's cache) is known, and checked, once the project is compiled.
  Opened opened;
  // Keys before IR: a build whose artifact is cached compiles nothing.
  const OpeningRequest request{.target = opts.target,
                               .opt_level = opts.opt_level,
                               .jobs = opts.jobs,
                               .host = opts.host,
                               .output = opts.output,
                               .replace_output = true,
                               .backend = opts.backend,
                               .keys_first = true};
  if (int failed = open_command(request, io, &report, opened)) return failed;
  host::BackendHandle* backend = opened.backend;
  const host::BackendInfo& info = backend->info();
  const Compilation* c = &opened.compilation;
  BackendContext& ctx = opened.context;
  // The LLVM road's flags reach the backend in the context, as the `flags`
  // table of its configuration (over the project's), and make part of the key.
  std::map<std::string, std::string> flags;
  if (info.name == "llvm") {
    if (auto it = ctx.backend_config.find("flags"); it != ctx.backend_config.end() && it->second.is<ConfigValue::Table>())
      for (auto& [k, v] : it->second.as<ConfigValue::Table>()) flags[k] = v.str();
    for (auto& flag : opts.llvm_only) {
      auto v = opts.llvm_values.find(flag);
      flags[flag.substr(2)] = v == opts.llvm_values.end() ? "" : v->second;
    }
    if (auto pgo = flags.find("pgo"); pgo != flags.end())
      if (auto warning = resolve_profile(flags)) said << *warning << "\n";
    if (c->project && !c->project->entry.empty()) flags["entry"] = c->project->entry;
    flags["name"] = program_name(*c, opts.target);
    // plugins: the native libraries the program's externs may name, linked
    // into what is built (plugin_libraries.h); their paths make part of the key.
    if (c->project)
      for (auto& [lib, file] : plugin_library_files(*c->project)) flags["library." + lib] = file;
    ConfigValue::Table table;
    for (auto& [k, v] : flags) table[k] = ConfigValue(v);
    ctx.backend_config["flags"] = ConfigValue(std::move(table));
  }
  if (flags.count("warm")) {
    if (int failed = compile_opened(request, io, &report, opened)) return failed;
    // What `ppy run` would build on first use: its objects, into the cache.
    std::vector<std::string> warm_notes;
    auto objects = native_objects(*backend, *c, ctx, opts.target, warm_notes);
    if (!objects.ok()) return fail(io.err, objects.status());
  }
  fs::path out = opts.output ? fs::path(*opts.output) : fs::path(cache_root(*c, opts.target)) / "backends" / info.name;
  BuildCache cache(cache_settings(*c, opts.target, !opts.no_cache), said);
  std::string key = combined_key("build", ctx.identity);
  if (!flags.empty()) {
    std::map<std::string, std::string> with_flags = ctx.identity;
    for (auto& [k, v] : flags)
      if (k != "pgo") with_flags["--" + k] = v;  // the profile by its digest (pgo-digest), not where it lies
    key = combined_key("build", with_flags);
  }
  if (!opts.output)
    if (auto s = check_output_location(out.string()); !s.ok()) return fail(io.err, s);
  recover_output(out);  // what killed builds into this -o left behind

  const size_t modules = c->keys.size();  // compiled or remembered (the keys memo), one key each
  BuildSummary summary{modules, 0, 0, 0, info.name, info.origin, 0};
  host::Invocation inv;
  inv.action = host::Invocation::Action::Build;
  inv.context = &ctx;
  inv.modules = c->module_list();
  int compile_failed = 0;  // reported by compile_opened
  auto compile_if_remembered = [&](host::Invocation& prepared) -> absl::Status {
    if (opened.compiled) return absl::OkStatus();
    if ((compile_failed = compile_opened(request, io, &report, opened)))
      return absl::CancelledError("the compile failed (reported)");
    prepared.modules = c->module_list();
    return absl::OkStatus();
  };
  auto built = built_files(*backend, inv, cache, key, compile_if_remembered);
  if (compile_failed) return compile_failed;
  if (!built.ok()) return fail(io.err, built.status());
  switch (built->source) {
    case CacheSource::kLocal: summary.local = modules; break;
    case CacheSource::kRemote: summary.remote = modules; break;
    case CacheSource::kBuilt:
      summary.built = modules;
      summary.server = built->server;
      summary.retries = retries_in(built->notes);
      break;
  }
  const std::vector<std::string>& outputs = built->outputs;
  const std::vector<std::string>& notes = built->notes;
  cache.finish();
  // The default folder is the driver's own, in its cache: replaced marker or not.
  if (auto s = write_tree_atomically(out, built->files, {.made_by = "ppy build --backend " + info.name,
                                                  .replace_unmarked = !opts.output});
      !s.ok())
    return fail(io.err, s, 1);

  if (report.quiet()) return 0;
  io.err << "backend:  " << info.name << "\n";
  io.err << "outputs:  " << outputs.size() << "\n";
  for (auto& o : outputs) io.out << (out / o).string() << "\n";
  for (auto& n : notes) io.err << (n.starts_with("warning[") ? "" : "note: ") << n << "\n";  // W2009 as is
  report.summary(summary);
  return 0;
}

}  // namespace ppy::driver
