// IR generation, exception classes (docs/runtime.md, "Exceptions"): an
// instance's hidden fields (its classes, str() and reprs of its arguments),
// BaseException's __init__, raising an instance.
#include "builtin_exceptions.h"
#include "checker_internal.h"  // dotted
#include "class_ids.h"
#include "exception_classes.h"
#include "exception_init_args.h"
#include "generic_classes.h"  // shown_name
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

void FunctionLowerer::set_exception_args(Value* obj, Ty cls, const std::vector<Value*>& args,
                                         const std::vector<Ty>& types, Pos p) {
  const bool key_error = class_info(cls)->exception_base == "KeyError";
  if (args.size() == 1 && types[0] == Ty::Str) {
    // The common `E("text")`: its repr and its list wait until repr(e) or e.args reads them
    // (exception_classes.h, `__argraw`), so a raise allocates neither (issue 32).
    // str() of a KeyError is its key's repr, as Python has it.
    field_set(obj, cls, std::string(kExcStrField), key_error ? repr_str(args[0], Ty::Str, p) : args[0], p);
    field_set(obj, cls, std::string(kExcArgsField), args[0], p);
    field_set(obj, cls, std::string(kExcArgRawField), const_bool(true, p), p);
    return;
  }
  auto cat = [&](Value* a, Value* b) { return rt("ppy_str_concat", {a, b}, str_type(), p); };
  Value* reprs = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    Value* r = repr_str(args[i], types[i], p);
    reprs = reprs ? cat(cat(reprs, str_literal(", ", p)), r) : r;
  }
  Value* text;
  if (args.empty()) {
    text = str_literal("", p);
  } else if (args.size() == 1) {
    text = key_error ? reprs : str_of(args[0], types[0], p);
  } else {
    text = cat(cat(str_literal("(", p), reprs), str_literal(")", p));
  }
  field_set(obj, cls, std::string(kExcStrField), text, p);
  field_set(obj, cls, std::string(kExcArgsField), reprs ? reprs : str_literal("", p), p);
  field_set(obj, cls, std::string(kExcArgRawField), const_bool(false, p), p);  // a refill after a lazy fill
  // e.args reads each argument back from its str() (exception_args.h).
  Value* argv = new_list(list_of(Ty::Str), const_index(static_cast<int64_t>(args.size()), p), p);
  for (size_t i = 0; i < args.size(); ++i)
    emit("core.buffer_store", {str_of(args[i], types[i], p), argv, const_index(static_cast<int64_t>(i), p)}, {}, {}, p);
  field_set(obj, cls, std::string(kExcArgvField), argv, p);
}

void FunctionLowerer::init_exception(Value* obj, Ty cls, const Expr& ctor, const std::vector<Value*>& args, Pos p) {
  field_set(obj, cls, std::string(kExcClassesField), str_literal(exception_classes(*class_info(cls)), p), p);
  // BaseException.__new__ keeps the positional arguments, whatever __init__ does with them.
  // An argument given to an __init__ parameter has the parameter's type (an int made a float).
  const ClassInfo& c = *class_info(cls);
  const FuncInfo* init = nullptr;
  if (auto it = c.methods.find("__init__"); it != c.methods.end()) init = &method(it->second, "__init__");
  if (init && init->def && init_refills_args_first(*init->def)) return;  // exception_init_args.h
  std::vector<Value*> given;
  std::vector<Ty> types;
  for (size_t i = 1; i < ctor.kids.size() && i - 1 < args.size(); ++i) {
    given.push_back(args[i - 1]);
    types.push_back(init && i < init->params.size() ? init->params[i] : ctor.kids[i]->ty);
  }
  set_exception_args(obj, cls, given, types, p);
}

void FunctionLowerer::base_exception_init(const Expr& e) {
  std::vector<Value*> args;
  std::vector<Ty> types;
  for (size_t i = 1; i < e.kids.size(); ++i) {
    args.push_back(expr(*e.kids[i]));
    types.push_back(e.kids[i]->ty);
  }
  const std::string& self = f_.def->params[0].name;
  set_exception_args(load_local(self, e.pos), f_.def->params[0].ty, args, types, e.pos);
}

Value* FunctionLowerer::exception_value(Value* obj, Ty cls, Pos p) {
  // Its own class's name (the module dropped, as ppy_exc_name gives it), str(), itself, its classes;
  // no args repr: repr() of the value is made from the name and str() (docs/runtime.md, "Exceptions").
  Value* name = by_class(
      obj, cls, str_type(), [](Ty k) { return shown_name(*class_info(k)); },
      [&](Ty k) { return str_literal(shown_name(*class_info(k)), p); }, p);
  Value* msg = object_str(obj, cls, p);
  Value* classes = field_get(obj, cls, std::string(kExcClassesField), p);
  return make_tuple({name, msg, obj, classes, str_literal("", p)}, Ty::Exc, p);
}

Value* FunctionLowerer::exception_isinstance(const Expr& e) {
  Pos p = e.pos;
  Value* exc = expr(*e.kids[1]);
  const Expr& k = *e.kids[2];
  std::vector<const Expr*> names;
  if (k.kind == ExprKind::Tuple)
    for (auto& x : k.kids) names.push_back(x.get());
  else
    names.push_back(&k);
  std::string listed;  // what `except (K...)` would list (lower_exceptions.cc's try_except)
  for (const Expr* x : names) {
    auto path = checking::dotted(*x);
    auto ci = path ? m_.classes.find(*path) : m_.classes.end();
    bool own = ci != m_.classes.end() && is_exception_class(ci->second);
    listed += str_cat(listed.empty() ? "" : " ", own ? exception_class_name(*class_info(ci->second)) : caught_by(x->str));
  }
  Value* m = rt("ppy_exc_matches", {extract(exc, 3, p), str_literal(listed, p)}, Type::i64(), p);
  return cmp("ne", m, const_i64(0, p), p);
}

void FunctionLowerer::raise_object(Value* obj, Ty cls, Pos p) {
  Value* classes = field_get(obj, cls, std::string(kExcClassesField), p);
  Value* msg = object_str(obj, cls, p);
  call_extern("ppy_exc_raise_object", {classes, msg, obj}, p);
  emit("core.unreachable", {}, {}, {}, p);
}

}  // namespace ppy::frontend::lowering
