#pragma once
/// The writer of one module's Python source, internal to the python backend.
/// Each function's CFG is structured into while/if (backends/source); a CFG
/// that is not is written as a block-dispatch loop. Integers are Python ints
/// checked against the i64 range where the IR says an op raises
/// OverflowError, so every exception python3 would raise on the original
/// program is raised here with the same message.
///
/// Its parts: the module and its names (python_module.cc), a function's
/// statements (python_function.cc), expressions (python_expr.cc), runtime calls
/// (python_calls.cc, from abi.def's templates) and the i64 range checks
/// (python_int_checks.cc).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/source/structure.h"
#include "ppy/backends/source/values.h"
#include "ppy/ir/core_ops.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/trace.h"
#include "python_text.h"

namespace ppy::backends::python {

/// The string attribute `key` of `op`, or "".
std::string_view str_attr(const ir::Operation& op, std::string_view key);

/// i64 or index: a Python int.
bool int_type(ir::Type t);

/// An integer division whose divisor is a constant other than -1, which
/// cannot overflow (only INT64_MIN // -1 does).
bool safe_divisor(const ir::Operation& op);

/// Whether `op`'s Python spelling needs a statement after it (the i64 range
/// check).
bool needs_check(const ir::Operation& op);

/// The value of an integer constant `v`, if it is one.
std::optional<int64_t> const_int(const ir::Value* v);

class ModuleWriter {
 public:
  explicit ModuleWriter(const ir::Module& m) : m_(m) {}

  [[nodiscard]] absl::StatusOr<std::string> run();
  /// After run(): the module's traceback table (python_trace.cc), JSON.
  [[nodiscard]] std::string trace_table() const;

 private:
  // --- the module and its names (python_module.cc) ---

  static std::string qualname(const ir::Function& f);
  static std::string last_part(const std::string& q);
  /// `<module>.__main__` (the module's code), else `<module>.main`, taking
  /// nothing and returning nothing, or null.
  const ir::Function* entry() const;
  std::string attribute_literal(const ir::Attribute& a, ir::Type t);
  Expr float_literal(double d);
  absl::Status refuse(const ir::Operation& op, std::string what);
  /// The Python variable whose address `v` is (`core.const @g`), or null.
  const std::string* global_of(const ir::Value* v) const;

  // --- one function's statements (python_function.cc) ---

  absl::StatusOr<std::string> function(const ir::Function& f);
  void line(std::string_view text);
  /// A suite: the statements of `s` one level in, or `pass`.
  void suite(const source::Seq& s);
  /// Whether `n` writes no statement of its own (a block whose every op is
  /// inlined or a declaration).
  bool silent_block(const source::Node& n);
  void seq(const source::Seq& s, bool top);
  void if_stmt(const source::Node& n, bool elif);
  bool tree_has_effects(const ir::Value* v);
  void loop(const source::Node& n);
  /// Every edge in `s` (nested statements too) that goes to `header`.
  static void edges_to(const source::Seq& s, const ir::Block* header, std::vector<const ir::Successor*>& out);
  /// `while i < n:` whose every way back to the header passes `i + 1` for i,
  /// with n fixed outside the loop and i not read after it, is
  /// `for i in range(i, n):` (Python counts, and i + 1 cannot overflow below n).
  bool for_range(const source::Node& loop, const ir::Value* c, const source::Seq& body);
  static void collect_blocks(const source::Seq& s, std::set<const ir::Block*>& out);
  /// The fallback for a CFG that is not structurable: a loop over a block
  /// number, one `if` per block.
  void dispatch(const ir::Function& f);
  void edge(const ir::Successor& s);
  void block_ops(const ir::Block& b);
  void statement(const ir::Operation& op);
  /// core.store: a Python global, an object's fields, or a local (or cell).
  void store(const ir::Operation& op);
  /// `core.call {capture_status = true}` (a try body): a real try statement;
  /// the status is 1 when it raised, and the exception is kept for ppy_exc_*.
  void capture(const ir::Operation& op);
  void fail(const ir::Operation& op, std::string what);

  // --- what a branch says of integers, and the range checks (python_int_checks.cc) ---

  /// Bounds known to hold of integer values where the writer is (inclusive).
  struct Bounds {
    std::map<const ir::Value*, int64_t> upper, lower;
  };
  /// What `c` being `truth` says: `a < b` gives a <= b - 1 and b >= a + 1.
  Bounds implied(const ir::Value* c, bool truth);
  /// Runs `body` with `more` known, then forgets it.
  template <class F>
  void knowing(const Bounds& more, F&& body) {
    Bounds saved = bounds_;
    for (auto& [v, u] : more.upper)
      if (!bounds_.upper.count(v) || u < bounds_.upper[v]) bounds_.upper[v] = u;
    for (auto& [v, l] : more.lower)
      if (!bounds_.lower.count(v) || l > bounds_.lower[v]) bounds_.lower[v] = l;
    body();
    bounds_ = std::move(saved);
  }
  /// Whether `v + k` stays within i64, by what is known of v.
  bool add_fits(const ir::Value* v, int64_t k);
  /// An overflow-checked op that cannot overflow here (`i + 1` under `i < n`).
  bool cannot_overflow(const ir::Operation& op);
  /// A range-checked op read only by a range-checked add or sub of a constant
  /// in its block is written inside that sum, and the sum's one check covers
  /// both (`n = n * 3 + 1`): t and t + k both within i64 is exactly t + k
  /// within i64 ∩ (i64 + k), Python's integers being exact.
  void find_fused_checks(const ir::Function& f);
  /// Whether `op`'s check covers an inner op (find_fused_checks).
  bool covers_inner(const ir::Operation& op);
  /// The range check after `name = <op>`: one-sided where the op can only
  /// leave the range one way (adding or subtracting a constant), narrowed
  /// where it covers an inner op.
  std::string check_text(const ir::Operation& op, const std::string& name);

