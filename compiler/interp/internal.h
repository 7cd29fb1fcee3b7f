#pragma once
// The interpreter's internals: the register form a function compiles to
// (compiler.cc), the machine that runs it (machine.cc) and the table-driven
// caller of runtime functions (runtime_call.cc).

#include <gc/gc_allocator.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ppy/interp/interp.h"
#include "ppy/ir/core_ops.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/trace.h"
#include "ppy_runtime.h"

namespace ppy::interp::detail {

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
struct Code;

/// A frame an exception came through (tracebacks, issue 34): the function and
/// the line it was at.
struct TraceEntry {
  const Code* code = nullptr;
  int64_t line = 0;  ///< with its comprehension, as ir::trace_line
};

struct PyError {
  std::string name;
  std::string message;
  /// An exception class's instance and its classes (ppy_rt_raise_object);
  /// null and empty for a builtin exception.
  void* object = nullptr;
  std::string classes;
  /// The frames it came through so far, innermost first (tracebacks, issue 34).
  std::vector<TraceEntry> trace;
  /// Raised through ppy_exc_raise_object: maybe a caught one again (ppy_rt_raising_again).
  bool again = false;
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
  Runtime,  // a function of the runtime's ABI table, called by its signature (Code::runtime_calls)
  CallIndirect,  // core.call_indirect: a Call whose callee is the function value in register a
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
  int32_t src_begin = 0;  ///< into Code::srcs
  bool overlap = false;   ///< a source is also a destination: copy through a temporary
};

/// Calls a runtime function through the C ABI: `fn` with `args` (words and
/// doubles as the signature has them), the result (if any) into `out`.
using Thunk = void (*)(void* fn, const Slot* args, Slot& out);

/// A call of a runtime function, bound once from its ABI table entry: its
/// address, the thunk for its signature and where its operands are.
struct RuntimeCall {
  Thunk thunk = nullptr;
  void* fn = nullptr;
  int32_t args_begin = 0;  ///< into Code::srcs
  int32_t nargs = 0;       ///< operands in Code::srcs (the text's two come first, when it takes one)
  int32_t text = -1;       ///< a `text` function: the op's text in Code::strings
};

struct Code;

struct CallSite {
  int32_t callee = -1;  ///< function index in the module
  const Code* code = nullptr;
  int32_t args_begin = 0;
  int32_t nargs = 0;
  bool capture = false;  ///< capture_status: a raise inside gives status 1 (a trailing result)
  /// core.call_indirect: the register holding the function value (its function
  /// index plus 1, as core.func_ref makes it); callee and code stay unset.
  int32_t fn_reg = -1;
};

/// A function compiled to registers.
struct Code {
  std::string name;
  std::vector<Inst> insts;
  std::vector<Edge> edges;
  std::vector<int32_t> srcs;
  std::vector<CallSite> calls;
  std::vector<RuntimeCall> runtime_calls;
  std::vector<std::pair<std::string, std::string>> guards;  ///< (exception, message)
  std::vector<std::string> strings;                         ///< runtime calls' texts, unsupported reasons
  int32_t nregs = 0;
  int32_t nalloca = 0;
  int32_t nresults = 0;
  int32_t nparams = 0;
  std::string error;  ///< set when the function could not be compiled
  /// Tracebacks (issue 34): each inst's source line, the frame's name and
  /// file, and how the function takes part (ppy/ir/trace.h).
  std::vector<int64_t> lines;  ///< as ir::trace_line: a comprehension's above the line
  std::string frame_name, file;
  std::vector<ir::TraceComprehension> comps;
  ir::TraceRole trace_role = ir::TraceRole::kOwns;
  bool counts_level = true;  ///< a level toward RecursionError (not a try body or an adapter: ir::trace_transparent)
};

/// Raises a Python exception: it unwinds to run_main (or a capture_status call).
[[noreturn]] void raise(std::string name, std::string message);
/// Raises what a failed guard of `kind` raises (ir::guard_exception), with
/// `message`: the interpreter's own checks name their exceptions by kind.
[[noreturn]] void raise(ir::GuardKind kind, std::string_view message);
/// The same with the kind's default message.
[[noreturn]] void raise(ir::GuardKind kind);
/// OverflowError `integer overflow`: an integer result that does not fit.
[[noreturn]] void overflow();

/// Compiles `f` to registers; a function that cannot be run says why in
/// Code::error. `functions` and `globals` index the module's by symbol.
[[nodiscard]] Code compile_function(const ir::Module& m, const ir::Function& f,
                                    const std::unordered_map<std::string, int32_t>& functions,
                                    const std::unordered_map<std::string, int32_t>& globals);

/// Binds `op` (a `core.call_extern`) to its runtime function: checks it
/// against the callee's entry and fills the thunk and address of `call`.
/// Answers the reason when it cannot be called.
[[nodiscard]] std::string bind_runtime_call(const ir::Operation& op, RuntimeCall& call);

/// Runs a bound runtime call of `code` with the registers `r`; a raise in the
/// runtime comes back as PyError (run_main's raise hook).
void call_runtime(const Code& code, const RuntimeCall& call, const Slot* r, Slot& out);

/// Runs function `entry` of `m`, printing to `out`: answers run_main's exit
/// status, with a Python exception's line or the reason the IR cannot run on `err`.
[[nodiscard]] int run_function(const ir::Module& m, int32_t entry, std::ostream& out, std::ostream& err,
                               const RunOptions& opts);

}  // namespace ppy::interp::detail
