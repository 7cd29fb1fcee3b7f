#pragma once
/// A plugin whose passes run in its own process, as the in-process plugin API
/// sees it: `register_passes` hangs one proxy per pass the plugin's handshake
/// declared, at the stage it declared. A proxy sends the module to the plugin
/// and takes back the rewritten one; the pass manager verifies after each
/// (a plugin's pass turns verify-each on), so a pass that broke the IR is
/// E1902 naming it. A crash, exit, hang or protocol breach during a pass is
/// the handle's E1905, naming the plugin and the pass.

#include <memory>
#include <string>
#include <string_view>

#include "ppy/host/plugin_handle.h"
#include "ppy/pipeline/plugin.h"

namespace ppy::plugin_host {

class RemotePlugin final : public pipeline::Plugin {
 public:
  /// `fingerprint`: the manifest's (discovery computes it without starting
  /// the plugin); empty: the handshake's own.
  explicit RemotePlugin(std::shared_ptr<host::PluginHandle> handle, std::string fingerprint = {})
      : handle_(std::move(handle)), fingerprint_(std::move(fingerprint)) {}

  std::string_view name() const override { return handle_->info().name; }
  std::string fingerprint() const override { return fingerprint_.empty() ? handle_->info().fingerprint : fingerprint_; }
  void register_passes(pipeline::PluginPassRegistrar& passes) override;

  host::PluginHandle& handle() { return *handle_; }

 private:
  std::shared_ptr<host::PluginHandle> handle_;
  std::string fingerprint_;
};

/// Moves everything `from` holds into `into` (name, dialects, attributes,
/// globals, functions): how a proxy hands the pass manager, which holds the
/// module by reference, what came back from the plugin.
void replace_module_contents(ir::Module& into, ir::Module& from);

}  // namespace ppy::plugin_host
