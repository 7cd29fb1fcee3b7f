// The checker: declarations, names, types, definite assignment, effects.
#include "checker.h"
#include "generics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <tuple>

#include "body_checker.h"
#include "checker_internal.h"
#include "imported_classes.h"
#include "own_writes.h"
#include "format_template.h"
#include "ppy/util/str_cat.h"
#include "suggest_members.h"
#include "types.h"

namespace ppy::frontend {

namespace {

/// One type at `s[i]` as `ty_name` spells it, compound ones included.
Ty read_ty(const std::string& s, size_t& i) {
  Ty t = Ty::Error;
  if (s.compare(i, 5, "list[") == 0 && s.compare(i, 9, "list[int]") != 0 && s.compare(i, 11, "list[float]") != 0) {
    i += 5;
    Ty e = read_ty(s, i);
    if (e == Ty::Error || i >= s.size() || s[i] != ']') return Ty::Error;
    ++i;
    t = list_of(e);
  } else if (s.compare(i, 5, "dict[") == 0 || s.compare(i, 4, "set[") == 0) {
    bool dict = s[i] == 'd';
    i += dict ? 5 : 4;
    Ty k = read_ty(s, i);
    if (k == Ty::Error) return Ty::Error;
    Ty v = Ty::Error;
    if (dict) {
      if (s.compare(i, 2, ", ") != 0) return Ty::Error;
      i += 2;
      v = read_ty(s, i);
      if (v == Ty::Error) return Ty::Error;
    }
    if (i >= s.size() || s[i] != ']') return Ty::Error;
    ++i;
    t = dict ? dict_of(k, v) : set_of(k);
  } else if (s.compare(i, 6, "tuple[") == 0) {
    i += 6;
    std::vector<Ty> elems;
    if (s.compare(i, 3, "()]") == 0) {
      i += 3;
      t = tuple_of(elems);
    } else {
      for (;;) {
        Ty e = read_ty(s, i);
        if (e == Ty::Error) return Ty::Error;
        elems.push_back(e);
        if (s.compare(i, 2, ", ") == 0) {
          i += 2;
          continue;
        }
        if (i < s.size() && s[i] == ']') {
          ++i;
          break;
        }
        return Ty::Error;
      }
      t = tuple_of(elems);
    }
  } else {
    size_t end = i;
    while (end < s.size() && s[end] != ',' && s[end] != ']' && s[end] != ' ') {
      if (s[end] == '[') end = s.find(']', end);
      if (end == std::string::npos) return Ty::Error;
      ++end;
    }
    std::string word = s.substr(i, end - i);
    for (Ty b : {Ty::None, Ty::Int, Ty::Float, Ty::Bool, Ty::Str, Ty::ListInt, Ty::ListFloat, Ty::PtrInt, Ty::PtrFloat,
                 Ty::ConstPtrInt, Ty::ConstPtrFloat})
      if (word == ty_name(b)) t = b;
    // A class, `module.Name` (ty_string): one its module declared (issue 32).
    if (size_t dot = word.rfind('.'); t == Ty::Error && dot != std::string::npos && word.find('[') == std::string::npos) {
      Ty k = class_type(word.substr(0, dot), word.substr(dot + 1));
      if (class_info(k)->owner && class_info(k)->name == word.substr(dot + 1)) t = k;
    }
    if (t == Ty::Error) return t;
    i = end;
  }
  if (s.compare(i, 7, " | None") == 0) {
    i += 7;
    t = optional_of(t);
  }
  return t;
}

}  // namespace

Ty ty_from_name(const std::string& s) {
  size_t i = 0;
  Ty t = read_ty(s, i);
  return i == s.size() ? t : Ty::Error;
}

namespace checking {

const std::set<std::string>& special_names() {
  static const std::set<std::string> s = [] {
   std::set<std::string> names = {"math",
                                          "math.sqrt",
                                          "math.sin",
                                          "math.cos",
                                          "math.tan",
                                          "math.exp",
                                          "math.log",
                                          "math.log2",
                                          "math.log10",
                                          "math.floor",
                                          "math.ceil",
                                          "math.trunc",
                                          "math.fabs",
                                          "math.pow",
                                          "math.pi",
                                          "math.e",
                                          "math.inf",
                                          "math.tau",
                                          "ppy",
                                          "ppy.export",
                                          "ppy.cuda",
                                          "ppy.native",
                                          "ppy.cuda.kernel",
                                          "ppy.cuda.device",
                                          "ppy.cuda.thread_id",
                                          "ppy.cuda.block_id",
                                          "ppy.cuda.block_dim",
                                          "ppy.cuda.grid_dim",
                                          "ppy.cuda.global_id",
                                          "ppy.cuda.syncthreads",
                                          "ppy.cuda.launch",
                                          "ppy.native.ptr",
                                          "ppy.native.const_ptr",
                                          "ppy.native.offset",
                                          "ppy.native.load",
                                          "ppy.native.store",
                                          "ppy.xla",
                                          "ppy.xla.jit",
                                          "ppy.pure",
                                          "ppy.opt",
                                          "ppy.extern",  // plugins: a stub's native function (plugin_stub.cc)
                                          "ppy.op",      // plugins: an op of a plugin's dialect (plugin_stub.cc)
                                          "typing",
                                          "typing.Optional",
                                          "typing.Union",  // issue 32 (unions.h)
                                          "typing.Tuple",
                                          "typing.List",
                                          // lazy sequences
                                          "typing.Iterator",
                                          "typing.Generator",
                                          "collections",
                                          "collections.abc",
                                          "collections.abc.Iterator",
                                          "collections.abc.Generator",
                                          "typing.Iterable",  // lazy sequences as values (lazy_values.h)
                                          "collections.abc.Iterable",
                                          // abstract containers as parameters: a list, a dict (check_tuple.cc)
                                          "typing.Sequence", "typing.MutableSequence", "typing.Mapping",
                                          "typing.MutableMapping", "collections.abc.Sequence",
                                          "collections.abc.MutableSequence", "collections.abc.Mapping",
                                          "collections.abc.MutableMapping",
                                          "typing.Final",  // final_annotations.h
                                          "dataclasses",
                                          "dataclasses.dataclass",
                                          // dataclass fields' options (check_dataclass.cc)
                                          "dataclasses.field",
                                          // @dataclass(frozen=True) (dataclass_options.h)
                                          "dataclasses.FrozenInstanceError",
                                          // enums (enum_classes.h)
                                          "enum", "enum.Enum", "enum.IntEnum", "enum.auto",
                                          "typing.NamedTuple",  // namedtuple_classes.h
                                          // generics (type_alias.cc, check_generic.cc)
                                          "typing.TypeVar", "typing.TypeAlias", "typing.Generic",
                                          "typing.ParamSpec", "typing.TypeVarTuple", "typing.NewType",
                                          // functions as values (callable.h)
                                          "typing.Callable",
                                          "collections.abc.Callable",
                                          // functools and itertools (check_functools.cc, check_itertools.cc)
                                          "functools", "functools.reduce", "functools.partial", "itertools",
                                          "functools.cache", "functools.lru_cache",  // cache_decorators.h
                                          "itertools.count", "itertools.islice", "itertools.chain",
                                          "itertools.product", "itertools.permutations", "itertools.combinations",
                                          "itertools.accumulate", "itertools.groupby",
                                          "itertools.chain.from_iterable"};
    add_text_names(names);  // text_constants.cc
    return names;
  }();
  return s;
}
bool is_special_module(const std::string& m) {
  return m == "math" || m == "string" || m == "ppy" || m == "ppy.cuda" || m == "ppy.native" || m == "ppy.xla" ||
         m == "typing" || m == "dataclasses" || m == "collections" || m == "collections.abc" || is_io_module(m) ||
         m == "functools" || m == "itertools" || m == "enum" /* enum_classes.h */ ||
         is_stdlib_module(m);  // stdlib: random, time
}

std::optional<std::string> dotted(const Expr& e) {
  if (e.kind == ExprKind::Name) return e.str;
  if (e.kind == ExprKind::Attribute) {
    auto base = dotted(*e.kids[0]);
    if (base) return *base + "." + e.str;
  }
  return std::nullopt;
}

}  // namespace checking

namespace {

using checking::BodyChecker;
using checking::special_names;

/// `t` as an interface spells it: as ty_name, but a class as `module.Name`, so
/// that another module reads it back (ty_from_name) as the same class.
std::string ty_string(Ty t) {
  if (const ClassInfo* c = class_info(t)) return str_cat(c->module, ".", c->name);
  if (is_list(t)) return str_cat("list[", ty_string(list_elem(t)), "]");
  if (is_optional(t)) return str_cat(ty_string(optional_inner(t)), " | None");
  if (is_dict(t)) return str_cat("dict[", ty_string(key_of(t)), ", ", ty_string(dict_value(t)), "]");
  if (is_set(t)) return str_cat("set[", ty_string(key_of(t)), "]");
  if (is_tuple(t) && !tuple_elems(t).empty()) {
    std::string s = "tuple[";
    for (Ty e : tuple_elems(t)) str_append(s, s.size() > 6 ? ", " : "", ty_string(e));
    return s + "]";
  }
  return ty_name(t);
}

}  // namespace

ModuleInterface interface_of(const ModuleInfo& m) {
  ModuleInterface out;
  out.name = m.name;
  for (const FuncInfo& f : m.funcs) {
    if (f.name.find('.') != std::string::npos) continue;  // a method: reached through its class only
    FuncSignature s;
    s.name = f.name;
    for (auto& p : f.def->params) s.param_names.push_back(p.name);
    for (Ty t : f.params) s.param_types.push_back(ty_string(t));
    for (const auto& d : f.defaults) {
      std::optional<ConstantValue> v;
      if (d) v = ConstantValue{ty_string(d->ty), d->i, d->f, d->b};
      s.param_defaults.push_back(v);
    }
    s.result_type = ty_string(f.result);
    s.effects.assign(f.effects.begin(), f.effects.end());
    s.gpu_kind = f.gpu_kind;
    s.exported = f.exported;
    out.functions[f.name] = std::move(s);
  }
  // generics: a template's signature as written, for its callers to infer from (check_generic.cc).
  for (auto& [n, g] : m.generic_funcs) {
    FuncSignature s;
    s.name = n;
    for (auto& p : g.def->params) {
      s.param_names.push_back(p.name);
      s.param_types.push_back(p.annotation ? checking::annotation_text(*p.annotation) : "<error>");
    }
    for (const auto& d : g.defaults) {
      std::optional<ConstantValue> v;
      if (d) v = ConstantValue{is_none_value(d->ty) ? "None" : ty_string(d->ty), d->i, d->f, d->b, d->s};
      s.param_defaults.push_back(v);
    }
    s.result_type = g.def->returns ? checking::annotation_text(*g.def->returns) : "<error>";
    s.type_params = g.type_params;
    out.functions[n] = std::move(s);
  }
  for (Ty t : m.class_order) out.classes.push_back(class_info(t)->name);
  for (auto& [n, c] : m.consts) {
    ConstantValue v;
    v.type = ty_string(c.ty);
    v.i = c.i;
    v.f = c.f;
    v.b = c.b;
    v.s = c.s;
    out.constants[n] = v;
  }
  out.imports = m.imports;
  return out;
}

namespace {

/// The modules whose code (`__init__`) runs before the entry's, in Python's
/// import order: each module's imports first, each module once.
std::vector<std::string> init_order(const ModuleInfo& m, const ModuleInterfaces& all) {
  std::vector<std::string> order;
  std::set<std::string> seen = {m.name};
  std::function<void(const std::vector<std::string>&)> visit = [&](const std::vector<std::string>& imports) {
    for (const std::string& i : imports) {
      auto it = all.find(i);
      if (it == all.end() || !seen.insert(i).second) continue;
      visit(it->second.imports);
      if (it->second.functions.count("__init__")) order.push_back(i);
    }
  };
  visit(m.imports);
  return order;
}

}  // namespace

/// The project's module names: candidates for a misspelt import (suggest_members.h).
static std::vector<std::string> project_modules(const ModuleInterfaces& all) {
  std::vector<std::string> names;
  for (auto& [name, _] : all) names.push_back(name);
  return names;
}

void check_module(ModuleInfo& m, const ModuleInterfaces& all, DiagnosticEngine& diags) {
  // Import bindings: every project module named must exist, and every imported name.
  for (auto& [local, b] : m.bindings) {
    if (b.kind == Binding::Special) {
      if (b.name == "typing.Any")  // issue 32: a named refusal (docs/language.md, "Unions")
        diags.error("E1010", m.path, b.pos.line, b.pos.col,
                    "typing.Any is outside the ppy subset (every value has a static type: a union names several)");
      else if (!special_names().count(b.name) && !checking::is_io_name(b.name))
        diags.error("E1070", m.path, b.pos.line, b.pos.col, str_cat("'", b.name, "' is not available in the ppy subset"));
      continue;
    }
    if (b.kind == Binding::Module) {
      checking::bind_imported_classes(m, local, b, all);  // `shapes.Circle` (imported_classes.h)
      bool found = false;
      for (auto& [name, _] : all)
        if (name == b.module || name.starts_with(b.module + ".")) found = true;
      if (!found || b.module == m.name)
        diags.error("E1070", m.path, b.pos.line, b.pos.col,
                    b.module == m.name ? str_cat("module ", m.name, " imports itself")
                                       : str_cat("no module named '", b.module, "' in the project",
                                                 module_suggestion(b.module, project_modules(all))));
      continue;
    }
    auto mod = all.find(b.module);
    bool package = false;
    for (auto& [name, _] : all)
      if (name.starts_with(b.module + ".")) package = true;
    if ((mod == all.end() && !package) || b.module == m.name) {
      diags.error("E1070", m.path, b.pos.line, b.pos.col,
                  b.module == m.name ? str_cat("module ", m.name, " imports from itself")
                                     : str_cat("no module named '", b.module, "' in the project",
                                               module_suggestion(b.module, project_modules(all))));
      continue;
    }
    if (mod != all.end() && mod->second.functions.count(b.name)) {
      b.kind = Binding::Func;
    } else if (mod != all.end() && mod->second.constants.count(b.name)) {
      b.kind = Binding::Const;
    } else if (all.count(b.module + "." + b.name)) {
      b.kind = Binding::Module;
      b.module = b.module + "." + b.name;
      b.name.clear();
      checking::bind_imported_classes(m, local, b, all);
    } else if (checking::bind_imported_classes(m, local, b, all)) {  // `from shapes import Circle` (issue 32)
    } else {
      diags.error("E1070", m.path, b.pos.line, b.pos.col,
                  str_cat("cannot import name '", b.name, "' from '", b.module, "'"));
    }
  }
  for (auto& [local, b] : m.bindings)
    if (m.func_index.count(local) || m.consts.count(local))
      diags.error("E1021", m.path, b.pos.line, b.pos.col, str_cat("'", local, "' is both imported and defined in module ", m.name));
  // An entry whose guard only calls main() has the guard for its code
  // (`__main__`), as python3 runs it: its traceback's `<module>` frame is the
  // guard's call (issue 34), and a module it imports with code of its own runs first.
  if (m.is_entry && !m.guard_code.empty() && !m.func("__main__")) {
    m.code_def = std::make_unique<FuncDef>();
    m.code_def->name = "__main__";
    m.code_def->pos = m.guard_code[0]->pos;
    m.code_def->body = std::move(m.guard_code);
    m.code_def->incomplete = m.ast.incomplete;
    FuncInfo code;
    code.def = m.code_def.get();
    code.name = "__main__";
    code.result = Ty::None;
    code.module_code = true;
    m.func_index["__main__"] = m.funcs.size();
    m.funcs.push_back(std::move(code));
  }
  // The module's code first: it gives the module variables their types, which
  // functions that use them (`global`, or a read) need.
  for (FuncInfo& f : m.funcs)
    if (f.module_code) {
      BodyChecker(m, f, all, diags).run();
      for (auto& [name, ty] : f.locals)
        if (m.module_vars.count(name)) m.module_var_types[name] = ty;
    }
  for (FuncInfo& f : m.funcs)
    if (!f.module_code) BodyChecker(m, f, all, diags).run();
  // The module's code reaches the variables functions share through globals.
  for (FuncInfo& f : m.funcs)
    if (f.module_code)
      for (auto& [name, ty] : f.locals)
        if (m.shared_vars.count(name)) f.effects.insert({"reads", "writes", "globals"});
  for (auto& [name, pos] : m.main_calls) {
    FuncInfo* f = m.func(name);
    if (!f)
      diags.error("E1020", m.path, pos.line, pos.col, str_cat("name '", name, "' is not defined"));
    else if (!f->params.empty() || !f->gpu_kind.empty())
      diags.error("E1032", m.path, pos.line, pos.col,
                  str_cat("the program entry '", name, "' must be a host function without parameters"));
  }
  if (FuncInfo* code = m.func("__main__"); code && code->module_code) {
    m.init_order = init_order(m, all);
    for (const std::string& i : m.init_order) {
      code->callees.insert(i + ".__init__");
      m.externals.insert(i + ".__init__");
    }
    return;  // main() is an ordinary function then
  }
  if (FuncInfo* main = m.func("main"); main && (!main->params.empty() || (main->result != Ty::None && main->result != Ty::Error)))
    diags.error("E1032", m.path, main->def->pos.line, main->def->pos.col,
                "main() is a program's entry: it takes no parameters and returns None");
}

void propagate_effects(ModuleInfo& m, const ModuleInterfaces& all) {
  for (bool changed = true; changed;) {
    changed = false;
    for (FuncInfo& f : m.funcs) {
      size_t before = f.effects.size();
      for (const std::string& q : f.callees) {
        size_t dot = q.rfind('.');
        std::string mod = q.substr(0, dot), fn = q.substr(dot + 1);
        if (q.starts_with(m.name + ".") && m.func(q.substr(m.name.size() + 1))) {  // a method `Class.m`
          const FuncInfo* g = m.func(q.substr(m.name.size() + 1));
          f.effects.insert(g->effects.begin(), g->effects.end());
        } else if (mod == m.name) {
          if (FuncInfo* g = m.func(fn)) f.effects.insert(g->effects.begin(), g->effects.end());
        } else if (const FuncInfo* g = checking::foreign_method(q, all)) {  // an imported class's method
          f.effects.insert(g->effects.begin(), g->effects.end());
        } else if (auto it = all.find(mod); it != all.end()) {
          auto s = it->second.functions.find(fn);
          if (s != it->second.functions.end()) f.effects.insert(s->second.effects.begin(), s->second.effects.end());
        }
      }
      if (f.effects.size() != before) changed = true;
    }
  }
}

namespace {

/// Effects a `@ppy.pure` function may not have, with how a message says each.
/// Raising is compatible with purity; reading a list it was given is too.
const std::map<std::string, std::string>& impure_effects() {
  static const std::map<std::string, std::string> m = {
      {"io", "prints"}, {"writes", "writes to memory (a list element or a module variable)"},
      {"globals", "uses a module variable"}};
  return m;
}

}  // namespace

void check_effect_claims(const ModuleInfo& m, const ModuleInterfaces& all, DiagnosticEngine& diags) {
  auto effects_of = [&](const std::string& q) -> std::set<std::string> {
    size_t dot = q.rfind('.');
    std::string mod = q.substr(0, dot), fn = q.substr(dot + 1);
    if (mod == m.name) {
      auto it = m.func_index.find(fn);
      return it == m.func_index.end() ? std::set<std::string>{} : m.funcs[it->second].effects;
    }
    if (const FuncInfo* g = checking::foreign_method(q, all)) return g->effects;  // an imported class's method
    auto mi = all.find(mod);
    if (mi == all.end()) return {};
    auto fi = mi->second.functions.find(fn);
    if (fi == mi->second.functions.end()) return {};
    return {fi->second.effects.begin(), fi->second.effects.end()};
  };
  for (const FuncInfo& f : m.funcs) {
    if (!f.pure_claim) continue;
    for (const auto& [effect, words] : impure_effects()) {
      if (!f.effects.count(effect)) continue;
      // Its own doing first; else the first call that brings the effect in.
      if (auto own = f.effect_sites.find(effect); own != f.effect_sites.end()) {
        diags.error("E1110", m.path, own->second.line, own->second.col,
                    str_cat("'", f.name, "' is declared @ppy.pure but ", words, " here"));
        break;
      }
      const std::pair<const std::string, Pos>* first = nullptr;
      for (const auto& site : f.callee_sites) {
        if (!effects_of(site.first).count(effect)) continue;
        if (!first || std::tie(site.second.line, site.second.col) < std::tie(first->second.line, first->second.col))
          first = &site;
      }
      if (!first && effect == "writes" && checking::writes_only_own(f)) continue;  // its own containers (own_writes.h)
      if (first)
        diags.error("E1110", m.path, first->second.line, first->second.col,
                    str_cat("'", f.name, "' is declared @ppy.pure but calls '",
                            first->first.substr(first->first.rfind('.') + 1), "', which ", words));
      else
        diags.error("E1110", m.path, f.pure_pos.line, f.pure_pos.col,
                    str_cat("'", f.name, "' is declared @ppy.pure but ", words));
      break;
    }
  }
}

}  // namespace ppy::frontend
