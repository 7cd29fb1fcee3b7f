// Prints marked functions as StableHLO on 0-d tensors. A function of one
// block is straight-line code; a function with branches or loops is one
// `stablehlo.while` over a state (the next block's number, the guard status,
// the results, every block argument, every value used outside its block and
// every scalar local) whose body is a `stablehlo.case` with one branch per
// block. A function that can fail a guard returns a trailing tensor<i32>
// status: 0, or the first failed guard's code (`status_code`).
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "ppy/util/str_cat.h"
#include "stablehlo.h"

namespace ppy::stablehlo {
namespace {

using ir::TypeKind;

std::string element(ir::Type t) {
  switch (t.kind()) {
    case TypeKind::Bool: return "i1";
    case TypeKind::I8: return "i8";
    case TypeKind::I16: return "i16";
    case TypeKind::I32: return "i32";
    case TypeKind::U8: return "ui8";
    case TypeKind::U16: return "ui16";
    case TypeKind::U32: return "ui32";
    case TypeKind::U64: return "ui64";
    case TypeKind::F32: return "f32";
    case TypeKind::F64: return "f64";
    default: return "i64";  // i64, index
  }
}
std::string tensor(ir::Type t) { return str_cat("tensor<", element(t), ">"); }
const std::string kI32 = "tensor<i32>";
const std::string kBool = "tensor<i1>";

bool is_signed(ir::Type t) { return t.is_signed() || t.kind() == TypeKind::Index; }

/// A float literal MLIR reads back exactly: %.17g with a '.', or the bits in hex.
std::string float_literal(double d, ir::Type t) {
  if (!std::isfinite(d)) {
    if (t.kind() == TypeKind::F32) {
      float f = static_cast<float>(d);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08" PRIX32, bits);
      return buf;
    }
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIX64, bits);
    return buf;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  std::string s = buf;
  if (s.find('.') == std::string::npos) {
    auto e = s.find('e');
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  }
  return s;
}

bool checks_overflow(const ir::Operation& op) {
  return ir::raises_on_overflow(op) && op.num_operands() && is_signed(op.operand(0)->type());
}

/// Which functions return a status: those with a guard or a checked integer
/// op, or calling one that does.
class Raises {
 public:
  explicit Raises(const ir::Module& m) : m_(m) {}
  bool of(const ir::Function& f) {
    if (auto it = memo_.find(&f); it != memo_.end()) return it->second;
    memo_[&f] = false;  // no recursion reaches here (check.cc refuses it)
    bool raises = false;
    ir::walk(f.body(), [&](const ir::Operation& op) {
      ir::CoreOp kind = ir::core_op(op);
      if (kind == ir::CoreOp::Guard || checks_overflow(op)) raises = true;
      if (kind == ir::CoreOp::Call)
        if (const ir::Function* callee = m_.function(*ir::call_callee(op))) raises |= of(*callee);
    });
    return memo_[&f] = raises;
  }

 private:
  const ir::Module& m_;
  std::map<const ir::Function*, bool> memo_;
};

class FunctionPrinter {
 public:
  FunctionPrinter(const ir::Function& f, const ir::Module& m, Raises& raises, std::string& out)
      : f_(f), m_(m), raises_(raises), out_(out), has_status_(raises.of(f)) {}

  void run() {
    order_blocks();
    std::string params, results;
    for (size_t i = 0; i < f_.params().size(); ++i) {
      std::string name = str_cat("%arg", i);
      params_[f_.body().entry()->argument(i)] = name;
      str_append(params, i ? ", " : "", name, ": ", tensor(f_.params()[i].type));
    }
    std::vector<std::string> result_types;
    for (ir::Type t : f_.results()) result_types.push_back(tensor(t));
    if (has_status_) result_types.push_back(kI32);
    for (size_t i = 0; i < result_types.size(); ++i) str_append(results, i ? ", " : "", result_types[i]);
    line(str_cat("func.func @", f_.name(), "(", params, ") -> (", results, ") {"));
    indent_ += 2;
    if (blocks_.size() == 1) straight_line();
    else state_machine();
    indent_ -= 2;
    line("}");
  }

