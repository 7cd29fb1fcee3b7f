// The body checker, `*` in a call's arguments (issue 33, docs/language.md,
// "Calls"): the call is rewritten before it is checked, so every road gets it
// as ordinary arguments. A tuple (a variable, its attribute, a literal) spreads
// into its elements; any iterable spreads into `print` (the joined str() of its
// items, as print writes them) and is the one argument of `max` / `min`. What
// stays is refused with E1010 naming it (`zip(*rows)`: a tuple of unknown
// length).
#include "body_checker.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "ppy/util/str_cat.h"
#include "starred.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// Whether `e` reads a variable or its attributes only (`t`, `self.pos`): reading it once per element
/// has no effect python3 would show.
bool plain_path(const Expr& e) {
  if (e.kind == ExprKind::Name) return true;
  return e.kind == ExprKind::Attribute && plain_path(*e.kids[0]);
}

/// `[str(x)]` of one argument, or `[str(x) for x in it]` of a starred one: what print writes of them.
ExprPtr shown_items(ExprPtr a, bool starred, Pos p) {
  const char* item = "__ppy_star_item";
  std::vector<ExprPtr> args;
  args.push_back(starred ? build::name(item, p) : std::move(a));
  ExprPtr text = build::call(build::name("str", p), std::move(args), p);
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(text));
  if (!starred) return build::with_kids(ExprKind::List, p, std::move(kids));
  kids.push_back(std::move(a));
  ExprPtr comp = build::with_kids(ExprKind::ListComp, p, std::move(kids));
  comp->ops = {item};
  return comp;
}

}  // namespace

bool BodyChecker::star_args(Expr& e) {
  auto path = dotted(*e.kids[0]);
  auto builtin_named = [&](const char* n) {
    return path && *path == n && !types_.count(n) && !m_.func_index.count(n) && !m_.bindings.count(n) &&
           !m_.classes.count(n);
  };
  std::string callee = path ? *path : std::string("a function value");
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(e.kids[0]));
  Ty left = Ty::Error;  // the type of a starred argument left unspread, where known
  bool failed = false;   // a starred variable that does not check (reported)
  for (size_t i = 1; i < e.kids.size(); ++i) {
    ExprPtr& a = e.kids[i];
    if (!is_starred(*a)) {
      kids.push_back(std::move(a));
      continue;
    }
    Expr& x = *a->kids[0];
    if (x.kind == ExprKind::Tuple) {  // `f(*(1, 2))`: its elements
      for (auto& k : x.kids) kids.push_back(std::move(k));
      continue;
    }
    if (plain_path(x)) {
      ExprPtr probe = build::clone(x);
      Ty t = value(*probe, Ty::Error);
      failed = failed || t == Ty::Error;
      if (is_tuple(t)) {  // `f(*t)`: `f(t[0], t[1], ...)`
        for (size_t k = 0; k < tuple_elems(t).size(); ++k) {
          std::vector<ExprPtr> sub;
          sub.push_back(build::clone(x));
          sub.push_back(build::int_lit(static_cast<int64_t>(k), x.pos));
          kids.push_back(build::with_kids(ExprKind::Subscript, x.pos, std::move(sub)));
        }
        continue;
      }
      left = t;
    }
    kids.push_back(std::move(a));
  }
  e.kids = std::move(kids);
  if (failed) return false;
  size_t starred = 0;
  for (size_t i = 1; i < e.kids.size(); ++i) starred += is_starred(*e.kids[i]);
  if (starred == 0) return true;
  Pos p = e.pos;
  if (builtin_named("print")) {  // `print(a, *xs, sep=s)`: `print(s.join([str(a)] + [str(x) for x in xs]))`
    std::string sep = " ";
    std::vector<Keyword> keywords;
    for (auto& k : e.keywords) {
      if (k.name == "sep" && k.value->kind == ExprKind::Str) {
        sep = k.value->str;
        continue;
      }
      keywords.push_back(std::move(k));
    }
    ExprPtr items;
    for (size_t i = 1; i < e.kids.size(); ++i) {
      bool spread = is_starred(*e.kids[i]);
      ExprPtr one = shown_items(spread ? std::move(e.kids[i]->kids[0]) : std::move(e.kids[i]), spread, p);
      items = items ? build::binary("+", std::move(items), std::move(one), p) : std::move(one);
    }
    std::vector<ExprPtr> join_of;
    join_of.push_back(build::node(ExprKind::Str, p, sep));
    std::vector<ExprPtr> args;
    args.push_back(std::move(items));
    ExprPtr line = build::call(build::with_kids(ExprKind::Attribute, p, std::move(join_of), "join"), std::move(args), p);
    e.kids.resize(1);
    e.kids.push_back(std::move(line));
    e.keywords = std::move(keywords);
    return true;
  }
  if ((builtin_named("max") || builtin_named("min")) && e.kids.size() == 2 && e.keywords.empty()) {
    // `max(*xs)`: the largest of the items, as `max(xs)` takes them
    e.kids[1] = std::move(e.kids[1]->kids[0]);
    return true;
  }
  for (size_t i = 1; i < e.kids.size(); ++i)
    if (is_starred(*e.kids[i])) {
      const Expr& x = *e.kids[i]->kids[0];
      std::string what = left != Ty::Error ? str_cat("a ", ty_name(left))
                                           : std::string("an expression that is not a variable or a tuple");
      error(x.pos, "E1010",
            str_cat("'*' unpacking of ", what, " in a call of ", callee,
                    " is outside the ppy subset (it spreads a tuple, and any iterable into print, max and min)"));
      break;
    }
  return false;
}

}  // namespace ppy::frontend::checking
