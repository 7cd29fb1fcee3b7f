// The match statement (issue 32), lowered by the parser into the statements
// the rest of the compiler already knows: an if/elif chain whose conditions
// test the subject (==, isinstance, len, `in`) and whose bodies first bind
// the pattern's names. So every road runs it, and narrowing (isinstance of a
// union or a class) types what the bodies read. The subject, unless it is a
// name, is evaluated once into a hidden local.
#include <functional>
#include <map>
#include <set>

#include "expr_build.h"
#include "parser_internal.h"

namespace ppy::frontend::parsing {

/// A pattern as parsed.
struct Parser::MatchPattern {
  enum Kind { Wild, Capture, Literal, Value, Or, As, Seq, Map, Class } kind = Wild;
  Pos pos;
  std::string name;                ///< Capture / As: the name; Class: the class
  ExprPtr value;                   ///< Literal / Value: what the subject equals
  std::vector<MatchPattern> kids;  ///< Or: alternatives; As: the pattern; Seq / Map / Class: sub-patterns
  std::vector<ExprPtr> keys;       ///< Map: the keys, one per kid
  std::vector<std::string> kw;     ///< Class: the keyword of each kid ("" for a positional one)
  int star = -1;                   ///< Seq: where `*rest` stands, or -1
  std::string star_name;           ///< Seq: the rest's name ("" for `*_`)
};

/// What a pattern asks of the value at a place: a condition (null: always) and the names it binds.
struct Parser::MatchLowered {
  ExprPtr cond;
  std::vector<std::pair<std::string, ExprPtr>> binds;
};

namespace {

using Pat = Parser::MatchPattern;
using Lowered = Parser::MatchLowered;

ExprPtr mk(ExprKind k, Pos p) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->pos = p;
  return e;
}

ExprPtr name_expr(const std::string& n, Pos p) {
  auto e = mk(ExprKind::Name, p);
  e->str = n;
  return e;
}

ExprPtr int_expr(int64_t v, Pos p) {
  auto e = mk(ExprKind::Int, p);
  e->ival = v;
  return e;
}

ExprPtr call(const std::string& fn, std::vector<ExprPtr> args, Pos p) {
  auto c = mk(ExprKind::Call, p);
  c->kids.push_back(name_expr(fn, p));
  for (auto& a : args) c->kids.push_back(std::move(a));
  return c;
}

ExprPtr compare(ExprPtr a, const char* op, ExprPtr b, Pos p) {
  auto c = mk(ExprKind::Compare, p);
  c->ops.push_back(op);
  c->kids.push_back(std::move(a));
  c->kids.push_back(std::move(b));
  return c;
}

/// `a and b` (either may be null: true).
ExprPtr both(ExprPtr a, ExprPtr b, Pos p) {
  if (!a) return b;
  if (!b) return a;
  auto c = mk(ExprKind::BoolOp, p);
  c->str = "and";
  c->kids.push_back(std::move(a));
  c->kids.push_back(std::move(b));
  return c;
}

/// `isinstance(path, (n1, n2))`.
ExprPtr instance_of(const Expr& path, std::vector<std::string> names, Pos p) {
  std::vector<ExprPtr> args;
  args.push_back(build::clone(path));
  if (names.size() == 1) {
    args.push_back(name_expr(names[0], p));
  } else {
    auto t = mk(ExprKind::Tuple, p);
    for (auto& n : names) t->kids.push_back(name_expr(n, p));
    args.push_back(std::move(t));
  }
  return call("isinstance", std::move(args), p);
}

bool is_builtin_class(const std::string& n) {
  return n == "int" || n == "float" || n == "str" || n == "bool" || n == "list" || n == "dict" || n == "set" ||
         n == "tuple";
}

}  // namespace

