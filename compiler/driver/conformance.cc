// `ppy conformance NAME`: the SDK's conformance checks (ppy/backend/conformance.h)
// against an installed backend, each connection a helper spawned (or an endpoint
// reached) exactly as a build would.
#include <algorithm>
#include <memory>
#include <ostream>
#include <vector>

#include "diagnostics.h"
#include "plugin_conformance.h"
#include "ppy/backend/api_version.h"
#include "ppy/backend/conformance.h"
#include "ppy/driver/commands.h"
#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

/// `KEY=VALUE` pairs as a table of strings.
absl::StatusOr<Options> parse_table(const std::vector<std::string>& pairs, std::string_view flag) {
  Options out;
  for (const std::string& pair : pairs) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return coded_error("E1002", str_cat(flag, " takes KEY=VALUE, not '", pair, "'"),
                         absl::StatusCode::kInvalidArgument);
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

}  // namespace

int conformance(const ConformanceOptions& opts, Streams io) {
  absl::StatusOr<Options> options = parse_table(opts.options, "--option");
  absl::StatusOr<Options> missing = parse_table(opts.missing_toolchain, "--missing-toolchain");
  if (!options.ok() || !missing.ok()) {
    report(io.err, !options.ok() ? options.status() : missing.status());
    return 2;
  }
  host::ManifestIndex index = [&] {
    if (opts.manifest) {
      std::filesystem::path m(*opts.manifest);
      return host::ManifestIndex::from_manifests(std::span(&m, 1));
    }
    return host::ManifestIndex::scan(host::backend_search_path(host::process_env(), host::running_install_prefix()));
  }();
  std::string name = opts.name;
  if (name.empty() && opts.manifest && index.backends().size() == 1) name = index.backends()[0].name;
  // plugins: a plugin's pass server is checked by the plugin checks.
  if (name.empty() && opts.manifest && index.backends().empty() && index.plugins().size() == 1)
    name = index.plugins()[0].name;
  const bool is_backend = std::any_of(index.backends().begin(), index.backends().end(),
                                      [&](const host::BackendEntry& b) { return b.name == name; });
  // A device library and its backend may share a name: both are checked.
  int plugin_rc = 0;
  if (const host::PluginEntry* plugin = name.empty() ? nullptr : index.plugin(name);
      plugin && (!is_backend || !plugin->executable.empty())) {
    plugin_rc = plugin_conformance(*plugin, *options, io);
    if (!is_backend) return plugin_rc;
  }
  if (name.empty()) {
    std::string why = opts.manifest ? str_cat(*opts.manifest, " provides ", index.backends().size(), " usable backends")
                                    : std::string("no backend named");
    for (const std::string& p : index.problems()) str_append(why, "; ", p);
    report(io.err, coded_error("E1903", str_cat("name the backend to check: ", why)));
    return 2;
  }
  absl::StatusOr<const host::BackendEntry*> entry = index.lookup(name);
  if (entry.ok() && !*entry)
    entry = coded_error("E1903", str_cat("'", name, "' is a builtin: its own tests run these checks in-process; "
                                         "`ppy conformance` checks installed backends"));
  if (!entry.ok()) {
    report(io.err, entry.status());
    return 2;
  }

  // Every connection is a helper of its own (or a new channel to the endpoint),
  // kept until the checks end.
  std::vector<std::unique_ptr<host::BackendHandle>> handles;
  conformance::Connect connect = [&]() -> absl::StatusOr<std::shared_ptr<grpc::Channel>> {
    host::ConnectOptions co;
    co.options = *options;
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<host::BackendHandle> handle, host::connect_backend(**entry, co));
    handles.push_back(std::move(handle));
    return handles.back()->channel();
  };
  conformance::Settings settings;
  settings.name = name;
  settings.options = *options;
  if (!opts.missing_toolchain.empty()) settings.missing_toolchain = *missing;
  settings.api_version = kBackendApiVersion;

  io.out << "conformance of backend '" << name << "' (" << (*entry)->origin() << ")\n";
  std::vector<conformance::Check> checks = conformance::run_conformance(connect, settings);
  int failed = 0;
  for (const conformance::Check& c : checks) {
    io.out << c.line() << "\n";
    failed += c.failed();
  }
  io.out << (failed ? str_cat(failed, " of ", checks.size(), " checks failed") : str_cat("all ", checks.size(), " checks passed"))
         << "\n";
  return failed || plugin_rc != 0 ? 1 : 0;
}

}  // namespace ppy::driver
