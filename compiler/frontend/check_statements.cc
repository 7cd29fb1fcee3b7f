// The body checker, statements: flow, definite assignment, assignments, loops.
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "body_checker.h"
#include "tuple_as_list.h"
#include "module_vars.h"
#include "own_writes.h"
#include "shown_args.h"
#include "one_pass_params.h"
#include "generator_close.h"
#include "generator_try.h"
#include "plugin_stub.h"
#include "dataclass_options.h"
#include "namedtuple_classes.h"
#include "generics.h"
#include "lazy.h"
#include "builtin_exceptions.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"
#include "starred.h"

namespace ppy::frontend::checking {

Flow merge(const Flow& a, const Flow& b) {
  if (!a.reachable) return b;
  if (!b.reachable) return a;
  Flow r;
  for (auto& n : a.assigned)
    if (b.assigned.count(n)) r.assigned.insert(n);
  for (auto& n : a.not_none)
    if (b.not_none.count(n)) r.not_none.insert(n);
  return r;
}

void BodyChecker::run() {
  if (checking::check_extern_body(f_, m_.path, d_)) return;  // plugins: a stub's extern (plugin_stub.cc)
  FuncDef& def = *f_.def;
  for (auto& [n, t] : f_.locals) {
    types_[n] = t;
    flow_.assigned.insert(n);
    order_.push_back(n);
  }
  if (!f_.module_code) declare_globals(def.body);
  std::set<std::string> closing = closing_generators();
  close_abandoned_loops(def.body, closing);  // a loop left early closes its generator (generator_close.h)
  if (!is_generator(f_) && !f_.module_code) {  // a generator held in a local (generator_close.h)
    std::map<std::string, const Expr*> held;
    for (const FuncInfo& g : m_.funcs)
      if (closing.count(g.name) && g.def->returns && g.def->type_params.empty())
        held.emplace(g.name, g.def->returns.get());
    close_consumed_in_tries(def, held);
    close_dropped_locals(def, held);
  }
  if (is_generator(f_)) {
    with_objects_in_generator(def.body);  // before the split hides a with's shape (check_with.cc)
    add_close_points(def.body, closing);
    split_yielding_tries(def.body);  // yield inside try and with (generator_try.h)
  }
  collect_nonlocals(def.body);
  collect_locals(def.body);
  note_deques(def);  // check_deque.cc
  refuse_iterables_walked_twice(def, [&](Pos p, std::string m) { error(p, "E1010", std::move(m)); });
  seed_enclosing();
  bool generator = generator_start();  // lazy sequences
  block(def.body);
  unsettled_empty();  // issue 32 (check_infer.cc)
  check_nested();
  if (generator) generator_loops(def.body);
  f_.end_reachable = flow_.reachable;
  if (flow_.reachable && f_.result != Ty::None && f_.result != Ty::Error && !generator)
    error(def.pos, "E1050",
          str_cat("function '", def.name, "' can reach its end without returning a ", ty_name(f_.result),
                  " (Python would return None)"));
  f_.locals.clear();
  for (auto& n : order_) f_.locals.emplace_back(n, types_[n]);
}

void BodyChecker::error(Pos p, const char* code, std::string msg) {
  f_.has_body_errors = true;
  std::string_view c = code;
  // A statement the parser dropped, or one refused (E1010), may have bound a
  // name, assigned a local or returned: what follows from that is not a second
  // error (one root cause, one error).
  // A refused statement's own names are kept in refused_names_ (their reads are
  // not reported); other names' errors still are, in source order.
  if (f_.def->incomplete && (c == "E1020" || c == "E1060" || c == "E1050")) return;
  if (refused_ && c == "E1050") return;
  if (c == "E1010") {
    refused_ = true;
    if (cur_stmt_) refuse_names(*cur_stmt_);
  }
  d_.error(code, m_.path, p.line, p.col, std::move(msg));
}

void BodyChecker::raises() {
  if (!gpu_) effect("raises");
}

void BodyChecker::collect_target(const Expr& t) {
  if (t.kind == ExprKind::Name) {
    if (!types_.count(t.str) && !nonlocal_.count(t.str)) {
      types_[t.str] = Ty::Error;
      unknown_.insert(t.str);
    }
  } else if (t.kind == ExprKind::Tuple || is_starred(t)) {
    for (auto& k : t.kids) collect_target(*k);
  }
}

void BodyChecker::collect_locals(const std::vector<StmtPtr>& body) {
  // `(n := v)` binds n in the function (PEP 572), from a comprehension's condition too. A generator
  // expression runs later, in a frame of its own, and a lambda binds in its own scope: refused there.
  std::function<void(const Expr&, const char*)> walrus = [&](const Expr& e, const char* inside) {
    if (e.kind == ExprKind::Lambda) inside = "a lambda";
    if (e.kind == ExprKind::ListComp && e.bval) inside = "a generator expression";
    if (e.kind == ExprKind::Binary && e.str == ":=") {
      if (inside)
        error(e.pos, "E1010", str_cat("an assignment expression (':=') in ", inside, " is outside the ppy subset"));
      else
        collect_target(*e.kids[0]);
    }
    for (auto& k : e.kids)
      if (k) walrus(*k, inside);
    for (auto& k : e.keywords)
      if (k.value) walrus(*k.value, inside);
  };
  for (auto& s : body) {
    if (s->value) walrus(*s->value, nullptr);
    for (auto& t : s->targets) walrus(*t, nullptr);
    if (s->kind == StmtKind::Class) continue;  // refused (a class inside a function)
    if (s->kind == StmtKind::Def && s->def && !f_.module_code) {  // a nested def binds its name
      Expr name;
      name.kind = ExprKind::Name;
      name.str = s->def->name;
      collect_target(name);
      continue;
    }
    for (auto& t : s->targets) collect_target(*t);
    for (auto& h : s->handlers)
      if (!h.name.empty() && !types_.count(h.name)) {
        types_[h.name] = Ty::Error;
        unknown_.insert(h.name);
      }
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { collect_locals(b); });
  }
}

