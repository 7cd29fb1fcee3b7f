// IR generation, print(): each argument printed by its type without making a str
// where the runtime can print it directly.
#include "generic_classes.h"  // shown_name
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {
namespace {

/// stdlib: whether annotation `a` is `deque[...]` (check_deque.cc).
bool deque_annotation(const Expr* a) {
  if (!a || a->kind != ExprKind::Subscript) return false;
  const Expr& b = *a->kids[0];
  return (b.kind == ExprKind::Name && b.str == "deque") ||
         (b.kind == ExprKind::Attribute && b.str == "deque" && b.kids[0]->kind == ExprKind::Name &&
          b.kids[0]->str == "collections");
}

/// Whether a statement of `body` (nested ones too) makes local `name` a deque: `name: deque[T] = ...` or
/// `name = deque(...)`.
bool assigns_deque(const std::vector<StmtPtr>& body, const std::string& name) {
  for (auto& s : body) {
    if (!s) continue;
    bool named = false;
    for (auto& t : s->targets) named = named || (t && t->kind == ExprKind::Name && t->str == name);
    if (named && s->kind == StmtKind::AnnAssign && deque_annotation(s->annotation.get())) return true;
    if (named && s->kind == StmtKind::Assign && s->value && s->value->kind == ExprKind::Call &&
        s->value->target == "collections.deque")
      return true;
    bool found = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { found = found || assigns_deque(b, name); });
    if (found) return true;
  }
  return false;
}

/// stdlib: whether local `name` of `f` holds a deque (docs/stdlib.md, "deque"). A deque is typed as its
/// list, so this is how `print(d)` of a deque of numbers prints `deque([...])` rather than the list's
/// inline `[...]`.
bool holds_deque(const FuncDef* f, const std::string& name) {
  if (!f) return false;
  for (auto& prm : f->params)
    if (prm.name == name) return deque_annotation(prm.annotation.get());
  return assigns_deque(f->body, name);
}

}  // namespace

void FunctionLowerer::print_call(const Expr& e) {
  Pos p = e.pos;
  for (auto& k : e.keywords)
    if (k.name == "file" || (k.name == "flush" && k.value->bval)) return print_to_stream(e);  // io (issue 33)
  std::vector<std::pair<Value*, const Expr*>> vals;
  std::map<size_t, std::vector<std::string>> choices;
  for (size_t i = 1; i < e.kids.size(); ++i) {
    const Expr& a = *e.kids[i];
    Value* v = nullptr;
    if (a.ty == Ty::Str && literal_choice(a)) {
      if (a.kind != ExprKind::Str) v = str_choice(a, choices[i - 1]);
    } else {
      v = expr(a);
    }
    vals.emplace_back(v, &a);
  }
  const std::string* sep = nullptr;
  const std::string* end = nullptr;
  for (auto& k : e.keywords) {
    if (k.name == "sep") sep = &k.value->str;
    if (k.name == "end") end = &k.value->str;
  }
  for (size_t i = 0; i < vals.size(); ++i) {
    if (i > 0) {
      if (!sep)
        call_extern("ppy_print_space", {}, p);
      else if (!sep->empty())
        print_text(*sep, p);
    }
    if (choices.count(i))
      print_choice(vals[i].first, choices[i], p);
    else
      print_value(vals[i].first, *vals[i].second, p);
  }
  if (!end)
    call_extern("ppy_print_newline", {}, p);
  else if (!end->empty())
    print_text(*end, p);
}

bool FunctionLowerer::literal_choice(const Expr& e) {
  if (e.kind == ExprKind::Str) return true;
  return e.kind == ExprKind::IfExp && literal_choice(*e.kids[1]) && literal_choice(*e.kids[2]);
}

Value* FunctionLowerer::str_choice(const Expr& e, std::vector<std::string>& texts) {
  Pos p = e.pos;
  if (e.kind == ExprKind::Str) {
    texts.push_back(e.str);
    return const_i64(static_cast<int64_t>(texts.size() - 1), p);
  }
  Value* c = truth(expr(*e.kids[0]), e.kids[0]->ty, p);
  return choose(
      c, {"str.then", "str.else", "str.end"}, [&] { return str_choice(*e.kids[1], texts); },
      [&] { return str_choice(*e.kids[2], texts); }, Type::i64(), p);
}

void FunctionLowerer::print_choice(Value* idx, const std::vector<std::string>& texts, Pos p) {
  int n = ++labels_;
  Block* end = new_block("str.printed", n);
  for (size_t k = 0; k < texts.size(); ++k) {
    if (k + 1 == texts.size()) {
      print_text(texts[k], p);
      br(end, {}, p);
      break;
    }
    Block* yes = new_block(str_cat("str.is", n, "."), static_cast<int>(k));
    Block* no = new_block(str_cat("str.not", n, "."), static_cast<int>(k));
    cond_br(cmp("eq", idx, const_i64(static_cast<int64_t>(k), p), p), yes, {}, no, {}, p);
    cur_ = yes;
    print_text(texts[k], p);
    br(end, {}, p);
    cur_ = no;
  }
  cur_ = end;
}

