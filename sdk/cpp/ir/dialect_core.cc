// The `core` dialect (v1): op specs as docs/ir.md lists them, and the
// type rules of each op (docs/ir.md, "The core dialect") as its verify hook.
#include <algorithm>
#include <span>
#include <string_view>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace detail {
/// core.func_ref and core.call_indirect (dialect_core_callable.cc).
void add_callable_ops(Dialect& d);
}  // namespace detail
namespace {

OpSpec op(std::string name, std::optional<int> operands, std::optional<int> results) {
  OpSpec s;
  s.name = "core." + name;
  s.operands = operands;
  s.results = results;
  return s;
}
OpSpec pure(std::string name, std::optional<int> operands, std::optional<int> results,
            bool commutative = false) {
  OpSpec s = op(std::move(name), operands, results);
  s.pure = true;
  s.commutative = commutative;
  return s;
}

// ---- type rules ----

using ppy::str_cat;

/// A type's text; a function's signature may hold a null type (reported by the
/// verifier), which must not crash a hook that names it.
std::string type_text(Type t) { return t ? t.str() : std::string("<no type>"); }

/// A vector's element type, or the type itself.
Type scalar_of(Type t) { return t.kind() == TypeKind::Vector ? t.elem() : t; }

/// The op's name without `core.`, for messages (`an integer add needs ...`).
std::string_view short_name(const Operation& op) {
  std::string_view n = op.name();
  return n.substr(n.find('.') + 1);
}

std::string join(std::span<const std::string_view> xs) {
  std::string out;
  for (std::string_view x : xs) ppy::str_append(out, out.empty() ? "" : ", ", x);
  return out;
}

/// Attribute `key`, when present, is a string among `allowed`; when absent it is
/// an error only if `required`.
void check_choice(const Operation& op, DiagSink& sink, std::string_view key,
                  std::span<const std::string_view> allowed, bool required) {
  const Attribute* a = op.attr(key);
  if (!a) {
    if (required)
      sink.error(str_cat("an integer ", short_name(op), " needs attribute '", key, "' (one of ", join(allowed),
                         ")"));
    return;
  }
  if (a->is<std::string>()) {
    std::string_view v = a->as_string();
    if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return;
    sink.error(str_cat(key, " = '", v, "' is not one of ", join(allowed)));
    return;
  }
  sink.error(str_cat(key, " must be a string, one of ", join(allowed)));
}

/// All operands have one type; reports the first that differs.
bool same_operand_types(const Operation& op, DiagSink& sink) {
  Type t = op.operand(0)->type();
  for (size_t i = 1; i < op.num_operands(); ++i)
    if (op.operand(i)->type() != t) {
      sink.error(str_cat("operands must have one type, got ", t.str(), " and ", op.operand(i)->type().str()));
      return false;
    }
  return true;
}

/// Result `i` is `want`; `what` names where `want` came from.
bool result_is(const Operation& op, DiagSink& sink, Type want, std::string_view what, size_t i = 0) {
  Type have = op.result(i)->type();
  if (have == want) return true;
  sink.error(str_cat("the result is ", have.str(), " but ", what, " is ", want.str()));
  return false;
}

bool is_number(Type t) {
  Type s = scalar_of(t);
  return s.is_integer_like() || s.is_float();
}

/// add, sub, mul, div, mod, neg: numbers of one type; integers say how they overflow
/// (and, dividing, how they round).
void verify_arith(const Operation& op, DiagSink& sink) {
  if (!same_operand_types(op, sink)) return;
  Type t = op.operand(0)->type();
  if (!is_number(t)) {
    sink.error(str_cat("operands must be integers or floats, got ", t.str()));
    return;
  }
  result_is(op, sink, t, "the operand type");
  bool integer = scalar_of(t).is_int();
  check_choice(op, sink, "overflow", overflow_names(), integer);
  CoreOp c = core_op(op);
  if (c == CoreOp::Div || c == CoreOp::Mod) check_choice(op, sink, "rounding", rounding_names(), integer);
}

/// and, or, xor: ints or bools of one type.
void verify_bitwise(const Operation& op, DiagSink& sink) {
  if (!same_operand_types(op, sink)) return;
  Type t = op.operand(0)->type();
  Type s = scalar_of(t);
  if (!s.is_integer_like() && !s.is_bool()) {
    sink.error(str_cat("operands must be integers or bools, got ", t.str()));
    return;
  }
  result_is(op, sink, t, "the operand type");
}

void verify_shift(const Operation& op, DiagSink& sink) {
  for (size_t i = 0; i < 2; ++i)
    if (!scalar_of(op.operand(i)->type()).is_integer_like()) {
      sink.error(str_cat("operand #", i, " must be an integer, got ", op.operand(i)->type().str()));
      return;
    }
  result_is(op, sink, op.operand(0)->type(), "the shifted operand");
}

/// The bool shape matching `t`: bool, or vector<bool, N> for a vector of N.
Type bool_like(Type t) {
  if (t.kind() != TypeKind::Vector) return Type::i1();
  return *Type::vector(Type::i1(), t.vector_len());
}

void verify_cmp(const Operation& op, DiagSink& sink) {
  if (!same_operand_types(op, sink)) return;
  Type want = bool_like(op.operand(0)->type());
  Type have = op.result()->type();
  if (have != want)
    sink.error(str_cat("the result is ", have.str(), " but comparing ", op.operand(0)->type().str(), " gives ",
                       want.str()));
}

void verify_select(const Operation& op, DiagSink& sink) {
  Type a = op.operand(1)->type(), b = op.operand(2)->type();
  if (a != b) {
    sink.error(str_cat("the selected values must have one type, got ", a.str(), " and ", b.str()));
    return;
  }
  Type c = op.operand(0)->type();
  if (c != Type::i1() && c != bool_like(a))
    sink.error(str_cat("the condition must be bool, got ", c.str()));
  result_is(op, sink, a, "the selected type");
}

void verify_cond_br(const Operation& op, DiagSink& sink) {
  Type c = op.operand(0)->type();
  if (!c.is_bool()) sink.error(str_cat("the condition must be bool, got ", c.str()));
}

/// At the top level of a body, the values returned are the function's results.
void verify_ret(const Operation& op, DiagSink& sink) {
  const Region* region = op.parent() ? op.parent()->parent() : nullptr;
  if (!region || region->parent_op()) return;
  const Function* f = region->parent_function();
  if (!f) return;
  const auto& want = f->results();
  if (op.num_operands() != want.size()) {
    sink.error(str_cat("returns ", op.num_operands(), " value(s) but @", f->name(), " returns ", want.size()));
    return;
  }
  for (size_t i = 0; i < want.size(); ++i)
    if (op.operand(i)->type() != want[i])
      sink.error(str_cat("returned value #", i, " is ", op.operand(i)->type().str(), " but @", f->name(),
                         " returns ", type_text(want[i])));
}

void verify_const(const Operation& op, DiagSink& sink) {
  Type t = op.result()->type();
  const Attribute& v = *op.attr("value");
  // A scalar constant of a vector type is a splat.
  if (attribute_fits(v, t)) return;
  if (t.kind() == TypeKind::Vector && attribute_fits(v, t.elem())) return;
  sink.error(str_cat("the value does not fit type ", t.str()));
}

/// Operand `i` is a pointer; returns false (reported) otherwise.
bool pointer_operand(const Operation& op, DiagSink& sink, size_t i) {
  if (op.operand(i)->type().is_ptr()) return true;
  sink.error(str_cat("operand #", i, " must be a pointer, got ", op.operand(i)->type().str()));
  return false;
}

bool integer_operand(const Operation& op, DiagSink& sink, size_t i) {
  if (op.operand(i)->type().is_integer_like()) return true;
  sink.error(str_cat("operand #", i, " must be an integer, got ", op.operand(i)->type().str()));
  return false;
}

/// Operand `i` is buffer<e>; returns e, or a null type (reported).
Type buffer_operand(const Operation& op, DiagSink& sink, size_t i) {
  Type t = op.operand(i)->type();
  if (t.kind() == TypeKind::Buffer) return t.elem();
  sink.error(str_cat("operand #", i, " must be a buffer, got ", t.str()));
  return Type();
}

void verify_alloca(const Operation& op, DiagSink& sink) {
  Type t = op.result()->type();
  if (!t.is_ptr() || t.ptr_space() != "stack")
    sink.error(str_cat("the result must be a ptr<T, stack>, got ", t.str()));
  if (const Attribute* n = op.attr("count"); n && (!n->is<int64_t>() || n->as_int() < 1))
    sink.error("count must be a positive int");
}

void verify_load(const Operation& op, DiagSink& sink) {
  if (pointer_operand(op, sink, 0)) result_is(op, sink, op.operand(0)->type().elem(), "the pointee");
}

void verify_store(const Operation& op, DiagSink& sink) {
  if (!pointer_operand(op, sink, 1)) return;
  Type p = op.operand(1)->type();
  if (p.ptr_const()) sink.error(str_cat("cannot store through a const pointer ", p.str()));
  if (op.operand(0)->type() != p.elem())
    sink.error(str_cat("the stored value is ", op.operand(0)->type().str(), " but the pointee is ", p.elem().str()));
}

void verify_ptr_offset(const Operation& op, DiagSink& sink) {
  if (!pointer_operand(op, sink, 0) || !integer_operand(op, sink, 1)) return;
  result_is(op, sink, op.operand(0)->type(), "the pointer");
}

void verify_buffer_data(const Operation& op, DiagSink& sink) {
  Type e = buffer_operand(op, sink, 0);
  if (!e) return;
  Type r = op.result()->type();
  if (!r.is_ptr() || r.elem() != e)
    sink.error(str_cat("the result must be a pointer to ", e.str(), ", got ", r.str()));
}

void verify_buffer_len(const Operation& op, DiagSink& sink) {
  if (buffer_operand(op, sink, 0)) result_is(op, sink, Type::index(), "a length");
}

void verify_buffer_load(const Operation& op, DiagSink& sink) {
  Type e = buffer_operand(op, sink, 0);
  if (!e || !integer_operand(op, sink, 1)) return;
  result_is(op, sink, e, "the element");
}

void verify_buffer_store(const Operation& op, DiagSink& sink) {
  Type e = buffer_operand(op, sink, 1);
  if (!e || !integer_operand(op, sink, 2)) return;
  if (op.operand(0)->type() != e)
    sink.error(str_cat("the stored value is ", op.operand(0)->type().str(), " but the element is ", e.str()));
}

void verify_tuple_make(const Operation& op, DiagSink& sink) {
  std::vector<Type> members;
  for (const Value* v : op.operands()) members.push_back(v->type());
  result_is(op, sink, Type::tuple(members), "the tuple of the operands");
}

void verify_struct_make(const Operation& op, DiagSink& sink) {
  Type t = op.result()->type();
  if (t.kind() != TypeKind::Struct) {
    sink.error(str_cat("the result must be a struct, got ", t.str()));
    return;
  }
  const auto& fields = t.storage()->fields;
  if (fields.size() != op.num_operands()) {
    sink.error(str_cat(t.str(), " has ", fields.size(), " field(s) but ", op.num_operands(), " were given"));
    return;
  }
  for (size_t i = 0; i < fields.size(); ++i)
    if (Type(fields[i].type) != op.operand(i)->type())
      sink.error(str_cat("field '", fields[i].name, "' is ", Type(fields[i].type).str(), " but operand #", i,
                         " is ", op.operand(i)->type().str()));
}

void verify_tuple_extract(const Operation& op, DiagSink& sink) {
  Type t = op.operand(0)->type();
  if (t.kind() != TypeKind::Tuple) {
    sink.error(str_cat("the operand must be a tuple, got ", t.str()));
    return;
  }
  const Attribute& i = *op.attr("index");
  if (!i.is<int64_t>() || i.as_int() < 0 || static_cast<size_t>(i.as_int()) >= t.num_elems()) {
    sink.error(str_cat("index must be an int below ", t.num_elems(), " for ", t.str()));
    return;
  }
  result_is(op, sink, t.elem(i.as_int()), "the member");
}

void verify_struct_extract(const Operation& op, DiagSink& sink) {
  Type t = op.operand(0)->type();
  if (t.kind() != TypeKind::Struct) {
    sink.error(str_cat("the operand must be a struct, got ", t.str()));
    return;
  }
  const auto& fields = t.storage()->fields;
  const Attribute& f = *op.attr("field");
  const StructField* found = nullptr;
  if (f.is<std::string>()) {
    for (const StructField& x : fields)
      if (x.name == f.as_string()) found = &x;
    if (!found) {
      sink.error(str_cat(t.str(), " has no field '", f.as_string(), "'"));
      return;
    }
  } else if (f.is<int64_t>() && f.as_int() >= 0 && static_cast<size_t>(f.as_int()) < fields.size()) {
    found = &fields[f.as_int()];
  } else {
    sink.error(str_cat("field must name a field of ", t.str()));
    return;
  }
  result_is(op, sink, Type(found->type), str_cat("field '", found->name, "'"));
}

void verify_call(const Operation& op, DiagSink& sink) {
  const Attribute& c = *op.attr("callee");
  if (!c.is<SymbolRef>()) {
    sink.error("callee must be a symbol (@name)");
    return;
  }
  const std::string& name = c.as_symbol().name;
  const Function* f = sink.function(name);
  if (!f) {
    sink.error(str_cat("callee @", name, " is not a function of the module"));
    return;
  }
  const auto& params = f->params();
  if (op.num_operands() != params.size()) {
    sink.error(str_cat("passes ", op.num_operands(), " argument(s) but @", name, " takes ", params.size()));
  } else {
    for (size_t i = 0; i < params.size(); ++i)
      if (op.operand(i)->type() != params[i].type)
        sink.error(str_cat("argument #", i, " is ", op.operand(i)->type().str(), " but @", name, " takes ",
                           type_text(params[i].type)));
  }
  const Attribute* cs = op.attr("capture_status");
  bool status = cs && cs->is<bool>() && cs->as_bool();
  size_t want = f->results().size() + (status ? 1 : 0);
  if (op.num_results() != want) {
    sink.error(str_cat("gives ", op.num_results(), " result(s) but @", name, " returns ", f->results().size(),
                       status ? " plus the i64 status" : ""));
    return;
  }
  for (size_t i = 0; i < f->results().size(); ++i)
    if (op.result(i)->type() != f->results()[i])
      sink.error(str_cat("result #", i, " is ", op.result(i)->type().str(), " but @", name, " returns ",
                         type_text(f->results()[i])));
  if (status && op.result(want - 1)->type() != Type::i64())
    sink.error(str_cat("the status result must be i64, got ", op.result(want - 1)->type().str()));
}

/// `key` is a string (call_extern's callee, call_intrinsic's intrinsic).
void verify_named_call(const Operation& op, DiagSink& sink, std::string_view key) {
  if (!op.attr(key)->is<std::string>()) sink.error(str_cat(key, " must be a string"));
}

void verify_guard(const Operation& op, DiagSink& sink) {
  Type c = op.operand(0)->type();
  if (!c.is_bool()) sink.error(str_cat("the guarded condition must be bool, got ", c.str()));
  check_choice(op, sink, "kind", guard_kind_names(), false);
}

void hook(Dialect& d, std::string_view name, std::function<void(const Operation&, DiagSink&)> fn) {
  for (OpSpec& s : d.ops)
    if (s.name.size() == name.size() + 5 && std::string_view(s.name).substr(5) == name) s.verify = fn;
}

void install_hooks(Dialect& d) {
  for (auto n : {"add", "sub", "mul", "div", "mod", "neg"}) hook(d, n, verify_arith);
  for (auto n : {"and", "or", "xor"}) hook(d, n, verify_bitwise);
  for (auto n : {"shl", "shr"}) hook(d, n, verify_shift);
  hook(d, "const", verify_const);
  hook(d, "cmp", verify_cmp);
  hook(d, "select", verify_select);
  hook(d, "cond_br", verify_cond_br);
  hook(d, "ret", verify_ret);
  hook(d, "alloca", verify_alloca);
  hook(d, "load", verify_load);
  hook(d, "store", verify_store);
  hook(d, "ptr_offset", verify_ptr_offset);
  hook(d, "buffer_data", verify_buffer_data);
  hook(d, "buffer_len", verify_buffer_len);
  hook(d, "buffer_load", verify_buffer_load);
  hook(d, "buffer_store", verify_buffer_store);
  hook(d, "tuple_make", verify_tuple_make);
  hook(d, "struct_make", verify_struct_make);
  hook(d, "tuple_extract", verify_tuple_extract);
  hook(d, "struct_extract", verify_struct_extract);
  hook(d, "call", verify_call);
  hook(d, "call_extern", [](const Operation& op, DiagSink& s) { verify_named_call(op, s, "callee"); });
  hook(d, "call_intrinsic", [](const Operation& op, DiagSink& s) { verify_named_call(op, s, "intrinsic"); });
  hook(d, "guard", verify_guard);
}

}  // namespace

