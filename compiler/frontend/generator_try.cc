// Generators, `yield` inside `try` (and so inside `with`, which the parser writes as try/finally;
// docs/runtime.md, "Generators"). A try body is outlined into a function of its own, which a yield
// cannot leave and re-enter, so the body of a try that yields is split at its yields: each run of
// statements between two yields is a try of its own, and the yields (and the loops and ifs holding
// them) stay outside every try. What the split statement means is kept with flags, hidden locals
// the generator's frame holds like any other:
//
//   try:                              _gf1 = False
//       a                             try:
//       yield x                           a
//       b                                 _gf1 = True
//   finally:                          finally:
//       f                                 if _gf1: pass
//                                         else: f          (an exception or a return leaves: f runs)
//                                     yield x
//                                     ... b the same ...
//                                     f                    (the end: f runs)
//
// With except clauses, each run catches as the whole body did; a handler sets `_gh<n>` (handled)
// first, and everything after the run (in its list, and after each enclosing loop of the try's body)
// runs only while nothing was handled; the try's `else` runs at the end when nothing was. A `break`
// or `continue` in a run that goes to a loop inside the try's body marks the run as left normally.
// `yield e` of anything but a name or a constant yields a hidden local set inside a run, so what
// raises while making the value is caught as in Python. Left as it is (and refused by the checker):
// a yield in an except clause, `else` or `finally`.
#include "generator_try.h"

#include "expr_build.h"
#include "generics.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {

bool stmt_yields(const Stmt& s) {
  if (s.kind == StmtKind::Def || s.kind == StmtKind::Class) return false;
  if (s.kind == StmtKind::Expr && s.value && is_yield(*s.value)) return true;
  bool inner = false;
  for_each_suite(s, [&](const std::vector<StmtPtr>& b) { inner = inner || yields_in(b); });
  return inner;
}

bool yields_in(const std::vector<StmtPtr>& body) {
  for (auto& s : body)
    if (stmt_yields(*s)) return true;
  return false;
}

namespace {

/// `if flag: then` / `else: otherwise`.
StmtPtr if_flag(const std::string& flag, std::vector<StmtPtr> then, std::vector<StmtPtr> otherwise, Pos p) {
  StmtPtr s = build::stmt(StmtKind::If, p);
  s->value = build::name(flag, p);
  if (then.empty()) then.push_back(build::stmt(StmtKind::Pass, p));
  s->body = std::move(then);
  s->orelse = std::move(otherwise);
  return s;
}

/// Puts `flag = True` before each break and continue of `body` that leaves no loop of `body` itself.
void mark_exits(std::vector<StmtPtr>& body, const std::string& flag) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue)
      out.push_back(build::assign(flag, build::bool_lit(true, s->pos), s->pos));
    if (s->kind != StmtKind::For && s->kind != StmtKind::While && s->kind != StmtKind::Def &&
        s->kind != StmtKind::Class) {
      mark_exits(s->body, flag);
      mark_exits(s->orelse, flag);
      for (auto& h : s->handlers) mark_exits(h.body, flag);
      mark_exits(s->finalbody, flag);
    }
    out.push_back(std::move(s));
  }
  body = std::move(out);
}

bool has_exit(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue) return true;
    if (s->kind == StmtKind::For || s->kind == StmtKind::While || s->kind == StmtKind::Def) continue;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || has_exit(b); });
    if (inner) return true;
  }
  return false;
}

bool loop_yields(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if ((s->kind == StmtKind::For || s->kind == StmtKind::While) && stmt_yields(*s)) return true;
    if (s->kind != StmtKind::Def && s->kind != StmtKind::Class) {
      bool inner = false;
      for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || loop_yields(b); });
      if (inner) return true;
    }
  }
  return false;
}

