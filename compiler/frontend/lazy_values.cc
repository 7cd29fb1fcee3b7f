#include "lazy_values.h"

#include "parser.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {
namespace {

/// The helpers, generic (one instantiation per element type, check_generic.cc). `__ppy_map2`
/// takes from its first iterator, then its second, and stops at the first exhausted, as
/// Python's map() of two iterables does. `__ppy_groupby` is CPython's groupby object
/// (Modules/itertoolsmodule.c) as a generator: its groups share the iterator and its state
/// (the current value `cur[0]`, the current and the target key `keys[0]`, `keys[1]`, the
/// number of the current group `ids[0]`), so a group the outer loop has moved past ends, and
/// each value is taken (and its key made) only when a consumer asks, as python3's.
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

def __ppy_grouper[A, K](it: Iterator[A], key: Callable[[A], K], cur: list[A], keys: list[K], ids: list[int], mine: int) -> Iterator[A]:
    while ids[0] == mine and keys[1] == keys[0]:
        yield cur[0]
        try:
            x = next(it)
        except StopIteration:
            return
        cur[0] = x
        keys[0] = key(x)

def __ppy_groupby[A, K](it: Iterator[A], key: Callable[[A], K]) -> Iterator[tuple[K, Iterator[A]]]:
    cur: list[A] = []
    keys: list[K] = []
    ids: list[int] = [0]
    while True:
        ids[0] += 1
        while len(keys) == 0 or keys[1] == keys[0]:
            try:
                x = next(it)
            except StopIteration:
                return
            k = key(x)
            if len(keys) == 0:
                cur.append(x)
                keys.append(k)
                keys.append(k)
                break
            cur[0] = x
            keys[0] = k
        keys[1] = keys[0]
        yield (keys[0], __ppy_grouper(it, key, cur, keys, ids, ids[0]))
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
                text.find("Generator") != std::string::npos || text.find("groupby") != std::string::npos ||
                has_genexp(text);
  if (!wanted) return;
  DiagnosticEngine quiet;
  ModuleAst helpers = parse_module(kHelpers, file, quiet);
  if (!quiet.diagnostics().empty()) return;
  for (auto& s : helpers.body) ast.body.push_back(std::move(s));
}

}  // namespace ppy::frontend
