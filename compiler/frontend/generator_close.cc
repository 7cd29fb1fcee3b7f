// Generators closed before they are exhausted (generator_close.h). A close is a resume that
// returns at once: the check after each yield sees the flag close() set and returns, and a return
// leaving a split try runs its `finally` (generator_try.cc), so the finally clauses around the
// waiting yield run innermost first, as python3's GeneratorExit runs them; except clauses do not
// catch it (they name Exception's subclasses; GeneratorExit is not one).
#include "generator_close.h"

#include <map>

#include "expr_build.h"
#include "generator_try.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

bool finally_yields(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    if (s->kind == StmtKind::Try && !s->finalbody.empty() && yields_in(s->body)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || finally_yields(b); });
    if (inner) return true;
  }
  return false;
}

/// Whether a handler catches python3's GeneratorExit: `except GeneratorExit`, `except BaseException`, a bare except.
bool catches_close(const Handler& h) {
  if (h.classes.empty()) return true;
  for (auto& c : h.classes)
    if (c == "GeneratorExit" || c == "BaseException") return true;
  return false;
}

/// Whether a try whose body yields has a handler that sees the generator closed.
bool handler_sees_close(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    if (s->kind == StmtKind::Try && yields_in(s->body))
      for (auto& h : s->handlers)
        if (catches_close(h)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || handler_sees_close(b); });
    if (inner) return true;
  }
  return false;
}

/// `if _ppy_gclose: return`, or `raise GeneratorExit` where a handler sees it.
StmtPtr close_check(Pos p, bool raises) {
  StmtPtr s = build::stmt(StmtKind::If, p);
  s->value = build::name(kGeneratorClosing, p);
  StmtPtr leave = build::stmt(raises ? StmtKind::Raise : StmtKind::Return, p);
  if (raises) leave->value = build::name("GeneratorExit", p);
  s->body.push_back(std::move(leave));
  return s;
}

void checks_after_yields(std::vector<StmtPtr>& body, int& n, bool raises) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
      out.push_back(std::move(s));
      continue;
    }
    for_each_suite(
        *s, [&](const std::vector<StmtPtr>& b) { checks_after_yields(const_cast<std::vector<StmtPtr>&>(b), n, raises); });
    bool is_y = s->kind == StmtKind::Expr && s->value && is_yield(*s->value);
    if (is_y && s->value->ival) {  // `yield from it`: `for v in it: yield v` then the check, at each value
      Pos p = s->pos;
      std::string v = str_cat("_ppy_gy", ++n);
      StmtPtr loop = build::stmt(StmtKind::For, p);
      loop->targets.push_back(build::name(v, p));
      loop->value = std::move(s->value->kids[1]);
      std::vector<ExprPtr> arg;
      arg.push_back(build::name(v, p));
      loop->body.push_back(build::expr_stmt(build::call(build::name("yield", p), std::move(arg), p), p));
      loop->body.push_back(close_check(p, raises));
      out.push_back(std::move(loop));
      continue;
    }
    Pos p = s->pos;
    out.push_back(std::move(s));
    if (is_y) out.push_back(close_check(p, raises));
  }
  body = std::move(out);
}

bool calls_one_of(const Expr& it, const std::set<std::string>& closing) {
  return it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name && closing.count(it.kids[0]->str);
}

/// The arguments of a loop's `zip(...)` / `enumerate(...)` that call one of `closing`, up to the
/// first other argument that could do anything (not a name nor a literal), when the loop has no
/// `else` (taken out, they are made before what comes before them).
std::vector<size_t> zipped_generators(const Stmt& loop, const std::set<std::string>& closing) {
  const Expr& it = *loop.value;
  std::vector<size_t> out;
  if (!loop.orelse.empty() || it.kind != ExprKind::Call || it.kids[0]->kind != ExprKind::Name ||
      (it.kids[0]->str != "zip" && it.kids[0]->str != "enumerate") || !it.keywords.empty())
    return out;
  for (size_t k = 1; k < it.kids.size(); ++k) {
    const Expr& a = *it.kids[k];
    if (calls_one_of(a, closing)) {
      out.push_back(k);
      continue;
    }
    bool inert = a.kind == ExprKind::Name || a.kind == ExprKind::Int || a.kind == ExprKind::Str ||
                 a.kind == ExprKind::Float || a.kind == ExprKind::Bool;
    if (!inert) return out;  // a generator after it is made after it
  }
  return out;
}

bool yields_from(const Stmt& s, const std::set<std::string>& closing) {
  return s.kind == StmtKind::Expr && s.value && is_yield(*s.value) && s.value->ival &&
         calls_one_of(*s.value->kids[1], closing);
}

/// Whether `body` has a loop over a call of one of `closing` that yields, or a `yield from` of one.
bool yields_over(const std::vector<StmtPtr>& body, const std::set<std::string>& closing) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    if (s->kind == StmtKind::For && s->value &&
        (calls_one_of(*s->value, closing) || !zipped_generators(*s, closing).empty()) && yields_in(s->body))
      return true;
    if (yields_from(*s, closing)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || yields_over(b, closing); });
    if (inner) return true;
  }
  return false;
}

/// The generator functions nested (at any depth of its statements) in a function's body, by name.
void nested_generators(const std::vector<StmtPtr>& body, std::map<std::string, const FuncDef*>& out) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def && s->def) {
      if (yields_in(s->def->body)) out[s->def->name] = s->def.get();
      continue;
    }
    if (s->kind == StmtKind::Class) continue;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { nested_generators(b, out); });
  }
}

