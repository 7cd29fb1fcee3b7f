#pragma once
/// The in-process plugin API: a plugin models a library and may hang IR passes
/// on the shared pipeline's stages (after-ir-generation through before-backend).
/// It never reaches `backend`, which is the selected backend's alone; asking for
/// it is refused with an error naming the plugin. A plugin's pass that leaves
/// the IR invalid is named in an E1902 error (the pass manager verifies after
/// every pass once a plugin contributed one).

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "ppy/ir/pass.h"

namespace ppy::pipeline {

/// What a plugin is handed to register its passes; it cannot reach the
/// PassManager itself, so every pass it adds is owned `PassOwner::Plugin`.
class PluginPassRegistrar {
 public:
  PluginPassRegistrar(ir::PassManager& pm, std::string plugin_name)
      : pm_(pm), plugin_(std::move(plugin_name)) {}

  /// Hangs `pass` at `stage`. Refuses (E1902, naming the plugin and the pass,
  /// adding nothing) the `backend` stage. The first refusal is also kept in
  /// status(), so a plugin that ignores the result is still refused.
  absl::Status add(ir::Stage stage, std::unique_ptr<ir::Pass> pass);

  const absl::Status& status() const { return status_; }
  const std::string& plugin_name() const { return plugin_; }

 private:
  ir::PassManager& pm_;
  std::string plugin_;
  absl::Status status_;
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  /// The plugin's name, used in errors and listings.
  virtual std::string_view name() const = 0;
  /// What identifies its behaviour for the cache key (its version, its
  /// library's); part of every module's key.
  virtual std::string fingerprint() const = 0;
  /// Adds the plugin's passes; the default adds none.
  virtual void register_passes(PluginPassRegistrar& passes) {}
};

}  // namespace ppy::pipeline
