#pragma once
/// What the ops of the `core` and `math` dialects mean, in one place (docs/ir.md,
/// docs/runtime.md "Guards"): which op an Operation is, how its integer arithmetic
/// overflows and rounds, what a failed guard raises, and typed reads of the
/// attributes backends look at. The interpreter, the passes and every backend read
/// the IR through these, so a spelling lives here once and a consumer `switch`es
/// on an enum instead of comparing op names.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "absl/types/span.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

// ---- Which op --------------------------------------------------------------------

/// Every op of the core and math dialects; `Other` for any other op (gpu, a
/// backend's own). Consumers switch on it: a new core op is a compile-time
/// warning in every switch without a default, not a silent string miss.
enum class CoreOp : uint8_t {
  Other,
  // Constants and arithmetic.
  Const,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Neg,
  And,
  Or,
  Xor,
  Shl,
  Shr,
  Cmp,
  Select,
  Cast,
  // Control flow.
  Br,
  CondBr,
  Ret,
  Unreachable,
  Guard,
  // Memory.
  Alloca,
  Load,
  Store,
  PtrOffset,
  BufferData,
  BufferLen,
  BufferLoad,
  BufferStore,
  // Aggregates.
  TupleMake,
  TupleExtract,
  StructMake,
  StructExtract,
  // Calls.
  Call,
  CallExtern,
  CallIntrinsic,
  // Functions as values (docs/ir.md, "Functions as values").
  FuncRef,
  CallIndirect,
  // The math dialect (floats; `math.pow` takes two operands).
  MathSqrt,
  MathSin,
  MathCos,
  MathTan,
  MathExp,
  MathExp2,
  MathLog,
  MathLog2,
  MathLog10,
  MathFloor,
  MathCeil,
  MathTrunc,
  MathAbs,
  MathPow,
};

/// Which op `op` is. Keys on the op's interned name (ir.h: names are interned),
/// so it costs a pointer hash rather than a string comparison per op.
[[nodiscard]] CoreOp core_op(const Operation& op);
/// The same for a name not taken from an op (a spec, a command line).
[[nodiscard]] CoreOp core_op(std::string_view name);
/// The op's full name (`core.add`, `math.sqrt`); empty for Other. For messages
/// and for building ops, so no consumer spells the name itself.
[[nodiscard]] std::string_view core_op_name(CoreOp op);

/// Whether `op` is of the math dialect: lowered as a float function.
[[nodiscard]] constexpr bool is_math(CoreOp op) { return op >= CoreOp::MathSqrt && op <= CoreOp::MathPow; }
/// add, sub, mul, div, mod and neg: the ops whose integer form carries
/// `overflow` (and, dividing, `rounding`), which backends lower together.
[[nodiscard]] constexpr bool is_arith(CoreOp op) { return op >= CoreOp::Add && op <= CoreOp::Neg; }
/// The ops that end a block (docs/ir.md, "Structure").
[[nodiscard]] constexpr bool is_terminator(CoreOp op) {
  return op == CoreOp::Br || op == CoreOp::CondBr || op == CoreOp::Ret || op == CoreOp::Unreachable;
}
/// buffer_data, buffer_len, buffer_load, buffer_store: a list's storage, which
/// device code may not touch (docs/ir.md, "The gpu dialect").
[[nodiscard]] constexpr bool is_buffer(CoreOp op) { return op >= CoreOp::BufferData && op <= CoreOp::BufferStore; }

// ---- Typed attribute reads ---------------------------------------------------------

/// Attribute `key` of `op` when it holds a `T` (bool, int64_t, double,
/// std::string, SymbolRef, Type), else null: one call instead of attr + is + as.
template <class T>
[[nodiscard]] const T* attr_if(const Operation& op, std::string_view key) {
  const Attribute* a = op.attr(key);
  return a ? std::get_if<T>(&a->storage()) : nullptr;
}

/// Attribute `key` of `op` when it holds a `T`, else `fallback`: for optional
/// attributes whose absence has a meaning (`count` 1, `capture_status` false).
template <class T>
[[nodiscard]] T attr_or(const Operation& op, std::string_view key, T fallback) {
  const T* v = attr_if<T>(op, key);
  return v ? *v : fallback;
}

/// The function a `core.call` (or `gpu.launch`) names by `@callee`, or null.
[[nodiscard]] const std::string* call_callee(const Operation& op);
/// The C symbol a `core.call_extern` names by its string `callee`, or null.
[[nodiscard]] const std::string* extern_callee(const Operation& op);
/// Whether a `core.call` carries `capture_status = true`: its last result is
/// the callee's status instead of the program ending when it raises.
[[nodiscard]] bool captures_status(const Operation& op);
/// The `value` of a `core.const` (null for any other op).
[[nodiscard]] const Attribute* const_value(const Operation& op);
/// The integer `v` holds when a `core.const` with an int value defines it:
/// what folds and cheap checks (a divisor other than -1) ask of an operand.
[[nodiscard]] std::optional<int64_t> int_constant(const Value* v);

