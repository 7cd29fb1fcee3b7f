// The body checker, tuples and optional values: displays, constant indexing,
// unpacking, comparisons, `is None`, and the narrowing of `T | None` locals
// by `is not None` tests (types.h has the types themselves).
#include <algorithm>
#include <optional>

#include "body_checker.h"
#include "callable.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"
#include "unions.h"
#include "starred.h"

namespace ppy::frontend::checking {
namespace {

/// The concrete type an abstract container annotation (`Sequence`, `collections.abc.Mapping`) is
/// taken as: "list" or "dict"; nullptr for any other name.
const char* abstract_container(const std::string& base) {
  std::string n = base;
  for (const char* prefix : {"typing.", "collections.abc."})
    if (n.starts_with(prefix)) n = n.substr(std::string(prefix).size());
  if (n == "Sequence" || n == "MutableSequence") return "list";
  if (n == "Mapping" || n == "MutableMapping") return "dict";
  return nullptr;
}

}  // namespace

/// `A | B | ...` and `Union[A, B, ...]` (issue 32, unions.h): None among them makes the union optional.
static Ty union_annotation(const std::vector<const Expr*>& parts, Pos at, const std::function<Ty(const Expr&)>& elem,
                           const std::function<void(Pos, const char*, std::string)>& error) {
  std::vector<Ty> alts;
  for (const Expr* x : parts) {
    if (x->kind == ExprKind::NoneLit) {
      alts.push_back(none_value());
      continue;
    }
    Ty t = elem(*x);
    if (t == Ty::Error) return Ty::Error;
    if (!union_member(t) && !is_union(t) && !is_optional(t)) {
      error(x->pos, "E1010", str_cat("a union of ", ty_name(t), " is outside the ppy subset"));
      return Ty::Error;
    }
    alts.push_back(t);
  }
  Ty u = union_of(alts);
  if (u == Ty::Error) error(at, "E1031", "a union needs a type besides None");
  return u;
}

std::optional<Ty> compound_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                      const std::function<void(Pos, const char*, std::string)>& error) {
  if (auto c = callable_annotation(a, elem, error)) return c;  // Callable[[A, B], R] (callable.h)
  if (auto c = collections_annotation(a, elem, error)) return c;  // stdlib: Counter[K], defaultdict[K, V] (check_collections.cc)
  auto held = [&](const Expr& x) {
    Ty t = elem(x);
    if (t != Ty::Error && !holdable(t)) {
      error(x.pos, "E1031",
            str_cat("tuples and optional values hold int, float, bool, str, lists, tuples and optionals, not ",
                    ty_name(t)));
      return Ty::Error;
    }
    return t;
  };
  // `T | None` and `None | T`.
  if (a.kind == ExprKind::Binary && a.str == "|") {
    bool none_right = a.kids[1]->kind == ExprKind::NoneLit, none_left = a.kids[0]->kind == ExprKind::NoneLit;
    if (none_right == none_left) return union_annotation({a.kids[0].get(), a.kids[1].get()}, a.pos, elem, error);
    Ty t = held(*a.kids[none_right ? 0 : 1]);
    return t == Ty::Error ? Ty::Error : optional_of(t);
  }
  std::optional<std::string> base = a.kind == ExprKind::Subscript ? dotted(*a.kids[0]) : std::nullopt;
  if (base && (*base == "Union" || *base == "typing.Union")) {  // issue 32 (unions.h)
    std::vector<const Expr*> parts;
    if (a.kids[1]->kind == ExprKind::Tuple)
      for (auto& k : a.kids[1]->kids) parts.push_back(k.get());
    else
      parts.push_back(a.kids[1].get());
    return union_annotation(parts, a.pos, elem, error);
  }
  // `Optional[T]` (from typing): `T | None`.
  if (base && (*base == "Optional" || *base == "typing.Optional")) {
    if (a.kids[1]->kind == ExprKind::Tuple) {
      error(a.pos, "E1031", "Optional takes one type: Optional[int]");
      return Ty::Error;
    }
    Ty t = held(*a.kids[1]);
    return t == Ty::Error ? Ty::Error : optional_of(t);
  }
  // Lazy sequences: `Iterator[T]` and `Generator[T, None, None]` (typing, collections.abc), a generator's result.
  if (base && (*base == "Iterator" || *base == "typing.Iterator" || *base == "collections.abc.Iterator" ||
               *base == "Iterable" || *base == "typing.Iterable" || *base == "collections.abc.Iterable" ||
               *base == "Generator" || *base == "typing.Generator" || *base == "collections.abc.Generator")) {
    bool gen = base->ends_with("Generator");
    const Expr& arg = *a.kids[1];
    bool ok = gen ? arg.kind == ExprKind::Tuple && arg.kids.size() == 3 && arg.kids[1]->kind == ExprKind::NoneLit &&
                        arg.kids[2]->kind == ExprKind::NoneLit
                  : arg.kind != ExprKind::Tuple;
    if (!ok) {
      error(a.pos, "E1031", gen ? "Generator takes three types, the last two None: Generator[int, None, None]"
                                : "Iterator takes one type: Iterator[int]");
      return Ty::Error;
    }
    Ty t = held(gen ? *arg.kids[0] : arg);
    return t == Ty::Error ? Ty::Error : iterator_of(t);
  }
  // `Sequence[T]` and `Mapping[K, V]` (typing, collections.abc): what programs pass them, a list and a dict.
  if (base && abstract_container(*base)) base = abstract_container(*base);
  // `list[T]` (and typing's `List[T]`): T an int, float, bool, str or a list of those.
  if (base && (*base == "list" || *base == "List" || *base == "typing.List")) {
    if (a.kids[1]->kind == ExprKind::Tuple) {
      error(a.pos, "E1031", "list takes one type: list[int]");
      return Ty::Error;
    }
    Ty t = elem(*a.kids[1]);
    if (t == Ty::Error) return Ty::Error;
    if (!list_holdable(t)) {
      error(a.kids[1]->pos, "E1031",
            str_cat("lists hold int, float, bool, str, lists, tuples and optionals, not ", ty_name(t)));
      return Ty::Error;
    }
    return list_of(t);
  }
  // `dict[K, V]` and `set[T]` (and typing's `Dict`, `Set`): keys int or str, values what a list holds.
  if (base && (*base == "dict" || *base == "Dict" || *base == "typing.Dict" || *base == "set" || *base == "Set" ||
               *base == "typing.Set")) {
    bool dict = (*base)[base->rfind('.') == std::string::npos ? 0 : base->rfind('.') + 1] == 'd' ||
                (*base)[base->rfind('.') == std::string::npos ? 0 : base->rfind('.') + 1] == 'D';
    const Expr& arg = *a.kids[1];
    size_t n = arg.kind == ExprKind::Tuple ? arg.kids.size() : 1;
    if (n != (dict ? 2u : 1u)) {
      error(a.pos, "E1031", dict ? "dict takes two types: dict[str, int]" : "set takes one type: set[int]");
      return Ty::Error;
    }
    Ty k = elem(dict ? *arg.kids[0] : arg);
    if (k == Ty::Error) return Ty::Error;
    if (!key_holdable(k)) {
      error((dict ? *arg.kids[0] : arg).pos, "E1031",
            str_cat(dict ? "dict keys" : "set elements", " are int, str or tuples of those in the ppy subset, not ", ty_name(k)));
      return Ty::Error;
    }
    if (!dict) return set_of(k);
    Ty v = elem(*arg.kids[1]);
    if (v == Ty::Error) return Ty::Error;
    if (!dict_value_holdable(v)) {
      error(arg.kids[1]->pos, "E1031",
            dict_value_refusal("dict", v));
      return Ty::Error;
    }
    return dict_of(k, v);
  }
  if (base && (*base == "tuple" || *base == "Tuple" || *base == "typing.Tuple")) {
    const Expr& arg = *a.kids[1];
    std::vector<const Expr*> parts;
    if (arg.kind == ExprKind::Tuple)
      for (auto& k : arg.kids) parts.push_back(k.get());
    else
      parts.push_back(&arg);
    if (parts.empty() || (parts.size() == 2 && parts[1]->kind == ExprKind::Attribute) ||
        (parts.back()->kind == ExprKind::Name && parts.back()->str == "...")) {
      error(a.pos, "E1031", "a tuple type names each element's type: tuple[int, float]");
      return Ty::Error;
    }
    std::vector<Ty> elems;
    bool bad = false;
    for (const Expr* p : parts) {
      Ty t = held(*p);
      bad = bad || t == Ty::Error;
      elems.push_back(t);
    }
    return bad ? Ty::Error : tuple_of(elems);
  }
  return std::nullopt;
}

