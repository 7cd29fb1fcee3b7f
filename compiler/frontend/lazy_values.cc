#include "lazy_values.h"

#include "parser.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {
namespace {

/// The helpers, generic (one instantiation per element type, check_generic.cc). `__ppy_map2`
/// takes from its first iterator, then its second, and stops at the first exhausted, as
/// Python's map() of two iterables does.
constexpr const char* kHelpers = R"(
def __ppy_map[A, R](f: Callable[[A], R], it: Iterator[A]) -> Iterator[R]:
    for x in it:
        yield f(x)

def __ppy_map2[A, B, R](f: Callable[[A, B], R], a: Iterator[A], b: Iterator[B]) -> Iterator[R]:
    for x in a:
        try:
            y = next(b)
        except StopIteration:
            return
        yield f(x, y)

def __ppy_filter[A, R](f: Callable[[A], R], it: Iterator[A]) -> Iterator[A]:
    for x in it:
        if f(x):
            yield x

def __ppy_iter_list[A](xs: list[A]) -> Iterator[A]:
    for x in xs:
        yield x
)";

/// Whether some line of `text` has ` for ` inside an open parenthesis (a generator expression).
bool has_genexp(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    int open = 0;
    for (size_t i = start; i < end; ++i) {
      if (text[i] == '(') ++open;
      if (text[i] == ')') --open;
      if (open > 0 && text.compare(i, 5, " for ") == 0) return true;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace

void add_lazy_value_helpers(ModuleAst& ast, const std::string& file, const std::string& text) {
  bool wanted = text.find("map(") != std::string::npos || text.find("filter(") != std::string::npos ||
                text.find("Iterable") != std::string::npos || text.find("Iterator") != std::string::npos ||
                text.find("Generator") != std::string::npos || has_genexp(text);
  if (!wanted) return;
  DiagnosticEngine quiet;
  ModuleAst helpers = parse_module(kHelpers, file, quiet);
  if (!quiet.diagnostics().empty()) return;
  for (auto& s : helpers.body) ast.body.push_back(std::move(s));
}

}  // namespace ppy::frontend
