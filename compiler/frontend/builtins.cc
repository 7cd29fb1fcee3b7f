#include "builtins.h"

#include <cstdint>
#include <map>
#include <stdexcept>

#include "types.h"

namespace ppy::frontend {
namespace {

BuiltinType parse_type(std::string_view s) {
  BuiltinType t;
  if (size_t eq = s.find('='); eq != std::string_view::npos) {  // an optional parameter and its default
    t = parse_type(s.substr(0, eq));
    std::string_view d = s.substr(eq + 1);
    t.optional = true;
    if (d == "MAX") t.int_default = INT64_MAX;
    else if (d.size() >= 2 && d.front() == '\'' && d.back() == '\'') t.str_default = d.substr(1, d.size() - 2);
    else if (t.ty == Ty::Float) t.float_default = std::stod(std::string(d));
    else t.int_default = std::stoll(std::string(d));
    return t;
  }
  if (s.starts_with("tuple[") && s.ends_with("]")) {
    std::vector<Ty> elems;
    for (std::string_view rest = s.substr(6, s.size() - 7); !rest.empty();) {
      size_t comma = rest.find(", ");
      elems.push_back(parse_type(rest.substr(0, comma)).ty);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    }
    t.ty = tuple_of(elems);
    return t;
  }
  if (s.starts_with("list[") && s.ends_with("]")) {
    BuiltinType inner = parse_type(s.substr(5, s.size() - 6));
    t.kind = BuiltinType::ListOf;
    t.inner = inner.kind;
    t.ty = inner.ty;
    return t;
  }
  if (s == "T") t.kind = BuiltinType::Elem;
  else if (s == "K") t.kind = BuiltinType::Key;
  else if (s == "V") t.kind = BuiltinType::Value;
  else if (s == "str") t.ty = Ty::Str;
  else if (s == "int") t.ty = Ty::Int;
  else if (s == "float") t.ty = Ty::Float;
  else if (s == "bool") t.ty = Ty::Bool;
  else if (s == "None") t.ty = Ty::None;
  else throw std::logic_error("builtins.def: unknown type " + std::string(s));
  return t;
}

/// `(a, b, ...) -> r`.
BuiltinMethod parse(BuiltinId id, std::string_view receiver, std::string_view name, std::string_view sig,
                    std::string_view runtime) {
  BuiltinMethod m{id, receiver, name, {}, false, {}, runtime};
  size_t close = sig.find(')');
  std::string_view params = sig.substr(1, close - 1);
  while (!params.empty()) {
    size_t comma = params.find(", ");
    std::string_view p = params.substr(0, comma);
    if (p == "...") m.more = true;
    else m.params.push_back(parse_type(p));
    params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 2);
  }
  m.result = parse_type(sig.substr(sig.find("-> ") + 3));
  return m;
}

const std::vector<BuiltinMethod>& table() {
  static const std::vector<BuiltinMethod> t = [] {
    std::vector<BuiltinMethod> v{BuiltinMethod{}};  // None
#define PPY_BUILTIN_METHOD(id, receiver, name, signature, runtime) \
  v.push_back(parse(BuiltinId::id, receiver, name, signature, runtime));
#include "builtins.def"
#undef PPY_BUILTIN_METHOD
    return v;
  }();
  return t;
}

}  // namespace

const BuiltinMethod* find_builtin_method(std::string_view receiver, std::string_view name) {
  for (const BuiltinMethod& m : table())
    if (m.receiver == receiver && m.name == name) return &m;
  return nullptr;
}

const BuiltinMethod* find_builtin_method(std::string_view receiver, std::string_view name, size_t nargs) {
  for (const BuiltinMethod& m : table())
    if (m.receiver == receiver && m.name == name && required_params(m) <= nargs && nargs <= m.params.size()) return &m;
  return find_builtin_method(receiver, name);
}

bool affix_tuple(const BuiltinMethod& m, Ty t) {
  if (m.name != "startswith" && m.name != "endswith") return false;
  if (!is_tuple(t)) return false;
  for (Ty e : tuple_elems(t))
    if (e != Ty::Str) return false;
  return true;
}

size_t required_params(const BuiltinMethod& m) {
  size_t n = 0;
  for (const BuiltinType& p : m.params) n += !p.optional;
  return n;
}

const std::vector<BuiltinMethod>& builtin_methods() { return table(); }

const BuiltinMethod& builtin_method(BuiltinId id) { return table().at(static_cast<size_t>(id)); }

Ty resolve(const BuiltinType& t, Ty elem, Ty value) {
  auto one = [&](BuiltinType::Kind k, Ty fixed) {
    switch (k) {
      case BuiltinType::Elem:
      case BuiltinType::Key: return elem;
      case BuiltinType::Value: return value;
      default: return fixed;
    }
  };
  if (t.kind == BuiltinType::ListOf) return list_of(one(t.inner, t.ty));
  return one(t.kind, t.ty);
}

std::string builtin_runtime(const BuiltinMethod& m, std::string_view k, std::string_view v, bool with_default) {
  std::string s(m.runtime);
  if (!with_default)
    if (size_t at = s.find("_or_"); at != std::string::npos) s.erase(at, 3);
  if (size_t at = s.find("{k}"); at != std::string::npos) s.replace(at, 3, k);
  if (size_t at = s.find("{v}"); at != std::string::npos) s.replace(at, 3, v);
  return s;
}

}  // namespace ppy::frontend