void BodyChecker::declare_globals(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Global)
      for (auto& n : s->names) {
        if (globals_.count(n.name)) continue;
        global_decls_.emplace(n.name, n.pos);
        bool param = false;
        for (auto& p : f_.def->params) param = param || p.name == n.name;
        if (param) {
          error(n.pos, "E1001", str_cat("name '", n.name, "' is parameter and global"));
          continue;
        }
        if (!m_.module_vars.count(n.name)) {
          error(n.pos, "E1010",
                str_cat("'", n.name, "' is declared global in '", f_.name,
                        "' but module-level code does not assign it; ppy needs `", n.name,
                        " = ...` at module level before `def ", f_.name, "`"));
          continue;
        }
        use_module_var(n.name, n.pos);
      }
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { declare_globals(b); });
  }
}

bool BodyChecker::use_module_var(const std::string& n, Pos p) {
  if (gpu_) {
    error(p, "E1100", str_cat("GPU code cannot use the module variable '", n, "'"));
    return false;
  }
  auto bound = m_.var_bound_line.find(n);
  if (bound == m_.var_bound_line.end() || bound->second >= f_.def->pos.line) {
    error(p, "E1010",
          str_cat("'", f_.name, "' uses the module variable '", n,
                  "', which module-level code does not assign before `def ", f_.name,
                  "`; ppy needs an assignment at module level (not in a block) above the def"));
    return false;
  }
  auto t = m_.module_var_types.find(n);
  Ty ty = t == m_.module_var_types.end() ? Ty::Error : t->second;
  if (ty != Ty::Error && !module_var_type(ty)) {
    error(p, "E1010",
          str_cat("the module variable '", n, "' holds ", ty_name(ty),
                  "; functions use int, float, bool, str, list, dict, set and tuple module variables only (a tuple "
                  "of these, not mixing bool with str or containers)"));
    return false;
  }
  types_[n] = ty;
  flow_.assigned.insert(n);
  globals_.insert(n);
  f_.globals.emplace_back(n, ty);
  m_.shared_vars.insert(n);
  return true;
}

void BodyChecker::check_after_global(const std::string& n, Pos p, bool assigned) {
  auto d = global_decls_.find(n);
  if (d == global_decls_.end()) return;
  if (p.line < d->second.line || (p.line == d->second.line && p.col < d->second.col))
    error(p, "E1001",
          str_cat("name '", n, "' is ", assigned ? "assigned to before" : "used prior to", " global declaration"));
}

void BodyChecker::global_effect(bool write) {
  effect(write ? "writes" : "reads");
  effect("globals");
}

void BodyChecker::note_local(const std::string& n) {
  if (std::find(order_.begin(), order_.end(), n) == order_.end()) order_.push_back(n);
}

void BodyChecker::block(std::vector<StmtPtr>& body) {
  for (size_t i = 0; i < body.size(); ++i) {
    with_object(body, i);  // `with` over an object (check_with.cc)
    auto& s = body[i];
    if (!flow_.reachable) s->dead = true;
    stmt(*s);
  }
}

