#pragma once
// "Did you mean": the likely intended spelling of a misspelt name, as clang's
// typo correction and Python 3.10+'s NameError suggest one.

#include <string>
#include <string_view>
#include <vector>

namespace ppy::frontend {

/// The candidate nearest to `name` by edit distance (insertions, deletions,
/// substitutions, and swaps of neighbours), when it is near enough to be a
/// slip of the keyboard: at most (both lengths + 3) / 6 edits, CPython's bound
/// for its NameError suggestions. Ties go to the first candidate; `name`
/// itself is never suggested. Empty when nothing is that near.
[[nodiscard]] std::string closest_spelling(std::string_view name, const std::vector<std::string>& candidates);

/// `; did you mean 'x'?` for closest_spelling's answer, or "" (to append to a
/// message).
[[nodiscard]] std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

/// Python's builtin names a program may mean (functions, constants and the
/// common exception classes), as candidates for a misspelt name.
[[nodiscard]] const std::vector<std::string>& python_builtin_names();

}  // namespace ppy::frontend
