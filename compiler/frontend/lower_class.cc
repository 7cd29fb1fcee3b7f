// IR generation, objects (docs/runtime.md, "Objects"): fields, construction, method
// calls dispatched by type id, isinstance, reprs and equality of dataclasses.
#include <algorithm>
#include <functional>

#include "generic_classes.h"  // shown_name
#include "exception_classes.h"
#include "field_init.h"
#include "imported_classes.h"
#include "lower.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

void FunctionLowerer::note_layout(Ty cls) {
  const ClassInfo& c = *class_info(cls);
  if (!c.owner || c.owner == &m_) return;
  // What this module's code took of another module's class (fields, type ids, the methods of its
  // subtree): the module's `ppy.imported_classes`, part of its cache key (docs/cache.md).
  std::string line;
  std::function<void(Ty)> visit = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    str_append(line, k.module, ".", k.name, " [", k.tid, ",", k.tid_end, ")");
    for (auto& [n, ft] : k.fields) str_append(line, " ", n, ":", ty_name(ft));
    for (auto& [n, impl] : k.methods) str_append(line, " ", n, "@", ty_name(impl));
    line += ";";
    for (Ty sub : k.subclasses) visit(sub);
  };
  visit(cls);
  line = "{" + line + "}";
  std::string all;
  if (const auto* a = mod_.attributes().get("ppy.imported_classes"); a && a->is<std::string>()) all = a->as_string();
  if (all.find(line) == std::string::npos) mod_.attributes().set("ppy.imported_classes", all + line);
}

Value* FunctionLowerer::object_struct(Value* obj, Ty cls, Pos p) {
  note_layout(cls);
  Type st = struct_type(cls);
  return emit("core.load", {cast(obj, Type::ptr(st), p)}, {st}, {}, p);
}

Value* FunctionLowerer::field_get(Value* obj, Ty cls, const std::string& name, Pos p) {
  const ClassInfo& c = *class_info(cls);
  int i = c.field(name);
  Value* s = object_struct(obj, cls, p);
  if (c.field(field_set_flag(name)) >= 0) check_field_set(s, cls, name, p);  // lower_field_init.cc
  return emit("core.struct_extract", {s}, {ir_type(c.fields[static_cast<size_t>(i)].second)}, {{"field", name}}, p);
}

Value* FunctionLowerer::repr_str(Value* v, Ty t, Pos p) {
  auto cat = [&](Value* a, Value* b) { return rt("ppy_str_concat", {a, b}, str_type(), p); };
  if (t == Ty::Str) return rt("ppy_str_repr", {v}, str_type(), p);
  if (is_none_value(t)) return str_literal("None", p);
  // A dataclass family whose only custom text is `__str__` reprs by its fields (object_repr would come back here).
  std::function<bool(Ty)> field_repr = [&](Ty k) {
    const ClassInfo& c = *class_info(k);
    if (!c.dataclass || c.methods.count("__repr__")) return false;
    for (Ty sub : c.subclasses)
      if (!field_repr(sub)) return false;
    return true;
  };
  if (is_class(t) && custom_text(t) && !field_repr(t)) return object_repr(v, t, p);  // lower_dunder.cc
  if (is_class(t)) {
    const ClassInfo& c = *class_info(t);
    Value* s = str_literal(shown_name(c) + "(", p);
    for (size_t i = 0; i < c.fields.size(); ++i) {
      s = cat(s, str_literal(str_cat(i ? ", " : "", c.fields[i].first, "="), p));
      s = cat(s, repr_str(field_get(v, t, c.fields[i].first, p), c.fields[i].second, p));
    }
    return cat(s, str_literal(")", p));
  }
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    Value* s = str_literal("(", p);
    for (size_t i = 0; i < elems.size(); ++i) {
      if (i) s = cat(s, str_literal(", ", p));
      s = cat(s, repr_str(extract(v, i, p), elems[i], p));
    }
    return cat(s, str_literal(elems.size() == 1 ? ",)" : ")", p));
  }
  if (is_optional(t)) {
    return choose(
        extract(v, 0, p), {"repr.some", "repr.none", "repr.end"},
        [&] { return repr_str(extract(v, 1, p), optional_inner(t), p); }, [&] { return str_literal("None", p); },
        str_type(), p);
  }
  return str_of(v, t, p);
}

