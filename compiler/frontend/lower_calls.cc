// IR generation, calls: user functions, the builtins, math.*, and ppy.cuda / ppy.native.
#include "imported_classes.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::call(const Expr& e) {
  Pos p = e.pos;
  switch (e.ref) {
    case Ref::Func:
      return user_call(e);
    case Ref::Ctor:
      return construct(e);
    case Ref::Method:
      return method_call(e);
    case Ref::Super:
      return super_call(e);
    case Ref::Builtin:
      return builtin(e);
    case Ref::Math:
      return math_call(e);
    case Ref::Sys:  // io (issue 33)
      return sys_call(e);
    case Ref::Cuda:
    case Ref::Native:
      return gpu_call(e);
    case Ref::Value:  // a function value (lower_closure.cc)
      return value_call(e);
    default:
      return const_i64(0, p);
  }
}

Value* FunctionLowerer::user_call(const Expr& e) {
  std::vector<Value*> args;
  std::vector<std::pair<int, Value*>> placed;
  for (size_t i = 1; i < e.kids.size(); ++i) placed.emplace_back(e.kids[i]->param_index, expr(*e.kids[i]));
  for (auto& k : e.keywords) placed.emplace_back(k.value->param_index, expr(*k.value));
  args.resize(placed.size());
  for (auto& [i, v] : placed) args[static_cast<size_t>(i)] = v;
  // A static or class method of this module is the function `Class.m` (check_class_member.cc).
  size_t dot = e.target.starts_with(m_.name + ".") ? m_.name.size() : checking::split_callee(e.target, all_).first.size();
  std::string sym = symbol_name(e.target.substr(0, dot), e.target.substr(dot + 1));
  // An argument takes its parameter's type (a value or None into an optional).
  std::vector<Ty> params = kernel_params(e.target.substr(0, dot), e.target.substr(dot + 1));
  std::vector<Ty> arg_ty(args.size(), Ty::Error);
  for (size_t i = 1; i < e.kids.size(); ++i) arg_ty[static_cast<size_t>(e.kids[i]->param_index)] = e.kids[i]->ty;
  for (auto& k : e.keywords) arg_ty[static_cast<size_t>(k.value->param_index)] = k.value->ty;
  for (size_t i = 0; i < args.size() && i < params.size(); ++i) args[i] = coerce(args[i], arg_ty[i], params[i], e.pos);
  std::vector<Type> res;
  if (e.ty != Ty::None) res.push_back(ir_type(e.ty));
  return emit("core.call", std::move(args), res, {{"callee", SymbolRef{sym}}}, e.pos);
}

