// The reference interpreter: compile each function once to a register form,
// then run it with a switch over dense opcodes.
#include "ppy/interp/interp.h"

#include <gc/gc_allocator.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "ppy/ir/text.h"
#include "ppy/pipeline/semantics.h"
#include "ppy/util/str_cat.h"
#include "ppy_dict.h"
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "ppy_obj.h"

namespace ppy::interp {
namespace {

using ir::Type;
using ir::TypeKind;
namespace sem = ppy::pipeline::sem;

/// A list is the runtime's own (ppy_runtime.h): a handle to its length,
/// capacity and elements, one Slot each, on the collector.
using Buffer = ppy_list;

/// One value: every scalar, pointer and buffer reference fits in 8 bytes.
union Slot {
  int64_t i;
  double f;
  Slot* p;
  Buffer* buf;
};

/// Slots the collector scans: strings live on the runtime's collected heap
/// (docs/runtime.md), so every place that may hold a handle (registers, stack
/// slots, globals, lists) is memory the collector sees as roots.
using Slots = std::vector<Slot, traceable_allocator<Slot>>;

/// A list's elements: Slots, whatever the element type (a bool is 0 or 1).
inline Slot* elems(Buffer* b) { return static_cast<Slot*>(b->data); }

/// A Python exception on its way to the top: ends the program with status 1.
struct PyError {
  std::string name;
  std::string message;
};

/// The IR cannot be run as given: ends the program with status 2.
struct InternalError {
  std::string message;
};

enum class Opc : uint8_t {
  Const,
  Copy,
  AddI,
  SubI,
  MulI,
  NegI,  // wrapping
  AddIC,
  SubIC,
  MulIC,
  NegIC,  // raising OverflowError
  DivI,
  ModI,  // mode = rounding, flag = raises
  AddF,
  SubF,
  MulF,
  DivF,
  DivFloorF,
  DivTruncF,
  ModFloorF,
  ModTruncF,
  NegF,
  And,
  Or,
  Xor,
  Shl,
  ShrS,
  ShrU,
  CmpS,
  CmpU,
  CmpF,  // mode = predicate
  Select,
  CastIToF,
  CastUToF,
  CastFToI,
  CastIToBool,
  CastFToBool,
  CastIToI,
  CastFToF,
  Br,
  CondBr,
  Ret,
  Unreachable,
  Alloca,
  GlobalAddr,
  Load,
  Store,
  PtrOffset,
  BufData,
  BufLen,
  BufLoad,
  BufStore,
  BufLoadN,
  BufStoreN,  // a tuple element: its imm registers boxed (docs/runtime.md, "Lists")
  Gather,
  CopyN,
  SelectN,
  LoadN,
  StoreN,  // tuples, flattened: imm (or b) slots
  Call,
  Guard,
  Math,
  PrintI64,
  PrintF64,
  PrintBool,
  PrintStr,
  PrintSpace,
  PrintNewline,
  ListNew,
  PowI64,
  PrintString,
  Extern,  // a string value; a runtime function of ppy_str.h (Code::externs)
  Nop,     // ppy_list_root: the interpreter's globals are roots already
  Unsupported,
};

/// One instruction. `norm` is the result's TypeKind when it needs bringing back
/// to a narrow integer or to f32 after the 64-bit computation (0 = Void: none).
struct Inst {
  Opc op = Opc::Unsupported;
  uint8_t mode = 0;
  uint8_t norm = 0;
  uint8_t flag = 0;
  int32_t dst = -1, a = -1, b = -1, c = -1;
  int64_t imm = 0;
};

/// A branch edge: where to go and which registers feed the target's arguments.
struct Edge {
  int32_t target = 0;    ///< pc of the target block
  int32_t dst_base = 0;  ///< register of the target's first argument (they are contiguous)
  int32_t n = 0;
  int32_t src_begin = 0; ///< into Code::srcs
  bool overlap = false;  ///< a source is also a destination: copy through a temporary
};

struct Code;

/// The shapes of the string functions the interpreter calls in the runtime
/// (p: a string handle, i: i64, f: f64; result first).
/// The C signatures of runtime functions: result, then operands (P a str, L a
/// list, I an i64, F an f64, V no result).
// clang-format off
enum class Sig : uint8_t {
  P_Text, P_P, P_PP, P_PPP, P_PI, P_PIIII, P_I, P_F, I_P, I_PP, F_P, P_IP, P_FP, P_V, V_PP,
  V_LI, V_LF, V_LP, I_L, F_L, P_L, P_LP, I_LLP,
  V_LII, V_LIF, V_LIP, V_LL, L_LIIII, L_LL, I_LI, I_LF, I_LPP, L_LP, F_LI, P_LI, P_PL, L_PP, L_P,
  V_L, I_LIP, I_LFP, V_LFP, V_LPP, F_LF, P_LIP,
  P_II,  // ppy_obj_new
  Dict,  ///< a dict or set function of ppy_dict.h: its shape in ExternCall (nargs, fmask, res)
};
// clang-format on

/// A call of a runtime function: its shape, its address, its operands in Code::srcs.
struct ExternCall {
  Sig sig;
  void* fn;
  int32_t args_begin = 0;
  int32_t text = -1;  ///< P_Text: the literal's index in Code::strings
  uint8_t nargs = 0;  ///< Dict: operands (handles and i64 as words, f64 where fmask has its bit)
  uint8_t fmask = 0;
  char res = 'V';  ///< Dict: V no result, F an f64, W a word (i64 or handle)
};

struct CallSite {
  int32_t callee = -1;  ///< function index in the module
  const Code* code = nullptr;
  int32_t args_begin = 0;
  int32_t nargs = 0;
  bool capture = false;  ///< capture_status: a raise inside gives status 1 (a trailing result)
};

/// A function compiled to registers.
struct Code {
  std::string name;
  std::vector<Inst> insts;
  std::vector<Edge> edges;
  std::vector<int32_t> srcs;
  std::vector<CallSite> calls;
  std::vector<ExternCall> externs;
  std::vector<std::pair<std::string, std::string>> guards;  ///< (exception, message)
  std::vector<std::string> strings;  ///< print texts, unsupported reasons
  int32_t nregs = 0;
  int32_t nalloca = 0;
  int32_t nresults = 0;
  int32_t nparams = 0;
  std::string error;  ///< set when the function could not be compiled
};

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
          code.error = ppy::str_cat("@", f.name(), ": ", op->name(), " has regions, which the interpreter does not run");
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
      case TypeKind::I8: case TypeKind::I16: case TypeKind::I32:
      case TypeKind::U8: case TypeKind::U16: case TypeKind::U32: case TypeKind::Bool:
      case TypeKind::F32: case TypeKind::F16:
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
        in.imm = float_bits(v->is<double>() ? v->as_float()
                            : v->is<int64_t>() ? static_cast<double>(v->as_int()) : 0.0);
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
    if (n == "core.and") { in.op = Opc::And; return in; }
    if (n == "core.or") { in.op = Opc::Or; return in; }
    if (n == "core.xor") { in.op = Opc::Xor; return in; }
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
      in.op = ot.is_float() ? Opc::CmpF
              : (ot.is_int() && !ot.is_signed()) ? Opc::CmpU : Opc::CmpS;
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
    if (n == "core.unreachable") { in.op = Opc::Unreachable; return in; }
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
    if (n == "core.ptr_offset") { in.op = Opc::PtrOffset; return in; }
    if (n == "core.buffer_data") { in.op = Opc::BufData; return in; }
    if (n == "core.buffer_len") { in.op = Opc::BufLen; return in; }
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
      if (from.is_float()) in.op = Opc::CastFToF;
      else if (from.kind() == TypeKind::U64) in.op = Opc::CastUToF;
      else if (from.is_integer_like() || from.is_bool()) in.op = Opc::CastIToF;
      else return unsupported(ppy::str_cat("core.cast from ", from.str(), " to ", to.str()));
      return in;
    }
    if (to.is_bool()) {
      if (from.is_float()) in.op = Opc::CastFToBool;
      else if (from.is_integer_like()) in.op = Opc::CastIToBool;
      else return unsupported(ppy::str_cat("core.cast from ", from.str(), " to bool"));
      return in;
    }
    if (to.is_integer_like()) {
      in.norm = static_cast<uint8_t>(to.kind());
      if (from.is_float()) { in.op = Opc::CastFToI; return in; }
      if (from.is_bool()) { in.op = Opc::Copy; return in; }
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

  Inst lower_extern(const ir::Operation& op, Inst& in) {
    const ir::Attribute* c = op.attr("callee");
    std::string callee = c && c->is<std::string>() ? c->as_string()
                         : c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    static const std::unordered_map<std::string, Opc> kRuntime = {
        {"ppy_print_i64", Opc::PrintI64},     {"ppy_print_f64", Opc::PrintF64},
        {"ppy_print_bool", Opc::PrintBool},   {"ppy_print_str", Opc::PrintStr},
        {"ppy_print_space", Opc::PrintSpace}, {"ppy_print_newline", Opc::PrintNewline},
        {"ppy_list_new_i64", Opc::ListNew},   {"ppy_list_new_f64", Opc::ListNew},
        {"ppy_list_new_ptr", Opc::ListNew},   {"ppy_pow_i64", Opc::PowI64},
    };
    if (callee == "ppy_print_string") {
      in.op = Opc::PrintString;
      return in;
    }
    if (callee == "ppy_list_root") {
      in.op = Opc::Nop;
      return in;
    }
    if (callee.starts_with("ppy_dict_") || callee.starts_with("ppy_set_")) return lower_dict(op, callee, in);
    if (callee.starts_with("ppy_str_") || callee.starts_with("ppy_exc_") || callee.starts_with("ppy_obj_") ||
        (callee.starts_with("ppy_list_") && !callee.starts_with("ppy_list_new_")))
      return lower_string(op, callee, in);
    auto it = kRuntime.find(callee);
    if (it == kRuntime.end()) return unsupported(ppy::str_cat("unknown runtime function '", callee, "'"));
    in.op = it->second;
    in.norm = 0;
    if (in.op == Opc::ListNew) in.imm = callee == "ppy_list_new_ptr";  // handles: the collector scans them
    if (in.op == Opc::PrintStr) {
      const ir::Attribute* t = op.attr("text");
      in.imm = static_cast<int64_t>(code_->strings.size());
      code_->strings.push_back(t && t->is<std::string>() ? t->as_string() : "");
    }
    return in;
  }

  /// A dict or set function of the runtime (ppy_dict.h), called as it is: its
  /// shape is its operands' and result's types (words and f64s).
  Inst lower_dict(const ir::Operation& op, const std::string& callee, Inst& in) {
#define PPY_DICT_FN(name) {#name, reinterpret_cast<void*>(&name)},
    static const std::unordered_map<std::string, void*> kDict = {PPY_DICT_SYMBOLS(PPY_DICT_FN)};
#undef PPY_DICT_FN
    auto it = kDict.find(callee);
    if (it == kDict.end()) return unsupported(ppy::str_cat("unknown runtime function '", callee, "'"));
    if (op.num_operands() > 3 || op.num_results() > 1)
      return unsupported(ppy::str_cat(callee, " with ", op.num_operands(), " operand(s)"));
    ExternCall call{Sig::Dict, it->second, static_cast<int32_t>(code_->srcs.size())};
    call.nargs = static_cast<uint8_t>(op.num_operands());
    for (size_t k = 0; k < op.num_operands(); ++k) {
      if (op.operand(k)->type().kind() == ir::TypeKind::F64) call.fmask |= static_cast<uint8_t>(1u << k);
      code_->srcs.push_back(reg(op.operand(k)));
    }
    call.res = op.num_results() == 0 ? 'V' : op.result(0)->type().kind() == ir::TypeKind::F64 ? 'F' : 'W';
    in.op = Opc::Extern;
    in.norm = 0;
    if (in.dst < 0) in.dst = 0;
    in.imm = static_cast<int64_t>(code_->externs.size());
    code_->externs.push_back(call);
    return in;
  }

  /// A string function of the runtime (ppy_str.h), called as it is.
  Inst lower_string(const ir::Operation& op, const std::string& callee, Inst& in) {
#define PPY_STR_FN(name, sig) {#name, {Sig::sig, reinterpret_cast<void*>(&name)}},
    // clang-format off
    static const std::unordered_map<std::string, std::pair<Sig, void*>> kStrings = {
        PPY_STR_FN(ppy_str_literal, P_Text) PPY_STR_FN(ppy_str_concat, P_PP) PPY_STR_FN(ppy_str_repeat, P_PI)
        PPY_STR_FN(ppy_str_len, I_P) PPY_STR_FN(ppy_str_index, P_PI) PPY_STR_FN(ppy_str_slice, P_PIIII)
        PPY_STR_FN(ppy_str_compare, I_PP) PPY_STR_FN(ppy_str_contains, I_PP) PPY_STR_FN(ppy_str_from_i64, P_I)
        PPY_STR_FN(ppy_str_from_f64, P_F) PPY_STR_FN(ppy_str_from_bool, P_I) PPY_STR_FN(ppy_str_to_i64, I_P)
        PPY_STR_FN(ppy_str_to_f64, F_P) PPY_STR_FN(ppy_str_upper, P_P) PPY_STR_FN(ppy_str_lower, P_P)
        PPY_STR_FN(ppy_str_strip, P_P) PPY_STR_FN(ppy_str_lstrip, P_P) PPY_STR_FN(ppy_str_rstrip, P_P)
        PPY_STR_FN(ppy_str_startswith, I_PP) PPY_STR_FN(ppy_str_endswith, I_PP) PPY_STR_FN(ppy_str_find, I_PP)
        PPY_STR_FN(ppy_str_count, I_PP) PPY_STR_FN(ppy_str_replace, P_PPP) PPY_STR_FN(ppy_str_repr, P_P)
        PPY_STR_FN(ppy_str_format_i64, P_IP) PPY_STR_FN(ppy_str_format_f64, P_FP) PPY_STR_FN(ppy_str_format_str, P_PP)
        PPY_STR_FN(ppy_str_ord, I_P) PPY_STR_FN(ppy_str_chr, P_I) PPY_STR_FN(ppy_exc_name, P_V)
        PPY_STR_FN(ppy_exc_message, P_V) PPY_STR_FN(ppy_exc_matches, I_PP) PPY_STR_FN(ppy_exc_raise, V_PP)
        PPY_STR_FN(ppy_list_append_i64, V_LI) PPY_STR_FN(ppy_list_append_f64, V_LF)
        PPY_STR_FN(ppy_list_append_ptr, V_LP) PPY_STR_FN(ppy_list_pop_i64, I_L) PPY_STR_FN(ppy_list_pop_f64, F_L)
        PPY_STR_FN(ppy_list_pop_ptr, P_L) PPY_STR_FN(ppy_list_repr, P_LP) PPY_STR_FN(ppy_list_eq, I_LLP)
        PPY_STR_FN(ppy_list_insert_i64, V_LII) PPY_STR_FN(ppy_list_insert_f64, V_LIF)
        PPY_STR_FN(ppy_list_insert_ptr, V_LIP) PPY_STR_FN(ppy_list_extend, V_LL) PPY_STR_FN(ppy_list_slice, L_LIIII)
        PPY_STR_FN(ppy_list_concat, L_LL) PPY_STR_FN(ppy_list_contains_i64, I_LI)
        PPY_STR_FN(ppy_list_contains_f64, I_LF) PPY_STR_FN(ppy_list_contains_ptr, I_LPP)
        PPY_STR_FN(ppy_list_sorted, L_LP) PPY_STR_FN(ppy_list_sum_i64, I_L) PPY_STR_FN(ppy_list_sum_f64, F_L)
        PPY_STR_FN(ppy_list_min_i64, I_LI) PPY_STR_FN(ppy_list_min_f64, F_LI) PPY_STR_FN(ppy_list_min_ptr, P_LI)
        PPY_STR_FN(ppy_str_join, P_PL) PPY_STR_FN(ppy_str_split, L_PP) PPY_STR_FN(ppy_str_split_ws, L_P)
        PPY_STR_FN(ppy_list_sort, V_LP) PPY_STR_FN(ppy_list_reverse, V_L) PPY_STR_FN(ppy_list_clear, V_L)
        PPY_STR_FN(ppy_list_index_i64, I_LIP) PPY_STR_FN(ppy_list_index_f64, I_LFP)
        PPY_STR_FN(ppy_list_index_ptr, I_LPP) PPY_STR_FN(ppy_list_count_i64, I_LI)
        PPY_STR_FN(ppy_list_count_f64, I_LF) PPY_STR_FN(ppy_list_count_ptr, I_LPP)
        PPY_STR_FN(ppy_list_remove_i64, V_LIP) PPY_STR_FN(ppy_list_remove_f64, V_LFP)
        PPY_STR_FN(ppy_list_remove_ptr, V_LPP) PPY_STR_FN(ppy_list_pop_at_i64, I_LI)
        PPY_STR_FN(ppy_list_pop_at_f64, F_LI) PPY_STR_FN(ppy_list_pop_at_ptr, P_LI)
        PPY_STR_FN(ppy_list_lt, I_LLP) PPY_STR_FN(ppy_list_le, I_LLP) PPY_STR_FN(ppy_list_gt, I_LLP)
        PPY_STR_FN(ppy_list_ge, I_LLP) PPY_STR_FN(ppy_list_sum_from_i64, I_LI)
        PPY_STR_FN(ppy_list_sum_from_f64, F_LF) PPY_STR_FN(ppy_list_min_desc, P_LIP)
        PPY_STR_FN(ppy_obj_new, P_II) PPY_STR_FN(ppy_obj_null, P_V)
    };
#undef PPY_STR_FN
    static const std::unordered_map<Sig, size_t> kArity = {
        {Sig::P_Text, 0}, {Sig::P_P, 1},   {Sig::P_PP, 2},   {Sig::P_PPP, 3},  {Sig::P_PI, 2},    {Sig::P_PIIII, 5},
        {Sig::P_I, 1},    {Sig::P_F, 1},   {Sig::I_P, 1},    {Sig::I_PP, 2},   {Sig::F_P, 1},     {Sig::P_IP, 2},
        {Sig::P_FP, 2},   {Sig::V_LI, 2},  {Sig::V_LF, 2},   {Sig::V_LP, 2},   {Sig::I_L, 1},     {Sig::F_L, 1},
        {Sig::P_L, 1},    {Sig::P_LP, 2},  {Sig::I_LLP, 3},  {Sig::V_LII, 3},  {Sig::V_LIF, 3},   {Sig::V_LIP, 3},
        {Sig::V_LL, 2},   {Sig::L_LIIII, 5}, {Sig::L_LL, 2}, {Sig::I_LI, 2},   {Sig::I_LF, 2},    {Sig::I_LPP, 3},
        {Sig::L_LP, 2},   {Sig::F_LI, 2},  {Sig::P_LI, 2},   {Sig::P_PL, 2},   {Sig::L_PP, 2},    {Sig::L_P, 1},
        {Sig::P_V, 0},    {Sig::V_PP, 2},  {Sig::V_L, 1},    {Sig::I_LIP, 3},  {Sig::I_LFP, 3},   {Sig::V_LFP, 3},
        {Sig::V_LPP, 3},  {Sig::F_LF, 2}, {Sig::P_LIP, 3}, {Sig::P_II, 2},
    };
    // clang-format on
    auto it = kStrings.find(callee);
    if (it == kStrings.end()) return unsupported(ppy::str_cat("unknown runtime function '", callee, "'"));
    Sig sg = it->second.first;
    bool void_fn = sg == Sig::V_LI || sg == Sig::V_LF || sg == Sig::V_LP || sg == Sig::V_LII || sg == Sig::V_LIF ||
                   sg == Sig::V_LIP || sg == Sig::V_LL || sg == Sig::V_PP || sg == Sig::V_L || sg == Sig::V_LFP ||
                   sg == Sig::V_LPP;
    if (op.num_operands() != kArity.at(it->second.first) || op.num_results() != (void_fn ? 0u : 1u))
      return unsupported(ppy::str_cat(callee, " with ", op.num_operands(), " operand(s)"));
    ExternCall call{it->second.first, it->second.second, static_cast<int32_t>(code_->srcs.size())};
    for (ir::Value* v : op.operands()) code_->srcs.push_back(reg(v));
    if (call.sig == Sig::P_Text) {
      const ir::Attribute* t = op.attr("text");
      call.text = static_cast<int32_t>(code_->strings.size());
      code_->strings.push_back(t && t->is<std::string>() ? t->as_string() : "");
    }
    in.op = Opc::Extern;
    in.norm = 0;
    if (in.dst < 0) in.dst = 0;  // no result: nothing is written
    in.imm = static_cast<int64_t>(code_->externs.size());
    code_->externs.push_back(call);
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

[[noreturn]] void raise(std::string name, std::string message) {
  throw PyError{std::move(name), std::move(message)};
}

/// A dict function's call by its shape: words (i64 or handles) travel as
/// int64_t, as the C calling conventions pass both in the same registers.
void dict_call(const ExternCall& x, Slot* a, Slot& out) {
  using W = int64_t;
  int shape = x.nargs * 16 + x.fmask;
  auto fn = x.fn;
  auto word = [&](W v) { out.i = v; };
  auto flt = [&](double v) { out.f = v; };
  switch (shape) {
    case 1 * 16 + 0:  // (w)
      if (x.res == 'V')
        reinterpret_cast<void (*)(W)>(fn)(a[0].i);
      else
        word(reinterpret_cast<W (*)(W)>(fn)(a[0].i));
      return;
    case 2 * 16 + 0:  // (w, w)
      if (x.res == 'V')
        reinterpret_cast<void (*)(W, W)>(fn)(a[0].i, a[1].i);
      else if (x.res == 'F')
        flt(reinterpret_cast<double (*)(W, W)>(fn)(a[0].i, a[1].i));
      else
        word(reinterpret_cast<W (*)(W, W)>(fn)(a[0].i, a[1].i));
      return;
    case 3 * 16 + 0:  // (w, w, w)
      if (x.res == 'V')
        reinterpret_cast<void (*)(W, W, W)>(fn)(a[0].i, a[1].i, a[2].i);
      else
        word(reinterpret_cast<W (*)(W, W, W)>(fn)(a[0].i, a[1].i, a[2].i));
      return;
    case 3 * 16 + 4:  // (w, w, f)
      if (x.res == 'V')
        reinterpret_cast<void (*)(W, W, double)>(fn)(a[0].i, a[1].i, a[2].f);
      else
        flt(reinterpret_cast<double (*)(W, W, double)>(fn)(a[0].i, a[1].i, a[2].f));
      return;
    default:
      raise("SystemError", "a dict function of an unknown shape");
  }
}

[[noreturn]] void overflow() { raise("OverflowError", "integer overflow"); }

/// Brings a 64-bit integer result back to a narrow type: wrapping, or raising.
inline int64_t norm_wrap(const Inst& in, int64_t v) {
  return in.norm ? sem::wrap(v, Type::scalar(static_cast<TypeKind>(in.norm))) : v;
}
inline int64_t norm_check(const Inst& in, int64_t v) {
  if (in.norm && !sem::fits(v, Type::scalar(static_cast<TypeKind>(in.norm)))) overflow();
  return v;
}
inline double norm_f(const Inst& in, double v) {
  return in.norm ? static_cast<double>(static_cast<float>(v)) : v;
}

class Machine {
 public:
  Machine(const ir::Module& m, std::ostream& out, const RunOptions& opts) : m_(m), out_(out), opts_(opts) {
    std::unordered_map<std::string, int32_t> index;
    for (size_t i = 0; i < m.functions().size(); ++i)
      index.emplace(m.functions()[i]->name(), static_cast<int32_t>(i));
    // Each global of a scalar type has a slot, holding its initializer.
    std::unordered_map<std::string, int32_t> globals;
    for (auto& [name, g] : m.globals()) {
      // A str or a list (a handle) starts null; globals_ is a root of the collector.
      if (!g.type.is_scalar() && g.type.kind() != TypeKind::Buffer && !g.type.is_ptr()) continue;
      Slot v{0};
      if (const ir::Attribute* a = g.initializer ? &*g.initializer : nullptr) {
        if (g.type.is_float())
          v.f = a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
        else
          v.i = a->is<bool>() ? a->as_bool() : a->is<int64_t>() ? a->as_int() : 0;
      }
      globals.emplace(name, static_cast<int32_t>(globals_.size()));
      globals_.push_back(v);
    }
    codes_.reserve(m.functions().size());
    for (auto& f : m.functions()) codes_.push_back(Compiler(m, index, globals).compile(*f));
    for (Code& c : codes_)
      for (CallSite& s : c.calls) s.code = &codes_[s.callee];
    frames_.resize(static_cast<size_t>(opts_.recursion_limit) + 2);
  }

  ~Machine() { flush(); }

  void run(int32_t entry) {
    const Code& code = codes_[entry];
    if (!code.error.empty()) throw InternalError{code.error};
    if (code.nparams != 0) throw InternalError{ppy::str_cat("the entry @", code.name, " takes parameters")};
    Slots results(static_cast<size_t>(code.nresults) + 1);
    depth_ = 1;
    exec(code, frame(1, code), results.data());
    flush();
  }

  void flush() {
    if (!buf_.empty()) out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
    out_.flush();
  }

 private:
  Slot* frame(int depth, const Code& code) {
    Slots& f = frames_[static_cast<size_t>(depth)];
    size_t need = static_cast<size_t>(code.nregs + code.nalloca);
    if (f.size() < need) f.resize(need);
    if (code.nalloca) std::fill(f.begin() + code.nregs, f.begin() + need, Slot{0});
    return f.data();
  }

  void call(const CallSite& site, const Code& caller, Slot* r, Slot* out) {
    const Code& callee = *site.code;
    if (!callee.error.empty()) throw InternalError{callee.error};
    if (depth_ >= opts_.recursion_limit) raise("RecursionError", "maximum recursion depth exceeded");
    Slot* f = frame(depth_ + 1, callee);
    for (int32_t k = 0; k < site.nargs; ++k) f[k] = r[caller.srcs[site.args_begin + k]];
    if (site.capture) {  // a try body: a raise inside it comes back as a status
      int saved = depth_;
      try {
        ++depth_;
        exec(callee, f, out);
        --depth_;
        out[callee.nresults].i = 0;
      } catch (const PyError& e) {
        depth_ = saved;
        ppy_exc_set(e.name.c_str(), e.message.c_str());
        out[callee.nresults].i = 1;
      }
      return;
    }
    ++depth_;
    exec(callee, f, out);
    --depth_;
  }

  static void take(const Code& code, const Edge& e, Slot* r) {
    const int32_t* src = code.srcs.data() + e.src_begin;
    if (!e.overlap) {
      for (int32_t k = 0; k < e.n; ++k) r[e.dst_base + k] = r[src[k]];
      return;
    }
    Slot tmp[16];
    Slots big;
    Slot* t = tmp;
    if (e.n > 16) {
      big.resize(static_cast<size_t>(e.n));
      t = big.data();
    }
    for (int32_t k = 0; k < e.n; ++k) t[k] = r[src[k]];
    for (int32_t k = 0; k < e.n; ++k) r[e.dst_base + k] = t[k];
  }

  void print(std::string_view s) {
    buf_.append(s.data(), s.size());
    if (buf_.size() > (1 << 16)) flush();
  }

  void exec(const Code& code, Slot* r, Slot* results) {
    const Inst* base = code.insts.data();
    const Inst* ip = base;
    for (;;) {
      const Inst& in = *ip++;
      switch (in.op) {
        case Opc::Const: r[in.dst].i = in.imm; break;
        case Opc::Copy: r[in.dst] = r[in.a]; break;
        case Opc::AddI:
          r[in.dst].i = norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) + static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::SubI:
          r[in.dst].i = norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) - static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::MulI:
          r[in.dst].i = norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) * static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::NegI:
          r[in.dst].i = norm_wrap(in, static_cast<int64_t>(0 - static_cast<uint64_t>(r[in.a].i)));
          break;
        case Opc::AddIC: {
          int64_t v;
          if (__builtin_add_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::SubIC: {
          int64_t v;
          if (__builtin_sub_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::MulIC: {
          int64_t v;
          if (__builtin_mul_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::NegIC: {
          int64_t v;
          if (__builtin_sub_overflow(int64_t{0}, r[in.a].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::DivI:
        case Opc::ModI: {
          int64_t a = r[in.a].i, b = r[in.b].i;
          if (b == 0) raise("ZeroDivisionError", in.op == Opc::DivI ? "integer division or modulo by zero" : "integer modulo by zero");
          auto rounding = static_cast<sem::Rounding>(in.mode);
          int64_t v;
          if (in.op == Opc::ModI) {
            v = *sem::int_mod(a, b, rounding);
          } else if (auto q = sem::int_div(a, b, rounding)) {
            v = *q;
          } else {
            if (in.flag) overflow();
            v = INT64_MIN;
          }
          r[in.dst].i = in.flag ? norm_check(in, v) : norm_wrap(in, v);
          break;
        }
        case Opc::AddF: r[in.dst].f = norm_f(in, r[in.a].f + r[in.b].f); break;
        case Opc::SubF: r[in.dst].f = norm_f(in, r[in.a].f - r[in.b].f); break;
        case Opc::MulF: r[in.dst].f = norm_f(in, r[in.a].f * r[in.b].f); break;
        case Opc::DivF: r[in.dst].f = norm_f(in, r[in.a].f / r[in.b].f); break;
        case Opc::DivFloorF: r[in.dst].f = norm_f(in, sem::float_floor_div(r[in.a].f, r[in.b].f)); break;
        case Opc::DivTruncF: r[in.dst].f = norm_f(in, std::trunc(r[in.a].f / r[in.b].f)); break;
        case Opc::ModFloorF: r[in.dst].f = norm_f(in, sem::float_floor_mod(r[in.a].f, r[in.b].f)); break;
        case Opc::ModTruncF: r[in.dst].f = norm_f(in, std::fmod(r[in.a].f, r[in.b].f)); break;
        case Opc::NegF: r[in.dst].f = -r[in.a].f; break;
        case Opc::And: r[in.dst].i = r[in.a].i & r[in.b].i; break;
        case Opc::Or: r[in.dst].i = r[in.a].i | r[in.b].i; break;
        case Opc::Xor: r[in.dst].i = r[in.a].i ^ r[in.b].i; break;
        case Opc::Shl: {
          sem::Shifted v = sem::shl(r[in.a].i, r[in.b].i, static_cast<int>(in.imm));
          if (in.flag && v.overflowed) overflow();
          r[in.dst].i = in.flag ? norm_check(in, v.value) : norm_wrap(in, v.value);
          break;
        }
        case Opc::ShrS: r[in.dst].i = sem::shr(r[in.a].i, r[in.b].i, static_cast<int>(in.imm), true); break;
        case Opc::ShrU: r[in.dst].i = sem::shr(r[in.a].i, r[in.b].i, static_cast<int>(in.imm), false); break;
        case Opc::CmpS: r[in.dst].i = sem::compare(static_cast<sem::Pred>(in.mode), r[in.a].i, r[in.b].i); break;
        case Opc::CmpU:
          r[in.dst].i = sem::compare(static_cast<sem::Pred>(in.mode), static_cast<uint64_t>(r[in.a].i),
                                     static_cast<uint64_t>(r[in.b].i));
          break;
        case Opc::CmpF: r[in.dst].i = sem::compare(static_cast<sem::Pred>(in.mode), r[in.a].f, r[in.b].f); break;
        case Opc::Select: r[in.dst] = r[in.a].i ? r[in.b] : r[in.c]; break;
        case Opc::SelectN: {
          int32_t from = r[in.a].i ? in.b : in.c;
          if (from != in.dst) std::memmove(r + in.dst, r + from, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        }
        case Opc::Gather:
          for (int32_t k = 0; k < in.b; ++k) r[in.dst + k] = r[code.srcs[static_cast<size_t>(in.a + k)]];
          break;
        case Opc::CopyN:
          std::memmove(r + in.dst, r + in.a, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::LoadN:
          std::memcpy(r + in.dst, r[in.a].p, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::StoreN:
          std::memcpy(r[in.b].p, r + in.a, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::CastIToF: r[in.dst].f = norm_f(in, static_cast<double>(r[in.a].i)); break;
        case Opc::CastUToF: r[in.dst].f = norm_f(in, static_cast<double>(static_cast<uint64_t>(r[in.a].i))); break;
        case Opc::CastFToF: r[in.dst].f = norm_f(in, r[in.a].f); break;
        case Opc::CastIToBool: r[in.dst].i = r[in.a].i != 0; break;
        case Opc::CastFToBool: r[in.dst].i = r[in.a].f != 0; break;
        case Opc::CastFToI: {
          double v = r[in.a].f;
          auto i = sem::float_to_int(v, Type::scalar(static_cast<TypeKind>(in.norm)));
          if (!i) {
            if (std::isnan(v)) raise("ValueError", "cannot convert float NaN to integer");
            if (std::isinf(v)) raise("OverflowError", "cannot convert float infinity to integer");
            overflow();
          }
          r[in.dst].i = *i;
          break;
        }
        case Opc::CastIToI: {
          Type t = Type::scalar(static_cast<TypeKind>(in.norm));
          int64_t v = r[in.a].i;
          if (!sem::fits(v, t)) {
            if (in.flag) overflow();
            v = sem::wrap(v, t);
          }
          r[in.dst].i = v;
          break;
        }
        case Opc::Br: {
          const Edge& e = code.edges[static_cast<size_t>(in.a)];
          take(code, e, r);
          ip = base + e.target;
          break;
        }
        case Opc::CondBr: {
          const Edge& e = code.edges[static_cast<size_t>(r[in.c].i ? in.a : in.b)];
          take(code, e, r);
          ip = base + e.target;
          break;
        }
        case Opc::Ret:
          for (int32_t k = 0; k < in.b; ++k) results[k] = r[code.srcs[static_cast<size_t>(in.a + k)]];
          return;
        case Opc::Unreachable: throw InternalError{ppy::str_cat("@", code.name, " reached core.unreachable")};
        case Opc::Alloca: r[in.dst].p = r + code.nregs + in.imm; break;
        case Opc::GlobalAddr: r[in.dst].p = globals_.data() + in.imm; break;
        case Opc::Load: r[in.dst] = *r[in.a].p; break;
        case Opc::Store: *r[in.b].p = r[in.a]; break;
        case Opc::PtrOffset: r[in.dst].p = r[in.a].p + r[in.b].i; break;
        case Opc::BufData:
          r[in.dst].p = elems(r[in.a].buf);
          break;
        case Opc::BufLen:
          r[in.dst].i = r[in.a].buf->len;
          break;
        case Opc::BufLoad: {
          Buffer* b = r[in.a].buf;
          uint64_t i = static_cast<uint64_t>(r[in.b].i);
          if (i >= static_cast<uint64_t>(b->len)) raise("IndexError", "list index out of range");
          r[in.dst] = elems(b)[i];
          break;
        }
        case Opc::BufStore: {
          Buffer* b = r[in.b].buf;
          uint64_t i = static_cast<uint64_t>(r[in.c].i);
          if (i >= static_cast<uint64_t>(b->len)) raise("IndexError", "list assignment index out of range");
          elems(b)[i] = r[in.a];
          break;
        }
        case Opc::BufLoadN: {
          Buffer* b = r[in.a].buf;
          uint64_t i = static_cast<uint64_t>(r[in.b].i);
          if (i >= static_cast<uint64_t>(b->len)) raise("IndexError", "list index out of range");
          const Slot* box = elems(b)[i].p;
          for (int64_t k = 0; k < in.imm; ++k) r[in.dst + k] = box[k];
          break;
        }
        case Opc::BufStoreN: {
          Buffer* b = r[in.b].buf;
          uint64_t i = static_cast<uint64_t>(r[in.c].i);
          if (i >= static_cast<uint64_t>(b->len)) raise("IndexError", "list assignment index out of range");
          Slot* box = static_cast<Slot*>(ppy_list_box(in.imm));
          for (int64_t k = 0; k < in.imm; ++k) box[k] = r[in.a + k];
          elems(b)[i].p = box;
          break;
        }
        case Opc::Call: call(code.calls[static_cast<size_t>(in.imm)], code, r, r + in.dst); break;
        case Opc::Guard:
          if (!r[in.a].i) {
            auto& g = code.guards[static_cast<size_t>(in.imm)];
            raise(g.first, g.second);
          }
          break;
        case Opc::Math:
          r[in.dst].f = norm_f(in, sem::apply_math(static_cast<sem::MathFn>(in.mode), r[in.a].f,
                                                   in.b >= 0 ? r[in.b].f : 0.0));
          break;
        case Opc::PrintI64: {
          char tmp[24];
          auto res = std::to_chars(tmp, tmp + sizeof tmp, r[in.a].i);
          print(std::string_view(tmp, static_cast<size_t>(res.ptr - tmp)));
          break;
        }
        case Opc::PrintF64: print(ir::format_float(r[in.a].f)); break;
        case Opc::PrintBool: print(r[in.a].i ? "True" : "False"); break;
        case Opc::PrintStr: print(code.strings[static_cast<size_t>(in.imm)]); break;
        case Opc::PrintSpace: print(" "); break;
        case Opc::PrintNewline: print("\n"); break;
        case Opc::PrintString: {
          const ppy_str* str = static_cast<const ppy_str*>(static_cast<void*>(r[in.a].p));
          print(std::string_view(PPY_STR_BYTES(str), static_cast<size_t>(str->len)));
          break;
        }
        case Opc::Extern: extern_call(code, code.externs[static_cast<size_t>(in.imm)], r, r[in.dst]); break;
        case Opc::ListNew:
          r[in.dst].buf = in.imm ? ppy_list_new_ptr(r[in.a].i) : ppy_list_new_i64(r[in.a].i);
          break;
        case Opc::PowI64: {
          int64_t v = 0;
          switch (sem::pow_i64(r[in.a].i, r[in.b].i, v)) {
            case sem::PowError::NegativeExponent: raise("ValueError", "negative exponent");
            case sem::PowError::Overflow: overflow();
            case sem::PowError::None: break;
          }
          r[in.dst].i = v;
          break;
        }
        case Opc::Nop:
          break;
        case Opc::Unsupported:
          throw InternalError{ppy::str_cat("@", code.name, ": ", code.strings[static_cast<size_t>(in.imm)])};
      }
    }
  }

  /// A runtime string function; its raises come back as PyError (the hook).
  static void extern_call(const Code& code, const ExternCall& x, Slot* r, Slot& out) {
    auto arg = [&](int k) -> Slot& { return r[code.srcs[static_cast<size_t>(x.args_begin + k)]]; };
    auto p = [&](int k) { return static_cast<const ppy_str*>(static_cast<void*>(arg(k).p)); };
    auto ret = [&](ppy_str* s) { out.p = static_cast<Slot*>(static_cast<void*>(s)); };
    if (x.sig == Sig::Dict) {
      Slot a[3];
      for (int k = 0; k < x.nargs; ++k) a[k] = arg(k);
      dict_call(x, a, out);
      return;
    }
    switch (x.sig) {
      case Sig::Dict:
        break;  // above
      case Sig::P_Text: {
        const std::string& t = code.strings[static_cast<size_t>(x.text)];
        ret(ppy_str_literal(t.data(), static_cast<int64_t>(t.size())));
        break;
      }
      case Sig::P_P: ret(reinterpret_cast<ppy_str* (*)(const ppy_str*)>(x.fn)(p(0))); break;
      case Sig::P_PP: ret(reinterpret_cast<ppy_str* (*)(const ppy_str*, const ppy_str*)>(x.fn)(p(0), p(1))); break;
      case Sig::P_PPP:
        ret(reinterpret_cast<ppy_str* (*)(const ppy_str*, const ppy_str*, const ppy_str*)>(x.fn)(p(0), p(1), p(2)));
        break;
      case Sig::P_PI: ret(reinterpret_cast<ppy_str* (*)(const ppy_str*, int64_t)>(x.fn)(p(0), arg(1).i)); break;
      case Sig::P_II:
        ret(static_cast<ppy_str*>(reinterpret_cast<void* (*)(int64_t, int64_t)>(x.fn)(arg(0).i, arg(1).i)));
        break;
      case Sig::P_PIIII:
        ret(reinterpret_cast<ppy_str* (*)(const ppy_str*, int64_t, int64_t, int64_t, int64_t)>(x.fn)(
            p(0), arg(1).i, arg(2).i, arg(3).i, arg(4).i));
        break;
      case Sig::P_I: ret(reinterpret_cast<ppy_str* (*)(int64_t)>(x.fn)(arg(0).i)); break;
      case Sig::P_F: ret(reinterpret_cast<ppy_str* (*)(double)>(x.fn)(arg(0).f)); break;
      case Sig::I_P: out.i = reinterpret_cast<int64_t (*)(const ppy_str*)>(x.fn)(p(0)); break;
      case Sig::I_PP: out.i = reinterpret_cast<int64_t (*)(const ppy_str*, const ppy_str*)>(x.fn)(p(0), p(1)); break;
      case Sig::F_P: out.f = reinterpret_cast<double (*)(const ppy_str*)>(x.fn)(p(0)); break;
      case Sig::P_V: ret(reinterpret_cast<ppy_str* (*)()>(x.fn)()); break;
      case Sig::V_PP: reinterpret_cast<void (*)(const ppy_str*, const ppy_str*)>(x.fn)(p(0), p(1)); break;
      case Sig::P_IP: ret(reinterpret_cast<ppy_str* (*)(int64_t, const ppy_str*)>(x.fn)(arg(0).i, p(1))); break;
      case Sig::P_FP: ret(reinterpret_cast<ppy_str* (*)(double, const ppy_str*)>(x.fn)(arg(0).f, p(1))); break;
      case Sig::V_LI:
        reinterpret_cast<void (*)(ppy_list*, int64_t)>(x.fn)(arg(0).buf, arg(1).i);
        break;
      case Sig::V_LF:
        reinterpret_cast<void (*)(ppy_list*, double)>(x.fn)(arg(0).buf, arg(1).f);
        break;
      case Sig::V_LP:
        reinterpret_cast<void (*)(ppy_list*, void*)>(x.fn)(arg(0).buf, arg(1).p);
        break;
      case Sig::I_L:
        out.i = reinterpret_cast<int64_t (*)(ppy_list*)>(x.fn)(arg(0).buf);
        break;
      case Sig::F_L:
        out.f = reinterpret_cast<double (*)(ppy_list*)>(x.fn)(arg(0).buf);
        break;
      case Sig::P_L:
        out.p = static_cast<Slot*>(reinterpret_cast<void* (*)(ppy_list*)>(x.fn)(arg(0).buf));
        break;
      case Sig::P_LP:
        ret(reinterpret_cast<ppy_str* (*)(const ppy_list*, const ppy_str*)>(x.fn)(arg(0).buf, p(1)));
        break;
      case Sig::I_LLP:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, const ppy_list*, const ppy_str*)>(x.fn)(arg(0).buf,
                                                                                                      arg(1).buf, p(2));
        break;
      case Sig::V_LII:
        reinterpret_cast<void (*)(ppy_list*, int64_t, int64_t)>(x.fn)(arg(0).buf, arg(1).i, arg(2).i);
        break;
      case Sig::V_LIF:
        reinterpret_cast<void (*)(ppy_list*, int64_t, double)>(x.fn)(arg(0).buf, arg(1).i, arg(2).f);
        break;
      case Sig::V_LIP:
        reinterpret_cast<void (*)(ppy_list*, int64_t, void*)>(x.fn)(arg(0).buf, arg(1).i, arg(2).p);
        break;
      case Sig::V_LL:
        reinterpret_cast<void (*)(ppy_list*, const ppy_list*)>(x.fn)(arg(0).buf, arg(1).buf);
        break;
      case Sig::L_LIIII:
        out.buf = reinterpret_cast<ppy_list* (*)(const ppy_list*, int64_t, int64_t, int64_t, int64_t)>(x.fn)(
            arg(0).buf, arg(1).i, arg(2).i, arg(3).i, arg(4).i);
        break;
      case Sig::L_LL:
        out.buf = reinterpret_cast<ppy_list* (*)(const ppy_list*, const ppy_list*)>(x.fn)(arg(0).buf, arg(1).buf);
        break;
      case Sig::I_LI:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, int64_t)>(x.fn)(arg(0).buf, arg(1).i);
        break;
      case Sig::I_LF:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, double)>(x.fn)(arg(0).buf, arg(1).f);
        break;
      case Sig::I_LPP:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, const void*, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).p,
                                                                                                  p(2));
        break;
      case Sig::L_LP:
        out.buf = reinterpret_cast<ppy_list* (*)(const ppy_list*, const ppy_str*)>(x.fn)(arg(0).buf, p(1));
        break;
      case Sig::P_LIP:
        out.p = static_cast<Slot*>(
            reinterpret_cast<void* (*)(const ppy_list*, int64_t, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).i, p(2)));
        break;
      case Sig::F_LF:
        out.f = reinterpret_cast<double (*)(const ppy_list*, double)>(x.fn)(arg(0).buf, arg(1).f);
        break;
      case Sig::F_LI:
        out.f = reinterpret_cast<double (*)(const ppy_list*, int64_t)>(x.fn)(arg(0).buf, arg(1).i);
        break;
      case Sig::P_LI:
        out.p = static_cast<Slot*>(reinterpret_cast<void* (*)(const ppy_list*, int64_t)>(x.fn)(arg(0).buf, arg(1).i));
        break;
      case Sig::P_PL:
        ret(reinterpret_cast<ppy_str* (*)(const ppy_str*, const ppy_list*)>(x.fn)(p(0), arg(1).buf));
        break;
      case Sig::L_PP:
        out.buf = reinterpret_cast<ppy_list* (*)(const ppy_str*, const ppy_str*)>(x.fn)(p(0), p(1));
        break;
      case Sig::V_L: reinterpret_cast<void (*)(ppy_list*)>(x.fn)(arg(0).buf); break;
      case Sig::I_LIP:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, int64_t, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).i, p(2));
        break;
      case Sig::I_LFP:
        out.i = reinterpret_cast<int64_t (*)(const ppy_list*, double, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).f, p(2));
        break;
      case Sig::V_LFP:
        reinterpret_cast<void (*)(ppy_list*, double, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).f, p(2));
        break;
      case Sig::V_LPP:
        reinterpret_cast<void (*)(ppy_list*, const void*, const ppy_str*)>(x.fn)(arg(0).buf, arg(1).p, p(2));
        break;
      case Sig::L_P:
        out.buf = reinterpret_cast<ppy_list* (*)(const ppy_str*)>(x.fn)(p(0));
        break;
    }
  }

  const ir::Module& m_;
  std::ostream& out_;
  RunOptions opts_;
  std::vector<Code> codes_;
  Slots globals_;  ///< the module's globals (sized once: their addresses stay)
  std::vector<Slots> frames_;
  std::string buf_;
  int depth_ = 0;
};

std::string_view qualname(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? std::string_view(q->as_string()) : std::string_view();
}

/// The entry's index: by symbol, by qualname, or as `<module>.__main__` (the
/// module's code), else `<module>.main`.
int32_t find_entry(const ir::Module& m, std::string_view entry) {
  if (!entry.empty() && entry[0] == '@') entry.remove_prefix(1);
  auto& fs = m.functions();
  for (size_t i = 0; i < fs.size(); ++i)
    if (fs[i]->name() == entry && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  for (size_t i = 0; i < fs.size(); ++i)
    if (qualname(*fs[i]) == entry && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  for (const char* suffix : {".__main__", ".main"}) {
    std::string as_module = ppy::str_cat(entry, suffix);
    for (size_t i = 0; i < fs.size(); ++i)
      if (qualname(*fs[i]) == as_module && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  }
  return -1;
}

}  // namespace

RunResult run_main(const ir::Module& linked, std::string_view entry, std::ostream& out,
                   std::ostream& err, const RunOptions& options) {
  int32_t index = find_entry(linked, entry);
  if (index < 0) {
    err << "error: module @" << linked.name() << " has no function '" << entry
        << "' (by symbol, qualname, or as the module's main)\n";
    return {2};
  }
  RunOptions opts = options;
  if (opts.recursion_limit < 1) opts.recursion_limit = 1;
  ppy_rt_gc_init();
  // The runtime's string functions raise through the hook, as this machine does.
  ppy_rt_set_raise_hook(+[](const char* name, const char* message) {
    throw PyError{name, message ? message : ""};
  });
  struct Unhook {
    ~Unhook() { ppy_rt_set_raise_hook(nullptr); }
  } unhook;
  Machine machine(linked, out, opts);
  try {
    machine.run(index);
  } catch (const PyError& e) {
    machine.flush();
    err << e.name;
    if (!e.message.empty()) err << ": " << e.message;
    err << "\n";
    return {1};
  } catch (const InternalError& e) {
    machine.flush();
    err << "error: " << e.message << "\n";
    return {2};
  }
  return {0};
}

}  // namespace ppy::interp