void FunctionLowerer::field_set(Value* obj, Ty cls, const std::string& name, Value* v, Pos p) {
  const ClassInfo& c = *class_info(cls);
  note_layout(cls);
  Type st = struct_type(cls);
  Value* ptr = cast(obj, Type::ptr(st), p);
  Value* s = emit("core.load", {ptr}, {st}, {}, p);
  std::vector<Value*> vals{emit("core.struct_extract", {s}, {Type::i64()}, {{"field", "__tid"}}, p)};
  std::string flag = field_set_flag(name);
  for (auto& [n, t] : c.fields)
    vals.push_back(n == name   ? v
                   : n == flag ? const_bool(true, p)
                               : emit("core.struct_extract", {s}, {ir_type(t)}, {{"field", n}}, p));
  emit("core.store", {emit("core.struct_make", std::move(vals), {st}, {}, p), ptr}, {}, {}, p);
}

Value* FunctionLowerer::type_id(Value* obj, Ty cls, Pos p) {
  return emit("core.struct_extract", {object_struct(obj, cls, p)}, {Type::i64()}, {{"field", "__tid"}}, p);
}

std::vector<Value*> FunctionLowerer::placed_args(const Expr& e, const std::vector<Ty>& params) {
  std::vector<std::pair<int, const Expr*>> placed;
  for (size_t i = 1; i < e.kids.size(); ++i) placed.emplace_back(e.kids[i]->param_index, e.kids[i].get());
  for (auto& k : e.keywords) placed.emplace_back(k.value->param_index, k.value.get());
  std::vector<Value*> args(placed.size(), nullptr);
  std::vector<Value*> vals;
  for (auto& [i, x] : placed) vals.push_back(expr(*x));  // in source order, as Python evaluates them
  for (size_t k = 0; k < placed.size(); ++k) {
    size_t i = static_cast<size_t>(placed[k].first);
    if (i >= args.size()) continue;
    args[i] = i < params.size() ? coerce(vals[k], placed[k].second->ty, params[i], e.pos) : vals[k];
  }
  return args;
}

const FuncInfo& FunctionLowerer::method(Ty impl, const std::string& name) const {
  const FuncInfo* f = checking::class_method(m_, impl, name);  // an imported class's, from its module (imported_classes.h)
  if (const ModuleInfo& home = checking::owner_of(m_, impl); &home != &m_) foreign_[f] = home.name;
  return *f;
}

Value* FunctionLowerer::call_method(const FuncInfo& f, Value* self, std::vector<Value*> args, Pos p) {
  args.insert(args.begin(), self);
  std::vector<Type> res;
  if (f.result != Ty::None) res.push_back(ir_type(f.result));
  std::string module = m_.name;
  if (auto it = foreign_.find(&f); it != foreign_.end()) {  // a method of an imported class: external here
    module = it->second;
    declare_foreign(mod_, module, f);
  }
  return emit("core.call", std::move(args), res, {{"callee", SymbolRef{symbol_name(module, f.name)}}}, p);
}

Value* FunctionLowerer::construct(const Expr& e) {
  Pos p = e.pos;
  Ty cls = e.ty;
  const ClassInfo& c = *class_info(cls);
  note_layout(cls);
  Type st = struct_type(cls);
  std::vector<Ty> params;
  const FuncInfo* init = nullptr;
  if (c.dataclass) {
    for (auto& f : c.fields) params.push_back(f.second);
  } else if (auto it = c.methods.find("__init__"); it != c.methods.end()) {
    init = &method(it->second, "__init__");
    params.assign(init->params.begin() + 1, init->params.end());
  }
  std::vector<Value*> args = placed_args(e, params);
  Value* obj = rt("ppy_obj_new", {const_i64(object_bytes(st), p), const_i64(c.tid, p)}, str_type(), p);
  if (!c.exception_base.empty()) init_exception(obj, cls, e, args, p);  // lower_exception_class.cc
  if (c.dataclass) {
    args.insert(args.begin(), const_i64(c.tid, p));
    emit("core.store", {emit("core.struct_make", std::move(args), {st}, {}, p), cast(obj, Type::ptr(st), p)}, {}, {},
         p);
    if (auto post = c.methods.find("__post_init__"); post != c.methods.end())
      call_method(method(post->second, "__post_init__"), obj, {}, p);
  } else if (init) {
    call_method(*init, obj, std::move(args), p);
  }
  return obj;
}

