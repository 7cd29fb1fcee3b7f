#include "ppy/driver/backend_catalog.h"

#include <algorithm>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "ppy/backends/c_backend.h"
#include "ppy/backends/ir_backend.h"
#include "ppy/backends/python_backend.h"
#include "ppy/backends/stablehlo_backend.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

/// The builtins this driver carries: name -> factory, null for those of the
/// LLVM roads when this driver does not link them (ppy/driver/llvm_roads.h: a
/// command that needs one is handed to `ppy-llvm`). Each name is one of the
/// contract's (host::kBuiltinBackends, the one list; a test holds them to it).
const std::map<std::string, BackendFactory>& builtins() {
  static const auto* b = [] {
    auto* m = new std::map<std::string, BackendFactory>{{"c", backends::create_c_backend},
                                                         {"ir", backends::create_ir_backend},
                                                         {"python", backends::create_python_backend},
                                                         {"stablehlo", backends::create_stablehlo_backend}};
    for (const std::string& name : llvm_road_builtins()) (*m)[name] = nullptr;
    if (const LlvmRoads* roads = llvm_roads())
      for (auto& [name, factory] : roads->builtins) (*m)[name] = factory;
    return m;
  }();
  return *b;
}

/// Whether `name` is a builtin of the LLVM roads and this driver lacks them.
bool elsewhere(const std::string& name) {
  auto b = builtins().find(name);
  return b != builtins().end() && !b->second;
}

ConfigValue from_toml(const toml::node& n) {
  if (auto* s = n.as_string()) return ConfigValue(s->get());
  if (auto* i = n.as_integer()) return ConfigValue(i->get());
  if (auto* f = n.as_floating_point()) return ConfigValue(f->get());
  if (auto* b = n.as_boolean()) return ConfigValue(b->get());
  if (auto* a = n.as_array()) {
    ConfigValue::List list;
    for (auto& x : *a) list.push_back(from_toml(x));
    return ConfigValue(std::move(list));
  }
  if (auto* t = n.as_table()) {
    ConfigValue::Table table;
    for (auto& [k, v] : *t) table.emplace(std::string(k.str()), from_toml(v));
    return ConfigValue(std::move(table));
  }
  // Dates and times: kept as their TOML text.
  std::ostringstream text;
  n.visit([&](auto&& v) {
    if constexpr (toml::is_date<decltype(v)> || toml::is_time<decltype(v)> || toml::is_date_time<decltype(v)>)
      text << v;
  });
  return ConfigValue(text.str());
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names) str_append(out, out.empty() ? "" : ", ", n);
  return out;
}

}  // namespace

absl::StatusOr<BackendConfig> backend_config(const Project* project, const std::string& name) {
  BackendConfig config;
  config.digest = sha256_hex("");
  if (!project) return config;
  auto it = project->backends.find(name);
  if (it == project->backends.end()) return config;
  config.digest = it->second.digest;
  toml::table table;
  try {
    table = toml::parse(it->second.toml_text);
  } catch (const toml::parse_error& e) {
    return coded_error("E1903", str_cat("[tool.ppy.backends.", name, "] cannot be read: ", std::string(e.description())));
  }
  auto settings = host::HostSettings::from_toml(table);
  if (!settings.ok())
    return coded_error("E1903", str_cat("[tool.ppy.backends.", name, "]: ", std::string(settings.status().message())));
  config.settings = *settings;
  // Where it runs (a farm's endpoints, their TLS files) is the host's: the
  // backend never sees it, and the same bytes are built wherever it runs.
  std::vector<std::string> reach;
  for (auto& [k, v] : table)
    if (host::is_reach_key(k.str())) reach.emplace_back(k.str());
  for (auto& k : reach) table.erase(k);
  if (!reach.empty()) {
    std::ostringstream text;
    text << toml::toml_formatter(table);
    config.digest = sha256_hex(text.str());
    host::TlsFiles resolved;  // TLS file paths are the project's
    host::TlsOverride& tls = config.settings.tls;
    tls.apply(resolved, project->root);
    for (auto [given, path] : {std::pair{&tls.ca, &resolved.ca}, {&tls.cert, &resolved.cert}, {&tls.key, &resolved.key}})
      if (*given) *given = *path;
  }
  for (auto& [k, v] : table) config.options.emplace(std::string(k.str()), from_toml(v));
  config.target = option(config.options, "target");
  return config;
}

