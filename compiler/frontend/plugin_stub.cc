// plugins (docs/writing-a-plugin.md): what a plugin's typed stub (`.pyi`) adds
// to a module. `@ppy.extern("symbol", library="name")` on a function whose body
// is `...` declares a C function of the vendor's library: its signature types
// the calls, and its IR function is the call of the symbol (lower_extern.cc).
// Any other function of a stub is ppy, compiled like the user's code.
#include "plugin_stub.h"

#include <atomic>
#include <cctype>

#include "checker_internal.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {
namespace {

/// A parameter or result type that crosses to C (docs/writing-a-plugin.md,
/// "How values cross"): scalars as themselves, a list as its data and length.
bool crosses(Ty t, bool result) {
  if (t == Ty::Int || t == Ty::Float || t == Ty::Error) return true;
  if (result) return t == Ty::None;
  return t == Ty::ListInt || t == Ty::ListFloat;
}

const Expr* keyword(const Expr& call, std::string_view name) {
  for (const Keyword& k : call.keywords)
    if (k.name == name) return k.value.get();
  return nullptr;
}

/// The symbol and library of a well-formed `extern("s", library="l")` call.
std::optional<ExternDecl> read_extern(const Expr& deco) {
  const Expr* symbol = deco.kids.size() == 2 ? deco.kids[1].get() : nullptr;
  const Expr* library = keyword(deco, "library");
  bool only_library = deco.keywords.size() == (library ? 1u : 0u);
  if (!symbol || symbol->kind != ExprKind::Str || symbol->str.empty() || !only_library ||
      (library && library->kind != ExprKind::Str))
    return std::nullopt;
  return ExternDecl{symbol->str, library ? library->str : "", deco.pos};
}

/// The dialects the compiler itself defines: a stub's op never names them.
bool builtin_dialect(std::string_view d) { return d == "core" || d == "math" || d == "gpu"; }

/// Whether `s` is a name of letters, digits and `_` that does not start with a digit.
bool identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

/// The op of a well-formed `op("dialect.name")` call: a plugin's dialect, never a builtin one.
std::optional<ExternDecl> read_op(const Expr& deco) {
  const Expr* name = deco.kids.size() == 2 && deco.keywords.empty() ? deco.kids[1].get() : nullptr;
  if (!name || name->kind != ExprKind::Str) return std::nullopt;
  size_t dot = name->str.find('.');
  if (dot == std::string::npos) return std::nullopt;
  std::string_view dialect = std::string_view(name->str).substr(0, dot),
                   op = std::string_view(name->str).substr(dot + 1);
  if (!identifier(dialect) || !identifier(op) || builtin_dialect(dialect)) return std::nullopt;
  ExternDecl d;
  d.pos = deco.pos;
  d.op = name->str;
  return d;
}

}  // namespace

namespace {
// Read by every lowering thread, replaced only between projects: an old set is
// kept (leaked, a few names), so a reader never sees it freed.
std::atomic<const std::set<std::string>*> stub_modules{nullptr};
}  // namespace

void set_stub_modules(std::set<std::string> modules) {
  const std::set<std::string>* now = stub_modules.load();
  if (modules.empty() && (!now || now->empty())) return;
  stub_modules.store(new std::set<std::string>(std::move(modules)));
}

bool is_stub_module(const std::string& module) {
  const std::set<std::string>* s = stub_modules.load(std::memory_order_relaxed);
  return s && !s->empty() && s->count(module);
}

bool plugin_decorator(const Expr& deco, const std::function<std::string(const std::string&)>& resolve,
                      const std::function<void(Pos, const char*, std::string)>& error) {
  if (deco.kind != ExprKind::Call) return false;
  std::optional<std::string> path = dotted(*deco.kids[0]);
  if (!path) return false;
  if (resolve(*path) == "ppy.op") {
    if (!read_op(deco))
      error(deco.pos, "E1032",
            "@ppy.op takes the full name of an op of the plugin's own dialect (not core, math or gpu): "
            "@ppy.op(\"devicelib.fill\")");
    return true;
  }
  if (resolve(*path) != "ppy.extern") return false;
  if (!read_extern(deco))
    error(deco.pos, "E1032",
          "@ppy.extern takes the C symbol and, by keyword, its library: @ppy.extern(\"vecmath_dot\", "
          "library=\"vecmath\")");
  return true;
}

