// `ppy emit FORMAT TARGET`: the contract's emit road, for builtin and installed
// backends alike (the driver only ever holds a BackendHandle).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <ostream>
#include <thread>

#include "diagnostics.h"
#include "opening.h"
#include "parallel.h"
#include "ppy/driver/build_cache.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/output.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

using Artifacts = std::vector<EmittedArtifact>;

/// What the cache keeps of an emit: the artifact, and the notes the backend
/// made with it, so that a hit says what the miss said (an empty StableHLO
/// module is never silent).
std::vector<ArtifactFile> cached_emit(const std::string& data, const std::vector<std::string>& notes) {
  std::vector<ArtifactFile> files = {{"artifact", data}};
  std::string text;
  for (const std::string& n : notes) str_append(text, n, "\n");
  if (!text.empty()) files.push_back({"notes", text});
  return files;
}

/// The artifact of a cache entry cached_emit made; its notes are added to `notes`.
std::string replay_emit(const std::vector<ArtifactFile>& files, std::vector<std::string>& notes) {
  for (const ArtifactFile& f : files)
    if (f.path == "notes")
      for (size_t start = 0, nl; (nl = f.bytes.find('\n', start)) != std::string::npos; start = nl + 1)
        if (std::find(notes.begin(), notes.end(), f.bytes.substr(start, nl - start)) == notes.end())
          notes.push_back(f.bytes.substr(start, nl - start));
  return files.at(0).bytes;
}

/// Emits the modules missing from the cache, `jobs` invocations at once; each
/// invocation carries its modules across the boundary once. `module_notes`
/// gets each module's notes: its invocation's (all of them, where an
/// invocation carried several modules).
absl::StatusOr<Artifacts> emit_modules(host::BackendHandle& backend, const std::string& format,
                                       const BackendContext& ctx, const std::vector<const ir::Module*>& modules,
                                       int jobs, std::vector<std::string>& notes,
                                       std::map<std::string, std::vector<std::string>>& module_notes) {
  size_t groups = std::max<size_t>(1, std::min<size_t>(jobs, modules.size()));
  std::vector<std::optional<absl::StatusOr<host::InvocationResult>>> results(groups);
  parallel_for(groups, jobs, [&](size_t g) {
    host::Invocation inv;
    inv.action = host::Invocation::Action::Emit;
    inv.format = format;
    inv.context = &ctx;
    for (size_t i = g; i < modules.size(); i += groups) inv.modules.push_back(modules[i]);
    results[g] = backend.invoke(inv);
  });
  Artifacts out;
  for (auto& slot : results) {
    PPY_ASSIGN_OR_RETURN(host::InvocationResult r, std::move(*slot));
    for (auto& n : r.notes) notes.push_back(n);
    for (auto& a : r.artifacts) {
      module_notes[a.module] = r.notes;
      out.push_back({a.module, std::move(a.data)});
    }
  }
  return out;
}

}  // namespace

/// The formats each flag-shaped option applies to (the c backend's).
const std::map<std::string, std::set<std::string>>& flag_formats() {
  static const auto* m = new std::map<std::string, std::set<std::string>>{
      {"standalone", {"c", "cpp"}},
      {"header-only", {"c", "cpp"}},
      {"unsafe", {"c", "cpp", "cuda", "hip"}},
      {"format", {"c", "cpp", "header", "cuda", "hip"}},
  };
  return *m;
}