void FunctionLowerer::print_value(Value* v, const Expr& a, Pos p) {
  switch (a.ty) {
    case Ty::Str:
      if (a.kind == ExprKind::Str)
        print_text(a.str, p);
      else
        call_extern("ppy_print_string", {v}, p);
      return;
    case Ty::Int:
      call_extern("ppy_print_i64", {v}, p);
      return;
    case Ty::Float:
      call_extern("ppy_print_f64", {v}, p);
      return;
    case Ty::Bool:
      call_extern("ppy_print_bool", {v}, p);
      return;
    case Ty::Exc:
      call_extern("ppy_print_string", {extract(v, 1, p)}, p);
      return;
    case Ty::ListInt:
    case Ty::ListFloat:
      if ((a.kind == ExprKind::Name && holds_deque(f_.def, a.str)) ||
          (a.kind == ExprKind::Call && a.target == "collections.deque") ||
          a.kind == ExprKind::Attribute) {  // stdlib: `deque([1, 2])`; a field may hold a deque (lazy4)
        call_extern("ppy_print_string", {list_repr(v, a.ty, p)}, p);
        return;
      }
      print_number_list(v, a.ty, p);
      return;
    default:
      if (is_list(a.ty)) {
        call_extern("ppy_print_string", {list_repr(v, a.ty, p)}, p);
        return;
      }
      if (is_table(a.ty)) {
        call_extern("ppy_print_string", {str_of(v, a.ty, p)}, p);
        return;
      }
      if (a.ty >= Ty::FirstCompound) print_compound(v, a.ty, p);
      return;
  }
}

void FunctionLowerer::print_number_list(Value* v, Ty t, Pos p) {
  print_text("[", p);
  Value* len = list_len(v, p);
  Value* zero = const_i64(0, p);
  LoopBlocks b = new_loop("print", false, {"sep", "elem"});
  auto body = [&](Value* i) {
    Block* sep = b.inner[0];
    Block* elem = b.inner[1];
    cond_br(cmp("gt", i, zero, p), sep, {}, elem, {}, p);
    cur_ = sep;
    print_text(", ", p);
    br(elem, {}, p);
    cur_ = elem;
    Value* x = emit("core.buffer_load", {v, cast(i, Type::index(), p)}, {ir_type(elem_of(t))}, {}, p);
    call_extern(t == Ty::ListInt ? "ppy_print_i64" : "ppy_print_f64", {x}, p);
  };
  loop(
      b, zero, [&](Value* i) { return cmp("lt", i, len, p); }, body, nullptr, "proven", p);
  print_text("]", p);
}

void FunctionLowerer::print_compound(Value* v, Ty t, Pos p, bool repr) {
  if (is_class(t) && custom_text(t)) {  // __str__, __repr__, an exception, Python's default (lower_dunder.cc)
    call_extern("ppy_print_string", {repr ? object_repr(v, t, p) : object_str(v, t, p)}, p);
    return;
  }
  if (is_class(t)) {  // a dataclass: `Point(x=1, y=2)`
    const ClassInfo& c = *class_info(t);
    print_text(shown_name(c) + "(", p);
    for (size_t i = 0; i < c.fields.size(); ++i) {
      print_text(str_cat(i ? ", " : "", c.fields[i].first, "="), p);
      print_typed(field_get(v, t, c.fields[i].first, p), c.fields[i].second, p, true);
    }
    print_text(")", p);
    return;
  }
  if (is_list(t) || is_table(t)) {  // a dataclass's field may be a dict or a set
    call_extern("ppy_print_string", {str_of(v, t, p)}, p);
    return;
  }
  if (is_union(t)) {  // issue 32: what it holds (lower_union.cc)
    call_extern("ppy_print_string", {union_text(v, t, repr, p)}, p);
    return;
  }
  if (is_none_value(t)) {
    print_text("None", p);
    return;
  }
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    print_text("(", p);
    for (size_t i = 0; i < elems.size(); ++i) {
      if (i > 0) print_text(", ", p);
      print_typed(extract(v, i, p), elems[i], p, true);
    }
    print_text(elems.size() == 1 ? ",)" : ")", p);
    return;
  }
  if (is_optional(t)) {
    auto some = [&]() -> Value* {
      print_typed(extract(v, 1, p), optional_inner(t), p, repr);
      return nullptr;
    };
    auto none = [&]() -> Value* {
      print_text("None", p);
      return nullptr;
    };
    choose(extract(v, 0, p), {"opt.some", "opt.none", "opt.printed"}, some, none, Type::void_(), p);
  }
}

void FunctionLowerer::print_typed(Value* v, Ty t, Pos p, bool repr) {
  if (t == Ty::Str) {
    call_extern("ppy_print_string", {repr ? rt("ppy_str_repr", {v}, str_type(), p) : v}, p);
    return;
  }
  if (t == Ty::Int)
    call_extern("ppy_print_i64", {v}, p);
  else if (t == Ty::Float)
    call_extern("ppy_print_f64", {v}, p);
  else if (t == Ty::Bool)
    call_extern("ppy_print_bool", {v}, p);
  else if (is_list(t))
    call_extern("ppy_print_string", {list_repr(v, t, p)}, p);
  else
    print_compound(v, t, p, repr);
}

void FunctionLowerer::print_text(const std::string& text, Pos p) {
  call_extern("ppy_print_str", {}, p, {{"text", text}});
}

}  // namespace ppy::frontend::lowering