// ---- Integer arithmetic: overflow and rounding ---------------------------------

/// An integer op's `overflow` attribute (docs/ir.md, "Constants and arithmetic").
/// Python and Checked raise OverflowError when the result does not fit; Wrap
/// wraps; Proven is the compiler's promise that it cannot overflow. Absent:
/// the op has no attribute, which float ops, shifts, casts and index arithmetic
/// may (what that means is the op's: each consumer says). Unknown: a value the
/// verifier refuses (not a string, or another word), kept apart so a consumer
/// can refuse it rather than guess.
enum class Overflow : uint8_t { Python, Checked, Wrap, Proven, Absent, Unknown };

/// The overflow mode spelled `s`, or nullopt for a word that is not one.
[[nodiscard]] std::optional<Overflow> parse_overflow(std::string_view s);
/// The attribute's spelling (`"python"`, ...); empty for Absent and Unknown.
/// What a pass writes when it changes the mode (`proven`).
[[nodiscard]] std::string_view overflow_name(Overflow o);
/// The four spellings, for the verifier's list of allowed values.
[[nodiscard]] absl::Span<const std::string_view> overflow_names();
/// The op's overflow mode.
[[nodiscard]] Overflow overflow_of(const Operation& op);
/// Whether an overflowing result raises OverflowError rather than wrapping.
[[nodiscard]] constexpr bool raises(Overflow o) { return o == Overflow::Python || o == Overflow::Checked; }
/// `raises(overflow_of(op))`: the question most consumers ask.
[[nodiscard]] inline bool raises_on_overflow(const Operation& op) { return raises(overflow_of(op)); }

/// `rounding` of core.div / core.mod (docs/ir.md). Floor is Python's `//` and
/// `%` (the remainder takes the divisor's sign); Trunc is C's. None: absent,
/// which on floats is true division (integer ops always carry one). Unknown:
/// a value the verifier refuses.
enum class Rounding : uint8_t { Trunc, Floor, None, Unknown };

/// The rounding spelled `s`, or nullopt.
[[nodiscard]] std::optional<Rounding> parse_rounding(std::string_view s);
/// `"floor"` or `"trunc"`; empty for None and Unknown.
[[nodiscard]] std::string_view rounding_name(Rounding r);
/// The two spellings, for the verifier.
[[nodiscard]] absl::Span<const std::string_view> rounding_names();
/// The op's rounding.
[[nodiscard]] Rounding rounding_of(const Operation& op);

// ---- Comparisons -----------------------------------------------------------------

/// `predicate` of core.cmp, in the spec's order.
enum class Predicate : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// The predicate spelled `s`, or nullopt.
[[nodiscard]] std::optional<Predicate> parse_predicate(std::string_view s);
/// `"eq"`, `"ne"`, ...: how a backend that spells predicates in words names them.
[[nodiscard]] std::string_view predicate_name(Predicate p);
/// The predicate of a core.cmp, or nullopt when it has none (or an unknown one).
[[nodiscard]] std::optional<Predicate> predicate_of(const Operation& op);
/// The predicate that holds exactly when `p` does not on integers (`lt` -> `ge`):
/// a backend writes a negated comparison as the opposite one. Not for floats,
/// where NaN makes both false.
[[nodiscard]] Predicate negated(Predicate p);

// ---- Guards ----------------------------------------------------------------------

/// `kind` of core.guard (docs/runtime.md, "Guards"): which Python exception a
/// failed guard raises. Unknown: absent or a word the verifier refuses; it
/// raises RuntimeError, so a bad module still ends the program.
enum class GuardKind : uint8_t { Overflow, Bounds, ZeroDivision, Range, Contract, Assert, Unknown };

/// The kind spelled `s`, or nullopt.
[[nodiscard]] std::optional<GuardKind> parse_guard_kind(std::string_view s);
/// `"overflow"`, `"zero_division"`, ...; empty for Unknown. What the frontend
/// writes and the stablehlo backend's status codes key on.
[[nodiscard]] std::string_view guard_kind_name(GuardKind k);
/// The six spellings, for the verifier.
[[nodiscard]] absl::Span<const std::string_view> guard_kind_names();

/// What a failed guard raises: the Python exception's name and the message
/// printed after it (`<exception>: <message>`, or the name alone when empty).
struct GuardException {
  std::string_view exception;
  std::string_view message;
  bool operator==(const GuardException&) const = default;
};

/// The exception and default message of each kind: the only table of them, so
/// every road prints the same line for the same guard.
[[nodiscard]] GuardException guard_exception(GuardKind k);
/// The guard op's kind.
[[nodiscard]] GuardKind guard_kind(const Operation& op);
/// What the guard op raises: its kind's exception, with its `message` when it
/// has one. The views live as long as the op (or forever, for the defaults).
[[nodiscard]] GuardException guard_exception(const Operation& op);

}  // namespace ppy::ir
