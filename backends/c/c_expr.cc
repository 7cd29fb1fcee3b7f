// The ops written as C expressions: constants, checked, wrapping and device
// arithmetic, comparisons, casts, tuples and objects, loads, list elements and
// calls (a runtime function's call is c_runtime_calls.cc's).
#include <map>

#include "c_writer.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {
namespace {

bool truthy(const ir::Operation& c) {
  const ir::Attribute* a = c.attr("value");
  if (!a) return false;
  if (a->is<bool>()) return a->as_bool();
  if (a->is<int64_t>()) return a->as_int() != 0;
  return a->is<double>() && a->as_float() != 0;
}

bool is_true(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d && d->name() == "core.const" && v->type().is_bool() && truthy(*d);
}

/// nvcc and hipcc fuse `a * b + c` into one fma by default, which rounds once
/// where Python (and ppy's other roads) round twice; their `_rn` intrinsics
/// round as written and are never fused.
const char* rounded_device_op(ir::Type t, std::string_view sym) {
  bool d = t.kind() == ir::TypeKind::F64;
  if (sym == "+") return d ? "__dadd_rn" : "__fadd_rn";
  if (sym == "-") return d ? "__dsub_rn" : "__fsub_rn";
  if (sym == "*") return d ? "__dmul_rn" : "__fmul_rn";
  return nullptr;
}

}  // namespace

Expr CWriter::expr(const ir::Value* v) {
  if (!values_->inlined(v)) return {values_->name(v), kAtom};
  return op_expr(*v->def());
}

std::string CWriter::element(const ir::Value* list, const ir::Value* index) {
  ir::Type elem = list->type().elem();
  if (elem.is_float()) return str_cat("PPY_LIST_F64(", expr(list).text, ")[", expr(index).text, "]");
  if (elem.kind() == ir::TypeKind::I64 || elem.kind() == ir::TypeKind::Bool)
    return str_cat("PPY_LIST_I64(", expr(list).text, ")[", expr(index).text, "]");
  if (elem.kind() == ir::TypeKind::Tuple)  // its box, unpacked (docs/runtime.md, "Lists")
    return str_cat("ppy_unbox_", boxed(elem), "(((void**)", paren(expr(list), kPostfix), "->data)[", expr(index).text,
                   "])");
  return str_cat("((", c_type(elem), "*)", paren(expr(list), kPostfix), "->data)[", expr(index).text, "]");
}