 private:
  /// The names of values where an op is printed: SSA values, the current
  /// value of each scalar local, and the guard status so far.
  struct Env {
    std::map<const ir::Value*, std::string> values;
    std::map<const ir::Value*, std::string> slots;
    std::string status;  ///< empty when the function returns no status
  };

  /// One entry of a looping function's state.
  struct StateVar {
    enum Kind { Id, Status, Result, Value, Slot } kind;
    std::string type;
    const ir::Value* value = nullptr;
  };

  // ---- text -------------------------------------------------------------
  void line(const std::string& s) { str_append(out_, std::string(indent_, ' '), s, "\n"); }
  std::string fresh() { return str_cat("%", next_++); }

  std::string op(std::string_view name, const std::vector<std::string>& args, const std::vector<std::string>& types,
                 const std::string& result, const std::string& attrs = "") {
    std::string r = fresh(), a, t;
    for (size_t i = 0; i < args.size(); ++i) {
      str_append(a, i ? ", " : "", args[i]);
      str_append(t, i ? ", " : "", types[i]);
    }
    line(str_cat(r, " = \"stablehlo.", name, "\"(", a, ")", attrs.empty() ? "" : str_cat(" {", attrs, "}"), " : (", t,
                 ") -> ", result));
    return r;
  }
  std::string unary(std::string_view name, const std::string& a, const std::string& type) {
    return op(name, {a}, {type}, type);
  }
  std::string binary(std::string_view name, const std::string& a, const std::string& b, const std::string& type) {
    return op(name, {a, b}, {type, type}, type);
  }
  std::string constant(const std::string& literal, const std::string& type) {
    return op("constant", {}, {}, type, str_cat("value = dense<", literal, "> : ", type));
  }
  std::string int_const(int64_t v, ir::Type t) { return constant(std::to_string(v), tensor(t)); }
  std::string i32(int v) { return constant(std::to_string(v), kI32); }
  std::string float_const(double v, ir::Type t) { return constant(float_literal(v, t), tensor(t)); }
  std::string zero(ir::Type t) {
    if (t.is_bool()) return constant("false", kBool);
    return t.is_float() ? float_const(0.0, t) : int_const(0, t);
  }
  std::string min_int(ir::Type t) {
    int bits = t.kind() == TypeKind::Index ? 64 : t.bit_width();
    return int_const(bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1)), t);
  }
  std::string compare(std::string_view dir, const std::string& a, const std::string& b, ir::Type t) {
    std::string kind = t.is_float() ? "FLOAT" : (t.is_bool() || !is_signed(t)) ? "UNSIGNED" : "SIGNED";
    return op("compare", {a, b}, {tensor(t), tensor(t)}, kBool,
              str_cat("comparison_direction = #stablehlo<comparison_direction ", dir,
                      ">, compare_type = #stablehlo<comparison_type ", kind, ">"));
  }
  std::string select(const std::string& c, const std::string& a, const std::string& b, const std::string& type) {
    return op("select", {c, a, b}, {kBool, type, type}, type);
  }
  std::string logical_and(const std::string& a, const std::string& b) { return binary("and", a, b, kBool); }

  // ---- blocks -----------------------------------------------------------
  void order_blocks() {
    std::set<const ir::Block*> seen{f_.body().entry()};
    std::vector<const ir::Block*> post;
    std::vector<std::pair<const ir::Block*, size_t>> stack{{f_.body().entry(), 0}};
    while (!stack.empty()) {
      auto& [blk, next] = stack.back();
      const ir::Operation* term = blk->terminator();
      if (term && next < term->successors().size()) {
        const ir::Block* s = term->successors()[next++].block;
        if (seen.insert(s).second) stack.push_back({s, 0});
        continue;
      }
      post.push_back(blk);
      stack.pop_back();
    }
    blocks_.assign(post.rbegin(), post.rend());
    for (size_t i = 0; i < blocks_.size(); ++i) block_index_[blocks_[i]] = static_cast<int>(i);
  }

