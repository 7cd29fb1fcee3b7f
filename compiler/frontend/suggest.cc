#include "suggest.h"

#include <algorithm>

namespace ppy::frontend {
namespace {

/// Optimal string alignment distance: Levenshtein plus adjacent swaps ("teh").
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_spelling(std::string_view name, const std::vector<std::string>& candidates) {
  if (name.size() > 64) return {};  // the quadratic table stays small
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const std::string& c : candidates) {
    if (c == name || c.size() > 64) continue;
    // CPython's bound (Python/suggestions.c), in unit costs: a one-letter name is
    // never "near" another one-letter name.
    size_t limit = (name.size() + c.size() + 3) / 6;
    size_t d = edit_distance(name, c);
    if (d <= limit && d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best = closest_spelling(name, candidates);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

const std::vector<std::string>& python_builtin_names() {
  static const std::vector<std::string> kNames = {
      "abs",       "all",        "any",          "bin",        "bool",           "chr",          "dict",
      "divmod",    "enumerate",  "filter",       "float",      "format",         "hash",         "hex",          "input",
      "int",       "isinstance", "len",          "list",       "map",            "max",          "min",
      "next",      "oct",        "open",         "ord",        "pow",            "print",        "range",
      "repr",      "reversed",   "round",        "set",        "sorted",         "str",          "sum",
      "tuple",     "type",       "zip",          "True",       "False",          "None",         "Exception",
      "ValueError", "TypeError", "KeyError",     "IndexError", "ZeroDivisionError", "RuntimeError", "AssertionError"};
  return kNames;
}

}  // namespace ppy::frontend
