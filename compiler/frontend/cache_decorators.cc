// functools.cache and lru_cache on module functions, written out (cache_decorators.h).
#include "cache_decorators.h"

#include <set>

#include "checker_internal.h"
#include "generics.h"
#include "parser.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {

std::set<std::string> imported_decorators(const ModuleAst& ast) {
  std::set<std::string> out;
  for (auto& s : ast.body)
    if (s->kind == StmtKind::ImportFrom && s->module == "functools")
      for (auto& n : s->names)
        if (n.name == "cache" || n.name == "lru_cache") out.insert(n.asname.empty() ? n.name : n.asname);
  return out;
}

bool is_cache_decorator(const Expr& d, const std::set<std::string>& imported) {
  const Expr& callee = d.kind == ExprKind::Call ? *d.kids[0] : d;
  auto path = checking::dotted(callee);
  if (!path) return false;
  if (*path == "functools.cache" || *path == "functools.lru_cache") return true;
  return imported.count(*path) != 0;
}

namespace {

/// Gives every statement and expression of `body` the place `p`.
void place(Expr& e, Pos p) {
  e.pos = p;
  for (auto& k : e.kids)
    if (k) place(*k, p);
}
void place(std::vector<StmtPtr>& body, Pos p) {
  for (auto& s : body) {
    s->pos = p;
    for (auto& t : s->targets) place(*t, p);
    if (s->value) place(*s->value, p);
    if (s->annotation) place(*s->annotation, p);
    place(s->body, p);
  }
}

}  // namespace

std::vector<StmtPtr> expand_cache_decorator(Stmt& s, const std::string& file) {
  FuncDef& def = *s.def;
  if (!def.returns) return {};
  std::string n = def.name;
  std::vector<std::string> names, types;
  for (auto& p : def.params) {
    if (!p.annotation) return {};
    names.push_back(p.name);
    types.push_back(checking::annotation_text(*p.annotation));
  }
  std::string key, key_ty;
  if (names.size() == 1) {
    key = names[0];
    key_ty = types[0];
  } else if (names.empty()) {
    key = "0";
    key_ty = "int";
  } else {
    for (size_t i = 0; i < names.size(); ++i) {
      str_append(key, i ? ", " : "(", names[i]);
      str_append(key_ty, i ? ", " : "tuple[", types[i]);
    }
    key += ")";
    key_ty += "]";
  }
  std::string args;
  for (size_t i = 0; i < names.size(); ++i) str_append(args, i ? ", " : "", names[i]);
  std::string cache = str_cat("_", n, "_cache"), result = str_cat("_", n, "_result"), uncached = str_cat("_", n, "_uncached");
  std::string text = str_cat(cache, ": dict[", key_ty, ", ", checking::annotation_text(*def.returns), "] = {}\n",
                             "def ", n, "() -> None:\n",
                             "    if ", key, " in ", cache, ":\n",
                             "        return ", cache, "[", key, "]\n",
                             "    ", result, " = ", uncached, "(", args, ")\n",
                             "    ", cache, "[", key, "] = ", result, "\n",
                             "    return ", result, "\n");
  DiagnosticEngine quiet;
  ModuleAst m = parse_module(text, file, quiet);
  if (!quiet.diagnostics().empty() || m.body.size() != 2) return {};
  Pos before{def.pos.line > 1 ? def.pos.line - 1 : def.pos.line, def.pos.col};  // bound above the def
  place(m.body, def.pos);
  m.body[0]->pos = before;
  FuncDef& wrapper = *m.body[1]->def;
  wrapper.pos = def.pos;
  wrapper.returns = checking::clone_expr(def.returns.get());
  for (auto& p : def.params) {
    Param c;
    c.name = p.name;
    c.pos = p.pos;
    c.annotation = checking::clone_expr(p.annotation.get());
    c.default_value = checking::clone_expr(p.default_value.get());
    wrapper.params.push_back(std::move(c));
  }
  def.name = uncached;
  def.decorators.clear();
  return std::move(m.body);
}

void expand_cache_decorators(ModuleAst& ast, const std::string& file) {
  std::set<std::string> imported = imported_decorators(ast);
  std::vector<StmtPtr> out;
  for (auto& s : ast.body) {
    std::vector<StmtPtr> added;
    if (s->kind == StmtKind::Def && s->def && s->def->decorators.size() == 1 &&
        is_cache_decorator(*s->def->decorators[0], imported))
      added = expand_cache_decorator(*s, file);
    if (added.size() == 2) {
      out.push_back(std::move(added[0]));  // the cache
      out.push_back(std::move(added[1]));  // the function callers call
    }
    out.push_back(std::move(s));
  }
  ast.body = std::move(out);
}

}  // namespace ppy::frontend
