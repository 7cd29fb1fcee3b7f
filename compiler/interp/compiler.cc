// The interpreter's compiler: each function of the module, once, from IR to
// the register form the machine runs (internal.h).
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "internal.h"
#include "ppy/ir/core_ops.h"
#include "ppy/pipeline/semantics.h"
#include "ppy/util/str_cat.h"

namespace ppy::interp::detail {
namespace {

using ir::Type;
using ir::TypeKind;
namespace sem = ppy::pipeline::sem;

int64_t float_bits(double d) { return std::bit_cast<int64_t>(d); }

/// Tuples and structs (an object's memory) are aggregates, flattened alike.
bool aggregate(Type t) { return t.kind() == TypeKind::Tuple || t.kind() == TypeKind::Struct; }
size_t members(Type t) { return t.kind() == TypeKind::Struct ? t.storage()->fields.size() : t.num_elems(); }
Type member(Type t, size_t i) { return t.kind() == TypeKind::Struct ? Type(t.storage()->fields[i].type) : t.elem(i); }
/// How many registers a value of type `t` takes: a tuple (or struct) is
/// flattened into its scalars, one register each, contiguous.
int32_t width(Type t) {
  if (!aggregate(t)) return 1;
  int32_t w = 0;
  for (size_t i = 0; i < members(t); ++i) w += width(member(t, i));
  return w;
}
/// The register offset of member `i` in a tuple (or struct) of type `t`.
int32_t member_offset(Type t, size_t i) {
  int32_t w = 0;
  for (size_t k = 0; k < i && k < members(t); ++k) w += width(member(t, k));
  return w;
}

/// The math function of a math-dialect op (`mode` of Opc::Math).
sem::MathFn math_fn(ir::CoreOp op) {
  switch (op) {
    case ir::CoreOp::MathSqrt:
      return sem::MathFn::Sqrt;
    case ir::CoreOp::MathSin:
      return sem::MathFn::Sin;
    case ir::CoreOp::MathCos:
      return sem::MathFn::Cos;
    case ir::CoreOp::MathTan:
      return sem::MathFn::Tan;
    case ir::CoreOp::MathExp:
      return sem::MathFn::Exp;
    case ir::CoreOp::MathExp2:
      return sem::MathFn::Exp2;
    case ir::CoreOp::MathLog:
      return sem::MathFn::Log;
    case ir::CoreOp::MathLog2:
      return sem::MathFn::Log2;
    case ir::CoreOp::MathLog10:
      return sem::MathFn::Log10;
    case ir::CoreOp::MathFloor:
      return sem::MathFn::Floor;
    case ir::CoreOp::MathCeil:
      return sem::MathFn::Ceil;
    case ir::CoreOp::MathTrunc:
      return sem::MathFn::Trunc;
    case ir::CoreOp::MathAbs:
      return sem::MathFn::Abs;
    default:  // MathPow: lower() asks only of math ops
      return sem::MathFn::Pow;
  }
}

/// Compiles one function body into a Code.
class Compiler {
 public:
  Compiler(const ir::Module& m, const std::unordered_map<std::string, int32_t>& functions,
           const std::unordered_map<std::string, int32_t>& globals)
      : module_(m), functions_(functions), globals_(globals) {}

