#include "iter_protocol.h"

#include "expr_build.h"
#include "parser.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {
namespace {

/// The walking generator of class `$`; its result's element is set to `__next__`'s annotation.
constexpr const char* kWalker = R"(
def __ppy_iter_$(it: $) -> Iterator[int]:
    while True:
        try:
            x = it.__next__()
        except StopIteration:
            return
        yield x
)";

}  // namespace

std::string protocol_iter_name(const std::string& cls) { return str_cat("__ppy_iter_", cls); }

void add_iter_protocol_helpers(ModuleAst& ast, const std::string& file) {
  add_after_each_class(ast, [&](Stmt& c) -> std::vector<StmtPtr> {
    const FuncDef* next = nullptr;
    for (auto& b : c.def->body)
      if (b->kind == StmtKind::Def && b->def && b->def->name == "__next__") next = b->def.get();
    if (!next || !next->returns) return {};
    std::string text;
    for (const char* k = kWalker; *k; ++k)
      if (*k == '$')
        text += c.def->name;
      else
        text += *k;
    DiagnosticEngine quiet;
    ModuleAst helpers = parse_module(text, file, quiet);
    if (!quiet.diagnostics().empty() || helpers.body.empty() || !helpers.body[0]->def) return {};
    StmtPtr& h = helpers.body[0];
    Expr& result = *h->def->returns;  // Iterator[int]: its element becomes __next__'s result
    result.kids[1] = build::clone(*next->returns);
    result.depth = result.kids[1]->depth + 1;
    // Reported (if ever) at the class it serves.
    h->pos = c.pos;
    h->def->pos = c.pos;
    std::vector<StmtPtr> written;
    written.push_back(std::move(h));
    return written;
  });
}

}  // namespace ppy::frontend