Value* FunctionLowerer::builtin(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  if (n == "isinstance") return isinstance_any(e);  // classes, builtin types, unions (lower_union.cc)
  if (n == "exc.isinstance") return exception_isinstance(e);  // issue 32 (lower_exception_class.cc)
  if (n == "print") {
    print_call(e);
    return nullptr;
  }
  if (n.starts_with("keyed.")) return keyed_builtin(e);  // key= / reverse= (lower_keyed.cc)
  if (n == "int0") return const_i64(0, p);
  if (n == "float0") return const_f64(0.0, p);
  if (n == "bool0") return const_bool(false, p);
  if (e.builtin != BuiltinId::None) {
    std::string_view receiver = builtin_method(e.builtin).receiver;
    if (receiver == "str") return str_method(e);
    if (receiver == "list") return list_method(e);
    return table_method(e);
  }
  // lazy sequences (lower_lazy.cc, lower_generator.cc)
  if (n == "range" || n.starts_with("lazy.") || n == "next" || n.starts_with("yield") || n == "gen.close")
    return lazy_builtin(e);
  if (n == "list.del") return list_del(e);  // issue 32 (lower_del.cc)
  if (n == "list.sum" || n == "list.sorted" || n == "list.min" || n == "list.max") return list_builtin(e);
  if (n == "list.new" || n == "list.copy_of" || n == "list.of" || n == "list.pairs") return list_call(e);
  if (n == "set" || n == "dict") return new_table(e.ty, p);
  if (n == "str" && e.kids.size() == 1) return str_literal("", p);
  if (n == "format" || n == "format.run") return format_call(e);  // lower_format.cc
  if (n == "int.base" || n == "hex" || n == "oct" || n == "bin" || n == "round" || n == "divmod" || n == "pow")
    return number_builtin(e);  // lower_number.cc
  const Expr& a = *e.kids[1];
  if (n == "len") {
    Value* v = expr(a);
    if (is_tuple(a.ty)) return const_i64(static_cast<int64_t>(tuple_elems(a.ty).size()), p);
    if (a.ty == Ty::Str) return rt("ppy_str_len", {v}, Type::i64(), p);
    if (is_table(a.ty)) return table_len(v, p);
    return list_len(v, p);
  }
  Value* v = expr(a);
  if (n == "str") return str_of(v, a.ty, p);
  if (n == "ord") return rt("ppy_str_ord", {v}, Type::i64(), p);
  if (n == "chr") return rt("ppy_str_chr", {convert(v, a.ty, Ty::Int, p)}, str_type(), p);
  if (n == "repr") return repr_of(v, a.ty, p);
  if (n == "hash") return hash_of(v, a.ty, p);  // lower_hash_key.cc
  if (a.ty == Ty::Str && n == "int") return rt("ppy_str_to_i64", {v}, Type::i64(), p);
  if (a.ty == Ty::Str && n == "float") return rt("ppy_str_to_f64", {v}, Type::f64(), p);
  if (n == "int") return a.ty == Ty::Float ? float_to_int(v, p) : convert(v, a.ty, Ty::Int, p);
  if (n == "float") return convert(v, a.ty, Ty::Float, p);
  if (n == "bool") return truth(v, a.ty, p);
  if (n == "abs") {
    if (a.ty == Ty::Float) {
      use_dialect("math");
      return emit("math.abs", {v}, {Type::f64()}, {}, p);
    }
    v = convert(v, a.ty, Ty::Int, p);
    Value* neg = emit("core.neg", {v}, {Type::i64()}, {{"overflow", ovf()}}, p);
    return select(cmp("lt", v, const_i64(0, p), p), neg, v, p);
  }
  if (n == "min" || n == "max") {
    Value* r = v;
    for (size_t i = 2; i < e.kids.size(); ++i) {
      Value* b = expr(*e.kids[i]);
      const char* pred = n == "min" ? "lt" : "gt";
      Value* better = a.ty == Ty::Str  ? cmp(pred, rt("ppy_str_compare", {b, r}, Type::i64(), p), const_i64(0, p), p)
                      : is_tuple(a.ty) ? lexicographic(b, a.ty, r, a.ty, pred, p)
                      : is_list(a.ty)  ? ordered(b, a.ty, r, a.ty, pred, p)
                                       : cmp(pred, b, r, p);
      r = select(better, b, r, p);
    }
    return r;
  }
  return const_i64(0, p);
}

Value* FunctionLowerer::math_call(const Expr& e) {
  Pos p = e.pos;
  if (e.builtin != BuiltinId::None) return math_table_call(e);  // lower_math.cc
  use_dialect("math");
  const std::string& n = e.target;
  std::vector<Value*> raw, a;
  for (size_t i = 1; i < e.kids.size(); ++i) raw.push_back(expr(*e.kids[i]));
  if ((n == "math.floor" || n == "math.ceil" || n == "math.trunc") && e.kids[1]->ty != Ty::Float)
    return convert(raw[0], e.kids[1]->ty, Ty::Int, p);
  for (size_t i = 1; i < e.kids.size(); ++i) a.push_back(convert(raw[i - 1], e.kids[i]->ty, Ty::Float, p));
  Value* x = a[0];
  Type F = Type::f64();
  if (n == "math.pow") return fpow(a[0], a[1], p, true);
  if (n == "math.floor" || n == "math.ceil" || n == "math.trunc") {
    Value* r = emit(n == "math.floor" ? "math.floor" : n == "math.ceil" ? "math.ceil" : "math.trunc", {x}, {F}, {}, p);
    return float_to_int(r, p);
  }
  if (n == "math.fabs") return emit("math.abs", {x}, {F}, {}, p);
  if (n == "math.sqrt") {
    guard(not_(cmp("lt", x, const_f64(0.0, p), p), p), "range", "math domain error", p);
    return emit("math.sqrt", {x}, {F}, {}, p);
  }
  if (n == "math.log" || n == "math.log2" || n == "math.log10") {
    guard(not_(cmp("le", x, const_f64(0.0, p), p), p), "range", "math domain error", p);
    return emit(n, {x}, {F}, {}, p);
  }
  if (n == "math.sin" || n == "math.cos" || n == "math.tan") {
    guard(not_(is_inf(x, p), p), "range", "math domain error", p);
    return emit(n, {x}, {F}, {}, p);
  }
  if (n == "math.exp") {
    Value* r = emit("math.exp", {x}, {F}, {}, p);
    Value* r_inf = is_inf(r, p);
    Value* x_finite = not_(is_inf(x, p), p);
    guard(not_(and_(r_inf, x_finite, p), p), "overflow", "math range error", p);
    return r;
  }
  return x;
}

