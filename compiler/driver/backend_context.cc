#include "ppy/driver/backend_context.h"
#include "ppy/project/plugins.h"

#include <filesystem>
#include <fstream>

#include "ppy/driver/portable_paths.h"
#include "ppy/ir/text.h"
#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {

BackendIdentity backend_identity(const host::BackendInfo& info, const BackendConfig& config) {
  BackendIdentity b;
  b.name = info.name;
  b.distribution = info.distribution;
  b.distribution_version = info.version;
  b.api_version = info.api_version;
  b.fingerprint = info.fingerprint;
  b.config_digest = config.digest;
  b.target = config.target;
  b.ir_schema_version = ir::kIRSchemaVersion;
  return b;
}

namespace {

std::string_view qualname_of(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? std::string_view(q->as_string()) : std::string_view();
}

/// The defined function whose qualname is `<module><suffix>`, with `module` one
/// of `modules` (any module when empty), the first in module order.
const ir::Function* entry_function(const Compilation& c, const std::string& module, std::string_view suffix) {
  for (auto& m : c.modules)
    for (auto& f : m->functions()) {
      std::string_view q = qualname_of(*f);
      if (f->is_declaration() || !q.ends_with(suffix) || q.size() == suffix.size()) continue;
      if (module.empty() || q.substr(0, q.size() - suffix.size()) == module) return f.get();
    }
  return nullptr;
}

/// Fills `entry_module` and `entry_symbol`: the entry's code (`__main__`), else
/// its `main()`, as every backend starts a program. Sources name the entry
/// module (the project's); a `.ppyir` (one module, or a linked program) is
/// searched for the one module with code of its own, else the one `main`.
void fill_entry(const Compilation& c, BackendContext& ctx) {
  std::string module = c.project ? c.project->entry : "";
  if (c.project && module.empty()) return;  // a library
  const ir::Function* f = nullptr;
  for (std::string_view suffix : {".__main__", ".main"})
    if (!f) f = entry_function(c, module, suffix);
  if (!f) return;
  std::string_view q = qualname_of(*f);
  ctx.entry_module = std::string(q.substr(0, q.rfind('.')));
  ctx.entry_symbol = f->name();
}

}  // namespace

std::string cache_root(const Compilation& c, const std::string& target_path) {
  fs::path root = c.project ? fs::path(c.project->root) : fs::path(target_path).parent_path();
  if (root.empty()) root = ".";
  return (root / ".ppy-cache").string();
}

BackendContext make_context(const Compilation& c, const host::BackendInfo& info, const BackendConfig& config,
                            const std::string& target_path) {
  BackendContext ctx;
  ctx.root = c.project ? fs::path(c.project->root) : fs::path(target_path).parent_path();
  if (c.project && !c.project->pyproject.empty()) {
    ctx.config = sha256_hex(read_file(c.project->pyproject).value_or(""));
  }
  ctx.backend_config = config.options;
  ctx.opt_level = c.opt_level;
  ctx.target = config.target;
  ctx.registry = c.registry ? c.registry.get() : &ir::DialectRegistry::builtin();  // plugins: their dialects
  if (c.project)  // plugins: each the project's modules import (plugin_modules.cc)
    for (const auto& [name, use] : plugin_uses(*c.project)) ctx.plugin_fingerprints[name] = use.fingerprint;
  // The entry module's file, for every build of a program (a library has none).
  if (c.project)
    if (const SourceModule* entry = c.project->module(c.project->entry))
      ctx.entry = c.portable_paths ? under_root(entry->path, c.project->root) : entry->path;
  if (c.from_ppyir) ctx.entry = target_path;
  fill_entry(c, ctx);
  BackendIdentity backend = backend_identity(info, config);
  for (auto& [name, key] : c.keys) ctx.identity[name] = artifact_identity(key, backend);
  return ctx;
}

std::string combined_key(const std::string& what, const std::map<std::string, std::string>& identities) {
  std::string text = what + "\n";
  for (auto& [name, id] : identities) str_append(text, name, " ", id, "\n");
  return sha256_hex(text);
}

}  // namespace ppy::driver
