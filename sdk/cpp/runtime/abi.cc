#include "ppy/runtime/abi.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "ppy/ir/ir.h"
#include "ppy/util/str_cat.h"

namespace ppy::runtime {
namespace {

std::vector<std::string_view> split_params(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    // Split at a top-level comma: `buffer<?>, i64`.
    size_t depth = 0, i = 0;
    for (; i < s.size(); ++i) {
      if (s[i] == '<') ++depth;
      if (s[i] == '>') --depth;
      if (s[i] == ',' && depth == 0) break;
    }
    std::string_view p = s.substr(0, i);
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
    out.push_back(p);
    s = i < s.size() ? s.substr(i + 1) : std::string_view();
  }
  return out;
}

std::vector<RuntimeFunction> make_table() {
  enum : uint32_t {
    COLLECTOR = kCollector,
    ALLOCATES = kAllocates,
    RAISES = kRaises,
    NORETURN = kNoReturn,
    PURE = kPure,
    READONLY = kReadOnly,
    TEXT = kText,
  };
  std::vector<RuntimeFunction> t;
#define PPY_RUNTIME_FUNCTION(symbol, result, params, flags, python) \
  t.push_back(RuntimeFunction{#symbol, result, split_params(params), static_cast<uint32_t>(flags), python});
#include "ppy/runtime/abi.def"
#undef PPY_RUNTIME_FUNCTION
  return t;
}

const std::vector<RuntimeFunction>& table() {
  static const std::vector<RuntimeFunction> t = make_table();
  return t;
}

/// `pattern`'s inner pattern when it is `head<inner>`.
bool unwrap(std::string_view pattern, std::string_view head, std::string_view& inner) {
  if (!pattern.starts_with(head) || pattern.size() < head.size() + 2 || pattern[head.size()] != '<' ||
      pattern.back() != '>')
    return false;
  inner = pattern.substr(head.size() + 1, pattern.size() - head.size() - 2);
  return true;
}

}  // namespace

std::span<const RuntimeFunction> runtime_functions() { return table(); }

const RuntimeFunction* find_runtime_function(std::string_view symbol) {
  static const auto* index = [] {
    auto* m = new absl::flat_hash_map<std::string_view, const RuntimeFunction*>();
    for (const RuntimeFunction& f : table()) m->emplace(f.symbol, &f);
    return m;
  }();
  auto it = index->find(symbol);
  return it == index->end() ? nullptr : it->second;
}

bool type_matches(std::string_view pattern, const ir::Type& t) {
  if (!t) return false;
  if (pattern == "?") return true;
  if (pattern == "handle") return t.is_ptr() || t.kind() == ir::TypeKind::Buffer;
  if (pattern == "i64") return t.kind() == ir::TypeKind::I64;
  if (pattern == "index") return t.kind() == ir::TypeKind::Index;
  if (pattern == "f64") return t.kind() == ir::TypeKind::F64;
  if (pattern == "bool") return t.is_bool();
  std::string_view inner;
  if (unwrap(pattern, "buffer", inner)) return t.kind() == ir::TypeKind::Buffer && type_matches(inner, t.elem());
  if (unwrap(pattern, "ptr", inner)) return t.is_ptr() && type_matches(inner, t.elem());
  return t.str() == pattern;
}

AbiClass abi_class(std::string_view pattern) {
  if (pattern.empty()) return AbiClass::kVoid;
  if (pattern == "i64" || pattern == "index") return AbiClass::kInt;
  if (pattern == "f64") return AbiClass::kDouble;
  if (pattern == "bool") return AbiClass::kBool;
  return AbiClass::kPointer;
}

std::string_view c_type(AbiClass c) {
  switch (c) {
    case AbiClass::kVoid:
      return "void";
    case AbiClass::kInt:
      return "int64_t";
    case AbiClass::kBool:
      return "int32_t";
    case AbiClass::kDouble:
      return "double";
    case AbiClass::kPointer:
      break;
  }
  return "void*";
}

AbiClass RuntimeFunction::result_class() const { return abi_class(result); }
AbiClass RuntimeFunction::param_class(size_t i) const { return abi_class(params.at(i)); }

absl::Status check_runtime_call(const RuntimeFunction& fn, const ir::Operation& op) {
  if (op.num_operands() != fn.params.size())
    return absl::InvalidArgumentError(str_cat("the runtime function '", fn.symbol, "' takes ", fn.params.size(),
                                              " operand(s), not ", op.num_operands()));
  for (size_t i = 0; i < fn.params.size(); ++i)
    if (!type_matches(fn.params[i], op.operand(i)->type()))
      return absl::InvalidArgumentError(str_cat("operand ", i, " of the runtime function '", fn.symbol, "' is ",
                                                op.operand(i)->type().str(), ", not ", fn.params[i]));
  size_t want = fn.result.empty() ? 0 : 1;
  if (op.num_results() != want)
    return absl::InvalidArgumentError(
        str_cat("the runtime function '", fn.symbol, "' has ", want, " result(s), not ", op.num_results()));
  if (want && !type_matches(fn.result, op.result(0)->type()))
    return absl::InvalidArgumentError(str_cat("the result of the runtime function '", fn.symbol, "' is ",
                                              op.result(0)->type().str(), ", not ", fn.result));
  return absl::OkStatus();
}

const RuntimeFunction* runtime_callee(const ir::Operation& op) {
  if (op.name() != "core.call_extern") return nullptr;
  const ir::Attribute* c = op.attr("callee");
  if (!c) return nullptr;
  if (c->is<std::string>()) return find_runtime_function(c->as_string());
  if (c->is<ir::SymbolRef>()) return find_runtime_function(c->as_symbol().name);
  return nullptr;
}

}  // namespace ppy::runtime
