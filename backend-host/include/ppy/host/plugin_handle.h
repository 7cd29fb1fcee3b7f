#pragma once
/// The driver's handle on a plugin whose passes run out of process: the
/// plugin's executable is spawned like a backend helper (same process and
/// sandbox machinery, BackendProcess), speaks the `ppy.backend.v1.Plugin`
/// service (proto/ppy/backend/v1/plugin.proto), and is contained the same way:
///   E1903  it declares no plugin API version, or another one; it answers the
///          handshake under another name;
///   E1902  it asks for the `backend` stage (or a stage that does not exist),
///          naming the plugin and the pass; a pass that reports an error;
///   E1905  it crashed, exited, missed a call's deadline or broke the protocol
///          during a call (`handshake`, `pass 'NAME' (STAGE)`): the plugin, the
///          call, the cause and its output tail. The driver survives each one,
///          and the handle refuses further calls once its plugin is gone.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/host/discovery.h"
#include "ppy/host/process.h"
#include "ppy/host/settings.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/pass.h"

namespace grpc {
class Channel;
}

namespace ppy::host {

/// The plugin API version this driver speaks.
inline constexpr int kPluginApiVersion = 1;

/// What starting a plugin needs: discovery's entry, or a test's explicit path.
struct PluginLaunch {
  std::string name;
  std::string distribution, version;  ///< the manifest's (empty without one)
  std::filesystem::path manifest;     ///< for messages; empty without one
  std::filesystem::path executable;
  std::filesystem::path real_executable;  ///< as discovery resolved it; empty: at spawn
  std::vector<std::string> args;          ///< after the connection's own
  HostSettings settings;                  ///< sandbox, limits, deadlines
  Options options;                        ///< the plugin's table, handed to its factory
  std::filesystem::path temp_root;        ///< for its private folder
  std::vector<std::string> extra_env;     ///< `NAME=value` (tests)

  /// `<dist> <ver> (<manifest>)`, or the executable when there is no manifest.
  std::string origin() const;
};

/// How to start the pass server of a discovered plugin (its `executable`,
/// which must be set: a plugin without passes has nothing to start).
PluginLaunch plugin_launch(const PluginEntry& entry, HostSettings settings = {});

/// Who a plugin is, as its handshake says (checked before a handle exists).
struct PluginInfo {
  std::string name;
  std::optional<int> api_version;
  std::string distribution, version, origin;
  std::vector<PassInfo> passes;  ///< each at a stage from after-ir-generation to before-backend
  std::string fingerprint;       ///< the plugin's own word (informative)
  std::string sdk;
};

class PluginHandle {
 public:
  /// Spawns the plugin and shakes hands; see the header comment for errors.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<PluginHandle>> connect(const PluginLaunch& launch);

  virtual ~PluginHandle() = default;
  virtual const PluginInfo& info() const = 0;
  /// Runs the plugin's pass `pass` (declared at `stage`) over `module`: the
  /// rewritten module when the pass changed it, null when it did not. The
  /// caller verifies what comes back.
  [[nodiscard]] virtual absl::StatusOr<std::unique_ptr<ir::Module>> run_pass(const PassInfo& pass,
                                                                             const ir::Module& module,
                                                                             int opt_level) = 0;
  /// The plugin's process (tests: whether it is still there).
  virtual BackendProcess* process() = 0;
  /// The channel its calls go over, for tools that speak the protocol
  /// themselves (`ppy conformance`).
  virtual std::shared_ptr<grpc::Channel> channel() const = 0;
};

/// E1902 when a declared pass may not run where it asks (the `backend` stage,
/// or a stage that does not exist), naming the plugin and the pass; OK otherwise.
absl::Status check_plugin_passes(const PluginInfo& info);

}  // namespace ppy::host
