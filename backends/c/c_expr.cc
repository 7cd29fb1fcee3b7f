// The ops written as C expressions: constants, checked, wrapping and device
// arithmetic, comparisons, casts, tuples and objects, loads, list elements and
// calls (a runtime function's call is c_runtime_calls.cc's).
#include <map>
#include <optional>

#include "c_writer.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {
namespace {

bool truthy(const ir::Operation& c) {
  const ir::Attribute* a = ir::const_value(c);
  if (!a) return false;
  if (a->is<bool>()) return a->as_bool();
  if (a->is<int64_t>()) return a->as_int() != 0;
  return a->is<double>() && a->as_float() != 0;
}

bool is_true(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d && ir::core_op(*d) == ir::CoreOp::Const && v->type().is_bool() && truthy(*d);
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

/// The C library function a math op calls.
const char* math_function(ir::CoreOp k) {
  switch (k) {
    case ir::CoreOp::MathSqrt:
      return "sqrt";
    case ir::CoreOp::MathSin:
      return "sin";
    case ir::CoreOp::MathCos:
      return "cos";
    case ir::CoreOp::MathTan:
      return "tan";
    case ir::CoreOp::MathExp:
      return "exp";
    case ir::CoreOp::MathExp2:
      return "exp2";
    case ir::CoreOp::MathLog:
      return "log";
    case ir::CoreOp::MathLog2:
      return "log2";
    case ir::CoreOp::MathLog10:
      return "log10";
    case ir::CoreOp::MathFloor:
      return "floor";
    case ir::CoreOp::MathCeil:
      return "ceil";
    case ir::CoreOp::MathTrunc:
      return "trunc";
    case ir::CoreOp::MathAbs:
      return "fabs";
    case ir::CoreOp::MathPow:
      return "pow";
    default:
      return nullptr;
  }
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
    ir::CoreOp k = ir::core_op(*d);
    if (k == ir::CoreOp::Cmp) {
      // NaN compares false both ways: only == and != turn around for floats.
      std::optional<ir::Predicate> p = ir::predicate_of(*d);
      if (p && (!flt || *p == ir::Predicate::Eq || *p == ir::Predicate::Ne)) return compare(*d, ir::negated(*p));
    }
    if (k == ir::CoreOp::Xor && d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
  }
  return {str_cat("!", paren(expr(v), kUnary)), kUnary};
}

Expr CWriter::compare(const ir::Operation& op, ir::Predicate pred) {
  // C's operator and its precedence, in Predicate's order.
  static constexpr std::pair<const char*, int> kSym[] = {{"==", kEq},  {"!=", kEq}, {"<", kRel},
                                                         {"<=", kRel}, {">", kRel}, {">=", kRel}};
  const char* sym = kSym[static_cast<size_t>(pred)].first;
  int prec = kSym[static_cast<size_t>(pred)].second;
  // A handle compared with itself (`a is a` once the slots are gone): cc
  // warns of the tautology.
  if (op.operand(0) == op.operand(1) && op.operand(0)->type().is_ptr()) {
    bool holds = pred == ir::Predicate::Eq || pred == ir::Predicate::Le || pred == ir::Predicate::Ge;
    return {holds ? "true" : "false", kAtom};
  }
  // `!a == b` draws -Wlogical-not-parentheses: a negation is parenthesized here.
  auto side = [&](const ir::Value* v) {
    Expr e = expr(v);
    return e.text.starts_with("!") ? str_cat("(", e.text, ")") : paren(e, prec + 1);
  };
  return {str_cat(side(op.operand(0)), " ", sym, " ", side(op.operand(1))), prec};
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

Expr CWriter::raising_helper(const char* name, const ir::Operation& op,
                              std::initializer_list<const ir::Value*> args) {
  helpers_.insert(name);
  helpers_.insert("PPY_C_AT");
  int64_t at = 0;  // tracebacks (issue 34): the line the frame shows when it raises
  if (trace_ != ir::TraceRole::kNone) at = trace_line_of(op) ? trace_line_of(op) : trace_line_;
  std::string text = call(name, args).text;
  text.insert(text.size() - 1, str_cat(", ", at));
  return {text, kPostfix};
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
  ir::Overflow overflow = ir::overflow_of(op);
  if (ir::raises(overflow) && !o_.unsafe && !gpu_) return raising_helper(checked, op, {op.operand(0), op.operand(1)});
  if (overflow == ir::Overflow::Proven && std::string_view(sym) != "*") return binary(op, sym, prec);
  return wrapping(op, sym);
}

Expr CWriter::constant(const ir::Operation& op) {
  if (const std::string* g = global_of(op.result(0))) return {str_cat("&", *g), kUnary};
  ir::Type rt = op.result(0)->type();
  std::optional<int64_t> i = ir::int_constant(op.result(0));
  if (rt.is_float()) {
    std::string s = float_literal(i ? static_cast<double>(*i) : ir::attr_or<double>(op, "value", 0.0));
    return {s, s[0] == '-' ? kUnary : kAtom};
  }
  if (rt.is_bool()) return {truthy(op) ? "true" : "false", kAtom};
  int64_t v = i.value_or(ir::attr_or<bool>(op, "value", false));
  if (v == INT64_MIN) return {"INT64_MIN", kAtom};
  std::string s = std::to_string(v);
  return {s, v < 0 ? kUnary : kAtom};
}

Expr CWriter::divide(const ir::Operation& op, bool div) {
  ir::Rounding r = ir::rounding_of(op);
  if (op.result(0)->type().is_float()) {
    if (div && r == ir::Rounding::None) return binary(op, "/", kMul);
    if (r == ir::Rounding::Floor)
      return call(div ? "ppy_float_floordiv" : "ppy_float_floormod", {op.operand(0), op.operand(1)});
    if (div) return {str_cat("trunc(", binary(op, "/", kMul).text, ")"), kPostfix};
    return call("fmod", {op.operand(0), op.operand(1)});
  }
  if (gpu_) return binary(op, div ? "/" : "%", kMul);
  if (r == ir::Rounding::Floor)
    return call(div ? "ppy_int_floordiv" : "ppy_int_floormod", {op.operand(0), op.operand(1)});
  return raising_helper(div ? "ppy_c_div_trunc" : "ppy_c_mod_trunc", op, {op.operand(0), op.operand(1)});
}

Expr CWriter::op_expr(const ir::Operation& op) {
  ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
  ir::CoreOp k = ir::core_op(op);
  switch (k) {
    case ir::CoreOp::Const:
      return constant(op);
    case ir::CoreOp::Add:
      return arith(op, "+", kAdd, "ppy_c_add");
    case ir::CoreOp::Sub:
      return arith(op, "-", kAdd, "ppy_c_sub");
    case ir::CoreOp::Mul:
      return arith(op, "*", kMul, "ppy_c_mul");
    case ir::CoreOp::Neg:
      if (!int_type(rt)) return {str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary};
      if (ir::raises_on_overflow(op) && !o_.unsafe && !gpu_) return raising_helper("ppy_c_neg", op, {op.operand(0)});
      return {str_cat("(int64_t)(0 - (uint64_t)", paren(expr(op.operand(0)), kUnary), ")"), kUnary};
    case ir::CoreOp::Shl:
      if (ir::raises_on_overflow(op) && !o_.unsafe) return raising_helper("ppy_c_shl", op, {op.operand(0), op.operand(1)});
      return helper("ppy_c_shl_wrap", {op.operand(0), op.operand(1)});
    case ir::CoreOp::Shr:
      return helper("ppy_c_shr", {op.operand(0), op.operand(1)});
    case ir::CoreOp::Div:
    case ir::CoreOp::Mod:
      return divide(op, k == ir::CoreOp::Div);
    case ir::CoreOp::And:
    case ir::CoreOp::Or: {
      bool is_and = k == ir::CoreOp::And;
      if (rt.is_bool() && !tree_has_effects(op.operand(1)))
        return bitwise(op, is_and ? "&&" : "||", is_and ? kAndAnd : kOrOr);
      return bitwise(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
    }
    case ir::CoreOp::Xor:
      if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("!", paren(expr(op.operand(0)), kUnary)), kUnary};
      if (rt.is_bool()) return bitwise(op, "!=", kEq);
      return bitwise(op, "^", kBitXor);
    case ir::CoreOp::Cmp:
      if (std::optional<ir::Predicate> p = ir::predicate_of(op)) return compare(op, *p);
      return fail(op, "core.cmp without a predicate"), Expr{"false", kAtom};
    case ir::CoreOp::Select:
      return {str_cat(paren(expr(op.operand(0)), kOrOr), " ? ", paren(expr(op.operand(1)), kOrOr), " : ",
                      paren(expr(op.operand(2)), kTernary)),
              kTernary};
    case ir::CoreOp::Cast:
      return cast(op);
    case ir::CoreOp::TupleMake:
    case ir::CoreOp::StructMake: {
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      if (o_.dialect == Dialect::C) return {str_cat("(", c_type(rt), "){", a, "}"), kPostfix};
      return {str_cat(c_type(rt), "{", a, "}"), kPostfix};
    }
    case ir::CoreOp::StructExtract: {
      ir::Type st = op.operand(0)->type();
      const std::string* name = ir::attr_if<std::string>(op, "field");
      std::string field = name ? *name : "";
      if (const int64_t* i = ir::attr_if<int64_t>(op, "field");
          i && static_cast<size_t>(*i) < st.storage()->fields.size())
        field = st.storage()->fields[static_cast<size_t>(*i)].name;
      return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f_", field), kPostfix};
    }
    case ir::CoreOp::TupleExtract:
      return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f", ir::attr_or<int64_t>(op, "index", 0)), kPostfix};
    case ir::CoreOp::Load:
      if (source::is_slot(op.operand(0))) return {values_->name(op.operand(0)), kAtom};
      if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
      if (rt.kind() == ir::TypeKind::Struct)
        return {str_cat(c_type(rt), "_load(", expr(op.operand(0)).text, ")"), kPostfix};
      return {str_cat("*", paren(expr(op.operand(0)), kUnary)), kUnary};
    case ir::CoreOp::PtrOffset:
      return binary(op, "+", kAdd);
    case ir::CoreOp::BufferLoad:
      if (op.operand(0)->type().elem().kind() == ir::TypeKind::Bool)  // a bool's slot holds 0 or 1
        return {str_cat("(", element(op.operand(0), op.operand(1)), " != 0)"), kAtom};
      return {element(op.operand(0), op.operand(1)), kPostfix};
    case ir::CoreOp::BufferLen:
      return call("ppy_list_len", {op.operand(0)});
    case ir::CoreOp::BufferData:
      return call(op.operand(0)->type().elem().is_float() ? "PPY_LIST_F64" : "PPY_LIST_I64", {op.operand(0)});
    case ir::CoreOp::Call: {
      const std::string* callee = ir::call_callee(op);
      std::string name = callee ? *callee : "";
      auto it = fn_names_.find(name);
      if (it == fn_names_.end()) return fail(op, str_cat("a call to @", name)), Expr{"0", kAtom};
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat(it->second, "(", a, ")"), kPostfix};
    }
    case ir::CoreOp::CallExtern:
      return runtime_call(op);
    case ir::CoreOp::FuncRef: {  // a function value: its address, as the ptr<i8> it travels as
      const std::string* callee = ir::call_callee(op);
      auto it = fn_names_.find(callee ? *callee : "");
      if (it == fn_names_.end()) return fail(op, "a core.func_ref of no function"), Expr{"0", kAtom};
      return {str_cat("((", c_type(rt), ")(uintptr_t)&", it->second, ")"), kAtom};
    }
    case ir::CoreOp::CallIndirect: {  // the value cast back to the function's type, then called
      std::string params, args;
      for (size_t i = 1; i < op.num_operands(); ++i) {
        str_append(params, i > 1 ? ", " : "", c_type(op.operand(i)->type()));
        str_append(args, i > 1 ? ", " : "", expr(op.operand(i)).text);
      }
      std::string result = op.num_results() ? c_type(op.result(0)->type()) : std::string("void");
      return {str_cat("((", result, " (*)(", params.empty() ? "void" : params, "))(uintptr_t)",
                      paren(expr(op.operand(0)), kUnary), ")(", args, ")"),
              kPostfix};
    }
    case ir::CoreOp::MathSqrt:
    case ir::CoreOp::MathSin:
    case ir::CoreOp::MathCos:
    case ir::CoreOp::MathTan:
    case ir::CoreOp::MathExp:
    case ir::CoreOp::MathExp2:
    case ir::CoreOp::MathLog:
    case ir::CoreOp::MathLog2:
    case ir::CoreOp::MathLog10:
    case ir::CoreOp::MathFloor:
    case ir::CoreOp::MathCeil:
    case ir::CoreOp::MathTrunc:
    case ir::CoreOp::MathAbs:
      return call(math_function(k), {op.operand(0)});
    case ir::CoreOp::MathPow:
      return call(math_function(k), {op.operand(0), op.operand(1)});
    // Statements, terminators and what validate() refuses are no expressions;
    // the gpu dialect (Other) is below.
    case ir::CoreOp::Br:
    case ir::CoreOp::CondBr:
    case ir::CoreOp::Ret:
    case ir::CoreOp::Unreachable:
    case ir::CoreOp::Guard:
    case ir::CoreOp::Alloca:
    case ir::CoreOp::Store:
    case ir::CoreOp::BufferStore:
    case ir::CoreOp::CallIntrinsic:
    case ir::CoreOp::Other:
      break;
  }
  const std::string& n = op.name();
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
