#include "ppy/pipeline/pipeline.h"

#include "ppy/pipeline/passes.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::pipeline {

std::vector<std::unique_ptr<ir::Pass>> shared_optimization_passes(int level) {
  std::vector<std::unique_ptr<ir::Pass>> passes;
  if (level <= 0) return passes;
  auto round = [&](bool cse) {
    passes.push_back(create_mem2reg_pass());
    passes.push_back(create_canonicalize_pass());
    passes.push_back(create_simplify_cfg_pass());
    if (cse) passes.push_back(create_cse_pass());
    passes.push_back(create_dce_pass());
    passes.push_back(create_canonicalize_pass());
  };
  round(false);
  if (level == 1) {
    passes.push_back(create_int_range_pass());
    return passes;
  }
  InlineOptions inline_options;
  if (level >= 3) inline_options.max_callee_ops = 120;
  passes.push_back(create_inline_pass(inline_options));
  round(true);
  if (level >= 3) {
    passes.push_back(create_inline_pass(inline_options));
    round(true);
  }
  // Last: its proofs read the loops and constants the rounds above left.
  passes.push_back(create_int_range_pass());
  return passes;
}

absl::Status optimize_shared_ir(ir::Module& m, int level) {
  ir::PassContext ctx;
  ctx.opt_level = level;
  ir::PassManager pm(ctx);
  PipelineOptions options;
  options.opt_level = level;
  PPY_RETURN_IF_ERROR(build_shared_pipeline(pm, options));
  return pm.run(m);
}

absl::Status build_shared_pipeline(ir::PassManager& pm, const PipelineOptions& options) {
  // Shared passes first: within a stage passes run in insertion order, so these
  // lead the stage that follows them in the contract.
  PPY_RETURN_IF_ERROR(pm.add(ir::Stage::AfterCanonicalization, create_canonicalize_pass()));
  for (auto& p : shared_optimization_passes(options.opt_level))
    PPY_RETURN_IF_ERROR(pm.add(ir::Stage::AfterOptimization, std::move(p)));
  for (Plugin* plugin : options.plugins) {
    PluginPassRegistrar registrar(pm, std::string(plugin->name()));
    plugin->register_passes(registrar);
    PPY_RETURN_IF_ERROR(registrar.status());
  }
  return absl::OkStatus();
}

std::vector<std::string> plugin_fingerprints(const std::vector<Plugin*>& plugins) {
  std::vector<std::string> out;
  for (const Plugin* p : plugins) out.push_back(ppy::str_cat(p->name(), "=", p->fingerprint()));
  return out;
}

}  // namespace ppy::pipeline
