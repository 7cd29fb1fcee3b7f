// Suggestions for names the checker cannot resolve.
#include "body_checker.h"
#include "checker_internal.h"
#include "suggest.h"

namespace ppy::frontend::checking {

std::string BodyChecker::name_suggestion(const std::string& name) const {
  std::vector<std::string> seen;
  for (const auto& [local, _] : types_) seen.push_back(local);
  for (const auto& [func, _] : m_.func_index) seen.push_back(func);
  for (const auto& [constant, _] : m_.consts) seen.push_back(constant);
  for (const auto& [bound, _] : m_.bindings) seen.push_back(bound);
  for (const std::string& var : m_.module_vars) seen.push_back(var);
  for (const std::string& builtin : python_builtin_names()) seen.push_back(builtin);
  return did_you_mean(name, seen);
}

}  // namespace ppy::frontend::checking
