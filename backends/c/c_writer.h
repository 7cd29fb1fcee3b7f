#pragma once
/// The writer of one C, C++, CUDA or HIP unit from canonical IR, in parts:
/// the unit's shape (c_unit.cc), C types, tuple and object structs
/// (c_types.cc), a function's structured body (c_function.cc), its statements
/// (c_statements.cc), expressions (c_expr.cc) and calls of the native runtime,
/// driven by its ABI table (c_runtime_calls.cc). Internal to the c backend.

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "c_syntax.h"
#include "ppy/backends/c_backend.h"
#include "ppy/source/structure.h"
#include "ppy/backends/source/values.h"
#include "ppy/runtime/abi.h"
#include "ppy/ir/trace.h"

namespace ppy::backends::cgen {

using Dialect = COptions::Dialect;
using source::FunctionValues;
using source::Node;
using source::Seq;

/// Whether a unit needs the collector's part of the runtime (PPY_RT_STRINGS,
/// linked with libgc): it calls a runtime function flagged `collector`, takes
/// or returns a list, or boxes a tuple into one.
bool needs_collector(const ir::Module& module);

/// The C type the runtime's own prototype gives the result of `fn`: what
/// the ABI table's pattern says (`handle` a void*, `buffer<?>` a ppy_list*),
/// and, for `ptr<i8>`, which the table spells alike for a str and an opaque
/// handle, which of the two it is.
std::string_view runtime_result_c_type(const runtime::RuntimeFunction& fn);

class CWriter {
 public:
  CWriter(const ir::Module& m, const COptions& o) : m_(m), o_(o) {}

  /// The unit's text, or the refusal (E1802) of what it cannot take.
  absl::StatusOr<std::string> run();

 private:
  // --- the unit (c_unit.cc) ---

  /// `<module>.__main__()` (the entry module's code), else `<module>.main()`;
  /// in a linked module (one named for its file), the one `<any
  /// module>.__main__()` there is, else the one `<any module>.main()`.
  const ir::Function* main_function() const;
  absl::Status refuse_fn(const ir::Function& f, std::string what, std::string capability = "device code");
  /// The `header` format: the C declarations of the exports.
  absl::StatusOr<std::string> export_header();
  /// Functions that call themselves through the module's call graph: they count
  /// their depth for RecursionError, as Python does.
  std::set<const ir::Function*> recursive_functions() const;
  std::string signature(const ir::Function& f);
  source::ValueOptions value_options() const;
  /// The C variable whose address `v` is (`core.const @g`), or null.
  const std::string* global_of(const ir::Value* v) const;
  std::string global_initializer(const ir::Global& g);

  // --- types (c_types.cc) ---

  std::string c_type(ir::Type t) const;
  /// A tuple is a struct of its members `f0, f1, ...`, passed and returned by
  /// value; each tuple type the module uses is defined once, members first.
  std::string tuple_struct(ir::Type t) const;
  /// A member type in a tuple struct's name: a C identifier.
  std::string type_tag(ir::Type e) const;
  /// ppy_box_T / ppy_unbox_T: a tuple in a list is a box of its leaves, one
  /// 8-byte slot each, nested tuples flattened, a bool as 0 or 1 (docs/runtime.md, "Lists").
  std::string boxed(ir::Type t) const;
  /// An object's memory (`struct<Name, __tid: i64, ...>`, docs/runtime.md
  /// "Objects"): a struct of fields `f_<name>`, read and written through
  /// memcpy (a derived object is read through its base's struct too).
  std::string object_struct(ir::Type t) const;
  /// A variable's initial value.
  std::string zero(ir::Type t) const;

  // --- one function's body (c_function.cc) ---

  absl::StatusOr<std::string> function(const ir::Function& f);
  void line(std::string_view text);
  /// A block that writes no statement before its terminator.
  bool silent_block(const source::Node& n);
  /// Whether `op` writes a statement (a store to a slot nobody reads does not).
  bool statement_of(const ir::Operation& op);
  void suite(const source::Seq& s);
  void seq(const source::Seq& s, bool top);
  void ret(const ir::Operation& t, bool last);
  void if_stmt(const source::Node& n, bool elif);
  void loop(const source::Node& n);
  /// The fallback: each block under a label, branches as gotos.
  void gotos(const ir::Function& f);
  /// The block arguments an edge sets, as a parallel assignment: in an order
  /// where no value is overwritten before it is read, through temporaries
  /// where the moves form a cycle.
  void edge(const ir::Successor& s);
  void block_ops(const ir::Block& b);
  /// Refuses the function being written (the first refusal wins).
  void fail(const ir::Operation& op, std::string what);

  // --- tracebacks (issue 34, c_trace.cc) ---

  /// The frame's declaration and link at the function's start (none for a
  /// function that cannot raise; an outlined try body uses its enclosing one's).
  void trace_begin(const ir::Function& f);
  /// `ppy_tb->line = N;` before `op` when an exception may come through it.
  void trace_mark(const ir::Operation& op);
  bool trace_raises_through(const ir::Operation& op);
  /// Whether trace_mark writes a line before `op` (a condition that may call
  /// is then written as a statement of its own, not in `while (...)`/`else if`).
  bool trace_marks(const ir::Operation* op);
  /// `op`'s line, or the first of the ops it is written with (0: none).
  int64_t trace_line_of(const ir::Operation& op);
  /// `ppy_tb->line = N, ` for a guard's failing branch (N: the guard's line).
  std::string trace_guard_line();
  /// Unlinks the frame before a return.
  void trace_leave();

