#include "ppy/plugin_host/remote_plugin.h"

#include <utility>

#include "ppy/ir/pass.h"

namespace ppy::plugin_host {

namespace {

/// One of a plugin's passes, run in the plugin's process.
class ProxyPass final : public ir::ModulePass {
 public:
  ProxyPass(std::shared_ptr<host::PluginHandle> handle, PassInfo pass)
      : handle_(std::move(handle)), pass_(std::move(pass)) {}

  std::string_view name() const override { return pass_.name; }

  absl::StatusOr<bool> run_on_module(ir::Module& m, const ir::PassContext& ctx) override {
    absl::StatusOr<std::unique_ptr<ir::Module>> back = handle_->run_pass(pass_, m, ctx.opt_level);
    if (!back.ok()) return back.status();
    if (!*back) return false;
    replace_module_contents(m, **back);
    return true;
  }

 private:
  std::shared_ptr<host::PluginHandle> handle_;
  PassInfo pass_;
};

}  // namespace

void replace_module_contents(ir::Module& into, ir::Module& from) {
  into.set_name(from.name());
  std::swap(into.dialects(), from.dialects());
  std::swap(into.attributes(), from.attributes());
  std::swap(into.globals(), from.globals());
  std::swap(into.functions(), from.functions());
}

void RemotePlugin::register_passes(pipeline::PluginPassRegistrar& passes) {
  for (const PassInfo& p : handle_->info().passes) {
    std::optional<ir::Stage> stage = ir::parse_stage(p.stage);
    // The handle refused unknown stages at the handshake; `backend` is
    // refused again here by the registrar, naming the plugin and the pass.
    if (!stage) continue;
    (void)passes.add(*stage, std::make_unique<ProxyPass>(handle_, p));
  }
}

}  // namespace ppy::plugin_host
