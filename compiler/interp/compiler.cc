// The interpreter's compiler: each function of the module, once, from IR to
// the register form the machine runs (internal.h).
#include <bit>
#include <string>
#include <unordered_map>
#include <utility>

#include "internal.h"
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
    for (auto& b : f.body().blocks())
      for (auto& op : b->operations()) {
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

  Inst lower(const ir::Operation& op) {
    Inst in;
    const std::string& n = op.name();
    if (op.num_operands() > 0) in.a = reg(op.operand(0));
    if (op.num_operands() > 1) in.b = reg(op.operand(1));
    if (op.num_operands() > 2) in.c = reg(op.operand(2));
    if (op.num_results() > 0) in.dst = reg(op.result(0));
    Type rt = op.num_results() > 0 ? op.result(0)->type() : Type::void_();
    Type ot = op.num_operands() > 0 ? op.operand(0)->type() : Type::void_();
    in.norm = op.num_results() > 0 && rt.is_scalar() ? narrow(rt) : 0;
    auto pick = [&](Opc iwrap, Opc ichecked, Opc f) {
      if (rt.is_float()) {
        in.op = f;
      } else {
        in.op = sem::raises(sem::overflow_of(op)) ? ichecked : iwrap;
      }
      return in;
    };
    if (n == "core.const") {
      in.op = Opc::Const;
      const ir::Attribute* v = op.attr("value");
      if (!v) return unsupported("core.const without a value");
      if (rt.is_ptr() && v->is<ir::SymbolRef>()) {  // a global's address
        auto g = globals_.find(v->as_symbol().name);
        if (g == globals_.end()) return unsupported(ppy::str_cat("the address of @", v->as_symbol().name));
        in.op = Opc::GlobalAddr;
        in.imm = g->second;
        return in;
      }
      if (rt.is_float())
        in.imm = float_bits(v->is<double>()    ? v->as_float()
                            : v->is<int64_t>() ? static_cast<double>(v->as_int())
                                               : 0.0);
      else if (v->is<bool>())
        in.imm = v->as_bool();
      else if (v->is<int64_t>())
        in.imm = rt.is_bool() ? v->as_int() != 0 : v->as_int();
      else if (v->is<double>())
        in.imm = static_cast<int64_t>(v->as_float());
      else
        return unsupported(ppy::str_cat("core.const of type ", rt.str()));
      return in;
    }
    if (n == "core.add") return pick(Opc::AddI, Opc::AddIC, Opc::AddF);
    if (n == "core.sub") return pick(Opc::SubI, Opc::SubIC, Opc::SubF);
    if (n == "core.mul") return pick(Opc::MulI, Opc::MulIC, Opc::MulF);
    if (n == "core.neg") return pick(Opc::NegI, Opc::NegIC, Opc::NegF);
    if (n == "core.div" || n == "core.mod") {
      bool div = n == "core.div";
      if (rt.is_float()) {
        const ir::Attribute* r = op.attr("rounding");
        bool floor = r && r->is<std::string>() && r->as_string() == "floor";
        if (div)
          in.op = !r ? Opc::DivF : floor ? Opc::DivFloorF : Opc::DivTruncF;
        else
          in.op = floor ? Opc::ModFloorF : Opc::ModTruncF;
        return in;
      }
      in.op = div ? Opc::DivI : Opc::ModI;
      in.mode = static_cast<uint8_t>(sem::rounding_of(op));
      in.flag = sem::raises(sem::overflow_of(op));
      return in;
    }
    if (n == "core.and") {
      in.op = Opc::And;
      return in;
    }
    if (n == "core.or") {
      in.op = Opc::Or;
      return in;
    }
    if (n == "core.xor") {
      in.op = Opc::Xor;
      return in;
    }
    if (n == "core.shl") {
      in.op = Opc::Shl;
      in.imm = rt.bit_width();
      in.flag = sem::raises(sem::overflow_of(op));
      return in;
    }
    if (n == "core.shr") {
      in.op = rt.is_signed() || rt.kind() == TypeKind::Index ? Opc::ShrS : Opc::ShrU;
      in.imm = rt.bit_width();
      return in;
    }
    if (n == "core.cmp") {
      auto p = sem::pred_of(op);
      if (!p) return unsupported("core.cmp without a predicate");
      in.mode = static_cast<uint8_t>(*p);
      in.norm = 0;
      in.op = ot.is_float() ? Opc::CmpF : (ot.is_int() && !ot.is_signed()) ? Opc::CmpU : Opc::CmpS;
      return in;
    }
    if (n == "core.select") {
      in.op = aggregate(rt) ? Opc::SelectN : Opc::Select;
      in.imm = width(rt);
      in.norm = 0;
      return in;
    }
    if (n == "core.tuple_make" || n == "core.struct_make") {
      in.op = Opc::Gather;
      in.a = static_cast<int32_t>(code_->srcs.size());
      in.b = 0;
      for (ir::Value* v : op.operands()) in.b += push_srcs(v);
      in.norm = 0;
      return in;
    }
    if (n == "core.tuple_extract") {
      const ir::Attribute* ix = op.attr("index");
      if (!ix || !ix->is<int64_t>() || ot.kind() != TypeKind::Tuple || ix->as_int() < 0 ||
          static_cast<size_t>(ix->as_int()) >= ot.num_elems())
        return unsupported("core.tuple_extract without an index in range");
      in.op = Opc::CopyN;
      in.a += member_offset(ot, static_cast<size_t>(ix->as_int()));
      in.imm = width(rt);
      in.norm = 0;
      return in;
    }
    if (n == "core.struct_extract") {
      const ir::Attribute* f = op.attr("field");
      int64_t ix = -1;
      if (f && f->is<int64_t>()) ix = f->as_int();
      if (f && f->is<std::string>() && ot.kind() == TypeKind::Struct)
        for (size_t k = 0; k < members(ot); ++k)
          if (ot.storage()->fields[k].name == f->as_string()) ix = static_cast<int64_t>(k);
      if (ot.kind() != TypeKind::Struct || ix < 0 || static_cast<size_t>(ix) >= members(ot))
        return unsupported("core.struct_extract without a field of its struct");
      in.op = Opc::CopyN;
      in.a += member_offset(ot, static_cast<size_t>(ix));
      in.imm = width(rt);
      in.norm = 0;
      return in;
    }
    if (n == "core.cast") return lower_cast(op, ot, rt, in);
    if (n == "core.br") {
      in.op = Opc::Br;
      in.a = edge(op.successors().at(0));
      return in;
    }
    if (n == "core.cond_br") {
      in.op = Opc::CondBr;
      in.c = in.a;
      in.a = edge(op.successors().at(0));
      in.b = edge(op.successors().at(1));
      return in;
    }
    if (n == "core.ret") {
      in.op = Opc::Ret;
      in.a = static_cast<int32_t>(code_->srcs.size());
      in.b = 0;
      for (ir::Value* v : op.operands()) in.b += push_srcs(v);
      if (in.b != code_->nresults)
        return unsupported(
            ppy::str_cat("core.ret returns ", op.num_operands(), " value(s) that do not match the results"));
      return in;
    }
    if (n == "core.unreachable") {
      in.op = Opc::Unreachable;
      return in;
    }
    if (n == "core.alloca") {
      in.op = Opc::Alloca;
      int64_t count = 1;
      if (const ir::Attribute* c = op.attr("count"); c && c->is<int64_t>()) count = c->as_int();
      if (count < 1) count = 1;
      in.imm = code_->nalloca;
      code_->nalloca += static_cast<int32_t>(count) * (rt.is_ptr() ? width(rt.elem()) : 1);
      return in;
    }
    if (n == "core.load") {
      in.op = aggregate(rt) ? Opc::LoadN : Opc::Load;
      in.imm = width(rt);
      in.norm = 0;
      return in;
    }
    if (n == "core.store") {
      in.op = aggregate(ot) ? Opc::StoreN : Opc::Store;
      in.imm = width(ot);
      return in;
    }
    if (n == "core.ptr_offset") {
      in.op = Opc::PtrOffset;
      return in;
    }
    if (n == "core.buffer_data") {
      in.op = Opc::BufData;
      return in;
    }
    if (n == "core.buffer_len") {
      in.op = Opc::BufLen;
      return in;
    }
    if (n == "core.buffer_load") {
      in.op = rt.kind() == TypeKind::Tuple ? Opc::BufLoadN : Opc::BufLoad;
      in.imm = width(rt);
      in.norm = 0;
      return in;
    }
    if (n == "core.buffer_store") {
      in.op = ot.kind() == TypeKind::Tuple ? Opc::BufStoreN : Opc::BufStore;
      in.imm = width(ot);
      return in;
    }
    if (n == "core.guard") return lower_guard(op, in);
    if (n == "core.call") return lower_call(op, in);
    if (n == "core.call_extern") return lower_extern(op, in);
    if (auto fn = sem::math_fn(n)) {
      in.op = Opc::Math;
      in.mode = static_cast<uint8_t>(*fn);
      return in;
    }
    return unsupported(ppy::str_cat("the interpreter does not run ", n));
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
        return unsupported(ppy::str_cat("core.cast from ", from.str(), " to ", to.str()));
      return in;
    }
    if (to.is_bool()) {
      if (from.is_float())
        in.op = Opc::CastFToBool;
      else if (from.is_integer_like())
        in.op = Opc::CastIToBool;
      else
        return unsupported(ppy::str_cat("core.cast from ", from.str(), " to bool"));
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
        in.flag = sem::overflow_of(op) != sem::Overflow::Wrap || !op.attr("overflow");
        return in;
      }
    }
    return unsupported(ppy::str_cat("core.cast from ", from.str(), " to ", to.str()));
  }

  Inst lower_guard(const ir::Operation& op, Inst& in) {
    static const std::unordered_map<std::string, std::pair<std::string, std::string>> kKinds = {
        {"overflow", {"OverflowError", "integer overflow"}},
        {"bounds", {"IndexError", "list index out of range"}},
        {"zero_division", {"ZeroDivisionError", "division by zero"}},
        {"range", {"ValueError", "math range error"}},
        {"contract", {"AssertionError", ""}},
        {"assert", {"AssertionError", ""}},
    };
    const ir::Attribute* k = op.attr("kind");
    std::pair<std::string, std::string> what = {"RuntimeError", "guard failed"};
    if (k && k->is<std::string>()) {
      auto it = kKinds.find(k->as_string());
      if (it != kKinds.end()) what = it->second;
    }
    if (const ir::Attribute* m = op.attr("message"); m && m->is<std::string>()) what.second = m->as_string();
    in.op = Opc::Guard;
    in.imm = static_cast<int64_t>(code_->guards.size());
    code_->guards.push_back(std::move(what));
    return in;
  }

  Inst lower_call(const ir::Operation& op, Inst& in) {
    const ir::Attribute* c = op.attr("callee");
    if (!c || !c->is<ir::SymbolRef>()) return unsupported("core.call without a @callee");
    const ir::Attribute* cs = op.attr("capture_status");
    bool capture = cs && cs->is<bool>() && cs->as_bool();
    auto it = functions_.find(c->as_symbol().name);
    if (it == functions_.end())
      return unsupported(ppy::str_cat("a call to @", c->as_symbol().name, ", which the module does not define"));
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
      const ir::Attribute* t = op.attr("text");
      call.text = static_cast<int32_t>(code_->strings.size());
      code_->strings.push_back(t && t->is<std::string>() ? t->as_string() : "");
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