Ty BodyChecker::tuple_display(Expr& e, Ty expected) {
  if (gpu_) {
    error(e.pos, "E1100", "tuples are not available in GPU code");
    return Ty::Error;
  }
  if (e.kids.empty()) {
    error(e.pos, "E1010", "the empty tuple is outside the ppy subset");
    return Ty::Error;
  }
  std::vector<Ty> want = tuple_elems(expected);
  if (want.size() != e.kids.size()) want.clear();
  std::vector<Ty> elems;
  bool bad = false;
  for (size_t i = 0; i < e.kids.size(); ++i) {
    Ty w = want.empty() ? Ty::Error : want[i];
    Ty t = value(*e.kids[i], w);
    if (t == Ty::Error) {
      bad = true;
      continue;
    }
    // An element takes the expected element type when it fits it (None into an optional).
    if (w != Ty::Error && assignable(t, w)) t = w;
    if (!holdable(t) && !is_none_value(t)) {  // None stands for itself (it prints and compares)
      error(e.kids[i]->pos, "E1010",
            str_cat("tuples hold int, float, bool, str, lists, tuples and optional values in the ppy subset, not ",
                    ty_name(t)));
      bad = true;
      continue;
    }
    elems.push_back(t);
  }
  return bad ? Ty::Error : tuple_of(elems);
}