Expr CWriter::negate(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (d && values_->inlined(v)) {
    bool flt = d->num_operands() && d->operand(0)->type().is_float();
    if (d->name() == "core.cmp") {
      std::string_view p = str_attr(*d, "predicate");
      // NaN compares false both ways: only == and != turn around for floats.
      static const std::map<std::string_view, std::string_view> kInverse = {{"eq", "ne"}, {"ne", "eq"}, {"lt", "ge"},
                                                                            {"le", "gt"}, {"gt", "le"}, {"ge", "lt"}};
      if (auto it = kInverse.find(p); it != kInverse.end() && (!flt || p == "eq" || p == "ne"))
        return compare(*d, it->second);
    }
    if (d->name() == "core.xor" && d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
  }
  return {str_cat("!", paren(expr(v), kUnary)), kUnary};
}

Expr CWriter::compare(const ir::Operation& op, std::string_view pred) {
  static const std::map<std::string_view, std::pair<const char*, int>> kSym = {
      {"eq", {"==", kEq}},  {"ne", {"!=", kEq}}, {"lt", {"<", kRel}},
      {"le", {"<=", kRel}}, {"gt", {">", kRel}}, {"ge", {">=", kRel}}};
  auto it = kSym.find(pred);
  if (it == kSym.end()) return fail(op, "core.cmp without a predicate"), Expr{"false", kAtom};
  // A handle compared with itself (`a is a` once the slots are gone): cc
  // warns of the tautology.
  if (op.operand(0) == op.operand(1) && op.operand(0)->type().is_ptr())
    return {pred == "eq" || pred == "le" || pred == "ge" ? "true" : "false", kAtom};
  int prec = it->second.second;
  // `!a == b` draws -Wlogical-not-parentheses: a negation is parenthesized here.
  auto side = [&](const ir::Value* v) {
    Expr e = expr(v);
    return e.text.starts_with("!") ? str_cat("(", e.text, ")") : paren(e, prec + 1);
  };
  return {str_cat(side(op.operand(0)), " ", it->second.first, " ", side(op.operand(1))), prec};
}

Expr CWriter::binary(const ir::Operation& op, const char* sym, int prec) {
  return {str_cat(paren(expr(op.operand(0)), prec), " ", sym, " ", paren(expr(op.operand(1)), prec + 1)), prec};
}

Expr CWriter::bitwise(const ir::Operation& op, const char* sym, int prec) {
  return {str_cat(paren(expr(op.operand(0)), kUnary), " ", sym, " ", paren(expr(op.operand(1)), kUnary)), prec};
}

Expr CWriter::call(std::string_view fn, std::initializer_list<const ir::Value*> args) {
  std::string a;
  for (const ir::Value* v : args) str_append(a, a.empty() ? "" : ", ", expr(v).text);
  return {str_cat(fn, "(", a, ")"), kPostfix};
}

Expr CWriter::helper(const char* name, std::initializer_list<const ir::Value*> args) {
  helpers_.insert(name);
  return call(name, args);
}

Expr CWriter::wrapping(const ir::Operation& op, const char* sym) {
  return {str_cat("(int64_t)((uint64_t)", paren(expr(op.operand(0)), kUnary), " ", sym, " (uint64_t)",
                  paren(expr(op.operand(1)), kUnary), ")"),
          kUnary};
}

Expr CWriter::arith(const ir::Operation& op, const char* sym, int prec, const char* checked) {
  ir::Type rt = op.result(0)->type();
  if (gpu_ && (rt.kind() == ir::TypeKind::F64 || rt.kind() == ir::TypeKind::F32))
    if (const char* fn = rounded_device_op(rt, sym)) return call(fn, {op.operand(0), op.operand(1)});
  if (!int_type(rt)) return binary(op, sym, prec);
  std::string_view mode = str_attr(op, "overflow");
  if (raising_int(op) && !o_.unsafe && !gpu_) return helper(checked, {op.operand(0), op.operand(1)});
  if (mode == "proven" && std::string_view(sym) != "*") return binary(op, sym, prec);
  return wrapping(op, sym);
}

Expr CWriter::op_expr(const ir::Operation& op) {
  const std::string& n = op.name();
  ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
  if (n == "core.const") {
    const ir::Attribute* a = op.attr("value");
    if (const std::string* g = global_of(op.result(0))) return {str_cat("&", *g), kUnary};
    if (rt.is_float()) {
      double d = !a ? 0.0 : a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
      std::string s = float_literal(d);
      return {s, s[0] == '-' ? kUnary : kAtom};
    }
    if (rt.is_bool()) return {a && truthy(op) ? "true" : "false", kAtom};
    int64_t v = !a ? 0 : a->is<int64_t>() ? a->as_int() : a->is<bool>() ? a->as_bool() : 0;
    if (v == INT64_MIN) return {"INT64_MIN", kAtom};
    std::string s = std::to_string(v);
    return {s, v < 0 ? kUnary : kAtom};
  }
  if (n == "core.add") return arith(op, "+", kAdd, "ppy_c_add");
  if (n == "core.sub") return arith(op, "-", kAdd, "ppy_c_sub");
  if (n == "core.mul") return arith(op, "*", kMul, "ppy_c_mul");
  if (n == "core.neg") {
    if (!int_type(rt)) return {str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary};
    if (raising_int(op) && !o_.unsafe && !gpu_) return helper("ppy_c_neg", {op.operand(0)});
    return {str_cat("(int64_t)(0 - (uint64_t)", paren(expr(op.operand(0)), kUnary), ")"), kUnary};
  }
  if (n == "core.shl")
    return helper(raising_int(op) && !o_.unsafe ? "ppy_c_shl" : "ppy_c_shl_wrap", {op.operand(0), op.operand(1)});
  if (n == "core.shr") return helper("ppy_c_shr", {op.operand(0), op.operand(1)});
  if (n == "core.div" || n == "core.mod") {
    bool div = n == "core.div";
    std::string_view r = str_attr(op, "rounding");
    if (rt.is_float()) {
      if (div && r.empty()) return binary(op, "/", kMul);
      if (r == "floor") return call(div ? "ppy_float_floordiv" : "ppy_float_floormod", {op.operand(0), op.operand(1)});
      if (div) return {str_cat("trunc(", binary(op, "/", kMul).text, ")"), kPostfix};
      return call("fmod", {op.operand(0), op.operand(1)});
    }
    if (gpu_) return binary(op, div ? "/" : "%", kMul);
    if (r == "floor") return call(div ? "ppy_int_floordiv" : "ppy_int_floormod", {op.operand(0), op.operand(1)});
    return helper(div ? "ppy_c_div_trunc" : "ppy_c_mod_trunc", {op.operand(0), op.operand(1)});
  }
  if (n == "core.and" || n == "core.or") {
    bool is_and = n == "core.and";
    if (rt.is_bool() && !tree_has_effects(op.operand(1)))
      return bitwise(op, is_and ? "&&" : "||", is_and ? kAndAnd : kOrOr);
    return bitwise(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
  }
  if (n == "core.xor") {
    if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("!", paren(expr(op.operand(0)), kUnary)), kUnary};
    if (rt.is_bool()) return bitwise(op, "!=", kEq);
    return bitwise(op, "^", kBitXor);
  }
  if (n == "core.cmp") return compare(op, str_attr(op, "predicate"));
  if (n == "core.select")
    return {str_cat(paren(expr(op.operand(0)), kOrOr), " ? ", paren(expr(op.operand(1)), kOrOr), " : ",
                    paren(expr(op.operand(2)), kTernary)),
            kTernary};
  if (n == "core.cast") return cast(op);
  if (n == "core.tuple_make") {
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    if (o_.dialect == Dialect::C) return {str_cat("(", c_type(rt), "){", a, "}"), kPostfix};
    return {str_cat(c_type(rt), "{", a, "}"), kPostfix};
  }
  if (n == "core.struct_make") {
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    if (o_.dialect == Dialect::C) return {str_cat("(", c_type(rt), "){", a, "}"), kPostfix};
    return {str_cat(c_type(rt), "{", a, "}"), kPostfix};
  }
  if (n == "core.struct_extract") {
    const ir::Attribute* f = op.attr("field");
    ir::Type st = op.operand(0)->type();
    std::string field = f && f->is<std::string>() ? f->as_string() : "";
    if (f && f->is<int64_t>() && static_cast<size_t>(f->as_int()) < st.storage()->fields.size())
      field = st.storage()->fields[static_cast<size_t>(f->as_int())].name;
    return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f_", field), kPostfix};
  }
  if (n == "core.tuple_extract") {
    const ir::Attribute* ix = op.attr("index");
    return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f", ix && ix->is<int64_t>() ? ix->as_int() : 0), kPostfix};
  }
  if (n == "core.load") {
    if (source::is_slot(op.operand(0))) return {values_->name(op.operand(0)), kAtom};
    if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
    if (rt.kind() == ir::TypeKind::Struct)
      return {str_cat(c_type(rt), "_load(", expr(op.operand(0)).text, ")"), kPostfix};
    return {str_cat("*", paren(expr(op.operand(0)), kUnary)), kUnary};
  }
  if (n == "core.ptr_offset") return binary(op, "+", kAdd);
  if (n == "core.buffer_load") {
    if (op.operand(0)->type().elem().kind() == ir::TypeKind::Bool)  // a bool's slot holds 0 or 1
      return {str_cat("(", element(op.operand(0), op.operand(1)), " != 0)"), kAtom};
    return {element(op.operand(0), op.operand(1)), kPostfix};
  }
  if (n == "core.buffer_len") return call("ppy_list_len", {op.operand(0)});
  if (n == "core.buffer_data") {
    bool f = op.operand(0)->type().elem().is_float();
    return call(f ? "PPY_LIST_F64" : "PPY_LIST_I64", {op.operand(0)});
  }
  if (n == "core.call") {
    const ir::Attribute* c = op.attr("callee");
    std::string name = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    auto it = fn_names_.find(name);
    if (it == fn_names_.end()) return fail(op, str_cat("a call to @", name)), Expr{"0", kAtom};
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat(it->second, "(", a, ")"), kPostfix};
  }
  if (n == "core.call_extern") return runtime_call(op);
  if (op.dialect() == "math") {
    std::string f = n.substr(5);
    if (f == "abs") f = "fabs";
    if (f == "pow") return call("pow", {op.operand(0), op.operand(1)});
    return call(f, {op.operand(0)});
  }
  if (op.dialect() == "gpu") {
    static const std::map<std::string, std::string> kIds = {{"gpu.thread_id", "threadIdx"},
                                                            {"gpu.block_id", "blockIdx"},
                                                            {"gpu.block_dim", "blockDim"},
                                                            {"gpu.grid_dim", "gridDim"}};
    if (auto it = kIds.find(n); it != kIds.end()) {
      std::string dim(str_attr(op, "dim"));
      return {str_cat("(int64_t)", it->second, ".", dim.empty() ? "x" : dim), kUnary};
    }
  }
  fail(op, n);
  return {"0", kAtom};
}