  std::string name_of(const ir::Value* v, const Env& env) {
    if (auto it = params_.find(v); it != params_.end()) return it->second;
    return env.values.at(v);
  }

  void straight_line() {
    Env env;
    if (has_status_) env.status = i32(0);
    const ir::Block* b = blocks_[0];
    for (const auto& o : b->operations())
      if (o.get() != b->terminator()) emit(*o, env);
    std::vector<std::string> names, types;
    const ir::Operation* term = b->terminator();
    for (size_t i = 0; i < f_.results().size(); ++i) {
      names.push_back(ir::core_op(*term) == ir::CoreOp::Ret ? name_of(term->operand(i), env) : zero(f_.results()[i]));
      types.push_back(tensor(f_.results()[i]));
    }
    if (has_status_) {
      names.push_back(env.status);
      types.push_back(kI32);
    }
    func_return(names, types);
  }

  void func_return(const std::vector<std::string>& names, const std::vector<std::string>& types) {
    std::string n, t;
    for (size_t i = 0; i < names.size(); ++i) {
      str_append(n, i ? ", " : "", names[i]);
      str_append(t, i ? ", " : "", types[i]);
    }
    line(names.empty() ? "func.return" : str_cat("func.return ", n, " : ", t));
  }

  void collect_state() {
    state_.push_back({StateVar::Id, kI32});
    state_.push_back({StateVar::Status, kI32});
    for (ir::Type t : f_.results()) state_.push_back({StateVar::Result, tensor(t)});
    std::set<const ir::Value*> added;
    auto add = [&](StateVar::Kind k, const ir::Value* v, ir::Type t) {
      if (!added.insert(v).second) return;
      position_[v] = state_.size();
      state_.push_back({k, tensor(t), v});
    };
    for (const ir::Block* b : blocks_) {
      if (b != f_.body().entry())
        for (size_t i = 0; i < b->num_arguments(); ++i) add(StateVar::Value, b->argument(i), b->argument(i)->type());
      for (const auto& o : b->operations()) {
        if (ir::core_op(*o) == ir::CoreOp::Alloca) add(StateVar::Slot, o->result(), o->result()->type().elem());
        auto used = [&](const ir::Value* v) {
          if (v->def() && v->def()->parent() != b && ir::core_op(*v->def()) != ir::CoreOp::Alloca)
            add(StateVar::Value, v, v->type());
        };
        for (const ir::Value* v : o->operands()) used(v);
        for (const ir::Successor& s : o->successors())
          for (const ir::Value* v : s.args) used(v);
      }
    }
  }

