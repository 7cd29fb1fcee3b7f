#include "ppy/host/discovery.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <system_error>
#include <toml++/toml.h>

#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::host {

std::string BackendEntry::origin() const {
  return str_cat(distribution, " ", version, " (", manifest.string(), ")");
}

std::vector<fs::path> backend_search_path(const EnvLookup& env, const fs::path& install_prefix) {
  std::vector<fs::path> out;
  if (auto p = env("PPY_BACKEND_PATH")) {
    std::string_view rest = *p;
    while (true) {
      size_t colon = rest.find(':');
      std::string_view part = rest.substr(0, colon);
      if (!part.empty()) out.emplace_back(part);
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (!install_prefix.empty()) out.push_back(install_prefix / "lib" / "ppy" / "backends");
  auto xdg = env("XDG_DATA_HOME");
  if (xdg && !xdg->empty() && fs::path(*xdg).is_absolute()) {
    out.push_back(fs::path(*xdg) / "ppy" / "backends");
  } else if (auto home = env("HOME"); home && !home->empty()) {
    out.push_back(fs::path(*home) / ".local" / "share" / "ppy" / "backends");
  }
  return out;
}

namespace {

bool valid_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) str_append(out, i ? sep : "", v[i]);
  return out;
}

std::string dist_list(const std::vector<BackendEntry>& entries) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(str_cat(e.distribution, " ", e.version));
  std::sort(names.begin(), names.end());
  return join(names, ", ");
}

/// A string value of `t[key]`, or an error naming the key.
absl::StatusOr<std::string> string_key(const toml::table& t, std::string_view key, std::string_view where,
                                       bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) return absl::InvalidArgumentError(str_cat(where, " has no '", key, "'"));
    return std::string();
  }
  auto v = n->value<std::string>();
  if (!n->is_string() || !v) return absl::InvalidArgumentError(str_cat(where, ": '", key, "' must be a string"));
  return *v;
}

fs::path resolve(const fs::path& base, const std::string& p) {
  if (p.empty()) return {};
  fs::path path(p);
  return path.is_absolute() ? path : (base / path).lexically_normal();
}

struct Distribution {
  std::string name, version;
  std::vector<BackendEntry> backends;
  std::vector<std::pair<std::string, std::string>> formats;  // format -> backend
  std::vector<PluginEntry> plugins;                          // plugin_manifest.cc
  std::vector<std::string> plugin_problems;                  // each rejects its plugin only
};