Value* FunctionLowerer::method_call(const Expr& e) {
  Pos p = e.pos;
  const Expr& callee = *e.kids[0];
  Ty cls = callee.kids[0]->ty;
  const std::string& name = e.target;
  Value* self = attribute_owner(*callee.kids[0], name);
  note_layout(cls);
  const FuncInfo& first = method(class_info(cls)->methods.at(name), name);
  std::vector<Value*> args = placed_args(e, std::vector<Ty>(first.params.begin() + 1, first.params.end()));
  // The implementation each class of the subtree runs, by type id.
  std::vector<std::pair<Ty, std::vector<int64_t>>> impls;
  std::function<void(Ty)> visit = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    Ty impl = k.methods.at(name);
    auto it = std::find_if(impls.begin(), impls.end(), [&](auto& x) { return x.first == impl; });
    if (it == impls.end())
      impls.push_back({impl, {k.tid}});
    else
      it->second.push_back(k.tid);
    for (Ty sub : k.subclasses) visit(sub);
  };
  visit(cls);
  if (impls.size() == 1) return call_method(method(impls[0].first, name), self, std::move(args), p);
  Value* tid = type_id(self, cls, p);
  int n = ++labels_;
  Block* join = new_block("method.end", n);
  for (size_t k = 0; k < impls.size(); ++k) {
    const FuncInfo& f = method(impls[k].first, name);
    if (k + 1 < impls.size()) {
      Value* hit = nullptr;
      for (int64_t id : impls[k].second) {
        Value* c = cmp("eq", tid, const_i64(id, p), p);
        hit = hit ? or_(hit, c, p) : c;
      }
      Block* call_b = new_block(str_cat("method.", ty_name(impls[k].first), n, "."), static_cast<int>(k));
      Block* next = new_block(str_cat("method.next", n, "."), static_cast<int>(k));
      cond_br(hit, call_b, {}, next, {}, p);
      cur_ = call_b;
      Value* r = call_method(f, self, args, p);
      br(join, r ? std::vector<Value*>{r} : std::vector<Value*>{}, p);
      cur_ = next;
    } else {
      Value* r = call_method(f, self, args, p);
      br(join, r ? std::vector<Value*>{r} : std::vector<Value*>{}, p);
    }
  }
  cur_ = join;
  if (first.result == Ty::None) return nullptr;
  return join->add_argument(ir_type(first.result), "");
}

Value* FunctionLowerer::super_call(const Expr& e) {
  if (e.target == kBaseExceptionInit) {
    base_exception_init(e);
    return nullptr;
  }
  const ClassInfo* own = class_info(f_.params.empty() ? Ty::Error : f_.params[0]);  // self's class
  const std::string name = e.target.substr(e.target.find('.') + 1);
  const FuncInfo& f = own && own->base != Ty::Error && class_info(own->base)->methods.count(name)
                          ? method(class_info(own->base)->methods.at(name), name)  // a base of another module's too
                          : *m_.func(e.target);
  std::vector<Value*> args = placed_args(e, std::vector<Ty>(f.params.begin() + 1, f.params.end()));
  return call_method(f, load_local(f_.def->params[0].name, e.pos), std::move(args), e.pos);
}

Value* FunctionLowerer::isinstance(const Expr& e) {
  Pos p = e.pos;
  Ty cls = e.kids[1]->ty, k = e.kids[2]->ty;
  Value* obj = expr(*e.kids[1]);
  if (is_subclass(cls, k)) return const_bool(true, p);
  if (!is_subclass(k, cls)) return const_bool(false, p);
  note_layout(k);
  return tid_in(type_id(obj, cls, p), k, p);
}

Value* FunctionLowerer::tid_in(Value* tid, Ty k, Pos p) {
  Value* r = nullptr;
  for (auto [lo, hi] : checking::tid_ranges(k)) {  // subclasses of other modules have ranges of their own
    Value* in = and_(cmp("ge", tid, const_i64(lo, p), p), cmp("lt", tid, const_i64(hi, p), p), p);
    r = r ? or_(r, in, p) : in;
  }
  return r;
}

Value* FunctionLowerer::object_equal(Value* a, Ty at, Value* b, Ty bt, Pos p) {
  if (at != bt || !class_info(at)->dataclass) return cmp("eq", a, b, p);
  const ClassInfo& c = *class_info(at);
  Value* r = const_bool(true, p);
  for (auto& [n, t] : c.fields) r = and_(r, equal(field_get(a, at, n, p), t, field_get(b, bt, n, p), t, p), p);
  return r;
}

}  // namespace ppy::frontend::lowering
