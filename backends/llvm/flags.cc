// The LLVM road's flags, read from the backend's table in the context.
#include "flags.h"

namespace ppy::llvm_backend {
namespace {

const ConfigValue* find(const BackendContext& context, std::string_view name) {
  auto flags = context.backend_config.find("flags");
  if (flags == context.backend_config.end() || !flags->second.is<ConfigValue::Table>()) return nullptr;
  const ConfigValue::Table& table = flags->second.as<ConfigValue::Table>();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace

bool has_flag(const BackendContext& context, std::string_view name) { return find(context, name) != nullptr; }

std::string flag_value(const BackendContext& context, std::string_view name, std::string_view fallback) {
  const ConfigValue* v = find(context, name);
  return v ? v->str() : std::string(fallback);
}

}  // namespace ppy::llvm_backend
