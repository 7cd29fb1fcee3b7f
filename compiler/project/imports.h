#pragma once
/// What the standard library's and the plugins' module finders share (stdlib.cc).
#include <set>
#include <string>

namespace ppy {

/// The top-level package of each module an `import a.b` / `from a.b import c`
/// line of `text` names (a scan of lines, enough to find what to add: the
/// frontend reports what is wrong with an import).
std::set<std::string> imported_roots(const std::string& text);

}  // namespace ppy