Ty BodyChecker::tuple_subscript(Expr& e, Ty bt) {
  Expr& ix = *e.kids[1];
  if (ix.kind == ExprKind::Tuple) {
    error(ix.pos, "E1010", "multi-dimensional indexing is outside the ppy subset");
    return Ty::Error;
  }
  Ty it = value(ix, Ty::Int);
  if (it == Ty::Error) return Ty::Error;
  std::optional<int64_t> k;
  if (ix.kind == ExprKind::Int)
    k = ix.ival;
  else if (ix.kind == ExprKind::Unary && ix.str == "-" && ix.kids[0]->kind == ExprKind::Int)
    k = -ix.kids[0]->ival;
  else if ((ix.kind == ExprKind::Name || ix.kind == ExprKind::Attribute) && ix.ref == Ref::Const && it == Ty::Int)
    k = ix.ival;
  if (!k) {
    error(ix.pos, "E1010",
          str_cat("a tuple is indexed by a constant int in the ppy subset (its elements may differ in type), not ",
                  it == Ty::Int ? "a computed int" : ty_name(it)));
    return Ty::Error;
  }
  std::vector<Ty> elems = tuple_elems(bt);
  int64_t n = static_cast<int64_t>(elems.size());
  int64_t i = *k < 0 ? *k + n : *k;
  if (i < 0 || i >= n) {
    error(ix.pos, "E1030",
          str_cat("tuple index out of range: ", *k, " indexes a ", ty_name(bt), " of ", n, " element",
                  n == 1 ? "" : "s"));
    return Ty::Error;
  }
  e.target = "tuple";
  e.ival = i;
  return elems[static_cast<size_t>(i)];
}

void BodyChecker::unpack(Expr& t, Ty vt, const Expr& v) {
  if (vt == Ty::Error) {
    for (auto& k : t.kids) assign(*k, Ty::Error, v);
    return;
  }
  if (is_optional(vt)) {
    maybe_none(v);
    return;
  }
  size_t stars = 0;
  for (auto& k : t.kids) stars += is_starred(*k);
  if (stars > 1) {
    error(t.pos, "E1030", "multiple starred expressions in assignment");
    return;
  }
  if (is_list(vt)) {  // checked at run time (lower_statements.cc unpack_list): python3's ValueError
    Ty elem = list_elem(vt);
    for (auto& k : t.kids) {
      if (is_starred(*k))
        assign(*k->kids[0], vt, v);  // the rest, a list of its own
      else if (k->kind == ExprKind::Tuple)
        unpack(*k, elem, v);
      else
        assign(*k, elem, v);
    }
    return;
  }
  if (stars) {
    error(t.pos, "E1010",
          str_cat("starred unpacking of ", ty_name(vt), " is outside the ppy subset (its parts may differ in type); "
                  "unpack a list, or index the tuple"));
    return;
  }
  if (!is_tuple(vt)) {
    error(v.pos, "E1030", str_cat("cannot unpack ", ty_name(vt), " into ", t.kids.size(), " names"));
    return;
  }
  std::vector<Ty> elems = tuple_elems(vt);
  if (elems.size() != t.kids.size()) {
    error(v.pos, "E1030",
          elems.size() > t.kids.size()
              ? str_cat("too many values to unpack (expected ", t.kids.size(), ", got ", elems.size(), ")")
              : str_cat("not enough values to unpack (expected ", t.kids.size(), ", got ", elems.size(), ")"));
    return;
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    if (t.kids[i]->kind == ExprKind::Tuple)
      unpack(*t.kids[i], elems[i], v);
    else
      assign(*t.kids[i], elems[i], v);
  }
}

