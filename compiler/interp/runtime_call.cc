// Runtime calls, driven by the runtime ABI table (ppy/runtime/abi.def): the
// callee's entry gives its signature, one symbol table built from the same
// .def gives its address, and a thunk chosen by the signature's shape calls it.
// A function added to abi.def and the runtime runs here with no change.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "internal.h"
#include "ppy/ir/core_ops.h"
#include "ppy/ir/text.h"
#include "ppy/runtime/abi.h"
#include "ppy/util/str_cat.h"
#include "ppy_dict.h"
#include "ppy_obj.h"
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "ppy_math.h"
#include "ppy_num.h"
#include "ppy_str_more.h"
#include "ppy_unicode.h"
#include "ppy_vformat.h"

namespace ppy::interp::detail {
namespace {

using runtime::AbiClass;

/// The most C arguments a runtime call passes (a `text` function's bytes and
/// length count): the slices take five.
constexpr int kMaxArgs = 6;

/// A runtime function's address by symbol: every entry of abi.def, so a
/// function the table lists and the runtime lacks does not link.
const absl::flat_hash_map<std::string_view, void*>& addresses() {
  static const auto* table = new absl::flat_hash_map<std::string_view, void*>{
#define PPY_RUNTIME_FUNCTION(symbol, result, params, flags, python) {#symbol, reinterpret_cast<void*>(&symbol)},
#include "ppy/runtime/abi.def"
#undef PPY_RUNTIME_FUNCTION
  };
  return *table;
}

/// Argument `I` of a call whose doubles are the bits of `Mask`: the C calling
/// conventions pass words (int64_t, int32_t, pointers) and doubles in separate
/// registers, so a word is all a pointer, an i64 or a bool needs.
template <unsigned Mask, size_t I>
auto argument(const Slot* a) {
  if constexpr (((Mask >> I) & 1u) != 0)
    return a[I].f;
  else
    return a[I].i;
}

inline void store(Slot& out, int64_t v) { out.i = v; }
inline void store(Slot& out, int32_t v) { out.i = v; }  // a bool: 0 or 1
inline void store(Slot& out, double v) { out.f = v; }
inline void store(Slot& out, void* v) { out.p = static_cast<Slot*>(v); }

/// Calls `fn` as `R fn(A0, ..., A(N-1))`, each A a double where `Mask` has its
/// bit and an int64_t elsewhere.
template <class R, int N, unsigned Mask>
void thunk(void* fn, const Slot* a, Slot& out) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    using Fn = R (*)(std::conditional_t<((Mask >> I) & 1u) != 0, double, int64_t>...);
    Fn f = reinterpret_cast<Fn>(fn);
    if constexpr (std::is_void_v<R>)
      f(argument<Mask, I>(a)...);
    else
      store(out, f(argument<Mask, I>(a)...));
  }
  (std::make_index_sequence<N>{});
}

/// Shapes are numbered by arity, then by the mask of doubles: shape
/// 2^n - 1 + mask has n arguments.
constexpr size_t kShapes = (size_t{1} << (kMaxArgs + 1)) - 1;
constexpr size_t shape(int n, unsigned mask) { return (size_t{1} << n) - 1 + mask; }
constexpr int arity_of(size_t k) {
  int n = 0;
  while ((size_t{2} << n) - 1 <= k) ++n;
  return n;
}
constexpr unsigned mask_of(size_t k) { return static_cast<unsigned>(k + 1 - (size_t{1} << arity_of(k))); }

template <class R, size_t... K>
constexpr std::array<Thunk, kShapes> thunks_returning(std::index_sequence<K...>) {
  return {&thunk<R, arity_of(K), mask_of(K)>...};
}

/// The thunk of every shape, for a result of class `result`.
Thunk thunk_for(AbiClass result, size_t k) {
  constexpr auto seq = std::make_index_sequence<kShapes>{};
  static constexpr std::array<Thunk, kShapes> kVoid = thunks_returning<void>(seq);
  static constexpr std::array<Thunk, kShapes> kInt = thunks_returning<int64_t>(seq);
  static constexpr std::array<Thunk, kShapes> kBool = thunks_returning<int32_t>(seq);
  static constexpr std::array<Thunk, kShapes> kDouble = thunks_returning<double>(seq);
  static constexpr std::array<Thunk, kShapes> kPointer = thunks_returning<void*>(seq);
  switch (result) {
    case AbiClass::kVoid:
      return kVoid[k];
    case AbiClass::kInt:
      return kInt[k];
    case AbiClass::kBool:
      return kBool[k];
    case AbiClass::kDouble:
      return kDouble[k];
    case AbiClass::kPointer:
      return kPointer[k];
  }
  return nullptr;
}

