#pragma once
/// The runtime ABI as data: every function of the native runtime that
/// `core.call_extern {abi = "c"}` may name, with its signature in IR types,
/// what a backend may assume of it and the Python backend's spelling of it.
///
/// One table (ppy/runtime/abi.def) feeds the interpreter, the C, LLVM and
/// Python backends, the docs and an out-of-tree backend alike, so a runtime
/// function is declared once; `runtime_abi_test` holds it against the C
/// prototypes and docs/runtime.md.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ppy/ir/types.h"

namespace ppy::ir {
class Operation;
}

namespace ppy::runtime {

/// What a backend may assume of a runtime function, or must provide for it.
enum RuntimeFlag : uint32_t {
  kCollector = 1u << 0,  ///< needs the collector: the runtime's collected part and libgc
  kAllocates = 1u << 1,  ///< may allocate on the collector
  kRaises = 1u << 2,     ///< may raise a Python exception
  kNoReturn = 1u << 3,   ///< always raises
  kPure = 1u << 4,       ///< no effect but its result: a pass may merge or drop calls
  kReadOnly = 1u << 5,   ///< reads what its operands reach, writes nothing
  kText = 1u << 6,       ///< takes the op's `text` attribute as (bytes, length) in C
};

/// How a value crosses the C ABI: the only distinction a caller by signature
/// (the interpreter, a JIT thunk) needs.
enum class AbiClass : uint8_t {
  kVoid,    ///< no result
  kInt,     ///< int64_t (i64, index)
  kBool,    ///< int32_t holding 0 or 1 (bool)
  kDouble,  ///< double (f64)
  kPointer  ///< a pointer: a handle, a list, a slot
};

/// One entry of abi.def.
struct RuntimeFunction {
  std::string_view symbol;
  /// The result's IR type pattern (`?` any one type, `handle` any traced
  /// reference), or empty: none.
  std::string_view result;
  /// The operands' IR type patterns, in order.
  std::vector<std::string_view> params;
  uint32_t flags = 0;
  /// The Python backend's template (abi.def says its syntax).
  std::string_view python;

  bool has(RuntimeFlag f) const { return (flags & f) != 0; }
  AbiClass result_class() const;
  AbiClass param_class(size_t i) const;
};

/// Every entry, in abi.def's order.
std::span<const RuntimeFunction> runtime_functions();

/// The entry for `symbol`, or null: not a runtime function.
const RuntimeFunction* find_runtime_function(std::string_view symbol);

/// Whether IR type `t` matches `pattern` (abi.def's spelling).
bool type_matches(std::string_view pattern, const ir::Type& t);

/// The ABI class of a type pattern.
AbiClass abi_class(std::string_view pattern);

/// The class's C spelling: `void`, `int64_t`, `int32_t`, `double`, `void*` (a
/// backend writing C or C prototypes may spell a pointer more precisely).
std::string_view c_type(AbiClass c);

/// Checks a `core.call_extern` of a runtime function against its entry: the
/// number and types of operands and results. The verifier and every backend
/// refuse a call the table does not allow, with this message.
[[nodiscard]] absl::Status check_runtime_call(const RuntimeFunction& fn, const ir::Operation& op);

/// The `core.call_extern` callee of `op` when it names a runtime function's
/// entry, else null.
const RuntimeFunction* runtime_callee(const ir::Operation& op);

}  // namespace ppy::runtime
