// Generators kept in a plain function's locals (generator_close.h, close_dropped_locals): python3
// closes such a generator when its last reference goes, which for one that never left the function
// is when its variable is rebound or the function's frame goes. A local qualifies when every binding
// of it is `v = g(...)` of a generator with something to run when closed and every read hands it
// to what walks it without keeping it (`for`, `next`, `close`, a consuming builtin, `"".join`).
#include <map>

#include "expr_build.h"
#include "generator_close.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

/// The hidden bool saying a local holds a generator (so the close at a rebinding or the end reads it).
std::string held_flag(const std::string& v) { return str_cat("_ppy_gk_", v); }

const std::string* called_generator(const Expr& e, const std::map<std::string, const Expr*>& gens) {
  if (e.kind != ExprKind::Call || e.kids[0]->kind != ExprKind::Name) return nullptr;
  auto g = gens.find(e.kids[0]->str);
  return g == gens.end() ? nullptr : &g->first;
}

/// The builtins that walk an iterable argument and keep nothing of it once they return.
bool consumes(const std::string& f) {
  static const char* const kNames[] = {"list", "tuple", "set", "frozenset", "sorted", "sum", "min",
                                       "max",  "any",   "all", "dict",      "next"};
  for (const char* n : kNames)
    if (f == n) return true;
  return false;
}

/// The locals of a function, each with whether it still qualifies and the generator its first
/// binding calls.
struct Candidates {
  std::map<std::string, bool> ok;
  std::vector<std::string> order;  ///< by first binding: python3 clears a frame's locals in this order
  std::map<std::string, std::string> gen;
  void bind(const std::string& v, const std::string* g) {
    if (!ok.count(v)) {
      ok[v] = g != nullptr;
      order.push_back(v);
      if (g) gen[v] = *g;
    } else if (!g) {
      ok[v] = false;
    }
  }
  void spoil(const std::string& v) { ok[v] = false; }
};

void spoil_targets(const Expr& t, Candidates& c) {
  if (t.kind == ExprKind::Name) c.spoil(t.str);
  for (auto& k : t.kids)
    if (k) spoil_targets(*k, c);
}

/// Every name `e` reads; `kept` says whether a bare name here would be kept past the read.
void reads(const Expr& e, bool kept, Candidates& c);

void reads_kids(const Expr& e, Candidates& c) {
  for (auto& k : e.kids)
    if (k) reads(*k, true, c);
  for (auto& k : e.keywords)
    if (k.value) reads(*k.value, true, c);
}

void reads(const Expr& e, bool kept, Candidates& c) {
  switch (e.kind) {
    case ExprKind::Name:
      if (kept) c.spoil(e.str);
      return;
    case ExprKind::Lambda:  // a closure keeps what it reads
      spoil_targets(e, c);
      return;
    case ExprKind::Call: {
      const Expr& f = *e.kids[0];
      bool walks = (f.kind == ExprKind::Name && consumes(f.str)) ||
                   (f.kind == ExprKind::Attribute && f.str == "join" && e.kids.size() == 2);
      if (f.kind == ExprKind::Attribute && f.str == "close" && e.kids.size() == 1 &&
          f.kids[0]->kind == ExprKind::Name)
        return;  // `v.close()`
      if (f.kind == ExprKind::Attribute)
        reads(*f.kids[0], true, c);
      else
        reads(f, true, c);
      for (size_t i = 1; i < e.kids.size(); ++i) reads(*e.kids[i], !(walks && i == 1), c);
      for (auto& k : e.keywords)
        if (k.value) reads(*k.value, true, c);
      return;
    }
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::DictComp:
      // A comprehension walks its first iterable at once; a generator expression only where it
      // is consumed at once itself.
      for (size_t i = 0; i < e.kids.size(); ++i)
        if (e.kids[i]) reads(*e.kids[i], i != 1 || (is_genexp(e) && kept), c);
      return;
    default:
      reads_kids(e, c);
  }
}

/// A for loop's iterable: the loop walks it, as `zip` and `enumerate` there walk theirs.
void walked(const Expr& it, Candidates& c) {
  if (it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name &&
      (it.kids[0]->str == "zip" || it.kids[0]->str == "enumerate")) {
    for (size_t i = 1; i < it.kids.size(); ++i) reads(*it.kids[i], false, c);
    for (auto& k : it.keywords) reads(*k.value, true, c);
    return;
  }
  reads(it, false, c);
}

void scan(const std::vector<StmtPtr>& body, const std::map<std::string, const Expr*>& gens, Candidates& c);

/// Every name a nested def mentions leaves with it.
void spoil_all(const std::vector<StmtPtr>& body, Candidates& c) {
  for (auto& s : body) {
    for (auto& t : s->targets) spoil_targets(*t, c);
    if (s->value) spoil_targets(*s->value, c);
    if (s->def)
      for (auto& n : s->def->params)
        if (n.default_value) spoil_targets(*n.default_value, c);
    for (auto& n : s->names) c.spoil(n.name);
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { spoil_all(b, c); });
    if (s->def) spoil_all(s->def->body, c);
  }
}

