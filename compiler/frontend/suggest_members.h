#pragma once
// "Did you mean" beyond plain names (issue 34): attributes and methods of a
// class, keyword arguments of a call, and modules of an import, each the
// nearest candidate by suggest.h's edit distance, as clang's typo correction
// and Python 3.10+'s AttributeError and ImportError suggest one.

#include <string>
#include <vector>

#include "types.h"

namespace ppy::frontend {

/// `; did you mean 'name'?` for `attr`, misspelt, of an instance of `c`: its
/// fields and methods (not dunder methods), or "".
[[nodiscard]] std::string member_suggestion(const ClassInfo& c, const std::string& attr);

/// The same for a keyword argument `keyword` of a call whose parameters are `params`.
[[nodiscard]] std::string keyword_suggestion(const std::string& keyword, const std::vector<std::string>& params);

/// The same for `import module`: the project's modules (`project`) and the
/// standard library's modules a program may mean.
[[nodiscard]] std::string module_suggestion(const std::string& module, const std::vector<std::string>& project);

}  // namespace ppy::frontend
