#include "ppy/pipeline/plugin.h"

#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::pipeline {

absl::Status PluginPassRegistrar::add(ir::Stage stage, std::unique_ptr<ir::Pass> pass) {
  absl::Status s;
  if (!pass) {
    s = ppy::coded_error("E1902", ppy::str_cat("plugin '", plugin_, "' registered no pass (a null pass)"));
  } else if (stage == ir::Stage::Backend) {
    s = ppy::coded_error(
        "E1902", ppy::str_cat("plugin '", plugin_, "' registers pass '", pass->name(),
                              "' at the 'backend' stage, which belongs to the selected backend; a "
                              "plugin's passes run from 'after-ir-generation' to 'before-backend'"));
  } else {
    s = pm_.add(stage, std::move(pass), ir::PassOwner::Plugin, plugin_);
  }
  if (!s.ok() && status_.ok()) status_ = s;
  return s;
}

}  // namespace ppy::pipeline