void BodyChecker::stmt(Stmt& s) {
  struct Current {  // the innermost statement, while it is checked
    const Stmt*& at;
    const Stmt* outer;
    ~Current() { at = outer; }
  } current{cur_stmt_, cur_stmt_};
  cur_stmt_ = &s;
  line_ = s.pos.line;
  cur_pos_ = s.pos;
  switch (s.kind) {
    case StmtKind::Pass:
    case StmtKind::Global:  // declared before the body is checked (declare_globals)
      return;
    case StmtKind::Class:
      error(s.pos, "E1010",
            "a class inside a function or block is outside the ppy subset "
            "(define it at module level)");
      return;
    case StmtKind::Expr:
      if (s.value->kind == ExprKind::Str) return;  // docstring
      if (is_yield(*s.value)) return yield_stmt(s);  // lazy sequences
      expr(*s.value, Ty::Error, true);
      if (update_stmt_) {  // `d.update(o)`: the loop it was rewritten into (check_dict.cc)
        StmtPtr loop = std::move(update_stmt_);
        s = std::move(*loop);
        stmt(s);
      }
      return;
    case StmtKind::Assign: {
      if (setitem_stmt(s) || property_set_stmt(s)) {  // `x[k] = v`, `x.prop = v` (check_dunder.cc, check_class_member.cc)
        stmt(s);
        return;
      }
      if (defer_empty(s)) return;  // `result = []`, typed by its first use (check_infer.cc)
      Ty vt = Ty::Error;
      bool elementwise = s.value->kind == ExprKind::Tuple;  // `a, b = x, y`: element by element
      for (auto& t : s.targets)
        if (t->kind != ExprKind::Tuple || t->kids.size() != s.value->kids.size()) elementwise = false;
      if (elementwise) {
        for (auto& k : s.value->kids) value(*k, Ty::Error);
        for (auto& t : s.targets)
          for (size_t i = 0; i < t->kids.size(); ++i) {
            if (t->kids[i]->kind == ExprKind::Tuple)
              unpack(*t->kids[i], s.value->kids[i]->ty, *s.value->kids[i]);
            else
              assign(*t->kids[i], s.value->kids[i]->ty, *s.value->kids[i]);
          }
        return;
      }
      Ty hint = Ty::Error;
      if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name) {
        auto it = types_.find(s.targets[0]->str);
        if (it != types_.end()) hint = it->second;
      }
      if (s.targets.size() == 1) {
        Ty ft = field_type_hint(*s.targets[0]);
        if (ft != Ty::Error) hint = ft;
      }
      // `d[k] = []` / `d[k] = {}`: the dict local's value type.
      if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Subscript &&
          s.targets[0]->kids[0]->kind == ExprKind::Name) {
        auto it = types_.find(s.targets[0]->kids[0]->str);
        if (it != types_.end() && is_dict(it->second)) hint = dict_value(it->second);
      }
      // `self.d[k] = []`: the dict field's value type (issue 32).
      if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Subscript &&
          s.targets[0]->kids[0]->kind == ExprKind::Attribute) {
        Ty ft = field_type_hint(*s.targets[0]->kids[0]);
        if (is_dict(ft)) hint = dict_value(ft);
      }
      {  // `code, msg = e.args` of a builtin exception: that many arguments (shown_args.h)
        bool names = s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Tuple;
        ArgsUseMark marked(*s.value, names ? ArgsUse::Unpacked : ArgsUse::Value, names ? s.targets[0]->kids.size() : 0);
        vt = value(*s.value, hint);
      }
      if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Tuple && namedtuple_as_display(*s.value, vt))
        vt = value(*s.value, Ty::Error);  // `x, y = p` (namedtuple_classes.h)
      for (auto& t : s.targets) {
        if (t->kind == ExprKind::Tuple)
          unpack(*t, vt, *s.value);
        else
          assign(*t, vt, *s.value);
      }
      return;
    }
    case StmtKind::AnnAssign: {
      Expr& t = *s.targets[0];
      if (t.kind == ExprKind::Attribute && s.value) {  // `self.x: T = v` (the declarer made x a field of type T)
        Ty want = annotation(s.annotation.get());
        Ty vt = value(*s.value, want);
        field_assign(t, vt, *s.value);
        return;
      }
      if (t.kind != ExprKind::Name) {
        error(t.pos, "E1010", "an annotated assignment must name a local variable");
        return;
      }
      if (globals_.count(t.str)) {
        error(t.pos, "E1001", str_cat("annotated name '", t.str, "' can't be global"));
        return;
      }
      Ty want = annotation(s.annotation.get());
      if (want == Ty::Error) return;
      Ty& have = types_[t.str];
      if (have != Ty::Error && have != want) {
        error(s.annotation->pos, "E1030", str_cat("'", t.str, "' already holds ", ty_name(have), "; it cannot be declared ", ty_name(want)));
        return;
      }
      have = want;
      unknown_.erase(t.str);
      note_local(t.str);
      if (s.value) {
        ExprPtr copy = exc_arg_copy(*s.value);
        Ty vt = value(*s.value, want);
        if (vt != Ty::Error)  // `reason: str = e.args[0]` (check_exception_args.cc)
          exc_arg_as(*s.value, copy, vt, want, str_cat("T'", t.str, "' is declared ", ty_name(want), ", not {}"));
        assign(t, vt, *s.value);
      }
      return;
    }
    case StmtKind::AugAssign:
      if (aug_dunder(s)) {  // `v += w` of an object (check_dunder.cc)
        stmt(s);
        return;
      }
      aug_assign(s);
      return;
    case StmtKind::If: {
      condition(*s.value);
      Flow before = flow_;
      narrow(facts(*s.value, true));
      block(s.body);
      Flow after_then = flow_;
      flow_ = before;
      narrow(facts(*s.value, false));
      block(s.orelse);
      flow_ = merge(after_then, flow_);
      return;
    }
    case StmtKind::While: {
      forget_narrowing(s.body);  // the test runs again after the body
      condition(*s.value);
      bool forever = s.value->kind == ExprKind::Bool && s.value->bval;
      Flow before = flow_;
      narrow(facts(*s.value, true));
      loops_.push_back({});
      block(s.body);
      std::vector<Flow> breaks = std::move(loops_.back());
      loops_.pop_back();
      Flow out;
      out.reachable = false;
      if (!forever) {
        out = before;
        flow_ = before;
        narrow(facts(*s.value, false));
        out.not_none = flow_.not_none;
      }
      for (auto& b : breaks) out = merge(out, b);
      flow_ = out;
      return;
    }
    case StmtKind::For:
      for_stmt(s);
      return;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (loops_.empty()) {
        error(s.pos, "E1001", str_cat("'", s.kind == StmtKind::Break ? "break" : "continue", "' outside loop"));
        return;
      }
      if (s.kind == StmtKind::Break && flow_.reachable) loops_.back().push_back(flow_);
      flow_.reachable = false;
      return;
    case StmtKind::Return: {
      if (f_.module_code) {
        error(s.pos, "E1001", "'return' outside function");
        return;
      }
      if (generator_) return generator_return(s);  // lazy sequences
      if (s.value && !(s.value->kind == ExprKind::NoneLit && !is_optional(f_.result))) {
        ExprPtr copy = exc_arg_copy(*s.value);
        // A lambda with no declared type whose body is a call returning None (`lambda:
        // log.append(x)`, `lambda: print("a")`): a Callable[[], None], its body run as a statement.
        bool inferred = f_.closure && f_.result == Ty::Error && s.value->kind == ExprKind::Call;
        Ty t = inferred ? expr(*s.value, Ty::Error, false) : value(*s.value, f_.result);
        if (inferred && t == Ty::None) {
          s.kind = StmtKind::Expr;
          flow_.reachable = false;
          return;
        }
        if (t != Ty::Error)  // `return e.args[0]` of a `-> str` function (check_exception_args.cc)
          exc_arg_as(*s.value, copy, t, f_.result,
                     str_cat("Tfunction '", f_.name, "' returns ", ty_name(f_.result), ", not {}"));
        if (f_.result == Ty::None) {
          error(s.value->pos, "E1050", str_cat("function '", f_.name, "' is declared -> None but returns a value"));
        } else if (t != Ty::Error && f_.result != Ty::Error && !assignable(t, f_.result)) {
          if (!(assignable(optional_inner(t), f_.result) && maybe_none(*s.value)))
            error(s.value->pos, "E1030",
                  str_cat("function '", f_.name, "' returns ", ty_name(f_.result), ", not ", ty_name(t),
                          hint_for(f_.result, t)));
        }
      } else if (f_.result != Ty::None && f_.result != Ty::Error && !is_optional(f_.result)) {
        error(s.pos, "E1050", str_cat("function '", f_.name, "' must return a ", ty_name(f_.result)));
      }
      flow_.reachable = false;
      return;
    }
    case StmtKind::Assert:
      if (gpu_) {
        error(s.pos, "E1100", "assert is not available in GPU code");
        return;
      }
      condition(*s.value);
      if (s.annotation && s.annotation->kind != ExprKind::Str)
        error(s.annotation->pos, "E1010", "an assert message must be a string literal");
      raises();
      narrow(facts(*s.value, true));  // past the assert, its condition holds
      return;
    case StmtKind::Raise:
      raise_stmt(s);
      return;
    case StmtKind::Try:
      try_stmt(s);
      return;
    case StmtKind::Def:
      if (f_.module_code) {
        error(s.pos, "E1010", "a function defined inside a module-level block is outside the ppy subset");
        return;
      }
      nested_def(s);
      return;
    case StmtKind::Nonlocal:  // declared before the body is checked (collect_nonlocals)
      return;
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      error(s.pos, "E1010", f_.module_code ? "an import inside a module-level block is outside the ppy subset"
                                           : "an import inside a function is outside the ppy subset; import at "
                                             "module level");
      return;
  }
}


