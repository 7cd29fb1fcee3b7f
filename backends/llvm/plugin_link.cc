// plugins: the link inputs of a plugin's native libraries (plugin_link.h).
#include "plugin_link.h"

#include <filesystem>
#include <set>

#include "flags.h"
#include "ppy/ir/core_ops.h"

namespace ppy::llvm_backend {

PluginLink plugin_link(ModuleList modules, const BackendContext& context) {
  std::set<std::string> named;
  for (const ir::Module* m : modules)
    for (auto& f : m->functions())
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (ir::core_op(op) != ir::CoreOp::CallExtern) return;
        if (const std::string* library = ir::attr_if<std::string>(op, "library")) named.insert(*library);
      });
  PluginLink link;
  std::set<std::string> rpaths;
  for (const std::string& name : named) {
    link.names.push_back(name);
    std::string file = flag_value(context, "library." + name);
    if (file.empty()) {
      link.args.push_back("-l" + name);
      continue;
    }
    link.args.push_back(file);
    std::string dir = std::filesystem::path(file).parent_path().string();
    if (rpaths.insert(dir).second) link.args.push_back("-Wl,-rpath," + dir);
  }
  return link;
}

}  // namespace ppy::llvm_backend