BackendCatalog BackendCatalog::discover() {
  auto path = host::backend_search_path(host::process_env(), host::running_install_prefix());
  return BackendCatalog(host::ManifestIndex::scan(path));
}

std::vector<std::string> linked_builtins() {
  std::vector<std::string> names;
  for (auto& [n, _] : builtins()) names.push_back(n);
  return names;
}

BackendCatalog::BackendCatalog(host::ManifestIndex index) : index_(std::move(index)) {}

std::vector<std::string> BackendCatalog::names() const {
  std::set<std::string> names;
  for (auto& [n, _] : builtins()) names.insert(n);
  for (auto& e : index_.backends()) names.insert(e.name);  // never a builtin's name: discovery left those out
  return {names.begin(), names.end()};
}

bool BackendCatalog::is_builtin(const std::string& name) const { return builtins().count(name) != 0; }

absl::StatusOr<host::HostSettings> command_line_settings(const HostFlags& flags) {
  host::HostSettings out;
  if (flags.sandbox) {
    auto mode = host::parse_sandbox_mode(*flags.sandbox);
    if (!mode.ok()) return coded_error("E1002", error_text(mode.status()));
    out.sandbox = *mode;
  }
  if (flags.backend_timeout_ms) out.timeout = std::chrono::milliseconds(*flags.backend_timeout_ms);
  return out;
}

std::string sandbox_warning(const host::BackendHandle& backend) {
  host::SandboxReport r = backend.sandbox();
  if (r.missing.empty()) return {};
  std::string out = str_cat("warning: backend '", backend.info().name, "' runs in the ",
                            host::sandbox_mode_name(r.mode), " sandbox without what this kernel cannot give:");
  for (const std::string& m : r.missing) str_append(out, "\n  - ", m);
  return out + "\n";
}

absl::StatusOr<host::BackendHandle*> BackendCatalog::load(const std::string& name, const Project* project,
                                                          const host::HostSettings& command_line) {
  if (auto it = loaded_.find(name); it != loaded_.end()) return it->second.get();
  PPY_ASSIGN_OR_RETURN(BackendConfig config, backend_config(project, name));
  absl::StatusOr<std::unique_ptr<host::BackendHandle>> handle;
  std::string hosting = option(config.options, "hosting", "in-process");
  auto b = builtins().find(name);
  if (b != builtins().end() && hosting != "in-process" && hosting != "helper")
    return coded_error("E1903", str_cat("[tool.ppy.backends.", name, "] hosting = \"", hosting,
                                        "\": a builtin is hosted \"in-process\" (the default) or as a \"helper\""));
  if (b != builtins().end() && hosting == "in-process") {
    if (elsewhere(name)) PPY_RETURN_IF_ERROR(need_llvm_roads());  // returns only when it cannot hand over
    handle = host::in_process_backend(std::shared_ptr<const Backend>(b->second(config.options)));
  } else if (b != builtins().end()) {
    // The same backend served by its helper executable (or a farm's endpoint),
    // beside the driver as installed: <prefix>/lib/ppy/backends/NAME/ppy-backend-NAME.
    host::BackendEntry entry;
    entry.name = name;
    entry.distribution = "ppy (builtin)";
    entry.version = compiler_version();
    if (config.settings.endpoints) entry.endpoints = *config.settings.endpoints;
    config.settings.tls.apply(entry.tls, {});
    if (entry.endpoints.empty())
      entry.executable = host::running_install_prefix() / "lib" / "ppy" / "backends" / name / ("ppy-backend-" + name);
    entry.manifest = entry.executable.parent_path() / "manifest.toml";
    host::ConnectOptions connect;
    host::HostSettings settings = config.settings;
    settings.merge_from(command_line);
    connect.settings = settings;
    connect.options = config.options;
    handle = host::connect_backend(entry, connect);
  } else {
    PPY_ASSIGN_OR_RETURN(const host::BackendEntry* entry, index_.lookup(name));
    if (entry == nullptr)  // a builtin's name, reserved, and this driver does not link it
      return coded_error("E1903", str_cat("'", name, "' is the name of a builtin backend this ppy is built without "
                                          "(a distribution cannot provide it); the backends are ",
                                          joined(names())));
    host::ConnectOptions connect;
    host::HostSettings settings = entry->settings;
    settings.merge_from(config.settings);
    host::BackendEntry reach = *entry;  // the project's table may point it at a farm
    if (config.settings.endpoints) {
      reach.endpoints = *config.settings.endpoints;
      reach.executable.clear();
    }
    config.settings.tls.apply(reach.tls, {});
    settings.merge_from(command_line);
    connect.settings = settings;
    connect.options = config.options;
    handle = host::connect_backend(reach, connect);
  }
  PPY_ASSIGN_OR_RETURN(std::unique_ptr<host::BackendHandle> loaded, std::move(handle));
  host::BackendHandle* raw = loaded.get();
  loaded_[name] = std::move(loaded);
  return raw;
}