int emit(const EmitOptions& opts, Streams io) {
  std::vector<std::string> flags = opts.flags;
  if (opts.legacy_format) {
    if (!opts.legacy_format->empty())
      return fail(io.err, coded_error("E1002", "`--format` applies to the builtin kinds; name the format as the first argument"));
    flags.push_back("format");
  }
  for (const std::string& flag : flags) {
    const std::set<std::string>& takes = flag_formats().at(flag);
    if (!takes.count(opts.format)) {
      std::string list;
      for (auto& f : takes) str_append(list, list.empty() ? "" : ", ", f);
      return fail(io.err, coded_error("E1002", str_cat("--", flag, " is an option of the c backend's formats (", list,
                                                       "); the format '", opts.format, "' does not take it")));
    }
  }
  // The backend that owns the format, found before any analysis.
  Opened opened;
  if (int failed = open_command({.target = opts.target,
                                 .opt_level = opts.opt_level,
                                 .jobs = opts.jobs,
                                 .host = opts.host,
                                 .output = opts.output,
                                 .format = opts.format},
                                io, nullptr, opened))
    return failed;
  host::BackendHandle* backend = opened.backend;
  const host::BackendInfo& info = backend->info();
  const EmitFormat* format = opened.format;
  const Compilation* c = &opened.compilation;
  BackendContext& ctx = opened.context;
  std::vector<std::string> names;
  for (auto& m : c->modules) names.push_back(m->name());
  bool program = format->scope == EmitScope::Program;
  std::error_code ec;
  OutputRequest output{opts.output, !program && std::filesystem::is_directory(opts.target, ec)};
  if (auto s = check_placement(names, format->suffix, program, format->binary, output,
                               !opts.output && isatty(STDOUT_FILENO));
      !s.ok())
    return fail(io.err, s);

  // The flags travel in the context as entries `--NAME = true` of the
  // backend's table (no project table key is spelled that way), and are part
  // of the cache key.
  std::set<std::string> sorted(flags.begin(), flags.end());
  std::string what = opts.format;
  for (const std::string& f : sorted) {
    ctx.backend_config["--" + f] = ConfigValue(true);
    str_append(what, " --", f);
  }
  BuildCache cache(cache_settings(*c, opts.target, !opts.no_cache), io.err);
  std::vector<std::string> notes;
  Artifacts artifacts;

  if (program) {
    std::string key = combined_key("emit-program " + what, ctx.identity);
    if (auto hit = cache.lookup(key, info.name)) {
      artifacts.push_back({"program", replay_emit(*hit, notes)});
    } else {
      host::Invocation inv;
      inv.action = host::Invocation::Action::EmitProgram;
      inv.format = opts.format;
      inv.context = &ctx;
      inv.modules = c->module_list();
      auto r = backend->invoke(inv);
      if (!r.ok()) return fail(io.err, r.status());
      notes = r->notes;
      if (r->artifacts.size() != 1)
        return fail(io.err, coded_error("E1905", str_cat("backend '", info.name, "' answered ", r->artifacts.size(),
                                                          " artifacts for the program-scoped format '", opts.format, "'"))),
               2;
      artifacts.push_back({"program", std::move(r->artifacts[0].data)});
      cache.store(key, cached_emit(artifacts[0].data, notes), info.name);
    }
    std::string name = c->project && !c->project->entry.empty() ? c->project->entry : names.front();
    artifacts[0].module = name;
  } else {
    std::map<std::string, std::string> keys;
    std::vector<const ir::Module*> misses;
    std::map<std::string, std::string> by_module;
    for (auto& m : c->modules) {
      keys[m->name()] = combined_key("emit " + what, {{m->name(), ctx.identity[m->name()]}});
      if (auto hit = cache.lookup(keys[m->name()], info.name))
        by_module[m->name()] = replay_emit(*hit, notes);
      else
        misses.push_back(m.get());
    }
    if (!misses.empty()) {
      std::map<std::string, std::vector<std::string>> module_notes;
      auto made = emit_modules(*backend, opts.format, ctx, misses, effective_jobs(opts.jobs), notes, module_notes);
      if (!made.ok()) return fail(io.err, made.status());
      for (auto& a : *made) {
        cache.store(keys[a.module], cached_emit(a.data, module_notes[a.module]), info.name);
        by_module[a.module] = std::move(a.data);
      }
    }
    for (auto& n : names) artifacts.push_back({n, by_module[n]});
  }
  cache.finish();
  for (auto& n : notes) io.err << "note: " << n << "\n";
  if (auto s = place_artifacts(artifacts, format->suffix, output, io.out); !s.ok())
    return fail(io.err, s, 1);
  return 0;
}

}  // namespace ppy::driver
