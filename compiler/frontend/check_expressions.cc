// The body checker, expressions: names and paths, operators, their types.
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "body_checker.h"
#include "tuple_as_list.h"
#include "shown_args.h"
#include "expr_build.h"
#include "generics.h"
#include "lazy.h"
#include "imported_classes.h"
#include "namedtuple_classes.h"
#include "object_list_helpers.h"
#include "callable.h"
#include "checker_internal.h"
#include "operand_errors.h"
#include "python_attributes.h"
#include "ppy/util/str_cat.h"
#include "types.h"
#include "unions.h"
#include "starred.h"

namespace ppy::frontend::checking {

Ty BodyChecker::value(Expr& e, Ty expected) {
  Ty t = expr(e, expected, false);
  if (t == Ty::None) {
    error(e.pos, "E1030", "this call returns None; its value cannot be used");
    return e.ty = Ty::Error;
  }
  if (t == Ty::Str && gpu_) {
    error(e.pos, "E1100", "strings are not available in GPU code");
    return e.ty = Ty::Error;
  }
  return t;
}

namespace {

/// Marks the `and` / `or` chains whose value a condition only tests for truth
/// (through `not` too): their operands may be of different types (`while q and
/// q[0] > t:` of a list), and such a chain is the bool of Python's truth of it.
void truth_only(Expr& e) {
  if (e.kind == ExprKind::BoolOp) {
    e.ival = 1;
    for (auto& k : e.kids) truth_only(*k);
  } else if (e.kind == ExprKind::Unary && e.str == "not") {
    truth_only(*e.kids[0]);
  }
}

}  // namespace

void BodyChecker::condition(Expr& e) {
  truth_only(e);
  Ty t = value(e, Ty::Error);
  if (is_class(t)) dunder_truth(e);  // __bool__ / __len__ (check_dunder.cc)
  if (is_ptr(t)) error(e.pos, "E1030", "a native pointer cannot be a condition");
}

void BodyChecker::index(Expr& e) {
  Ty t = value(e, Ty::Int);
  if (maybe_none(e)) return;
  if (t != Ty::Error && t != Ty::Int && t != Ty::Bool)
    error(e.pos, "E1030", str_cat("list indices must be int, not ", ty_name(t)));
}

Ty BodyChecker::expr_inner(Expr& e, Ty expected, bool stmt_level) {
  switch (e.kind) {
    case ExprKind::Lambda: return lambda_expr(e, expected);  // check_closure.cc
    case ExprKind::Int: return Ty::Int;
    case ExprKind::Float: return Ty::Float;
    case ExprKind::Bool: return Ty::Bool;
    case ExprKind::NoneLit:
      if (gpu_) {
        error(e.pos, "E1100", "None is not a value in GPU code");
        return Ty::Error;
      }
      return none_value();
    case ExprKind::Str: return Ty::Str;
    case ExprKind::Name:
      if (!pending_empty_.empty()) infer_from_read(e, expected);  // `return result` types `result = []` (check_infer.cc)
      return name(e);
    case ExprKind::Attribute: return attribute(e);
    case ExprKind::Unary: return unary(e);
    case ExprKind::Binary:
      if (e.str == ":=") {  // `(n := v)`: assigns v to the local n (collected by collect_locals); its value is v's
        Expr& t = *e.kids[0];
        auto it = types_.find(t.str);
        if (it == types_.end()) return Ty::Error;  // refused there
        Ty vt = value(*e.kids[1], it->second != Ty::Error ? it->second : expected);
        assign(t, vt, *e.kids[1]);
        return vt;
      }
      return binary(e);
    case ExprKind::BoolOp: {
      Ty a = value(*e.kids[0], Ty::Error);
      // The right operand runs only when the left is true (`and`) or false (`or`).
      std::set<std::string> outer = flow_.not_none;
      narrow(facts(*e.kids[0], e.str == "and"));
      Ty b = value(*e.kids[1], Ty::Error);
      flow_.not_none = outer;
      if (a == Ty::Error || b == Ty::Error) return Ty::Error;
      if (a == b && !is_ptr(a) && !is_list(a)) return a;
      // Tested for truth only (condition's truth_only): the bool of either operand's truth (lowered so).
      if (e.ival == 1 && !is_ptr(a) && !is_ptr(b) && !is_class(a) && !is_class(b)) return Ty::Bool;
      // `name or "default"`, `os.environ.get(k) or "x"`: a str either way (lowered: a None or ""
      // left operand gives the right one, else the left's value).
      if (e.str == "or" && b == Ty::Str && (a == Ty::Str || (is_optional(a) && optional_inner(a) == Ty::Str)))
        return Ty::Str;
      error(e.pos, "E1030",
            str_cat("'", e.str, "' of ", ty_name(a), " and ", ty_name(b),
                    " gives either operand in Python; the subset needs both of one type (int, float or bool)"));
      return Ty::Error;
    }
    case ExprKind::Compare: return compare(e);
    case ExprKind::IfExp: {
      condition(*e.kids[0]);
      std::set<std::string> outer = flow_.not_none;
      narrow(facts(*e.kids[0], true));
      Ty a = expr(*e.kids[1], expected, false);
      flow_.not_none = outer;
      narrow(facts(*e.kids[0], false));
      Ty b = expr(*e.kids[2], expected, false);
      flow_.not_none = outer;
      if (a == Ty::Str && b == Ty::Str) return gpu_ ? value(e, Ty::Error) : Ty::Str;
      if (a == Ty::None || b == Ty::None) {
        error(e.pos, "E1030", "a call that returns None cannot be a value");
        return Ty::Error;
      }
      if (a == Ty::Error || b == Ty::Error) return Ty::Error;
      // `x if c else None`: an optional (or what the context expects, when both fit it).
      if (a != b && expected != Ty::Error && assignable(a, expected) && assignable(b, expected)) return expected;
      if (a != b && is_none_value(b) && holdable(a)) return optional_of(a);
      if (a != b && is_none_value(a) && holdable(b)) return optional_of(b);
      if (a != b && is_optional(a) && assignable(b, a)) return a;
      if (a != b && is_optional(b) && assignable(a, b)) return b;
      if (a != b) {
        error(e.pos, "E1030", str_cat("the branches of a conditional expression give ", ty_name(a), " and ", ty_name(b), "; they must agree"));
        return Ty::Error;
      }
      return a;
    }
    case ExprKind::Call:
      // `set()` and `dict()`: empty tables of the expected type.
      if (e.kids[0]->kind == ExprKind::Name && (e.kids[0]->str == "set" || e.kids[0]->str == "dict") &&
          !types_.count(e.kids[0]->str) && !m_.func_index.count(e.kids[0]->str) && !m_.bindings.count(e.kids[0]->str) &&
          !m_.consts.count(e.kids[0]->str))
        return empty_table(e, e.kids[0]->str, expected);
      if (auto t = collections_ctor(e, expected)) return *t;  // stdlib: Counter(...), defaultdict(int) (check_collections.cc)
      return call(e, stmt_level);
    case ExprKind::Subscript: {
      if (auto t = environ_item(e)) return *t;  // os.environ[k] (check_environ.cc)
      if (auto path = dotted(*e.kids[0]); path && !types_.count(path->substr(0, path->find('.'))))
        if (auto cls = m_.classes.find(*path); cls != m_.classes.end())
          if (auto named = foreign_enum_helper(m_, cls->second, "named")) {  // `Color['RED']` of an imported enum
            std::vector<ExprPtr> args;
            args.push_back(std::move(e.kids[1]));
            make_function_call(e, *named, std::move(args));
            return call(e, false);
          }
      Ty bt = value(*e.kids[0], Ty::Error);
      if (namedtuple_item_as_field(e, bt)) return value(e, expected);  // `p[0]` (namedtuple_classes.h)
      if (is_class(bt) && class_info(bt)->methods.count("__getitem__")) {  // check_dunder.cc
        Ty kt = value(*e.kids[1], Ty::Error);
        if (kt == Ty::Error) return kt;
        std::vector<ExprPtr> key;
        key.push_back(std::move(e.kids[1]));
        return dunder_call(e, std::move(e.kids[0]), "__getitem__", std::move(key));
      }
      if (is_tuple(bt) && computed_index(*e.kids[1]) && tuple_as_list(*e.kids[0], bt)) {  // `SHARE[level]`
        Ty r = value(e, expected);
        e.target = "tuple_list";  // its IndexError says 'tuple' (lower_expressions.cc)
        return r;
      }
      if (is_tuple(bt)) return tuple_subscript(e, bt);
      if (maybe_none(*e.kids[0])) return Ty::Error;
      if (is_dict(bt) || is_set(bt)) return dict_subscript(e, bt);
      if (e.kids[1]->kind == ExprKind::Tuple) {
        error(e.kids[1]->pos, "E1010", "multi-dimensional indexing is outside the ppy subset");
        return Ty::Error;
      }
      if (bt == Ty::Str) return str_subscript(e);
      if (e.kids[1]->kind == ExprKind::Slice && is_list(bt)) return list_slice(e, bt);
      if (e.kids[1]->kind == ExprKind::Slice) {
        if (bt != Ty::Error)
          error(e.kids[1]->pos, "E1010", str_cat("slicing ", ty_name(bt), " is outside the ppy subset"));
        return Ty::Error;
      }
      index(*e.kids[1]);
      if (bt == Ty::Error) return Ty::Error;
      if (!is_list(bt)) {
        error(e.pos, "E1030", str_cat(ty_name(bt), " cannot be indexed", is_ptr(bt) ? "; use native.load(native.offset(p, i))" : ""));
        return Ty::Error;
      }
      mark_deque_index(e);  // IndexError's wording (check_deque.cc)
      effect("reads");
      raises();
      return elem_of(bt);
    }
    case ExprKind::List: {
      if (gpu_) {
        error(e.pos, "E1100", "lists are not available in GPU code");
        return Ty::Error;
      }
      if (is_union(expected) || is_union(optional_inner(expected)))  // the union's list (check_union.cc)
        expected = list_alternative(expected);
      if (e.kids.empty()) {
        if (is_list(expected)) return expected;
        if (is_list(optional_inner(expected))) return optional_inner(expected);  // `xs: list[int] | None`
        error(e.pos, "E1030", "the element type of an empty list is unknown; annotate it: `xs: list[int] = []`");
        return Ty::Error;
      }
      Ty want = is_list(expected)                   ? list_elem(expected)
                : is_list(optional_inner(expected)) ? list_elem(optional_inner(expected))
                                                    : Ty::Error;
      Ty et = Ty::Error;
      bool bad = false;
      for (auto& k : e.kids) {
        Ty t = value(*k, et != Ty::Error ? et : want);
        if (t == Ty::Error) { bad = true; continue; }
        if (want != Ty::Error && t != want && element_fits(t, want)) t = want;  // (1, None), or 1 for int | None
        if (!list_holdable(t)) {
          error(k->pos, "E1030",
                str_cat("lists hold int, float, bool, str, lists, tuples and optionals, not ", ty_name(t)));
          bad = true;
          continue;
        }
        if (is_class(t) && is_class(want) && assignable(t, want)) t = want;  // objects of subclasses in a list[Base]
        if (et == Ty::Error)
          et = t;
        else if (is_class(et) && is_class(t) && et != t) {
          error(k->pos, "E1030",
                str_cat("a list mixes ", ty_name(et), " and ", ty_name(t),
                        " objects; annotate it as a list of their base"));
          bad = true;
        } else if (et != t) {
          error(k->pos, "E1030",
                (et == Ty::Int && t == Ty::Float) || (et == Ty::Float && t == Ty::Int)
                    ? std::string("a list mixes int and float elements; write every element as a float (1.0)")
                    : str_cat("a list mixes ", ty_name(et), " and ", ty_name(t), " elements"));
          bad = true;
        }
      }
      if (bad) return Ty::Error;
      return list_of(et);
    }
    case ExprKind::ListComp:
      if (is_genexp(e) && !lazy_ok_.count(&e)) return genexp_value(e, expected);  // a value (check_lazy_values.cc)
      return list_comp(e, expected);
    case ExprKind::Dict:
    case ExprKind::Set:
      return dict_display(e, expected);
    case ExprKind::DictComp:
    case ExprKind::SetComp:
      return table_comp(e, expected);
    case ExprKind::Tuple:
      return tuple_display(e, expected);
    case ExprKind::Slice:
      error(e.pos, "E1010", "a slice outside a subscript");
      return Ty::Error;
    case ExprKind::FString: return fstring(e);
    case ExprKind::FField: return Ty::Error;  // only inside an FString
  }
  return Ty::Error;
}

BodyChecker::Resolved BodyChecker::resolve_path(const std::string& path) {
  Resolved r;
  std::string first = path.substr(0, path.find('.'));
  std::string rest = path.size() > first.size() ? path.substr(first.size() + 1) : "";
  if (rest.empty()) {
    if (auto* f = m_.func(first)) {
      r.ref = Ref::Func;
      r.module = m_.name;
      r.name = f->name;
      return r;
    }
    auto c = m_.consts.find(first);
    if (c != m_.consts.end()) {
      r.ref = Ref::Const;
      r.value = c->second;
      r.ty = c->second.ty;
      return r;
    }
  }
  if (!rest.empty() && rest.find('.') == std::string::npos && m_.classes.count(first)) {
    // `Class.NAME` of a class constant, `Class.m` of a static or class method (check_class_member.cc).
    if (class_member(m_.classes.at(first), rest, r)) return r;
  }
  auto b = m_.bindings.find(first);
  if (b == m_.bindings.end()) {
    if (rest.empty()) {
      static const std::set<std::string> builtins = {"print", "len", "range", "int", "float", "bool",   "abs", "min",
                                                     "max",   "str", "repr",  "ord", "chr",   "sorted", "sum", "list", "hash",
                                                     // lazy sequences
                                                     "any", "all", "zip", "enumerate", "reversed", "next",
                                                     "map", "filter",  // map and filter (check_map.cc)
                                                     /* text */ "format", "hex", "oct", "bin", "round", "divmod", "pow"};
      if (builtins.count(first)) {
        r.ref = Ref::Builtin;
        r.name = first;
      } else if (is_io_name(first)) {  // io (issue 33): input, open
        r.ref = Ref::Sys;
        r.name = first;
      }
    }
    return r;
  }
  const Binding& bd = b->second;
  if (bd.kind == Binding::Special) {
    std::string full = bd.name + (rest.empty() ? "" : "." + rest);
    if (is_io_name(full)) {  // io (issue 33): sys, os, os.path
      r.ref = Ref::Sys;
      r.name = full;
      return r;
    }
    if (!special_names().count(full)) return r;
    r.name = full;
    if (full.starts_with("functools.") || full.starts_with("itertools.")) {  // lazy_builtin (check_functools.cc)
      r.ref = Ref::Builtin;
      return r;
    }
    if (full.starts_with("math.")) r.ref = Ref::Math;
    else if (full.starts_with("ppy.cuda.")) r.ref = Ref::Cuda;
    else if (full.starts_with("ppy.native.")) r.ref = Ref::Native;
    else r.ref = Ref::Ppy;
    if (full == "math.pi" || full == "math.e" || full == "math.inf" || full == "math.tau") {
      r.ref = Ref::Const;
      r.ty = Ty::Float;
      r.value.ty = Ty::Float;
      r.value.f = full == "math.pi" ? M_PI : full == "math.e" ? M_E : full == "math.tau" ? 2 * M_PI : INFINITY;
    }
    if (text_constant(full, r.value)) {  // string's constants, math.nan (text_constants.cc)
      r.ref = Ref::Const;
      r.ty = r.value.ty;
    }
    return r;
  }
  std::string full;
  if (bd.kind == Binding::Module) full = bd.module + (rest.empty() ? "" : "." + rest);
  else full = bd.module + "." + bd.name + (rest.empty() ? "" : "." + rest);
  // The longest prefix naming a module of the project; the rest is one member.
  for (size_t cut = full.size();;) {
    std::string mod = full.substr(0, cut);
    auto it = all_.find(mod);
    if (it != all_.end() && mod != m_.name) {
      std::string member = cut < full.size() ? full.substr(cut + 1) : "";
      if (member.empty()) {
        r.ref = Ref::Module;
        r.module = mod;
        return r;
      }
      if (member.find('.') != std::string::npos) return r;
      auto f = it->second.functions.find(member);
      if (f != it->second.functions.end()) {
        r.ref = Ref::Func;
        r.module = mod;
        r.name = member;
        return r;
      }
      auto c = it->second.constants.find(member);
      if (c != it->second.constants.end()) {
        r.ref = Ref::Const;
        r.ty = ty_from_name(c->second.type);
        r.value.ty = r.ty;
        r.value.i = c->second.i;
        r.value.f = c->second.f;
        r.value.b = c->second.b;
        r.value.s = c->second.s;
        return r;
      }
      return r;
    }
    size_t dot = full.rfind('.', cut - 1);
    if (dot == std::string::npos || cut == 0) break;
    cut = dot;
  }
  return r;
}

Ty BodyChecker::use_const(Expr& e, const Resolved& r) {
  e.ref = Ref::Const;
  if (r.ty == Ty::Str) e.str = r.value.s;  // the text: a constant's name is not needed past here
  e.ival = r.value.i;
  e.fval = r.value.f;
  e.bval = r.value.b;
  return r.ty;
}

Ty BodyChecker::name(Expr& e) {
  if (auto a = exc_alias_.find(e.str); a != exc_alias_.end()) e.str = a->second;  // `as e` of an exception class
  auto lt = types_.find(e.str);
  if (lt != types_.end()) {
    e.ref = Ref::Local;
    e.target = e.str;
    // `_ppy_gv<n>`: a value a split try yields, set just before each read (generator_try.cc).
    // A name the frontend reads under a flag saying it is set (`bval`: a held generator's close,
    // generator_close.h) is not read before assignment either.
    // A module variable is set before any function runs (use_module_var), on every path.
    if (flow_.reachable && !flow_.assigned.count(e.str) && !e.str.starts_with("_ppy_gv") && !e.bval &&
        !globals_.count(e.str)) {
      if (refused_names_.count(e.str)) return Ty::Error;  // a refused statement assigned it
      error(e.pos, "E1060",
            str_cat("'", e.str, "' might be used before it is assigned (", "ppy needs every path to assign a local before reading it)"));
      return Ty::Error;
    }
    if (globals_.count(e.str)) {
      check_after_global(e.str, e.pos, false);
      global_effect(false);
    }
    return narrowed(e.str, lt->second);
  }
  if (names_generic_function(m_, all_, e.str)) {  // generics (check_generic.cc)
    error(e.pos, "E1010",
          str_cat("generic function '", e.str, "' as a value is outside the ppy subset (call it: each call's ",
                  "argument types pick the function it calls)"));
    return Ty::Error;
  }
  Resolved r = resolve_path(e.str);
  if (r.ref == Ref::Const) return use_const(e, r);
  if (r.ref == Ref::Func) return function_value(e, r);  // a function as a value (callable.h)
  if (r.ref == Ref::Sys) return sys_value(e, r.name);  // io (issue 33): `argv` after `from sys import argv`
  if (r.ref == Ref::Unresolved && m_.module_vars.count(e.str) && !f_.module_code) {
    // Python reads a module variable a function does not assign.
    if (!use_module_var(e.str, e.pos)) return Ty::Error;
    e.ref = Ref::Local;
    e.target = e.str;
    global_effect(false);
    return types_[e.str];
  }
  if (auto cls = m_.classes.find(e.str); r.ref == Ref::Unresolved && cls != m_.classes.end())
    if (auto all = foreign_enum_helper(m_, cls->second, "all")) {  // `for c in Color` of an imported enum
      make_function_call(e, *all, {});
      return call(e, false);
    }
  if (r.ref == Ref::Unresolved) {
    if (!refused_names_.count(e.str))
      error(e.pos, "E1020", str_cat("name '", e.str, "' is not defined", name_suggestion(e.str)));
    return Ty::Error;
  }
  if (r.ref == Ref::Builtin && (e.str == "list" || e.str == "dict" || e.str == "set" || e.str == "int" ||
                                e.str == "float" || e.str == "str" || e.str == "bool")) {  // generics
    error(e.pos, "E1010",
          str_cat("the type '", e.str, "' as a value is outside the ppy subset (a type alias is declared at module ",
                  "level: `Name = list[int]`)"));
    return Ty::Error;
  }
  return callable_as_value(e.pos, e.str, r);
}

Ty BodyChecker::callable_as_value(Pos p, const std::string& shown, const Resolved& r) {
  auto b = m_.bindings.find(shown);
  const std::string* special =
      b != m_.bindings.end() && b->second.kind == Binding::Special ? &b->second.name : nullptr;
  if (r.ref == Ref::Module || (special && (python_attributes("module " + *special) || *special == "ppy" ||
                                           *special == "ppy.cuda" || *special == "ppy.native"))) {
    error(p, "E1010",
          str_cat("a module as a value ('", shown, "') is outside the ppy subset: name its members where they are used (`",
                  shown, ".name`)"));
    return Ty::Error;
  }
  if (r.ref == Ref::Cuda || r.ref == Ref::Native) {
    error(p, "E1030", str_cat("'", shown, "' is a function; it can only be called or used as cuda.launch's kernel"));
    return Ty::Error;
  }
  error(p, "E1010",
        str_cat("the function '", shown, "' as a value is outside the ppy subset: call it (a lambda can wrap the call)"));
  return Ty::Error;
}

Ty BodyChecker::attribute(Expr& e) {
  cls_member(e);  // `cls.LIMIT` (check_class_member.cc)
  if (auto t = type_name_attribute(e)) return *t;  // type(x).__name__ (check_type_name.cc)
  auto path = dotted(e);
  // `Status.OPEN.value`: the member of an imported enum is rewritten below, as the inner node's value.
  auto inner = e.kids[0]->kind == ExprKind::Attribute ? dotted(*e.kids[0]) : std::nullopt;
  auto inner_cls = inner ? m_.classes.find(inner->substr(0, inner->rfind('.'))) : m_.classes.end();
  if (inner_cls != m_.classes.end() && foreign_enum(m_, inner_cls->second)) path.reset();
  if (path) {
    std::string first = path->substr(0, path->find('.'));
    int64_t index = 0;
    auto cls = m_.classes.find(path->substr(0, path->rfind('.')));
    if (cls != m_.classes.end() && !types_.count(first))
      if (auto fn = foreign_enum_member(m_, cls->second, e.str, index)) {  // `Status.OPEN` of an imported enum
        Pos p = e.pos;
        std::vector<ExprPtr> args;
        args.push_back(build::int_lit(index, p));
        make_function_call(e, *fn, std::move(args));
        return call(e, false);
      }
    if (auto whole = m_.classes.find(*path); whole != m_.classes.end() && !types_.count(first))
      if (auto all = foreign_enum_helper(m_, whole->second, "all")) {  // `for c in colors.Color`: its members
        make_function_call(e, *all, {});
        return call(e, false);
      }
    if (!types_.count(first)) {
      Resolved r = resolve_path(*path);
      if (r.ref == Ref::Const) return use_const(e, r);
      if (r.ref == Ref::Sys) return sys_value(e, r.name);  // io (issue 33): sys.argv, sys.stdin
      if (r.ref == Ref::Unresolved) {
        if (refused_names_.count(first))
          ;  // a refused statement bound it
        else if (cls != m_.classes.end() && class_info(cls->second)->field(e.str) >= 0) {  // issue 32: `Person.name`
          // A field without a class attribute: python3's AttributeError when read (lower_expressions.cc).
          const ClassInfo& c = *class_info(cls->second);
          e.target = str_cat("class.no_attribute:", c.name);
          raises();
          return c.fields[static_cast<size_t>(c.field(e.str))].second;
        } else if (!m_.bindings.count(first) && !m_.consts.count(first) && !m_.func_index.count(first))
          error(e.kids[0]->pos, "E1020", str_cat("name '", first, "' is not defined"));
        else
          undefined_member(e.pos, *path);  // `math.sqr`
        return Ty::Error;
      }
      return callable_as_value(e.pos, *path, r);  // `sq = math.sqrt`
    }
  }
  Ty bt = value(*e.kids[0], Ty::Error);
  if (bt == Ty::Exc && e.target == "exc.args") return Ty::Str;  // its args' repr, which only repr(e) writes
  if (bt == Ty::Exc && e.str == "__name__") {  // issue 32: `__exit__`'s `exc_type.__name__`
    e.target = "exc.__name__";
    return Ty::Str;
  }
  if (bt == Ty::Exc)
    if (auto t = exception_field(e)) return *t;  // e.code, e.errno, ... (check_environ.cc)
  if (is_exception_args(e, bt)) return exception_args_value(e, bt);  // issue 32 (check_exception_args.cc)
  if (is_class(bt)) return field_read(e, bt);
  if (e.str == "maxlen" && list_elem(bt) != Ty::Error) {  // deque.maxlen: a call of the runtime (lower_deque.cc)
    Pos p = e.pos;
    ExprPtr attr = std::make_unique<Expr>(std::move(e));
    e = std::move(*build::call(std::move(attr), {}, p));
    e.ref = Ref::Sys;
    e.target = "collections.deque.maxlen";
    raises();  // AttributeError of a list that is no deque
    effect("reads");
    return optional_of(Ty::Int);
  }
  if (is_optional(bt) && is_class(optional_inner(bt))) {
    maybe_none(*e.kids[0]);
    return Ty::Error;
  }
  if (bt != Ty::Error)
    refuse_member(e.pos, bt, e.str, str_cat("attributes of ", ty_name(bt), " are outside the ppy subset"));
  return Ty::Error;
}

Ty BodyChecker::unary(Expr& e) {
  if (is_starred(e)) {  // only an unpacking target takes `*rest` (unpack)
    error(e.pos, "E1010", "a starred expression ('*x') is outside the ppy subset here; it unpacks into a target only");
    return Ty::Error;
  }
  Ty t = value(*e.kids[0], Ty::Error);
  if (t == Ty::Error) return t;
  if (e.str == "not") {
    if (is_ptr(t)) error(e.pos, "E1030", "'not' of a native pointer");
    if (is_class(t)) dunder_truth(*e.kids[0]);  // __bool__ / __len__ (check_dunder.cc)
    return Ty::Bool;
  }
  if (maybe_none(*e.kids[0])) return Ty::Error;
  if (is_class(t)) return dunder_unary(e, t);
  if (!is_numeric(t)) {
    error(e.pos, "E1030", str_cat("bad operand type for unary ", e.str, ": '", operand_type_name(*e.kids[0], t), "'"));
    return Ty::Error;
  }
  if (e.str == "~") {
    if (t == Ty::Float) {
      error(e.pos, "E1030", "bad operand type for unary ~: 'float'");
      return Ty::Error;
    }
    return Ty::Int;
  }
  if (e.str == "-" && t != Ty::Float) raises();
  return t == Ty::Bool ? Ty::Int : t;
}

Ty BodyChecker::arith(const std::string& op, Ty a, Ty b, Pos p) {
  if (op == "<<" || op == ">>") {
    if (a == Ty::Float || b == Ty::Float || !is_numeric(a) || !is_numeric(b)) {
      error(p, "E1030", operand_type_error(op, a, b));
      return Ty::Error;
    }
    if (gpu_) {
      error(p, "E1100", str_cat("'", op, "' is not available in GPU code"));
      return Ty::Error;
    }
    raises();  // a negative count (ValueError); `<<` past i64 (OverflowError)
    return Ty::Int;
  }
  if (op == "@") {
    error(p, "E1010", "the '@' operator is outside the ppy subset");
    return Ty::Error;
  }
  if (!is_numeric(a) || !is_numeric(b)) {
    error(p, "E1030", operand_type_error(op, a, b));
    return Ty::Error;
  }
  if (op == "&" || op == "|" || op == "^") {
    if (a == Ty::Float || b == Ty::Float) {
      error(p, "E1030", operand_type_error(op, a, b));
      return Ty::Error;
    }
    return a == Ty::Bool && b == Ty::Bool ? Ty::Bool : Ty::Int;
  }
  bool flt = a == Ty::Float || b == Ty::Float;
  if (op == "/") {
    raises();
    return Ty::Float;
  }
  if (op == "//" || op == "%" || op == "**") raises();
  if (!flt) raises();
  if (op == "**" && gpu_ && !flt) {
    error(p, "E1100", "int ** int is not available in GPU code");
    return Ty::Error;
  }
  return flt ? Ty::Float : Ty::Int;
}

std::string BodyChecker::operand_type_name(const Expr& e, Ty t) const {
  if (t == Ty::Exc && e.kind == ExprKind::Name)
    if (auto c = exc_class_.find(e.str); c != exc_class_.end()) return c->second;
  return python_type_of(t);
}

Ty BodyChecker::binary(Expr& e) {
  const std::string& op = e.str;
  // `[x] * n` and `n * [x]`: a list of n copies.
  if (op == "*" && (e.kids[0]->kind == ExprKind::List || e.kids[1]->kind == ExprKind::List)) {
    Expr& lst = e.kids[0]->kind == ExprKind::List ? *e.kids[0] : *e.kids[1];
    Expr& cnt = e.kids[0]->kind == ExprKind::List ? *e.kids[1] : *e.kids[0];
    if (lst.kids.size() != 1) {
      error(lst.pos, "E1010", "list repetition is supported for one-element lists only: `[x] * n`");
      return Ty::Error;
    }
    Ty lt = value(lst, Ty::Error);
    Ty ct = value(cnt, Ty::Int);
    if (lt == Ty::Error || ct == Ty::Error) return Ty::Error;
    if (ct != Ty::Int && ct != Ty::Bool) {
      error(cnt.pos, "E1030", str_cat("can't multiply a list by ", ty_name(ct)));
      return Ty::Error;
    }
    e.target = "repeat";
    effect("writes");
    return lt;
  }
  ExprPtr copy_a = exc_arg_copy(*e.kids[0]), copy_b = exc_arg_copy(*e.kids[1]);
  Ty a = value(*e.kids[0], Ty::Error), b = value(*e.kids[1], Ty::Error);
  if (a == Ty::Error || b == Ty::Error) return Ty::Error;
  if (maybe_none(*e.kids[0]) || maybe_none(*e.kids[1])) return Ty::Error;
  // `e.args[1] + 1`, `"x" + e.args[0]`: a builtin exception's argument as the other operand's type
  // (`"-" * e.args[1]`: an int), raising python3's TypeError where it holds another (check_exception_args.cc).
  if (!(op == "%" && a == Ty::Str)) {
    auto as_other = [&](Ty other) { return op == "*" && other == Ty::Str ? Ty::Int : other; };
    if (exc_arg_as(*e.kids[0], copy_a, a, as_other(b),
                   str_cat("Tunsupported operand type(s) for ", op, ": '{}' and '", python_type_of(b), "'")) ||
        exc_arg_as(*e.kids[1], copy_b, b, as_other(a),
                   op == "+" && a == Ty::Str
                       ? std::string("Tcan only concatenate str (not \"{}\") to str")
                       : str_cat("Tunsupported operand type(s) for ", op, ": '", python_type_of(a), "' and '{}'")))
      if (a == Ty::Error || b == Ty::Error) return Ty::Error;
  }
  if (is_class(a) || is_class(b)) return dunder_binary(e, a, b);  // check_dunder.cc
  if ((a == Ty::Exc || b == Ty::Exc) && !(op == "%" && a == Ty::Str)) {  // python3 names the exception's class
    error(e.pos, "E1030",
          operand_type_error(op, a, b, operand_type_name(*e.kids[0], a), operand_type_name(*e.kids[1], b)));
    return Ty::Error;
  }
  if (a == Ty::Str || b == Ty::Str) return str_binary(e, a, b);
  if (is_dict(a) && is_dict(b)) return counter_binary(e, a, b);  // stdlib (check_counter.cc)
  if (op == "+" && is_list(a) && a == b) {
    e.target = "list.concat";
    return a;
  }
  if (is_list(a) || is_list(b)) {
    error(e.pos, "E1010", str_cat("'", op, "' on lists is outside the ppy subset"));
    return Ty::Error;
  }
  return arith(op, a, b, e.pos);
}

Ty BodyChecker::compare(Expr& e) {
  if (auto t = type_compare(e)) return *t;  // type(x) is C (check_type_name.cc)
  if (auto t = environ_contains(e)) return *t;  // k in os.environ (check_environ.cc)
  bool compound = false;
  for (auto& op : e.ops) compound = compound || op == "is" || op == "is not";
  bool ok = true;
  // An empty list display takes the type of the operand it is compared with (`xs == []`).
  // A list display takes it too, after the other operands (`opts == [None, 3]` of a list[int | None]).
  auto empty_list = [](const Expr& k) { return k.kind == ExprKind::List && k.kids.empty(); };
  // An empty `set()`, `dict()` or `{}` takes the type of the set or dict it is compared with
  // (`step(cells) == set()`), as an annotation would give it.
  auto empty_table = [](const Expr& k) {
    if (k.kind == ExprKind::Dict) return k.kids.empty();
    return k.kind == ExprKind::Call && k.kids.size() == 1 && k.keywords.empty() &&
           k.kids[0]->kind == ExprKind::Name && (k.kids[0]->str == "set" || k.kids[0]->str == "dict");
  };
  // `x in (a, b)`: a tuple display tested for membership finds what the list display of its elements
  // finds (`==` in order, every element evaluated first), so it is that list (its elements of one type).
  for (size_t i = 1; i < e.kids.size(); ++i)
    if ((e.ops[i - 1] == "in" || e.ops[i - 1] == "not in") && e.kids[i]->kind == ExprKind::Tuple &&
        !e.kids[i]->kids.empty())
      e.kids[i]->kind = ExprKind::List;
  std::vector<Ty> ts(e.kids.size(), Ty::Error);
  std::vector<ExprPtr> copies(e.kids.size());
  // `e.args == (key,)` of a builtin exception: the repr of its args tuple and of the tuple (shown_args.h).
  bool eq_tuple = e.kids.size() == 2 && (e.ops[0] == "==" || e.ops[0] == "!=") &&
                  (e.kids[0]->kind == ExprKind::Tuple || e.kids[1]->kind == ExprKind::Tuple);
  size_t tuple_at = eq_tuple && e.kids[0]->kind == ExprKind::Tuple ? 0 : 1;
  for (size_t i = 0; i < e.kids.size(); ++i) {
    if (e.kids[i]->kind == ExprKind::List || (eq_tuple && i == tuple_at) || empty_table(*e.kids[i])) continue;
    copies[i] = exc_arg_copy(*e.kids[i]);
    ArgsUseMark marked(*e.kids[i], eq_tuple ? ArgsUse::Shown : ArgsUse::Value);
    ts[i] = value(*e.kids[i], Ty::Error);
  }
  if (eq_tuple) {
    if (shows_exception_args(*e.kids[1 - tuple_at])) {
      std::vector<ExprPtr> a;
      a.push_back(std::move(e.kids[tuple_at]));
      e.kids[tuple_at] = build::call(build::name("repr", e.pos), std::move(a), e.pos);
    }
    ts[tuple_at] = value(*e.kids[tuple_at], Ty::Error);
  }
  for (size_t i = 0; i + 1 < e.kids.size(); ++i) {  // `e.args[1] > 5`: an exception's argument as the other's type
    const std::string& op = e.ops[i];
    if (op != "<" && op != "<=" && op != ">" && op != ">=") continue;
    std::string what = str_cat("T'", op, "' not supported between instances of '");
    if (!exc_arg_as(*e.kids[i], copies[i], ts[i], ts[i + 1], str_cat(what, "{}' and '", python_type_of(ts[i + 1]), "'")))
      exc_arg_as(*e.kids[i + 1], copies[i + 1], ts[i + 1], ts[i], str_cat(what, python_type_of(ts[i]), "' and '{}'"));
  }
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < e.kids.size(); ++i) {
      if (e.kids[i]->kind != ExprKind::List || empty_list(*e.kids[i]) != (pass == 1)) continue;
      Ty want = i + 1 < ts.size() && is_list(ts[i + 1]) ? ts[i + 1] : i > 0 ? ts[i - 1] : Ty::Error;
      ts[i] = value(*e.kids[i], want);
    }
  for (size_t i = 0; i < e.kids.size(); ++i) {
    if (!empty_table(*e.kids[i])) continue;
    auto table = [](Ty t) { return is_set(t) || is_dict(t); };
    Ty want = i + 1 < ts.size() && table(ts[i + 1]) ? ts[i + 1] : i > 0 ? ts[i - 1] : Ty::Error;
    ts[i] = value(*e.kids[i], want);
  }
  for (Ty t : ts)
    if (t == Ty::Error) ok = false;
  if (!ok) return Ty::Error;
  int_enum_operands(e, ts);  // issue 32: `p == 2` of an IntEnum member (check_int_enum.cc)
  if (compares_by_dunder(e, ts)) return dunder_compare(e, ts[0], ts[1]);  // check_dunder.cc
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    const std::string& op = e.ops[i];
    if ((op == "in" || op == "not in") && ts.size() == 2 && tuple_as_list(*e.kids[1], ts[1]))  // `x in LEVELS`
      if ((ts[1] = value(*e.kids[1], Ty::Error)) == Ty::Error) return Ty::Error;
    if ((op == "in" || op == "not in") && is_list(ts[i + 1]) && ts.size() == 2) return list_contains(e, ts);
    if ((op == "in" || op == "not in") && (is_dict(ts[i + 1]) || is_set(ts[i + 1])) && ts.size() == 2)
      return dict_contains(e, ts);
    if ((op == "in" || op == "not in") && !(ts[i] == Ty::Str && ts[i + 1] == Ty::Str)) {
      error(e.pos, "E1010",
            str_cat("'", op, "' of ", ty_name(ts[i]), " and ", ty_name(ts[i + 1]),
                    " is outside the ppy subset (it tests a substring of a str)"));
      return Ty::Error;
    }
  }
  for (Ty t : ts)
    if ((is_list(t) || is_dict(t) || is_set(t)) && !compound) return compare_lists(e, ts);
  for (Ty t : ts) compound = compound || t >= Ty::FirstCompound;
  if (compound) return compare_compound(e, ts);
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    if (ts[i] == Ty::Str && ts[i + 1] == Ty::Str) continue;  // by code point; `in` is a substring test
    if (!is_numeric(ts[i]) || !is_numeric(ts[i + 1])) {
      error(e.pos, "E1030", str_cat("cannot compare ", ty_name(ts[i]), " and ", ty_name(ts[i + 1])));
      return Ty::Error;
    }
  }
  return Ty::Bool;
}

}  // namespace ppy::frontend::checking