absl::StatusOr<host::BackendHandle*> BackendCatalog::format_owner(const std::string& format,
                                                                  const Project* project,
                                                                  const host::HostSettings& command_line) {
  for (auto& [name, _] : builtins()) {
    if (elsewhere(name)) {
      // Theirs, by the list every driver knows, is asked of them in `ppy-llvm`.
      auto& theirs = llvm_road_formats();
      if (std::find(theirs.begin(), theirs.end(), format) != theirs.end()) PPY_RETURN_IF_ERROR(need_llvm_roads());
      continue;
    }
    auto h = load(name, project, command_line);
    if (h.ok() && (*h)->info().format(format)) return *h;
  }
  if (const host::BackendEntry* hinted = index_.format_hint(format)) {
    PPY_ASSIGN_OR_RETURN(auto h, load(hinted->name, project, command_line));
    if (!h->info().format(format))
      return coded_error("E1903", str_cat("the format '", format, "' is declared for backend '", hinted->name,
                                          "' by the [backend-formats] hint of ", hinted->origin(),
                                          ", but the backend does not emit it: the manifest's "
                                          "`ppy.backend-formats` hint and the backend disagree"));
    return h;
  }
  // Not declared: ask every installed backend (this starts each one).
  std::vector<std::string> owners, formats, unusable;
  host::BackendHandle* owner = nullptr;
  for (auto& name : names()) {
    if (elsewhere(name)) {  // not this format's owner (see above): their formats by the list
      if (name == llvm_road_builtins().front())
        formats.insert(formats.end(), llvm_road_formats().begin(), llvm_road_formats().end());
      continue;
    }
    if (is_builtin(name)) {
      if (auto h = load(name, project, command_line); h.ok())
        for (auto& f : (*h)->info().formats) formats.push_back(f.name);
      continue;
    }
    auto h = load(name, project, command_line);
    if (!h.ok()) {
      unusable.push_back(str_cat(name, " (", error_text(h.status()), ")"));
      continue;
    }
    for (auto& f : (*h)->info().formats) formats.push_back(f.name);
    if ((*h)->info().format(format)) {
      owners.push_back(str_cat("'", name, "'"));
      owner = *h;
    }
  }
  if (owners.size() > 1)
    return coded_error("E1903", str_cat("the format '", format, "' is registered by backends ", joined(owners)));
  if (owner) return owner;
  std::sort(formats.begin(), formats.end());
  formats.erase(std::unique(formats.begin(), formats.end()), formats.end());
  std::string msg = str_cat("no backend emits '", format, "'; the formats are ", joined(formats));
  if (!unusable.empty()) str_append(msg, "; also: unusable backends ", joined(unusable));
  return coded_error("E1903", msg);
}

}  // namespace ppy::driver