/// Parses one manifest; any problem rejects the whole distribution.
absl::StatusOr<Distribution> read_manifest(const fs::path& manifest) {
  toml::table root;
  try {
    root = toml::parse_file(manifest.string());
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return absl::InvalidArgumentError(str_cat("line ", static_cast<int64_t>(b.line), ":",
                                              static_cast<int64_t>(b.column), ": ",
                                              std::string_view(e.description())));
  }
  Distribution d;
  const toml::table* dist = root["distribution"].as_table();
  if (!dist) return absl::InvalidArgumentError("no [distribution] table");
  PPY_ASSIGN_OR_RETURN(d.name, string_key(*dist, "name", "[distribution]", true));
  PPY_ASSIGN_OR_RETURN(d.version, string_key(*dist, "version", "[distribution]", true));
  if (d.name.empty()) return absl::InvalidArgumentError("[distribution] has an empty name");

  const toml::node* bnode = root.get("backends");
  const toml::table* backends = bnode ? bnode->as_table() : nullptr;
  if (bnode && !backends) return absl::InvalidArgumentError("'backends' must be a table of tables");
  fs::path base = manifest.parent_path();
  if (backends) {
    for (const auto& [key, node] : *backends) {
      std::string bname(key.str());
      std::string where = str_cat("[backends.", bname, "]");
      const toml::table* t = node.as_table();
      if (!t) return absl::InvalidArgumentError(str_cat(where, " must be a table"));
      if (!valid_name(bname))
        return absl::InvalidArgumentError(str_cat("'", bname, "' is not a backend name (letters, digits, '-', '_', '.')"));
      BackendEntry e;
      e.name = bname;
      e.distribution = d.name;
      e.version = d.version;
      e.manifest = manifest;
      PPY_ASSIGN_OR_RETURN(std::string exe, string_key(*t, "executable", where, false));
      auto settings = HostSettings::from_toml(*t);
      if (!settings.ok()) return absl::InvalidArgumentError(str_cat(where, ": ", std::string(settings.status().message())));
      if (exe.empty() == !settings->endpoints)
        return absl::InvalidArgumentError(str_cat(where, " needs exactly one of 'executable' and 'endpoint' (or 'endpoints')"));
      e.executable = resolve(base, exe);
      if (!exe.empty()) {
        std::error_code ec;
        e.real_executable = fs::canonical(e.executable, ec);
        if (ec) e.real_executable.clear();
      }
      if (settings->endpoints) e.endpoints = *settings->endpoints;
      settings->tls.apply(e.tls, base);
      if (const toml::node* n = t->get("args")) {
        const toml::array* a = n->as_array();
        if (!a) return absl::InvalidArgumentError(str_cat(where, ": 'args' must be an array of strings"));
        for (const toml::node& x : *a) {
          if (!x.is_string()) return absl::InvalidArgumentError(str_cat(where, ": 'args' must be an array of strings"));
          e.args.push_back(*x.value<std::string>());
        }
      }
      if (const toml::node* n = t->get("dialects")) {  // plugins: the plugins' dialects it takes
        const toml::array* a = n->as_array();
        if (!a) return absl::InvalidArgumentError(str_cat(where, ": 'dialects' must be an array of strings"));
        for (const toml::node& x : *a) {
          if (!x.is_string()) return absl::InvalidArgumentError(str_cat(where, ": 'dialects' must be an array of strings"));
          e.dialects.push_back(*x.value<std::string>());
        }
      }
      if (const toml::node* n = t->get("connection")) {
        std::optional<std::string> c = n->value<std::string>();
        if (!n->is_string() || (*c != "fd" && *c != "socket"))
          return absl::InvalidArgumentError(str_cat(where, ": 'connection' must be \"fd\" or \"socket\""));
        if (exe.empty())
          return absl::InvalidArgumentError(str_cat(where, ": 'connection' says how a spawned helper is reached; "
                                                           "an endpoint takes none"));
        if (*c == "socket") e.connection = HelperConnection::UnixSocket;
      }
      e.settings = *settings;
      d.backends.push_back(std::move(e));
    }
  }
  if (const toml::node* fnode = root.get("backend-formats")) {
    const toml::table* f = fnode->as_table();
    if (!f) return absl::InvalidArgumentError("[backend-formats] must be a table of format = backend");
    for (const auto& [key, node] : *f) {
      auto v = node.value<std::string>();
      if (!node.is_string() || !v)
        return absl::InvalidArgumentError(str_cat("[backend-formats]: '", std::string_view(key.str()),
                                                  "' must name a backend"));
      d.formats.emplace_back(std::string(key.str()), *v);
    }
  }
  d.plugins = read_plugin_tables(root, manifest, d.name, d.version, d.plugin_problems);
  return d;
}

}  // namespace

bool is_builtin_backend_name(std::string_view name) {
  return std::find(std::begin(kBuiltinBackends), std::end(kBuiltinBackends), name) != std::end(kBuiltinBackends);
}

ManifestIndex ManifestIndex::scan(std::span<const fs::path> search_path) {
  ManifestIndex index;
  std::map<std::string, fs::path> dists;
  for (const fs::path& dir : search_path) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> manifests;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      fs::path m = it->path() / "manifest.toml";
      std::error_code ec2;
      if (fs::is_regular_file(m, ec2)) manifests.push_back(m);
    }
    std::sort(manifests.begin(), manifests.end());  // directory order is not stable
    for (const auto& m : manifests) index.add_manifest(m, dists);
  }
  index.finish();
  return index;
}

ManifestIndex ManifestIndex::from_manifests(std::span<const fs::path> manifests) {
  ManifestIndex index;
  std::map<std::string, fs::path> dists;
  for (const auto& m : manifests) index.add_manifest(m, dists);
  index.finish();
  return index;
}

