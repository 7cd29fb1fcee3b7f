#include "object_list_helpers.h"

#include <map>
#include <set>

#include "parser.h"
#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {
namespace {

/// Source of the helpers for lists of class `c` (`$` stands for its name).
/// The sort is stable and compares with `<` alone, as Python's: insertion sort
/// of runs of 16, then bottom-up merges (O(n log n); a right element goes first
/// only when it is less than the left one).
constexpr const char* kOrderHelpers = R"(
def __ppy_sort_$(xs: list[$]) -> None:
    n = len(xs)
    width = 16
    for lo in range(0, n, width):
        end = lo + width if lo + width < n else n
        for j in range(lo + 1, end):
            x = xs[j]
            i = j
            while i > lo and x < xs[i - 1]:
                xs[i] = xs[i - 1]
                i -= 1
            xs[i] = x
    if n <= width:
        return
    moved = False
    src = xs
    dst: list[$] = xs.copy()
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if src[j] < src[i]:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
        swap = src
        src = dst
        dst = swap
        moved = not moved
        width *= 2
    if moved:
        for k in range(n):
            xs[k] = src[k]


def __ppy_sorted_$(xs: list[$]) -> list[$]:
    out: list[$] = []
    for x in xs:
        out.append(x)
    __ppy_sort_$(out)
    return out


def __ppy_min_$(xs: list[$]) -> $:
    if len(xs) == 0:
        raise ValueError("min() arg is an empty sequence")
    best = xs[0]
    for x in xs:
        if x < best:
            best = x
    return best


def __ppy_max_$(xs: list[$]) -> $:
    if len(xs) == 0:
        raise ValueError("max() arg is an empty sequence")
    best = xs[0]
    for x in xs:
        if x > best:
            best = x
    return best
)";

constexpr const char* kEqualityHelpers = R"(
def __ppy_contains_$(xs: list[$], x: $) -> bool:
    for y in xs:
        if y is x or y == x:
            return True
    return False


def __ppy_index_$(xs: list[$], x: $) -> int:
    for i in range(len(xs)):
        if xs[i] is x or xs[i] == x:
            return i
    raise ValueError(f"{x!r} is not in list")


def __ppy_count_$(xs: list[$], x: $) -> int:
    n = 0
    for y in xs:
        if y is x or y == x:
            n += 1
    return n


def __ppy_remove_$(xs: list[$], x: $) -> None:
    i = __ppy_index_$(xs, x)
    for j in range(i, len(xs) - 1):
        xs[j] = xs[j + 1]
    xs.pop()
)";

std::string instantiate(const char* text, const std::string& cls) {
  std::string out;
  for (const char* c = text; *c; ++c)
    if (*c == '$')
      out += cls;
    else
      out += *c;
  return out;
}

}  // namespace

std::string list_helper_name(const std::string& op, const std::string& cls) { return str_cat("__ppy_", op, "_", cls); }

void add_list_helpers(ModuleAst& ast, const std::string& file) {
  prepare_exit_methods(ast);  // `with` over objects (check_with.cc)
  // Each class's methods, its bases' first (a base is defined above its subclass).
  std::map<std::string, std::set<std::string>> methods;
  add_after_each_class(ast, [&](Stmt& c) -> std::vector<StmtPtr> {
    std::set<std::string>& mine = methods[c.def->name];
    if (!c.targets.empty() && c.targets[0]->kind == ExprKind::Name && methods.count(c.targets[0]->str))
      mine = methods[c.targets[0]->str];
    for (auto& b : c.def->body)
      if (b->kind == StmtKind::Def && b->def) mine.insert(b->def->name);
    std::string text;
    if (mine.count("__lt__")) text += instantiate(kOrderHelpers, c.def->name);
    if (mine.count("__eq__")) text += instantiate(kEqualityHelpers, c.def->name);
    if (text.empty()) return {};
    DiagnosticEngine quiet;
    ModuleAst helpers = parse_module(text, file, quiet);
    if (!quiet.diagnostics().empty()) return {};
    for (auto& h : helpers.body) {
      // Reported (if ever) at the class they serve.
      h->pos = c.pos;
      if (h->def) h->def->pos = c.pos;
    }
    return std::move(helpers.body);
  });
}

void make_function_call(Expr& e, const std::string& name, std::vector<ExprPtr> args) {
  Pos p = e.pos;
  auto callee = std::make_unique<Expr>();
  callee->kind = ExprKind::Name;
  callee->pos = p;
  callee->str = name;
  e = Expr{};
  e.kind = ExprKind::Call;
  e.pos = p;
  e.kids.push_back(std::move(callee));
  for (auto& a : args) e.kids.push_back(std::move(a));
}

}  // namespace ppy::frontend
