// `with` over an object whose class has `__enter__` and `__exit__` (issue 32).
// The parser writes every `with` item as a file's (parser_with.cc):
//
//   NAME = __ppy_with__(EXPR)
//   try:
//       body
//   finally:
//       NAME.close()
//
// When EXPR is such an object, the body checker rewrites those two statements
// into what Python does (PEP 343), before checking them:
//
//   _ppy_withm = EXPR
//   NAME = _ppy_withm.__enter__()            (`_ppy_withm.__enter__()` without `as`)
//   _ppy_withok = True
//   try:
//       body
//   except BaseException:
//       _ppy_withok = False
//       if not _ppy_withm.__exit__(True, True, False):     (an `__exit__` -> None:
//           raise                                           the call, then `raise`)
//   finally:
//       if _ppy_withok:
//           _ppy_withm.__exit__(False, False, False)
//
// so `__exit__` runs once however the body ends (an exception, a return, a
// break), and an exception goes on unless it returns True. `__exit__`'s three
// parameters are not read by its body, or `exc_type` and `exc` only tested for
// None (exit_arguments.h; prepare_exit_methods below makes them bools: True
// while an exception passes).
#include <cstddef>
#include <functional>
#include <iterator>

#include "body_checker.h"
#include "exit_arguments.h"
#include "expr_build.h"
#include "generator_close.h"
#include "generator_try.h"
#include "imported_classes.h"
#include "object_list_helpers.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

/// Marks the annotation of an `__exit__` whose `exc_type` and `exc` are the exception itself
/// (typed `Exception`, None when nothing was raised), as kExitTypeAsBool marks a bool one.
inline constexpr int64_t kExitTypeAsExc = 0x65786963;

namespace {

/// Whether the statements read the name `n` anywhere.
bool reads_name(const Expr& e, const std::string& n) {
  if (e.kind == ExprKind::Name && e.str == n) return true;
  for (auto& k : e.kids)
    if (k && reads_name(*k, n)) return true;
  for (auto& k : e.keywords)
    if (k.value && reads_name(*k.value, n)) return true;
  return false;
}

/// How many statements of the body (nested defs and classes aside) bind the name `n`.
size_t assigns_count(const std::vector<StmtPtr>& body, const std::string& n) {
  size_t c = 0;
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    bool binds = false;
    if (s->kind == StmtKind::Assign || s->kind == StmtKind::AugAssign || s->kind == StmtKind::AnnAssign ||
        s->kind == StmtKind::For)
      for (auto& t : s->targets) binds = binds || reads_name(*t, n);
    c += binds;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { c += assigns_count(b, n); });
  }
  return c;
}

bool reads_name(const std::vector<StmtPtr>& body, const std::string& n) {
  for (auto& s : body) {
    for (auto& t : s->targets)
      if (reads_name(*t, n)) return true;
    if (s->value && reads_name(*s->value, n)) return true;
    if (s->annotation && reads_name(*s->annotation, n)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || reads_name(b, n); });
    if (inner) return true;
  }
  return false;
}

}  // namespace

void prepare_exit_methods(ModuleAst& ast) {
  for (auto& s : ast.body) {
    if (s->kind != StmtKind::Class || !s->def) continue;
    for (auto& m : s->def->body) {
      if (m->kind != StmtKind::Def || !m->def || m->def->name != "__exit__" || m->def->params.size() != 4) continue;
      FuncDef& f = *m->def;
      bool unread = true;
      for (size_t i = 1; i < 4; ++i) unread = unread && !reads_name(f.body, f.params[i].name);
      if (!unread) {  // `exc_type is None` and the like (exit_arguments.h)
        if (exit_type_as_bool(f) || reads_name(f.body, f.params[3].name)) continue;  // `tb` read: refused at the `with`
        // issue 32: `str(exc)`, `isinstance(exc, ValueError)`, `exc_type.__name__`: both are the
        // exception as a value (docs/language.md, "Exceptions"), None when nothing was raised.
        for (size_t i = 1; i < 3; ++i) {
          f.params[i].annotation = build::name("Exception", f.params[i].pos);
          f.params[i].annotation->ival = kExitTypeAsExc;
        }
        f.params[3].annotation = build::name("bool", f.params[3].pos);
        continue;
      }
      for (size_t i = 1; i < 4; ++i) f.params[i].annotation = build::name("bool", f.params[i].pos);
    }
  }
}

