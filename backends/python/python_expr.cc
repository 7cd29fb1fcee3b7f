// Expressions: a value read, and each op of core and math as the Python
// expression it is (runtime calls are python_calls.cc's).
#include <map>

#include "ppy/util/str_cat.h"
#include "python_writer.h"

namespace ppy::backends::python {
Expr ModuleWriter::expr(const ir::Value* v) {
  if (!values_->inlined(v)) return {values_->name(v), kAtom};
  return op_expr(*v->def());
}

Expr ModuleWriter::negate(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (d && values_->inlined(v)) {
    if (d->name() == "core.cmp" && !d->operand(0)->type().is_float()) {
      static const std::map<std::string, std::string> kInverse = {{"eq", "!="}, {"ne", "=="}, {"lt", ">="},
                                                                  {"le", ">"},  {"gt", "<="}, {"ge", "<"}};
      auto it = kInverse.find(std::string(str_attr(*d, "predicate")));
      if (it != kInverse.end())
        return {
            str_cat(paren(expr(d->operand(0)), kCmp + 1), " ", it->second, " ", paren(expr(d->operand(1)), kCmp + 1)),
            kCmp};
    }
    if (d->name() == "core.xor" && d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
    if (d->name() == "core.const" && d->result(0)->type().is_bool()) return {truthy(*d) ? "False" : "True", kAtom};
  }
  return {str_cat("not ", paren(expr(v), kNot)), kNot};
}

bool ModuleWriter::truthy(const ir::Operation& c) {
  const ir::Attribute* a = c.attr("value");
  if (!a) return false;
  if (a->is<bool>()) return a->as_bool();
  if (a->is<int64_t>()) return a->as_int() != 0;
  return a->is<double>() && a->as_float() != 0;
}

bool ModuleWriter::is_true(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d && d->name() == "core.const" && v->type().is_bool() && truthy(*d);
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
  if (!int_type(op.result(0)->type()) || raising_int(op) || str_attr(op, "overflow") == "proven") return e;
  helpers_.insert("_ppy_wrap");
  return {str_cat("_ppy_wrap(", e.text, ")"), kAtom};
}

Expr ModuleWriter::op_expr(const ir::Operation& op) {
  const std::string& n = op.name();
  ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
  if (n == "core.const") {
    const ir::Attribute* a = op.attr("value");
    if (!a) return {"0", kAtom};
    std::string s = attribute_literal(*a, rt);
    if (rt.is_float()) {
      double d = a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
      return float_literal(d);
    }
    return {s, s[0] == '-' ? kUnary : kAtom};
  }
  if (n == "core.shl") return helper(raising_int(op) ? "_ppy_shl" : "_ppy_shl_wrap", {op.operand(0), op.operand(1)});
  if (n == "core.shr") return helper("_ppy_shr", {op.operand(0), op.operand(1)});
  if (n == "core.add") return wrapped(binary(op, "+", kAdd), op);
  if (n == "core.sub") return wrapped(binary(op, "-", kAdd), op);
  if (n == "core.mul") return wrapped(binary(op, "*", kMul), op);
  if (n == "core.neg") return wrapped({str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary}, op);
  if (n == "core.div" || n == "core.mod") {
    bool div = n == "core.div";
    std::string_view r = str_attr(op, "rounding");
    if (rt.is_float()) {
      if (div && r.empty()) return binary(op, "/", kMul);
      if (r == "floor") return binary(op, div ? "//" : "%", kMul);
      if (div) return helper("_ppy_fdiv_trunc", {op.operand(0), op.operand(1)});
      uses_math_ = true;
      return call("math.fmod", {op.operand(0), op.operand(1)});
    }
    Expr e = r == "floor" ? binary(op, div ? "//" : "%", kMul)
                          : helper(div ? "_ppy_div_trunc" : "_ppy_mod_trunc", {op.operand(0), op.operand(1)});
    return div && !safe_divisor(op) ? wrapped(e, op) : e;
  }
  if (n == "core.and" || n == "core.or") {
    bool is_and = n == "core.and";
    // Booleans read as `and` / `or` when skipping the right side changes nothing.
    if (rt.is_bool() && !tree_has_effects(op.operand(1))) return binary(op, is_and ? "and" : "or", is_and ? kAnd : kOr);
    return binary(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
  }
  if (n == "core.xor") {
    if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("not ", paren(expr(op.operand(0)), kNot)), kNot};
    return binary(op, "^", kBitXor);
  }
  if (n == "core.cmp") {
    static const std::map<std::string, std::string> kSym = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                                                            {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
    auto it = kSym.find(std::string(str_attr(op, "predicate")));
    if (it == kSym.end()) return fail(op, "core.cmp without a predicate"), Expr{"False", kAtom};
    std::string sym = it->second;
    if (op.operand(0)->type().is_ptr() && (sym == "==" || sym == "!="))
      sym = sym == "==" ? "is" : "is not";  // handles (objects) compare by identity
    return {str_cat(paren(expr(op.operand(0)), kCmp + 1), " ", sym, " ", paren(expr(op.operand(1)), kCmp + 1)), kCmp};
  }
  if (n == "core.select")
    return {str_cat(paren(expr(op.operand(1)), kTernary + 1), " if ", paren(expr(op.operand(0)), kTernary + 1),
                    " else ", paren(expr(op.operand(2)), kTernary)),
            kTernary};
  if (n == "core.cast") return cast(op);
  if (n == "core.struct_make") {
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat("(", a, op.num_operands() == 1 ? ",)" : ")"), kAtom};
  }
  if (n == "core.struct_extract") {
    const ir::Attribute* f = op.attr("field");
    ir::Type st = op.operand(0)->type();
    int64_t ix = f && f->is<int64_t>() ? f->as_int() : 0;
    if (f && f->is<std::string>())
      for (size_t k = 0; k < st.storage()->fields.size(); ++k)
        if (st.storage()->fields[k].name == f->as_string()) ix = static_cast<int64_t>(k);
    return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ix, "]"), kAtom};
  }
  if (n == "core.tuple_make") {
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat("(", a, op.num_operands() == 1 ? ",)" : ")"), kAtom};
  }
  if (n == "core.tuple_extract") {
    const ir::Attribute* ix = op.attr("index");
    return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ix && ix->is<int64_t>() ? ix->as_int() : 0, "]"), kAtom};
  }
  if (n == "core.load") {
    if (op.result(0)->type().kind() == ir::TypeKind::Struct) return call("tuple", {op.operand(0)});
    if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
    if (cells_.count(op.operand(0))) return {values_->name(op.operand(0)) + "[0]", kAtom};
    return {values_->name(op.operand(0)), kAtom};
  }
  if (n == "core.buffer_load")
    return {str_cat(paren(expr(op.operand(0)), kAtom), "[", expr(op.operand(1)).text, "]"), kAtom};
  if (n == "core.buffer_len") return call("len", {op.operand(0)});
  if (n == "core.call") {
    const ir::Attribute* c = op.attr("callee");
    std::string name = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    auto it = fn_names_.find(name);
    if (it == fn_names_.end())
      return fail(op, str_cat("a call to @", name, ", which the module does not declare")), Expr{"None", kAtom};
    std::string a;
    for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat(it->second, "(", a, ")"), kAtom};
  }
  if (n == "core.call_extern") return runtime_call(op);
  if (op.dialect() == "math") return math(op);
  fail(op, n);
  return {"None", kAtom};
}

Expr ModuleWriter::math(const ir::Operation& op) {
  std::string f = op.name().substr(5);
  uses_math_ = true;
  if (f == "sqrt" || f == "sin" || f == "cos" || f == "tan" || f == "log" || f == "log2" || f == "log10")
    return call("math." + f, {op.operand(0)});
  if (f == "abs") return call("abs", {op.operand(0)});
  if (f == "exp") return helper("_ppy_exp", {op.operand(0)});
  if (f == "exp2") return helper("_ppy_exp2", {op.operand(0)});
  if (f == "floor") return helper("_ppy_floor", {op.operand(0)});
  if (f == "ceil") return helper("_ppy_ceil", {op.operand(0)});
  if (f == "trunc") return helper("_ppy_trunc", {op.operand(0)});
  if (f == "pow") return helper("_ppy_pow", {op.operand(0), op.operand(1)});
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