void BodyChecker::raise_stmt(Stmt& s) {
  if (gpu_) {
    error(s.pos, "E1100", "raise is not available in GPU code");
    return;
  }
  raises();
  flow_.reachable = false;
  if (!s.value) {
    if (handlers_.empty()) error(s.pos, "E1010", "a bare 'raise' outside an except clause is outside the ppy subset");
    return;
  }
  raise_cause(s);
  Expr& v = *s.value;
  Expr* cls = v.kind == ExprKind::Call ? v.kids[0].get() : &v;
  if (cls->kind != ExprKind::Name || types_.count(cls->str) || exc_alias_.count(cls->str) ||
      !is_builtin_exception(cls->str) || m_.classes.count(cls->str)) {
    raise_value(s);  // an instance of an exception class, or `raise e` again (check_exception_class.cc)
    return;
  }
  cls->ref = Ref::Builtin;
  cls->target = cls->str;
  if (v.kind != ExprKind::Call) return;
  if (!v.keywords.empty() || (cls->str == "SystemExit" && v.kids.size() > 2)) {
    error(v.pos, "E1010",
          str_cat(cls->str, v.keywords.empty() ? "() with more than one argument" : "() with keyword arguments",
                  " is outside the ppy subset"));
    return;
  }
  for (size_t i = 1; i < v.kids.size(); ++i) {  // its args (issue 32: several, as e.args keeps them)
    flow_.reachable = true;
    Ty t = value(*v.kids[i], Ty::Error);
    flow_.reachable = false;
    if (t != Ty::Error && t != Ty::Str && t != Ty::Int && t != Ty::Float && t != Ty::Bool)
      error(v.kids[i]->pos, "E1010",
            str_cat("an exception argument of type ", ty_name(t), " is outside the ppy subset"));
  }
}