namespace checking {
namespace {

/// `m.method_of(args...)`.
ExprPtr method_of(const std::string& m, const char* name, std::vector<ExprPtr> args, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(build::name(m, p));
  return build::call(build::with_kids(ExprKind::Attribute, p, std::move(kids), name), std::move(args), p);
}

/// `m.__exit__(raised, raised, False)`: `raised` is what an `exc_type` or `exc` read as a bool
/// gets; a generator's close passes its closing flag there instead (python3's GeneratorExit).
/// `exc` set: `__exit__` takes the exception itself (kExitTypeAsExc), the local `exc` names, or None.
ExprPtr exit_of(const std::string& m, Pos p, bool raised = false, const char* raised_flag = nullptr,
                const std::string* exc = nullptr) {
  std::vector<ExprPtr> args;
  for (int i = 0; i < 3; ++i) {
    if (exc && i < 2)
      args.push_back(exc->empty() ? build::node(ExprKind::NoneLit, p) : build::name(*exc, p));
    else
      args.push_back(i < 2 && raised_flag ? build::name(raised_flag, p) : build::bool_lit(i < 2 && raised, p));
  }
  return method_of(m, "__exit__", std::move(args), p);
}

}  // namespace

void BodyChecker::with_object(std::vector<StmtPtr>& body, size_t i, bool generator) {
  if (i + 1 >= body.size()) return;
  Stmt& enter = *body[i];
  Stmt& guarded = *body[i + 1];
  if (enter.kind != StmtKind::Assign || enter.targets.size() != 1 || enter.targets[0]->kind != ExprKind::Name ||
      !enter.value || enter.value->kind != ExprKind::Call || enter.value->kids.size() != 2 ||
      enter.value->kids[0]->kind != ExprKind::Name || enter.value->kids[0]->str != "__ppy_with__" ||
      guarded.kind != StmtKind::Try || !guarded.handlers.empty() || guarded.finalbody.size() != 1)
    return;
  ExprPtr probe = build::clone(*enter.value->kids[1]);
  Ty t = value(*probe, Ty::Error);
  if (!is_class(t)) return;  // a file, or refused by check_io.cc
  ClassInfo& c = *class_info(t);
  if (!c.methods.count("__enter__") || !c.methods.count("__exit__")) {
    error(enter.value->kids[1]->pos, "E1010",
          str_cat("a with statement over ", c.name,
                  " is outside the ppy subset (its class has no __enter__ and __exit__)"));
    return;
  }
  const FuncInfo* exit_fn = nullptr;
  exit_fn = class_method(m_, c.methods["__exit__"], "__exit__");  // an imported class's too (imported_classes.h)
  Ty result = exit_fn ? exit_fn->result : Ty::Error;
  bool unread = exit_fn && exit_fn->def && exit_fn->params.size() == 4;
  // issue 32: an `exc_type` or `exc` tested for None (exit_arguments.h) is read as a bool.
  for (size_t k = 1; unread && k < 4; ++k) {
    const Param& q = exit_fn->def->params[k];
    if (!(q.annotation && (q.annotation->ival == kExitTypeAsBool || q.annotation->ival == kExitTypeAsExc)))
      unread = !reads_name(exit_fn->def->body, q.name);
  }
  const Param* first = exit_fn && exit_fn->def && exit_fn->params.size() == 4 ? &exit_fn->def->params[1] : nullptr;
  bool as_exc = first && first->annotation && first->annotation->ival == kExitTypeAsExc;
  if (exit_fn && !unread) {
    error(enter.value->kids[1]->pos, "E1010",
          str_cat(c.name,
                  ".__exit__ reading its exception parameters (or not taking exc_type, exc, tb) is outside the ppy "
                  "subset"));
    return;
  }
  if (result != Ty::None && result != Ty::Bool && result != Ty::Error) {
    error(enter.value->kids[1]->pos, "E1010",
          str_cat(c.name, ".__exit__ returning ", ty_name(result), " is outside the ppy subset (bool or None)"));
    return;
  }
  Pos p = enter.pos;
  std::string name = enter.targets[0]->str;
  std::string suffix = str_cat(p.line, "_", p.col);
  // Without `as`, the parser's hidden local (`_ppy_with_L_C`) holds the manager.
  bool hidden = name.rfind("_ppy_with_", 0) == 0;
  std::string mgr = hidden ? name : str_cat("_ppy_withm_", suffix), ok = str_cat("_ppy_withok_", suffix);
  std::vector<StmtPtr> out;
  out.push_back(build::assign(mgr, std::move(enter.value->kids[1]), p));
  if (hidden)
    out.push_back(build::expr_stmt(method_of(mgr, "__enter__", {}, p), p));
  else
    out.push_back(build::assign(name, method_of(mgr, "__enter__", {}, p), p));
  out.push_back(build::assign(ok, build::bool_lit(true, p), p));
  StmtPtr t_stmt = build::stmt(StmtKind::Try, guarded.pos);
  t_stmt->body = std::move(guarded.body);
  Handler h;
  h.pos = p;
  h.classes.push_back("BaseException");
  std::string exc = as_exc ? str_cat("_ppy_withe_", suffix) : "", no_exc;
  const std::string* passed = as_exc ? &exc : nullptr;
  if (as_exc) {
    h.name = exc;
    h.name_pos = p;
  }
  h.body.push_back(build::assign(ok, build::bool_lit(false, p), p));
  if (result == Ty::None) {
    h.body.push_back(build::expr_stmt(exit_of(mgr, p, true, nullptr, passed), p));
    h.body.push_back(build::stmt(StmtKind::Raise, p));
  } else {
    StmtPtr check = build::stmt(StmtKind::If, p);
    std::vector<ExprPtr> kids;
    kids.push_back(exit_of(mgr, p, true, nullptr, passed));
    check->value = build::with_kids(ExprKind::Unary, p, std::move(kids), "not");
    check->body.push_back(build::stmt(StmtKind::Raise, p));
    h.body.push_back(std::move(check));
  }
  t_stmt->handlers.push_back(std::move(h));
  StmtPtr normal = build::stmt(StmtKind::If, p);
  normal->value = build::name(ok, p);
  // In a generator, a close() at a yield of the body leaves it by a return (generator_close.h).
  const char* closing = generator && yields_in(t_stmt->body) ? kGeneratorClosing : nullptr;
  normal->body.push_back(build::expr_stmt(exit_of(mgr, p, false, closing, as_exc ? &no_exc : nullptr), p));
  t_stmt->finalbody.push_back(std::move(normal));
  out.push_back(std::move(t_stmt));
  collect_locals(out);
  body.erase(body.begin() + static_cast<std::ptrdiff_t>(i), body.begin() + static_cast<std::ptrdiff_t>(i) + 2);
  body.insert(body.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(out.begin()),
              std::make_move_iterator(out.end()));
}

void BodyChecker::with_objects_in_generator(std::vector<StmtPtr>& body) {
  // Names known before the body's locals: parameters and the module's names.
  std::function<bool(const Expr&)> typed_early = [&](const Expr& e) {
    if (e.kind == ExprKind::Name && !types_.count(e.str) && !m_.classes.count(e.str) && !m_.consts.count(e.str) &&
        !m_.func_index.count(e.str) && !m_.bindings.count(e.str))
      return false;
    if (e.kind == ExprKind::Lambda || e.kind == ExprKind::ListComp || e.kind == ExprKind::DictComp ||
        e.kind == ExprKind::SetComp)
      return false;  // names of their own
    for (auto& k : e.kids)
      if (k && !typed_early(*k)) return false;
    for (auto& k : e.keywords)
      if (k.value && !typed_early(*k.value)) return false;
    return true;
  };
  // `with cm:` where `cm = Manager(...)` is assigned once, before it in the same suite: `cm`'s type, known
  // before the body is checked, so the with is written out as a constructor's is.
  auto early_manager_local = [&](const std::vector<StmtPtr>& b, size_t i, const Expr& mgr) {
    if (mgr.kind != ExprKind::Name || types_.count(mgr.str)) return false;
    const Expr* init = nullptr;
    for (size_t k = 0; k < i; ++k) {
      const Stmt& a = *b[k];
      if (a.kind == StmtKind::Assign && a.targets.size() == 1 && a.targets[0]->kind == ExprKind::Name &&
          a.targets[0]->str == mgr.str && a.value)
        init = a.value.get();
    }
    if (!init || assigns_count(f_.def->body, mgr.str) != 1) return false;
    const Expr& callee = init->kind == ExprKind::Call ? *init->kids[0] : *init;
    auto cls = callee.kind == ExprKind::Name && !types_.count(callee.str) ? m_.classes.find(callee.str)
                                                                           : m_.classes.end();
    Ty t = Ty::Error;
    if (init->kind == ExprKind::Call && cls != m_.classes.end()) {
      t = cls->second;  // `Manager(...)` of anything: its class
    } else if (typed_early(*init)) {
      ExprPtr probe = build::clone(*init);
      t = value(*probe, Ty::Error);
    }
    if (!is_class(t)) return false;
    types_[mgr.str] = t;
    note_local(mgr.str);
    flow_.assigned.insert(mgr.str);  // for with_object's look at it; taken back after
    return true;
  };
  for (size_t i = 0; i < body.size(); ++i) {
    Stmt& s = *body[i];
    bool with = s.kind == StmtKind::Assign && s.value && s.value->kind == ExprKind::Call &&
                s.value->kids.size() == 2 && s.value->kids[0]->kind == ExprKind::Name &&
                s.value->kids[0]->str == "__ppy_with__";
    std::string early = with && s.value->kids[1]->kind == ExprKind::Name ? s.value->kids[1]->str : "";
    if (!early.empty() && !early_manager_local(body, i, *s.value->kids[1])) early.clear();
    if (with && typed_early(*s.value->kids[1]))
      with_object(body, i, true);  // the manager's statements (the with's try among them) replace body[i]
    if (!early.empty()) flow_.assigned.erase(early);
    Stmt& t = *body[i];
    for (auto* b : {&t.body, &t.orelse, &t.finalbody}) with_objects_in_generator(*b);
    for (auto& h : t.handlers) with_objects_in_generator(h.body);
  }
}

}  // namespace checking
}  // namespace ppy::frontend