  Code compile(const ir::Function& f) {
    Code code;
    code_ = &code;
    code.name = f.name();
    code.frame_name = ir::trace_frame_name(f);  // tracebacks (issue 34)
    code.file = ir::trace_file(f);
    code.comps = ir::trace_comprehensions(f);
    code.trace_role = ir::trace_role(f);
    code.counts_level = !ir::trace_transparent(f);
    code.nparams = 0;
    for (auto& p : f.params()) code.nparams += width(p.type);
    code.nresults = 0;
    for (Type t : f.results()) {
      code.nresults += width(t);
    }
    if (f.is_declaration()) {
      code.error = ppy::str_cat("@", f.name(), " is a declaration with no body (is the program linked?)");
      return code;
    }
    // Registers: parameters first (the entry block's arguments), then each
    // block's arguments contiguously, then each op's results contiguously.
    int32_t pc = 0;
    for (auto& b : f.body().blocks()) {
      for (auto& a : b->arguments()) {
        regs_[a.get()] = code.nregs;
        code.nregs += width(a->type());
      }
      block_pc_[b.get()] = pc;
      pc += static_cast<int32_t>(b->operations().size());
    }
    for (auto& b : f.body().blocks())
      for (auto& op : b->operations()) {
        if (!op->regions().empty()) {
          code.error =
              ppy::str_cat("@", f.name(), ": ", op->name(), " has regions, which the interpreter does not run");
          return code;
        }
        for (auto& r : op->results()) {
          regs_[&r] = code.nregs;
          code.nregs += width(r.type());
        }
      }
    int64_t line = f.loc() ? static_cast<int64_t>(f.loc()->line) : 0;
    for (auto& b : f.body().blocks())
      for (auto& op : b->operations()) {
        if (int64_t at = ir::trace_line(*op)) line = at;
        code.lines.push_back(line);  // tracebacks (issue 34): an op without a location has the previous one's
        Inst in = lower(*op);
        if (!error_.empty()) {
          code.error = ppy::str_cat("@", f.name(), ": ", error_);
          return code;
        }
        code.insts.push_back(in);
      }
    return code;
  }

 private:
  int32_t reg(const ir::Value* v) {
    auto it = regs_.find(v);
    if (it != regs_.end()) return it->second;
    if (error_.empty()) error_ = "an operand is defined outside the function";
    return 0;
  }
  /// Appends the registers of `v` (each scalar of a tuple) to Code::srcs.
  int32_t push_srcs(const ir::Value* v) {
    int32_t r = reg(v), w = width(v->type());
    for (int32_t k = 0; k < w; ++k) code_->srcs.push_back(r + k);
    return w;
  }

  int32_t edge(const ir::Successor& s) {
    Edge e;
    auto it = block_pc_.find(s.block);
    if (it == block_pc_.end()) {
      error_ = "a branch targets a block of another region";
      return 0;
    }
    e.target = it->second;
    e.n = 0;
    if (s.args.size() != s.block->num_arguments()) {
      error_ = ppy::str_cat("a branch passes ", s.args.size(), " value(s) to ^", s.block->label(), ", which takes ",
                            s.block->num_arguments());
      return 0;
    }
    e.dst_base = s.args.empty() ? 0 : regs_.at(s.block->argument(0));
    e.src_begin = static_cast<int32_t>(code_->srcs.size());
    for (ir::Value* v : s.args) e.n += push_srcs(v);
    for (int32_t k = 0; k < e.n; ++k) {
      int32_t r = code_->srcs[static_cast<size_t>(e.src_begin + k)];
      if (r >= e.dst_base && r < e.dst_base + e.n) e.overlap = true;
    }
    code_->edges.push_back(e);
    return static_cast<int32_t>(code_->edges.size() - 1);
  }

  Inst unsupported(std::string why) {
    Inst in;
    in.op = Opc::Unsupported;
    in.imm = static_cast<int64_t>(code_->strings.size());
    code_->strings.push_back(std::move(why));
    return in;
  }

  static uint8_t narrow(Type t) {
    switch (t.kind()) {
      case TypeKind::I8:
      case TypeKind::I16:
      case TypeKind::I32:
      case TypeKind::U8:
      case TypeKind::U16:
      case TypeKind::U32:
      case TypeKind::Bool:
      case TypeKind::F32:
      case TypeKind::F16:
        return static_cast<uint8_t>(t.kind());
      default:
        return 0;
    }
  }

