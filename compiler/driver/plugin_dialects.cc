#include "plugin_dialects.h"

#include <algorithm>

#include "ppy/ir/open_dialect.h"
#include "ppy/project/plugins.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

std::shared_ptr<const ir::DialectRegistry> plugin_registry(const std::map<std::string, std::string>& dialects) {
  if (dialects.empty()) return nullptr;
  std::vector<std::string> names;
  for (const auto& [dialect, plugin] : dialects) names.push_back(dialect);
  return std::make_shared<const ir::DialectRegistry>(ir::with_open_dialects(ir::DialectRegistry::builtin(), names));
}

absl::Status check_plugin_dialects_registered(const ir::Module& m, const ir::DialectRegistry& reg) {
  for (const auto& [dialect, version] : m.dialects())
    if (!reg.dialect(dialect))
      return coded_error("E1901", str_cat("module '", m.name(), "' uses ops of the dialect '", dialect,
                                          "' (a plugin stub's @ppy.op), which no plugin it uses registers: the "
                                          "plugin's manifest declares it (dialects = [\"",
                                          dialect, "\"])"));
  return absl::OkStatus();
}

absl::Status refuse_plugin_dialects(const Compilation& c, std::string_view who,
                                    const std::vector<std::string>& declared) {
  if (c.plugin_dialects.empty()) return absl::OkStatus();
  auto refused = [&](std::string_view dialect) {
    return c.plugin_dialects.count(std::string(dialect)) &&
           std::find(declared.begin(), declared.end(), dialect) == declared.end();
  };
  // The op to name: the first in the user's own functions when there is one
  // (a stub's function, or a caller's private copy of it, only after).
  const ir::Operation* found = nullptr;
  const ir::Function* in = nullptr;
  int found_rank = 4;
  for (const auto& m : c.modules) {
    bool uses = false;
    for (const auto& [dialect, version] : m->dialects()) uses |= refused(dialect);
    if (!uses) continue;
    const SourceModule* src = c.project ? c.project->module(m->name()) : nullptr;
    int module_rank = src && is_plugin_stub(*src) ? 2 : 0;
    for (const auto& f : m->functions()) {
      int rank = module_rank + (f->visibility() == ir::Visibility::Private ? 1 : 0);
      if (rank >= found_rank) continue;
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (rank < found_rank && refused(op.dialect())) {
          found = &op;
          in = f.get();
          found_rank = rank;
        }
      });
    }
  }
  if (!found) return absl::OkStatus();
  std::string dialect(found->dialect());
  std::string at = found->loc() ? str_cat(" at ", found->loc()->str()) : std::string();
  return coded_error(
      "E1802",
      str_cat(who, " cannot take ", found->name(), " in ", in->name(), at, " (an op of the dialect '", dialect,
              "' of plugin '", c.plugin_dialects.at(dialect), "', which only a backend declaring the dialect takes)"));
}

}  // namespace ppy::driver