  void state_machine() {
    collect_state();
    std::vector<std::string> init, types;
    for (const StateVar& s : state_) {
      types.push_back(s.type);
      if (s.kind == StateVar::Id || s.kind == StateVar::Status) init.push_back(i32(0));
      else init.push_back(s.value ? zero(s.kind == StateVar::Slot ? s.value->type().elem() : s.value->type())
                                  : zero(f_.results()[&s - &state_[2]]));
    }
    std::string all_types = join(types);
    std::string w = fresh();
    line(str_cat(w, ":", state_.size(), " = \"stablehlo.while\"(", join(init), ") ({"));
    // cond: run while the next block is not -1 (returned, or a guard failed).
    std::vector<std::string> cond_args = region_args(types);
    indent_ += 2;
    std::string stop = i32(-1);
    std::string go = compare("NE", cond_args[0], stop, ir::Type::scalar(TypeKind::I32));
    line(str_cat("\"stablehlo.return\"(", go, ") : (tensor<i1>) -> ()"));
    indent_ -= 2;
    line("}, {");
    std::vector<std::string> body_args = region_args(types);
    indent_ += 2;
    std::string c = fresh();
    line(str_cat(c, ":", state_.size(), " = \"stablehlo.case\"(", body_args[0], ") ({"));
    indent_ += 2;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      if (i) {
        indent_ -= 2;
        line("}, {");
        indent_ += 2;
      }
      branch(*blocks_[i], body_args, types);
    }
    indent_ -= 2;
    line(str_cat("}) : (tensor<i32>) -> (", all_types, ")"));
    std::vector<std::string> outs;
    for (size_t i = 0; i < state_.size(); ++i) outs.push_back(str_cat(c, "#", i));
    line(str_cat("\"stablehlo.return\"(", join(outs), ") : (", all_types, ") -> ()"));
    indent_ -= 2;
    line(str_cat("}) : (", all_types, ") -> (", all_types, ")"));
    std::vector<std::string> names, rtypes;
    for (size_t i = 0; i < f_.results().size(); ++i) {
      names.push_back(str_cat(w, "#", 2 + i));
      rtypes.push_back(tensor(f_.results()[i]));
    }
    if (has_status_) {
      names.push_back(str_cat(w, "#1"));
      rtypes.push_back(kI32);
    }
    func_return(names, rtypes);
  }

  std::vector<std::string> region_args(const std::vector<std::string>& types) {
    std::vector<std::string> names;
    std::string header;
    for (size_t i = 0; i < types.size(); ++i) {
      names.push_back(fresh());
      str_append(header, i ? ", " : "", names.back(), ": ", types[i]);
    }
    line(str_cat("^bb0(", header, "):"));
    return names;
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) str_append(out, i ? ", " : "", parts[i]);
    return out;
  }

  /// One block as a branch of the case: its ops, then the next state.
  void branch(const ir::Block& b, const std::vector<std::string>& in, const std::vector<std::string>& types) {
    Env env;
    for (const auto& [v, pos] : position_) {
      if (state_[pos].kind == StateVar::Slot) env.slots[v] = in[pos];
      else env.values[v] = in[pos];
    }
    env.status = in[1];
    for (const auto& o : b.operations())
      if (o.get() != b.terminator()) emit(*o, env);
    const ir::Operation& term = *b.terminator();
    auto base = [&] {
      std::vector<std::string> s(in.size());
      s[1] = env.status;
      for (size_t i = 0; i < state_.size(); ++i) {
        if (state_[i].kind == StateVar::Result) s[i] = in[i];
        else if (state_[i].kind == StateVar::Slot) s[i] = env.slots.at(state_[i].value);
        else if (state_[i].kind == StateVar::Value) s[i] = env.values.count(state_[i].value) ? env.values.at(state_[i].value) : in[i];
      }
      return s;
    };
    auto jump = [&](const ir::Successor& to) {
      std::vector<std::string> s = base();
      s[0] = i32(block_index_.at(to.block));
      for (size_t i = 0; i < to.args.size(); ++i) s[position_.at(to.block->argument(i))] = name_of(to.args[i], env);
      return s;
    };
    std::vector<std::string> next;
    const ir::CoreOp kind = ir::core_op(term);
    if (kind == ir::CoreOp::Br) {
      next = jump(term.successors()[0]);
    } else if (kind == ir::CoreOp::CondBr) {
      std::vector<std::string> t = jump(term.successors()[0]), f = jump(term.successors()[1]);
      std::string c = name_of(term.operand(0), env);
      next = t;
      for (size_t i = 0; i < t.size(); ++i)
        if (t[i] != f[i]) next[i] = select(c, t[i], f[i], types[i]);
    } else {  // core.ret / core.unreachable: the loop ends
      next = base();
      next[0] = i32(-1);
      if (kind == ir::CoreOp::Ret)
        for (size_t i = 0; i < term.num_operands(); ++i) next[2 + i] = name_of(term.operand(i), env);
    }
    if (env.status != in[1]) {  // a guard may have failed here: stop
      std::string failed = compare("NE", env.status, i32(0), ir::Type::scalar(TypeKind::I32));
      next[0] = select(failed, i32(-1), next[0], kI32);
    }
    line(str_cat("\"stablehlo.return\"(", join(next), ") : (", join(types), ") -> ()"));
  }

  // ---- ops --------------------------------------------------------------
  /// A failed check: the status becomes `code` unless an earlier guard failed.
  void fail_if(const std::string& bad, int code, Env& env) {
    if (env.status.empty()) return;
    std::string ok_so_far = compare("EQ", env.status, i32(0), ir::Type::scalar(TypeKind::I32));
    env.status = select(logical_and(ok_so_far, bad), i32(code), env.status, kI32);
  }

  std::string int_divmod(bool is_div, bool floor, const std::string& a, const std::string& b, ir::Type t,
                         bool check, Env& env) {
    std::string tt = tensor(t);
    std::string zero_c = int_const(0, t), one = int_const(1, t);
    if (!is_signed(t)) {
      std::string safe = select(compare("EQ", b, zero_c, t), one, b, tt);
      return binary(is_div ? "divide" : "remainder", a, safe, tt);
    }
    // A zero divisor was guarded before (its result is unused); MIN // -1 wraps.
    std::string minus_one = compare("EQ", b, int_const(-1, t), t);
    std::string safe = select(binary("or", compare("EQ", b, zero_c, t), minus_one, kBool), one, b, tt);
    std::string q = select(minus_one, unary("negate", a, tt), binary("divide", a, safe, tt), tt);
    std::string r = select(minus_one, zero_c, binary("remainder", a, safe, tt), tt);
    if (floor) {
      std::string signs = compare("LT", binary("xor", r, b, tt), zero_c, t);
      std::string adjust = logical_and(compare("NE", r, zero_c, t), signs);
      q = select(adjust, binary("subtract", q, one, tt), q, tt);
      r = select(adjust, binary("add", r, b, tt), r, tt);
    }
    if (check && is_div)
      fail_if(logical_and(minus_one, compare("EQ", a, min_int(t), t)), status_code(ir::GuardKind::Overflow), env);
    return is_div ? q : r;
  }

  /// copysign(0.0, x): sign(x) is -1, -0, +0, 1 (or NaN), times +0.
  std::string zero_with_sign_of(const std::string& x, ir::Type t) {
    std::string tt = tensor(t);
    return binary("multiply", unary("sign", x, tt), float_const(0.0, t), tt);
  }

  /// Python's float `//` and `%` (CPython's float_divmod), from fmod.
  std::string float_divmod(bool is_div, const std::string& a, const std::string& b, ir::Type t) {
    std::string tt = tensor(t), z = float_const(0.0, t), one = float_const(1.0, t);
    std::string mod = binary("remainder", a, b, tt);
    std::string div = binary("divide", binary("subtract", a, mod, tt), b, tt);
    std::string mod_nz = compare("NE", mod, z, t);
    std::string differ = binary("xor", compare("LT", b, z, t), compare("LT", mod, z, t), kBool);
    std::string fix = logical_and(mod_nz, differ);
    if (!is_div) return select(mod_nz, select(fix, binary("add", mod, b, tt), mod, tt), zero_with_sign_of(b, t), tt);
    std::string d = select(fix, binary("subtract", div, one, tt), div, tt);
    std::string fl = unary("floor", d, tt);
    std::string up = compare("GT", binary("subtract", d, fl, tt), float_const(0.5, t), t);
    std::string floordiv = select(up, binary("add", fl, one, tt), fl, tt);
    return select(compare("NE", d, z, t), floordiv, zero_with_sign_of(binary("divide", a, b, tt), t), tt);
  }

  std::string cast(const std::string& x, ir::Type from, ir::Type to) {
    if (element(from) == element(to)) return x;
    if (to.is_bool()) return compare("NE", x, zero(from), from);
    return op("convert", {x}, {tensor(from)}, tensor(to));
  }

  std::string math(const ir::Operation& o, Env& env) {
    ir::Type t = o.result()->type();
    std::string tt = tensor(t), x = name_of(o.operand(0), env);
    std::string_view n = std::string_view(o.name()).substr(5);
    static const std::map<std::string_view, std::string_view> direct = {
        {"sqrt", "sqrt"}, {"sin", "sine"}, {"cos", "cosine"}, {"tan", "tan"},   {"exp", "exponential"},
        {"log", "log"},   {"floor", "floor"}, {"ceil", "ceil"}, {"abs", "abs"}};
    if (auto it = direct.find(n); it != direct.end()) return unary(it->second, x, tt);
    if (n == "pow") return binary("power", x, name_of(o.operand(1), env), tt);
    if (n == "exp2") return binary("power", float_const(2.0, t), x, tt);
    if (n == "log2") return binary("divide", unary("log", x, tt), float_const(std::log(2.0), t), tt);
    if (n == "log10") return binary("divide", unary("log", x, tt), float_const(std::log(10.0), t), tt);
    // trunc: toward zero.
    std::string negative = compare("LT", x, float_const(0.0, t), t);
    return select(negative, unary("ceil", x, tt), unary("floor", x, tt), tt);
  }

  /// A call to another marked function: its results, and its status folded
  /// into this function's (the first failure wins).
  std::string call(const ir::Operation& o, Env& env) {
    auto in = [&](size_t i) { return name_of(o.operand(i), env); };
    const ir::Function& callee = *m_.function(*ir::call_callee(o));
    bool status = raises_.of(callee);
    std::vector<std::string> args, arg_types, result_types;
    for (size_t i = 0; i < o.num_operands(); ++i) {
      args.push_back(in(i));
      arg_types.push_back(tensor(o.operand(i)->type()));
    }
    for (ir::Type rt : callee.results()) result_types.push_back(tensor(rt));
    if (status) result_types.push_back(kI32);
    std::string c = fresh();
    std::string count = result_types.size() > 1 ? str_cat(":", result_types.size()) : "";
    std::string results = result_types.size() == 1 ? result_types[0] : str_cat("(", join(result_types), ")");
    line(str_cat(result_types.empty() ? "" : str_cat(c, count, " = "), "func.call @", callee.name(), "(", join(args),
                 ") : (", join(arg_types), ") -> ", results));
    auto result = [&](size_t i) { return result_types.size() > 1 ? str_cat(c, "#", i) : c; };
    std::string r;
    if (o.num_results()) r = result(0);
    if (status && !env.status.empty()) {
      std::string callee_status = result(result_types.size() - 1);
      std::string ok_so_far = compare("EQ", env.status, i32(0), ir::Type::scalar(TypeKind::I32));
      env.status = select(ok_so_far, callee_status, env.status, kI32);
    }
    return r;
  }

  void emit(const ir::Operation& o, Env& env) {
    const std::string& n = o.name();
    const ir::CoreOp kind = ir::core_op(o);
    auto in = [&](size_t i) { return name_of(o.operand(i), env); };
    ir::Type t = o.num_operands() ? o.operand(0)->type() : ir::Type();
    std::string tt = t ? tensor(t) : "";
    std::string r;
    switch (kind) {
      case ir::CoreOp::Const: {
        ir::Type rt = o.result()->type();
        const ir::Attribute& v = *o.attr("value");
        if (rt.is_bool())
          r = constant(v.is<bool>() && v.as_bool() ? "true" : "false", kBool);
        else if (rt.is_float())
          r = float_const(v.is<double>() ? v.as_float() : v.is<int64_t>() ? double(v.as_int()) : 0.0, rt);
        else
          r = int_const(v.is<int64_t>() ? v.as_int() : v.is<bool>() ? v.as_bool() : 0, rt);
        break;
      }
      case ir::CoreOp::Add:
      case ir::CoreOp::Sub:
      case ir::CoreOp::Mul: {
        std::string a = in(0), b = in(1);
        r = binary(kind == ir::CoreOp::Add ? "add" : kind == ir::CoreOp::Sub ? "subtract" : "multiply", a, b, tt);
        if (checks_overflow(o)) {
          std::string z = int_const(0, t), bad;
          if (kind == ir::CoreOp::Add)
            bad = compare("LT", binary("and", binary("xor", a, r, tt), binary("xor", b, r, tt), tt), z, t);
          else if (kind == ir::CoreOp::Sub)
            bad = compare("LT", binary("and", binary("xor", a, b, tt), binary("xor", a, r, tt), tt), z, t);
          else {  // a * b overflowed unless r / a == b (a = -1: only b = MIN overflows)
            std::string minus_one = compare("EQ", a, int_const(-1, t), t);
            std::string safe = select(binary("or", compare("EQ", a, z, t), minus_one, kBool), int_const(1, t), a, tt);
            std::string differs =
                logical_and(compare("NE", a, z, t), compare("NE", binary("divide", r, safe, tt), b, t));
            bad = select(minus_one, compare("EQ", b, min_int(t), t), differs, kBool);
          }
          fail_if(bad, status_code(ir::GuardKind::Overflow), env);
        }
        break;
      }
      case ir::CoreOp::Neg:
        r = unary("negate", in(0), tt);
        if (checks_overflow(o)) fail_if(compare("EQ", in(0), min_int(t), t), status_code(ir::GuardKind::Overflow), env);
        break;
      case ir::CoreOp::Div:
      case ir::CoreOp::Mod: {
        bool floor = ir::rounding_of(o) == ir::Rounding::Floor;
        bool is_div = kind == ir::CoreOp::Div;
        if (!t.is_float())
          r = int_divmod(is_div, floor, in(0), in(1), t, checks_overflow(o), env);
        else if (floor)
          r = float_divmod(is_div, in(0), in(1), t);
        else
          r = binary(is_div ? "divide" : "remainder", in(0), in(1), tt);
        break;
      }
      case ir::CoreOp::And:
      case ir::CoreOp::Or:
      case ir::CoreOp::Xor:
        r = binary(std::string_view(n).substr(5), in(0), in(1), tt);
        break;
      case ir::CoreOp::Cmp: {
        // In ir::Predicate's order: eq ne lt le gt ge.
        static constexpr std::string_view kDirections[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
        r = compare(kDirections[static_cast<size_t>(ir::predicate_of(o).value())], in(0), in(1), t);
        break;
      }
      case ir::CoreOp::Select:
        r = select(in(0), in(1), in(2), tensor(o.result()->type()));
        break;
      case ir::CoreOp::Cast:
        r = cast(in(0), t, o.result()->type());
        break;
      case ir::CoreOp::Guard:
        fail_if(unary("not", in(0), kBool), status_code(ir::guard_kind(o)), env);
        break;
      case ir::CoreOp::Alloca:
        env.slots[o.result()] = zero(o.result()->type().elem());
        break;
      case ir::CoreOp::Load:
        r = env.slots.at(o.operand(0));
        break;
      case ir::CoreOp::Store:
        env.slots[o.operand(1)] = in(0);
        break;
      case ir::CoreOp::Call:
        r = call(o, env);
        break;
      default:
        if (ir::is_math(kind)) r = math(o, env);
        break;
    }
    if (o.num_results() && !r.empty()) env.values[o.result()] = r;
  }

  const ir::Function& f_;
  const ir::Module& m_;
  Raises& raises_;
  std::string& out_;
  bool has_status_;
  int indent_ = 2;
  int next_ = 0;
  std::vector<const ir::Block*> blocks_;
  std::map<const ir::Block*, int> block_index_;
  std::map<const ir::Value*, std::string> params_;
  std::vector<StateVar> state_;
  std::map<const ir::Value*, size_t> position_;
};

}  // namespace

std::string print_module(const ir::Module& module) {
  std::string out = str_cat("module @", module.name(), " {\n");
  Raises raises(module);
  for (const auto& f : module.functions())
    if (is_marked(*f) && !f->is_declaration()) FunctionPrinter(*f, module, raises, out).run();
  return out + "}\n";
}

}  // namespace ppy::stablehlo