  // --- statements (c_statements.cc) ---

  void statement(const ir::Operation& op);
  /// `core.store`: a slot's variable (only where it is read), a global, a
  /// struct through its `_store`, else through the pointer.
  void store(const ir::Operation& op);
  /// `core.buffer_store`: a list's element; a tuple goes in a new box.
  void buffer_store(const ir::Operation& op);
  /// `core.call {capture_status = true}` (a try body, docs/runtime.md
  /// "Exceptions"): the arguments in a frame, a thunk of the callee run by the
  /// runtime's ppy_rt_try, which answers the status; a slot goes by its address.
  void capture(const ir::Operation& op);
  /// `gpu.launch`: lists go to device memory and back around the kernel.
  void launch(const ir::Operation& op);

  // --- expressions (c_expr.cc) ---

  Expr expr(const ir::Value* v);
  /// A list's element: an 8-byte slot (ppy_runtime.h), a bool held as int64_t.
  std::string element(const ir::Value* list, const ir::Value* index);
  Expr negate(const ir::Value* v);
  /// `core.cmp` `op` with predicate `pred` (its own, or the inverse when negated).
  Expr compare(const ir::Operation& op, ir::Predicate pred);
  Expr binary(const ir::Operation& op, const char* sym, int prec);
  /// `&`, `|`, `^`, `&&`, `||` with every compound operand in parentheses
  /// (what -Wparentheses asks for).
  Expr bitwise(const ir::Operation& op, const char* sym, int prec);
  Expr call(std::string_view fn, std::initializer_list<const ir::Value*> args);
  /// A call of a helper of helper_texts(), which the unit then carries.
  Expr helper(const char* name, std::initializer_list<const ir::Value*> args);
  /// A helper that may raise (checked arithmetic): its last argument is `op`'s
  /// line, which it writes into the frame only when it raises (0: no frame).
  Expr raising_helper(const char* name, const ir::Operation& op, std::initializer_list<const ir::Value*> args);
  /// Wrapping two's-complement arithmetic, through uint64_t (no UB).
  Expr wrapping(const ir::Operation& op, const char* sym);
  Expr arith(const ir::Operation& op, const char* sym, int prec, const char* checked);
  Expr op_expr(const ir::Operation& op);
  /// core.div and core.mod by their type, rounding and target.
  Expr divide(const ir::Operation& op, bool div);
  /// `core.const`: a global's address, or a literal of the result's type.
  Expr constant(const ir::Operation& op);
  bool tree_has_effects(const ir::Value* v);
  Expr cast(const ir::Operation& op);

  // --- calls of the native runtime (c_runtime_calls.cc) ---

  /// A `core.call_extern` of a runtime function, its C shaped by the ABI
  /// table's entry; a callee the table lacks, or a call its entry does not
  /// allow (runtime::check_runtime_call), refuses the function.
  Expr runtime_call(const ir::Operation& op);

  /// plugins (docs/writing-a-plugin.md): a `core.call_extern {library = "vecmath"}`
  /// of a vendor's symbol, declared with the C signature its operands give (a
  /// list's data pointer and int64_t length) in extern_decls_.
  Expr library_call(const ir::Operation& op, const std::string& library);

  const ir::Module& m_;
  COptions o_;
  std::map<std::string, std::string> fn_names_;
  std::map<std::string, std::string> global_names_;          ///< a global's symbol -> its C variable
  mutable std::set<std::string> tuple_defined_;              ///< tuple types (IR spelling) with a struct in tuple_defs_
  mutable std::set<std::string> tuple_boxed_;                ///< tuple structs with ppy_box_T / ppy_unbox_T
  mutable std::map<std::string, std::string> object_names_;  ///< struct types (IR spelling) -> their C typedef
  mutable std::string tuple_defs_;                           ///< their typedefs, members before the tuples holding them
  std::set<std::string> thunked_;  ///< callees of capture_status calls with a thunk in thunks_
  std::string thunks_;             ///< their frames and thunks, after the prototypes
  /// A native library's symbol -> its declaration (library_call), before the prototypes.
  std::map<std::string, std::string> extern_decls_;
  std::set<std::string> helpers_;  ///< the helpers of helper_texts() the unit calls
  std::set<const ir::Function*> recursive_;
  std::set<const ir::Value*> read_slots_;
  const ir::Function* fn_ = nullptr;
  const source::FunctionValues* values_ = nullptr;
  bool gpu_ = false;
  ir::TraceRole trace_ = ir::TraceRole::kNone;  ///< tracebacks: the function's frame (c_trace.cc)
  int64_t trace_line_ = 0;
  int64_t trace_guard_at_ = 0;  ///< the line of the guard being written
  std::unordered_map<const ir::Operation*, int64_t> trace_lines_;  ///< each op's line (ir::trace_lines)
  std::string out_;
  int indent_ = 0;
  absl::Status status_;
};

}  // namespace ppy::backends::cgen