std::optional<ExternDecl> extern_decl(const FuncDef& def) {
  for (const auto& deco : def.decorators) {
    if (deco->kind != ExprKind::Call) continue;
    std::optional<std::string> path = dotted(*deco->kids[0]);
    if (path && (*path == "extern" || path->ends_with(".extern")))
      if (auto d = read_extern(*deco)) return d;
    if (path && (*path == "op" || path->ends_with(".op")))
      if (auto d = read_op(*deco)) return d;
  }
  return std::nullopt;
}

namespace {

/// An @ppy.op function: in a stub, with a `...` body; any parameter and result
/// types (they are the op's operands and result, as the IR types them).
bool check_op_body(FuncInfo& f, const ExternDecl& decl, const std::string& path,
                   const std::function<void(Pos, std::string)>& error) {
  const FuncDef& def = *f.def;
  bool body_is_ellipsis = def.body.size() == 1 && def.body[0]->kind == StmtKind::Expr && def.body[0]->value &&
                          def.body[0]->value->kind == ExprKind::NoneLit && def.body[0]->value->str == "...";
  if (!path.ends_with(".pyi"))
    error(decl.pos,
          "@ppy.op declares an op of a plugin's dialect: it belongs in the plugin's typed stub (a .pyi file)");
  else if (!body_is_ellipsis)
    error(def.pos, str_cat("the @ppy.op function '", def.name, "' has a body; its body is '...' (the op ", decl.op,
                           " is its body)"));
  // Only the backend declaring the dialect knows what the op does: never pure.
  f.effects.insert({"reads", "writes"});
  f.end_reachable = false;
  return true;
}

}  // namespace

bool check_extern_body(FuncInfo& f, const std::string& path, DiagnosticEngine& diags) {
  if (!f.def || f.module_code) return false;
  std::optional<ExternDecl> decl = extern_decl(*f.def);
  if (!decl) return false;
  const FuncDef& def = *f.def;
  auto error = [&](Pos p, std::string msg) {
    f.has_body_errors = true;
    diags.error("E1010", path, p.line, p.col, std::move(msg));
  };
  bool body_is_ellipsis = def.body.size() == 1 && def.body[0]->kind == StmtKind::Expr && def.body[0]->value &&
                          def.body[0]->value->kind == ExprKind::NoneLit && def.body[0]->value->str == "...";
  if (!decl->op.empty()) return check_op_body(f, *decl, path, error);  // plugins: a dialect's op
  if (!path.ends_with(".pyi"))
    error(decl->pos,
          "@ppy.extern declares a function of a plugin's native library: it belongs in the plugin's "
          "typed stub (a .pyi file)");
  else if (!body_is_ellipsis)
    error(def.pos, str_cat("the @ppy.extern function '", def.name, "' has a body; its body is '...' (the call of ",
                           decl->symbol, " is its body)"));
  for (size_t i = 0; i < def.params.size() && i < f.params.size(); ++i)
    if (!crosses(f.params[i], false))
      error(def.params[i].pos,
            str_cat("parameter '", def.params[i].name, "' of the @ppy.extern function '", def.name, "' is ",
                    ty_name(f.params[i]), ", which does not cross to C (int, float, list[int], list[float])"));
  if (!crosses(f.result, true))
    error(def.pos, str_cat("the @ppy.extern function '", def.name, "' returns ", ty_name(f.result),
                           ", which does not cross from C (int, float, None)"));
  // A C function may read and write what its lists hold: never pure, so the
  // optimizer keeps every call, in order.
  f.effects.insert({"reads", "writes"});
  f.end_reachable = false;
  return true;
}

}  // namespace ppy::frontend::checking
