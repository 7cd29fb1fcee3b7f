#include "plugin_conformance.h"

#include <memory>
#include <ostream>
#include <vector>

#include "diagnostics.h"
#include "ppy/backend/plugin_conformance.h"
#include "ppy/host/plugin_handle.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

int plugin_conformance(const host::PluginEntry& entry, const Options& options, Streams io) {
  if (entry.executable.empty()) {
    report(io.err, coded_error("E1903", str_cat("plugin '", entry.name, "' (", entry.origin(),
                                                ") has no pass server (`executable`): its stub and lowerings are "
                                                "data, checked when a program imports its modules")));
    return 2;
  }
  // Every connection is a pass server of its own, kept until the checks end.
  std::vector<std::unique_ptr<host::PluginHandle>> handles;
  conformance::Connect connect = [&]() -> absl::StatusOr<std::shared_ptr<grpc::Channel>> {
    host::PluginLaunch launch = host::plugin_launch(entry);
    launch.options = options;
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<host::PluginHandle> handle, host::PluginHandle::connect(launch));
    handles.push_back(std::move(handle));
    return handles.back()->channel();
  };
  conformance::Settings settings;
  settings.name = entry.name;
  settings.options = options;
  settings.api_version = host::kPluginApiVersion;
  io.out << "conformance of plugin '" << entry.name << "' (" << entry.origin() << ")\n";
  std::vector<conformance::Check> checks = conformance::run_plugin_conformance(connect, settings);
  int failed = 0;
  for (const conformance::Check& c : checks) {
    io.out << c.line() << "\n";
    failed += c.failed();
  }
  io.out << (failed ? str_cat(failed, " of ", checks.size(), " checks failed")
                    : str_cat("all ", checks.size(), " checks passed"))
         << "\n";
  return failed ? 1 : 0;
}

}  // namespace ppy::driver