StmtPtr Parser::match_stmt(std::vector<StmtPtr>& out) {
  Token m = take();
  ExprPtr subject = testlist();
  ExprPtr path;
  if (subject->kind == ExprKind::Name) {
    path = std::move(subject);
  } else {  // evaluated once, into a local of its own
    static int counter = 0;
    std::string hidden = str_cat("__match", ++counter);
    auto s = make(StmtKind::Assign, m.pos);
    s->targets.push_back(name_expr(hidden, m.pos));
    s->value = std::move(subject);
    out.push_back(std::move(s));
    path = name_expr(hidden, m.pos);
  }
  expect_op(":");
  if (!at(Tok::Newline)) fail(cur().pos, "expected a new line after 'match ...:'");
  take();
  if (!at(Tok::Indent)) fail(cur().pos, "expected an indented block of 'case' clauses");
  take();
  StmtPtr first;
  Stmt* last = nullptr;  // the if whose `else` takes the next case
  bool closed = false;   // a case that always matches was seen
  bool dropped = false;  // a case was refused (reported) and left out
  while (!at(Tok::Dedent) && !at(Tok::End)) {
    if (at(Tok::Newline)) {
      take();
      continue;
    }
    // A case the parser refuses (reported) is dropped with its block, and the next case
    // is read as a case: the match's block stays one block, so no follow-on errors.
    Pos cp = cur().pos;
    ExprPtr guard;
    std::vector<StmtPtr> body;
    Lowered l;
    try {
      if (!at_kw("case")) fail(cur().pos, str_cat("expected 'case', found ", describe(cur())));
      take();
      Pat pat = match_patterns();
      if (accept_kw("if")) guard = named_expr();
      l = lower_pattern(pat, *path);  // before the block, so a refusal here leaves the block to recover()
      body = suite();
    } catch (const Bail&) {
      recover();
      dropped = true;
      continue;
    }
    if (guard) {  // the guard reads the names bound: their places in the subject stand for them
      std::map<std::string, const Expr*> places;
      for (auto& [n, e] : l.binds) places[n] = e.get();
      std::function<void(ExprPtr&)> subst = [&](ExprPtr& e) {
        if (e->kind == ExprKind::Name) {
          if (auto it = places.find(e->str); it != places.end()) e = build::clone(*it->second);
          return;
        }
        for (auto& k : e->kids) subst(k);
        for (auto& k : e->keywords) subst(k.value);
      };
      subst(guard);
      l.cond = both(std::move(l.cond), std::move(guard), cp);
    }
    std::vector<StmtPtr> stmts;
    for (auto& [n, e] : l.binds) {
      auto a = make(StmtKind::Assign, cp);
      a->targets.push_back(name_expr(n, cp));
      a->value = std::move(e);
      stmts.push_back(std::move(a));
    }
    for (auto& s : body) stmts.push_back(std::move(s));
    if (closed) continue;  // Python refuses a case after one that always matches; it cannot run
    if (!l.cond) {
      closed = true;
      if (!last) {  // `case _:` first: its body runs as it is
        auto s = make(StmtKind::If, cp);
        auto t = mk(ExprKind::Bool, cp);
        t->bval = true;
        s->value = std::move(t);
        s->body = std::move(stmts);
        first = std::move(s);
      } else {
        last->orelse = std::move(stmts);
      }
      continue;
    }
    auto s = make(StmtKind::If, cp);
    s->value = std::move(l.cond);
    s->body = std::move(stmts);
    Stmt* raw = s.get();
    if (!last)
      first = std::move(s);
    else
      last->orelse.push_back(std::move(s));
    last = raw;
  }
  if (at(Tok::Dedent)) take();
  if (!first && dropped) return make(StmtKind::Pass, m.pos);
  if (!first) fail(m.pos, "a match statement needs a 'case' clause");
  return first;
}

Parser::MatchPattern Parser::match_patterns() {
  // `case a, b:` is the sequence pattern `case (a, b):`.
  Pos p = cur().pos;
  Pat first = match_as_pattern();
  if (!at_op(",")) return first;
  Pat seq;
  seq.kind = Pat::Seq;
  seq.pos = p;
  seq.kids.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op(":") || at_kw("if")) break;
    seq.kids.push_back(match_as_pattern());
  }
  return seq;
}

Parser::MatchPattern Parser::match_as_pattern() {
  Pos p = cur().pos;
  Pat alt = match_closed_pattern();
  if (at_op("|")) {
    Pat o;
    o.kind = Pat::Or;
    o.pos = p;
    o.kids.push_back(std::move(alt));
    while (accept_op("|")) o.kids.push_back(match_closed_pattern());
    alt = std::move(o);
  }
  if (accept_kw("as")) {
    Pat a;
    a.kind = Pat::As;
    a.pos = p;
    a.name = expect_name();
    a.kids.push_back(std::move(alt));
    return a;
  }
  return alt;
}