void BodyChecker::try_stmt(Stmt& s) {
  if (gpu_) {
    error(s.pos, "E1100", "try is not available in GPU code");
    return;
  }
  // A return inside the outlined body leaves its value in a hidden local.
  if (f_.result != Ty::None && f_.result != Ty::Error && !types_.count(".ret")) {
    types_[".ret"] = f_.result;
    note_local(".ret");
  }
  Flow start = flow_;
  ++tries_;
  block(s.body);
  --tries_;
  block(s.orelse);
  Flow out = flow_;
  for (auto& h : s.handlers) {
    flow_ = start;
    flow_.reachable = true;
    forget_narrowing(s.body);
    // Every handler keeps the exception it caught in a hidden local, which a
    // bare `raise` reads, and in its `as` name: an instance of an exception
    // class in a hidden local of its own that the name stands for in the
    // clause (check_exception_class.cc).
    h.local_ty = handler_type(h);
    std::string hidden = str_cat(".exc", h.pos.line, "_", h.pos.col);
    types_[hidden] = Ty::Exc;
    note_local(hidden);
    flow_.assigned.insert(hidden);
    std::string saved_alias;
    if (!h.name.empty() && h.local_ty != Ty::Exc) {
      h.local = str_cat(".", h.name, h.pos.line, "_", h.pos.col);
      types_[h.local] = h.local_ty;
      note_local(h.local);
      flow_.assigned.insert(h.local);
      if (auto a = exc_alias_.find(h.name); a != exc_alias_.end()) saved_alias = a->second;
      exc_alias_[h.name] = h.local;
    } else if (!h.name.empty()) {
      h.local = h.name;
      Ty& have = types_[h.name];
      if (have != Ty::Error && have != Ty::Exc) {
        error(h.name_pos, "E1030", str_cat("'", h.name, "' holds ", ty_name(have), "; it cannot name an exception"));
      } else {
        have = Ty::Exc;
        unknown_.erase(h.name);
        note_local(h.name);
      }
      flow_.assigned.insert(h.name);
    }
    std::optional<std::string> saved_class;
    if (h.local_ty == Ty::Exc && !h.name.empty()) {
      if (auto c = exc_class_.find(h.name); c != exc_class_.end()) saved_class = c->second;
      if (h.classes.size() == 1)
        exc_class_[h.name] = h.classes[0];
      else
        exc_class_.erase(h.name);
    }
    handlers_.push_back(hidden);
    block(h.body);
    handlers_.pop_back();
    if (h.local_ty == Ty::Exc && !h.name.empty()) {
      if (saved_class)
        exc_class_[h.name] = *saved_class;
      else
        exc_class_.erase(h.name);
    }
    if (h.local_ty != Ty::Exc && !h.name.empty()) {
      if (saved_alias.empty())
        exc_alias_.erase(h.name);
      else
        exc_alias_[h.name] = saved_alias;
    }
    // Python deletes the name at the end of the clause.
    if (!h.name.empty()) flow_.assigned.erase(h.name);
    out = merge(out, flow_);
  }
  if (!s.finalbody.empty()) {
    flow_ = start;
    flow_.reachable = true;
    forget_narrowing(s.body);
    for (auto& h : s.handlers) forget_narrowing(h.body);
    forget_narrowing(s.orelse);
    bool was = out.reachable;
    block(s.finalbody);
    if (!flow_.reachable || !was) {
      flow_.reachable = flow_.reachable && was;
    } else {
      for (auto& n : out.assigned) flow_.assigned.insert(n);
    }
    return;
  }
  flow_ = out;
}

