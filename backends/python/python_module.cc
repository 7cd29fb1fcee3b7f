// The module: its Python names (functions, module variables, imports), its
// globals' initializers, the helpers it calls and its `__main__` guard.
#include <cmath>

#include "ppy/backends/python_backend.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "python_helpers.h"
#include "python_writer.h"

namespace ppy::backends {
namespace python {

absl::StatusOr<std::string> ModuleWriter::run() {
  // Python names of the module's functions, and the modules it calls into.
  // The module's own functions first (`module.f`): another module calls them by
  // that last part, so a method of the same name (`Class.__init__` beside the
  // module's code `__init__`, issue 32) must not take it.
  for (int pass = 0; pass < 2; ++pass)
    for (auto& f : m_.functions()) {
      if (f->is_declaration()) continue;
      std::string q = qualname(*f);
      bool own = q.size() > m_.name().size() && q.starts_with(m_.name() + ".") &&
                 q.find('.', m_.name().size() + 1) == std::string::npos;
      if (own != (pass == 0)) continue;
      std::string n = source::identifier(last_part(q));
      if (n.empty() || python_reserved().count(n) || used_names_.count(n)) n = source::identifier(f->name());
      while (used_names_.count(n)) n += "_";
      used_names_.insert(n);
      fn_names_[f->name()] = n;
    }
  for (auto& f : m_.functions()) {
    if (!f->is_declaration()) continue;
    std::string q = qualname(*f);
    size_t dot = q.rfind('.');
    if (dot == std::string::npos) continue;
    std::string mod = q.substr(0, dot);
    // A method of another module's class (`ppy.module`): that module's alias of its symbol (below).
    const ir::Attribute* home = f->attributes().get("ppy.module");
    if (home && home->is<std::string>()) mod = home->as_string();
    std::string alias = mod;
    std::string root = mod.substr(0, mod.find('.'));
    if (used_names_.count(root)) alias = "_ppy_mod_" + source::identifier(mod);
    imports_[mod] = alias;
    // As the defining module names it (generics: `heappush[int]` is `heappush_int_`).
    fn_names_[f->name()] =
        str_cat(alias, ".", source::identifier(home && home->is<std::string>() ? f->name() : last_part(q)));
  }
  // Python names of the module's mutable globals (module variables): the
  // source name where it is free, else the symbol's.
  for (auto& [name, g] : m_.globals()) {
    if (!g.is_mutable || !source::global_value_type(g.type)) continue;
    std::string n = name;
    std::string prefix = source::identifier(m_.name()) + "_";
    if (n.starts_with(prefix)) n = n.substr(prefix.size());
    n = source::identifier(n);
    if (n.empty() || python_reserved().count(n) || used_names_.count(n)) n = source::identifier(name);
    while (used_names_.count(n) || python_reserved().count(n)) n += "_";
    used_names_.insert(n);
    global_names_[name] = n;
  }
  std::string body;
  for (auto& f : m_.functions()) {
    if (f->is_declaration()) continue;
    PPY_ASSIGN_OR_RETURN(std::string text, function(*f));
    trace_function(*f, body.size() + 2);  // tracebacks (issue 34)
    str_append(body, "\n\n", text);
  }
  std::string helpers = helper_definitions(helpers_, &uses_math_);
  std::string out = str_cat("\"\"\"Module ", m_.name(), ", written by ppy's python backend from canonical IR.\"\"\"\n");
  bool any_import = uses_math_ || !imports_.empty();
  if (any_import) out += "\n";
  if (uses_math_) out += "import math\n";
  for (auto& [mod, alias] : imports_)
    out += alias == mod ? str_cat("import ", mod, "\n") : str_cat("import ", mod, " as ", alias, "\n");
  if (!m_.globals().empty()) {
    out += "\n";
    for (auto& [name, g] : m_.globals()) {
      if (!g.initializer) continue;
      if (auto it = global_names_.find(name); it != global_names_.end()) {
        str_append(out, it->second, " = ", attribute_literal(*g.initializer, g.type), "\n");
        continue;
      }
      std::string n = name;
      std::string prefix = source::identifier(m_.name()) + "_";
      if (n.starts_with(prefix)) n = n.substr(prefix.size());
      n = source::identifier(n);
      if (used_names_.count(n) || python_reserved().count(n)) continue;
      str_append(out, n, " = ", attribute_literal(*g.initializer, g.type), "\n");
    }
  }
  out += helpers;
  size_t body_at = out.size();
  out += body;
  // Each method by its symbol too, which another module importing its class calls (`ppy.module`).
  std::string aliases;
  for (auto& f : m_.functions()) {
    std::string q = qualname(*f);
    if (f->is_declaration() || !q.starts_with(m_.name() + ".") || q.find('.', m_.name().size() + 1) == std::string::npos)
      continue;
    std::string sym = source::identifier(f->name());
    if (auto it = fn_names_.find(f->name()); it != fn_names_.end() && it->second != sym && !used_names_.count(sym))
      str_append(aliases, sym, " = ", it->second, "\n");
  }
  if (!aliases.empty()) str_append(out, "\n\n", aliases);
  if (const ir::Function* main = entry()) {
    str_append(out, "\n\nif __name__ == \"__main__\":\n    ", fn_names_.at(main->name()), "()\n");
  }
  trace_module(out, body_at);
  return out;
}

std::string ModuleWriter::qualname(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? q->as_string() : f.name();
}

std::string ModuleWriter::last_part(const std::string& q) {
  size_t dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

const ir::Function* ModuleWriter::entry() const {
  for (const char* suffix : {".__main__", ".main"})
    for (auto& f : m_.functions())
      if (!f->is_declaration() && qualname(*f) == m_.name() + suffix && f->params().empty() && f->results().empty())
        return f.get();
  return nullptr;
}

std::string ModuleWriter::attribute_literal(const ir::Attribute& a, ir::Type t) {
  if (a.is<bool>()) return t.is_float() ? (a.as_bool() ? "1.0" : "0.0") : a.as_bool() ? "True" : "False";
  if (t.is_bool()) return (a.is<int64_t>() ? a.as_int() != 0 : a.is<double>() && a.as_float() != 0) ? "True" : "False";
  if (t.is_float())
    return float_literal(a.is<double>() ? a.as_float() : a.is<int64_t>() ? static_cast<double>(a.as_int()) : 0.0).text;
  if (a.is<int64_t>()) return std::to_string(a.as_int());
  if (a.is<double>()) return std::to_string(static_cast<int64_t>(a.as_float()));
  return "None";
}

Expr ModuleWriter::float_literal(double d) {
  if (std::isnan(d)) {
    uses_math_ = true;
    return {"math.nan", kAtom};
  }
  if (std::isinf(d)) {
    uses_math_ = true;
    return d > 0 ? Expr{"math.inf", kAtom} : Expr{"-math.inf", kUnary};
  }
  std::string s = ir::format_float(d);
  return {s, s[0] == '-' ? kUnary : kAtom};
}

absl::Status ModuleWriter::refuse(const ir::Operation& op, std::string what) {
  return validation_error({"python", str_cat(what, " in ", fn_->name()), "", op.loc() ? op.loc() : fn_->loc()});
}

const std::string* ModuleWriter::global_of(const ir::Value* v) const {
  const std::string* symbol = source::global_symbol(v);
  if (!symbol) return nullptr;
  auto it = global_names_.find(*symbol);
  return it == global_names_.end() ? nullptr : &it->second;
}

}  // namespace python

absl::StatusOr<std::string> python_source(const ir::Module& module) { return python::ModuleWriter(module).run(); }

std::string python_module_path(const std::string& module, ModuleList modules) {
  std::string path = module;
  for (char& c : path)
    if (c == '.') c = '/';
  for (const ir::Module* m : modules)
    if (m->name().starts_with(module + ".")) return path + "/__init__.py";
  return path + ".py";
}

}  // namespace ppy::backends