void scan(const std::vector<StmtPtr>& body, const std::map<std::string, const Expr*>& gens, Candidates& c) {
  for (auto& s : body) {
    switch (s->kind) {
      case StmtKind::Def:
      case StmtKind::Class:
        if (s->def) {
          c.spoil(s->def->name);
          spoil_all(s->def->body, c);
          for (auto& p : s->def->params)
            if (p.default_value) reads(*p.default_value, true, c);
        }
        continue;
      case StmtKind::Assign:
        if (s->targets.size() == 1 && s->targets[0]->kind == ExprKind::Name) {
          const std::string* g = called_generator(*s->value, gens);
          c.bind(s->targets[0]->str, g);
          if (g) reads_kids(*s->value, c);
          else reads(*s->value, true, c);
          continue;
        }
        for (auto& t : s->targets) spoil_targets(*t, c);
        reads(*s->value, true, c);
        continue;
      case StmtKind::AnnAssign:
      case StmtKind::AugAssign:
        for (auto& t : s->targets) spoil_targets(*t, c);
        if (s->value) reads(*s->value, true, c);
        continue;
      case StmtKind::For:
        for (auto& t : s->targets) spoil_targets(*t, c);
        walked(*s->value, c);
        break;
      case StmtKind::Expr:
        // A statement's value is dropped; `next(v)` as a statement is a step.
        reads(*s->value, s->value->kind != ExprKind::Call, c);
        break;
      default:
        for (auto& t : s->targets) spoil_targets(*t, c);
        if (s->value) reads(*s->value, true, c);
        if (s->annotation) reads(*s->annotation, true, c);
        for (auto& n : s->names) c.spoil(n.name);
    }
    for (auto& h : s->handlers)
      if (!h.name.empty()) c.spoil(h.name);
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { scan(b, gens, c); });
  }
}

/// `v.close()`, read where the code guards it by the held flag (so not a read before assignment).
StmtPtr close_if_held(const std::string& v, Pos p) {
  StmtPtr s = build::stmt(StmtKind::If, p);
  s->value = build::name(held_flag(v), p);
  std::vector<ExprPtr> kids;
  kids.push_back(build::name(v, p));
  kids.back()->bval = true;  // a guarded read (BodyChecker::name)
  s->body.push_back(
      build::expr_stmt(build::call(build::with_kids(ExprKind::Attribute, p, std::move(kids), "close"), {}, p), p));
  return s;
}

/// Each `v = g(...)` of a qualifying local: `_ppy_gt_v = g(...)`, the old one closed, `v = _ppy_gt_v`.
void rebind(std::vector<StmtPtr>& body, const std::set<std::string>& held) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
      out.push_back(std::move(s));
      continue;
    }
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { rebind(const_cast<std::vector<StmtPtr>&>(b), held); });
    if (s->kind != StmtKind::Assign || s->targets.size() != 1 || s->targets[0]->kind != ExprKind::Name ||
        !held.count(s->targets[0]->str)) {
      out.push_back(std::move(s));
      continue;
    }
    Pos p = s->pos;
    std::string v = s->targets[0]->str;
    std::string tmp = str_cat("_ppy_gt_", v);
    out.push_back(build::assign(tmp, std::move(s->value), p));
    out.push_back(close_if_held(v, p));
    s->value = build::name(tmp, p);
    out.push_back(std::move(s));
    out.push_back(build::assign(held_flag(v), build::bool_lit(true, p), p));
  }
  body = std::move(out);
}

/// A name, a literal, or an f-string of those: made earlier, it gives the same and does nothing.
bool inert(const Expr& e) {
  if (e.kind == ExprKind::FString || e.kind == ExprKind::FField) {
    for (auto& k : e.kids)
      if (k && !inert(*k)) return false;
    return true;
  }
  return e.kind == ExprKind::Name || e.kind == ExprKind::Int || e.kind == ExprKind::Str ||
         e.kind == ExprKind::Float || e.kind == ExprKind::Bool || e.kind == ExprKind::NoneLit;
}

/// The generator calls of `e` that a consumer walks through a generator expression
/// (`sum(f(x) for x in gen(a))`), their arguments inert (made earlier, they do the same).
void consumed_calls(Expr& e, const std::map<std::string, const Expr*>& gens, std::vector<ExprPtr*>& out) {
  if (e.kind == ExprKind::Lambda) return;
  if (e.kind == ExprKind::Call && e.kids.size() == 2 && e.keywords.empty()) {
    const Expr& f = *e.kids[0];
    bool walks = (f.kind == ExprKind::Name && consumes(f.str) && f.str != "next") ||
                 (f.kind == ExprKind::Attribute && f.str == "join");
    Expr& a = *e.kids[1];
    if (walks && is_genexp(a) && called_generator(*a.kids[1], gens)) {
      bool ok = a.kids[1]->keywords.empty();
      for (size_t k = 1; k < a.kids[1]->kids.size(); ++k) ok = ok && inert(*a.kids[1]->kids[k]);
      if (ok) out.push_back(&a.kids[1]);
    }
  }
  for (auto& k : e.kids)
    if (k) consumed_calls(*k, gens, out);
}