std::string BodyChecker::hint_for(Ty want, Ty got) {
  if (want == Ty::Float && (got == Ty::Int || got == Ty::Bool))
    return " (Python keeps an int an int: write a float literal such as 1.0, or float(x))";
  return "";
}

Ty BodyChecker::annotation(const Expr* a) {
  if (!a) return Ty::Error;
  if (auto t = named_type(m_, f_.type_args, *a)) return *t;  // generics: T, an alias (type_alias.cc)
  if (auto c = compound_annotation(
          *a, [&](const Expr& x) { return annotation(&x); },
          [&](Pos p, const char* code, std::string msg) { error(p, code, std::move(msg)); }))
    return *c;
  if (a->kind == ExprKind::Name || a->kind == ExprKind::Str)
    if (auto it = m_.classes.find(a->str); it != m_.classes.end()) return it->second;
  if (a->kind == ExprKind::Name && is_builtin_exception(a->str)) return Ty::Exc;  // issue 32: `errors: list[Exception]`
  if (a->kind == ExprKind::Name) {
    if (a->str == "int") return Ty::Int;
    if (a->str == "float") return Ty::Float;
    if (a->str == "bool") return Ty::Bool;
    if (a->str == "str") return Ty::Str;
  }
  error(a->pos, "E1031", "a local's type must be int, float, bool, str, list[T], a tuple or T | None");
  return Ty::Error;
}

void BodyChecker::assign(Expr& t, Ty vt, const Expr& v) {
  if (!pending_empty_.empty()) {  // a later assignment or store types `x = []` (check_infer.cc)
    if (t.kind == ExprKind::Name && pending_empty_.count(t.str)) settle_empty(t.str, vt, v.pos);
    infer_from_store(t, vt);
  }
  if (t.kind == ExprKind::Name) {
    auto it = types_.find(t.str);
    if (it == types_.end()) return;  // cannot happen: collected
    t.ref = Ref::Local;
    t.target = t.str;
    if (vt == Ty::Error) {
      flow_.assigned.insert(t.str);
      return;
    }
    if (vt == Ty::None || (is_ptr(vt) && !gpu_)) {
      error(v.pos, "E1030", str_cat("cannot store ", vt == Ty::None ? "None" : ty_name(vt), " in a variable"));
      return;
    }
    if (unknown_.count(t.str)) {
      if (is_none_value(vt)) {
        error(v.pos, "E1030",
              str_cat("'", t.str, "' is first given None: declare what else it may hold, `", t.str,
                      ": int | None = None`"));
        it->second = Ty::Error;  // reported once: its reads and later assignments say nothing more
        unknown_.erase(t.str);
        flow_.assigned.insert(t.str);
        return;
      }
      it->second = vt;
      unknown_.erase(t.str);
      note_local(t.str);
      if (is_exc_arg(v)) exc_arg_locals_.insert(t.str);  // `reason = e.args[0]` (check_exception_args.cc)
    } else if (it->second != Ty::Error && !assignable(vt, it->second)) {
      if (!(assignable(optional_inner(vt), it->second) && maybe_none(v)))
        error(v.pos, "E1030",
              str_cat("'", t.str, "' holds ", ty_name(it->second), "; it cannot be given a ", ty_name(vt),
                      hint_for(it->second, vt)));
      return;
    }
    t.ty = it->second;
    after_assign(t.str, it->second, vt);
    flow_.assigned.insert(t.str);
    if (globals_.count(t.str)) {
      check_after_global(t.str, t.pos, true);
      global_effect(true);
    }
    return;
  }
  if (t.kind == ExprKind::Subscript) {
    Ty bt = value(*t.kids[0], Ty::Error);
    if (is_dict(bt) || is_set(bt)) {
      dict_store(t, bt, vt, v);
      return;
    }
    index(*t.kids[1]);
    if (bt == Ty::Error) return;
    if (!is_list(bt)) {
      error(t.pos, "E1030", str_cat("cannot assign through an index of ", ty_name(bt), is_ptr(bt) ? "; use native.store" : ""));
      return;
    }
    t.ty = elem_of(bt);
    mark_deque_index(t);  // IndexError's wording (check_deque.cc)
    if (vt != Ty::Error && !element_fits(vt, t.ty))
      error(v.pos, "E1030", str_cat("cannot store ", ty_name(vt), " in a ", ty_name(bt), hint_for(t.ty, vt)));
    write_through(*t.kids[0], f_, cur_pos_);  // own_writes.h
    raises();
    return;
  }
  if (t.kind == ExprKind::Attribute) {
    field_assign(t, vt, v);
    return;
  }
  error(t.pos, "E1001", "cannot assign to this expression");
}