  // --- expressions (python_expr.cc) ---

  /// `v` read: its variable, or the expression it is written as.
  Expr expr(const ir::Value* v);
  /// `not v`, with comparisons of integers turned around instead.
  Expr negate(const ir::Value* v);
  static bool truthy(const ir::Operation& c);
  static bool is_true(const ir::Value* v);
  Expr binary(const ir::Operation& op, const char* sym, int prec);
  Expr call(std::string_view fn, std::initializer_list<const ir::Value*> args);
  /// A call of a helper of ppy_helpers.py, which the module then defines.
  Expr helper(const char* name, std::initializer_list<const ir::Value*> args);
  /// `e` wrapped to 64 bits where `op` wraps on overflow.
  Expr wrapped(Expr e, const ir::Operation& op);
  Expr op_expr(const ir::Operation& op);
  /// core.struct_make and core.tuple_make: a Python tuple.
  Expr tuple(const ir::Operation& op);
  /// core.div and core.mod, by their rounding (true division on floats without one).
  Expr division(const ir::Operation& op);
  /// An op of the math dialect (`c` is its CoreOp).
  Expr math(const ir::Operation& op, ir::CoreOp c);
  Expr cast(const ir::Operation& op);

  // --- runtime calls (python_calls.cc) ---

  /// One piece of what print() writes, gathered into one print() call.
  struct PrintItem {
    enum Kind { Value, Text, Space, Newline } kind;
    std::string text;  ///< an expression (Value) or the literal text (Text)
  };
  std::optional<PrintItem> print_item(const ir::Operation& op);
  /// Consecutive print pieces as `print(...)` calls, one per line printed.
  void flush_prints(std::vector<PrintItem>& items);
  void print_call(std::span<const PrintItem> items, bool newline);
  /// A `core.call_extern` of the runtime: its abi.def template expanded, or
  /// the writer's own spelling of a "*" one.
  Expr runtime_call(const ir::Operation& op);
  /// ppy_str_slice and ppy_list_slice: a subscript that omits the bounds the
  /// source omitted.
  Expr slice(const ir::Operation& op);

  // --- tracebacks (issue 34, python_trace.cc) ---

  /// A line about to be written at out_'s end maps to source line src_line_.
  void trace_mark();
  /// The function's text is written: its marks move to offsets in that text
  /// (`shift`: the bytes put before out_).
  void trace_function_text(size_t shift);
  /// The function's text goes at `offset` in the module's body.
  void trace_function(const ir::Function& f, size_t offset);
  /// The whole module's text is `out`, its body starting at `body_at`.
  void trace_module(const std::string& out, size_t body_at);
  struct TraceFunction {
    std::string py_name, frame_name;
    ir::TraceRole role;
    std::vector<ir::TraceComprehension> comps;  ///< its comprehensions' frames (a line's k above bit 32)
  };
  int64_t src_line_ = 0;
  std::vector<std::pair<size_t, int64_t>> marks_;              ///< out_ offset -> source line
  std::vector<std::pair<size_t, int64_t>> text_marks_;         ///< the last function text's offset -> source line
  std::vector<std::pair<size_t, int64_t>> body_marks_;         ///< body offset -> source line
  std::vector<std::pair<int64_t, int64_t>> generated_lines_;   ///< generated line -> source line
  std::vector<TraceFunction> trace_functions_;
  std::string trace_file_;

  const ir::Module& m_;
  Bounds bounds_;
  std::set<std::pair<const ir::Block*, size_t>> skip_moves_;  ///< header arguments a `for` sets
  std::set<const ir::Operation*> skip_ops_;                   ///< steps a `for` makes
  std::set<const ir::Operation*> fused_;                      ///< checked ops a sum's check covers
  std::map<std::string, std::string> fn_names_;               ///< symbol -> Python spelling of a call
  std::set<std::string> used_names_;                          ///< the module's function and global names
  std::map<std::string, std::string> global_names_;           ///< a mutable global's symbol -> its Python name
  std::map<std::string, std::string> imports_;                ///< module -> alias
  std::set<std::string> helpers_;                             ///< the helpers the module calls (python_helpers.h)
  std::set<const ir::Value*> cells_;                          ///< slots (and slot parameters) held in one-element lists
  bool uses_math_ = false;
  const ir::Function* fn_ = nullptr;
  const source::FunctionValues* values_ = nullptr;
  std::string out_;
  int indent_ = 0;
  absl::Status status_;
};

}  // namespace ppy::backends::python