/// ppy_print_f64 as the interpreter prints a float: the same text (Python's
/// repr, as ir::format_float spells it) found with std::to_chars, many times
/// faster than the runtime's search over snprintf, and written through the
/// runtime so it keeps its place among the other prints.
void print_f64_shortest(double v) {
  std::string text = ir::format_float(v);
  ppy_print_str(text.data(), static_cast<int64_t>(text.size()));
}

/// ppy_list_root registers a module global as a root of the collector: the
/// interpreter's globals are memory the collector scans already (and a root
/// registered per run would pile up).
void root_scanned_already(void*) {}
void words_scanned_already(void*, int64_t) {}

static_assert(std::is_same_v<decltype(&print_f64_shortest), decltype(&ppy_print_f64)>);
static_assert(std::is_same_v<decltype(&root_scanned_already), decltype(&ppy_list_root)>);
static_assert(std::is_same_v<decltype(&words_scanned_already), decltype(&ppy_list_root_words)>);

/// The runtime functions the interpreter supplies itself, each with its
/// entry's C prototype: they are called by the same thunks as the runtime's.
void* own_implementation(std::string_view symbol) {
  if (symbol == "ppy_print_f64") return reinterpret_cast<void*>(&print_f64_shortest);
  if (symbol == "ppy_list_root") return reinterpret_cast<void*>(&root_scanned_already);
  if (symbol == "ppy_list_root_words") return reinterpret_cast<void*>(&words_scanned_already);
  return nullptr;
}

/// The callee an extern call names, for a message: a string, or a @symbol written by mistake.
std::string callee_name(const ir::Operation& op) {
  if (const std::string* c = ir::extern_callee(op)) return *c;
  if (const std::string* c = ir::call_callee(op)) return *c;
  return "";
}

}  // namespace

std::string bind_runtime_call(const ir::Operation& op, RuntimeCall& call) {
  const runtime::RuntimeFunction* fn = runtime::runtime_callee(op);
  if (const std::string* library = ir::attr_if<std::string>(op, "library"); !fn && library)  // plugins (issue 36)
    return ppy::str_cat("error[E1802]: the interpreter cannot call the symbol '", callee_name(op),
                        "' of the native library '", *library, "' (native code); `ppy run` without --interp can");
  if (!fn) return ppy::str_cat("unknown runtime function '", callee_name(op), "'");
  if (absl::Status s = runtime::check_runtime_call(*fn, op); !s.ok()) return std::string(s.message());
  auto address = addresses().find(fn->symbol);
  if (address == addresses().end()) return ppy::str_cat("the runtime function '", fn->symbol, "' has no address");
  int n = fn->has(runtime::kText) ? 2 : 0;  // the text's bytes and length: words
  unsigned mask = 0;
  for (size_t i = 0; i < fn->params.size(); ++i, ++n) {
    if (n >= kMaxArgs)
      return ppy::str_cat("the runtime function '", fn->symbol, "' takes more than ", kMaxArgs,
                          " C arguments, more than the interpreter passes");
    if (fn->param_class(i) == AbiClass::kDouble) mask |= 1u << n;
  }
  call.thunk = thunk_for(fn->result_class(), shape(n, mask));
  void* own = own_implementation(fn->symbol);
  call.fn = own ? own : address->second;
  call.nargs = static_cast<int32_t>(fn->params.size());
  call.text = fn->has(runtime::kText) ? 0 : -1;
  return "";
}

void call_runtime(const Code& code, const RuntimeCall& call, const Slot* r, Slot& out) {
  Slot args[kMaxArgs];
  int n = 0;
  if (call.text >= 0) {
    const std::string& text = code.strings[static_cast<size_t>(call.text)];
    args[n++].i = static_cast<int64_t>(reinterpret_cast<intptr_t>(text.data()));
    args[n++].i = static_cast<int64_t>(text.size());
  }
  const int32_t* src = code.srcs.data() + call.args_begin;
  for (int32_t k = 0; k < call.nargs; ++k) args[n++] = r[src[k]];
  call.thunk(call.fn, args, out);
}

}  // namespace ppy::interp::detail