class Splitter {
 public:
  void body(std::vector<StmtPtr>& b) {
    std::vector<StmtPtr> out;
    for (auto& s : b) {
      if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
        out.push_back(std::move(s));
        continue;
      }
      for_each_suite(*s, [&](const std::vector<StmtPtr>& suite) { body(const_cast<std::vector<StmtPtr>&>(suite)); });
      if (s->kind == StmtKind::Try && splittable(*s)) {
        for (auto& x : split(*s)) out.push_back(std::move(x));
      } else {
        out.push_back(std::move(s));
      }
    }
    b = std::move(out);
  }

 private:
  int n_ = 0;

  static bool splittable(const Stmt& t) {
    if (!yields_in(t.body) || yields_in(t.orelse) || yields_in(t.finalbody)) return false;
    for (auto& h : t.handlers)
      if (yields_in(h.body) || (has_exit(h.body) && loop_yields(t.body))) return false;
    return true;
  }

  /// `yield e` of an expression that may raise: `_gv<n> = e` before it, `yield _gv<n>`.
  void yield_values(std::vector<StmtPtr>& body) {
    std::vector<StmtPtr> out;
    for (auto& s : body) {
      if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
        out.push_back(std::move(s));
        continue;
      }
      if (s->kind == StmtKind::Expr && s->value && is_yield(*s->value) && !s->value->ival) {
        ExprPtr& v = s->value->kids[1];
        bool plain = v->kind == ExprKind::Name || v->kind == ExprKind::Int || v->kind == ExprKind::Str ||
                     v->kind == ExprKind::Float || v->kind == ExprKind::Bool || v->kind == ExprKind::NoneLit;
        if (!plain) {
          std::string t = str_cat("_ppy_gv", ++n_);
          Pos p = v->pos;
          out.push_back(build::assign(t, std::move(v), p));
          v = build::name(t, p);
        }
      }
      for_each_suite(
          *s, [&](const std::vector<StmtPtr>& suite) { yield_values(const_cast<std::vector<StmtPtr>&>(suite)); });
      out.push_back(std::move(s));
    }
    body = std::move(out);
  }

  std::vector<StmtPtr> split(Stmt& t) {
    Pos p = t.pos;
    std::vector<StmtPtr> stmts = std::move(t.body);
    yield_values(stmts);
    if (!t.handlers.empty()) {
      std::string flag = str_cat("_ppy_gh", ++n_);
      std::vector<StmtPtr> out;
      out.push_back(build::assign(flag, build::bool_lit(false, p), p));
      for (auto& x : caught(stmts, t, flag, false)) out.push_back(std::move(x));
      if (!t.orelse.empty()) out.push_back(if_flag(flag, {}, std::move(t.orelse), p));
      stmts = std::move(out);
    }
    if (!t.finalbody.empty()) {
      std::string flag = str_cat("_ppy_gf", ++n_);
      std::vector<StmtPtr> out = finally(stmts, t.finalbody, flag, false);
      for (auto& x : checking::clone_body(t.finalbody)) out.push_back(std::move(x));
      stmts = std::move(out);
    }
    return stmts;
  }

  /// The runs of `list` in tries with `t`'s except clauses (each first setting `flag`), what
  /// follows a run only while `flag` is false.
  std::vector<StmtPtr> caught(std::vector<StmtPtr>& list, Stmt& t, const std::string& flag, bool in_loop) {
    std::vector<StmtPtr> out;
    size_t i = 0, n = list.size();
    auto guard_rest = [&](size_t from) {
      if (from >= n) return;
      std::vector<StmtPtr> rest;
      for (size_t k = from; k < n; ++k) rest.push_back(std::move(list[k]));
      std::vector<StmtPtr> done = caught(rest, t, flag, in_loop);
      Pos p = done.empty() ? t.pos : done[0]->pos;
      if (in_loop) {
        std::vector<StmtPtr> leave;
        leave.push_back(build::stmt(StmtKind::Break, p));
        out.push_back(if_flag(flag, std::move(leave), {}, p));
        for (auto& x : done) out.push_back(std::move(x));
      } else {
        out.push_back(if_flag(flag, {}, std::move(done), p));
      }
    };
    while (i < n) {
      if (!stmt_yields(*list[i])) {
        StmtPtr run = build::stmt(StmtKind::Try, list[i]->pos);
        while (i < n && !stmt_yields(*list[i])) run->body.push_back(std::move(list[i++]));
        for (auto& h : t.handlers) {
          Handler c = checking::clone_handler(h);
          c.body.insert(c.body.begin(), build::assign(flag, build::bool_lit(true, h.pos), h.pos));
          run->handlers.push_back(std::move(c));
        }
        out.push_back(std::move(run));
        guard_rest(i);
        return out;
      }
      StmtPtr s = std::move(list[i++]);
      if (s->kind == StmtKind::Expr) {  // the yield
        out.push_back(std::move(s));
        continue;
      }
      bool loop = s->kind == StmtKind::For || s->kind == StmtKind::While;
      s->body = caught(s->body, t, flag, in_loop || loop);
      s->orelse = caught(s->orelse, t, flag, in_loop);
      out.push_back(std::move(s));
      guard_rest(i);
      return out;
    }
    return out;
  }

  /// The runs of `list` in tries whose finally runs `fin` unless the run ended normally (`flag`).
  std::vector<StmtPtr> finally(std::vector<StmtPtr>& list, std::vector<StmtPtr>& fin, const std::string& flag,
                               bool in_loop) {
    std::vector<StmtPtr> out, run;
    auto flush = [&] {
      if (run.empty()) return;
      Pos p = run[0]->pos;
      if (in_loop) mark_exits(run, flag);
      out.push_back(build::assign(flag, build::bool_lit(false, p), p));
      StmtPtr t = build::stmt(StmtKind::Try, p);
      t->body = std::move(run);
      t->body.push_back(build::assign(flag, build::bool_lit(true, p), p));
      t->finalbody.push_back(if_flag(flag, {}, checking::clone_body(fin), p));
      out.push_back(std::move(t));
      run.clear();
    };
    for (auto& s : list) {
      if (!stmt_yields(*s)) {
        run.push_back(std::move(s));
        continue;
      }
      flush();
      if (s->kind != StmtKind::Expr) {
        bool loop = s->kind == StmtKind::For || s->kind == StmtKind::While;
        s->body = finally(s->body, fin, flag, in_loop || loop);
        s->orelse = finally(s->orelse, fin, flag, in_loop);
      }
      out.push_back(std::move(s));
    }
    flush();
    return out;
  }
};

}  // namespace

void split_yielding_tries(std::vector<StmtPtr>& body) { Splitter().body(body); }

}  // namespace ppy::frontend