void ManifestIndex::add_manifest(const fs::path& manifest, std::map<std::string, fs::path>& dists) {
  auto d = read_manifest(manifest);
  if (!d.ok()) {
    problems_.push_back(str_cat("the manifest ", manifest.string(), " is malformed: ", std::string(d.status().message())));
    return;
  }
  if (auto first = dists.find(d->name); first != dists.end()) {
    shadowed_.push_back(manifest);
    shadowed_notes_.push_back(str_cat("the manifest ", manifest.string(), " is not used: distribution '", d->name,
                                      "' is already installed by ", first->second.string(),
                                      ", found first on the search path"));
    return;
  }
  dists[d->name] = manifest;
  for (auto& p : d->plugin_problems) problems_.push_back(std::move(p));
  for (auto& p : d->plugins) plugin_candidates_.push_back(std::move(p));
  std::set<std::string> provided;
  for (auto& e : d->backends) {
    if (is_builtin_backend_name(e.name)) {
      problems_.push_back(str_cat("backend '", e.name, "' from ", e.origin(),
                                  " has a builtin backend's name, which is reserved; it is ignored"));
      continue;
    }
    provided.insert(e.name);
    candidates_.push_back(std::move(e));
  }
  for (auto& [format, backend] : d->formats) {
    if (!provided.count(backend)) {
      problems_.push_back(str_cat("the format '", format, "' is declared for backend '", backend, "', which ",
                                  d->name, " ", d->version, " does not provide; the hint is ignored"));
      continue;
    }
    format_claims_[format].emplace_back(str_cat(d->name, " ", d->version), backend);
  }
}

void ManifestIndex::finish() {
  finish_plugins();
  std::map<std::string, std::vector<BackendEntry>> by_name;
  for (auto& e : candidates_) by_name[e.name].push_back(std::move(e));
  candidates_.clear();
  for (auto& [name, entries] : by_name) {
    if (entries.size() > 1) {
      problems_.push_back(str_cat("backend '", name, "' is registered by more than one distribution (",
                                  dist_list(entries), "); uninstall all but one"));
      duplicates_[name] = std::move(entries);
    } else {
      backends_.push_back(std::move(entries.front()));
    }
  }
  for (auto& [format, claims] : format_claims_) {
    if (claims.size() > 1) {
      std::vector<std::string> dists;
      for (auto& c : claims) dists.push_back(c.first);
      std::sort(dists.begin(), dists.end());
      problems_.push_back(str_cat("the format '", format, "' is claimed by more than one distribution (",
                                  join(dists, ", "), "); neither owns it"));
      continue;
    }
    const std::string& backend = claims.front().second;
    for (auto& e : backends_)
      if (e.name == backend) {
        format_owner_[format] = backend;
        e.formats.push_back(format);
      }
  }
}

std::vector<std::string> ManifestIndex::all_names() const {
  std::vector<std::string> names(std::begin(kBuiltinBackends), std::end(kBuiltinBackends));
  for (const auto& e : backends_) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

absl::StatusOr<const BackendEntry*> ManifestIndex::lookup(std::string_view name) const {
  if (is_builtin_backend_name(name)) return nullptr;
  for (const auto& e : backends_)
    if (e.name == name) return &e;
  if (auto it = duplicates_.find(std::string(name)); it != duplicates_.end())
    return coded_error("E1903", str_cat("backend '", name, "' is registered by more than one distribution (",
                                        dist_list(it->second), "); uninstall all but one"));
  std::string msg = str_cat("no backend is called '", name, "'; the backends are ", join(all_names(), ", "));
  // The one asked for may be in a manifest that could not be read, or lost to a clash.
  if (!problems_.empty()) str_append(msg, "; discovery also reported: ", join(problems_, "; "));
  return coded_error("E1903", msg, absl::StatusCode::kNotFound);
}

const BackendEntry* ManifestIndex::format_hint(std::string_view format) const {
  auto it = format_owner_.find(std::string(format));
  if (it == format_owner_.end()) return nullptr;
  for (const auto& e : backends_)
    if (e.name == it->second) return &e;
  return nullptr;
}

}  // namespace ppy::host