Parser::MatchPattern Parser::match_closed_pattern() {
  DepthGuard depth(*this, cur().pos);
  const Token t = cur();
  Pat r;
  r.pos = t.pos;
  if (t.kind == Tok::Int || t.kind == Tok::Float || t.kind == Tok::String || at_op("-") ||
      (t.kind == Tok::Name && (t.text == "None" || t.text == "True" || t.text == "False"))) {
    r.kind = Pat::Literal;
    r.value = factor();
    return r;
  }
  if (at_op("[") || at_op("(")) {
    bool paren = at_op("(");
    take();
    const char* close = paren ? ")" : "]";
    r.kind = Pat::Seq;
    bool comma = false;
    while (!at_op(close)) {
      if (accept_op("*")) {
        if (r.star >= 0) fail(cur().pos, "multiple starred names in sequence pattern");
        r.star = static_cast<int>(r.kids.size());
        r.star_name = expect_name();
        if (r.star_name == "_") r.star_name.clear();
      } else {
        r.kids.push_back(match_as_pattern());
      }
      if (!accept_op(",")) break;
      comma = true;
    }
    expect_op(close);
    if (paren && !comma && r.kids.size() == 1 && r.star < 0) return std::move(r.kids[0]);  // a group
    return r;
  }
  if (at_op("{")) {
    take();
    r.kind = Pat::Map;
    while (!at_op("}")) {
      if (at_op("**")) unsupported(cur().pos, "a '**rest' mapping pattern");
      r.keys.push_back(factor());
      expect_op(":");
      r.kids.push_back(match_as_pattern());
      if (!accept_op(",")) break;
    }
    expect_op("}");
    return r;
  }
  if (t.kind == Tok::Name && !is_keyword(t.text)) {
    std::string n = take().text;
    while (at_op(".")) {
      take();
      n += "." + expect_name();
    }
    if (accept_op("(")) {
      r.kind = Pat::Class;
      r.name = n;
      while (!at_op(")")) {
        std::string kw;
        if (at(Tok::Name) && peek().kind == Tok::Op && peek().text == "=") {
          kw = take().text;
          take();
        }
        r.kw.push_back(kw);
        r.kids.push_back(match_as_pattern());
        if (!accept_op(",")) break;
      }
      expect_op(")");
      return r;
    }
    if (n.find('.') != std::string::npos) {
      r.kind = Pat::Value;
      Pos p = t.pos;
      size_t start = 0, dot = n.find('.');
      ExprPtr v = name_expr(n.substr(0, dot), p);
      while (dot != std::string::npos) {
        start = dot + 1;
        dot = n.find('.', start);
        auto a = mk(ExprKind::Attribute, p);
        a->str = n.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        a->kids.push_back(std::move(v));
        v = std::move(a);
      }
      r.value = std::move(v);
      return r;
    }
    if (n == "_") return r;
    r.kind = Pat::Capture;
    r.name = n;
    return r;
  }
  fail(t.pos, str_cat("expected a pattern, found ", describe(t)));
}