bool CWriter::tree_has_effects(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (!d || !values_->inlined(v)) return false;
  if (source::effects_of(*d, &m_).any()) return true;
  for (const ir::Value* o : d->operands())
    if (tree_has_effects(o)) return true;
  return false;
}

Expr CWriter::cast(const ir::Operation& op) {
  ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
  Expr a = expr(op.operand(0));
  if (from == to || (int_type(from) && int_type(to))) return a;
  if (to.is_float()) return {str_cat("(double)", paren(a, kUnary)), kUnary};
  if (to.is_bool()) return {str_cat(paren(a, kEq + 1), from.is_float() ? " != 0.0" : " != 0"), kEq};
  if (int_type(to) && from.is_bool()) return {str_cat("(int64_t)", paren(a, kUnary)), kUnary};
  if (int_type(to) && from.is_float()) {
    if (gpu_) return {str_cat("(int64_t)", paren(a, kUnary)), kUnary};
    return {str_cat("ppy_float_to_i64(", a.text, ")"), kPostfix};
  }
  if (from.is_ptr() && to.is_ptr()) return {str_cat("(", c_type(to), ")", paren(a, kUnary)), kUnary};
  fail(op, str_cat("core.cast from ", from.str(), " to ", to.str()));
  return a;
}

}  // namespace ppy::backends::cgen
