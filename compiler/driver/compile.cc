#include "ppy/driver/compile.h"

#include "ppy/driver/portable_paths.h"

#include <filesystem>
#include <fstream>

#include "parallel.h"
#include "plugin_dialects.h"
#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/pipeline/pipeline.h"
#include "ppy/plugin_host/started_plugins.h"
#include "ppy/project/plugins.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

#ifndef PPY_VERSION
#define PPY_VERSION "0.0.0"
#endif

namespace ppy::driver {
namespace {

bool is_ppyir(const std::string& target) {
  return std::filesystem::path(target).extension() == ".ppyir";
}

/// What a module sees of its dependencies: the declarations it imports,
/// grouped by the module they come from (the prefix of their qualname).
std::map<std::string, std::string> dependency_abi(const ir::Module& m) {
  std::map<std::string, std::string> text;
  for (auto& f : m.functions()) {
    if (!f->is_declaration()) continue;
    std::string from = "<extern>";
    if (auto* q = f->attributes().get("ppy.qualname"); q && q->is<std::string>()) {
      const std::string& qn = q->as_string();
      from = qn.substr(0, qn.rfind('.'));
    }
    text[from] += ir::print_function(*f);
  }
  // generics: which instantiations a module defines depends on the modules that
  // call it, not on its source alone, so they are part of its key
  // (docs/cache.md).
  std::string instances;
  for (auto& f : m.functions()) {
    if (f->is_declaration()) continue;
    if (auto* q = f->attributes().get("ppy.qualname"); q && q->is<std::string>() &&
                                                      q->as_string().find('[') != std::string::npos)
      instances += q->as_string() + "\n";
  }
  if (!instances.empty()) text["<instances>"] = instances;
  // Classes of other modules the module's code uses: their layouts, type ids and methods.
  if (auto* a = m.attributes().get("ppy.imported_classes"); a && a->is<std::string>())
    text["<classes>"] = a->as_string();
  for (auto& [_, t] : text) t = sha256_hex(t);
  return text;
}

absl::StatusOr<Compilation> compile_ppyir(const CompileOptions& options) {
  absl::StatusOr<std::string> read = read_file(options.target);
  if (!read.ok()) return coded_error("E1202", std::string(read.status().message()));
  std::string& bytes = *read;
  // E1206: not a module this compiler can read (docs/diagnostics.md).
  Compilation c;
  auto module = ir::parse_module(bytes);
  if (!module.ok()) {  // plugins: a module using a plugin's dialect reads against it
    std::map<std::string, std::string> dialects = installed_plugin_dialects();
    if (auto reg = plugin_registry(dialects))
      if (auto read = ir::parse_module(bytes, *reg); read.ok()) {
        module = std::move(read);
        c.registry = std::move(reg);
        c.plugin_dialects = std::move(dialects);
      }
  }
  if (!module.ok()) return coded_error("E1206", str_cat(options.target, ": ", std::string(module.status().message())));
  if (auto s = ir::verify_status(**module, c.registry ? *c.registry : ir::DialectRegistry::builtin()); !s.ok())
    return coded_error("E1206", str_cat(options.target, ": ", std::string(s.message())));
  c.from_ppyir = true;
  c.opt_level = options.opt_level.value_or(2);
  ModuleKey key;
  key.source_digest = sha256_hex(bytes);  // the module's encoded bytes
  key.compiler_version = compiler_version();
  key.compiler_fingerprint = compiler_fingerprint();
  key.opt_level = c.opt_level;
  c.keys[(*module)->name()] = key;
  c.modules.push_back(std::move(*module));
  return c;
}

}  // namespace

std::string compiler_version() { return PPY_VERSION; }

std::string compiler_fingerprint() {
  return str_cat("ppy ", PPY_VERSION, "; ppyir ", ir::kIRSchemaVersion, "; source ", compiler_source_digest());
}

std::map<std::string, std::string> project_key_options(const Project& project) {
  std::map<std::string, std::string> options = {{"entry", project.entry}};
  for (size_t i = 0; i < project.source_roots.size(); ++i)
    options[str_cat("source-root.", i)] = under_root(project.source_roots[i], project.root);
  return options;
}

std::vector<const ir::Module*> Compilation::module_list() const {
  std::vector<const ir::Module*> out;
  for (auto& m : modules) out.push_back(m.get());
  return out;
}

absl::StatusOr<Compilation> compile(const CompileOptions& options, frontend::DiagnosticEngine& diags) {
  if (is_ppyir(options.target)) return compile_ppyir(options);
  PPY_ASSIGN_OR_RETURN(Project project,
                       options.project ? absl::StatusOr<Project>(*options.project) : load_project(options.target));
  Compilation c;
  c.opt_level = options.opt_level.value_or(project.opt_level.value_or(2));
  // plugins: the pass servers of installed plugins that claim a module the program imports.
  std::vector<std::string_view> sources;
  for (const SourceModule& m : project.modules) sources.push_back(m.text);
  PPY_ASSIGN_OR_RETURN(plugin_host::StartedPlugins plugin_servers, plugin_host::start_installed_plugins(sources, disabled_plugins(project)));
  // Each module is lowered and goes through the shared passes on its own, on
  // one of -j threads, so modules overlap from lowering on (the checks before
  // are the one part in order).
  // The locations made portable and the module's key too: nothing after the
  // threads is per module.
  const int jobs = effective_jobs(options.jobs);
  std::map<std::string, std::string> project_options = project_key_options(project);
  // Locations as given name the files as this run spells them (its traceback
  // quotes its source from there, issue 34): that spelling is part of the key,
  // or a run from another folder reuses an artifact naming a path it cannot open.
  if (!options.portable_paths) project_options["paths-as-given"] = project.root;
  const std::map<std::string, PluginUse> plugins = plugin_uses(project);  // issue 36
  for (const auto& [name, use] : plugins)  // plugins: their dialects, open (plugin_dialects.cc)
    for (const std::string& d : use.dialects) c.plugin_dialects.emplace(d, name);
  c.registry = plugin_registry(c.plugin_dialects);
  const ir::DialectRegistry& registry = c.registry ? *c.registry : ir::DialectRegistry::builtin();
  std::vector<absl::Status> results(project.modules.size());
  std::vector<ModuleKey> keys(project.modules.size());
  auto passes = [&](size_t i, ir::Module& m) {
    ir::PassManager pm(ir::PassContext{&registry, c.opt_level});
    pipeline::PipelineOptions popts;
    popts.opt_level = c.opt_level;
    if (const SourceModule* src = project.module(m.name())) popts.plugins = plugin_servers.for_source(src->text);
    results[i] = check_plugin_dialects_registered(m, registry);  // plugins: a stub's @ppy.op
    if (results[i].ok()) results[i] = pipeline::build_shared_pipeline(pm, popts);
    if (results[i].ok()) results[i] = pm.run(m, ir::Stage::AfterIRGeneration, options.last_stage);
    if (results[i].ok()) {
      if (options.portable_paths) make_locations_portable(m, project.root);
      const SourceModule* src = project.module(m.name());
      ModuleKey& key = keys[i];
      key.source_digest = sha256_hex(src ? src->text : ir::print_module(m));
      key.compiler_version = compiler_version();
      key.compiler_fingerprint = compiler_fingerprint();
      key.dependency_abi = dependency_abi(m);
      key.opt_level = c.opt_level;
      key.project_options = project_options;
      if (src) key.plugin_fingerprints = plugin_fingerprints_of(plugins, *src);  // plugins (plugin_modules.cc)
    }
    if (options.on_module) options.on_module(m.name(), results.size());
  };
  auto modules = frontend::lower_project(
      project, diags, [jobs](size_t n, const std::function<void(size_t)>& fn) { parallel_for(n, jobs, fn); },
      passes);
  if (diags.has_errors() || modules.empty())
    return absl::InvalidArgumentError(str_cat(diags.error_count(), " error(s)"));
  for (const absl::Status& s : results) PPY_RETURN_IF_ERROR(s);

  c.portable_paths = options.portable_paths;
  for (size_t i = 0; i < modules.size(); ++i) c.keys[modules[i]->name()] = std::move(keys[i]);
  c.modules = std::move(modules);
  c.project = std::move(project);
  return c;
}

}  // namespace ppy::driver
