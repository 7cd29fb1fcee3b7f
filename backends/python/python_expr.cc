// Expressions: a value read, and each op of core and math as the Python
// expression it is (runtime calls are python_calls.cc's).
#include "ppy/util/str_cat.h"
#include "python_writer.h"

namespace ppy::backends::python {
namespace {

/// How Python spells the comparison `p`.
std::string_view cmp_symbol(ir::Predicate p) {
  switch (p) {
    case ir::Predicate::Eq:
      return "==";
    case ir::Predicate::Ne:
      return "!=";
    case ir::Predicate::Lt:
      return "<";
    case ir::Predicate::Le:
      return "<=";
    case ir::Predicate::Gt:
      return ">";
    case ir::Predicate::Ge:
      return ">=";
  }
  return "==";
}

}  // namespace

Expr ModuleWriter::expr(const ir::Value* v) {
  if (!values_->inlined(v)) return {values_->name(v), kAtom};
  return op_expr(*v->def());
}

Expr ModuleWriter::negate(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (d && values_->inlined(v)) {
    switch (ir::core_op(*d)) {
      case ir::CoreOp::Cmp:
        if (d->operand(0)->type().is_float()) break;
        if (std::optional<ir::Predicate> p = ir::predicate_of(*d))
          return {str_cat(paren(expr(d->operand(0)), kCmp + 1), " ", cmp_symbol(ir::negated(*p)), " ",
                          paren(expr(d->operand(1)), kCmp + 1)),
                  kCmp};
        break;
      case ir::CoreOp::Xor:
        if (d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
        break;
      case ir::CoreOp::Const:
        if (d->result(0)->type().is_bool()) return {truthy(*d) ? "False" : "True", kAtom};
        break;
      default:
        break;
    }
  }
  return {str_cat("not ", paren(expr(v), kNot)), kNot};
}

bool ModuleWriter::truthy(const ir::Operation& c) {
  const ir::Attribute* a = ir::const_value(c);
  if (!a) return false;
  if (a->is<bool>()) return a->as_bool();
  if (a->is<int64_t>()) return a->as_int() != 0;
  return a->is<double>() && a->as_float() != 0;
}

bool ModuleWriter::is_true(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d && ir::core_op(*d) == ir::CoreOp::Const && v->type().is_bool() && truthy(*d);
}

Expr ModuleWriter::binary(const ir::Operation& op, const char* sym, int prec) {
  return {str_cat(paren(expr(op.operand(0)), prec), " ", sym, " ", paren(expr(op.operand(1)), prec + 1)), prec};
}

Expr ModuleWriter::call(std::string_view fn, std::initializer_list<const ir::Value*> args) {
  std::string a;
  for (const ir::Value* v : args) str_append(a, a.empty() ? "" : ", ", expr(v).text);
  return {str_cat(fn, "(", a, ")"), kAtom};
}

Expr ModuleWriter::helper(const char* name, std::initializer_list<const ir::Value*> args) {
  helpers_.insert(name);  // with those it calls, and `import math` where they need it: run()
  return call(name, args);
}

Expr ModuleWriter::wrapped(Expr e, const ir::Operation& op) {
  ir::Overflow o = ir::overflow_of(op);
  if (!int_type(op.result(0)->type()) || ir::raises(o) || o == ir::Overflow::Proven) return e;
  helpers_.insert("_ppy_wrap");
  return {str_cat("_ppy_wrap(", e.text, ")"), kAtom};
}

/// A tuple (or an object's fields) of the operands' expressions.
Expr ModuleWriter::tuple(const ir::Operation& op) {
  std::string a;
  for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
  return {str_cat("(", a, op.num_operands() == 1 ? ",)" : ")"), kAtom};
}

Expr ModuleWriter::op_expr(const ir::Operation& op) {
  ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
  ir::CoreOp c = ir::core_op(op);
  switch (c) {
    case ir::CoreOp::Const: {
      const ir::Attribute* a = ir::const_value(op);
      if (!a) return {"0", kAtom};
      std::string s = attribute_literal(*a, rt);
      if (rt.is_float()) {
        double d = a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
        return float_literal(d);
      }
      return {s, s[0] == '-' ? kUnary : kAtom};
    }
    case ir::CoreOp::Shl:
      return helper(ir::raises_on_overflow(op) ? "_ppy_shl" : "_ppy_shl_wrap", {op.operand(0), op.operand(1)});
    case ir::CoreOp::Shr:
      return helper("_ppy_shr", {op.operand(0), op.operand(1)});
    case ir::CoreOp::Add:
      return wrapped(binary(op, "+", kAdd), op);
    case ir::CoreOp::Sub:
      return wrapped(binary(op, "-", kAdd), op);
    case ir::CoreOp::Mul:
      return wrapped(binary(op, "*", kMul), op);
    case ir::CoreOp::Neg:
      return wrapped({str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary}, op);
    case ir::CoreOp::Div:
    case ir::CoreOp::Mod:
      return division(op);
    case ir::CoreOp::And:
    case ir::CoreOp::Or: {
      bool is_and = c == ir::CoreOp::And;
      // Booleans read as `and` / `or` when skipping the right side changes nothing.
      if (rt.is_bool() && !tree_has_effects(op.operand(1)))
        return binary(op, is_and ? "and" : "or", is_and ? kAnd : kOr);
      return binary(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
    }
    case ir::CoreOp::Xor:
      if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("not ", paren(expr(op.operand(0)), kNot)), kNot};
      return binary(op, "^", kBitXor);
    case ir::CoreOp::Cmp: {
      std::optional<ir::Predicate> p = ir::predicate_of(op);
      if (!p) return fail(op, "core.cmp without a predicate"), Expr{"False", kAtom};
      std::string_view sym = cmp_symbol(*p);
      if (op.operand(0)->type().is_ptr() && (*p == ir::Predicate::Eq || *p == ir::Predicate::Ne))
        sym = *p == ir::Predicate::Eq ? "is" : "is not";  // handles (objects) compare by identity
      return {str_cat(paren(expr(op.operand(0)), kCmp + 1), " ", sym, " ", paren(expr(op.operand(1)), kCmp + 1)), kCmp};
    }
    case ir::CoreOp::Select:
      return {str_cat(paren(expr(op.operand(1)), kTernary + 1), " if ", paren(expr(op.operand(0)), kTernary + 1),
                      " else ", paren(expr(op.operand(2)), kTernary)),
              kTernary};
    case ir::CoreOp::Cast:
      return cast(op);
    case ir::CoreOp::StructMake:
    case ir::CoreOp::TupleMake:
      return tuple(op);
    case ir::CoreOp::StructExtract: {
      ir::Type st = op.operand(0)->type();
      int64_t ix = ir::attr_or<int64_t>(op, "field", 0);
      if (const std::string* f = ir::attr_if<std::string>(op, "field"))
        for (size_t k = 0; k < st.storage()->fields.size(); ++k)
          if (st.storage()->fields[k].name == *f) ix = static_cast<int64_t>(k);
      return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ix, "]"), kAtom};
    }
    case ir::CoreOp::TupleExtract:
      return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ir::attr_or<int64_t>(op, "index", 0), "]"), kAtom};
    case ir::CoreOp::Load:
      if (op.result(0)->type().kind() == ir::TypeKind::Struct) return call("tuple", {op.operand(0)});
      if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
      if (cells_.count(op.operand(0))) return {values_->name(op.operand(0)) + "[0]", kAtom};
      return {values_->name(op.operand(0)), kAtom};
    case ir::CoreOp::BufferLoad: {
      std::string item = str_cat(paren(expr(op.operand(0)), kAtom), "[", expr(op.operand(1)).text, "]");
      // A buffer<bool> may hold the ints its runtime appends stored (ppy_list_append_i64
      // of a bool cast or folded to 0/1): a bool read from it is Python's bool again.
      if (rt.is_bool()) return {str_cat("bool(", item, ")"), kAtom};
      return {item, kAtom};
    }
    case ir::CoreOp::BufferLen:
      return call("len", {op.operand(0)});
    case ir::CoreOp::Call: {
      const std::string* callee = ir::call_callee(op);
      std::string name = callee ? *callee : "";
      auto it = fn_names_.find(name);
      if (it == fn_names_.end())
        return fail(op, str_cat("a call to @", name, ", which the module does not declare")), Expr{"None", kAtom};
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat(it->second, "(", a, ")"), kAtom};
    }
    case ir::CoreOp::CallExtern:
      return runtime_call(op);
    case ir::CoreOp::FuncRef: {  // a function value: Python's own function object
      const std::string* callee = ir::call_callee(op);
      auto it = fn_names_.find(callee ? *callee : "");
      if (it == fn_names_.end()) return fail(op, "a core.func_ref of no function"), Expr{"None", kAtom};
      return {it->second, kAtom};
    }
    case ir::CoreOp::CallIndirect: {
      std::string a;
      for (size_t i = 1; i < op.num_operands(); ++i) str_append(a, i > 1 ? ", " : "", expr(op.operand(i)).text);
      return {str_cat(paren(expr(op.operand(0)), kAtom), "(", a, ")"), kAtom};
    }
    default:
      if (ir::is_math(c)) return math(op, c);
      break;
  }
  fail(op, op.name());
  return {"None", kAtom};
}

