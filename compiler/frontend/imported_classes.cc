// Classes imported from another module (imported_classes.h).
#include "imported_classes.h"

#include <functional>

#include "checker_internal.h"
#include "object_list_helpers.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

const ModuleInfo& owner_of(const ModuleInfo& m, Ty cls) {
  const ClassInfo* c = class_info(cls);
  return c && c->owner ? *c->owner : m;
}

const FuncInfo* class_method(const ModuleInfo& m, Ty impl, const std::string& name) {
  const ClassInfo* c = class_info(impl);
  if (!c) return nullptr;
  return owner_of(m, impl).func(str_cat(c->name, ".", name));
}

std::optional<Ty> imported_class(const ModuleInfo& m, const Expr& a) {
  if (a.kind == ExprKind::Name || a.kind == ExprKind::Str) {
    auto b = m.bindings.find(a.str);
    // A from-import is a Func binding until check_module refines it (a function, a constant or a class).
    if (b == m.bindings.end() || b->second.kind != Binding::Func || b->second.name.empty()) return std::nullopt;
    if (m.func_index.count(a.str) || m.classes.count(a.str)) return std::nullopt;
    return class_type(b->second.module, b->second.name);
  }
  if (a.kind != ExprKind::Attribute) return std::nullopt;
  auto path = dotted(*a.kids[0]);
  if (!path) return std::nullopt;
  std::string first = path->substr(0, path->find('.'));
  auto b = m.bindings.find(first);
  if (b == m.bindings.end()) return std::nullopt;
  std::string module;
  if (b->second.kind == Binding::Module) module = b->second.module;
  else if (b->second.kind == Binding::Func && !b->second.name.empty()) module = b->second.module + "." + b->second.name;  // `from pkg import mod`
  else return std::nullopt;
  module += path->substr(first.size());
  return class_type(module, a.str);
}

namespace {

/// Whether `module` declared a class `name` (its interface lists it).
bool declares_class(const ModuleInterfaces& all, const std::string& module, const std::string& name) {
  auto it = all.find(module);
  if (it == all.end()) return false;
  for (const std::string& c : it->second.classes)
    if (c == name) return true;
  return false;
}

}  // namespace

bool bind_imported_classes(ModuleInfo& m, const std::string& local, const Binding& b, const ModuleInterfaces& all) {
  if (b.kind == Binding::Module) {  // `import shapes`, `import app.shapes`: every class of the modules below
    for (auto& [name, i] : all) {
      if (name == m.name || (name != b.module && !name.starts_with(b.module + "."))) continue;
      for (const std::string& c : i.classes)
        m.classes.emplace(str_cat(local, name.substr(b.module.size()), ".", c), class_type(name, c));
    }
    return false;
  }
  if (b.kind != Binding::Func || !declares_class(all, b.module, b.name)) return false;
  m.classes.emplace(local, class_type(b.module, b.name));
  return true;
}

std::pair<std::string, std::string> split_callee(const std::string& q, const ModuleInterfaces& all) {
  for (size_t dot = q.rfind('.'); dot != std::string::npos && dot > 0; dot = q.rfind('.', dot - 1))
    if (all.count(q.substr(0, dot))) return {q.substr(0, dot), q.substr(dot + 1)};
  size_t dot = q.rfind('.');
  if (dot == std::string::npos) return {"", q};
  return {q.substr(0, dot), q.substr(dot + 1)};
}

namespace {

/// The name `m` calls function `fn` of module `home` by: bound as a from-import would be.
std::string bind_home_function(ModuleInfo& m, const ModuleInfo& home, const std::string& fn) {
  std::string local = str_cat(fn, "__of_", home.name);
  for (char& c : local)
    if (c == '.') c = '_';
  if (!m.bindings.count(local)) {
    Binding b;
    b.kind = Binding::Func;
    b.module = home.name;
    b.name = fn;
    m.bindings[local] = b;
  }
  return local;
}

}  // namespace

std::string list_helper_for(ModuleInfo& m, const std::string& op, Ty cls) {
  std::string helper = list_helper_name(op, class_info(cls)->name);
  const ModuleInfo& home = owner_of(m, cls);
  return &home == &m ? helper : bind_home_function(m, home, helper);
}

std::string class_spelling(ModuleInfo& m, Ty t) {
  const ClassInfo& c = *class_info(t);
  if (&owner_of(m, t) == &m) return c.name;
  for (auto& [name, k] : m.classes)
    if (k == t) return name;
  std::string local = str_cat("__ppy_class_", c.module, "_", c.name);
  for (char& ch : local)
    if (ch == '.') ch = '_';
  m.classes.emplace(local, t);
  return local;
}

bool foreign_enum(const ModuleInfo& m, Ty cls) {
  const ModuleInfo& home = owner_of(m, cls);
  return &home != &m && home.func(str_cat("__ppy_", class_info(cls)->name, "_member"));
}

std::optional<std::string> foreign_enum_helper(ModuleInfo& m, Ty cls, const std::string& what) {
  if (!foreign_enum(m, cls)) return std::nullopt;
  const ModuleInfo& home = owner_of(m, cls);
  std::string fn = str_cat("__ppy_", class_info(cls)->name, "_", what);
  if (!home.func(fn)) return std::nullopt;
  return bind_home_function(m, home, fn);
}

std::optional<std::string> foreign_enum_member(ModuleInfo& m, Ty cls, const std::string& member, int64_t& index) {
  if (!foreign_enum(m, cls)) return std::nullopt;
  const ModuleInfo& home = owner_of(m, cls);
  const std::string& name = class_info(cls)->name;
  std::string list = str_cat("__ppy_", name, "_members");  // `[Color("RED", 1), ...]` (enum_classes.h)
  if (!home.code_def) return std::nullopt;
  for (const StmtPtr& s : home.code_def->body) {
    if (!s || s->targets.size() != 1 || s->targets[0]->kind != ExprKind::Name || s->targets[0]->str != list ||
        !s->value || s->value->kind != ExprKind::List)
      continue;
    for (size_t i = 0; i < s->value->kids.size(); ++i) {
      const Expr& made = *s->value->kids[i];
      if (made.kind == ExprKind::Call && made.kids.size() >= 2 && made.kids[1]->kind == ExprKind::Str &&
          made.kids[1]->str == member) {
        index = static_cast<int64_t>(i);
        return bind_home_function(m, home, str_cat("__ppy_", name, "_member"));
      }
    }
  }
  return std::nullopt;
}

std::vector<std::pair<int64_t, int64_t>> tid_ranges(Ty k) {
  std::vector<std::pair<int64_t, int64_t>> out{{class_info(k)->tid, class_info(k)->tid_end}};
  std::function<void(Ty)> visit = [&](Ty t) {
    for (Ty sub : class_info(t)->subclasses) {
      if (class_info(sub)->owner != class_info(t)->owner) {
        auto more = tid_ranges(sub);
        out.insert(out.end(), more.begin(), more.end());
      } else {
        visit(sub);
      }
    }
  };
  visit(k);
  return out;
}

const FuncInfo* foreign_method(const std::string& q, const ModuleInterfaces& all) {
  auto [module, fn] = split_callee(q, all);
  size_t dot = fn.find('.');
  if (dot == std::string::npos || !declares_class(all, module, fn.substr(0, dot))) return nullptr;
  const ClassInfo* c = class_info(class_type(module, fn.substr(0, dot)));
  return c && c->owner ? c->owner->func(fn) : nullptr;
}

}  // namespace ppy::frontend::checking
