#pragma once
/// The plugin contract in C++, for the passes a plugin runs out of process.
///
/// A plugin models a vendor's library: its typed stub and its lowerings are
/// data the driver reads (the distribution's manifest and `.pyi`); what needs
/// code, its IR passes, runs in the plugin's own executable, served by
/// `ppy::serve` as a backend is. A vendor derives from `ppy::Plugin`, declares
/// its API version as a literal of its own and hangs its passes at the stages
/// it names:
///
///     class VecmathPlugin : public ppy::Plugin {
///      public:
///       using Plugin::Plugin;
///       std::string_view name() const override { return "vecmath"; }
///       std::optional<int> api_version() const override { return 1; }  // a literal
///       ppy::Distribution distribution() const override { return {"ppy-vecmath", "1.0"}; }
///       void register_passes(ppy::PluginPassRegistrar& passes) const override {
///         passes.add<FuseAxpyNorm>(ppy::ir::Stage::AfterOptimization);
///       }
///     };
///
/// Stages run from `after-ir-generation` to `before-backend`; `backend` is the
/// selected backend's alone, and the driver refuses a plugin that asks for it
/// (E1902, naming the plugin and the pass). The driver verifies the IR after
/// each of a plugin's passes and names the one that broke it (E1902).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/ir/pass.h"

namespace ppy {

/// Where a plugin hangs its passes, each at the stage it names.
class PluginPassRegistrar {
 public:
  using Factory = std::function<std::unique_ptr<ir::Pass>()>;
  struct Entry {
    ir::Stage stage;
    Factory factory;
  };

  /// Hangs a pass made by `factory` at `stage`; within a stage, passes run in
  /// the order they are added. A factory is called once per module run.
  void add(ir::Stage stage, Factory factory);
  template <class P>
  void add(ir::Stage stage) {
    add(stage, [] { return std::unique_ptr<ir::Pass>(std::make_unique<P>()); });
  }

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

class Plugin {
 public:
  explicit Plugin(Options options = {}) : options_(std::move(options)) {}
  virtual ~Plugin() = default;
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  /// The plugin's name: its `[plugins.<name>]` in the manifest.
  virtual std::string_view name() const = 0;
  /// The plugin API version it implements, as a literal of its own; the base
  /// class declares none, which the driver refuses (E1903).
  virtual std::optional<int> api_version() const { return std::nullopt; }
  /// The distribution it ships in (the manifest is the authority).
  virtual Distribution distribution() const { return {}; }
  /// What the distribution's version does not cover (informative: the
  /// driver keys the cache on the manifest's fingerprint).
  virtual std::string fingerprint() const { return {}; }
  /// Hangs its passes.
  virtual void register_passes(PluginPassRegistrar& passes) const {}

  const Options& options() const { return options_; }

 private:
  Options options_;
};

/// Makes a plugin from its options; what `ppy::serve` is given for a plugin.
using PluginFactory = std::function<std::unique_ptr<Plugin>(const Options&)>;

/// The passes `plugin` registers, instantiated once each to read their names,
/// with the stage each asks for.
std::vector<PassInfo> describe_passes(const Plugin& plugin);

/// The `[distribution]` and `[plugins.<name>]` tables describing `plugin` with
/// its `executable` (a file name beside the manifest): what `ppy_add_plugin`
/// writes, printed by `--print-manifest`. The vendor adds `modules`, `stub` and
/// `libraries` (ppy_add_plugin's arguments). InvalidArgument without a
/// distribution, a version, or a name the driver accepts.
absl::StatusOr<std::string> manifest_toml(const Plugin& plugin, std::string_view executable);

}  // namespace ppy