void BodyChecker::aug_assign(Stmt& s) {
  Expr& t = *s.targets[0];
  if (t.kind != ExprKind::Name && t.kind != ExprKind::Subscript && t.kind != ExprKind::Attribute) {
    error(t.pos, "E1010", "augmented assignment needs a variable, a list element or a field");
    return;
  }
  Ty tt;
  if (t.kind == ExprKind::Attribute) {  // `e.f += v`: e (any expression) is evaluated once (lower_statements.cc)
    tt = value(t, Ty::Error);
    if (tt != Ty::Error) effect("writes");
    if (tt != Ty::Error && is_frozen_class(t.kids[0]->ty)) raises();  // FrozenInstanceError (dataclass_options.h)
  } else if (t.kind == ExprKind::Name) {
    tt = value(t, Ty::Error);
    if (globals_.count(t.str)) global_effect(true);
  } else if (Ty bt = value(*t.kids[0], Ty::Error); is_dict(bt) || is_set(bt)) {  // `d[k] += v`
    Expr none;
    none.kind = ExprKind::Int;
    tt = dict_store(t, bt, Ty::Error, none) ? dict_value(bt) : Ty::Error;
    effect("reads");
    raises();  // KeyError
  } else {
    index(*t.kids[1]);
    if (bt != Ty::Error && !is_list(bt)) {
      error(t.pos, "E1030", str_cat("cannot assign through an index of ", ty_name(bt)));
      return;
    }
    tt = bt == Ty::Error ? Ty::Error : elem_of(bt);
    t.ty = tt;
    mark_deque_index(t);
    effect("reads");
    write_through(*t.kids[0], f_, cur_pos_);  // own_writes.h
    raises();
  }
  Ty vt = value(*s.value, Ty::Error);
  if (tt == Ty::Error || vt == Ty::Error) return;
  if (maybe_none(t) || maybe_none(*s.value)) return;
  if (is_list(tt) || is_list(vt)) {  // `xs += ys` extends xs in place, as Python's list does
    if (s.op != "+" || tt != vt) {
      error(s.pos, "E1010",
            str_cat("'", s.op, "=' of ", ty_name(tt), " and ", ty_name(vt), " is outside the ppy subset"));
      return;
    }
    effect("writes");
    raises();
    return;
  }
  if (tt == Ty::Str || vt == Ty::Str) {  // `s += t`, `s *= n`
    Expr op;
    op.kind = ExprKind::Binary;
    op.pos = s.pos;
    op.str = s.op;
    Ty r = str_binary(op, tt, vt);
    if (r != Ty::Error && r != tt)
      error(s.pos, "E1030", str_cat("'", s.op, "=' would turn a ", ty_name(tt), " into ", ty_name(r), "; a variable keeps one type"));
    return;
  }
  Ty r = arith(s.op, tt, vt, s.pos);
  if (r == Ty::Error) return;
  if (r != tt) {
    error(s.pos, "E1030",
          str_cat("'", s.op, "=' would turn ", t.kind == ExprKind::Name ? str_cat("'", t.str, "'") : std::string("the element"),
                  " from ", ty_name(tt), " into ", ty_name(r), "; a variable keeps one type"));
  }
}

