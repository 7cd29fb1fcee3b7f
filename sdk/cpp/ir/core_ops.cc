// The meaning of core and math ops (ppy/ir/core_ops.h): the op table keyed on
// interned names, and the spellings of overflow, rounding, predicates and guards.
#include "ppy/ir/core_ops.h"

#include <array>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace ppy::ir {
namespace {

/// Each op and its name, in CoreOp's order (Other first, unnamed).
constexpr std::pair<CoreOp, std::string_view> kOps[] = {
    {CoreOp::Other, ""},
    {CoreOp::Const, "core.const"},
    {CoreOp::Add, "core.add"},
    {CoreOp::Sub, "core.sub"},
    {CoreOp::Mul, "core.mul"},
    {CoreOp::Div, "core.div"},
    {CoreOp::Mod, "core.mod"},
    {CoreOp::Neg, "core.neg"},
    {CoreOp::And, "core.and"},
    {CoreOp::Or, "core.or"},
    {CoreOp::Xor, "core.xor"},
    {CoreOp::Shl, "core.shl"},
    {CoreOp::Shr, "core.shr"},
    {CoreOp::Cmp, "core.cmp"},
    {CoreOp::Select, "core.select"},
    {CoreOp::Cast, "core.cast"},
    {CoreOp::Br, "core.br"},
    {CoreOp::CondBr, "core.cond_br"},
    {CoreOp::Ret, "core.ret"},
    {CoreOp::Unreachable, "core.unreachable"},
    {CoreOp::Guard, "core.guard"},
    {CoreOp::Alloca, "core.alloca"},
    {CoreOp::Load, "core.load"},
    {CoreOp::Store, "core.store"},
    {CoreOp::PtrOffset, "core.ptr_offset"},
    {CoreOp::BufferData, "core.buffer_data"},
    {CoreOp::BufferLen, "core.buffer_len"},
    {CoreOp::BufferLoad, "core.buffer_load"},
    {CoreOp::BufferStore, "core.buffer_store"},
    {CoreOp::TupleMake, "core.tuple_make"},
    {CoreOp::TupleExtract, "core.tuple_extract"},
    {CoreOp::StructMake, "core.struct_make"},
    {CoreOp::StructExtract, "core.struct_extract"},
    {CoreOp::Call, "core.call"},
    {CoreOp::CallExtern, "core.call_extern"},
    {CoreOp::CallIntrinsic, "core.call_intrinsic"},
    {CoreOp::FuncRef, "core.func_ref"},
    {CoreOp::CallIndirect, "core.call_indirect"},
    {CoreOp::MathSqrt, "math.sqrt"},
    {CoreOp::MathSin, "math.sin"},
    {CoreOp::MathCos, "math.cos"},
    {CoreOp::MathTan, "math.tan"},
    {CoreOp::MathExp, "math.exp"},
    {CoreOp::MathExp2, "math.exp2"},
    {CoreOp::MathLog, "math.log"},
    {CoreOp::MathLog2, "math.log2"},
    {CoreOp::MathLog10, "math.log10"},
    {CoreOp::MathFloor, "math.floor"},
    {CoreOp::MathCeil, "math.ceil"},
    {CoreOp::MathTrunc, "math.trunc"},
    {CoreOp::MathAbs, "math.abs"},
    {CoreOp::MathPow, "math.pow"},
};

constexpr bool ops_in_order() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (static_cast<size_t>(kOps[i].first) != i) return false;
  return true;
}
static_assert(ops_in_order(), "kOps follows CoreOp's order");
static_assert(kOps[std::size(kOps) - 1].first == CoreOp::MathPow, "kOps names every CoreOp");

/// Interned name to op, built once: ops carry interned names, so a look-up
/// hashes a pointer.
const absl::flat_hash_map<const std::string*, CoreOp>& ops_by_name() {
  static const auto* table = [] {
    auto* t = new absl::flat_hash_map<const std::string*, CoreOp>();
    for (size_t i = 1; i < std::size(kOps); ++i) t->emplace(intern(kOps[i].second), kOps[i].first);
    return t;
  }();
  return *table;
}

constexpr std::string_view kOverflowNames[] = {"python", "checked", "wrap", "proven"};
constexpr std::string_view kRoundingNames[] = {"trunc", "floor"};
constexpr std::string_view kPredicateNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};
constexpr std::string_view kGuardKindNames[] = {"overflow", "bounds", "zero_division", "range", "contract", "assert"};

/// docs/runtime.md, "Guards", in GuardKind's order; the last is Unknown's.
constexpr GuardException kGuardExceptions[] = {
    {"OverflowError", "integer overflow"},
    {"IndexError", "list index out of range"},
    {"ZeroDivisionError", "division by zero"},
    {"ValueError", "math range error"},
    {"AssertionError", ""},
    {"AssertionError", ""},
    {"RuntimeError", "guard failed"},
};
static_assert(std::size(kGuardExceptions) == static_cast<size_t>(GuardKind::Unknown) + 1);

/// The index of `s` in `names`, or -1.
int index_of(absl::Span<const std::string_view> names, std::string_view s) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