/// The simple statements of a try's body (not inside a nested try or def): each generator call a
/// consumer walks is made first into `_ppy_gx<line>_<col>` (with its held flag), noted in `made`.
void hoist_consumed(std::vector<StmtPtr>& body, const std::map<std::string, const Expr*>& gens,
                    std::vector<std::pair<std::string, std::string>>& made) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    bool simple = s->kind == StmtKind::Expr || s->kind == StmtKind::Assign || s->kind == StmtKind::AugAssign ||
                  s->kind == StmtKind::AnnAssign || s->kind == StmtKind::Return;
    if (!simple) {
      if (s->kind != StmtKind::Try && s->kind != StmtKind::Def && s->kind != StmtKind::Class)
        for_each_suite(*s, [&](const std::vector<StmtPtr>& b) {
          hoist_consumed(const_cast<std::vector<StmtPtr>&>(b), gens, made);
        });
      out.push_back(std::move(s));
      continue;
    }
    std::vector<ExprPtr*> calls;
    if (s->value) consumed_calls(*s->value, gens, calls);
    for (ExprPtr* c : calls) {
      Pos p = (*c)->pos;
      std::string g = str_cat("_ppy_gx", p.line, "_", p.col);
      made.emplace_back(g, (*c)->kids[0]->str);
      out.push_back(build::assign(g, std::move(*c), p));
      out.push_back(build::assign(held_flag(g), build::bool_lit(true, p), p));
      *c = build::name(g, p);
    }
    out.push_back(std::move(s));
  }
  body = std::move(out);
}

void close_consumed(std::vector<StmtPtr>& body, const std::map<std::string, const Expr*>& gens) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
      out.push_back(std::move(s));
      continue;
    }
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { close_consumed(const_cast<std::vector<StmtPtr>&>(b), gens); });
    std::vector<std::pair<std::string, std::string>> made;
    if (s->kind == StmtKind::Try && !s->handlers.empty()) hoist_consumed(s->body, gens, made);
    std::vector<StmtPtr> closes;
    for (auto& [g, gen] : made) {
      Pos p = s->pos;
      StmtPtr decl = build::stmt(StmtKind::AnnAssign, p);
      decl->targets.push_back(build::name(g, p));
      decl->annotation = build::clone(*gens.at(gen));
      out.push_back(std::move(decl));
      out.push_back(build::assign(held_flag(g), build::bool_lit(false, p), p));
      closes.push_back(close_if_held(g, p));
    }
    // After the handler (python3 frees the generator expression's frame with the exception's
    // traceback as the handler ends), before the try's own finally.
    s->finalbody.insert(s->finalbody.begin(), std::make_move_iterator(closes.begin()),
                        std::make_move_iterator(closes.end()));
    out.push_back(std::move(s));
  }
  body = std::move(out);
}

}  // namespace

void close_consumed_in_tries(FuncDef& def, const std::map<std::string, const Expr*>& gens) {
  if (!gens.empty()) close_consumed(def.body, gens);
}

void close_dropped_locals(FuncDef& def, const std::map<std::string, const Expr*>& gens) {
  if (gens.empty()) return;
  std::vector<StmtPtr>& body = def.body;
  Candidates c;
  for (auto& p : def.params) c.spoil(p.name);
  scan(body, gens, c);  // a nested def's names are spoiled: what a closure reads stays as it is
  std::vector<std::string> held;
  for (auto& v : c.order)
    if (c.ok[v] && !v.starts_with("_ppy_")) held.push_back(v);
  if (held.empty()) return;
  rebind(body, std::set<std::string>(held.begin(), held.end()));
  Pos p = body.empty() ? Pos{} : body[0]->pos;
  StmtPtr t = build::stmt(StmtKind::Try, p);
  std::vector<StmtPtr> head;  // `global` and `nonlocal` stay first
  for (auto& s : body) (s->kind == StmtKind::Global || s->kind == StmtKind::Nonlocal ? head : t->body).push_back(std::move(s));
  body = std::move(head);
  for (auto& v : held) {
    StmtPtr decl = build::stmt(StmtKind::AnnAssign, p);  // `v: T`, T the generator's own annotation
    decl->targets.push_back(build::name(v, p));
    decl->annotation = build::clone(*gens.at(c.gen[v]));
    body.push_back(std::move(decl));
    body.push_back(build::assign(held_flag(v), build::bool_lit(false, p), p));
    t->finalbody.push_back(close_if_held(v, p));
  }
  body.push_back(std::move(t));
}

}  // namespace ppy::frontend
