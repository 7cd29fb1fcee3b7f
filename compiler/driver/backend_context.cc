#include "ppy/driver/backend_context.h"

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
  ctx.registry = &ir::DialectRegistry::builtin();
  // The entry module's file, for every build of a program (a library has none).
  if (c.project)
    if (const SourceModule* entry = c.project->module(c.project->entry))
      ctx.entry = c.portable_paths ? under_root(entry->path, c.project->root) : entry->path;
  if (c.from_ppyir) ctx.entry = target_path;
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