/// Whether every `return` of `body` (nested defs apart) returns a call `fresh` accepts; `any` counts them.
bool returns_only(const std::vector<StmtPtr>& body, const std::function<bool(const Expr&)>& fresh, int& any) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    if (s->kind == StmtKind::Return) {
      if (!s->value || !fresh(*s->value)) return false;
      ++any;
    }
    bool ok = true;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { ok = ok && returns_only(b, fresh, any); });
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool returns_new_generator(const FuncDef& def, const std::function<bool(const std::string&)>& is_gen,
                           bool closing_only) {
  if (yields_in(def.body)) return false;
  std::map<std::string, const FuncDef*> nested;
  nested_generators(def.body, nested);
  auto fresh = [&](const Expr& e) {
    if (e.kind != ExprKind::Call || e.kids[0]->kind != ExprKind::Name) return false;
    auto n = nested.find(e.kids[0]->str);
    if (n != nested.end()) return !closing_only || closes_on_abandon(n->second->body);
    return is_gen(e.kids[0]->str);
  };
  int any = 0;
  return returns_only(def.body, fresh, any) && any > 0;
}

std::set<std::string> closing_generators(const std::vector<std::pair<std::string, const std::vector<StmtPtr>*>>& gens,
                                         const std::vector<std::pair<std::string, const FuncDef*>>& plain) {
  std::set<std::string> out;
  auto closing = [&](const std::string& n) { return out.count(n) > 0; };
  for (bool more = true; more;) {
    more = false;
    for (auto& [name, body] : gens)
      if (!out.count(name) && (closes_on_abandon(*body) || yields_over(*body, out))) more = out.insert(name).second;
    for (auto& [name, def] : plain)
      if (!out.count(name) && returns_new_generator(*def, closing, true)) more = out.insert(name).second;
  }
  return out;
}

void add_close_points(std::vector<StmtPtr>& body, const std::set<std::string>& closing) {
  bool raises = handler_sees_close(body);
  bool from = yields_over(body, closing);  // its loops over closing generators are closed below
  if (!raises && !from && !finally_yields(body)) return;
  int n = 0;
  checks_after_yields(body, n, raises);
  Pos p = body.empty() ? Pos{} : body[0]->pos;
  if (raises) {  // `try: BODY except GeneratorExit: return`: what no handler keeps ends the close
    StmtPtr t = build::stmt(StmtKind::Try, p);
    t->body = std::move(body);
    Handler h;
    h.pos = p;
    h.classes.push_back("GeneratorExit");
    h.body.push_back(build::stmt(StmtKind::Return, p));
    t->handlers.push_back(std::move(h));
    body.clear();
    body.push_back(std::move(t));
  }
  body.insert(body.begin(), build::assign(kGeneratorClosing, build::bool_lit(false, p), p));
  if (from) close_abandoned_loops(body, closing);  // the loops `yield from` became
}

bool closes_on_abandon(const std::vector<StmtPtr>& body) {
  if (!body.empty() && body[0]->kind == StmtKind::Assign && body[0]->targets.size() == 1 &&
      body[0]->targets[0]->kind == ExprKind::Name && body[0]->targets[0]->str == kGeneratorClosing)
    return true;
  return finally_yields(body) || handler_sees_close(body);
}

void close_abandoned_loops(std::vector<StmtPtr>& body, const std::set<std::string>& closing) {
  if (closing.empty()) return;
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
      out.push_back(std::move(s));
      continue;
    }
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) {
      close_abandoned_loops(const_cast<std::vector<StmtPtr>&>(b), closing);
    });
    if (s->kind != StmtKind::For || !s->value) {
      out.push_back(std::move(s));
      continue;
    }
    Pos p = s->pos;
    std::vector<std::string> made;  // the generators the loop's finally closes, in order
    if (calls_one_of(*s->value, closing)) {
      made.push_back(str_cat("_ppy_gc", p.line, "_", p.col));  // a name apart for each loop
      out.push_back(build::assign(made.back(), std::move(s->value), p));
      s->value = build::name(made.back(), p);
    } else {
      // `for a, b in zip(g(...), xs)`: the zip's generators, taken out first (when what comes
      // before them in the call has no effect), so an exception leaving the loop closes them
      // too, as python3's zip object drops them there.
      for (size_t k : zipped_generators(*s, closing)) {
        made.push_back(str_cat("_ppy_gc", p.line, "_", p.col, "_", k));
        out.push_back(build::assign(made.back(), std::move(s->value->kids[k]), p));
        s->value->kids[k] = build::name(made.back(), p);
      }
    }
    if (made.empty()) {
      out.push_back(std::move(s));
      continue;
    }
    StmtPtr t = build::stmt(StmtKind::Try, p);
    t->body.push_back(std::move(s));
    for (auto& g : made) {
      std::vector<ExprPtr> kids;
      kids.push_back(build::name(g, p));
      t->finalbody.push_back(
          build::expr_stmt(build::call(build::with_kids(ExprKind::Attribute, p, std::move(kids), "close"), {}, p), p));
    }
    out.push_back(std::move(t));
  }
  body = std::move(out);
}

}  // namespace ppy::frontend