Parser::MatchLowered Parser::lower_pattern(const MatchPattern& pat, const Expr& path) {
  Lowered l;
  Pos p = pat.pos;
  switch (pat.kind) {
    case Pat::Wild:
      return l;
    case Pat::Capture:
      l.binds.emplace_back(pat.name, build::clone(path));
      return l;
    case Pat::Literal: {
      const Expr& v = *pat.value;
      if (v.kind == ExprKind::NoneLit) {
        l.cond = compare(build::clone(path), "is", build::clone(v), p);
        return l;
      }
      // The subject may be a union: its type is tested first, so `==` compares like with like.
      const char* type = v.kind == ExprKind::Str ? "str" : v.kind == ExprKind::Bool ? "bool" : nullptr;
      ExprPtr test = type ? instance_of(path, {type}, p) : instance_of(path, {"int", "float"}, p);
      l.cond = both(std::move(test), compare(build::clone(path), "==", build::clone(v), p), p);
      return l;
    }
    case Pat::Value:
      l.cond = compare(build::clone(path), "==", build::clone(*pat.value), p);
      return l;
    case Pat::Or: {
      // Every alternative binds the same names (Python's rule). A name is bound to
      // its place in the alternative that matched: `p1 if c1 else p2 if c2 else p3`,
      // the tests read again (they only read the subject).
      std::vector<Lowered> alts;
      for (auto& alt : pat.kids) {
        alts.push_back(lower_pattern(alt, path));
        if (!alts.back().cond) break;  // it always matches: the alternatives after it never run
      }
      auto names = [](const Lowered& a) {
        std::set<std::string> s;
        for (auto& b : a.binds) s.insert(b.first);
        return s;
      };
      for (size_t i = 1; i < alts.size(); ++i)
        if (names(alts[i]) != names(alts[0])) fail(pat.kids[i].pos, "alternative patterns bind different names");
      for (auto& [n, unused] : alts[0].binds) {
        ExprPtr v;  // built from the last alternative back
        for (size_t i = alts.size(); i-- > 0;) {
          ExprPtr place;
          for (auto& b : alts[i].binds)
            if (b.first == n) place = build::clone(*b.second);
          if (!v) {
            v = std::move(place);
            continue;
          }
          auto c = mk(ExprKind::IfExp, p);
          c->kids.push_back(build::clone(*alts[i].cond));
          c->kids.push_back(std::move(place));
          c->kids.push_back(std::move(v));
          v = std::move(c);
        }
        l.binds.emplace_back(n, std::move(v));
      }
      for (auto& a : alts) {
        if (!a.cond) {
          l.cond = nullptr;
          break;
        }
        if (!l.cond) {
          l.cond = std::move(a.cond);
        } else {
          auto o = mk(ExprKind::BoolOp, p);
          o->str = "or";
          o->kids.push_back(std::move(l.cond));
          o->kids.push_back(std::move(a.cond));
          l.cond = std::move(o);
        }
      }
      return l;
    }
    case Pat::As: {
      l = lower_pattern(pat.kids[0], path);
      l.binds.emplace_back(pat.name, build::clone(path));
      return l;
    }
    case Pat::Seq: {
      int64_t n = static_cast<int64_t>(pat.kids.size());
      l.cond = instance_of(path, {"list", "tuple"}, p);
      std::vector<ExprPtr> len_arg;
      len_arg.push_back(build::clone(path));
      l.cond = both(std::move(l.cond),
                    compare(call("len", std::move(len_arg), p), pat.star >= 0 ? ">=" : "==", int_expr(n, p), p), p);
      for (int64_t i = 0; i < n; ++i) {
        bool after = pat.star >= 0 && i >= pat.star;
        auto sub = mk(ExprKind::Subscript, p);
        sub->kids.push_back(build::clone(path));
        sub->kids.push_back(int_expr(after ? i - n : i, p));
        Lowered k = lower_pattern(pat.kids[static_cast<size_t>(i)], *sub);
        l.cond = both(std::move(l.cond), std::move(k.cond), p);
        for (auto& b : k.binds) l.binds.push_back(std::move(b));
      }
      if (pat.star >= 0 && !pat.star_name.empty()) {  // the rest: path[star:len - after]
        auto sl = mk(ExprKind::Slice, p);
        sl->kids.push_back(int_expr(pat.star, p));
        sl->ival = 1;
        int64_t tail = n - pat.star;
        if (tail > 0) {
          sl->kids.push_back(int_expr(-tail, p));
          sl->ival |= 2;
        }
        auto sub = mk(ExprKind::Subscript, p);
        sub->kids.push_back(build::clone(path));
        sub->kids.push_back(std::move(sl));
        l.binds.emplace_back(pat.star_name, std::move(sub));
      }
      return l;
    }
    case Pat::Map: {
      l.cond = instance_of(path, {"dict"}, p);
      for (size_t i = 0; i < pat.kids.size(); ++i) {
        l.cond = both(std::move(l.cond), compare(build::clone(*pat.keys[i]), "in", build::clone(path), p), p);
        auto sub = mk(ExprKind::Subscript, p);
        sub->kids.push_back(build::clone(path));
        sub->kids.push_back(build::clone(*pat.keys[i]));
        Lowered k = lower_pattern(pat.kids[i], *sub);
        l.cond = both(std::move(l.cond), std::move(k.cond), p);
        for (auto& b : k.binds) l.binds.push_back(std::move(b));
      }
      return l;
    }
    case Pat::Class: {
      l.cond = instance_of(path, {pat.name}, p);
      for (size_t i = 0; i < pat.kids.size(); ++i) {
        ExprPtr place;
        if (pat.kw[i].empty() && is_builtin_class(pat.name)) {
          if (i > 0) unsupported(pat.kids[i].pos, str_cat("a second positional pattern of ", pat.name, "()"));
          place = build::clone(path);  // `int(n)` is the value itself
        } else {
          place = mk(ExprKind::Attribute, p);
          // A positional sub-pattern names the class's i-th __match_args__ (a dataclass's fields in order):
          // the checker puts the field's name in (check_class.cc, field_read).
          place->str = pat.kw[i].empty() ? str_cat("\x02", i) : pat.kw[i];
          place->kids.push_back(build::clone(path));
        }
        Lowered k = lower_pattern(pat.kids[i], *place);
        l.cond = both(std::move(l.cond), std::move(k.cond), p);
        for (auto& b : k.binds) l.binds.push_back(std::move(b));
      }
      return l;
    }
  }
  return l;
}

}  // namespace ppy::frontend::parsing
