#include "ppy/ir/dialect.h"
#include "ppy/ir/open_dialect.h"

#include "ppy/util/str_cat.h"

namespace ppy::ir {

std::string Diagnostic::str() const {
  std::string out;
  if (!function.empty()) ppy::str_append(out, "function @", function);
  if (!block.empty()) ppy::str_append(out, out.empty() ? "" : ", ", "block ^", block);
  if (!op.empty()) ppy::str_append(out, out.empty() ? "" : ", ", "op ", op);
  if (loc) ppy::str_append(out, " at ", loc->str());
  if (!out.empty()) out += ": ";
  return out + message;
}

void DialectRegistry::add(Dialect d) {
  std::string name = d.name;
  dialects_.insert_or_assign(name, std::move(d));
  reindex();  // the specs of a replaced dialect moved
}

void DialectRegistry::reindex() {
  ops_.clear();
  for (auto& [_, dialect] : dialects_)
    for (auto& spec : dialect.ops) ops_[spec.name] = &spec;
}

const Dialect* DialectRegistry::dialect(std::string_view name) const {
  auto it = dialects_.find(name);
  return it == dialects_.end() ? nullptr : &it->second;
}

const OpSpec* DialectRegistry::op(std::string_view full_name) const {
  auto it = ops_.find(std::string(full_name));
  if (it != ops_.end()) return it->second;
  // An open dialect (a plugin's) takes every op under its name: `<dialect>.*`.
  size_t dot = full_name.find('.');
  if (dot == std::string_view::npos) return nullptr;
  it = ops_.find(str_cat(full_name.substr(0, dot), ".*"));
  return it == ops_.end() ? nullptr : it->second;
}

Dialect open_dialect(const std::string& name) {
  Dialect d;
  d.name = name;
  OpSpec any;
  any.name = str_cat(name, ".*");
  d.ops.push_back(std::move(any));
  return d;
}

DialectRegistry with_open_dialects(const DialectRegistry& base, const std::vector<std::string>& names) {
  DialectRegistry out = base;
  for (const std::string& name : names)
    if (!out.dialect(name)) out.add(open_dialect(name));
  return out;
}

bool is_open_dialect(const DialectRegistry& reg, std::string_view name) {
  const Dialect* d = reg.dialect(name);
  return d && d->ops.size() == 1 && d->ops[0].name == str_cat(name, ".*");
}

const DialectRegistry& DialectRegistry::builtin() {
  static const DialectRegistry* reg = [] {
    auto* r = new DialectRegistry;
    r->add(core_dialect());
    r->add(math_dialect());
    r->add(gpu_dialect());
    return r;
  }();
  return *reg;
}

}  // namespace ppy::ir