Value* FunctionLowerer::gpu_call(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  use_dialect("gpu");
  auto dim = [&](const char* op) {
    Value* v = emit(op, {}, {Type::index()}, {{"dim", e.str}}, p);
    return cast(v, Type::i64(), p);
  };
  if (n == "ppy.cuda.thread_id") return dim("gpu.thread_id");
  if (n == "ppy.cuda.block_id") return dim("gpu.block_id");
  if (n == "ppy.cuda.block_dim") return dim("gpu.block_dim");
  if (n == "ppy.cuda.grid_dim") return dim("gpu.grid_dim");
  if (n == "ppy.cuda.global_id") {
    Value* b = dim("gpu.block_id");
    Value* d = dim("gpu.block_dim");
    Value* t = dim("gpu.thread_id");
    Value* bd = emit("core.mul", {b, d}, {Type::i64()}, {{"overflow", "wrap"}}, p);
    return iadd(bd, t, p, "wrap");
  }
  if (n == "ppy.cuda.syncthreads") {
    emit("gpu.barrier", {}, {}, {}, p);
    return nullptr;
  }
  if (n == "ppy.native.offset") {
    Value* ptr = expr(*e.kids[1]);
    Value* i = expr(*e.kids[2]);
    return emit("core.ptr_offset", {ptr, i}, {ptr->type()}, {}, p);
  }
  if (n == "ppy.native.load") {
    Value* ptr = expr(*e.kids[1]);
    return emit("core.load", {ptr}, {ir_type(e.ty)}, {}, p);
  }
  if (n == "ppy.native.store") {
    Value* ptr = expr(*e.kids[1]);
    Value* v = expr(*e.kids[2]);
    emit("core.store", {v, ptr}, {}, {}, p);
    return nullptr;
  }
  if (n == "ppy.cuda.launch") {
    std::vector<Value*> ops;
    for (size_t g : {2, 3}) {
      const Expr& ge = *e.kids[g];
      std::vector<Value*> dims;
      if (ge.kind == ExprKind::Tuple)
        for (auto& k : ge.kids) dims.push_back(convert(expr(*k), k->ty, Ty::Int, p));
      else
        dims.push_back(convert(expr(ge), ge.ty == Ty::Error ? Ty::Int : ge.ty, Ty::Int, p));
      while (dims.size() < 3) dims.push_back(const_i64(1, p));
      ops.insert(ops.end(), dims.begin(), dims.end());
    }
    const std::string& kq = e.kids[1]->target;
    size_t dot = kq.rfind('.');
    std::string kmod = kq.substr(0, dot), kname = kq.substr(dot + 1);
    std::vector<Ty> params = kernel_params(kmod, kname);
    for (size_t i = 4; i < e.kids.size(); ++i) {
      const Expr& a = *e.kids[i];
      Value* v = expr(a);
      Ty want = i - 4 < params.size() ? params[i - 4] : a.ty;
      if (is_list(a.ty) && is_ptr(want)) {
        v = emit("core.buffer_data", {v}, {Type::ptr(ir_type(elem_of(a.ty)))}, {}, p);
        v = cast(v, ir_type(want), p);
      }
      ops.push_back(v);
    }
    emit("gpu.launch", std::move(ops), {}, {{"callee", SymbolRef{symbol_name(kmod, kname)}}}, p);
    return nullptr;
  }
  return const_i64(0, p);
}

std::vector<Ty> FunctionLowerer::kernel_params(const std::string& mod, const std::string& name) {
  std::vector<Ty> out;
  if (mod == m_.name) {
    auto it = m_.func_index.find(name);
    if (it != m_.func_index.end()) out = m_.funcs[it->second].params;
    return out;
  }
  auto mi = all_.find(mod);
  if (mi == all_.end()) return out;
  auto fi = mi->second.functions.find(name);
  if (fi == mi->second.functions.end()) {  // a static method of an imported class
    if (const FuncInfo* f = checking::foreign_method(str_cat(mod, ".", name), all_)) out = f->params;
    return out;
  }
  for (auto& t : fi->second.param_types) out.push_back(ty_from_name(t));
  return out;
}

}  // namespace ppy::frontend::lowering