  /// One op as one instruction: a switch over every core and math op, so a
  /// new one is a warning here rather than an op the interpreter skips.
  Inst lower(const ir::Operation& op) {
    Inst in;
    if (op.num_operands() > 0) in.a = reg(op.operand(0));
    if (op.num_operands() > 1) in.b = reg(op.operand(1));
    if (op.num_operands() > 2) in.c = reg(op.operand(2));
    if (op.num_results() > 0) in.dst = reg(op.result(0));
    Type rt = op.num_results() > 0 ? op.result(0)->type() : Type::void_();
    Type ot = op.num_operands() > 0 ? op.operand(0)->type() : Type::void_();
    in.norm = op.num_results() > 0 && rt.is_scalar() ? narrow(rt) : 0;
    auto pick = [&](Opc iwrap, Opc ichecked, Opc f) {
      in.op = rt.is_float() ? f : ir::raises_on_overflow(op) ? ichecked : iwrap;
      return in;
    };
    auto as = [&](Opc opc) {
      in.op = opc;
      return in;
    };
    const ir::CoreOp kind = ir::core_op(op);
    switch (kind) {
      case ir::CoreOp::Const:
        return lower_const(op, rt, in);
      case ir::CoreOp::Add:
        return pick(Opc::AddI, Opc::AddIC, Opc::AddF);
      case ir::CoreOp::Sub:
        return pick(Opc::SubI, Opc::SubIC, Opc::SubF);
      case ir::CoreOp::Mul:
        return pick(Opc::MulI, Opc::MulIC, Opc::MulF);
      case ir::CoreOp::Neg:
        return pick(Opc::NegI, Opc::NegIC, Opc::NegF);
      case ir::CoreOp::Div:
      case ir::CoreOp::Mod:
        return lower_div(op, kind == ir::CoreOp::Div, rt, in);
      case ir::CoreOp::And:
        return as(Opc::And);
      case ir::CoreOp::Or:
        return as(Opc::Or);
      case ir::CoreOp::Xor:
        return as(Opc::Xor);
      case ir::CoreOp::Shl:
        in.imm = rt.bit_width();
        in.flag = ir::raises_on_overflow(op);
        return as(Opc::Shl);
      case ir::CoreOp::Shr:
        in.imm = rt.bit_width();
        return as(rt.is_signed() || rt.kind() == TypeKind::Index ? Opc::ShrS : Opc::ShrU);
      case ir::CoreOp::Cmp: {
        std::optional<ir::Predicate> p = ir::predicate_of(op);
        if (!p) return unsupported(ppy::str_cat(ir::core_op_name(kind), " without a predicate"));
        in.mode = static_cast<uint8_t>(*p);
        in.norm = 0;
        return as(ot.is_float() ? Opc::CmpF : (ot.is_int() && !ot.is_signed()) ? Opc::CmpU : Opc::CmpS);
      }
      case ir::CoreOp::Select:
        in.imm = width(rt);
        in.norm = 0;
        return as(aggregate(rt) ? Opc::SelectN : Opc::Select);
      case ir::CoreOp::Cast:
        return lower_cast(op, ot, rt, in);
      case ir::CoreOp::Br:
        in.a = edge(op.successors().at(0));
        return as(Opc::Br);
      case ir::CoreOp::CondBr:
        in.c = in.a;
        in.a = edge(op.successors().at(0));
        in.b = edge(op.successors().at(1));
        return as(Opc::CondBr);
      case ir::CoreOp::Ret:
        in.a = static_cast<int32_t>(code_->srcs.size());
        in.b = 0;
        for (ir::Value* v : op.operands()) in.b += push_srcs(v);
        if (in.b != code_->nresults)
          return unsupported(ppy::str_cat(ir::core_op_name(kind), " returns ", op.num_operands(),
                                          " value(s) that do not match the results"));
        return as(Opc::Ret);
      case ir::CoreOp::Unreachable:
        return as(Opc::Unreachable);
      case ir::CoreOp::Guard:
        return lower_guard(op, in);
      case ir::CoreOp::Alloca: {
        int64_t count = std::max<int64_t>(ir::attr_or<int64_t>(op, "count", 1), 1);
        in.imm = code_->nalloca;
        code_->nalloca += static_cast<int32_t>(count) * (rt.is_ptr() ? width(rt.elem()) : 1);
        return as(Opc::Alloca);
      }
      case ir::CoreOp::Load:
        in.imm = width(rt);
        in.norm = 0;
        return as(aggregate(rt) ? Opc::LoadN : Opc::Load);
      case ir::CoreOp::Store:
        in.imm = width(ot);
        return as(aggregate(ot) ? Opc::StoreN : Opc::Store);
      case ir::CoreOp::PtrOffset:
        return as(Opc::PtrOffset);
      case ir::CoreOp::BufferData:
        return as(Opc::BufData);
      case ir::CoreOp::BufferLen:
        return as(Opc::BufLen);
      case ir::CoreOp::BufferLoad:
        in.imm = width(rt);
        in.norm = 0;
        return as(rt.kind() == TypeKind::Tuple ? Opc::BufLoadN : Opc::BufLoad);
      case ir::CoreOp::BufferStore:
        in.imm = width(ot);
        return as(ot.kind() == TypeKind::Tuple ? Opc::BufStoreN : Opc::BufStore);
      case ir::CoreOp::TupleMake:
      case ir::CoreOp::StructMake:
        in.a = static_cast<int32_t>(code_->srcs.size());
        in.b = 0;
        for (ir::Value* v : op.operands()) in.b += push_srcs(v);
        in.norm = 0;
        return as(Opc::Gather);
      case ir::CoreOp::TupleExtract:
      case ir::CoreOp::StructExtract:
        return lower_extract(op, kind, ot, rt, in);
      case ir::CoreOp::Call:
        return lower_call(op, in);
      case ir::CoreOp::CallExtern:
        return lower_extern(op, in);
      case ir::CoreOp::FuncRef: {
        // A function value is its index in the module plus 1 (0 is no function).
        const std::string* name = ir::call_callee(op);
        auto it = name ? functions_.find(*name) : functions_.end();
        if (it == functions_.end()) return unsupported("a core.func_ref of a function the module does not define");
        in.op = Opc::Const;
        in.imm = static_cast<int64_t>(it->second) + 1;
        return in;
      }
      case ir::CoreOp::CallIndirect: {
        CallSite site;
        site.fn_reg = reg(op.operand(0));
        site.args_begin = static_cast<int32_t>(code_->srcs.size());
        for (size_t k = 1; k < op.num_operands(); ++k) site.nargs += push_srcs(op.operand(k));
        in.op = Opc::CallIndirect;
        in.imm = static_cast<int64_t>(code_->calls.size());
        code_->calls.push_back(site);
        if (in.dst < 0) in.dst = 0;  // no results: nothing is written
        return in;
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
      case ir::CoreOp::MathPow:
        in.mode = static_cast<uint8_t>(math_fn(kind));
        return as(Opc::Math);
      case ir::CoreOp::CallIntrinsic:
      case ir::CoreOp::Other:
        break;
    }
    return unsupported(ppy::str_cat("the interpreter does not run ", op.name()));
  }

  /// A constant: its value's bits, or a global's address.
  Inst lower_const(const ir::Operation& op, Type rt, Inst& in) {
    in.op = Opc::Const;
    const ir::Attribute* v = ir::const_value(op);
    if (!v) return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Const), " without a value"));
    if (const ir::SymbolRef* s = ir::attr_if<ir::SymbolRef>(op, "value"); s && rt.is_ptr()) {  // a global's address
      auto g = globals_.find(s->name);
      if (g == globals_.end()) return unsupported(ppy::str_cat("the address of @", s->name));
      in.op = Opc::GlobalAddr;
      in.imm = g->second;
      return in;
    }
    if (rt.is_float())
      in.imm = float_bits(v->is<double>() ? v->as_float() : v->is<int64_t>() ? static_cast<double>(v->as_int()) : 0.0);
    else if (v->is<bool>())
      in.imm = v->as_bool();
    else if (v->is<int64_t>())
      in.imm = rt.is_bool() ? v->as_int() != 0 : v->as_int();
    else if (v->is<double>())
      in.imm = static_cast<int64_t>(v->as_float());
    else
      return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Const), " of type ", rt.str()));
    return in;
  }

  /// core.div or core.mod: a float's by its rounding (none: true division), an
  /// integer's with its rounding in `mode` and whether it raises in `flag`.
  Inst lower_div(const ir::Operation& op, bool div, Type rt, Inst& in) {
    ir::Rounding rounding = ir::rounding_of(op);
    if (rt.is_float()) {
      bool floor = rounding == ir::Rounding::Floor;
      if (div)
        in.op = rounding == ir::Rounding::None ? Opc::DivF : floor ? Opc::DivFloorF : Opc::DivTruncF;
      else
        in.op = floor ? Opc::ModFloorF : Opc::ModTruncF;
      return in;
    }
    in.op = div ? Opc::DivI : Opc::ModI;
    // Integer division is C's unless it says floor (a bad word truncates, as before the verifier).
    in.mode = static_cast<uint8_t>(rounding == ir::Rounding::Floor ? ir::Rounding::Floor : ir::Rounding::Trunc);
    in.flag = ir::raises_on_overflow(op);
    return in;
  }

  /// core.tuple_extract (by `index`) or core.struct_extract (by `field`, a
  /// name or an index): a copy of the member's registers.
  Inst lower_extract(const ir::Operation& op, ir::CoreOp kind, Type ot, Type rt, Inst& in) {
    int64_t ix = -1;
    if (kind == ir::CoreOp::TupleExtract) {
      const int64_t* index = ir::attr_if<int64_t>(op, "index");
      if (!index || ot.kind() != TypeKind::Tuple || *index < 0 || static_cast<size_t>(*index) >= ot.num_elems())
        return unsupported(ppy::str_cat(ir::core_op_name(kind), " without an index in range"));
      ix = *index;
    } else {
      if (const int64_t* i = ir::attr_if<int64_t>(op, "field")) ix = *i;
      if (const std::string* name = ir::attr_if<std::string>(op, "field"); name && ot.kind() == TypeKind::Struct)
        for (size_t k = 0; k < members(ot); ++k)
          if (ot.storage()->fields[k].name == *name) ix = static_cast<int64_t>(k);
      if (ot.kind() != TypeKind::Struct || ix < 0 || static_cast<size_t>(ix) >= members(ot))
        return unsupported(ppy::str_cat(ir::core_op_name(kind), " without a field of its struct"));
    }
    in.op = Opc::CopyN;
    in.a += member_offset(ot, static_cast<size_t>(ix));
    in.imm = width(rt);
    in.norm = 0;
    return in;
  }

  Inst lower_cast(const ir::Operation& op, Type from, Type to, Inst& in) {
    in.norm = 0;
    if (from == to || (from.is_ptr() && to.is_ptr())) {
      in.op = Opc::Copy;
      return in;
    }  // a pointer as another
    if (to.is_float()) {
      in.norm = narrow(to);
      if (from.is_float())
        in.op = Opc::CastFToF;
      else if (from.kind() == TypeKind::U64)
        in.op = Opc::CastUToF;
      else if (from.is_integer_like() || from.is_bool())
        in.op = Opc::CastIToF;
      else
        return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Cast), " from ", from.str(), " to ", to.str()));
      return in;
    }
    if (to.is_bool()) {
      if (from.is_float())
        in.op = Opc::CastFToBool;
      else if (from.is_integer_like())
        in.op = Opc::CastIToBool;
      else
        return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Cast), " from ", from.str(), " to bool"));
      return in;
    }
    if (to.is_integer_like()) {
      in.norm = static_cast<uint8_t>(to.kind());
      if (from.is_float()) {
        in.op = Opc::CastFToI;
        return in;
      }
      if (from.is_bool()) {
        in.op = Opc::Copy;
        return in;
      }
      if (from.is_integer_like()) {
        in.op = Opc::CastIToI;
        // Narrowing raises OverflowError unless the cast says `wrap` (or a
        // word the verifier refuses, which wraps as the folder reads it).
        ir::Overflow o = ir::overflow_of(op);
        in.flag = o != ir::Overflow::Wrap && o != ir::Overflow::Unknown;
        return in;
      }
    }
    return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Cast), " from ", from.str(), " to ", to.str()));
  }

  /// A guard: what it raises when it fails, from the SDK's table of guard kinds.
  Inst lower_guard(const ir::Operation& op, Inst& in) {
    ir::GuardException what = ir::guard_exception(op);
    in.op = Opc::Guard;
    in.imm = static_cast<int64_t>(code_->guards.size());
    code_->guards.emplace_back(std::string(what.exception), std::string(what.message));
    return in;
  }

  Inst lower_call(const ir::Operation& op, Inst& in) {
    const std::string* name = ir::call_callee(op);
    if (!name) return unsupported(ppy::str_cat(ir::core_op_name(ir::CoreOp::Call), " without a @callee"));
    bool capture = ir::captures_status(op);
    auto it = functions_.find(*name);
    if (it == functions_.end())
      return unsupported(ppy::str_cat("a call to @", *name, ", which the module does not define"));
    const ir::Function& callee = *module_.functions()[static_cast<size_t>(it->second)];
    if (callee.params().size() != op.num_operands() || callee.results().size() + capture != op.num_results() ||
        (op.num_results() == 1 && callee.results()[0] != op.result(0)->type()))
      return unsupported(ppy::str_cat("a call to @", callee.name(), " with ", op.num_operands(), " argument(s) and ",
                                      op.num_results(), " result(s); it takes ", callee.params().size(),
                                      " and returns ", callee.results().size()));
    CallSite site;
    site.callee = it->second;
    site.capture = capture;
    site.args_begin = static_cast<int32_t>(code_->srcs.size());
    site.nargs = 0;
    for (ir::Value* v : op.operands()) site.nargs += push_srcs(v);
    in.op = Opc::Call;
    in.imm = static_cast<int64_t>(code_->calls.size());
    code_->calls.push_back(site);
    if (in.dst < 0) in.dst = 0;  // no results: nothing is written
    return in;
  }

  /// A runtime function, called by its ABI table entry (runtime_call.cc).
  Inst lower_extern(const ir::Operation& op, Inst& in) {
    RuntimeCall call;
    if (std::string why = bind_runtime_call(op, call); !why.empty()) return unsupported(std::move(why));
    in.norm = 0;
    call.args_begin = static_cast<int32_t>(code_->srcs.size());
    for (ir::Value* v : op.operands()) code_->srcs.push_back(reg(v));
    if (call.text >= 0) {
      call.text = static_cast<int32_t>(code_->strings.size());
      code_->strings.push_back(ir::attr_or<std::string>(op, "text", ""));
    }
    in.op = Opc::Runtime;
    if (in.dst < 0) in.dst = 0;  // no result: nothing is written
    in.imm = static_cast<int64_t>(code_->runtime_calls.size());
    code_->runtime_calls.push_back(call);
    return in;
  }

  const ir::Module& module_;
  const std::unordered_map<std::string, int32_t>& functions_;
  const std::unordered_map<std::string, int32_t>& globals_;
  Code* code_ = nullptr;
  std::unordered_map<const ir::Value*, int32_t> regs_;
  std::unordered_map<const ir::Block*, int32_t> block_pc_;
  std::string error_;
};

}  // namespace

Code compile_function(const ir::Module& m, const ir::Function& f,
                      const std::unordered_map<std::string, int32_t>& functions,
                      const std::unordered_map<std::string, int32_t>& globals) {
  return Compiler(m, functions, globals).compile(f);
}

}  // namespace ppy::interp::detail