Dialect core_dialect() {
  Dialect d{"core", 1};
  auto& ops = d.ops;
  OpSpec c = pure("const", 0, 1);
  c.inline_attribute = "value";
  c.required_attributes = {"value"};
  ops.push_back(c);
  ops.push_back(pure("add", 2, 1, true));
  ops.push_back(pure("sub", 2, 1));
  ops.push_back(pure("mul", 2, 1, true));
  ops.push_back(pure("div", 2, 1));
  ops.push_back(pure("mod", 2, 1));
  ops.push_back(pure("neg", 1, 1));
  ops.push_back(pure("and", 2, 1, true));
  ops.push_back(pure("or", 2, 1, true));
  ops.push_back(pure("xor", 2, 1, true));
  ops.push_back(pure("shl", 2, 1));
  ops.push_back(pure("shr", 2, 1));
  OpSpec cmp = pure("cmp", 2, 1);
  cmp.variant_attribute = "predicate";
  cmp.variants = {"eq", "ne", "lt", "le", "gt", "ge"};
  cmp.required_attributes = {"predicate"};
  ops.push_back(cmp);
  ops.push_back(pure("select", 3, 1));
  ops.push_back(pure("cast", 1, 1));
  OpSpec br = op("br", 0, 0);
  br.terminator = true;
  br.successors = 1;
  ops.push_back(br);
  OpSpec cond = op("cond_br", 1, 0);
  cond.terminator = true;
  cond.successors = 2;
  ops.push_back(cond);
  OpSpec ret = op("ret", std::nullopt, 0);
  ret.terminator = true;
  ret.successors = 0;
  ops.push_back(ret);
  OpSpec unr = op("unreachable", 0, 0);
  unr.terminator = true;
  unr.successors = 0;
  ops.push_back(unr);
  ops.push_back(op("alloca", 0, 1));
  ops.push_back(op("load", 1, 1));
  ops.push_back(op("store", 2, 0));
  ops.push_back(pure("ptr_offset", 2, 1));
  // A buffer's length and elements are read from memory: a list grows and
  // moves its elements (docs/runtime.md, "Lists"), so neither is pure.
  ops.push_back(op("buffer_data", 1, 1));
  ops.push_back(op("buffer_len", 1, 1));
  ops.push_back(op("buffer_load", 2, 1));
  ops.push_back(op("buffer_store", 3, 0));
  ops.push_back(pure("tuple_make", std::nullopt, 1));
  ops.push_back(pure("struct_make", std::nullopt, 1));
  OpSpec te = pure("tuple_extract", 1, 1);
  te.required_attributes = {"index"};
  ops.push_back(te);
  OpSpec se = pure("struct_extract", 1, 1);
  se.required_attributes = {"field"};
  ops.push_back(se);
  OpSpec call = op("call", std::nullopt, std::nullopt);
  call.required_attributes = {"callee"};
  ops.push_back(call);
  OpSpec ce = op("call_extern", std::nullopt, std::nullopt);
  ce.required_attributes = {"callee"};
  ops.push_back(ce);
  OpSpec ci = op("call_intrinsic", std::nullopt, std::nullopt);
  ci.required_attributes = {"intrinsic"};
  ops.push_back(ci);
  OpSpec guard = op("guard", 1, 0);
  guard.required_attributes = {"kind"};
  ops.push_back(guard);
  install_hooks(d);
  detail::add_callable_ops(d);
  return d;
}

}  // namespace ppy::ir