/// Parses string attribute `key` by `names` (whose order is the enum's):
/// `absent` when missing, `unknown` when not a string or not among them.
template <class E>
E parse_attr(const Operation& op, std::string_view key, absl::Span<const std::string_view> names, E absent, E unknown) {
  const Attribute* a = op.attr(key);
  if (!a) return absent;
  if (!a->is<std::string>()) return unknown;
  int i = index_of(names, a->as_string());
  return i < 0 ? unknown : static_cast<E>(i);
}

}  // namespace

CoreOp core_op(const Operation& op) {
  const auto& table = ops_by_name();
  auto it = table.find(&op.name());
  return it == table.end() ? CoreOp::Other : it->second;
}

CoreOp core_op(std::string_view name) {
  if (!name.starts_with("core.") && !name.starts_with("math.")) return CoreOp::Other;
  for (size_t i = 1; i < std::size(kOps); ++i)
    if (kOps[i].second == name) return kOps[i].first;
  return CoreOp::Other;
}

std::string_view core_op_name(CoreOp op) {
  size_t i = static_cast<size_t>(op);
  return i < std::size(kOps) ? kOps[i].second : std::string_view();
}

const std::string* call_callee(const Operation& op) {
  const SymbolRef* s = attr_if<SymbolRef>(op, "callee");
  return s ? &s->name : nullptr;
}

const std::string* extern_callee(const Operation& op) { return attr_if<std::string>(op, "callee"); }

bool captures_status(const Operation& op) { return attr_or<bool>(op, "capture_status", false); }

const Attribute* const_value(const Operation& op) { return core_op(op) == CoreOp::Const ? op.attr("value") : nullptr; }

std::optional<int64_t> int_constant(const Value* v) {
  const Operation* d = v ? v->def() : nullptr;
  if (!d) return std::nullopt;
  const Attribute* a = const_value(*d);
  if (!a || !a->is<int64_t>()) return std::nullopt;
  return a->as_int();
}

std::optional<Overflow> parse_overflow(std::string_view s) {
  int i = index_of(kOverflowNames, s);
  return i < 0 ? std::nullopt : std::optional<Overflow>(static_cast<Overflow>(i));
}

std::string_view overflow_name(Overflow o) {
  size_t i = static_cast<size_t>(o);
  return i < std::size(kOverflowNames) ? kOverflowNames[i] : std::string_view();
}

absl::Span<const std::string_view> overflow_names() { return kOverflowNames; }

Overflow overflow_of(const Operation& op) {
  return parse_attr(op, "overflow", kOverflowNames, Overflow::Absent, Overflow::Unknown);
}

std::optional<Rounding> parse_rounding(std::string_view s) {
  int i = index_of(kRoundingNames, s);
  return i < 0 ? std::nullopt : std::optional<Rounding>(static_cast<Rounding>(i));
}

std::string_view rounding_name(Rounding r) {
  size_t i = static_cast<size_t>(r);
  return i < std::size(kRoundingNames) ? kRoundingNames[i] : std::string_view();
}

absl::Span<const std::string_view> rounding_names() {
  // The verifier lists them as docs/ir.md does: floor first.
  static constexpr std::string_view kDocOrder[] = {"floor", "trunc"};
  return kDocOrder;
}

Rounding rounding_of(const Operation& op) {
  return parse_attr(op, "rounding", kRoundingNames, Rounding::None, Rounding::Unknown);
}

std::optional<Predicate> parse_predicate(std::string_view s) {
  int i = index_of(kPredicateNames, s);
  return i < 0 ? std::nullopt : std::optional<Predicate>(static_cast<Predicate>(i));
}

std::string_view predicate_name(Predicate p) { return kPredicateNames[static_cast<size_t>(p)]; }

Predicate negated(Predicate p) {
  constexpr Predicate kNegated[] = {Predicate::Ne, Predicate::Eq, Predicate::Ge,
                                    Predicate::Gt, Predicate::Le, Predicate::Lt};
  return kNegated[static_cast<size_t>(p)];
}

std::optional<Predicate> predicate_of(const Operation& op) {
  const std::string* s = attr_if<std::string>(op, "predicate");
  return s ? parse_predicate(*s) : std::nullopt;
}

std::optional<GuardKind> parse_guard_kind(std::string_view s) {
  int i = index_of(kGuardKindNames, s);
  return i < 0 ? std::nullopt : std::optional<GuardKind>(static_cast<GuardKind>(i));
}

std::string_view guard_kind_name(GuardKind k) {
  size_t i = static_cast<size_t>(k);
  return i < std::size(kGuardKindNames) ? kGuardKindNames[i] : std::string_view();
}

absl::Span<const std::string_view> guard_kind_names() { return kGuardKindNames; }

GuardException guard_exception(GuardKind k) { return kGuardExceptions[static_cast<size_t>(k)]; }

GuardKind guard_kind(const Operation& op) {
  return parse_attr(op, "kind", kGuardKindNames, GuardKind::Unknown, GuardKind::Unknown);
}

GuardException guard_exception(const Operation& op) {
  GuardException e = guard_exception(guard_kind(op));
  if (const std::string* m = attr_if<std::string>(op, "message")) e.message = *m;
  return e;
}

}  // namespace ppy::ir