Expr ModuleWriter::division(const ir::Operation& op) {
  bool div = ir::core_op(op) == ir::CoreOp::Div;
  ir::Rounding r = ir::rounding_of(op);
  if (op.result(0)->type().is_float()) {
    if (div && r == ir::Rounding::None) return binary(op, "/", kMul);
    if (r == ir::Rounding::Floor) return binary(op, div ? "//" : "%", kMul);
    if (div) return helper("_ppy_fdiv_trunc", {op.operand(0), op.operand(1)});
    uses_math_ = true;
    return call("math.fmod", {op.operand(0), op.operand(1)});
  }
  // Operands proven of one sign (int-range's `signs = "alike"`) round alike either way: Python's own op.
  bool floor = r == ir::Rounding::Floor || op.attributes().get("signs");
  Expr e = floor ? binary(op, div ? "//" : "%", kMul)
                                    : helper(div ? "_ppy_div_trunc" : "_ppy_mod_trunc", {op.operand(0), op.operand(1)});
  return div && !safe_divisor(op) ? wrapped(e, op) : e;
}

Expr ModuleWriter::math(const ir::Operation& op, ir::CoreOp c) {
  uses_math_ = true;
  switch (c) {
    case ir::CoreOp::MathSqrt:
    case ir::CoreOp::MathSin:
    case ir::CoreOp::MathCos:
    case ir::CoreOp::MathTan:
    case ir::CoreOp::MathLog:
    case ir::CoreOp::MathLog2:
    case ir::CoreOp::MathLog10:
      return call(ir::core_op_name(c), {op.operand(0)});  // the op's name is Python's `math.<f>`
    case ir::CoreOp::MathAbs:
      return call("abs", {op.operand(0)});
    case ir::CoreOp::MathExp:
      return helper("_ppy_exp", {op.operand(0)});
    case ir::CoreOp::MathExp2:
      return helper("_ppy_exp2", {op.operand(0)});
    case ir::CoreOp::MathFloor:
      return helper("_ppy_floor", {op.operand(0)});
    case ir::CoreOp::MathCeil:
      return helper("_ppy_ceil", {op.operand(0)});
    case ir::CoreOp::MathTrunc:
      return helper("_ppy_trunc", {op.operand(0)});
    case ir::CoreOp::MathPow:
      return helper("_ppy_pow", {op.operand(0), op.operand(1)});
    default:
      break;
  }
  fail(op, op.name());
  return {"None", kAtom};
}

Expr ModuleWriter::cast(const ir::Operation& op) {
  ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
  Expr a = expr(op.operand(0));
  if (from == to || (int_type(from) && int_type(to)) || (from.is_ptr() && to.is_ptr())) return a;
  if (to.is_float()) return {str_cat("float(", a.text, ")"), kAtom};
  if (to.is_bool()) return {str_cat(paren(a, kCmp + 1), from.is_float() ? " != 0.0" : " != 0"), kCmp};
  if (int_type(to)) return {str_cat("int(", a.text, ")"), kAtom};
  fail(op, str_cat("core.cast from ", from.str(), " to ", to.str()));
  return a;
}

}  // namespace ppy::backends::python
