// "Did you mean" for attributes, methods, keyword arguments and modules
// (suggest_members.h).
#include "suggest_members.h"

#include "suggest.h"

namespace ppy::frontend {

std::string member_suggestion(const ClassInfo& c, const std::string& attr) {
  std::vector<std::string> members;
  for (const auto& [field, _] : c.fields) members.push_back(field);
  for (const auto& [method, _] : c.methods)
    if (!(method.size() > 4 && method.starts_with("__") && method.ends_with("__"))) members.push_back(method);
  return did_you_mean(attr, members);
}

std::string keyword_suggestion(const std::string& keyword, const std::vector<std::string>& params) {
  return did_you_mean(keyword, params);
}

std::string module_suggestion(const std::string& module, const std::vector<std::string>& project) {
  // The standard library's modules a ppy program imports (docs/stdlib.md),
  // and the common ones it may mean.
  static const std::vector<std::string> kStandard = {
      "math",  "string",   "typing", "dataclasses", "collections", "sys",     "os",  "random",
      "time",  "heapq",    "bisect", "itertools",   "functools",   "enum",    "re",  "json",
      "array", "operator", "copy",   "statistics",  "fractions",   "decimal", "abc", "io",
  };
  std::vector<std::string> candidates = project;
  candidates.insert(candidates.end(), kStandard.begin(), kStandard.end());
  return did_you_mean(module, candidates);
}

}  // namespace ppy::frontend