void BodyChecker::for_stmt(Stmt& s) {
  Expr& t = *s.targets[0];
  Expr& it = *s.value;
  if (is_pairs_call(it)) return for_pairs(s);
  if (view_call(it) == 2) return for_items(s);
  Ty var_ty = iter_type(it);
  // `for a, b in pairs`: each tuple unpacked as an assignment unpacks it.
  bool unpacks = t.kind == ExprKind::Tuple && (is_tuple(var_ty) || is_list(var_ty) || var_ty == Ty::Error);
  if (t.kind != ExprKind::Name && !unpacks) {
    error(t.pos, "E1010",
          t.kind == ExprKind::Tuple ? str_cat("a for loop over ", ty_name(var_ty), " values has one variable")
                                    : std::string("a for loop's target must be one variable"));
    return;
  }
  forget_narrowing(s.body);
  Flow before = flow_;
  Expr dummy;
  dummy.kind = ExprKind::Int;
  dummy.pos = t.pos;
  if (unpacks)
    unpack(t, var_ty, dummy);
  else
    assign(t, var_ty, dummy);
  loop_body(s.body, before);
}

void BodyChecker::loop_body(std::vector<StmtPtr>& body, const Flow& before) {
  loops_.push_back({});
  block(body);
  std::vector<Flow> breaks = std::move(loops_.back());
  loops_.pop_back();
  Flow out = before;
  for (auto& b : breaks) out = merge(out, b);
  flow_ = out;
}

Ty BodyChecker::iter_type(Expr& it) {
  Ty var_ty = Ty::Error;
  bool is_range = it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name && it.kids[0]->str == "range" &&
                  !types_.count("range") && !m_.func_index.count("range");
  if (is_range) {
    it.ref = Ref::Builtin;
    it.target = "range";
    size_t n = it.kids.size() - 1;
    if (n < 1 || n > 3 || !it.keywords.empty()) {
      error(it.pos, "E1032", "range() takes 1 to 3 positional arguments");
    }
    for (size_t i = 1; i < it.kids.size(); ++i) {
      Ty a = value(*it.kids[i], Ty::Int);
      if (a != Ty::Error && a != Ty::Int && a != Ty::Bool)
        error(it.kids[i]->pos, "E1030", str_cat("range() takes int arguments, not ", ty_name(a)));
    }
    if (n == 3) {
      const Expr& st = *it.kids[3];
      bool const_step = st.kind == ExprKind::Int ||
                        (st.kind == ExprKind::Unary && st.str == "-" && st.kids[0]->kind == ExprKind::Int);
      if (!const_step) raises();
      if (st.kind == ExprKind::Int && st.ival == 0) error(st.pos, "E1030", "range() arg 3 must not be zero");
    }
    raises();  // the counter's increment is checked
    var_ty = Ty::Int;
  } else {
    views_ok_ = view_call(it) == 1;
    lazy_ok_.insert(&it);  // a generator expression, zip(...), enumerate(...), reversed(...)
    // `for x in (a, b, c):` walks the elements as the list display of them does (its elements of one type).
    if (it.kind == ExprKind::Tuple && !it.kids.empty()) it.kind = ExprKind::List;
    Ty lt = value(it, Ty::Error);
    if (iterable_object(it)) lt = value(it, Ty::Error);  // lazy sequences: a class whose __iter__ yields
    if (tuple_as_list(it, lt)) lt = value(it, Ty::Error);  // `for dr, dc in DIRECTIONS` (tuple_as_list.h)
    views_ok_ = 0;
    if (is_iterator(lt)) {  // a generator: what its body does happens at each step
      for (const char* fx : {"io", "reads", "writes"}) effect(fx);
      raises();
      return iterator_elem(lt);
    }
    if (lt == Ty::File) {  // io (issue 33): a stream's lines (lower_io.cc, for_lines)
      raises();
      effect("io");
      return Ty::Str;
    }
    if (is_dict(lt) || is_set(lt) || (view_call(it) == 1 && is_list(lt))) {
      raises();  // RuntimeError when the table changes size
      effect("reads");
      return is_list(lt) ? list_elem(lt) : key_of(lt);
    }
    if (lt != Ty::Error && !is_list(lt) && lt != Ty::Str) {
      error(it.pos, "E1010",
            str_cat("a for loop runs over range(...), a list, a str, a dict or a set, not ", ty_name(lt)));
      lt = Ty::Error;
    }
    if (lt == Ty::Str) {
      var_ty = Ty::Str;
    } else if (lt != Ty::Error) {
      var_ty = elem_of(lt);
      effect("reads");
    }
  }
  return var_ty;
}

}  // namespace ppy::frontend::checking