bool BodyChecker::maybe_none(const Expr& e) {
  if (!is_optional(e.ty) && !is_none_value(e.ty)) return false;
  if (is_none_value(e.ty))
    error(e.pos, "E1034", "None is used where a value is needed");
  else
    error(
        e.pos, "E1034",
        str_cat(e.kind == ExprKind::Name ? str_cat("'", e.str, "'") : std::string("this value"), " may be None here (",
                ty_name(e.ty), "); test `", e.kind == ExprKind::Name ? e.str : std::string("x"),
                " is not None` first (in an if, or return early when it is None)"));
  return true;
}

bool BodyChecker::comparable(Ty a, Ty b, const std::string& op) {
  bool eq = op == "==" || op == "!=";
  if (is_union(a) || is_union(b)) {  // issue 32: equal when the alternative held compares (unions.h)
    if (!eq) return false;
    std::vector<Ty> xs = is_union(a) ? union_alts(a) : std::vector<Ty>{a};
    std::vector<Ty> ys = is_union(b) ? union_alts(b) : std::vector<Ty>{b};
    for (Ty x : xs)
      for (Ty y : ys)
        if (comparable(x, y, op)) return true;
    return false;
  }
  if (is_numeric(a) && is_numeric(b)) return true;
  if (a == Ty::Str && b == Ty::Str) return true;
  if (is_list(a) || is_list(b)) return a == b && (eq || orderable(a));
  if (is_tuple(a) && is_tuple(b)) {
    std::vector<Ty> x = tuple_elems(a), y = tuple_elems(b);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (!comparable(x[i], y[i], op)) return false;
    return true;
  }
  if (!eq) return false;
  if (is_class(a) && is_class(b)) return is_subclass(a, b) || is_subclass(b, a);
  if (is_none_value(a) || is_none_value(b)) return is_optional(a) || is_optional(b) || a == b;
  if (is_optional(a) || is_optional(b)) {
    Ty x = is_optional(a) ? optional_inner(a) : a, y = is_optional(b) ? optional_inner(b) : b;
    return comparable(x, y, op);
  }
  return false;
}

Ty BodyChecker::compare_compound(Expr& e, const std::vector<Ty>& ts) {
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    const std::string& op = e.ops[i];
    Ty a = ts[i], b = ts[i + 1];
    if (op == "is" || op == "is not") {
      if (is_class(a) && is_class(b) && (is_subclass(a, b) || is_subclass(b, a))) continue;  // identity
      if (!is_none_value(a) && !is_none_value(b)) {
        error(e.pos, "E1010",
              str_cat("'", op, "' compares with None only in the ppy subset (", ty_name(a), " and ", ty_name(b), ")"));
        return Ty::Error;
      }
      continue;
    }
    if (op != "==" && op != "!=" && (is_optional(a) || is_none_value(a) || is_optional(b) || is_none_value(b))) {
      maybe_none(is_optional(a) || is_none_value(a) ? *e.kids[i] : *e.kids[i + 1]);
      return Ty::Error;
    }
    if ((op == "==" || op == "!=") && is_class(a) && is_class(b) && class_info(a)->dataclass && comparable(a, b, op)) {
      const ClassInfo& c = *class_info(a);
      bool held = false;
      for (auto& f : c.fields) held = held || holds_object(f.second);
      if (a != b || !c.subclasses.empty() || held) {
        error(e.pos, "E1010",
              str_cat("'", op, "' of dataclass ", c.name,
                      " with subclasses or fields holding objects is outside "
                      "the ppy subset (ppy compares a dataclass's "
                      "own fields)"));
        return Ty::Error;
      }
      effect("reads");
      continue;
    }
    if (!comparable(a, b, op)) {
      error(e.pos, "E1030",
            str_cat(op == "==" || op == "!=" ? "cannot compare " : "'", op == "==" || op == "!=" ? "" : op,
                    op == "==" || op == "!=" ? "" : "' is not supported between ", ty_name(a), " and ", ty_name(b)));
      return Ty::Error;
    }
  }
  return Ty::Bool;
}

// --- narrowing ---

std::set<std::string> BodyChecker::facts(const Expr& c, bool when_true) {
  std::set<std::string> out;
  auto optional_local = [&](const Expr& x) {
    if (x.kind == ExprKind::Attribute) return is_optional(x.ty) && !field_path(x).empty();  // a field (issue 32)
    if (x.kind != ExprKind::Name || x.ref != Ref::Local) return false;
    auto it = types_.find(x.str);
    return it != types_.end() && is_optional(it->second);
  };
  switch (c.kind) {
    case ExprKind::Compare: {
      if (c.ops.size() != 1 || (c.ops[0] != "is" && c.ops[0] != "is not" && c.ops[0] != "==" && c.ops[0] != "!="))
        return out;
      const Expr* x = c.kids[0].get();
      const Expr* other = c.kids[1].get();
      if (x->kind == ExprKind::NoneLit) std::swap(x, other);
      if (x->kind == ExprKind::Binary && x->str == ":=") x = x->kids[0].get();  // `(n := f()) is not None` proves n
      if (other->kind != ExprKind::NoneLit || !optional_local(*x)) return out;
      bool positive = c.ops[0] == "is not" || c.ops[0] == "!=";  // true when x is not None
      if (positive == when_true) out.insert(field_path(*x));
      return out;
    }
    case ExprKind::Unary:
      if (c.str == "not") return facts(*c.kids[0], !when_true);
      return out;
    case ExprKind::BoolOp: {
      std::set<std::string> a = facts(*c.kids[0], when_true), b = facts(*c.kids[1], when_true);
      // `a and b` is true when both are; false when either is (or).
      bool both = (c.str == "and") == when_true;
      if (both) {
        a.insert(b.begin(), b.end());
        return a;
      }
      for (auto& n : a)
        if (b.count(n)) out.insert(n);
      return out;
    }
    case ExprKind::Call:
      isinstance_facts(c, when_true, out);  // issue 32 (check_union.cc)
      return out;
    case ExprKind::Binary:  // `if (n := f()):` proves what `if n:` does
      return c.str == ":=" ? facts(*c.kids[0], when_true) : out;
    case ExprKind::Name:
      // `if x:` is false for None (and for a false value): true proves it is not None.
      if (when_true && optional_local(c)) out.insert(c.str);
      return out;
    case ExprKind::Attribute:  // `if self.left:` (issue 32)
      if (when_true && optional_local(c)) out.insert(field_path(c));
      return out;
    default:
      return out;
  }
}

void BodyChecker::narrow(const std::set<std::string>& names) {
  for (auto& n : names)  // an isinstance narrowing replaces the one before it (check_union.cc)
    if (auto mark = n.find('\x01'); mark != std::string::npos) forget_union_narrowing(n.substr(0, mark));
  flow_.not_none.insert(names.begin(), names.end());
}

void BodyChecker::forget_narrowing(const std::vector<StmtPtr>& body) {
  std::function<void(const Expr&)> target = [&](const Expr& t) {
    if (t.kind == ExprKind::Name) {
      flow_.not_none.erase(t.str);
      forget_union_narrowing(t.str);  // issue 32 (check_union.cc)
      forget_fields_of(t.str);        // issue 32 (check_attribute_narrowing.cc)
    }
    if (t.kind == ExprKind::Attribute) forget_field(t.str);
    for (auto& k : t.kids)
      if (t.kind == ExprKind::Tuple || is_starred(t)) target(*k);
  };
  for (auto& s : body) {
    for (auto& t : s->targets) target(*t);
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { forget_narrowing(b); });
  }
}

Ty BodyChecker::narrowed(const std::string& n, Ty declared) {
  if (Ty u = union_narrowed(n, declared); u != Ty::Error) return u;  // isinstance (check_union.cc)
  if (is_optional(declared) && flow_.not_none.count(n)) return optional_inner(declared);
  return declared;
}

void BodyChecker::after_assign(const std::string& n, Ty declared, Ty vt) {
  union_after_assign(n, declared, vt);  // issue 32 (check_union.cc)
  forget_fields_of(n);                  // its fields' facts were of the object it held
  if (!is_optional(declared)) return;
  if (is_optional(vt) || is_none_value(vt) || vt == Ty::Error)
    flow_.not_none.erase(n);
  else
    flow_.not_none.insert(n);
}

}  // namespace ppy::frontend::checking
